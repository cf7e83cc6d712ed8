#!/bin/sh

test_description='git ai-apply mcp: the protocol -- initialize, tools/list, ping, every JSON-RPC error, hostile lines, roots'

. "$(dirname "$0")/test-lib.sh"
. "$AA_TEST_DIR/lib/mcp.sh"

if ! command -v jq >/dev/null
then
	skip_all='jq is missing (make deps installs it)'
	test_done
fi

test_expect_success 'setup' '
	make_repo repo &&
	cat >exact.diff <<-\EOF
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
'

test_expect_success 'initialize: the version asked, server info, capabilities, instructions' '
	mcp_init >in &&
	(cd repo && git ai-apply mcp <../in >../out 2>../err) &&
	mcp_response 0 out >init &&
	jq -e ".result.protocolVersion == \"2025-06-18\"" init &&
	jq -e ".result.serverInfo.name == \"git-ai-apply\"" init &&
	jq -e ".result.serverInfo.version | type == \"string\"" init &&
	jq -e ".result.capabilities == {tools: {}, logging: {}}" init &&
	jq -e ".result.instructions | length > 50" init &&
	test_line_count = 1 out &&
	test_must_be_empty err
'

test_expect_success 'initialize: each supported version is answered as asked, another with the newest' '
	for v in 2025-11-25 2025-06-18 2025-03-26 2024-11-05
	do
		mcp_init "{}" $v >in &&
		(cd repo && git ai-apply mcp <../in >../out) &&
		mcp_response 0 out | jq -e ".result.protocolVersion == \"$v\"" || return 1
	done &&
	mcp_init "{}" 1999-01-01 >in &&
	(cd repo && git ai-apply mcp <../in >../out) &&
	mcp_response 0 out | jq -e ".result.protocolVersion == \"2025-11-25\""
'

test_expect_success 'initialize twice, or without a version: an error, the session goes on' '
	{ mcp_init && mcp_init && mcp_request 6 ping; } >in &&
	(cd repo && git ai-apply mcp <../in >../out) &&
	test_line_count = 3 out &&
	sed -n 2p out | jq -e ".error.code == -32600 and .id == 0" &&
	mcp_response 6 out | jq -e ".result == {}" &&
	{
		mcp_request 5 initialize "{\"capabilities\": {}}" &&
		mcp_request 6 tools/list
	} >in &&
	(cd repo && git ai-apply mcp <../in >../out) &&
	mcp_response 5 out | jq -e ".error.code == -32602" &&
	mcp_response 6 out | jq -e ".error.code == -32600"
'

