#!/bin/sh

test_description='git ai-apply mcp through the official MCP TypeScript SDK client (Client + StdioClientTransport)'

. "$(dirname "$0")/test-lib.sh"

# t/mcp/client.mjs runs scripted steps over one SDK connection; the SDK
# comes from t/mcp/node_modules (make deps: npm ci). Without node or the
# SDK every test here is skipped (prerequisite SDK), never failed.
mcp_dir="$AA_TEST_DIR/mcp"
if command -v node >/dev/null 2>&1 &&
	(cd "$mcp_dir" && node -e "import('@modelcontextprotocol/sdk/client/stdio.js').then(() => 0, () => process.exit(1))") >/dev/null 2>&1
then
	test_set_prereq SDK
else
	say "# no MCP SDK client (node, and t/mcp/node_modules from make deps): tests skipped"
fi

# The server command (AA_TEST_MCP_SERVER: another server to run the same
# tests against).
mcp_server=${AA_TEST_MCP_SERVER:-git ai-apply mcp}

# mcp DIR STEPS [client options...]: the steps (a JSON array, see
# t/mcp/client.mjs) over one connection to the server started in DIR;
# one JSON line a step on standard output. The steps file is written
# beside the repositories, never in one.
mcp () {
	mcp_d=$1 &&
	printf "%s\n" "$2" >"$SHARNESS_TRASH_DIRECTORY/steps.json" &&
	shift 2 &&
	# shellcheck disable=SC2086
	node "$mcp_dir/client.mjs" --client-name t3620-client --cwd "$mcp_d" "$@" \
		"$SHARNESS_TRASH_DIRECTORY/steps.json" -- $mcp_server
}

# step OP OUT: the line of OUT of the one step OP (for jq -e, whose exit
# status is the last input's).
step () {
	jq -c "select(.op == \"$1\")" "$2"
}

# calls OUT: the tool-call lines of OUT, one a line (compact JSON).
calls () {
	jq -c "select(.op == \"call\")" "$1"
}

# call N OUT FILTER: FILTER (jq, raw output) applied to the Nth call line.
call () {
	calls "$2" | sed -n "$1p" | jq -r "$3"
}

# clean_end OUT: the connection closed with no transport error (a line on
# the server's stdout that is not a protocol message is one).
clean_end () {
	step end "$1" | jq -e ".transportErrors == []" >/dev/null ||
	{ echo "transport errors:"; cat "$1"; return 1; }
}

test_expect_success 'setup' '
	make_repo repo &&
	git -C repo tag base &&
	mkdir answers &&
	cat >answers/sr.md <<-\EOF &&
	Make it loud:

	a.txt
	```
	<<<<<<< SEARCH
	two
	=======
	TWO
	>>>>>>> REPLACE
	```
	EOF
	cat >answers/change.diff <<-\EOF &&
	--- a/dir/b.txt
	+++ b/dir/b.txt
	@@ -1,2 +1,2 @@
	 alpha
	-beta
	+BETA
	EOF
	cat >answers/v4a.txt <<-\EOF &&
	*** Begin Patch
	*** Update File: a.txt
	@@
	 one
	-two
	+2
	*** Add File: new/c.txt
	+created
	*** End Patch
	EOF
	cat >answers/bad.diff <<-\EOF &&
	--- a/a.txt
	+++ b/a.txt
	@@ -1 +1 @@
	-not in the file
	+never lands
	EOF
	cat >answers/outside.md <<-\EOF &&
	--- START-FILE: ../escaped.txt ---
	outside
	--- END-FILE: ../escaped.txt ---
	EOF
	cat >answers/hook.md <<-\EOF &&
	--- START-FILE: .git/hooks/pre-commit ---
	#!/bin/sh
	echo owned
	--- END-FILE: .git/hooks/pre-commit ---
	EOF
	for i in 1 2 3
	do
		cat >answers/s$i.md <<-EOF || return 1
		--- START-REPLACE-FILE: a.txt ---
		suggestion $i
		--- END-REPLACE-FILE: a.txt ---
		EOF
	done
'

