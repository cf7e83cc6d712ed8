#!/bin/sh

test_description='-p / --patch: choosing the hunks to land, as git add -p'

. "$(dirname "$0")/test-lib.sh"

# The base: a.txt (lines 1..30), b.txt, gone.txt (to delete), old.txt
# (to move and edit), run.sh (to make executable).
test_expect_success 'setup' '
	git init -q repo &&
	(
		cd repo &&
		seq 1 30 >a.txt &&
		printf "x\ny\n" >b.txt &&
		printf "bye\n" >gone.txt &&
		seq 1 10 >old.txt &&
		printf "echo hi\n" >run.sh &&
		git add . &&
		git commit -q -m base &&
		git tag base
	) &&
	cat >two.diff <<-\EOF &&
	--- a/a.txt
	+++ b/a.txt
	@@ -1,5 +1,5 @@
	 1
	-2
	+TWO
	 3
	 4
	 5
	@@ -20,5 +20,5 @@
	 20
	 21
	-22
	+TWENTYTWO
	 23
	 24
	--- a/b.txt
	+++ b/b.txt
	@@ -1,2 +1,2 @@
	 x
	-y
	+Y
	EOF
	seq 1 30 | sed "s/^2\$/TWO/" >a-first &&
	seq 1 30 | sed "s/^22\$/TWENTYTWO/" >a-second &&
	seq 1 30 | sed -e "s/^2\$/TWO/" -e "s/^22\$/TWENTYTWO/" >a-both &&
	seq 1 30 >a-base &&
	printf "x\nY\n" >b-new &&
	printf "x\ny\n" >b-base
'

test_expect_success 'y and n choose the hunks; the rest of the file stays' '
	fresh r1 &&
	printf "y\nn\ny\n" | git -C r1 ai-apply -p ../two.diff >out &&
	(cd r1 && staged_as a.txt ../a-first && staged_as b.txt ../b-new) &&
	test_grep -F "(1/2) Stage this hunk [y,n,q,a,d,e,?]? " out &&
	test_grep -F "(1/1) Stage this hunk" out &&
	test_grep "M a.txt (+1 -1)\$" out
'

test_expect_success 'the hunks are shown as git add -p shows them' '
	fresh r2 &&
	printf "n\nn\nn\n" | git -C r2 ai-apply -p ../two.diff >out &&
	test_grep "^diff --git a/a.txt b/a.txt\$" out &&
	test_grep "^@@ -1,5 +1,5 @@\$" out &&
	test_grep "^@@ -19,7 +19,7 @@\$" out &&
	test_grep "^-22\$" out &&
	test_grep "^+TWENTYTWO\$" out
'

test_expect_success 'all refused: nothing written, a message, exit 0' '
	fresh r3 &&
	(
		cd r3 &&
		repo_snapshot none &&
		printf "n\nn\nn\n" | git ai-apply -p ../two.diff >"$(snapshot_dir)/out" &&
		repo_unchanged none &&
		test_grep "No change selected: nothing applied." "$(snapshot_dir)/out"
	)
'

test_expect_success 'q after one y lands that one' '
	fresh r4 &&
	printf "y\nq\n" | git -C r4 ai-apply -p ../two.diff >out &&
	(cd r4 && staged_as a.txt ../a-first && staged_as b.txt ../b-base) &&
	! grep -F "(1/1) Stage this hunk" out
'

test_expect_success 'a takes the rest of the file, d leaves it' '
	fresh r5 &&
	printf "a\nd\n" | git -C r5 ai-apply -p ../two.diff >out &&
	(cd r5 && staged_as a.txt ../a-both && staged_as b.txt ../b-base) &&
	! grep -F "(2/2)" out &&
	fresh r6 &&
	printf "d\ny\n" | git -C r6 ai-apply -p ../two.diff >out &&
	(cd r6 && staged_as a.txt ../a-base && staged_as b.txt ../b-new)
'

