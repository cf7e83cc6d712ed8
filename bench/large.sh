#!/bin/sh
# Large landing benchmark (issue 17 item 4): one answer creating N new
# files (default 100,000, in 1,000 directories), landed once in each
# mode on a fresh copy of a small repository, beside git apply --index.
#
# Usage: bench/large.sh [files]
# Environment: AA_BIN_DIR (directory holding the git-ai-apply to
# measure; default the top of the source tree), AA_BENCH_NO_GIT (set:
# no git apply rows).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
files=${1:-100000}
work=$top/bench/work/large-$files
PATH="${AA_BIN_DIR:-$top}:$PATH"

rm -rf "$work" && mkdir -p "$work" && cd "$work"
git init -q base && (
	cd base && git config user.name bench &&
	git config user.email bench@example.com &&
	echo base >README && git add README && git commit -q -m base
)
awk -v n="$files" 'BEGIN {
	for (i = 0; i < n; i++) {
		p = sprintf("d%03d/f%06d.txt", i % 1000, i)
		printf "diff --git a/%s b/%s\nnew file mode 100644\n", p, p
		printf "--- /dev/null\n+++ b/%s\n@@ -0,0 +1,2 @@\n", p
		printf "+file %d\n+line two of %d\n", i, i
	}
}' >answer.diff

# seconds CMD...: wall-clock seconds of one run
seconds () {
	s=$(date +%s.%N)
	"$@" >/dev/null
	e=$(date +%s.%N)
	echo "$e - $s" | bc
}

run () {
	label=$1 && shift
	rm -rf repo && cp -R base repo && cd repo
	t=$(seconds "$@")
	loose=$(find .git/objects -type f -path "*/[0-9a-f][0-9a-f]/*" | wc -l)
	packs=$(ls .git/objects/pack/*.pack 2>/dev/null | wc -l)
	printf "| %s | %s s | %s loose, %s pack |\n" "$label" "$t" "$loose" "$packs"
	cd ..
}

echo "| mode ($files new files) | wall clock | objects |"
echo "|---|---|---|"
run "git ai-apply" git ai-apply -q ../answer.diff
run "git ai-apply --cached" git ai-apply -q --cached ../answer.diff
run "git ai-apply --branch" git ai-apply -q --branch=big ../answer.diff
test -n "$AA_BENCH_NO_GIT" && exit 0
run "git apply --index" git apply --index ../answer.diff
run "git apply --cached" git apply --cached ../answer.diff
