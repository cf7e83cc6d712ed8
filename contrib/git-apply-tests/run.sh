#!/bin/bash
# run.sh [-j <jobs>] [-o <out>] [--ai-apply <binary>] <git-source> [<script>...]
#
# Runs git's own apply tests (t41xx and every other t*.sh that calls
# `git apply`) with `git apply` routed to `git ai-apply` wherever its
# options allow (see README). <git-source> is a git source tree at the
# version of the installed git (2.39.5); when it does not exist it is
# cloned (git clone --depth 1 --branch v<version>), and when git or
# t/helper/test-tool is not built there yet it is built (make all; the
# build is kept and reused). Writes <out>/results.tsv (script, test,
# title, result, routed calls, not-applicable reasons), <out>/logs (each
# script's TAP output and its `git apply` calls) and prints the counts.
# Not part of `make test`: it takes minutes.

set -u
here=$(cd "$(dirname "$0")" && pwd)
jobs=2
out=${TMPDIR:-/tmp}/git-apply-tests
ai=$(cd "$here/../.." && pwd)/git-ai-apply

usage () {
	sed -n '2,3p' "$0" | sed 's/^# //' >&2
	exit 2
}
while test $# -gt 0
do
	case $1 in
	-j) jobs=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	--ai-apply) ai=$2; shift 2 ;;
	-h|--help) usage ;;
	-*) usage ;;
	*) break ;;
	esac
done
test $# -ge 1 || usage
src=$1
shift

version=$(git --version | sed 's/^git version //; s/ .*//')
if ! test -d "$src"
then
	git clone -q --depth 1 --branch "v$version" \
		https://github.com/git/git "$src" || exit 2
fi
src=$(cd "$src" && pwd)
test -x "$ai" || { echo "run.sh: no git-ai-apply at $ai (run make)" >&2; exit 2; }

if ! test -x "$src/git" || ! test -x "$src/t/helper/test-tool"
then
	echo "building git in $src (minutes) ..." >&2
	test -f "$src/config.mak" || cat >"$src/config.mak" <<-'EOF'
	NO_CURL=1
	NO_TCLTK=1
	NO_GETTEXT=1
	NO_PYTHON=1
	NO_EXPAT=1
	EOF
	make -C "$src" -j"$jobs" all >"$src/gitsuite-build.log" 2>&1 || {
		echo "run.sh: build failed, see $src/gitsuite-build.log" >&2
		exit 2
	}
fi

if test $# -eq 0
then
	set -- $(cd "$src/t" && { ls t41[0-4]*.sh
		grep -l -E '(^|[^-a-z])git( -C [^ ]+)? apply' t[0-9]*.sh; } |
		sort -u)
fi

rm -rf "$out"
mkdir -p "$out/bin" "$out/shim" "$out/logs" "$out/patches" "$out/trash"
cp "$here/git-wrapper" "$out/bin/git"
ln -s "$ai" "$out/bin/git-ai-apply"
"$ai" -h >"$out/ai-help.txt" 2>&1
# The test number reaches the wrapper through the hook test-lib.sh
# keeps for test-case output.
cat >"$out/shim/test-lib.sh" <<'EOF'
. "$TEST_DIRECTORY/test-lib.sh"
start_test_case_output () {
	GITSUITE_TEST=$test_count
	export GITSUITE_TEST
}
EOF

run_one () {
	name=${1%.sh}
	(
		cd "$out/shim" &&
		TEST_DIRECTORY=$src/t \
		TEST_OUTPUT_DIRECTORY=$out/trash \
		GIT_TEST_INSTALLED=$out/bin \
		GIT_TEST_EXEC_PATH=$src \
		GITSUITE_REAL_GIT=$src/git \
		GITSUITE_LOG=$out/logs/$name.log \
		GITSUITE_DIR=$out/patches \
		GITSUITE_AI_HELP=$out/ai-help.txt \
		timeout 600 sh "$src/t/$1" --no-color
	) >"$out/logs/$name.tap" 2>&1
	echo "$1 done" >&2
}
export -f run_one
export out src
printf '%s\n' "$@" | xargs -P "$jobs" -I{} bash -c 'run_one {}'

python3 "$here/summarize.py" "$out" "$@"