test_expect_success 'end of input before the last question: nothing lands, exit 1' '
	fresh r7 &&
	(
		cd r7 &&
		printf "y\ny\n" | test_rejected -p ../two.diff &&
		test_grep "error: b.txt: end of input at question 1/1: nothing was applied" err
	)
'

test_expect_success 'no answers at all: nothing lands, exit 1' '
	fresh r8 &&
	(
		cd r8 &&
		test_rejected -p ../two.diff </dev/null &&
		test_grep "a.txt: end of input at question 1/2" err
	)
'

test_expect_success 'an unknown key prints the help and asks again' '
	fresh r9 &&
	printf "x\ny\n?\nn\nn\n" | git -C r9 ai-apply -p ../two.diff >out &&
	test_grep "y - stage this hunk\$" out &&
	test_grep "^e - manually edit the current hunk\$" out &&
	! grep "^s - split" out &&
	test $(grep -c "^? - print help" out) = 2 &&
	(cd r9 && staged_as a.txt ../a-first)
'

test_expect_success '-p with the answer on standard input is refused (128)' '
	fresh r10 &&
	(
		cd r10 &&
		repo_snapshot stdin &&
		test_expect_code 128 git ai-apply -p <../two.diff 2>err &&
		test_grep "fatal: --patch reads its answers from standard input" err &&
		test_expect_code 128 git ai-apply -p - <../two.diff 2>err &&
		test_grep "fatal: --patch reads its answers" err &&
		rm err &&
		repo_unchanged stdin
	)
'

test_expect_success '-p with --check, --json, --3way or --each is refused (128)' '
	for opt in --check --json --3way "--branch=x --each"
	do
		test_expect_code 128 git -C repo ai-apply -p $opt ../two.diff \
			</dev/null 2>err &&
		test_grep "fatal: --patch cannot be used with" err ||
		return 1
	done
'

test_expect_success 'setup: an answer of whole operations' '
	cat >ops.diff <<-\EOF &&
	diff --git a/gone.txt b/gone.txt
	deleted file mode 100644
	--- a/gone.txt
	+++ /dev/null
	@@ -1 +0,0 @@
	-bye
	diff --git a/new.txt b/new.txt
	new file mode 100644
	--- /dev/null
	+++ b/new.txt
	@@ -0,0 +1 @@
	+hello
	diff --git a/old.txt b/moved.txt
	similarity index 90%
	rename from old.txt
	rename to moved.txt
	--- a/old.txt
	+++ b/moved.txt
	@@ -1,3 +1,3 @@
	 1
	-2
	+two
	 3
	diff --git a/run.sh b/run.sh
	old mode 100644
	new mode 100755
	EOF
	seq 1 10 | sed "s/^2\$/two/" >old-edited
'

test_expect_success 'whole operations are asked as such' '
	fresh w1 &&
	printf "n\nn\nn\nn\nn\n" | git -C w1 ai-apply -p ../ops.diff >out &&
	test_grep -F "(1/1) Stage deletion [y,n,q,a,d,?]? " out &&
	test_grep -F "(1/1) Stage addition [y,n,q,a,d,?]? " out &&
	test_grep -F "(1/2) Stage rename [y,n,q,a,d,?]? " out &&
	test_grep -F "(2/2) Stage this hunk [y,n,q,a,d,e,?]? " out &&
	test_grep -F "(1/1) Stage mode change [y,n,q,a,d,?]? " out &&
	test_grep "^deleted file mode 100644" out &&
	test_grep "^rename from old.txt" out &&
	test_grep "No change selected" out
'

test_expect_success 'each whole operation taken' '
	fresh w2 &&
	printf "y\ny\ny\ny\ny\n" | git -C w2 ai-apply -p ../ops.diff >out &&
	(
		cd w2 &&
		test_path_is_missing gone.txt &&
		test "$(git show :new.txt)" = hello &&
		test_path_is_missing old.txt &&
		staged_as moved.txt ../old-edited &&
		git ls-files -s run.sh >mode &&
		test_grep "^100755 " mode
	)
