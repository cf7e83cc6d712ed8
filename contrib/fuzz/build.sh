#!/bin/sh
# Builds the libFuzzer targets with clang, ASan and UBSan into build-fuzz/
# (make fuzz). Prints a message and succeeds without building when clang
# or its libFuzzer runtime is missing (apt-get install clang).
#
#   build-fuzz/fuzz-<target> [libFuzzer options] [corpus dirs]
#   sh contrib/fuzz/run.sh            (make fuzz-long: every target)
#
# The library is built by the Makefile itself into build-fuzz/ (so it
# is rebuilt only when a source changes); each target is one
# contrib/fuzz/fuzz-<target>.c. replay.c runs a target over files
# without libFuzzer, with any compiler.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. contrib/fuzz/targets.sh
CLANG=${CLANG:-clang}
out=build-fuzz
if ! command -v "$CLANG" >/dev/null 2>&1; then
	echo "fuzz: $CLANG not found; skipping the fuzz targets" \
	     "(apt-get install clang)"
	exit 0
fi
mkdir -p "$out"
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)
{ (void)d; (void)n; return 0; }' >"$out/probe.c"
if ! "$CLANG" -fsanitize=fuzzer "$out/probe.c" -o "$out/probe" 2>/dev/null; then
	echo "fuzz: $CLANG cannot link -fsanitize=fuzzer (no libFuzzer" \
	     "runtime); skipping the fuzz targets"
	exit 0
fi
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
opt="-O2 -g"
${MAKE:-make} -s B="$out" CC="$CLANG" OPT="$opt" \
	SAN_FLAGS="-fsanitize=fuzzer-no-link $san" "$out/libaiapply.a"
pkgs="libgit2 yaml-0.1 libcjson libxxhash zlib"
cflags="-std=c11 -Wall -Wextra -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc $opt"
for t in $FUZZ_TARGETS; do
	src=contrib/fuzz/fuzz-$t.c
	bin=$out/fuzz-$t
	# rebuilt when its source, the shared header or the library changed
	if test -f "$bin" && test "$bin" -nt "$src" &&
	   test "$bin" -nt contrib/fuzz/fuzz.h &&
	   test "$bin" -nt "$out/libaiapply.a"; then
		continue
	fi
	"$CLANG" $cflags -fsanitize=fuzzer $san "$src" "$out/libaiapply.a" \
		$(pkg-config --libs $pkgs) -o "$bin"
	echo "built $bin"
done
