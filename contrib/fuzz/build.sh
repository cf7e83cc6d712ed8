#!/bin/sh
# Builds the libFuzzer targets with clang, ASan and UBSan into build-fuzz/:
#
#   sh contrib/fuzz/build.sh          (or: make fuzz)
#   build-fuzz/fuzz-input -max_total_time=300 corpus/
#   build-fuzz/fuzz-text -max_total_time=300
#
# A good seed corpus for fuzz-input is Documentation/examples/ plus a
# few diffs with their base after a "=====BASE=====" line (see the top
# of fuzz-input.c). replay.c runs the targets over files without
# libFuzzer, with any compiler.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
command -v clang >/dev/null 2>&1 || {
	sudo=; test "$(id -u)" = 0 || sudo=sudo
	$sudo apt-get install -y -qq clang
}
out=build-fuzz
mkdir -p "$out/obj"
flags="-std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc -g -O1"
pkgs="libgit2 yaml-0.1 libcjson libxxhash"
objs=
for f in src/*.c src/format/*.c; do
	test "$f" = src/cli.c && continue
	o="$out/obj/$(echo "$f" | tr / _).o"
	clang $flags -fsanitize=fuzzer-no-link,address,undefined \
		$(pkg-config --cflags $pkgs) -c "$f" -o "$o"
	objs="$objs $o"
done
for t in fuzz-input fuzz-text fuzz-newformats; do
	clang $flags -fsanitize=fuzzer,address,undefined "contrib/fuzz/$t.c" \
		$objs $(pkg-config --libs $pkgs) -o "$out/$t"
	echo "built $out/$t"
done