'

test_expect_success 'a refused deletion keeps the file; a refused mode change keeps the mode' '
	fresh w3 &&
	printf "n\ny\ny\ny\nn\n" | git -C w3 ai-apply -p ../ops.diff >out &&
	(
		cd w3 &&
		test "$(git show :gone.txt)" = bye &&
		git ls-files -s run.sh >mode &&
		test_grep "^100644 " mode &&
		test_path_is_missing old.txt
	)
'

test_expect_success 'a refused rename keeps the source, with the edits chosen' '
	fresh w4 &&
	printf "n\nn\nn\ny\nn\n" | git -C w4 ai-apply -p ../ops.diff >out &&
	(
		cd w4 &&
		test_path_is_missing moved.txt &&
		git ls-files moved.txt >listed &&
		test_must_be_empty listed &&
		staged_as old.txt ../old-edited
	)
'

test_expect_success 'a rename taken without its edit moves the file as it was' '
	fresh w5 &&
	printf "n\nn\ny\nn\nn\n" | git -C w5 ai-apply -p ../ops.diff >out &&
	(
		cd w5 &&
		test_path_is_missing old.txt &&
		test "$(git rev-parse :moved.txt)" = "$(git rev-parse base:old.txt)"
	)
'

test_expect_success 'a creation that needs a refused deletion is not applied' '
	cat >df.diff <<-\EOF &&
	diff --git a/b.txt b/b.txt
	deleted file mode 100644
	--- a/b.txt
	+++ /dev/null
	@@ -1,2 +0,0 @@
	-x
	-y
	diff --git a/b.txt/inner b/b.txt/inner
	new file mode 100644
	--- /dev/null
	+++ b/b.txt/inner
	@@ -0,0 +1 @@
	+in
	EOF
	fresh w6 &&
	(
		cd w6 &&
		repo_snapshot df &&
		printf "n\ny\n" | git ai-apply -p ../df.diff \
			>"$(snapshot_dir)/out" 2>"$(snapshot_dir)/err" &&
		repo_unchanged df &&
		test_grep "b.txt/inner: not applied: b.txt stays" "$(snapshot_dir)/err"
	) &&
	fresh w7 &&
	printf "y\ny\n" | git -C w7 ai-apply -p ../df.diff >out &&
	test "$(git -C w7 show :b.txt/inner)" = in
'

test_expect_success '--cached: the index gets the chosen hunks, the work tree nothing' '
	fresh c1 &&
	printf "n\ny\nn\n" | git -C c1 ai-apply --cached -p ../two.diff >out &&
	(
		cd c1 &&
		git show :a.txt >staged &&
		test_cmp ../a-second staged &&
		test_cmp ../a-base a.txt &&
		test "$(git rev-parse :b.txt)" = "$(git rev-parse base:b.txt)"
	)
'

test_expect_success '--branch: the commit holds the chosen hunks only' '
	fresh b1 &&
	printf "y\nn\nn\n" | git -C b1 ai-apply --branch=ai/part -p ../two.diff >out &&
	test_grep -F "(1/2) Apply this hunk to the branch [y,n,q,a,d,e,?]? " out &&
	(
		cd b1 &&
		git show ai/part:a.txt >committed &&
		test_cmp ../a-first committed &&
		test "$(git rev-parse ai/part:b.txt)" = "$(git rev-parse base:b.txt)" &&
		git diff --name-only base ai/part >changed &&
		echo a.txt >expect &&
		test_cmp expect changed &&
		git diff --quiet && git diff --cached --quiet
	)
'

test_expect_success '--branch with nothing chosen creates no branch' '
	fresh b2 &&
	printf "n\nn\nn\n" | git -C b2 ai-apply --branch=ai/none -p ../two.diff >out &&
	test_must_fail git -C b2 rev-parse --verify -q refs/heads/ai/none
'

test_done
