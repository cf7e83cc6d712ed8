#!/bin/sh
# A branch per prediction at evaluation scale (issue 23): predictions of
# bench/gen_predictions.py (real diffs between the files' versions at 50
# base commits of a 10,000-file repository; 1 in 20 stale, 1 in 20
# conflicting, 1 in 10 malformed) landed as branches three ways:
#
#   A  git ai-apply --predictions=<file>              (one process)
#   B  a loop of git ai-apply --branch=<b> --base=<sha> <patch>
#   C  the harness way: a worktree at each base; per prediction
#      git apply, else patch --batch --fuzz=5 -p1; git add -A; commit;
#      branch; reset --hard to the base
#
# Before any figure, every branch of A and C is checked against the
# generator's truth (the right post-image, or no branch): A must be right
# on every one; C's wrong landings are counted.
#
# Usage: bench/predictions.sh [n]   (default 2000 predictions for A; the
# loops B and C take the first LOOP_N, default 200, and the ratios are
# per prediction). SIZES: the sizes A is timed at (default
# "200 500 1000 2000"). RUNS: interleaved A/B/C rounds (default 3).
# Peak memory: GNU time's maximum resident set size.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-2000}
loop_n=${LOOP_N:-200}
sizes=${SIZES:-"200 500 1000 2000"}
runs=${RUNS:-3}
files=10000
nbases=50
work=$top/bench/work/predictions
PATH="${AA_BIN_DIR:-$top}:$PATH"
gen=$top/bench/gen_predictions.py
command -v patch >/dev/null && test -x /usr/bin/time || {
	sudo=; test "$(id -u)" = 0 || sudo=sudo
	$sudo apt-get install -y patch time >/dev/null
}

# ---- the corpus (made again only when the generator changed) ----
mkdir -p "$work"
cd "$work"
stamp="$(sha1sum "$gen" | cut -c1-12)-$files-$nbases-$n"
if test "$(cat stamp 2>/dev/null)" != "$stamp"; then
	rm -rf repo.git out bases.txt
	git init -q --bare repo.git
	python3 "$gen" repo $files $nbases | git -C repo.git fast-import --quiet
	git -C repo.git for-each-ref --format='%(refname:short) %(objectname)' refs/tags >bases.txt
	python3 "$gen" preds $files $nbases "$n" bases.txt out
	# the loops' inputs: one patch file each, and "<instance> <base>" lines
	mkdir -p out/patches
	python3 -c '
import json, sys
with open("out/list.tsv", "w") as lst:
    for l in open("out/predictions.jsonl"):
        r = json.loads(l)
        lst.write("%s\t%s\n" % (r["instance_id"], r["base_commit"]))
        open("out/patches/%s.diff" % r["instance_id"], "w").write(r["model_patch"])
'
	echo "$stamp" >stamp
fi
head -n "$loop_n" out/predictions.jsonl >out/loop.jsonl
head -n "$loop_n" out/list.tsv >out/loop.tsv

fresh () {
	rm -rf "$1" && cp -r repo.git "$1"
}

# ---- the three ways, as scripts (GNU time runs each as one command) ----
cat >run-a.sh <<'SH'
# A: one process. $1 predictions file, $2 repository
git -C "$2" ai-apply -q --predictions="$1" --results=/dev/null || test $? = 1
SH
cat >run-b.sh <<'SH'
# B: a process per prediction. $1 "<instance> <base>" list, $2 repository
while IFS="	" read -r id base; do
	git -C "$2" ai-apply -q --branch="loop/$id" --base="$base" \
		"$PWD/out/patches/$id.diff" 2>/dev/null || :
