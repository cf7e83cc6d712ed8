#!/bin/sh

test_description='work tree: the directory the command was started in stays when a deletion empties it (git since 2.36)'

. "$(dirname "$0")/test-lib.sh"

# A deletion removes the directories it leaves empty, except the one the
# command was started in: the process's current directory, and the
# shell's (PWD, the directory before -C; with -C <dir>, <dir> stays too:
# we cannot tell `git -C <dir> ai-apply` from a run started in <dir>).
# Its parents are never empty.

TRASH=$(pwd)

# fresh_copy DIR: a copy of the committed repository.
fresh_copy () {
	rm -rf "$1" && cp -R repo "$1"
}

# delete_diff PATH...: a git diff deleting each PATH (one line "x").
delete_diff () {
	for p
	do
		printf "diff --git a/%s b/%s\ndeleted file mode 100644\n--- a/%s\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n" \
			"$p" "$p" "$p"
	done
}

test_expect_success 'setup' '
	git init -q repo &&
	(
		cd repo &&
		mkdir -p sub/a keep &&
		echo x >sub/only &&
		echo x >sub/a/f &&
		echo x >keep/k &&
		git add . &&
		git commit -q -m initial
	) &&
	delete_diff sub/only sub/a/f >all.diff &&
	delete_diff sub/a/f >deep.diff &&
	cat >rename.diff <<-\EOF
	diff --git a/sub/a/f b/keep/f
	similarity index 100%
	rename from sub/a/f
	rename to keep/f
	EOF
'

test_expect_success 'a deletion run from sub/ keeps sub/ (empty); the index loses the files' '
	fresh_copy r1 &&
	(
		cd r1/sub &&
		git ai-apply "$TRASH/all.diff" &&
		test_path_is_dir . &&
		test -z "$(ls -A .)" &&
		git ls-files >"$TRASH/files"
	) &&
	test_path_is_dir r1/sub &&
	test_path_is_missing r1/sub/a &&
	test_must_be_empty files &&
	git -C r1 ls-files >files &&
	echo keep/k >expect &&
	test_cmp expect files
'

test_expect_success 'the same deletion from the top removes the emptied sub/ as before' '
	fresh_copy r2 &&
	(
		cd r2 &&
		git ai-apply "$TRASH/all.diff"
	) &&
	test_path_is_missing r2/sub &&
	git -C r2 ls-files >files &&
	echo keep/k >expect &&
	test_cmp expect files
'

test_expect_success 'from sub/a/, deleting sub/a/f keeps sub/a (and so sub/)' '
	fresh_copy r3 &&
	(
		cd r3/sub/a &&
		git ai-apply "$TRASH/deep.diff"
	) &&
	test_path_is_dir r3/sub/a &&
	test_path_is_missing r3/sub/a/f &&
	test_path_is_file r3/sub/only &&
	test -z "$(git -C r3 ls-files sub/a)"
'

test_expect_success 'a rename out of the directory the command runs in keeps it' '
	fresh_copy r4 &&
	(
		cd r4/sub/a &&
		git ai-apply "$TRASH/rename.diff"
	) &&
	test_path_is_dir r4/sub/a &&
	test_path_is_missing r4/sub/a/f &&
	test_path_is_file r4/keep/f &&
	git -C r4 ls-files >files &&
	printf "keep/f\nkeep/k\nsub/only\n" >expect &&
	test_cmp expect files
'

test_expect_success 'the same rename from the top removes sub/a' '
	fresh_copy r5 &&
	git -C r5 ai-apply "$TRASH/rename.diff" &&
	test_path_is_missing r5/sub/a &&
	test_path_is_file r5/keep/f
'

test_expect_success '-C: the directory before -C stays (as git), and the -C one' '
	fresh_copy r6 &&
	(
		cd r6/sub/a &&
		git ai-apply -C ../.. "$TRASH/deep.diff"
	) &&
	test_path_is_dir r6/sub/a &&
	fresh_copy r7 &&
	(
		cd r7/keep &&
		git ai-apply -C ../sub/a "$TRASH/deep.diff"
	) &&
	test_path_is_dir r7/sub/a &&
	test_path_is_missing r7/sub/a/f &&
	fresh_copy r10 &&
	(
		cd r10/keep &&
		git ai-apply -C .. "$TRASH/deep.diff"
	) &&
	test_path_is_missing r10/sub/a &&
	test_path_is_file r10/sub/only
'

test_expect_success '--cached never touches a directory' '
	fresh_copy r8 &&
	(
		cd r8 &&
		git ai-apply --cached "$TRASH/all.diff"
	) &&
	test_path_is_file r8/sub/only &&
	test_path_is_file r8/sub/a/f &&
	git -C r8 ls-files >files &&
	echo keep/k >expect &&
	test_cmp expect files
'

test_expect_success 'a file cannot replace the directory the command runs in: refused, nothing written' '
	fresh_copy r9 &&
	cat >swap.diff <<-\EOF &&
	diff --git a/sub/a/f b/sub/a/f
	deleted file mode 100644
	--- a/sub/a/f
	+++ /dev/null
	@@ -1 +0,0 @@
	-x
	diff --git a/sub/a b/sub/a
	new file mode 100644
	--- /dev/null
	+++ b/sub/a
	@@ -0,0 +1 @@
	+a file now
	EOF
	(
		cd r9 &&
		repo_snapshot swap &&
		(
			cd sub/a &&
			test_expect_code 1 git ai-apply "$TRASH/swap.diff" \
				>"$TRASH/out" 2>"$TRASH/err"
		) &&
		repo_unchanged swap
	) &&
	test_grep "^error: sub/a: already exists in the work tree" err &&
	test_path_is_file r9/sub/a/f
'

test_done
