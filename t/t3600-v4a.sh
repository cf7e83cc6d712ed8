#!/bin/sh

test_description='v4a format (Codex apply_patch): Add, Delete, Update, Move to, @@ anchors, End of File'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: a small Python project' '
	make_repo repo &&
	(
		cd repo &&
		cat >m.py <<-\EOF &&
		class A:
		    def run(self):
		        return 1

		class B:
		    def run(self):
		        return 1
		EOF
		printf "line1\nline2\n" >input.txt &&
		printf "first\nsecond\n" >tail.txt &&
		printf "no newline at end" >no_newline.txt &&
		printf "obsolete\n" >obsolete.txt &&
		printf "keep\n" >keep.txt &&
		printf "old\n" >foo.txt &&
		printf "one\n" >file.txt &&
		printf "a\r\nb\r\nc\r\n" >crlf.txt &&
		mkdir -p old dir &&
		printf "from\n" >old/name.txt &&
		printf "other\n" >old/other.txt &&
		printf "inside\n" >dir/foo.txt &&
		git add . &&
		git commit -q -m "the project" &&
		git tag base
	)
'

test_expect_success 'a patch in a chat answer: every operation, all staged' '
	cat >answer.md <<-\EOF &&
	Here is the change:

	```
	*** Begin Patch
	*** Update File: m.py
	@@ class B:
	@@     def run(self):
	-        return 1
	+        return 2
	*** Add File: nested/new.txt
	+created
	+
	*** Delete File: obsolete.txt
	*** Update File: old/name.txt
	*** Move to: renamed/dir/name.txt
	@@
	-from
	+to
	*** End Patch
	```

	Done.
	EOF
	fresh w-all &&
	(
		cd w-all &&
		git ai-apply ../answer.md &&
		cat >expect <<-\EOF &&
		class A:
		    def run(self):
		        return 1

		class B:
		    def run(self):
		        return 2
		EOF
		staged_as m.py expect &&
		printf "created\n\n" >expect &&
		staged_as nested/new.txt expect &&
		printf "to\n" >expect &&
		staged_as renamed/dir/name.txt expect &&
		test_path_is_missing obsolete.txt &&
		test_path_is_missing old/name.txt &&
		test_path_is_file old/other.txt &&
		rm expect &&
		git diff --exit-code
	)
'

test_expect_success 'the argument of a shell heredoc in an agent transcript' '
	cat >transcript.md <<-\EOF &&
	assistant: running apply_patch
	apply_patch <<'"'"'PATCH'"'"'
	*** Begin Patch
	*** Update File: foo.txt
	-old
	+new
	*** End Patch
	PATCH
	EOF
	fresh w-heredoc &&
	(
		cd w-heredoc &&
		git ai-apply ../transcript.md &&
		echo new >expect &&
		staged_as foo.txt expect
	)
'

test_expect_success 'markers padded with white space (Codex scenarios 017, 018, 020)' '
	printf " *** Begin Patch\n  *** Update File: file.txt\n@@ \n-one\n+two\n*** End Patch \n" >padded.md &&
	fresh w-padded &&
	(
		cd w-padded &&
		git ai-apply ../padded.md &&
		echo two >expect &&
		staged_as file.txt expect
	)
'

test_expect_success 'a pure addition goes at the end of the file (scenario 016)' '
	printf "*** Begin Patch\n*** Update File: input.txt\n@@\n+added line 1\n+added line 2\n*** End Patch\n" >pure.md &&
	fresh w-pure &&
	(
		cd w-pure &&
		git ai-apply ../pure.md &&
		printf "line1\nline2\nadded line 1\nadded line 2\n" >expect &&
		staged_as input.txt expect
	)
'