test_expect_success 'tools/list: seven tools, each with schemas, annotations and a title' '
	{ mcp_init && mcp_request 1 tools/list; } >in &&
	(cd repo && git ai-apply mcp <../in >../out) &&
	mcp_response 1 out >list &&
	jq -r ".result.tools[].name" list >names &&
	cat >expect <<-\EOF &&
	check
	apply
	suggest
	list_suggestions
	review
	undo
	recover
	EOF
	test_cmp expect names &&
	jq -e "[.result.tools[] | (.inputSchema.type == \"object\" and
		.outputSchema.type == \"object\" and (.title | length > 0) and
		(.annotations | type == \"object\"))] | all" list &&
	jq -e ".result.tools[] | select(.name == \"check\") |
		.annotations.readOnlyHint == true and
		.inputSchema.required == [\"answer\"] and
		(.inputSchema.properties.format.enum | index(\"v4a\") != null)" list &&
	jq -e ".result.tools[] | select(.name == \"apply\") |
		.annotations.readOnlyHint == false and
		.annotations.destructiveHint == false" list &&
	jq -e ".result.tools[] | select(.name == \"suggest\") |
		.inputSchema.required == [\"answers\", \"branch\"] and
		.inputSchema.properties.answers.minItems == 1" list &&
	jq -e "[.result.tools[] | select(.name == \"list_suggestions\" or .name == \"review\") |
		.annotations.readOnlyHint] == [true, true]" list
'

test_expect_success 'ping before and after initialize' '
	{ mcp_request 1 ping && mcp_init && mcp_request 2 ping; } >in &&
	(cd repo && git ai-apply mcp <../in >../out) &&
	mcp_response 1 out | jq -e ".result == {}" &&
	mcp_response 2 out | jq -e ".result == {}"
'

test_expect_success 'a request before initialize: an error, and no work' '
	{
		mcp_request 1 tools/list &&
		mcp_call 2 apply "$(mcp_answer exact.diff)"
	} >in &&
	(cd repo && repo_snapshot early && git ai-apply mcp <../in >../out &&
	 repo_unchanged early) &&
	mcp_response 1 out | jq -e ".error.code == -32600" &&
	mcp_response 2 out | jq -e ".error.code == -32600 and
		(.error.message | test(\"initialize\"))"
'

test_expect_success 'garbage lines: a parse error each (id null), the server stays up' '
	{
		mcp_init &&
		echo "not json" &&
		echo "{\"jsonrpc\": \"2.0\", \"id\": 1," &&
		printf "\\377\\376garbage\\n" &&
		printf "{\"a\":\\000}\\n" &&
		mcp_request 9 ping
	} >in &&
	(cd repo && git ai-apply mcp <../in >../out) &&
	jq -c "select(.error.code == -32700 and .id == null)" out >parse &&
	test_line_count = 4 parse &&
	mcp_response 9 out | jq -e ".result == {}" &&
	mcp_only_protocol out
'

test_expect_success 'invalid requests: -32600, with the id when there is one' '
	{
		mcp_init &&
		echo "{\"id\": 1, \"method\": \"ping\"}" &&
		echo "{\"jsonrpc\": \"1.0\", \"id\": 2, \"method\": \"ping\"}" &&
		echo "{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": 42}" &&
		echo "{\"jsonrpc\": \"2.0\", \"id\": {\"x\": 1}, \"method\": \"ping\"}" &&
		echo "[{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": \"ping\"}]" &&
		echo "42" &&
		mcp_request 9 ping
	} >in &&
	(cd repo && git ai-apply mcp <../in >../out) &&
	mcp_response 1 out | jq -e ".error.code == -32600" &&
	mcp_response 2 out | jq -e ".error.code == -32600" &&
	mcp_response 3 out | jq -e ".error.code == -32600" &&
	jq -c "select(.id == null)" out >nulls &&
	test_line_count = 3 nulls &&
	jq -s -e "map(.error.code == -32600) | all" nulls &&
	mcp_response 9 out | jq -e ".result == {}"
'

test_expect_success 'an unknown method: -32601; string ids are answered as given' '
	{
		mcp_init &&
		mcp_request 1 resources/list &&
		echo "{\"jsonrpc\": \"2.0\", \"id\": \"abc\", \"method\": \"no/such\"}"
	} >in &&
	(cd repo && git ai-apply mcp <../in >../out) &&
	mcp_response 1 out | jq -e ".error.code == -32601" &&
	jq -c "select(.id == \"abc\")" out >abc &&
	jq -e ".error.code == -32601" abc
'

test_expect_success 'invalid params: unknown tool, missing or wrong-typed arguments (-32602), nothing done' '
	{
		mcp_init &&
		mcp_call 1 no_such_tool &&
		mcp_call 2 check &&
		mcp_call 3 check "{\"answer\": 42}" &&
		mcp_call 4 check "$(mcp_answer exact.diff "{\"strip\": \"1\"}")" &&
		mcp_call 5 check "$(mcp_answer exact.diff "{\"strip\": -1}")" &&
		mcp_call 6 check "$(mcp_answer exact.diff "{\"strip\": 1.5}")" &&
		mcp_call 7 check "$(mcp_answer exact.diff "{\"bogus\": true}")" &&
		mcp_call 8 apply "$(mcp_answer exact.diff "{\"mode\": \"check\"}")" &&
		mcp_call 9 apply "$(mcp_answer exact.diff "{\"mode\": \"branch\"}")" &&
		mcp_call 10 apply "$(mcp_answer exact.diff "{\"branch\": \"b\"}")" &&
		mcp_call 11 check "$(mcp_answer exact.diff "{\"format\": \"nope\"}")" &&
		mcp_call 12 suggest "{\"answers\": [], \"branch\": \"s\"}" &&
		mcp_call 13 suggest "{\"answers\": [1], \"branch\": \"s\"}" &&
		mcp_call 14 apply "$(mcp_answer exact.diff "{\"strict\": \"yes\"}")" &&
		mcp_call 15 undo "{\"x\": 1}" &&
		mcp_call 16 check "[]" &&
		mcp_request 17 tools/call "{\"arguments\": {}}" &&
		echo "{\"jsonrpc\": \"2.0\", \"id\": 18, \"method\": \"tools/call\", \"params\": [1]}"
	} >in &&
	(cd repo && repo_snapshot params && git ai-apply mcp <../in >../out &&
	 repo_unchanged params) &&
	for i in $(test_seq 1 18)
	do
		mcp_response $i out | jq -e ".error.code == -32602" >/dev/null || {
			mcp_response $i out
			return 1
		}
	done &&
	mcp_response 1 out | jq -e ".error.message | test(\"unknown tool\")" &&
	mcp_response 2 out | jq -e ".error.message | test(\"answer\")" &&
	mcp_response 4 out | jq -e ".error.message | test(\"strip.*integer\")" &&
	mcp_response 9 out | jq -e ".error.message | test(\"branch.*required\")"
'

test_expect_success 'a string holding \u0000 is refused (-32602), not cut short' '
	{
		mcp_init &&
		printf "%s\n" "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": \"apply\", \"arguments\": {\"answer\": \"x\\u0000y\"}}}" &&
		printf "%s\n" "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/call\", \"params\": {\"name\": \"check\", \"arguments\": {\"answer\": \"x\\\\u0000y\"}}}"
	} >in &&
	(cd repo && repo_snapshot nul && git ai-apply mcp <../in >../out &&
	 repo_unchanged nul) &&
	mcp_response 1 out | jq -e ".error.code == -32602" &&
	mcp_response 2 out | jq -e ".result.structuredContent.status == \"rejected\""
'

test_expect_success 'notifications get no answer; a cancel of no pending request is ignored' '
	{
		mcp_init &&
		echo "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/cancelled\", \"params\": {\"requestId\": 1}}" &&
		echo "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/whatever\"}" &&
		echo "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/progress\", \"params\": {}}" &&
		echo "" &&
		mcp_request 1 ping
	} >in &&
	(cd repo && git ai-apply mcp <../in >../out) &&
	test_line_count = 2 out &&
	mcp_response 1 out | jq -e ".result == {}"
'

test_expect_success 'logging/setLevel: a known level is accepted, another is -32602' '
	{
		mcp_init &&
		mcp_request 1 logging/setLevel "{\"level\": \"warning\"}" &&
		mcp_request 2 logging/setLevel "{\"level\": \"loud\"}"
	} >in &&
	(cd repo && git ai-apply mcp <../in >../out) &&
	mcp_response 1 out | jq -e ".result == {}" &&
	mcp_response 2 out | jq -e ".error.code == -32602"
'

test_expect_success 'a line over 16 MiB is refused and skipped, not kept; the next is answered' '
	{
		mcp_init &&
		printf "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": \"apply\", \"arguments\": {\"answer\": \"" &&
		dd if=/dev/zero bs=1048576 count=17 2>/dev/null | tr "\\000" x &&
		echo "\"}}}" &&
		mcp_request 2 ping
	} >in &&
	(cd repo && repo_snapshot huge && git ai-apply mcp <../in >../out &&
	 repo_unchanged huge) &&
	jq -c "select(.id == null)" out >nulls &&
	jq -e ".error.code == -32600 and (.error.message | test(\"longer than\"))" nulls &&
	mcp_response 2 out | jq -e ".result == {}" &&
	test_line_count = 3 out
'

test_expect_success 'the end of the input ends the server with status 0; stdout holds protocol only' '
	{ mcp_init && mcp_call 1 check "$(mcp_answer exact.diff)" &&
	  mcp_call 2 check "{\"answer\": \"no change here\"}"; } >in &&
	(cd repo && git ai-apply mcp <../in >../out 2>../err) &&
	test_line_count = 3 out &&
	mcp_only_protocol out &&
	: >empty &&
	(cd repo && git ai-apply mcp <../empty >../out) &&
	test_must_be_empty out
'

test_expect_success '-C <dir> and git -C <dir>; outside a repository: 128, nothing on stdout' '
	{ mcp_init && mcp_call 1 check "$(mcp_answer exact.diff)"; } >in &&
	git ai-apply mcp -C repo <in >out1 &&
	git ai-apply -C repo mcp <in >out2 &&
	git -C repo ai-apply mcp <in >out3 &&
	for o in out1 out2 out3
	do
		mcp_response 1 $o | jq -e ".result.structuredContent.status == \"checked\"" || return 1
	done &&
	mkdir -p nowhere &&
	test_expect_code 128 env GIT_CEILING_DIRECTORIES="$PWD" \
		git -C nowhere ai-apply mcp <in >out 2>err &&
	test_must_be_empty out &&
	test_grep "repository" err &&
	test_expect_code 129 git ai-apply mcp --bogus <in >out 2>err &&
	test_must_be_empty out
'

test_expect_success 'roots: asked after initialized; a work tree outside every root is refused, nothing written' '
	{
		mcp_init "{\"roots\": {}}" &&
		echo "{\"jsonrpc\": \"2.0\", \"id\": \"roots-1\", \"result\": {\"roots\": [{\"uri\": \"file:///nonexistent/elsewhere\"}]}}" &&
		mcp_call 1 apply "$(mcp_answer exact.diff)"
	} >in &&
	(cd repo && repo_snapshot roots && git ai-apply mcp <../in >../out &&
	 repo_unchanged roots) &&
	jq -c "select(.method == \"roots/list\")" out >asked &&
	jq -e ".id == \"roots-1\"" asked &&
	mcp_response 1 out | jq -e ".result.isError == true and
		(.result.content[0].text | test(\"outside every root\"))"
'

test_expect_success 'roots: inside a root (percent-encoded) the call works; list_changed asks again' '
	uri="file://$(cd repo && pwd | sed "s/ /%20/g")" &&
	{
		mcp_init "{\"roots\": {\"listChanged\": true}}" &&
		mcp_request 1 ping &&
		jq -cn --arg u "$uri" "{jsonrpc: \"2.0\", id: \"roots-1\", result: {roots: [{uri: \$u}]}}" &&
		mcp_call 2 check "$(mcp_answer exact.diff)" &&
		echo "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/roots/list_changed\"}" &&
		echo "{\"jsonrpc\": \"2.0\", \"id\": \"roots-2\", \"result\": {\"roots\": []}}" &&
		mcp_call 3 check "$(mcp_answer exact.diff)"
	} >in &&
	(cd repo && git ai-apply mcp <../in >../out) &&
	mcp_response 1 out | jq -e ".result == {}" &&
	mcp_response 2 out | jq -e ".result.isError == false" &&
	jq -c "select(.method == \"roots/list\") | .id" out >asked &&
	test_line_count = 2 asked &&
	mcp_response 3 out | jq -e ".result.isError == true"
'

test_expect_success 'roots: a tool call before the answer waits for it, reading on' '
	uri="file://$(cd repo && pwd)" &&
	{
		mcp_init "{\"roots\": {}}" &&
		mcp_call 1 check "$(mcp_answer exact.diff)" &&
		mcp_request 2 ping &&
		jq -cn --arg u "$uri" "{jsonrpc: \"2.0\", id: \"roots-1\", result: {roots: [{uri: \$u}]}}"
	} >in &&
	(cd repo && git ai-apply mcp <../in >../out) &&
	mcp_response 1 out | jq -e ".result.isError == false" &&
	mcp_response 2 out | jq -e ".result == {}"
'

test_expect_success 'roots: an error answer, or the input ending before the answer, refuses the call' '
	{
		mcp_init "{\"roots\": {}}" &&
		echo "{\"jsonrpc\": \"2.0\", \"id\": \"roots-1\", \"error\": {\"code\": -1, \"message\": \"no\"}}" &&
		mcp_call 1 check "$(mcp_answer exact.diff)"
	} >in &&
	(cd repo && git ai-apply mcp <../in >../out) &&
	mcp_response 1 out | jq -e ".result.isError == true" &&
	{ mcp_init "{\"roots\": {}}" && mcp_call 1 check "$(mcp_answer exact.diff)"; } >in &&
	(cd repo && git ai-apply mcp <../in >../out) &&
	mcp_response 1 out | jq -e ".result.isError == true and
		(.result.content[0].text | test(\"roots\"))"
'

test_done
