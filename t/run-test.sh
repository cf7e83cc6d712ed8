#!/bin/sh
# prove's --exec helper: sharness scripts run under sh, unit test
# binaries run directly (both print TAP).
case "$1" in
*.sh) exec sh "$@" ;;
*) exec "$@" ;;
esac