test_expect_success SDK 'connect: the SDK negotiates its newest protocol version' '
	fresh r-connect &&
	mcp r-connect "[{\"op\":\"ping\"}]" >out &&
	step connect out | jq -e ".protocolVersion == .requested and
		.serverInfo.name == \"git-ai-apply\" and
		(.serverInfo.version | type) == \"string\" and
		.capabilities.tools != null and
		(.instructions | type) == \"string\" and
		(.instructions | length) > 0" &&
	step ping out | jq -e ".ok" &&
	clean_end out
'

test_expect_success SDK 'list: the seven tools, each with its schemas, title and annotations' '
	fresh r-list &&
	mcp r-list "[{\"op\":\"list\"}]" >out &&
	jq -r "select(.op == \"list\") | .tools[].name" out | sort >names &&
	cat >expect <<-\EOF &&
	apply
	check
	list_suggestions
	recover
	review
	suggest
	undo
	EOF
	test_cmp expect names &&
	step list out | jq -e ".tools | all(
		.inputSchema.type == \"object\" and
		.outputSchema.type == \"object\" and
		(.annotations | type) == \"object\" and
		(.title | type) == \"string\")" &&
	step list out | jq -e ".ajv | to_entries |
		all(.value == \"ok\")" &&
	clean_end out
'

test_expect_success SDK 'list: the annotations say which tools write nothing' '
	jq -r "select(.op == \"list\") | .tools[] |
		\"\(.name) \(.annotations.readOnlyHint // false)\"" out | sort >hints &&
	cat >expect <<-\EOF &&
	apply false
	check true
	list_suggestions true
	recover false
	review true
	suggest false
	undo false
	EOF
	test_cmp expect hints &&
	step list out | jq -e ".tools[] | select(.name == \"apply\") |
		.annotations.destructiveHint == false"
'

test_expect_success SDK 'list: the input schemas name the arguments of the contract' '
	step list out | jq -e ".tools[] | select(.name == \"apply\") |
		.inputSchema.required == [\"answer\"] and
		(.inputSchema.properties | has(\"answer\") and has(\"format\") and
		 has(\"strict\") and has(\"strip\") and has(\"name\") and
		 has(\"mode\") and has(\"branch\") and has(\"base\") and
		 has(\"message\") and has(\"threeway\") and has(\"force\"))" &&
	step list out | jq -e ".tools[] | select(.name == \"suggest\") |
		(.inputSchema.required | sort) == [\"answers\", \"branch\"] and
		.inputSchema.properties.answers.type == \"array\"" &&
	step list out | jq -e ".tools[] | select(.name == \"check\") |
		.inputSchema.required == [\"answer\"]"
'

# Every tool once, in an order where each has something to do; the SDK
# validates each structuredContent against the tool's outputSchema (a
# mismatch is a thrown error: .error), and client.mjs again with ajv.
test_expect_success SDK 'every tool: a result that matches its outputSchema' '
	fresh r-every &&
	mcp r-every "[{\"op\":\"list\"},
		{\"op\":\"call\",\"tool\":\"check\",\"args\":{\"answer@\":\"../answers/sr.md\"}},
		{\"op\":\"call\",\"tool\":\"apply\",\"args\":{\"answer@\":\"../answers/sr.md\"}},
		{\"op\":\"call\",\"tool\":\"review\",\"args\":{}},
		{\"op\":\"call\",\"tool\":\"undo\",\"args\":{}},
		{\"op\":\"call\",\"tool\":\"suggest\",\"args\":{\"answers@\":[\"../answers/s1.md\",\"../answers/s2.md\"],\"branch\":\"e\"}},
		{\"op\":\"call\",\"tool\":\"list_suggestions\",\"args\":{}},
		{\"op\":\"call\",\"tool\":\"recover\",\"args\":{}}]" >out &&
	calls out >all &&
	test $(wc -l <all) = 7 &&
	jq -c "select(.error != null or .isError or
		.ajv != \"ok\")" all >bad &&
	test_must_be_empty bad &&
	jq -c "select((.text | length) == 0)" all >bad &&
	test_must_be_empty bad &&
	clean_end out
'

test_expect_success SDK 'check: what would land, and nothing written, not even objects' '
	fresh r-check &&
	(
		cd r-check &&
		repo_snapshot check &&
		mcp . "[{\"op\":\"call\",\"tool\":\"check\",\"args\":{\"answer@\":\"../answers/sr.md\"}}]" >../out &&
		repo_unchanged check
	) &&
	test "$(call 1 out .isError)" = false &&
	test "$(call 1 out .structuredContent.status)" = checked &&
	test "$(call 1 out ".structuredContent.files[0].path")" = a.txt &&
	test "$(call 1 out ".structuredContent.files[0].edits[0].line")" = 2
'

test_expect_success SDK 'apply: a SEARCH/REPLACE answer is staged' '
	fresh r-sr &&
	mcp r-sr "[{\"op\":\"call\",\"tool\":\"apply\",\"args\":{\"answer@\":\"../answers/sr.md\"}}]" >out &&
	test "$(call 1 out .isError)" = false &&
	test "$(call 1 out .structuredContent.status)" = applied &&
	test "$(call 1 out .structuredContent.written)" = index+worktree &&
	printf "one\nTWO\nthree\n" >expect &&
	(cd r-sr && staged_as a.txt ../expect)
'

test_expect_success SDK 'apply: a diff, --cached: the index only' '
	fresh r-diff &&
	mcp r-diff "[{\"op\":\"call\",\"tool\":\"apply\",\"args\":{\"answer@\":\"../answers/change.diff\",\"mode\":\"cached\"}}]" >out &&
	test "$(call 1 out .structuredContent.status)" = applied &&
	printf "alpha\nBETA\n" >expect &&
	git -C r-diff show :dir/b.txt >actual &&
	test_cmp expect actual &&
	printf "alpha\nbeta\n" >expect &&
	test_cmp expect r-diff/dir/b.txt
'

# refused NAME ANSWER [ARGS-JSON]: apply ANSWER in a fresh copy NAME must
# be a tool result with isError and the report, with nothing written.
refused () {
	fresh "$1" &&
	(
		cd "$1" &&
		repo_snapshot "$1" &&
		mcp . "[{\"op\":\"call\",\"tool\":\"apply\",\"args\":{\"answer@\":\"../answers/$2\"${3:+,$3}}},
			{\"op\":\"call\",\"tool\":\"check\",\"args\":{\"answer@\":\"../answers/$2\"}}]" >../out &&
		repo_unchanged "$1"
	) &&
	test "$(call 1 out .isError)" = true &&
	test "$(call 2 out .isError)" = true &&
	test "$(call 1 out .structuredContent.status)" = rejected &&
	test "$(call 1 out ".structuredContent.errors | length")" -gt 0 &&
	test "$(call 1 out .ajv)" = ok
}

test_expect_success SDK 'a hunk that does not apply: refused, the line named, nothing written' '
	refused r-bad bad.diff &&
	test "$(call 1 out ".structuredContent.errors[0].line")" = 3 &&
	test "$(call 1 out ".structuredContent.errors[0].path")" = a.txt &&
	call 1 out .text >text &&
	test -s text
'

test_expect_success SDK 'a path outside the repository: refused, nothing written' '
	refused r-outside outside.md &&
	test_path_is_missing escaped.txt
'

test_expect_success SDK 'a path in .git: refused, nothing written' '
	refused r-hook hook.md &&
	test_path_is_missing r-hook/.git/hooks/pre-commit
'

test_expect_success SDK 'a refusal in branch mode writes no ref and no object' '
	refused r-badbranch bad.diff "\"mode\":\"branch\",\"branch\":\"nope\"" &&
	test_must_fail git -C r-badbranch rev-parse --verify -q nope
'

test_expect_success SDK 'wrong arguments are JSON-RPC errors, checked before any work' '
	fresh r-args &&
	(
		cd r-args &&
		repo_snapshot args &&
		mcp . "[{\"op\":\"call\",\"tool\":\"apply\",\"args\":{\"answer\":5}},
			{\"op\":\"call\",\"tool\":\"apply\",\"args\":{}},
			{\"op\":\"call\",\"tool\":\"no_such_tool\",\"args\":{}},
			{\"op\":\"call\",\"tool\":\"apply\",\"args\":{\"answer@\":\"../answers/sr.md\",\"mode\":\"branch\"}},
			{\"op\":\"ping\"}]" >../out &&
		repo_unchanged args
	) &&
	for n in 1 2 3
	do
		test "$(call $n out .error.code)" = -32602 || return 1
	done &&
	call 4 out ".error.code // .isError" >v &&
	grep -E "^(-32602|true)$" v &&
	step ping out | jq -e ".ok" &&
	clean_end out
'

# The server handles one request at a time, so the cancel comes after
# its answer, which the SDK drops (its onerror says "unknown message ID",
# the only transport error allowed here).
test_expect_success SDK 'a call the client cancels: the server stays up, answers the next ones' '
	fresh r-cancel &&
	(
		cd r-cancel &&
		repo_snapshot cancel &&
		mcp . "[{\"op\":\"call\",\"tool\":\"check\",\"args\":{\"answer@\":\"../answers/sr.md\"},\"cancel\":true},
			{\"op\":\"ping\"},
			{\"op\":\"call\",\"tool\":\"check\",\"args\":{\"answer@\":\"../answers/change.diff\"}}]" >../out &&
		repo_unchanged cancel
	) &&
	test "$(call 1 out .cancelled)" = true &&
	step ping out | jq -e ".ok" &&
	test "$(call 2 out .structuredContent.status)" = checked &&
	test "$(call 2 out ".structuredContent.files[0].path")" = dir/b.txt &&
	step end out | jq -e ".transportErrors |
		all(startswith(\"Received a response for an unknown message ID\"))"
'

test_expect_success SDK 'branch mode: a commit on a new branch, the client named in its trailers' '
	fresh r-branch &&
	mcp r-branch "[{\"op\":\"call\",\"tool\":\"apply\",\"args\":{\"answer@\":\"../answers/sr.md\",\"mode\":\"branch\",\"branch\":\"mcp/try\",\"message\":\"louder\"}}]" >out &&
	test "$(call 1 out .isError)" = false &&
	(
		cd r-branch &&
		test "$(git rev-parse mcp/try^)" = "$(git rev-parse HEAD)" &&
		git show mcp/try:a.txt >actual &&
		printf "one\nTWO\nthree\n" >expect &&
		test_cmp expect actual &&
		git log -1 --format=%s mcp/try >subject &&
		test_grep "^louder$" subject &&
		git log -1 --format=%B mcp/try | git interpret-trailers --parse >trailers &&
		test_grep "t3620-client" trailers &&
		test_grep "^AI-Answer-Blob: " trailers &&
		git diff --exit-code HEAD &&
		git diff --cached --exit-code
	)
'

test_expect_success SDK 'suggest: three answers, three branches from HEAD, listed' '
	fresh r-suggest &&
	mcp r-suggest "[{\"op\":\"call\",\"tool\":\"suggest\",\"args\":{\"answers@\":[\"../answers/s1.md\",\"../answers/s2.md\",\"../answers/s3.md\"],\"branch\":\"s\"}},
		{\"op\":\"call\",\"tool\":\"list_suggestions\",\"args\":{}}]" >out &&
	test "$(call 1 out .isError)" = false &&
	(
		cd r-suggest &&
		for i in 1 2 3
		do
			test "$(git rev-parse s-$i^)" = "$(git rev-parse HEAD)" &&
			echo "suggestion $i" >expect &&
			git show s-$i:a.txt >actual &&
			test_cmp expect actual || return 1
		done &&
		git diff --exit-code HEAD
	) &&
	test "$(call 2 out ".structuredContent.suggestions | length")" = 3 &&
	clean_end out
'

test_expect_success SDK 'undo: the landing put back' '
	fresh r-undo &&
	mcp r-undo "[{\"op\":\"call\",\"tool\":\"apply\",\"args\":{\"answer@\":\"../answers/v4a.txt\"}},
		{\"op\":\"call\",\"tool\":\"review\",\"args\":{}},
		{\"op\":\"call\",\"tool\":\"undo\",\"args\":{}}]" >out &&
	test "$(call 1 out .structuredContent.status)" = applied &&
	call 2 out .structuredContent.diff >diff &&
	test_grep "^+2$" diff &&
	test_grep "^+created$" diff &&
	test "$(call 3 out .isError)" = false &&
	(
		cd r-undo &&
		git diff --cached --exit-code &&
		git diff --exit-code &&
		test_path_is_missing new/c.txt
	)
'

# same_tree ANSWER [CLI-OPTIONS]: the command line in one copy and the
# apply tool in another land the same index tree and work tree.
same_tree () {
	fresh cli && fresh viamcp &&
	(cd cli && git ai-apply $2 "../answers/$1" >/dev/null 2>&1) &&
	mcp viamcp "[{\"op\":\"call\",\"tool\":\"apply\",\"args\":{\"answer@\":\"../answers/$1\"${3:+,$3}}}]" >out &&
	test "$(call 1 out .isError)" = false &&
	test "$(git -C cli write-tree)" = "$(git -C viamcp write-tree)" &&
	(cd cli && git ls-files -s) >cli.ls &&
	(cd viamcp && git ls-files -s) >mcp.ls &&
	test_cmp cli.ls mcp.ls &&
	work_tree_files cli >cli.wt &&
	work_tree_files viamcp >mcp.wt &&
	test_cmp cli.wt mcp.wt
}

# work_tree_files DIR: each file of DIR'"'"'s work tree with its blob id.
work_tree_files () {
	(
		cd "$1" &&
		find . -path ./.git -prune -o -type f -print | LC_ALL=C sort >../wt.paths &&
		git hash-object --no-filters --stdin-paths <../wt.paths | paste ../wt.paths -
	)
}

test_expect_success SDK 'the same answer through the command line and apply: the same tree' '
	same_tree sr.md &&
	same_tree change.diff &&
	same_tree v4a.txt
'

test_expect_success SDK 'the same answer --cached and mode cached: the same tree' '
	same_tree v4a.txt --cached "\"mode\":\"cached\""
'

test_expect_success SDK 'the server sees the user'"'"'s own git commands between calls, and says so' '
	fresh r-moved &&
	mcp r-moved "[{\"op\":\"loglevel\",\"level\":\"info\"},
		{\"op\":\"call\",\"tool\":\"apply\",\"args\":{\"answer@\":\"../answers/sr.md\"}},
		{\"op\":\"sh\",\"cmd\":\"git reset -q --hard\"},
		{\"op\":\"call\",\"tool\":\"check\",\"args\":{\"answer@\":\"../answers/sr.md\"}},
		{\"op\":\"sh\",\"cmd\":\"git ai-apply -q ../answers/sr.md && git commit -q -m loud\"},
		{\"op\":\"call\",\"tool\":\"apply\",\"args\":{\"answer@\":\"../answers/change.diff\"}}]" >out &&
	test "$(call 2 out .structuredContent.status)" = checked &&
	test "$(call 2 out ".structuredContent.files | length")" = 1 &&
	test "$(call 3 out .structuredContent.status)" = applied &&
	step end out | jq -r ".logs[] | select(.level == \"info\") | .data" >logs &&
	test_grep "HEAD moved" logs &&
	(
		cd r-moved &&
		git diff --cached --name-only >names &&
		echo dir/b.txt >expect &&
		test_cmp expect names &&
		git show :a.txt >actual &&
		printf "one\nTWO\nthree\n" >expect &&
		test_cmp expect actual
	)
'

test_expect_success SDK 'roots that hold the repository: the tools work' '
	fresh r-roots-in &&
	mcp r-roots-in "[{\"op\":\"call\",\"tool\":\"apply\",\"args\":{\"answer@\":\"../answers/sr.md\"}}]" \
		--roots "$SHARNESS_TRASH_DIRECTORY" >out &&
	step end out | jq -e ".rootsAsked >= 1" &&
	test "$(call 1 out .isError)" = false &&
	test "$(call 1 out .structuredContent.status)" = applied
'

test_expect_success SDK 'roots that do not hold the repository: every tool refused, nothing written' '
	fresh r-roots-out &&
	mkdir elsewhere &&
	(
		cd r-roots-out &&
		repo_snapshot roots &&
		mcp . "[{\"op\":\"call\",\"tool\":\"check\",\"args\":{\"answer@\":\"../answers/sr.md\"}},
			{\"op\":\"call\",\"tool\":\"apply\",\"args\":{\"answer@\":\"../answers/sr.md\"}},
			{\"op\":\"call\",\"tool\":\"suggest\",\"args\":{\"answers@\":[\"../answers/s1.md\"],\"branch\":\"r\"}},
			{\"op\":\"call\",\"tool\":\"undo\",\"args\":{}},
			{\"op\":\"call\",\"tool\":\"review\",\"args\":{}}]" \
			--roots "$SHARNESS_TRASH_DIRECTORY/elsewhere" >../out &&
		repo_unchanged roots
	) &&
	calls out >all &&
	test $(wc -l <all) = 5 &&
	jq -c "select(.isError != true)" all >bad &&
	test_must_be_empty bad &&
	call 2 out .text >text &&
	test_grep -i "root" text
'

test_expect_success SDK 'a root that only shares a prefix with the repository does not hold it' '
	fresh r-pre &&
	mkdir -p r &&
	mcp r-pre "[{\"op\":\"call\",\"tool\":\"apply\",\"args\":{\"answer@\":\"../answers/sr.md\"}}]" \
		--roots "$SHARNESS_TRASH_DIRECTORY/r" >out &&
	test "$(call 1 out .isError)" = true &&
	git -C r-pre diff --cached --exit-code
'

test_expect_success SDK 'roots changed during the session: asked again, then refused' '
	fresh r-roots-change &&
	mcp r-roots-change "[{\"op\":\"call\",\"tool\":\"check\",\"args\":{\"answer@\":\"../answers/sr.md\"}},
		{\"op\":\"roots\",\"roots\":[\"$SHARNESS_TRASH_DIRECTORY/elsewhere\"]},
		{\"op\":\"call\",\"tool\":\"apply\",\"args\":{\"answer@\":\"../answers/sr.md\"}}]" \
		--roots "$SHARNESS_TRASH_DIRECTORY/r-roots-change" >out &&
	test "$(call 1 out .isError)" = false &&
	step roots out | jq -e ".rootsAsked >= 2" &&
	test "$(call 2 out .isError)" = true &&
	git -C r-roots-change diff --cached --exit-code
'

test_expect_success SDK 'check between calls: the index as the user left it (kept open, read again)' '
	fresh r-index &&
	printf -- "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n" >two.diff &&
	mcp r-index "[{\"op\":\"call\",\"tool\":\"check\",\"args\":{\"answer@\":\"../two.diff\"}},
		{\"op\":\"sh\",\"cmd\":\"git rm -q --cached a.txt\"},
		{\"op\":\"call\",\"tool\":\"check\",\"args\":{\"answer@\":\"../two.diff\"}},
		{\"op\":\"sh\",\"cmd\":\"git add a.txt\"},
		{\"op\":\"call\",\"tool\":\"check\",\"args\":{\"answer@\":\"../two.diff\"}}]" >out &&
	test "$(call 1 out .isError)" = false &&
	test "$(call 2 out .isError)" = true &&
	test "$(call 3 out .isError)" = false &&
	git -C r-index diff --cached --exit-code
'

test_expect_success SDK 'check between calls: conflicts the user left in the index refuse, resolved they do not' '
	fresh r-conflict &&
	cat >conflict.sh <<-\EOF &&
	h=$(git rev-parse :a.txt) &&
	printf "0 %s\ta.txt\n100644 %s 1\ta.txt\n100644 %s 2\ta.txt\n100644 %s 3\ta.txt\n" \
		0000000000000000000000000000000000000000 $h $h $h |
	git update-index --index-info
	EOF
	mcp r-conflict "[{\"op\":\"call\",\"tool\":\"check\",\"args\":{\"answer@\":\"../two.diff\"}},
		{\"op\":\"sh\",\"cmd\":\"sh ../conflict.sh\"},
		{\"op\":\"call\",\"tool\":\"check\",\"args\":{\"answer@\":\"../two.diff\"}},
		{\"op\":\"call\",\"tool\":\"check\",\"args\":{\"answer@\":\"../two.diff\"}},
		{\"op\":\"sh\",\"cmd\":\"git add a.txt\"},
		{\"op\":\"call\",\"tool\":\"check\",\"args\":{\"answer@\":\"../two.diff\"}}]" >out &&
	test "$(call 1 out .isError)" = false &&
	test "$(call 2 out .isError)" = true &&
	call 2 out .structuredContent >text &&
	test_grep "unresolved conflicts" text &&
	test "$(call 3 out .isError)" = true &&
	test "$(call 4 out .isError)" = false
'

test_done
