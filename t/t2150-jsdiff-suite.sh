#!/bin/sh

test_description='jsdiff applyPatch test cases, translated to our rules

Cases from jsdiff test/patch/apply.js. jsdiff applies one diff to a
string; here each case is a file named "test" in a repository and the
diff names it. Where our rules differ on purpose (no fuzz factor, no
custom line comparison) the expected result is a refusal with nothing
written.'

. "$(dirname "$0")/test-lib.sh"

# seed DIR FORMAT: a repository whose one commit holds "test" with the
# bytes printf FORMAT gives.
seed () {
	git init -q "$1" &&
	(
		cd "$1" &&
		printf "$2" >test &&
		git add . &&
		git commit -q -m base
	)
}

# lands DIR FORMAT: git ai-apply ../DIR.diff in DIR stages "test" with
# the bytes printf FORMAT gives.
lands () {
	(
		cd "$1" &&
		git ai-apply "../$1.diff" &&
		printf "$2" >"$SHARNESS_TRASH_DIRECTORY/$1.expect" &&
		staged_as test "$SHARNESS_TRASH_DIRECTORY/$1.expect"
	)
}

refused () {
	(
		cd "$1" &&
		test_rejected "../$1.diff"
	)
}

HDR="Index: test\n===================================================================\n--- test\theader1\n+++ test\theader2\n"

test_expect_success 'accepts a patch with an Index header' '
	seed idx "line2\nline3\nline5\n" &&
	printf "$HDR@@ -1,3 +1,4 @@\n line2\n line3\n+line4\n line5\n" >idx.diff &&
	lands idx "line2\nline3\nline4\nline5\n"
'

test_expect_success 'changes the last line: add after the last context' '
	seed last1 "line2\nline3\nline4\n" &&
	printf "$HDR@@ -1,3 +1,4 @@\n line2\n line3\n line4\n+line5\n" >last1.diff &&
	lands last1 "line2\nline3\nline4\nline5\n"
'

test_expect_success 'changes the last line: + before - at the end' '
	seed last2 "line1\nline2\nline3\nline4\n" &&
	printf "$HDR@@ -1,4 +1,4 @@\n line1\n line2\n line3\n+line44\n-line4\n" >last2.diff &&
	lands last2 "line1\nline2\nline3\nline44\n"
'

test_expect_success 'changes the last line: two + before one -' '
	seed last3 "line1\nline2\nline3\nline4\n" &&
	printf "$HDR@@ -1,4 +1,5 @@\n line1\n line2\n line3\n+line44\n+line5\n-line4\n" >last3.diff &&
	lands last3 "line1\nline2\nline3\nline44\nline5\n"
'

test_expect_success 'EOFNL: the new side loses the final newline' '
	seed eofnl1 "line1\nline2\nline3\nline4\n" &&
	printf "$HDR@@ -1,4 +1,4 @@\n line1\n line2\n line3\n+line4\n\\\\ No newline at end of file\n-line4\n" >eofnl1.diff &&
	lands eofnl1 "line1\nline2\nline3\nline4"
'

test_expect_success 'EOFNL: the old side had no final newline' '
	seed eofnl2 "line1\nline2\nline3\nline4" &&
	printf "$HDR@@ -1,4 +1,4 @@\n line1\n line2\n line3\n+line4\n-line4\n\\\\ No newline at end of file\n" >eofnl2.diff &&
	lands eofnl2 "line1\nline2\nline3\nline4\n"
'

test_expect_success 'EOFNL: a context line without newline stays so' '
	seed eofnl3 "line11\nline2\nline3\nline4" &&
	printf "$HDR@@ -1,4 +1,4 @@\n+line1\n-line11\n line2\n line3\n line4\n\\\\ No newline at end of file\n" >eofnl3.diff &&
	lands eofnl3 "line1\nline2\nline3\nline4"
'

test_expect_success 'EOFNL: a hunk that stops before the last line' '
	seed eofnl4 "line11\nline2\nline3\nline4\nline4\nline4\nline4" &&
	printf "$HDR@@ -1,5 +1,5 @@\n+line1\n-line11\n line2\n line3\n line4\n line4\n" >eofnl4.diff &&
	lands eofnl4 "line1\nline2\nline3\nline4\nline4\nline4\nline4"
'

test_expect_success 'applies three hunks, the last at a file without final newline' '
	seed three "value\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\nremove value\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\nremove value\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\nvalue\ncontext\ncontext" &&
	printf "Index: test\n===================================================================\n--- test\tOld Header\n+++ test\tNew Header\n@@ -1,5 +1,6 @@\n+new value\n+new value 2\n-value\n context\n context\n context\n context\n@@ -7,9 +8,8 @@\n context\n context\n context\n context\n-remove value\n context\n context\n context\n context\n@@ -17,20 +17,21 @@\n context\n context\n context\n context\n-remove value\n context\n context\n context\n context\n context\n context\n context\n context\n+add value\n context\n context\n context\n context\n+new value\n+new value 2\n-value\n context\n context\n\\\\ No newline at end of file\n" >three.diff &&
	lands three "new value\nnew value 2\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\ncontext\nadd value\ncontext\ncontext\ncontext\ncontext\nnew value\nnew value 2\ncontext\ncontext"
'