done <"$1"
SH
cat >run-c.sh <<'SH'
# C: the harness way. $1 list, $2 repository with a work tree
top=$PWD
while IFS="	" read -r id base; do
	wt=$top/wt-$base
	test -d "$wt" || git -C "$2" worktree add -q --detach "$wt" "$base"
	(
		cd "$wt" &&
		if git apply "$top/out/patches/$id.diff" 2>/dev/null ||
		   patch --batch --fuzz=5 -p1 <"$top/out/patches/$id.diff" >/dev/null 2>&1
		then
			git add -A &&
			git -c user.name=h -c user.email=h@h commit -q -m "$id" &&
			git branch -q "harness/$id"
		fi
		git reset -q --hard "$base" && git clean -fdq
	)
done <"$1"
SH

fresh () {
	rm -rf "$1" && cp -r repo.git "$1"
}
# removing 10,000-file worktrees is slow: moved aside, removed at the end
park () {
	mkdir -p old && for d in wt-* c.git; do
		test ! -e "$d" || mv "$d" "old/$d.$$.$(date +%s%N)"
	done
}
fresh_c () {
	park && git clone -q repo.git c.git
}

# ---- right or wrong: each branch against the truth ----
check () { # repo prefix n: counts of right, wrong, refused-right, missed
	REPO=$1 PFX=$2
	head -n "$3" out/truth.txt | while read -r id what rest; do
		b="$PFX/$id"
		if ! git -C "$REPO" rev-parse -q --verify "refs/heads/$b" >/dev/null; then
			test "$what" = refuse && echo refused-right || echo missed
			continue
		fi
		if test "$what" = refuse; then echo wrong; continue; fi
		set -- $rest
		ok=right
		while test $# -gt 0; do
			test "$(git -C "$REPO" rev-parse "$b:$1" 2>/dev/null)" = "$2" || ok=wrong
			shift 2
		done
		echo $ok
	done | sort | uniq -c | tr -s ' \n' ' '
	echo
}

# ---- interleaved rounds: wall seconds and peak KiB; the first checked ----
timed () { # label command...
	l=$1; shift
	/usr/bin/time -f "$l %e %M" -a -o times "$@" >/dev/null 2>&1 || :
}
echo "corpus: $n predictions over $nbases bases of $files files; loops: the first $loop_n"
: >times
r=1
while test "$r" -le "$runs"; do
	fresh a.git; timed "A$loop_n" sh run-a.sh "$work/out/loop.jsonl" a.git
	fresh b.git; timed "B$loop_n" sh run-b.sh out/loop.tsv b.git
	fresh_c; timed "C$loop_n" sh run-c.sh out/loop.tsv c.git
	if test "$r" = 1; then
		echo "B --branch loop ($loop_n):$(check b.git loop "$loop_n")"
		echo "C harness ($loop_n):$(check c.git harness "$loop_n")"
	fi
	for k in $sizes; do
		test "$k" -le "$n" || continue
		head -n "$k" out/predictions.jsonl >"out/first-$k.jsonl"
		fresh a.git; timed "A$k" sh run-a.sh "$work/out/first-$k.jsonl" a.git
		test "$r" = 1 || continue
		res=$(check a.git predictions/bench-model "$k")
		echo "A --predictions ($k):$res"
		case "$res" in
		*wrong*|*missed*) echo "--predictions: a wrong branch, or a right one missed"; exit 1 ;;
		esac
	done
	r=$((r + 1))
done
park
# medians per label, then the ratios per prediction
awk '
	{ t[$1] = t[$1] " " $2; m[$1] = m[$1] " " $3 }
	function median(s,  v, n, i, j, x) {
		n = split(s, v, " ")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
				x = v[j]; v[j] = v[j - 1]; v[j - 1] = x
			}
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	END {
		for (l in t) {
			k = substr(l, 2) + 0
			w = median(t[l]); mem = median(m[l])
			printf "%-6s %8.2f s  %8.1f ms/prediction  peak %6.1f MiB\n", l, w, 1000 * w / k, mem / 1024
			per[l] = w / k
		}
		for (l in per)
			if (l ~ /^[BC]/ && ("A" substr(l, 2)) in per)
				printf "%s / A at %s: %.1fx\n", l, substr(l, 2), per[l] / per["A" substr(l, 2)]
	}
' times | sort
rm -rf old
