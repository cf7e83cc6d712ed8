#!/bin/sh
# make bench: every benchmark, one after the other.
set -e
cd "$(dirname "$0")"
command -v hyperfine >/dev/null 2>&1 || {
	sudo=; test "$(id -u)" = 0 || sudo=sudo
	$sudo apt-get install -y -qq hyperfine
}
sh ./land.sh
sh ./locate.sh
sh ./formats.sh
sh ./plan.sh
for b in */run.sh; do
	if test -f "$b"; then sh "$b"; fi
done
