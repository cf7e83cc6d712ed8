#!/bin/sh

test_description='sparse checkout: skip-worktree entries are changed in the index only and stay outside the cone'

. "$(dirname "$0")/test-lib.sh"

edit_out () {
	printf -- "--- a/out/b.txt\n+++ b/out/b.txt\n@@ -1,2 +1,2 @@\n x\n-y\n+Y\n"
}

test_expect_success 'setup: a cone-mode sparse checkout of in/' '
	git init -q repo &&
	(
		cd repo &&
		mkdir in out &&
		printf "one\ntwo\n" >in/a.txt &&
		printf "x\ny\n" >out/b.txt &&
		printf "keep\n" >out/c.txt &&
		git add . &&
		git commit -q -m initial &&
		git tag base &&
		git sparse-checkout set in &&
		test_path_is_missing out &&
		git ls-files -t >../tags
	) &&
	test_grep "^S out/b.txt" tags &&
	edit_out >edit.diff &&
	printf "x\nY\n" >edited &&
	printf -- "--- a/out/b.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n" >delete.diff &&
	printf -- "--- /dev/null\n+++ b/out/new.txt\n@@ -0,0 +1 @@\n+new\n" >create.diff
'

test_expect_success 'an edit outside the cone: the index changes, the entry stays skip-worktree, no file' '
	fresh r1 &&
	(
		cd r1 &&
		git ai-apply ../edit.diff >../out 2>../err &&
		git show :out/b.txt >../got &&
		git ls-files -t out/b.txt >../tags &&
		test_path_is_missing out &&
		git status --porcelain >../status
	) &&
	test_cmp edited got &&
	echo "S out/b.txt" >want && test_cmp want tags &&
	echo "M  out/b.txt" >want && test_cmp want status &&
	test_grep "^M out/b.txt (+1 -1, index only)" out &&
	test_grep "note: out/b.txt: outside the sparse checkout (skip-worktree): changed in the index only" err
'

test_expect_success '--json says skip_worktree; --check says index only and writes nothing' '
	fresh r2 &&
	(
		cd r2 &&
		repo_snapshot check &&
		git ai-apply --check ../edit.diff >../out &&
		repo_unchanged check &&
		git ai-apply --json ../edit.diff >../json
	) &&
	test_grep "(+1 -1, index only)" out &&
	test "$(jq -r ".files[0].skip_worktree" json)" = true
'

test_expect_success '--cached keeps the bit too, and says nothing of a work tree' '
	fresh r3 &&
	(
		cd r3 &&
		git ai-apply --cached ../edit.diff >../out &&
		git ls-files -t out/b.txt >../tags
	) &&
	echo "S out/b.txt" >want && test_cmp want tags &&
	! grep "index only" out
'

test_expect_success 'a deletion outside the cone: removed from the index only; a file there is left alone' '
	fresh r4 &&
	(
		cd r4 &&
		mkdir out && echo mine >out/b.txt &&
		git ai-apply ../delete.diff 2>../err &&
		test_must_fail git ls-files --error-unmatch out/b.txt &&
		echo mine >../want && test_cmp ../want out/b.txt
	) &&
	test_grep "removed from the index only" err
'

test_expect_success 'a creation under a directory outside the cone: as git apply --index (written, no bit)' '
	fresh r5 && fresh g5 &&
	git -C g5 apply --index ../create.diff &&
	git -C r5 ai-apply ../create.diff &&
	git -C g5 ls-files -t >want &&
	git -C r5 ls-files -t >got &&
	test_cmp want got &&
	test_grep "^H out/new.txt" got &&
	test_cmp g5/out/new.txt r5/out/new.txt
'

test_expect_success 'a rename out of the cone: the source leaves the index only, the target is written' '
	fresh r6 &&
	printf "diff --git a/out/c.txt b/in/c.txt\nsimilarity index 100%%\nrename from out/c.txt\nrename to in/c.txt\n" >rename.diff &&
	(
		cd r6 &&
		git ai-apply ../rename.diff &&
		echo keep >../want && test_cmp ../want in/c.txt &&
		git ls-files -t >../tags
	) &&
	test_grep "^H in/c.txt" tags &&
	! grep "out/c.txt" tags
'

test_expect_success 'a hunk that does not match the index blob: rejected, nothing written' '
	fresh r7 &&
	printf -- "--- a/out/b.txt\n+++ b/out/b.txt\n@@ -1,2 +1,2 @@\n x\n-nope\n+Y\n" >bad.diff &&
	(
		cd r7 &&
		test_rejected ../bad.diff
	) &&
	test_grep "out/b.txt" r7/err &&
	test_grep "bad.diff:" r7/err
'

test_expect_success 'a second answer on the skip-worktree entry reads its index blob' '
	fresh r8 &&
	printf -- "--- a/out/b.txt\n+++ b/out/b.txt\n@@ -1,2 +1,3 @@\n x\n Y\n+z\n" >more.diff &&
	(
		cd r8 &&
		git ai-apply ../edit.diff &&
		git ai-apply ../more.diff &&
		git show :out/b.txt >../got &&
		git ls-files -t out/b.txt >../tags
	) &&
	printf "x\nY\nz\n" >want && test_cmp want got &&
	echo "S out/b.txt" >want && test_cmp want tags
'

test_done
