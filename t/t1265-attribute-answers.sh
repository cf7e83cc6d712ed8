#!/bin/sh

test_description='attribute answers kept for a run (src/land/attrs.c): the same answers as asked afresh -- a .gitattributes the answer adds, one per base commit under --predictions, the same path in many --each suggestions, the global files, one changed between two MCP calls'

. "$(dirname "$0")/test-lib.sh"

# edit FILE OLD NEW: a one-line diff of FILE (a.txt-shaped: one two three)
edit () {
	printf -- "--- a/%s\n+++ b/%s\n@@ -1,3 +1,3 @@\n one\n-%s\n+%s\n three\n" "$1" "$1" "$2" "$3"
}

test_expect_success 'setup' '
	make_repo repo &&
	(
		cd repo &&
		printf "one\ntwo\nthree\n" >b.txt &&
		printf "one\ntwo\nthree\n" >dir/c.txt &&
		git add . && git commit -q -m "b, c" && git tag plain &&
		echo "b.txt binary" >.gitattributes &&
		echo "c.txt binary" >dir/.gitattributes &&
		git add . && git commit -q -m attributes && git tag attrs
	) &&
	edit a.txt two TWO >a.diff &&
	edit b.txt two TWO >b.diff &&
	edit dir/c.txt two TWO >c.diff &&
	{ printf -- "--- a/.gitattributes\n+++ b/.gitattributes\n@@ -1 +1,2 @@\n b.txt binary\n+a.txt binary\n" &&
	  edit a.txt two 2; } >adds-attrs.diff
'

test_expect_success 'an answer that adds a .gitattributes with a driver: the work tree written through it' '
	git init -q drv &&
	(
		cd drv &&
		git config filter.rot.clean "tr a-zA-Z n-za-mN-ZA-M" &&
		git config filter.rot.smudge "tr a-zA-Z n-za-mN-ZA-M" &&
		printf "hello\nworld\n" >t.r &&
		git add . && git commit -q -m initial &&
		printf -- "--- /dev/null\n+++ b/.gitattributes\n@@ -0,0 +1 @@\n+*.r filter=rot\n" >../drv.diff &&
		printf -- "--- /dev/null\n+++ b/n.r\n@@ -0,0 +1 @@\n+fresh\n" >>../drv.diff &&
		git ai-apply -q ../drv.diff &&
		git show :n.r >../got.index &&
		cp n.r ../got.wt
	) &&
	echo fresh >want.index && test_cmp want.index got.index &&
	# planned without the attribute, written with it: asked again after the write
	echo serfu >want.wt && test_cmp want.wt got.wt
'

test_expect_success '--each: the same paths in many suggestions, the base commit decides' '
	fresh r1 &&
	(
		cd r1 &&
		test_expect_code 1 git ai-apply -q --each --branch=s \
			../a.diff ../b.diff ../a.diff ../c.diff ../adds-attrs.diff ../a.diff ../b.diff \
			2>../err &&
		git for-each-ref --format="%(refname:short)" "refs/heads/s-*" | sort >../got
	) &&
	printf "s-1\ns-3\ns-5\ns-6\n" >want && test_cmp want got &&
	test_grep "b.txt: .*binary file" err &&
	test_grep "dir/c.txt: .*binary file" err &&
	git -C r1 show s-5:.gitattributes >got.attrs &&
	printf "b.txt binary\na.txt binary\n" >want.attrs && test_cmp want.attrs got.attrs
'

test_expect_success '--each gives each suggestion what --branch alone gives' '
	fresh r2 &&
	(
		cd r2 &&
		k=0 &&
		for a in a b a c adds-attrs a b
		do
			k=$((k + 1)) &&
			{ git ai-apply -q --branch=l-$k ../$a.diff 2>/dev/null || :; } || return 1
		done &&
		git for-each-ref --format="%(refname:short) %(objectname)" "refs/heads/l-*" |
		while read -r b id; do echo "${b#l-} $(git rev-parse $b^{tree})"; done | sort >../loop
	) &&
	git -C r1 for-each-ref --format="%(refname:short)" "refs/heads/s-*" |
	while read -r b; do echo "${b#s-} $(git -C r1 rev-parse $b^{tree})"; done | sort >each &&
	test_cmp loop each
