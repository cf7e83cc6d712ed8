#!/bin/sh

test_description='git ai-apply mcp: the tools land as the command line does -- check writes nothing, apply the same tree, branch provenance, suggest, list, review, undo, refusals with nothing written'

. "$(dirname "$0")/test-lib.sh"
. "$AA_TEST_DIR/lib/mcp.sh"

if ! command -v jq >/dev/null
then
	skip_all='jq is missing (make deps installs it)'
	test_done
fi

# serve DIR: the requests in "in" through a server in DIR; answers in "out".
serve () {
	(cd "$1" && git ai-apply mcp <../in >../out 2>../err) &&
	mcp_only_protocol out
}

test_expect_success 'setup' '
	make_repo repo &&
	mkdir answers &&
	cat >answers/exact.diff <<-\EOF &&
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
	cat >answers/stale.diff <<-\EOF &&
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-deux
	+TWO
	 three
	EOF
	cat >answers/v4a.txt <<-\EOF &&
	*** Begin Patch
	*** Update File: dir/b.txt
	@@
	 alpha
	-beta
	+BETA
	*** Add File: new.txt
	+fresh
	*** End Patch
	EOF
	printf "Here is the fix:\\n\\ndir/b.txt\\n\\140\\140\\140\\n<<<<<<< SEARCH\\nalpha\\n=======\\nALPHA\\n>>>>>>> REPLACE\\n\\140\\140\\140\\n" \
		>answers/search.md &&
	printf "%s\\r\\n" "--- a/a.txt" "+++ b/a.txt" "@@ -1,3 +1,3 @@" \
		" one" "-two" "+zwei" " three" >answers/crlf.diff &&
	cat >answers/outside.diff <<-\EOF &&
	--- /dev/null
	+++ b/../x
	@@ -0,0 +1 @@
	+escaped
	EOF
	cat >answers/hooks.diff <<-\EOF
	--- /dev/null
	+++ b/.git/hooks/post-checkout
	@@ -0,0 +1,2 @@
	+#!/bin/sh
	+echo owned
	EOF
'

test_expect_success 'check: the command line --check --json document, the diff, and nothing written (not even objects)' '
	{
		mcp_init &&
		mcp_call 1 check "$(mcp_answer answers/exact.diff "{\"name\": \"../answers/exact.diff\"}")"
	} >in &&
	(cd repo && repo_snapshot check) &&
	serve repo &&
	(cd repo && repo_unchanged check) &&
	mcp_response 1 out >resp &&
	jq -S ".result.structuredContent | del(.diff)" resp >mcp.json &&
	(cd repo && git ai-apply --check --json ../answers/exact.diff) | jq -S . >cli.json &&
	test_cmp cli.json mcp.json &&
	jq -e ".result.isError == false" resp &&
	jq -e ".result.structuredContent.diff | test(\"\\\\+TWO\")" resp &&
	jq -r ".result.content[0].text" resp >text &&
	echo "would change 1 file; nothing written" >expect &&
	test_cmp expect text
'

test_expect_success 'apply lands the tree the command line lands, byte for byte, in every format' '
	for a in exact.diff v4a.txt search.md crlf.diff
	do
		rm -rf cli srv &&
		cp -R repo cli && cp -R repo srv &&
		(cd cli && git ai-apply ../answers/$a 2>/dev/null) &&
		{ mcp_init && mcp_call 1 apply "$(mcp_answer answers/$a)"; } >in &&
		serve srv &&
		mcp_response 1 out | jq -e ".result.isError == false and
			.result.structuredContent.status == \"applied\"" >/dev/null &&
		test "$(git -C cli write-tree)" = "$(git -C srv write-tree)" &&
		(cd cli && git ls-files -s && git ls-files -o --exclude-standard) >cli.files &&
		(cd srv && git ls-files -s && git ls-files -o --exclude-standard) >srv.files &&
		test_cmp cli.files srv.files &&
		for f in $(cd cli && git ls-files)
		do
			cmp cli/$f srv/$f || return 1
		done || { echo "differs: $a"; return 1; }
	done
