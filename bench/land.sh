#!/bin/sh
# Landing benchmark (issue: foundation): a 100,000-file synthetic
# repository, a 10-file change, timed side by side with git in one run.
#
#   git ai-apply --branch=x  vs  git apply --cached && write-tree &&
#                                commit-tree && update-ref
#   git ai-apply --cached    vs  git apply --cached
#   git ai-apply (default)   vs  git apply --index
#   git ai-apply --check     vs  git apply --check --index, git apply --check
#
# Before timing, --cached and --branch must give the tree git apply gives.
#
# Usage: bench/land.sh [files]   (default 100000). Needs hyperfine.
# Environment: RUNS (default 10), AA_BIN_DIR (directory holding the
# git-ai-apply to measure; default the top of the source tree),
# AA_BENCH_BUILD_ONLY (set: build the repository, time nothing).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
files=${1:-100000}
work=$top/bench/work/land-$files
runs=${RUNS:-10}
PATH="${AA_BIN_DIR:-$top}:$PATH"

make_repo () {
	rm -rf "$work" && mkdir -p "$work" && cd "$work"
	git init -q repo && cd repo
	git config user.name bench && git config user.email bench@example.com
	# One fast-import stream: files spread over 1000 directories.
	awk -v n="$files" 'BEGIN {
		print "commit refs/heads/main"
		print "committer bench <bench@example.com> 1700000000 +0000"
		print "data 5"; print "base"
		for (i = 0; i < n; i++) {
			body = sprintf("file %d\nline two of %d\nline three\n", i, i)
			printf "M 100644 inline d%03d/f%06d.txt\n", i % 1000, i
			printf "data %d\n%s\n", length(body), body
		}
	}' | git fast-import --quiet
	git checkout -q -f main
	# The change: 10 files, one line each.
	for i in 1 2 3 4 5 6 7 8 9 10; do
		f=$(printf "d%03d/f%06d.txt" $((i * 7 % 1000)) $((i * 7)))
		sed -i 's/line two/LINE TWO/' "$f"
	done
	git diff >../change.diff
	git checkout -q -- .
}

if ! test -f "$work/change.diff"; then
	(make_repo)
fi
# bench/each.sh reuses the repository: build it and stop.
test -z "$AA_BENCH_BUILD_ONLY" || exit 0
cd "$work/repo"

# Both ai-apply modes must give git's tree before anything is timed.
git read-tree HEAD
git apply --cached ../change.diff
want=$(git write-tree)
git read-tree HEAD
git ai-apply -q --cached ../change.diff
got_cached=$(git write-tree)
git read-tree HEAD
git branch -D x >/dev/null 2>&1 || true
git ai-apply -q --branch=x ../change.diff
got_branch=$(git rev-parse -q --verify 'x^{tree}' || true)
git branch -D x >/dev/null 2>&1 || true
if test "$got_cached" != "$want" || test "$got_branch" != "$want"; then
	echo "wrong tree: git $want, ai-apply --cached $got_cached, --branch $got_branch"
	exit 1
fi
echo "result = git's tree? ai-apply --cached: identical, --branch: identical"

git_branch_cmd='git apply --cached ../change.diff && t=$(git write-tree) && c=$(echo msg | git commit-tree $t -p HEAD) && git update-ref refs/heads/y $c'

hyperfine --style basic --runs "$runs" --warmup 2 \
	--export-json ../branch.json \
	--prepare 'git read-tree HEAD; git branch -D x >/dev/null 2>&1; true' \
	-n 'git ai-apply --branch=x' 'git ai-apply -q --branch=x ../change.diff' \
	-n 'git apply --cached + write-tree + commit-tree + update-ref' "$git_branch_cmd"

hyperfine --style basic --runs "$runs" --warmup 2 \
	--export-json ../cached.json \
	--prepare 'git read-tree HEAD' \
	-n 'git ai-apply --cached' 'git ai-apply -q --cached ../change.diff' \
	-n 'git apply --cached' 'git apply --cached ../change.diff'

# The default mode: every run starts from the same index and work tree
# (the index saved, the 10 files put back with their mtimes; git's stat
# check told to compare what that keeps: core.checkStat=minimal,
# core.trustctime=false). The reset is in the timings of both sides.
git read-tree HEAD
git checkout -q -- .
git update-index -q --refresh
cp .git/index ../index.saved
rm -rf ../orig
for f in $(sed -n 's|^+++ b/||p' ../change.diff); do
	mkdir -p "../orig/$(dirname "$f")" && cp -p "$f" "../orig/$f"
done
cat >../reset.sh <<EOF
cp "$work/index.saved" "$work/repo/.git/index"
for f in \$(sed -n 's|^+++ b/||p' "$work/change.diff"); do
	cat "$work/orig/\$f" >"$work/repo/\$f" && touch -r "$work/orig/\$f" "$work/repo/\$f"
done
EOF
hyperfine --style basic --runs "$runs" --warmup 2 \
	--export-json ../index.json \
	--prepare 'sh ../reset.sh' \
	-n 'git ai-apply' 'git ai-apply -q ../change.diff' \
	-n 'git apply --index' 'git -c core.checkStat=minimal -c core.trustctime=false apply --index ../change.diff'
sh ../reset.sh

# --check looks up the touched paths in the index without loading it
# (Documentation/landing.md, "Index access in O(touched)"); git apply
# --check --index reads the whole index, git apply --check none.
# (--index needs stat data that matches the work tree: read-tree has none.)
git read-tree HEAD
git update-index -q --refresh
hyperfine --style basic --runs "$runs" --warmup 2 \
	--export-json ../check.json \
	-n 'git ai-apply --check' 'git ai-apply -q --check ../change.diff' \
	-n 'git apply --check --index' 'git apply --check --index ../change.diff' \
	-n 'git apply --check' 'git apply --check ../change.diff'

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
for name in ("branch", "cached", "index", "check"):
    r = json.load(open(f"{work}/{name}.json"))["results"]
    a, b = r[0]["median"], r[1]["median"]
    print(f"{name}: {r[0]['command']} {a*1000:.1f} ms, {r[1]['command']} {b*1000:.1f} ms, ratio ai/git = {a/b:.2f}")
PY
