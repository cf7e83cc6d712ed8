#!/bin/sh

test_description='-p / --patch: choosing the hunks to land, as git add -p'

. "$(dirname "$0")/test-lib.sh"

# write_script FILE: an executable shell script from standard input.
write_script () {
	{ echo "#!/bin/sh" && cat; } >"$1" && chmod +x "$1"
}

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

# no_tty CMD...: CMD in a session of its own, without a controlling
# terminal (/dev/tty does not open), as under cron.
no_tty () {
	setsid -w "$@"
}
command -v setsid >/dev/null 2>&1 && test_set_prereq SETSID

test_expect_success SETSID '-p with the answer on standard input and no terminal is refused (128)' '
	fresh r10 &&
	(
		cd r10 &&
		repo_snapshot stdin &&
		test_expect_code 128 no_tty git ai-apply -p <../two.diff 2>err &&
		test_grep "fatal: --patch reads its answers from standard input" err &&
		test_expect_code 128 no_tty git ai-apply -p - <../two.diff 2>err &&
		test_grep "fatal: --patch reads its answers" err &&
		rm err &&
		repo_unchanged stdin
	)
'

test_expect_success '--help and the manual name -p' '
	test_expect_code 129 git ai-apply -h >out &&
	test_grep -F -e "-p, --patch" out &&
	test_grep "^--patch::" "$AA_TEST_DIR/../Documentation/git-ai-apply.adoc"
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

test_expect_success 'setup: one hunk of two changes' '
	cat >near.diff <<-\EOF &&
	--- a/a.txt
	+++ b/a.txt
	@@ -1,9 +1,9 @@
	 1
	-2
	+TWO
	 3
	 4
	 5
	-6
	+SIX
	 7
	 8
	 9
	EOF
	seq 1 30 | sed "s/^6\$/SIX/" >a-six
'

test_expect_success 's splits a hunk at its context gap; y and n on the parts' '
	fresh s1 &&
	printf "s\nn\ny\n" | git -C s1 ai-apply -p ../near.diff >out &&
	test_grep -F "(1/1) Stage this hunk [y,n,q,a,d,s,e,?]? " out &&
	test_grep "Split into 2 hunks." out &&
	test_grep -F "(1/2) Stage this hunk [y,n,q,a,d,e,?]? " out &&
	test_grep -F "(2/2) Stage this hunk [y,n,q,a,d,e,?]? " out &&
	test_grep "^@@ -1,5 +1,5 @@" out &&
	test_grep "^@@ -3,7 +3,7 @@" out &&
	test $(grep -c "placement: ../near.diff:3: exact at line 1" out) = 3 &&
	(cd s1 && staged_as a.txt ../a-six) &&
	grep "^edit" s1/.git/ai-apply/review >edits &&
	printf "edit\t1\t0\texact\tnone\ta.txt\n" >expect &&
	test_cmp expect edits
'

test_expect_success '--diff and --stat report what was chosen only' '
	fresh s3 &&
	printf "s\nn\ny\n" | git -C s3 ai-apply -p --apply --diff ../near.diff >out &&
	git -C s3 diff --cached >actual &&
	sed 1,2d actual >expect &&
	tail -n $(wc -l <expect) out >reported &&
	test_cmp expect reported &&
	test_grep "^-6\$" reported &&
	! grep "TWO" reported &&
	fresh s4 &&
	printf "n\ny\nn\n" | git -C s4 ai-apply -p --apply --stat ../two.diff >out &&
	test_grep "a.txt |  *2 +-" out &&
	! grep "b.txt |" out
'

test_expect_success 's is not offered when the hunk cannot split' '
	fresh s2 &&
	printf "s\ny\nn\nn\n" | git -C s2 ai-apply -p ../two.diff >out &&
	test_grep "Sorry, cannot split this hunk" out &&
	(cd s2 && staged_as a.txt ../a-first)
'

test_expect_success 'e: the edited hunk is taken' '
	write_script edit-two <<-\EOF &&
	sed "s/^+TWO\$/+Two/" "$1" >"$1.new" && mv "$1.new" "$1"
	EOF
	fresh e1 &&
	printf "e\nn\nn\n" |
	GIT_EDITOR="\"$PWD/edit-two\"" git -C e1 ai-apply -p ../two.diff >out &&
	seq 1 30 | sed "s/^2\$/Two/" >expect &&
	(cd e1 && staged_as a.txt ../expect) &&
	test_path_is_missing e1/.git/ai-apply-hunk-edit.diff
'

