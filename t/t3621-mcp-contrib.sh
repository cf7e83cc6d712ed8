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

test_expect_success 'the README names every snippet' '
	for f in $(cd "$contrib" && ls *.json *.toml)
	do
		test_grep "($f)" "$contrib/README.md" || return 1
	done
'

test_done
