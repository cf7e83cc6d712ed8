#!/bin/sh
# MCP server (issue 21): per-call cost over one connection against the
# 100,000-file repository of bench/land.sh, beside the command line:
#
#   one `git ai-apply mcp`, driven by the official MCP SDK client
#   (t/mcp/client.mjs): N rounds of a `check` call and an `apply` call
#   (mode branch, a new branch each round) over one connection
#   vs a shell loop of N rounds of `git ai-apply --check` and
#   `git ai-apply --branch=<new>`, one process each
#
# The answer is bench/land.sh's 10-file git diff. Before timing, a branch
# of each side must hold the tree git apply --cached gives. The MCP figure
# is the time of the calls alone (measured in the client, connection
# made); the whole client process (node start, connect, calls) is shown
# beside it.
#
# Usage: bench/mcp.sh [files]   (default 100000). Needs node and the SDK
# (make deps: t/mcp/node_modules).
# Environment: ROUNDS (default 200), RUNS (runs of each side, default 3;
# the median is reported), AA_BIN_DIR.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
files=${1:-100000}
work=$top/bench/work/land-$files
rounds=${ROUNDS:-200}
runs=${RUNS:-3}
client=$top/t/mcp/client.mjs
PATH="${AA_BIN_DIR:-$top}:$PATH"

if ! (cd "$top/t/mcp" && node -e "import('@modelcontextprotocol/sdk/client/stdio.js')") \
	>/dev/null 2>&1
then
	echo "bench/mcp.sh: needs node and the MCP SDK in t/mcp/node_modules (make deps)" >&2
	exit 1
fi

AA_BENCH_BUILD_ONLY=1 sh "$top/bench/land.sh" "$files"
cd "$work/repo"
git read-tree HEAD
mkdir -p ../mcp

drop_branches () {
	git for-each-ref --format='delete %(refname)' "refs/heads/$1-*" |
	git update-ref --stdin
}

now_ms () {
	echo $(($(date +%s%N) / 1000000))
}

# mcp_run: one client process, N rounds; prints "calls_ms whole_ms".
mcp_run () {
	drop_branches m
	cat >../mcp/steps.json <<-EOF
	[{"op":"repeat","n":$rounds,"calls":[
		{"tool":"check","args":{"answer@":"../change.diff"}},
		{"tool":"apply","args":{"answer@":"../change.diff","mode":"branch","branch":"m-{i}"}}]}]
	EOF
	t0=$(now_ms)
	node "$client" ../mcp/steps.json -- git ai-apply mcp >../mcp/out
	t1=$(now_ms)
	errors=$(jq -r 'select(.op == "repeat") | .errors' ../mcp/out)
	if test "$errors" != 0; then
		echo "bench/mcp.sh: $errors MCP calls failed" >&2
		cat ../mcp/out >&2
		exit 1
	fi
	ms=$(jq -r 'select(.op == "repeat") | .ms' ../mcp/out)
	echo "$ms $((t1 - t0))"
}

# cli_run: N rounds of two processes; prints the milliseconds.
cli_run () {
	drop_branches c
	t0=$(now_ms)
	i=1
	while test $i -le "$rounds"; do
		git ai-apply -q --check ../change.diff
		git ai-apply -q --branch=c-$i ../change.diff
		i=$((i + 1))
	done
	t1=$(now_ms)
	echo $((t1 - t0))
}

# Both sides must land git's tree.
git apply --cached ../change.diff
want=$(git write-tree)
git read-tree HEAD
ROUNDS_SAVED=$rounds
rounds=1
mcp_run >/dev/null
cli_run >/dev/null
rounds=$ROUNDS_SAVED
got_mcp=$(git rev-parse 'm-1^{tree}')
got_cli=$(git rev-parse 'c-1^{tree}')
if test "$got_mcp" != "$want" || test "$got_cli" != "$want"; then
	echo "wrong tree: git $want, mcp $got_mcp, command line $got_cli"
	exit 1
fi
echo "result = git's tree? mcp apply: identical, command line: identical"

# Interleaved: MCP run, command-line run, RUNS times.
: >../mcp/times
r=1
while test $r -le "$runs"; do
	set -- $(mcp_run)
	test -n "$2" || exit 1
	c=$(cli_run)
	echo "$1 $2 $c" >>../mcp/times
	r=$((r + 1))
done
drop_branches m
drop_branches c

# Medians of each column, per call (2 calls a round).
awk -v rounds="$rounds" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" '
function median(col,    n, i, j, t, a) {
	n = 0
	for (i = 1; i <= NR; i++) a[++n] = v[i, col]
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ v[NR, 1] = $1; v[NR, 2] = $2; v[NR, 3] = $3 }
END {
	calls = 2 * rounds
	m = median(1) / calls; w = median(2) / calls; c = median(3) / calls
	printf "%d rounds of check + apply --branch (%d calls), %d runs each side, load %s\n", rounds, calls, NR, load
	printf "| per call (median of runs) | ms | command line / this |\n|---|---:|---:|\n"
	printf "| mcp, calls over one connection | %.2f | **%.1f** |\n", m, c / m
	printf "| mcp, whole client process (node, connect, calls) | %.2f | %.1f |\n", w, c / w
	printf "| command line, one process a call | %.2f | 1.0 |\n", c
}' ../mcp/times
