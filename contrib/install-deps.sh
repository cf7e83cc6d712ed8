#!/bin/sh
# Installs what the build, the manual and the tests need when it is
# missing (Debian packages). Run as root, or with sudo available. This is
# the only step that uses the network: make, make doc, make install and
# make test-run do not.
set -e

missing=
have_pc() { pkg-config --exists "$1" 2>/dev/null; }

command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
have_pc libgit2   || missing="$missing libgit2-dev"
have_pc yaml-0.1  || missing="$missing libyaml-dev"
have_pc libcjson  || missing="$missing libcjson-dev"
have_pc libxxhash || missing="$missing libxxhash-dev"
have_pc zlib      || missing="$missing zlib1g-dev"
# SHA-1 of the packs --each writes (libgit2-dev depends on it already)
test -f /usr/include/mbedtls/sha1.h || missing="$missing libmbedtls-dev"
# SHA-1 of the index we write (OpenSSL's, hardware accelerated; libssh2,
# which libgit2 loads, links libcrypto already)
test -f /usr/include/openssl/evp.h || missing="$missing libssl-dev"
have_pc cmocka    || missing="$missing libcmocka-dev"
# The static build (Makefile STATIC_ORDER): the archives of libgit2 and
# of what it links (Debian 12 packages no libcjson.a: cJSON stays shared).
have_archive() {
	case $(${CC:-cc} -print-file-name="lib$1.a" 2>/dev/null) in
	/*) return 0 ;;
	esac
	return 1
}
have_archive git2        || missing="$missing libgit2-dev"
have_archive yaml        || missing="$missing libyaml-dev"
have_archive xxhash      || missing="$missing libxxhash-dev"
have_archive mbedtls     || missing="$missing libmbedtls-dev"
have_archive http_parser || missing="$missing libhttp-parser-dev"
have_archive ssh2        || missing="$missing libssh2-1-dev"
have_archive crypto      || missing="$missing libssl-dev"
have_archive pcre2-8     || missing="$missing libpcre2-dev"
have_archive z           || missing="$missing zlib1g-dev"
command -v jq >/dev/null 2>&1 || missing="$missing jq"
test -f /usr/share/sharness/sharness.sh || missing="$missing sharness"
command -v prove >/dev/null 2>&1 || missing="$missing perl"
command -v git >/dev/null 2>&1 || missing="$missing git"
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
command -v patch >/dev/null 2>&1 || missing="$missing patch"
command -v make >/dev/null 2>&1 || missing="$missing make"
# The manual (make doc, make install) and git help ai-apply.
command -v asciidoctor >/dev/null 2>&1 || missing="$missing asciidoctor"
command -v man >/dev/null 2>&1 || missing="$missing man-db"
# t1400: a real terminal session for -p (skipped without it).
command -v tmux >/dev/null 2>&1 || missing="$missing tmux"
# t1282: LFS-tracked paths through the real git-lfs (skipped without it).
command -v git-lfs >/dev/null 2>&1 || missing="$missing git-lfs"
# t0200: the installed completion, as bash-completion's loader finds it.
test -f /usr/share/bash-completion/bash_completion ||
	missing="$missing bash-completion"

test -z "$missing" && exit 0
missing=" $(printf '%s\n' $missing | sort -u | tr '\n' ' ')"
missing=${missing% }

echo "install-deps: installing$missing"
sudo=
test "$(id -u)" = 0 || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq $missing
