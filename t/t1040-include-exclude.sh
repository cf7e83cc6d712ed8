#!/bin/sh

test_description='--include / --exclude: git apply'"'"'s path filters, on every format'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: a repository and a diff that edits, renames, creates and deletes' '
	git init -q repo &&
	(
		cd repo &&
		mkdir -p src docs &&
		echo a >src/a.c && echo b >docs/b.md && echo c >top.c &&
		echo d >del.txt && echo e >.hidden.c &&
		git add . && git commit -q -m base && git tag base &&
		echo A >>src/a.c && echo B >>docs/b.md && echo E >>.hidden.c &&
		git mv top.c src/top.c && git rm -q del.txt && echo n >new.c &&
		git add -A && git diff --cached -M >../all.diff &&
		git reset -q --hard base && git clean -qfd
	) &&
	test_grep "^rename from top.c" all.diff
'

# Each line: the rules, as given to both commands.
cat >rules <<\EOF
--include=*.c
--exclude=*.c
--include=src/*
--exclude=src/a.c --include=src/*
--include=src/* --exclude=src/a.c
--include=src/top.c
--include=top.c
--include=del.txt
--include=s*
--include=*/a.c
--include=a.c
--include=src
--include=.*
--include=[sd]*/[ab].*
--exclude=docs/* --exclude=*.txt
--include=?ew.c
EOF

while read -r args
do
	test_expect_success "$args: the paths git apply keeps, previewed and landed" "
		rm -rf by-git by-us && cp -R repo by-git && cp -R repo by-us &&
		git -C by-git update-index -q --refresh &&
		git -C by-git apply --numstat $args ../all.diff >expect &&
		git -C by-us ai-apply --numstat $args ../all.diff >actual &&
		test_cmp expect actual &&
		git -C by-git apply --index $args ../all.diff &&
		git -C by-us ai-apply $args ../all.diff >out &&
		test \"\$(git -C by-us write-tree)\" = \"\$(git -C by-git write-tree)\" &&
		git -C by-us diff --exit-code
	"
done <rules

test_expect_success 'setup: the repository with the diff applied, for -R' '
	rm -rf after && cp -R repo after &&
	(
		cd after &&
		git update-index -q --refresh &&
		git apply --index ../all.diff &&
		git commit -q -m after
	)
'

# With -R, git tests the names of the reversed patches: a rename's source.
for args in --include=top.c --include=src/top.c "--include=*.c" \
	    --exclude=top.c "--include=del.txt" "--exclude=src/*"
do
	test_expect_success "-R $args: the paths git apply -R keeps" "
		rm -rf by-git by-us && cp -R after by-git && cp -R after by-us &&
		git -C by-git update-index -q --refresh &&
		git -C by-git apply -R --index $args ../all.diff &&
		git -C by-us ai-apply -R $args ../all.diff >out 2>err &&
		test \"\$(git -C by-us write-tree)\" = \"\$(git -C by-git write-tree)\" &&
		git -C by-us diff --exit-code
	"
done

test_expect_success 'every change excluded: nothing written, exit 0, a note says so' '
	rm -rf none && cp -R repo none &&
	(
		cd none &&
		repo_snapshot pre &&
		git ai-apply --exclude="*" ../all.diff >../out 2>../err &&
		repo_unchanged pre &&
		test_must_be_empty ../out &&
		test_grep "^note: every change of the answer is excluded by --include/--exclude; nothing to apply\$" ../err &&
		git ai-apply --include=nothing ../all.diff 2>../err &&
		repo_unchanged pre &&
		git ai-apply --include=nothing --check ../all.diff &&
		git ai-apply --include=nothing --json ../all.diff >../json &&
		repo_unchanged pre
	) &&
	jq -e ".files == [] and (.notes | length) == 1" json
'

test_expect_success 'an excluded path is neither planned nor checked: its failure does not count' '
	rm -rf skip && cp -R repo skip &&
	(
		cd skip &&
		echo changed >docs/b.md && git add docs/b.md &&
		test_rejected ../all.diff &&
		test_grep "docs/b.md" err &&
		git ai-apply --exclude="docs/*" ../all.diff &&
		git diff --cached --no-renames --name-only base >names &&
		printf "del.txt\ndocs/b.md\nnew.c\nsrc/a.c\nsrc/top.c\ntop.c\n.hidden.c\n" | sort >expect &&
		sort names >actual && test_cmp expect actual
	)
'

test_expect_success 'the path matched is the one after -p<n> and --directory, as git apply'"'"'s' '
	(
		cd repo &&
		echo A >>src/a.c && echo B >>docs/b.md &&
		git diff >../edits.diff &&
		git reset -q --hard base
	) &&
	sed -e "s|^--- a/|--- a/x/|" -e "s|^+++ b/|+++ b/x/|" \
	    -e "/^diff --git/s| a/| a/x/|" -e "/^diff --git/s| b/| b/x/|" edits.diff >strip.diff &&
	test_grep "^+++ b/x/src/a.c" strip.diff &&
	rm -rf by-git by-us && cp -R repo by-git && cp -R repo by-us &&
	git -C by-git update-index -q --refresh &&
	git -C by-git apply --index -p2 --include="src/*" ../strip.diff &&
	git -C by-us ai-apply -p2 --include="src/*" ../strip.diff &&
	test "$(git -C by-us write-tree)" = "$(git -C by-git write-tree)" &&
	git -C by-us diff --cached --name-only >names &&
	echo src/a.c >expect && test_cmp expect names &&
	git -C by-git apply --numstat --directory=sub --include="src/*" ../edits.diff >expect &&
	test_must_be_empty expect &&
	git -C repo ai-apply --directory=sub --include="src/*" ../edits.diff 2>err &&
	test_grep "every change of the answer is excluded" err
'

test_expect_success 'every format is filtered: SEARCH/REPLACE and V4A blocks' '
	cat >answer.md <<-\EOF &&
	src/a.c
	```
	<<<<<<< SEARCH
	a
	=======
	a2
	>>>>>>> REPLACE
	```

	docs/b.md
	```
	<<<<<<< SEARCH
	b
	=======
	b2
	>>>>>>> REPLACE
	```

	```
	*** Begin Patch
	*** Add File: src/v.c
	+v
	*** Delete File: del.txt
	*** End Patch
	```
	EOF
	rm -rf fmt && cp -R repo fmt &&
	(
		cd fmt &&
		git ai-apply --include="src/*" ../answer.md &&
		git diff --cached --name-only base >actual &&
		printf "src/a.c\nsrc/v.c\n" >expect &&
		test_cmp expect actual &&
		git reset -q --hard base && git clean -qfd &&
		git ai-apply --exclude="src/*" ../answer.md &&
		git diff --cached --name-only base >actual &&
		printf "del.txt\ndocs/b.md\n" >expect &&
		test_cmp expect actual
	)
'

test_expect_success '--include and --exclude take a value; they go with no --list, --review, --recover' '
	(
		cd repo &&
		repo_snapshot pre &&
		test_expect_code 129 git ai-apply --include 2>err &&
		test_grep "^error: option .--include. needs a pattern" err &&
		test_expect_code 128 git ai-apply --list --include=x 2>err &&
		test_grep "^fatal: options .--list. and .--include. cannot be used together\$" err &&
		test_expect_code 128 git ai-apply --review --exclude=x 2>err &&
		test_grep "^fatal: options .--review. and .--exclude. cannot be used together\$" err &&
		rm err &&
		repo_unchanged pre
	)
'

test_done
