#!/bin/sh
# test-suggestions.sh [<pattern>] -- <command>...
# (installed by make install as git-ai-apply-test-suggestions, so that
# `git ai-apply-test-suggestions` runs it)
#
# Runs <command> (through sh -c, in the top directory of a temporary
# `git worktree` checked out at the branch) on every suggestion branch
# `git ai-apply --list [<pattern>]` shows, and prints a table: branch,
# whether it merges into HEAD now, test pass/fail, seconds. The output
# of a failing test is kept in .git/ai-apply/test-logs/<branch>.log
# (slashes as "-"; a branch that passes loses its old log) and its
# place said on standard error. The worktrees are removed when done,
# and also when interrupted (INT, TERM, HUP). Exit status 0 when every
# test passed, 1 when one failed, 2 on a usage or setup error.

me=$(basename "$0")

usage () {
	echo "usage: $me [<pattern>] -- <command>..." >&2
	exit 2
}

pattern=
case $# in 0) usage ;; esac
if test "$1" != "--"
then
	pattern=$1
	shift
fi
test "$1" = "--" || usage
shift
test $# -gt 0 || usage

top=$(git rev-parse --show-toplevel 2>/dev/null) || {
	echo "$me: not in a git work tree" >&2
	exit 2
}
# the logs of failing tests, under the (common) git dir: they outlive
# the worktrees, and no work tree sees them
logs=$(cd "$top" && cd "$(git rev-parse --git-common-dir)" && pwd)/ai-apply/test-logs ||
	exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ai-suggestions.XXXXXX") || exit 2

# Every worktree made so far, removed on any exit: a worktree left
# behind keeps its branch checked out and blocks git ai-apply --force.
child=
cleanup () {
	# the test command runs in its own process group: end all of it
	test -n "$child" && kill -TERM "-$child" 2>/dev/null
	test -n "$child" && kill -TERM "$child" 2>/dev/null
	for wt in "$tmp"/wt-*
	do
		test -d "$wt" && git -C "$top" worktree remove --force "$wt" 2>/dev/null
	done
	rm -rf "$tmp"
	git -C "$top" worktree prune
}
trap 'cleanup' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

git -C "$top" ai-apply --list ${pattern:+"$pattern"} >"$tmp/list" || exit 2

setsid=
command -v setsid >/dev/null 2>&1 && setsid=setsid

now () {
	date +%s
}

status=0
n=0
printf "%-30s %-10s %-6s %s\n" BRANCH MERGES TESTS SECONDS
while read -r branch merges rest
do
	n=$((n + 1))
	wt="$tmp/wt-$n"
	if ! git -C "$top" worktree add -q --detach "$wt" "$branch" 2>"$tmp/err"
	then
		cat "$tmp/err" >&2
		printf "%-30s %-10s %-6s %s\n" "$branch" "$merges" error -
		status=1
		continue
	fi
	start=$(now)
	# in the background, so that a signal is handled at once (a shell
	# runs its traps only after a foreground command ends)
	(cd "$wt" && exec $setsid sh -c "$*") >"$tmp/out-$n" 2>&1 </dev/null &
	child=$!
	if wait $child
	then
		result=pass
	else
		result=fail
		status=1
	fi
	child=
	printf "%-30s %-10s %-6s %s\n" "$branch" "$merges" "$result" \
		"$(($(now) - start))"
	log="$logs/$(printf '%s' "$branch" | tr / -).log"
	if test $result = fail
	then
		if mkdir -p "$logs" && cp "$tmp/out-$n" "$log"
		then
			echo "$me: $branch failed; its output: $log" >&2
		else
			echo "$me: $branch failed; its output could not be kept in $log" >&2
		fi
	else
		rm -f "$log"
	fi
	git -C "$top" worktree remove --force "$wt"
done <"$tmp/list"
exit $status
