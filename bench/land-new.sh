#!/bin/sh
# Large landings (issue 17 item 4): N new files (default 100,000) in
# N/100 directories, one git diff, landed in each mode, timed once each
# beside git apply:
#
#   parse + plan   git ai-apply --check
#   default        git ai-apply            vs  git apply --index
#   --cached       git ai-apply --cached   vs  git apply --cached
#   --branch       git ai-apply --branch=x vs  git apply --cached (own
#                  index) + write-tree + commit-tree + update-ref
#
# Each landing starts from a fresh copy of a one-commit repository; the
# trees of both tools must be identical. One run each (RUNS=n: the
# median of n); not a test, nothing fails because something is slow.
#
# Usage: bench/land-new.sh [files]. AA_BIN_DIR as for the other scripts.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
files=${1:-100000}
runs=${RUNS:-1}
work=$top/bench/work/land-new-$files
PATH="${AA_BIN_DIR:-$top}:$PATH"

if ! test -f "$work/new.diff"; then
	rm -rf "$work" && mkdir -p "$work" && cd "$work"
	git init -q base
	(cd base && git config user.name bench && git config user.email bench@example.com &&
		echo base >README && git add README && git commit -q -m base)
	awk -v n="$files" 'BEGIN {
		for (i = 0; i < n; i++) {
			p = sprintf("d%04d/f%06d.txt", i % (n / 100), i)
			printf "diff --git a/%s b/%s\nnew file mode 100644\n", p, p
			printf "--- /dev/null\n+++ b/%s\n@@ -0,0 +1,2 @@\n+file %d\n+line two\n", p, i
		}
	}' >new.diff
fi
cd "$work"

now () { date +%s.%N; }

# timed NAME COMMAND: runs COMMAND (in "run", a fresh copy of base)
# RUNS times, prints the median and leaves the last copy.
timed () {
	name=$1 && shift
	: >times
	k=0
	while test $k -lt "$runs"; do
		rm -rf run && cp -R base run
		t0=$(now)
		(cd run && eval "$*") >/dev/null
		t1=$(now)
		echo "$t1 - $t0" | bc >>times
		k=$((k + 1))
	done
	med=$(sort -n times | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	printf "%-40s %8.2f s\n" "$name" "$med"
}

tree_of () {
	(cd run && git write-tree)
}

echo "$files new files in $((files / 100)) directories; $(nproc) CPUs; $(git --version)"
timed "git ai-apply --check (parse + plan)" git ai-apply -q --check ../new.diff

timed "git ai-apply (default)" git ai-apply -q ../new.diff
ai=$(tree_of)
timed "git apply --index" git apply --index ../new.diff
test "$ai" = "$(tree_of)" || { echo "default: trees differ"; exit 1; }

timed "git ai-apply --cached" git ai-apply -q --cached ../new.diff
ai=$(tree_of)
timed "git apply --cached" git apply --cached ../new.diff
test "$ai" = "$(tree_of)" || { echo "--cached: trees differ"; exit 1; }

timed "git ai-apply --branch=x" git ai-apply -q --branch=x ../new.diff
ai=$(cd run && git rev-parse 'x^{tree}')
timed "git apply --cached + commit-tree (branch)" \
	'GIT_INDEX_FILE=.git/bench-index git read-tree HEAD &&
	 GIT_INDEX_FILE=.git/bench-index git apply --cached ../new.diff &&
	 t=$(GIT_INDEX_FILE=.git/bench-index git write-tree) &&
	 c=$(echo msg | git commit-tree $t -p HEAD) && git update-ref refs/heads/y $c'
test "$ai" = "$(cd run && git rev-parse 'y^{tree}')" || { echo "--branch: trees differ"; exit 1; }
echo "trees: identical to git's in every mode"