test_expect_success 'e: the editor gets the hunk with a guide' '
	write_script show-edit <<-\EOF &&
	cp "$1" "$TRASH/edited-file"
	EOF
	fresh e2 &&
	printf "e\nn\nn\nn\n" |
	TRASH=$PWD GIT_EDITOR="\"$PWD/show-edit\"" git -C e2 ai-apply -p ../two.diff >out &&
	test_grep "^# Manual hunk edit mode" edited-file &&
	test_grep "^@@ -1,5 +1,5 @@" edited-file &&
	test_grep "^+TWO\$" edited-file &&
	test_grep "^# To drop a .+. line, delete it." edited-file
'

test_expect_success 'e: an edit that does not fit is offered again; n discards it' '
	write_script edit-context <<-\EOF &&
	sed "s/^ 3\$/ three/" "$1" >"$1.new" && mv "$1.new" "$1"
	EOF
	fresh e3 &&
	printf "e\nn\ny\nn\nn\n" |
	GIT_EDITOR="\"$PWD/edit-context\"" git -C e3 ai-apply -p ../two.diff >out &&
	test_grep "Your edited hunk does not apply. Edit again" out &&
	test $(grep -c "(1/2) Stage this hunk" out) = 2 &&
	(cd e3 && staged_as a.txt ../a-first)
'

test_expect_success 'e: an emptied hunk aborts the edit; the question comes again' '
	write_script edit-empty <<-\EOF &&
	: >"$1"
	EOF
	fresh e4 &&
	printf "e\nn\nn\nn\n" |
	GIT_EDITOR="\"$PWD/edit-empty\"" git -C e4 ai-apply -p ../two.diff >out &&
	test $(grep -c "(1/2) Stage this hunk" out) = 2 &&
	test_grep "No change selected" out
'

test_expect_success 'e: core.editor when GIT_EDITOR is not set' '
	fresh e5 &&
	git -C e5 config core.editor "\"$PWD/edit-two\"" &&
	printf "e\nn\nn\n" | (
		unset GIT_EDITOR VISUAL EDITOR &&
		git -C e5 ai-apply -p ../two.diff >out
	) &&
	seq 1 30 | sed "s/^2\$/Two/" >expect &&
	(cd e5 && staged_as a.txt ../expect)
'

test_expect_success 'e: end of input at "edit again" lands nothing' '
	fresh e6 &&
	(
		cd e6 &&
		printf "e\n" |
		GIT_EDITOR="\"$TRASH_DIRECTORY/edit-context\"" test_rejected -p ../two.diff &&
		test_grep "end of input at question 1/2" err
	)
'

test_expect_success 'the warnings of refused hunks are dropped with them' '
	cat >offsets.diff <<-\EOF &&
	--- a/a.txt
	+++ b/a.txt
	@@ -11,3 +11,3 @@
	 1
	-2
	+TWO
	 3
	--- a/b.txt
	+++ b/b.txt
	@@ -5,2 +5,2 @@
	 x
	-y
	+Y
	EOF
	fresh p0 &&
	printf "y\nn\n" | git -C p0 ai-apply -p ../offsets.diff >out 2>err &&
	test_grep "warning: a.txt: ../offsets.diff:3: hunk applied at line 1" err &&
	! grep "b.txt" err &&
	! grep "^warning.*b.txt" p0/.git/ai-apply/review
'

test_expect_success 'a hunk placed at an offset shows its placement' '
	cat >offset.diff <<-\EOF &&
	--- a/a.txt
	+++ b/a.txt
	@@ -11,3 +11,3 @@
	 1
	-2
	+TWO
	 3
	EOF
	fresh p1 &&
	printf "y\n" | git -C p1 ai-apply -p ../offset.diff >out &&
	test_grep "^placement: ../offset.diff:3: offset at line 1, offset -10\$" out
'

test_expect_success 'a tolerant placement is marked' '
	printf "%s\n" "--- a/b.txt" "+++ b/b.txt" "@@ -1,2 +1,2 @@" \
		"  x" "-y" "+Y" >ws.diff &&
	fresh p2 &&
	printf "y\n" | git -C p2 ai-apply -p ../ws.diff >out &&
	test_grep "^placement: ../ws.diff:3: whitespace at line 1 (tolerant: look closely)\$" out
'

test_expect_success 'the review record keeps the placements of the hunks taken only' '
	fresh p3 &&
	printf "n\ny\nn\n" | git -C p3 ai-apply -p ../two.diff >out &&
	grep "^edit" p3/.git/ai-apply/review >edits &&
	printf "edit\t20\t0\texact\tnone\ta.txt\n" >expect &&
	test_cmp expect edits