test_expect_success 'a diff of headers only changes nothing: refused' '
	seed hdronly "a\n" &&
	printf "Index: test\n===================================================================\n--- test\tOld Header\n+++ test\tNew Header\n" >hdronly.diff &&
	refused hdronly
'

test_expect_success 'a patch without an Index header' '
	seed noidx "line2\nline3\nline5\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -1,3 +1,4 @@\n line2\n line3\n+line4\n line5\n" >noidx.diff &&
	lands noidx "line2\nline3\nline4\nline5\n"
'

test_expect_success 'a context mismatch is refused' '
	seed mismatch "line2\nline2\nline5\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -1,3 +1,4 @@\n line2\n line3\n+line4\n line5\n" >mismatch.diff &&
	refused mismatch &&
	test_grep "test" mismatch/err
'

test_expect_success 'a negative offset: the hunk is found above its header line' '
	seed negoff "line1\nline3\nline4\nline5\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -3,2 +3,3 @@\n line1\n+line2\n line3\n" >negoff.diff &&
	lands negoff "line1\nline2\nline3\nline4\nline5\n"
'

test_expect_success 'a positive offset: the hunk is found below its header line' '
	seed posoff "line1\nline2\nline3\nline5\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -1,2 +1,3 @@\n line3\n+line4\n line5\n" >posoff.diff &&
	lands posoff "line1\nline2\nline3\nline4\nline5\n"
'

test_expect_success 'a file created from empty text' '
	seed empty "" &&
	printf "Index: test\n===================================================================\n--- test\n+++ test\n@@ -0,0 +1,1 @@\n+asdasd\n" >empty.diff &&
	lands empty "asdasd\n"
'

test_expect_success 'one common text without newline replaced' '
	seed common "s" &&
	printf "Index: test\n===================================================================\n--- test\n+++ test\n@@ -1,1 +1,1 @@\n-s\n\\\\ No newline at end of file\n+sdfsdf\n" >common.diff &&
	lands common "sdfsdf\n"
'

test_expect_success 'a U+2028 inside a line is not a line break' '
	seed u2028 "AAAAAAAAAAAAAAAA\n\n" &&
	printf "Index: test\n===================================================================\n--- test\n+++ test\n@@ -1,2 +1,4 @@\n AAAAAAAAAAAAAAAA\n+BBBBBB\342\200\250\n+CCCCCCCCCCCCCCCCCC\n \n" >u2028.diff &&
	lands u2028 "AAAAAAAAAAAAAAAA\nBBBBBB\342\200\250\nCCCCCCCCCCCCCCCCCC\n\n"
'

test_expect_success 'two files in one patch (applyPatches)' '
	git init -q multi &&
	(
		cd multi &&
		printf "line2\nline3\nline5\n" >test &&
		printf "foo2\nfoo3\nfoo5\n" >test2 &&
		git add . && git commit -q -m base &&
		printf "Index: test\n===================================================================\n--- test\theader1\n+++ test\theader2\n@@ -1,3 +1,4 @@\n line2\n line3\n+line4\n line5\nIndex: test2\n===================================================================\n--- test2\theader1\n+++ test2\theader2\n@@ -1,3 +1,4 @@\n foo2\n foo3\n+foo4\n foo5\n" >../multi.diff &&
		git ai-apply ../multi.diff &&
		printf "line2\nline3\nline4\nline5\n" >../multi.e1 &&
		printf "foo2\nfoo3\nfoo4\nfoo5\n" >../multi.e2 &&
		staged_as test ../multi.e1 &&
		staged_as test2 ../multi.e2
	)
'

# jsdiff with fuzzFactor 1 (or a custom compareLine) lands this hunk over
# a context line that differs (line3 vs line2). We have no fuzz factor
# (differences-from-peers.md "Fuzz factors"): refused, nothing written.
test_expect_success 'no fuzz factor: a differing context line is refused' '
	seed fuzz "line2\nline2\nline5\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -1,3 +1,4 @@\n line2\n line3\n+line4\n line5\n" >fuzz.diff &&
	refused fuzz
'

test_expect_success 'CRLF file, LF diff: the file keeps CRLF' '
	seed crlf "line1\r\nline2\r\nline3\r\n" &&
	printf -- "--- test\n+++ test\n@@ -1,3 +1,3 @@\n line1\n-line2\n+line two\n line3\n" >crlf.diff &&
	lands crlf "line1\r\nline two\r\nline3\r\n"
'

test_expect_success 'creation: --- /dev/null' '
	git init -q create && (cd create && git commit -q --allow-empty -m base) &&
	printf -- "--- /dev/null\n+++ b/test\n@@ -0,0 +1,2 @@\n+one\n+two\n" >create.diff &&
	lands create "one\ntwo\n"
'

test_expect_success 'deletion: +++ /dev/null' '
	seed delete "one\ntwo\n" &&
	printf -- "--- a/test\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-one\n-two\n" >delete.diff &&
	(cd delete && git ai-apply ../delete.diff && test_path_is_missing test)
'

test_expect_success 'a hunk that fits two places equally far from its header: refused' '
	seed twoplaces "a\nx\nb\nc\nd\nx\nb\n" &&
	printf -- "--- test\n+++ test\n@@ -4,2 +4,3 @@\n x\n+y\n b\n" >twoplaces.diff &&
	refused twoplaces
'

test_done
