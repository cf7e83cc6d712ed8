#!/bin/sh
# History benchmark (issue 7, "The revision the AI saw"): a stale answer
# lands by a 3-way merge from the revision it was written against; what
# does the search cost next to a fresh answer of the same size?
#
# The repository: 5,000 commits on one first-parent line. Every commit
# changes other.txt; every 100th also gives big.c (200,000 lines, about
# 5 MiB) a new version, one more line changed: 50 versions in all,
# version v from commit 100v+1 on. HEAD holds version 49. The objects
# are repacked as git gc would (newest versions whole).
#
# The answer: a git-style diff of 10 hunks spread over big.c, one line
# changed each. Written at version V, its hunk next to the line that
# version V+1 changes no longer applies exactly at HEAD, so the tool
# searches the history (newest first) for V, applies the hunks there and
# merges. Cases:
#   fresh        written at HEAD (applies exactly: no history)
#   stale-1      written at version 48 (101 commits back, 1 version read)
#   stale-10     written at version 39 (1,001 commits back, 10 versions)
#   stale-49     written at version 0 (4,901 commits back, 49 versions)
#   stale-index  version 0, with its "index <blob>.." line (no walk)
#   ladder       stale-1 with the history off (AIAPPLY_HISTORY_MAX_COMMITS=0):
#                what the tolerant rungs cost instead
#   walk-fresh   rare.txt (100 lines, written in commit 1, changed in commit 2),
#                an answer written at HEAD
#   walk         the same written at commit 1: the walk visits 5,000
#                commits and reads 1 version (cost per commit visited)
# Before timing, each result must be what git apply (fresh) or
# git merge-file (stale) makes of it.
#
# Usage: bench/history.sh. Needs hyperfine. Environment: RUNS (default
# 10), AA_BIN_DIR (directory holding the git-ai-apply to measure).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
work=$top/bench/work/history
runs=${RUNS:-10}
PATH="${AA_BIN_DIR:-$top}:$PATH"
lines=200000
versions=50
commits=5000

# The line version u (1..49) changes.
changed_line () {
	echo $(( (($1 * 3989) % 199000) + 500 ))
}

# big.c at version $1, on stdout.
big_version () {
	awk -v v="$1" -v n="$lines" '
	function line(i) {
		if (i % 10 == 0) return "}"
		if (i % 10 == 5) return ""
		return sprintf("\tvalue_%d = compute(%d, %d);", i, (i * 7) % 1000, i)
	}
	BEGIN {
		for (u = 1; u <= v; u++)
			chg[((u * 3989) % 199000) + 500] = u
		for (i = 1; i <= n; i++)
			if (i in chg)
				printf "\tvalue_%d = compute_v%d(%d);\n", i, chg[i], i
			else
				print line(i)
	}'
}

make_repo () {
	rm -rf "$work" && mkdir -p "$work" && cd "$work"
	git init -q repo && cd repo
	git config user.name bench && git config user.email bench@example.com
	{
		v=0
		while test $v -lt $versions; do
			printf 'blob\nmark :%d\ndata <<EOF_BIG\n' $((v + 1))
			big_version $v
			printf 'EOF_BIG\n'
			v=$((v + 1))
		done
		awk -v n="$commits" 'BEGIN {
			for (i = 1; i <= n; i++) {
				print "commit refs/heads/main"
				printf "committer bench <bench@example.com> %d +0000\n", 1700000000 + i
				printf "data <<EOM\ncommit %d\nEOM\n", i
				printf "M 100644 inline other.txt\ndata <<EOD\n%d\nEOD\n", i
				if ((i - 1) % 100 == 0)
					printf "M 100644 :%d big.c\n", (i - 1) / 100 + 1
				if (i == 1 || i == 2) {
					printf "M 100644 inline rare.txt\ndata <<EOR\n"
					for (k = 1; k <= 100; k++)
						print (i == 2 && k == 50) ? "rare 50 changed" : "rare " k
					print "EOR"
				}
			}
		}'
	} | git fast-import --quiet
	# as after git gc: the newest versions whole, older ones as deltas
	git repack -q -a -d -f --window=10 --depth=50
	git checkout -q -f main
}

# The 10 lines the answer changes when written at version $1: one next
# to the line version $1 + 1 changes (two lines after it), 9 elsewhere.
answer_lines () {
	echo $(( $(changed_line $(($1 + 1))) + 2 ))
	h=0
	while test $h -lt 9; do
		echo $((1003 + h * 21000))
		h=$((h + 1))
	done
}