test_expect_success 'End of File pins the chunk to the end (scenario 022)' '
	printf "*** Begin Patch\n*** Update File: tail.txt\n@@\n first\n-second\n+second updated\n*** End of File\n*** End Patch\n" >eof.md &&
	fresh w-eof &&
	(
		cd w-eof &&
		git ai-apply ../eof.md &&
		printf "first\nsecond updated\n" >expect &&
		staged_as tail.txt expect
	)
'

test_expect_success 'a CRLF file keeps its line endings' '
	printf "*** Begin Patch\n*** Update File: crlf.txt\n a\n-b\n+B\n c\n*** End Patch\n" >crlf.md &&
	fresh w-crlf &&
	(
		cd w-crlf &&
		git ai-apply ../crlf.md &&
		printf "a\r\nB\r\nc\r\n" >expect &&
		staged_as crlf.txt expect
	)
'

test_expect_success 'a chunk that matches twice without an anchor is refused, listing the places' '
	printf "*** Begin Patch\n*** Update File: m.py\n     def run(self):\n-        return 1\n+        return 3\n*** End Patch\n" >twice.md &&
	(
		cd repo &&
		test_rejected ../twice.md &&
		test_grep "m.py" err &&
		test_grep "twice.md:" err
	)
'

test_expect_success 'an anchor that occurs twice is refused, naming the lines' '
	printf "*** Begin Patch\n*** Update File: m.py\n@@     def run(self):\n-        return 1\n+        return 3\n*** End Patch\n" >anchor2.md &&
	(
		cd repo &&
		test_rejected ../anchor2.md &&
		test_grep "error: m.py: ../anchor2.md:3: v4a: .*occurs 2 times (lines 2, 6)" err
	)
'

test_expect_success 'an anchor that is not in the file is refused' '
	printf "*** Begin Patch\n*** Update File: m.py\n@@ class C:\n-        return 1\n+        return 3\n*** End Patch\n" >noanchor.md &&
	(
		cd repo &&
		test_rejected ../noanchor.md &&
		test_grep "error: m.py: ../noanchor.md:3: v4a: the chunk.s context line \"class C:\" is not in the file" err
	)
'

test_expect_success 'a failure after a success writes nothing (scenario 015, all or nothing)' '
	cat >partial.md <<-\EOF &&
	*** Begin Patch
	*** Add File: created.txt
	+hello
	*** Update File: foo.txt
	-missing
	+changed
	*** End Patch
	EOF
	(
		cd repo &&
		test_rejected ../partial.md &&
		test_grep "foo.txt" err &&
		test_path_is_missing created.txt
	)
'

test_expect_success 'Add File onto an existing file is refused (scenario 011), unless identical' '
	printf "*** Begin Patch\n*** Add File: keep.txt\n+other\n*** End Patch\n" >add-over.md &&
	(
		cd repo &&
		test_rejected ../add-over.md &&
		test_grep "keep.txt" err
	) &&
	printf "*** Begin Patch\n*** Add File: keep.txt\n+keep\n*** End Patch\n" >add-same.md &&
	fresh w-same &&
	(
		cd w-same &&
		git ai-apply ../add-same.md 2>err &&
		git diff --cached --exit-code
	)
'

test_expect_success 'Move to onto an existing file is refused (scenario 010)' '
	printf "*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: old/other.txt\n*** End Patch\n" >move-over.md &&
	(
		cd repo &&
		test_rejected ../move-over.md &&
		test_grep "old/other.txt" err
	)
'

test_expect_success 'Move to onto an existing file holding the moved result: accepted, the source removed' '
	cat >move-same.md <<-\EOF &&
	*** Begin Patch
	*** Update File: old/name.txt
	*** Move to: old/other.txt
	@@
	-from
	+other
	*** End Patch
	EOF
	fresh w-move-same &&
	(
		cd w-move-same &&
		git ai-apply ../move-same.md &&
		test_path_is_missing old/name.txt &&
		test_must_fail git cat-file -e :old/name.txt &&
		echo other >../expect &&
		staged_as old/other.txt ../expect &&
		git diff --exit-code &&
		test -z "$(git ls-files --others --exclude-standard)"
	)