'

test_expect_success '--predictions: a .gitattributes of its own per base commit' '
	fresh r3 &&
	(
		cd r3 &&
		P=$(git rev-parse plain) && A=$(git rev-parse attrs) &&
		for k in 1 2 3 4
		do
			if test $((k % 2)) = 1; then base=$P; else base=$A; fi &&
			jq -cn --arg id "x__b-$k" --rawfile p ../b.diff --arg b "$base" \
				"{instance_id: \$id, model_name_or_path: \"m\", model_patch: \$p, base_commit: \$b}" ||
			return 1
		done >../preds.jsonl &&
		test_expect_code 1 git ai-apply --predictions=../preds.jsonl >../results 2>../err
	) &&
	jq -r "\"\(.name) \(.status)\"" results | sort >got &&
	printf "x__b-1 landed\nx__b-2 refused\nx__b-3 landed\nx__b-4 refused\n" >want &&
	test_cmp want got
'

test_expect_success 'no attribute file anywhere, then each global one: each is read' '
	git init -q g &&
	(
		cd g &&
		printf "one\ntwo\nthree\n" >a.txt && git add . && git commit -q -m i &&
		git ai-apply -q --check ../a.diff &&
		echo "a.txt binary" >.git/info/attributes &&
		test_expect_code 1 git ai-apply -q --check ../a.diff 2>../err.info &&
		rm .git/info/attributes &&
		echo "a.txt binary" >../global-attrs &&
		git config core.attributesFile "$SHARNESS_TRASH_DIRECTORY/global-attrs" &&
		test_expect_code 1 git ai-apply -q --branch=x ../a.diff 2>../err.global &&
		git config --unset core.attributesFile &&
		git ai-apply -q --branch=y ../a.diff
	) &&
	test_grep "binary file" err.info &&
	test_grep "binary file" err.global
'

# An MCP server keeps the repository open between calls: each call's
# answers are its own.
mcp_dir="$AA_TEST_DIR/mcp"
if command -v node >/dev/null 2>&1 && command -v jq >/dev/null 2>&1 &&
	(cd "$mcp_dir" && node -e "import('@modelcontextprotocol/sdk/client/stdio.js').then(() => 0, () => process.exit(1))") >/dev/null 2>&1
then
	test_set_prereq SDK
fi

test_expect_success SDK 'mcp: a .gitattributes changed between two calls is read by the next' '
	fresh r5 &&
	cat >steps.json <<-EOF &&
	[{"op":"call","tool":"check","args":{"answer@":"$SHARNESS_TRASH_DIRECTORY/a.diff"}},
	 {"op":"sh","cmd":"echo a.txt binary >.gitattributes && git add .gitattributes"},
	 {"op":"call","tool":"check","args":{"answer@":"$SHARNESS_TRASH_DIRECTORY/a.diff"}},
	 {"op":"sh","cmd":"echo a.txt -diff >.gitattributes && git add .gitattributes"},
	 {"op":"call","tool":"check","args":{"answer@":"$SHARNESS_TRASH_DIRECTORY/a.diff"}},
	 {"op":"sh","cmd":"echo b.txt text >.gitattributes && git add .gitattributes"},
	 {"op":"call","tool":"check","args":{"answer@":"$SHARNESS_TRASH_DIRECTORY/a.diff"}}]
	EOF
	node "$mcp_dir/client.mjs" --cwd r5 steps.json -- git ai-apply mcp >out &&
	jq -r "select(.op == \"call\") | .isError" out >got &&
	printf "false\ntrue\ntrue\nfalse\n" >want &&
	test_cmp want got
'

test_done