# make_answer NAME VERSION [index]: ../NAME.diff, written at VERSION;
# ../NAME.base and ../NAME.theirs are the versions before and after.
make_answer () {
	big_version "$2" >"../$1.base"
	script=$(answer_lines "$2" | sed 's/$/s#$# \/\/ answer#/' | tr '\n' ';')
	sed "$script" "../$1.base" >"../$1.theirs"
	{
		echo "diff --git a/big.c b/big.c"
		if test "$3" = index; then
			echo "index $(git hash-object "../$1.base" | cut -c1-12)..$(git hash-object "../$1.theirs" | cut -c1-12) 100644"
		fi
		diff -u "../$1.base" "../$1.theirs" |
			sed '1s|.*|--- a/big.c|;2s|.*|+++ b/big.c|'
	} >"../$1.diff" || true
}

# make_rare_answer NAME COMMIT: rare.txt's line 52 changed, written at COMMIT.
make_rare_answer () {
	git show "$2:rare.txt" >"../$1.base"
	sed "s/^rare 52\$/rare 52 answer/" "../$1.base" >"../$1.theirs"
	{
		echo "diff --git a/rare.txt b/rare.txt"
		diff -u "../$1.base" "../$1.theirs" |
			sed '1s|.*|--- a/rare.txt|;2s|.*|+++ b/rare.txt|'
	} >"../$1.diff" || true
}

if ! test -f "$work/walk.diff"; then
	(make_repo)
	cd "$work/repo"
	make_answer fresh 49
	make_answer stale-1 48
	make_answer stale-10 39
	make_answer stale-49 0
	make_answer stale-index 0 index
	for x in diff base theirs; do cp "../stale-1.$x" "../ladder.$x"; done
	make_rare_answer walk HEAD~4999
	make_rare_answer walk-fresh HEAD
fi
cd "$work/repo"

# check NAME [env]: the result of --cached is the right one.
check () {
	git read-tree HEAD && git update-index -q --refresh
	env $2 git ai-apply -q --cached "../$1.diff" 2>"../$1.err"
	f=big.c
	case $1 in walk*) f=rare.txt ;; esac
	git show ":$f" >"../$1.got"
	git show "HEAD:$f" >"../$1.want"
	if test "$1" = fresh || test "$1" = walk-fresh; then
		cp "../$1.theirs" "../$1.want"
	else
		git merge-file -q "../$1.want" "../$1.base" "../$1.theirs"
	fi
	cmp -s "../$1.got" "../$1.want" || {
		echo "$1: wrong result"; exit 1
	}
	echo "$1: right result; $(grep -c . "../$1.err") message(s): $(head -1 "../$1.err" | cut -c1-110)"
}
check fresh
check stale-1
check stale-10
check stale-49
check stale-index
check ladder AIAPPLY_HISTORY_MAX_COMMITS=0
check walk-fresh
check walk
git read-tree HEAD && git update-index -q --refresh

hyperfine --style basic --runs "$runs" --warmup 2 \
	--export-json ../history.json \
	--prepare 'git read-tree HEAD && git update-index -q --refresh' \
	-n fresh 'git ai-apply -q --cached ../fresh.diff' \
	-n stale-1 'git ai-apply -q --cached ../stale-1.diff' \
	-n stale-10 'git ai-apply -q --cached ../stale-10.diff' \
	-n stale-49 'git ai-apply -q --cached ../stale-49.diff' \
	-n stale-index 'git ai-apply -q --cached ../stale-index.diff' \
	-n ladder 'AIAPPLY_HISTORY_MAX_COMMITS=0 git ai-apply -q --cached ../ladder.diff' \
	-n walk-fresh 'git ai-apply -q --cached ../walk-fresh.diff' \
	-n walk 'git ai-apply -q --cached ../walk.diff'
git read-tree HEAD && git update-index -q --refresh

python3 - "$work" <<'PY'
import json, sys
res = json.load(open(sys.argv[1] + "/history.json"))["results"]
r = {x["command"]: x["median"] for x in res}
cpu = {x["command"]: x["user"] + x["system"] for x in res}
visited = {"stale-1": 101, "stale-10": 1001, "stale-49": 4901}
f, fc = r["fresh"], cpu["fresh"]
print("| case | median | ratio to fresh | mean CPU (user+sys) | CPU ratio |")
print("|---|---:|---:|---:|---:|")
for k, v in r.items():
    print(f"| {k} | {v*1000:.1f} ms | {v/f:.2f} | {cpu[k]*1000:.1f} ms | {cpu[k]/fc:.2f} |")
slope = (r["stale-49"] - r["stale-1"]) / (visited["stale-49"] - visited["stale-1"])
print(f"big.c: cost per commit visited, versions read included (stale-1 -> stale-49): {slope*1e6:.1f} us")
walk = (r["walk"] - r["walk-fresh"]) / 5000
walk_cpu = (cpu["walk"] - cpu["walk-fresh"]) / 5000
print(f"rare.txt: cost per commit visited, walk only (walk - walk-fresh, 5000 commits): {walk*1e6:.1f} us ({walk_cpu*1e6:.1f} us of CPU)")
PY
