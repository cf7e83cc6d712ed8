#!/bin/sh
# contrib/predictions/shard.sh: land a predictions file in N parts at
# once, each in its own clone, and push every branch to one repository.
#
#   shard.sh [-j <n>] [--branch=<prefix>] [--dataset=<file>]
#            <predictions.jsonl> <source repository> <destination>
#            [-- <git ai-apply option>...]
#
# The JSON Lines file is split by lines into <n> parts (default 4). Each
# part is landed by `git ai-apply --predictions` in a bare clone of the
# source of its own, in parallel; the parts could as well run on other
# machines, as each needs only its clone and its lines. Then each clone
# pushes its branches (refs/heads/<prefix>/*) to the destination, and
# the clones' notes (refs/notes/ai-apply, one chain each) are merged
# into one (`git notes merge -s union`: the notes are of different
# commits) and pushed with the destination's own notes merged in too.
#
# Standard output: the JSON Lines results of every part, in part order.
# Standard error: each part's summary. Exit 0 when every prediction
# landed (or was landed already or applied already), 1 when one was
# refused, 128 when one failed fatally, 2 on a usage or setup error (a
# push or the notes merge failing included).
#
# A JSON list is not split by lines: turn it into JSON Lines first
# (jq -c '.[]' preds.json >preds.jsonl). `answer_file` paths stay
# relative to the manifest's directory: the parts are written beside it.
# POSIX sh and git only.

name=$(basename "$0")
jobs=4
prefix=predictions
dataset=

usage () {
	echo "usage: $name [-j <n>] [--branch=<prefix>] [--dataset=<file>] <predictions.jsonl> <source> <destination> [-- <option>...]" >&2
	exit 2
}

die () {
	echo "$name: $*" >&2
	exit 2
}

while test $# -gt 0
do
	case "$1" in
	-j) test $# -ge 2 || usage; jobs=$2; shift 2 ;;
	-j*) jobs=${1#-j}; shift ;;
	--branch=*) prefix=${1#--branch=}; shift ;;
	--dataset=*) dataset=${1#--dataset=}; shift ;;
	-h|--help) usage ;;
	-*) usage ;;
	*) break ;;
	esac
done
test $# -ge 3 || usage
preds=$1 src=$2 dest=$3
shift 3
if test $# -gt 0
then
	test "$1" = "--" || usage
	shift
fi
case "$jobs" in
''|*[!0-9]*|0) die "-j takes a number of parts, 1 or more (not '$jobs')" ;;
esac
# a local repository is named from the clones' directories: absolute
test -d "$src" && src=$(cd "$src" && pwd)
test -d "$dest" && dest=$(cd "$dest" && pwd)
test -f "$preds" || die "no predictions file '$preds'"
case $(sed -n '/[^[:space:]]/{p;q;}' "$preds") in
\[*) die "'$preds' is a JSON list: make it JSON Lines first (jq -c '.[]')" ;;
esac
test -z "$dataset" || test -f "$dataset" || die "no dataset file '$dataset'"
case "$dataset" in
''|/*) ;;
*) dataset=$PWD/$dataset ;;
esac
# git ai-apply from the same directory when installed beside it
here=$(cd "$(dirname "$0")" && pwd)
test -x "$here/git-ai-apply" && PATH=$here:$PATH

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ai-apply-shard.XXXXXX") || die "cannot make a temporary directory"
dir=$(cd "$(dirname "$preds")" && pwd)
base=.$(basename "$preds").shard-$$
cleanup () {
	rm -rf "$tmp"
	rm -f "$dir/$base".*
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# the lines, dealt into parts of consecutive lines (blank lines dropped)
total=$(grep -c '[^[:space:]]' "$preds")
test "$total" -gt 0 || die "no prediction in '$preds'"
test "$jobs" -le "$total" || jobs=$total
per=$(( (total + jobs - 1) / jobs ))
grep '[^[:space:]]' "$preds" |
awk -v per="$per" -v out="$dir/$base" '{ print > (out "." int((NR - 1) / per) + 1) }' ||
	die "cannot write the parts beside '$preds'"
jobs=$(( (total + per - 1) / per ))

# each part in its own bare clone, all at once
k=1
while test $k -le $jobs
do
	(
		git clone -q --bare "$src" "$tmp/clone-$k" 2>"$tmp/err-$k" || exit 2
		git -C "$tmp/clone-$k" ai-apply --branch="$prefix" \
			--predictions="$dir/$base.$k" \
			${dataset:+--dataset="$dataset"} \
			--results="$tmp/results-$k" "$@" 2>"$tmp/err-$k"
	) &
	eval "pid_$k=\$!"
	k=$((k + 1))
done

status=0
k=1
while test $k -le $jobs
do
	eval "wait \$pid_$k"
	rc=$?
	cat "$tmp/err-$k" >&2
	test -f "$tmp/results-$k" && cat "$tmp/results-$k"
	case $rc in
	0) ;;
	1) test $status -ge 1 || status=1 ;;
	128) test $status = 2 || status=128 ;;
	*) status=2; echo "$name: part $k failed (exit $rc)" >&2 ;;
	esac
	k=$((k + 1))
done

# the branches of every part, then one chain of notes
k=1
while test $k -le $jobs
do
	if test -d "$tmp/clone-$k" &&
	   git -C "$tmp/clone-$k" for-each-ref --format=x "refs/heads/$prefix/" | grep -q x
	then
		git -C "$tmp/clone-$k" push -q "$dest" "refs/heads/$prefix/*:refs/heads/$prefix/*" ||
			{ echo "$name: part $k: the push failed" >&2; status=2; }
	fi
	k=$((k + 1))
done
notes=$tmp/clone-1
git -C "$notes" fetch -q "$dest" "+refs/notes/ai-apply:refs/notes/shard-dest" 2>/dev/null &&
	{ git -C "$notes" notes --ref=ai-apply merge -q -s union refs/notes/shard-dest ||
	  status=2; }
k=2
while test $k -le $jobs
do
	if git -C "$tmp/clone-$k" rev-parse -q --verify refs/notes/ai-apply >/dev/null
	then
		git -C "$notes" fetch -q "$tmp/clone-$k" "+refs/notes/ai-apply:refs/notes/shard-$k" &&
		git -C "$notes" notes --ref=ai-apply merge -q -s union "refs/notes/shard-$k" ||
			{ echo "$name: part $k: its notes cannot be merged" >&2; status=2; }
	fi
	k=$((k + 1))
done
if git -C "$notes" rev-parse -q --verify refs/notes/ai-apply >/dev/null
then
	git -C "$notes" push -q "$dest" refs/notes/ai-apply:refs/notes/ai-apply ||
		{ echo "$name: the notes push failed" >&2; status=2; }
fi
exit $status
