# Driving git ai-apply mcp from a test: JSON-RPC lines built with jq,
# the server over a pipe (it answers each request before reading the
# next), its answers picked out with jq. Sourced by t36x0-mcp-*.sh.

# mcp_init [CAPABILITIES [VERSION]]: initialize (id 0) as client
# "t-client" 1.0, then notifications/initialized.
mcp_init () {
	jq -cn --argjson caps "${1:-{\}}" --arg v "${2:-2025-06-18}" \
		'{jsonrpc: "2.0", id: 0, method: "initialize",
		  params: {protocolVersion: $v, capabilities: $caps,
			   clientInfo: {name: "t-client", version: "1.0"}}}' &&
	echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
}

# mcp_call ID TOOL [ARGUMENTS]: a tools/call request.
mcp_call () {
	jq -cn --argjson id "$1" --arg name "$2" --argjson args "${3:-{\}}" \
		'{jsonrpc: "2.0", id: $id, method: "tools/call",
		  params: {name: $name, arguments: $args}}'
}

# mcp_answer FILE [MORE]: the arguments {"answer": FILE's text} + MORE.
mcp_answer () {
	jq -cn --rawfile a "$1" --argjson more "${2:-{\}}" '{answer: $a} + $more'
}

# mcp_request ID METHOD [PARAMS]: any request.
mcp_request () {
	jq -cn --argjson id "$1" --arg m "$2" --argjson p "${3:-{\}}" \
		'{jsonrpc: "2.0", id: $id, method: $m, params: $p}'
}

# mcp_response ID FILE: the answer to request ID, one line.
mcp_response () {
	jq -c --argjson id "$1" 'select(.id == $id)' "$2"
}

# mcp_only_protocol FILE: every line of FILE is a JSON-RPC 2.0 object.
mcp_only_protocol () {
	while IFS= read -r line
	do
		printf '%s\n' "$line" | jq -e '.jsonrpc == "2.0"' >/dev/null || {
			echo "not a protocol message: $line"
			return 1
		}
	done <"$1"
}

# test_line_count = N FILE (git's test-lib helper, which sharness lacks).
test_line_count () {
	if test "$(wc -l <"$3")" "-$(echo "$1" | sed "s/^=$/eq/; s/^-//")" "$2"
	then
		return 0
	fi
	echo "test_line_count: line count for $3 !$1 $2"
	cat "$3"
	return 1
}

# A server that stays up between the test's own commands:
#   mcp_start [ARGS]     the server on the FIFO mcp.in, answers to mcp.out
#   mcp_send LINE        one message
#   mcp_wait ID          until the answer to ID is in mcp.out (10 s)
#   mcp_stop             end of input; the server's exit status
mcp_start () {
	rm -f mcp.in mcp.out mcp.status &&
	mkfifo mcp.in &&
	: >mcp.out || return 1
	{ git ai-apply mcp "$@" <mcp.in >mcp.out 2>mcp.err; echo $? >mcp.status; } &
	exec 9>mcp.in
}

mcp_send () {
	printf '%s\n' "$1" >&9
}

mcp_wait () {
	n=0
	while ! mcp_response "$1" mcp.out 2>/dev/null | grep -q .
	do
		n=$((n + 1))
		test $n -le 200 || { echo "no answer to $1"; cat mcp.out; return 1; }
		sleep 0.05
	done
}

mcp_stop () {
	exec 9>&-
	wait
	test "$(cat mcp.status)" = 0
}