'

test_expect_success 'no color in a pipe by default' '
	fresh k1 &&
	printf "y\nn\nn\n" | git -C k1 ai-apply -p ../two.diff >out &&
	! grep "$(printf "\033")" out
'

test_expect_success '--color=always colors the hunk, the prompt and the help' '
	fresh k2 &&
	printf "?\ny\nn\nn\n" | git -C k2 ai-apply --color=always -p ../ws.diff >out &&
	esc=$(printf "\033") &&
	test_grep "^${esc}\[1mdiff --git a/b.txt b/b.txt${esc}\[m" out &&
	test_grep "^${esc}\[36m@@ -1,2 +1,2 @@" out &&
	test_grep "^${esc}\[31m-y${esc}\[m" out &&
	# as git diff --color: the sign and the text colored apart
	test_grep "^${esc}\[32m+${esc}\[m${esc}\[32mY${esc}\[m" out &&
	test_grep "${esc}\[1;34m(1/1) Stage this hunk" out &&
	test_grep "${esc}\[1;31my - stage this hunk" out &&
	test_grep "^${esc}\[33mplacement: .*whitespace" out
'

test_expect_success 'setup: CRLF, no final newline, binary' '
	git init -q fid &&
	(
		cd fid &&
		seq 1 20 | sed "s/\$/\r/" >crlf.txt &&
		printf "1\n2\n3\n4\n5\n6\n7\n8\n9\nlast" >noeol.txt &&
		printf "\000bin" >blob.bin &&
		printf "echo a\necho b\n" >tool.sh &&
		git add . &&
		git commit -q -m base
	) &&
	printf "%s\r\n" "--- a/crlf.txt" "+++ b/crlf.txt" "@@ -1,3 +1,3 @@" \
		" 1" "-2" "+TWO" " 3" "@@ -17,3 +17,3 @@" " 17" "-18" "+EIGHTEEN" \
		" 19" >crlf.diff &&
	cat >noeol.diff <<-\EOF &&
	--- a/noeol.txt
	+++ b/noeol.txt
	@@ -1,3 +1,3 @@
	 1
	-2
	+TWO
	 3
	@@ -8,3 +8,3 @@
	 8
	 9
	-last
	\ No newline at end of file
	+LAST
	\ No newline at end of file
	EOF
	cat >modeedit.diff <<-\EOF
	diff --git a/tool.sh b/tool.sh
	old mode 100644
	new mode 100755
	--- a/tool.sh
	+++ b/tool.sh
	@@ -1,2 +1,2 @@
	 echo a
	-echo b
	+echo B
	EOF
'

test_expect_success 'a CRLF file keeps its bytes in a partial selection' '
	rm -rf f1 && cp -R fid f1 &&
	printf "n\ny\n" | git -C f1 ai-apply -p ../crlf.diff >out &&
	seq 1 20 | sed -e "s/^18\$/EIGHTEEN/" -e "s/\$/\r/" >expect &&
	(cd f1 && staged_as crlf.txt ../expect)
'

test_expect_success 'the last line without a newline: either hunk alone' '
	rm -rf f2 && cp -R fid f2 &&
	printf "n\ny\n" | git -C f2 ai-apply -p ../noeol.diff >out &&
	test_grep "^\\\\ No newline at end of file" out &&
	printf "1\n2\n3\n4\n5\n6\n7\n8\n9\nLAST" >expect &&
	(cd f2 && staged_as noeol.txt ../expect) &&
	rm -rf f3 && cp -R fid f3 &&
	printf "y\nn\n" | git -C f3 ai-apply -p ../noeol.diff >out &&
	printf "1\nTWO\n3\n4\n5\n6\n7\n8\n9\nlast" >expect &&
	(cd f3 && staged_as noeol.txt ../expect)
'

test_expect_success 'a mode change and an edit of one file: asked apart' '
	rm -rf f4 && cp -R fid f4 &&
	printf "n\ny\n" | git -C f4 ai-apply -p ../modeedit.diff >out &&
	test_grep -F "(1/2) Stage mode change [y,n,q,a,d,?]? " out &&
	test_grep -F "(2/2) Stage this hunk" out &&
	printf "echo a\necho B\n" >expect &&
	(
		cd f4 &&
		staged_as tool.sh ../expect &&
		git ls-files -s tool.sh >mode &&
		test_grep "^100644 " mode
	) &&
	rm -rf f5 && cp -R fid f5 &&
	printf "y\nn\n" | git -C f5 ai-apply -p ../modeedit.diff >out &&
	(
		cd f5 &&
		git ls-files -s tool.sh >mode &&
		test_grep "^100755 " mode &&
		test "$(git rev-parse :tool.sh)" = "$(git rev-parse HEAD:tool.sh)"
	)