'

test_expect_success 'apply: the text is the closing line the command line prints' '
	rm -rf srv && cp -R repo srv &&
	{ mcp_init && mcp_call 1 apply "$(mcp_answer answers/exact.diff)"; } >in &&
	serve srv &&
	mcp_response 1 out | jq -r ".result.content[0].text" >text &&
	test_grep "^staged 1 file and wrote it to the work tree; review: git diff --cached" text
'

test_expect_success 'apply mode cached: the index only' '
	rm -rf srv && cp -R repo srv &&
	{ mcp_init && mcp_call 1 apply "$(mcp_answer answers/exact.diff "{\"mode\": \"cached\"}")"; } >in &&
	serve srv &&
	mcp_response 1 out | jq -e ".result.structuredContent.mode == \"cached\"" &&
	git -C srv show :a.txt >index.txt &&
	test_grep "^TWO$" index.txt &&
	test_grep "^two$" srv/a.txt
'

test_expect_success 'apply mode branch: HEAD, index and work tree untouched; the tool and client in the trailers' '
	rm -rf srv && cp -R repo srv &&
	{
		mcp_init &&
		mcp_call 1 apply "$(mcp_answer answers/exact.diff "{\"mode\": \"branch\", \"branch\": \"ai/try\", \"message\": \"take two\"}")"
	} >in &&
	head=$(git -C srv rev-parse HEAD) &&
	serve srv &&
	mcp_response 1 out >resp &&
	jq -e ".result.structuredContent.status == \"applied\" and
		.result.structuredContent.branch == \"ai/try\"" resp &&
	test "$(git -C srv rev-parse HEAD)" = "$head" &&
	git -C srv diff --exit-code HEAD &&
	git -C srv log -1 --format=%B ai/try | git interpret-trailers --parse >trailers &&
	test_grep "^AI-Answer: answer$" trailers &&
	test_grep "^AI-Tool: git-ai-apply mcp$" trailers &&
	test_grep "^AI-Client: t-client 1.0$" trailers &&
	git -C srv log -1 --format=%s ai/try >subject &&
	echo "take two" >expect &&
	test_cmp expect subject &&
	test "$(jq -r .result.structuredContent.commit resp)" = "$(git -C srv rev-parse ai/try)"
'

test_expect_success 'a client name with control characters stays one trailer line' '
	rm -rf srv && cp -R repo srv &&
	{
		jq -cn "{jsonrpc: \"2.0\", id: 0, method: \"initialize\",
			 params: {protocolVersion: \"2025-06-18\", capabilities: {},
				  clientInfo: {name: \"evil\\nSigned-off-by: x\", version: \"1\"}}}" &&
		mcp_call 1 apply "$(mcp_answer answers/exact.diff "{\"mode\": \"branch\", \"branch\": \"b\"}")"
	} >in &&
	serve srv &&
	git -C srv log -1 --format=%B b >msg &&
	test_grep "^AI-Client: evil?Signed-off-by: x 1$" msg &&
	! test_grep "^Signed-off-by" msg
'

test_expect_success 'a stale answer: isError, the report with the line, nothing written' '
	{ mcp_init && mcp_call 1 apply "$(mcp_answer answers/stale.diff)"; } >in &&
	(cd repo && repo_snapshot stale) &&
	serve repo &&
	(cd repo && repo_unchanged stale) &&
	mcp_response 1 out >resp &&
	jq -e ".result.isError == true and
		.result.structuredContent.status == \"rejected\" and
		.result.structuredContent.written == \"nothing\" and
		(.result.structuredContent.errors | length > 0) and
		(.result.structuredContent.errors[0].input == \"answer\")" resp &&
	jq -r ".result.content[0].text" resp >text &&
	test_grep "error: a.txt: answer:[0-9]" text
'

test_expect_success 'paths outside the repository (../x, .git/hooks/x): refused, nothing written' '
	for a in outside.diff hooks.diff
	do
		{ mcp_init && mcp_call 1 apply "$(mcp_answer answers/$a)" &&
		  mcp_call 2 check "$(mcp_answer answers/$a)"; } >in &&
		(cd repo && repo_snapshot outside) &&
		serve repo &&
		(cd repo && repo_unchanged outside) &&
		test_path_is_missing x &&
		mcp_response 1 out | jq -e ".result.isError == true and
			.result.structuredContent.status == \"rejected\"" &&
		mcp_response 2 out | jq -e ".result.isError == true" || return 1
	done
'

test_expect_success 'options the library refuses together: isError with the report (-m without a branch)' '
	{ mcp_init && mcp_call 1 apply "$(mcp_answer answers/exact.diff "{\"message\": \"m\"}")"; } >in &&
	(cd repo && repo_snapshot opts) &&
	serve repo &&
	(cd repo && repo_unchanged opts) &&
	mcp_response 1 out | jq -e ".result.isError == true and
		.result.structuredContent.status == \"fatal\" and
		(.result.structuredContent.errors[0].message | test(\"need --branch\"))"
'

test_expect_success 'a filter driver is never run: the path is refused, saying why' '
	rm -rf srv && cp -R repo srv &&
	(
		cd srv &&
		git config filter.spy.clean "touch \"$SHARNESS_TRASH_DIRECTORY/ran\"; cat" &&
		git config filter.spy.smudge "touch \"$SHARNESS_TRASH_DIRECTORY/ran\"; cat" &&
		echo "a.txt filter=spy" >.gitattributes &&
		git add .gitattributes && git commit -q -m attrs
	) &&
	rm -f ran &&
	{ mcp_init && mcp_call 1 apply "$(mcp_answer answers/exact.diff)"; } >in &&
	serve srv &&
	test_path_is_missing ran &&
	mcp_response 1 out | jq -e ".result.isError == true and
		(.result.content[0].text | test(\"no_external_commands|filter\"))"
'

test_expect_success 'suggest: three answers, three branches from one base' '
	rm -rf srv && cp -R repo srv &&
	{
		mcp_init &&
		jq -cn --rawfile a answers/exact.diff --rawfile b answers/v4a.txt \
			--rawfile c answers/search.md \
			"{jsonrpc: \"2.0\", id: 1, method: \"tools/call\",
			  params: {name: \"suggest\", arguments: {answers: [\$a, \$b, \$c], branch: \"try\"}}}"
	} >in &&
	serve srv &&
	mcp_response 1 out >resp &&
	jq -e ".result.isError == false and
		.result.structuredContent.landed == 3 and
		.result.structuredContent.failed == 0 and
		([.result.structuredContent.suggestions[].branch] == [\"try-1\", \"try-2\", \"try-3\"])" resp &&
	for b in try-1 try-2 try-3
	do
		git -C srv rev-parse --verify -q $b || return 1
	done &&
	git -C srv log -1 --format=%B try-2 | git interpret-trailers --parse >trailers &&
	test_grep "^AI-Answer: answer-2$" trailers &&
	test_grep "^AI-Client: t-client 1.0$" trailers &&
	jq -r ".result.content[0].text" resp >text &&
	test_grep "committed 3 suggestions on branches try-1 ... try-3" text
'

test_expect_success 'suggest: one refused of two is no error; all refused is' '
	rm -rf srv && cp -R repo srv &&
	{
		mcp_init &&
		jq -cn --rawfile a answers/exact.diff --rawfile b answers/stale.diff \
			"{jsonrpc: \"2.0\", id: 1, method: \"tools/call\",
			  params: {name: \"suggest\", arguments: {answers: [\$a, \$b], branch: \"s\"}}}" &&
		jq -cn --rawfile b answers/stale.diff \
			"{jsonrpc: \"2.0\", id: 2, method: \"tools/call\",
			  params: {name: \"suggest\", arguments: {answers: [\$b], branch: \"t\"}}}"
	} >in &&
	serve srv &&
	mcp_response 1 out | jq -e ".result.isError == false and
		.result.structuredContent.failed == 1" &&
	mcp_response 2 out | jq -e ".result.isError == true" &&
	test_must_fail git -C srv rev-parse --verify -q s-2 &&
	test_must_fail git -C srv rev-parse --verify -q t-1
'

test_expect_success 'list_suggestions: the command line --list --json document' '
	rm -rf srv && cp -R repo srv &&
	git -C srv ai-apply -q --branch=l --each ../answers/exact.diff \
		../answers/v4a.txt &&
	{ mcp_init && mcp_call 1 list_suggestions; } >in &&
	serve srv &&
	mcp_response 1 out | jq -S ".result.structuredContent" >mcp.json &&
	git -C srv ai-apply --list --json | jq -S . >cli.json &&
	test_cmp cli.json mcp.json &&
	jq -e ".suggestions | length == 2" mcp.json
'

test_expect_success 'review, undo, review again, undo again; recover finds nothing' '
	rm -rf srv && cp -R repo srv &&
	{
		mcp_init &&
		mcp_call 1 review &&
		mcp_call 2 apply "$(mcp_answer answers/v4a.txt)" &&
		mcp_call 3 review &&
		mcp_call 4 undo &&
		mcp_call 5 review &&
		mcp_call 6 undo &&
		mcp_call 7 recover
	} >in &&
	serve srv &&
	mcp_response 1 out | jq -e ".result.structuredContent.status == \"none\"" &&
	mcp_response 3 out | jq -e ".result.structuredContent.status == \"staged\" and
		(.result.structuredContent.diff | test(\"BETA\"))" &&
	mcp_response 4 out | jq -e ".result.isError == false and
		.result.structuredContent.status == \"undone\"" &&
	mcp_response 5 out | jq -e ".result.structuredContent.status == \"none\"" &&
	mcp_response 6 out | jq -e ".result.structuredContent.status == \"nothing\"" &&
	mcp_response 7 out | jq -e ".result.isError == false and
		.result.structuredContent.status == \"nothing\"" &&
	git -C srv diff --exit-code HEAD &&
	test_path_is_missing srv/new.txt
'

test_expect_success 'the user commits and stages beside the server: each call sees HEAD and the index as they are' '
	rm -rf srv && cp -R repo srv &&
	cd srv &&
	mcp_start &&
	mcp_send "$(mcp_init | head -n 1)" &&
	mcp_wait 0 &&
	mcp_send "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}" &&
	mcp_send "$(mcp_request 9 logging/setLevel "{\"level\": \"info\"}")" &&
	mcp_wait 9 &&
	mcp_send "$(mcp_call 1 apply "$(mcp_answer ../answers/exact.diff)")" &&
	mcp_wait 1 &&
	git commit -q -m "took TWO" &&
	printf "alpha\\nbeta\\ngamma\\n" >dir/b.txt &&
	git add dir/b.txt &&
	mcp_send "$(mcp_call 2 apply "$(mcp_answer ../answers/v4a.txt)")" &&
	mcp_wait 2 &&
	mcp_send "$(mcp_call 3 apply "$(mcp_answer ../answers/exact.diff)")" &&
	mcp_wait 3 &&
	mcp_stop &&
	cd .. &&
	mcp_response 2 srv/mcp.out | jq -e ".result.isError == false" &&
	git -C srv show :dir/b.txt >b.txt &&
	printf "alpha\\nBETA\\ngamma\\n" >expect &&
	test_cmp expect b.txt &&
	mcp_response 3 srv/mcp.out | jq -e ".result.structuredContent.status == \"already-applied\"" &&
	jq -r "select(.method == \"notifications/message\") | .params.data" srv/mcp.out >said &&
	test_grep "HEAD moved" said &&
	test_line_count = 1 said
'

test_done
