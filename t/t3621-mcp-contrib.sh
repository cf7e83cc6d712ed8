#!/bin/sh

test_description='contrib/mcp: every editor snippet parses and names git ai-apply mcp'

. "$(dirname "$0")/test-lib.sh"

contrib="$AA_TEST_DIR/../contrib/mcp"

python3 -c "import tomllib" 2>/dev/null && test_set_prereq TOMLLIB

# server_entry FILE: the git-ai-apply entry of a JSON snippet, under the
# key its client reads (Zed: context_servers, VS Code: servers, the
# others: mcpServers), as one compact JSON line.
server_entry () {
	jq -c '(.mcpServers // .servers // .context_servers)["git-ai-apply"]' "$1"
}

for snippet in claude-desktop.json claude-code.mcp.json cursor.mcp.json \
	vscode.mcp.json zed.settings.json
do
	test_expect_success "$snippet: JSON that starts git ai-apply mcp" '
		jq -e . "$contrib/$snippet" >/dev/null &&
		server_entry "$contrib/$snippet" >entry &&
		jq -e ".command == \"git\" and .args[0:2] == [\"ai-apply\", \"mcp\"]" entry
	'
done

test_expect_success 'each client reads its own key' '
	jq -e "has(\"servers\")" "$contrib/vscode.mcp.json" &&
	jq -e ".servers[\"git-ai-apply\"].type == \"stdio\"" "$contrib/vscode.mcp.json" &&
	jq -e "has(\"context_servers\")" "$contrib/zed.settings.json" &&
	for f in claude-desktop.json claude-code.mcp.json cursor.mcp.json
	do
		jq -e "has(\"mcpServers\")" "$contrib/$f" >/dev/null || return 1
	done
'

test_expect_success TOMLLIB 'codex.config.toml: TOML with an [mcp_servers.git-ai-apply] table' '
	python3 - "$contrib/codex.config.toml" >entry <<-\PY &&
	import json, sys, tomllib
	with open(sys.argv[1], "rb") as f:
	    conf = tomllib.load(f)
	print(json.dumps(conf["mcp_servers"]["git-ai-apply"]))
	PY
	jq -e ".command == \"git\" and .args[0:2] == [\"ai-apply\", \"mcp\"]" entry
'

# start_entry ENTRY DIR: starts the server as the entry says, from DIR,
# with the placeholders for the repository replaced by "repo"'"'"'s path;
# sends initialize and a check call; prints the server'"'"'s answers.
start_entry () {
	jq -r "[.command] + .args | .[]" "$1" |
	sed -e "s|\${workspaceFolder}|$SHARNESS_TRASH_DIRECTORY/repo|" \
		-e "s|/path/to/your/repository|$SHARNESS_TRASH_DIRECTORY/repo|" |
	tr "\n" "\0" >argv &&
	(
		cd "$2" &&
		GIT_CEILING_DIRECTORIES=$SHARNESS_TRASH_DIRECTORY &&
		export GIT_CEILING_DIRECTORIES &&
		xargs -0 sh -c "\"\$@\" <\"$SHARNESS_TRASH_DIRECTORY/requests\"" sh <"$SHARNESS_TRASH_DIRECTORY/argv"
	)
}

test_expect_success 'setup: a repository and the requests of a client' '
	make_repo repo &&
	cat >requests <<-\EOF
	{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t3621","version":"1"}}}
	{"jsonrpc":"2.0","method":"notifications/initialized"}
	{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"check","arguments":{"answer":"a.txt\n```\n<<<<<<< SEARCH\ntwo\n=======\nTWO\n>>>>>>> REPLACE\n```\n"}}}
	EOF
'

# Claude Code starts project servers in the project; the others from
# anywhere (here: a directory in no repository), -C naming it.
for snippet in claude-desktop.json:. claude-code.mcp.json:repo \
	cursor.mcp.json:. vscode.mcp.json:. zed.settings.json:. codex.config.toml:.
do
	file=${snippet%:*} dir=${snippet#*:}
	test_expect_success "$file: the entry starts the server on the repository" '
		if test "$file" = codex.config.toml
		then
			test_have_prereq TOMLLIB || return 0
			python3 -c "import json, sys, tomllib; print(json.dumps(tomllib.load(open(sys.argv[1], \"rb\"))[\"mcp_servers\"][\"git-ai-apply\"]))" \
				"$contrib/$file" >entry
		else
			server_entry "$contrib/$file" >entry
		fi &&
		start_entry entry "$dir" >answers &&
		jq -c "select(.id == 1)" answers >init &&
		jq -e ".result.serverInfo.name == \"git-ai-apply\"" init &&
		jq -c "select(.id == 2)" answers >check &&
		jq -e ".result.structuredContent.status == \"checked\" and
			.result.structuredContent.files[0].path == \"a.txt\"" check
	'
done

test_expect_success 'the README names every snippet' '
	for f in $(cd "$contrib" && ls *.json *.toml)
	do
		test_grep "($f)" "$contrib/README.md" || return 1
	done
'

test_done