'

test_expect_success 'a binary replacement is one question' '
	# a text block never replaces a binary file: deleted, then created
	printf "%s\n" "--- DELETE-FILE: blob.bin ---" "--- START-FILE: blob.bin ---" \
		"text now" "--- END-FILE: blob.bin ---" >bin.md &&
	rm -rf f6 && cp -R fid f6 &&
	printf "y\n" | git -C f6 ai-apply -p ../bin.md >out &&
	test_grep "^Binary files a/blob.bin and b/blob.bin differ" out &&
	test_grep -F "(1/1) Stage this change [y,n,q,a,d,?]? " out &&
	test "$(git -C f6 show :blob.bin)" = "text now"
'

test_expect_success 'a file where a directory was: needs every file under it gone' '
	git init -q dirrepo &&
	(
		cd dirrepo &&
		mkdir d &&
		echo one >d/x &&
		echo two >d/y &&
		git add . &&
		git commit -q -m base
	) &&
	cat >dirfile.diff <<-\EOF &&
	diff --git a/d/x b/d/x
	deleted file mode 100644
	--- a/d/x
	+++ /dev/null
	@@ -1 +0,0 @@
	-one
	diff --git a/d/y b/d/y
	deleted file mode 100644
	--- a/d/y
	+++ /dev/null
	@@ -1 +0,0 @@
	-two
	diff --git a/d b/d
	new file mode 100644
	--- /dev/null
	+++ b/d
	@@ -0,0 +1 @@
	+file
	EOF
	rm -rf g1 && cp -R dirrepo g1 &&
	printf "y\ny\nn\n" | git -C g1 ai-apply -p ../dirfile.diff >out 2>err &&
	test_grep "d: not applied: d/y stays" err &&
	(
		cd g1 &&
		test_path_is_missing d/x &&
		test "$(git show :d/y)" = two &&
		git ls-files >files &&
		echo d/y >expect &&
		test_cmp expect files
	) &&
	rm -rf g2 && cp -R dirrepo g2 &&
	# (--cached: the default mode refuses a file where a work-tree
	# directory is, with or without -p)
	printf "y\ny\ny\n" | git -C g2 ai-apply --cached -p ../dirfile.diff >out &&
	test "$(git -C g2 show :d)" = file
'

test_expect_success 'a rename whose source is written again is asked whole' '
	cat >renew.diff <<-\EOF &&
	diff --git a/b.txt b/c.txt
	similarity index 50%
	rename from b.txt
	rename to c.txt
	--- a/b.txt
	+++ b/c.txt
	@@ -1,2 +1,2 @@
	 x
	-y
	+Y
	diff --git a/b.txt b/b.txt
	new file mode 100644
	--- /dev/null
	+++ b/b.txt
	@@ -0,0 +1 @@
	+fresh
	EOF
	fresh r20 &&
	printf "n\n" | git -C r20 ai-apply -p ../renew.diff >out &&
	test_grep -F "(1/1) Stage rename [y,n,q,a,d,?]? " out &&
	! grep -F "Stage addition" out &&
	test_grep "No change selected" out &&
	fresh r21 &&
	printf "y\nn\n" | git -C r21 ai-apply -p ../renew.diff >out &&
	test_grep -F "(1/1) Stage addition [y,n,q,a,d,?]? " out &&
	(
		cd r21 &&
		test_path_is_missing b.txt &&
		git ls-files b.txt >listed &&
		test_must_be_empty listed &&
		staged_as c.txt ../b-new
	) &&
	fresh r22 &&
	printf "y\ny\n" | git -C r22 ai-apply -p ../renew.diff >out &&
	test "$(git -C r22 show :b.txt)" = fresh &&
	(cd r22 && staged_as c.txt ../b-new)
'

test_expect_success 'a copy is one question' '
	cat >copy.diff <<-\EOF &&
	diff --git a/b.txt b/b2.txt
	similarity index 100%
	copy from b.txt
	copy to b2.txt
	EOF
	fresh r23 &&
	printf "n\n" | git -C r23 ai-apply -p ../copy.diff >out &&
	test_grep -F "(1/1) Stage copy [y,n,q,a,d,?]? " out &&
	test_grep "^copy from b.txt" out &&
	test_path_is_missing r23/b2.txt &&
	fresh r24 &&
	printf "y\n" | git -C r24 ai-apply -p ../copy.diff >out &&
	(cd r24 && staged_as b2.txt ../b-base && staged_as b.txt ../b-base)
