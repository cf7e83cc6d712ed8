#!/bin/sh
# Suggestion branches (issue 9): 100 answers of 3 files each against the
# 100,000-file repository of bench/land.sh, as 100 branches:
#
#   git ai-apply --each --branch=s a001.diff ... a100.diff   (one process)
#   vs a shell loop of 100 `git ai-apply --branch=l-<k> a<k>.diff`
#   vs a shell loop of 100 git pipelines: a temporary index, git apply
#      --cached, write-tree, commit-tree, update-ref
#   and `git ai-apply --list 's-*'` over the 100 suggestion branches.
#
# Before timing, the three must give the same tree on every branch.
#
# Usage: bench/each.sh [files]   (default 100000). Needs hyperfine.
# Environment: RUNS (runs of the one-process commands, default 10),
# LOOP_RUNS (runs of the 100-call loops, default 3), AA_BIN_DIR.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
files=${1:-100000}
work=$top/bench/work/land-$files
runs=${RUNS:-10}
loop_runs=${LOOP_RUNS:-3}
n=100
PATH="${AA_BIN_DIR:-$top}:$PATH"

AA_BENCH_BUILD_ONLY=1 sh "$top/bench/land.sh" "$files"
cd "$work/repo"
git read-tree HEAD

# Answer k edits files 3k, 3k+1, 3k+2 (one line each), as a git diff.
mkdir -p ../each
awk -v n="$n" -v files="$files" 'BEGIN {
	for (k = 1; k <= n; k++) {
		out = sprintf("../each/a%03d.diff", k)
		printf "" >out
		for (j = 0; j < 3; j++) {
			i = (3 * k + j) * 97 % files
			p = sprintf("d%03d/f%06d.txt", i % 1000, i)
			printf "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n", p, p, p, p >>out
			printf "@@ -1,3 +1,3 @@\n file %d\n-line two of %d\n+LINE TWO of %d\n line three\n", i, i, i >>out
		}
		close(out)
	}
}'
answers=$(ls ../each/a*.diff | tr '\n' ' ')

drop_branches () {
	git for-each-ref --format='delete %(refname)' "refs/heads/$1-*" |
	git update-ref --stdin
}
cat >../each/loop-ai.sh <<'SH'
for k in $(seq -f %03g 1 100); do
	git ai-apply -q --branch=l-$k ../each/a$k.diff || exit 1
done
SH
cat >../each/loop-git.sh <<'SH'
export GIT_INDEX_FILE=../each/index.tmp
for k in $(seq -f %03g 1 100); do
	git read-tree HEAD &&
	git apply --cached ../each/a$k.diff &&
	t=$(git write-tree) &&
	c=$(echo "suggestion $k" | git commit-tree $t -p HEAD) &&
	git update-ref refs/heads/g-$k $c || exit 1
done
rm -f ../each/index.tmp
SH

# The same tree on every branch before anything is timed.
drop_branches s; drop_branches l; drop_branches g
git ai-apply -q --each --branch=s $answers
sh ../each/loop-ai.sh
sh ../each/loop-git.sh
for k in $(seq 1 $n); do
	kk=$(printf %03d $k)
	s=$(git rev-parse "s-$k^{tree}") l=$(git rev-parse "l-$kk^{tree}")
	g=$(git rev-parse "g-$kk^{tree}")
	if test "$s" != "$g" || test "$l" != "$g"; then
		echo "answer $k: wrong tree: git $g, --each $s, --branch loop $l"
		exit 1
	fi
done
listed=$(git ai-apply --list 's-*' | grep -c '^s-' || true)
if test "$listed" != "$n"; then
	echo "--list 's-*' shows $listed branches, not $n"
	git ai-apply --list 's-*' | head
	exit 1
fi
echo "result: $n branches, the same tree from --each, the --branch loop and git; --list shows $n"

hyperfine --style basic --runs "$runs" --warmup 1 \
	--export-json ../each/each.json \
	--prepare "git for-each-ref --format='delete %(refname)' 'refs/heads/s-*' | git update-ref --stdin" \
	-n "git ai-apply --each ($n answers)" "git ai-apply -q --each --branch=s $answers"
hyperfine --style basic --runs "$loop_runs" --warmup 0 \
	--export-json ../each/loop.json \
	--prepare "git for-each-ref --format='delete %(refname)' 'refs/heads/l-*' 'refs/heads/g-*' | git update-ref --stdin" \
	-n "$n x git ai-apply --branch" 'sh ../each/loop-ai.sh' \
	-n "$n x git pipeline" 'sh ../each/loop-git.sh'
hyperfine --style basic --runs "$runs" --warmup 2 \
	--export-json ../each/list.json \
	-n "git ai-apply --list ($n branches)" "git ai-apply --list 's-*'"

python3 - "$work/each" <<'PY'
import json, sys
d = sys.argv[1]
each = json.load(open(f"{d}/each.json"))["results"][0]["median"]
loop = json.load(open(f"{d}/loop.json"))["results"]
lst = json.load(open(f"{d}/list.json"))["results"][0]["median"]
ai, git = loop[0]["median"], loop[1]["median"]
print(f"--each {each*1000:.0f} ms; --branch loop {ai*1000:.0f} ms ({ai/each:.1f}x, target >= 10x); "
      f"git loop {git*1000:.0f} ms ({git/each:.1f}x, target >= 50x); --list {lst*1000:.1f} ms (target <= 100 ms)")
PY
