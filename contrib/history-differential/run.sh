#!/bin/bash
# run.sh [-n <commits>] [-l "<later offsets>"] [-u "<contexts>"] [--ai-apply <binary>] <repository>
#
# Differential check against git apply on a repository's own history:
# each of the last <commits> non-merge commits becomes `git diff -U<u>`
# (for each context size), applied with `git apply --cached` and with
# `git ai-apply --cached` to a private index at the commit's parent
# (offset 0) and at the commit <offset> commits later on the path to
# HEAD (a stale answer). Nothing in <repository> is changed: both tools
# write only their own temporary index files and, for ai-apply, blobs.
#
# Prints one line per case where both tools land and the trees differ
# (DIFF, the diff kept in the output directory to look at), and counts:
# both landed, differ, git only, ai-apply only. A DIFF is not always this
# tool's fault: at a later commit `git apply` lands an insertion a
# second time where its old side still stands (see
# Documentation/locating.md, "The revision the answer was written
# against"); look at each. Not part of `make test`: it takes minutes.
set -u
n=80 laters="0 5" contexts="0 1 3" ai=git-ai-apply
while [ $# -gt 1 ]; do
	case $1 in
	-n) n=$2; shift 2 ;;
	-l) laters=$2; shift 2 ;;
	-u) contexts=$2; shift 2 ;;
	--ai-apply) ai=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || { sed -n '2,3s/^# //p' "$0" >&2; exit 129; }
repo=$1
out=$(mktemp -d "${TMPDIR:-/tmp}/history-differential.XXXXXX")
cd "$repo" || exit 128
both=0 differ=0 gitonly=0 aionly=0
for c in $(git log --format=%h --no-merges -n "$n"); do
	git rev-parse -q --verify "$c^" >/dev/null || continue
	for later in $laters; do
		base=$(git rev-parse "$c^")
		if [ "$later" -gt 0 ]; then
			base=$(git rev-list --reverse --ancestry-path "$c..HEAD" | sed -n "${later}p")
			[ -n "$base" ] || continue
		fi
		for u in $contexts; do
			git diff --binary -U"$u" "$c^" "$c" >"$out/p.diff"
			[ -s "$out/p.diff" ] || continue
			uz=; [ "$u" = 0 ] && uz=--unidiff-zero
			rm -f "$out/i1" "$out/i2"
			GIT_INDEX_FILE=$out/i1 git read-tree "$base"
			GIT_INDEX_FILE=$out/i2 git read-tree "$base"
			GIT_INDEX_FILE=$out/i1 git apply --cached $uz "$out/p.diff" 2>/dev/null; g=$?
			GIT_INDEX_FILE=$out/i2 "$ai" --cached -q "$out/p.diff" >/dev/null 2>&1; a=$?
			if [ $g = 0 ] && [ $a = 0 ]; then
				both=$((both + 1))
				t1=$(GIT_INDEX_FILE=$out/i1 git write-tree)
				t2=$(GIT_INDEX_FILE=$out/i2 git write-tree)
				if [ "$t1" != "$t2" ]; then
					differ=$((differ + 1))
					cp "$out/p.diff" "$out/diff-$c-$later-$u.diff"
					echo "DIFF $c at +$later -U$u: $out/diff-$c-$later-$u.diff (base $base)"
				fi
			elif [ $g = 0 ]; then
				gitonly=$((gitonly + 1))
			elif [ $a = 0 ]; then
				aionly=$((aionly + 1))
			fi
		done
	done
done
rm -f "$out/i1" "$out/i2" "$out/p.diff"
echo "both landed $both, differ $differ, git apply only $gitonly, ai-apply only $aionly (diffs in $out)"