'

# A real terminal: tmux runs the command, the test types the answers.
. "$AA_TEST_DIR/lib/tmux.sh"

test_expect_success TMUX 'a terminal session: the questions answered by keys' '
	fresh t1 &&
	test_when_finished tmux_stop &&
	tmux_start -d -s aa -x 100 -y 50 \
		"cd t1 && git ai-apply -p ../two.diff; echo EXIT=\$?; sleep 60" &&
	wait_for "(1/2) Stage this hunk [y,n,q,a,d,e,?]?" &&
	tmux_run send-keys -t aa y Enter &&
	wait_for "(2/2) Stage this hunk" &&
	tmux_run send-keys -t aa n Enter &&
	wait_for "(1/1) Stage this hunk" &&
	tmux_run capture-pane -p -e -t aa >colored &&
	tmux_run send-keys -t aa y Enter &&
	wait_for "EXIT=0" &&
	test_grep "M b.txt (+1 -1)" pane &&
	test_grep "$(printf "\033")\[" colored &&
	(cd t1 && staged_as a.txt ../a-first && staged_as b.txt ../b-new)
'

test_expect_success TMUX 'the answer on standard input: the keys come from the terminal' '
	fresh t2 &&
	test_when_finished tmux_stop &&
	tmux_start -d -s aa -x 100 -y 50 \
		"cd t2 && cat ../two.diff | git ai-apply -p; echo EXIT=\$?; sleep 60" &&
	wait_for "(1/2) Stage this hunk [y,n,q,a,d,e,?]?" &&
	tmux_run send-keys -t aa y Enter &&
	wait_for "(2/2) Stage this hunk" &&
	tmux_run send-keys -t aa n Enter &&
	wait_for "(1/1) Stage this hunk" &&
	tmux_run send-keys -t aa y Enter &&
	wait_for "EXIT=0" &&
	(cd t2 && staged_as a.txt ../a-first && staged_as b.txt ../b-new)
'

test_expect_success TMUX 'the answer as "-" on standard input: q on the terminal lands nothing' '
	fresh t3 &&
	(cd t3 && repo_snapshot pre) &&
	test_when_finished tmux_stop &&
	tmux_start -d -s aa -x 100 -y 50 \
		"cd t3 && git ai-apply -p - <../two.diff; echo EXIT=\$?; sleep 60" &&
	wait_for "(1/2) Stage this hunk [y,n,q,a,d,e,?]?" &&
	tmux_run send-keys -t aa q Enter &&
	wait_for "EXIT=0" &&
	test_grep "No change selected: nothing applied." pane &&
	(cd t3 && repo_unchanged pre)
'

# wait_for TEXT FILE: until FILE holds TEXT (at most about 10 s).
wait_for () {
	n=0 &&
	while ! grep -F "$1" "$2" >/dev/null 2>&1
	do
		n=$((n + 1)) &&
		test $n -lt 200 || return 1
		sleep 0.05
	done
}

test_expect_success 'the index is not locked while the questions wait; written meanwhile, nothing lands' '
	fresh lock1 &&
	(
		cd lock1 &&
		{
			wait_for "Stage this hunk" ../lock.out &&
			if test -f .git/index.lock
			then
				echo locked >../lock.seen
			fi &&
			echo other >other.txt &&
			git add other.txt &&
			printf "y\ny\ny\n"
		} | test_expect_code 1 git ai-apply -p ../two.diff >../lock.out 2>../lock.err &&
		test_path_is_missing ../lock.seen &&
		test_grep "the index changed while the questions were asked; nothing applied" ../lock.err &&
		test_path_is_missing .git/index.lock &&
		git diff --cached --name-only >../staged &&
		echo other.txt >../expect &&
		test_cmp ../expect ../staged &&
		git diff --exit-code a.txt b.txt
	)
'

test_expect_success 'the index unchanged while asked: the lock is taken after the last answer and the choice lands' '
	fresh lock2 &&
	(
		cd lock2 &&
		{
			wait_for "Stage this hunk" ../lock2.out &&
			printf "y\nn\ny\n"
		} | git ai-apply -p ../two.diff >../lock2.out &&
		staged_as a.txt ../a-first &&
		staged_as b.txt ../b-new
	)
'

test_done