'

test_expect_success 'Move to onto an existing file with other content: refused, nothing written' '
	sed "s/^+other/+else/" move-same.md >move-diff.md &&
	(
		cd repo &&
		test_rejected ../move-diff.md &&
		test_grep "old/other.txt" err
	)
'

test_expect_success 'Delete File of a missing file or a directory is refused (scenarios 007, 012)' '
	printf "*** Begin Patch\n*** Delete File: missing.txt\n*** End Patch\n" >del-missing.md &&
	printf "*** Begin Patch\n*** Delete File: dir\n*** End Patch\n" >del-dir.md &&
	(
		cd repo &&
		test_rejected ../del-missing.md &&
		test_grep "missing.txt" err &&
		test_rejected ../del-dir.md &&
		test_grep "dir" err
	)
'

test_expect_success 'Update File of a missing file is refused (scenario 009)' '
	printf "*** Begin Patch\n*** Update File: missing.txt\n-a\n+b\n*** End Patch\n" >upd-missing.md &&
	(
		cd repo &&
		test_rejected ../upd-missing.md &&
		test_grep "missing.txt" err
	)
'

test_expect_success 'malformed patches are refused, naming the input line' '
	printf "*** Begin Patch\n*** End Patch\n" >empty.md &&
	printf "*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch\n" >frob.md &&
	printf "*** Begin Patch\n*** Update File: foo.txt\n*** End Patch\n" >noop.md &&
	printf "*** Begin Patch\n*** Add File: x.txt\nnot plus\n*** End Patch\n" >noplus.md &&
	printf "*** Begin Patch\n*** Update File: foo.txt\n-old\n+new\n" >noend.md &&
	printf "*** Begin Patch\n*** Update File: foo.txt\n@@\n?old\n*** End Patch\n" >badline.md &&
	printf "*** Begin Patch\n*** Add File: ../x\n+x\n*** End Patch\n" >badpath.md &&
	(
		cd repo &&
		test_rejected ../empty.md &&
		test_grep "empty.md:1: v4a: a patch without file sections" err &&
		test_rejected ../frob.md &&
		test_grep "frob.md:2: v4a: unknown line" err &&
		test_grep "Frobnicate" err &&
		test_rejected ../noop.md &&
		test_grep "noop.md:2: v4a: an update without chunks" err &&
		test_rejected ../noplus.md &&
		test_grep "noplus.md:3: v4a: a line of an added file must start with" err &&
		test_rejected ../noend.md &&
		test_grep "noend.md:1: v4a: .*has no \"\*\*\* End Patch\"" err &&
		test_rejected ../badline.md &&
		test_grep "badline.md:4: v4a: a chunk line must start" err &&
		test_rejected ../badpath.md &&
		test_grep "badpath.md:2: v4a: invalid path" err
	)
'

test_expect_success 'an already applied patch changes nothing and says so' '
	fresh w-again &&
	(
		cd w-again &&
		git ai-apply ../transcript.md &&
		git ai-apply ../transcript.md 2>err &&
		echo new >expect &&
		staged_as foo.txt expect
	)
'

test_expect_success '--format=v4a takes the patch; --format=diff does not' '
	fresh w-forced &&
	(
		cd w-forced &&
		test_expect_code 1 git ai-apply --format=diff --check ../transcript.md &&
		git ai-apply --format=v4a ../transcript.md &&
		echo new >expect &&
		staged_as foo.txt expect
	)
'

test_expect_success '--branch: the patch as a commit, the work tree untouched' '
	fresh w-branch &&
	(
		cd w-branch &&
		git ai-apply --branch=ai/v4a ../answer.md &&
		git diff --exit-code &&
		git diff --cached --exit-code &&
		git show ai/v4a:m.py >out &&
		test_grep "return 2" out
	)
'

test_done
