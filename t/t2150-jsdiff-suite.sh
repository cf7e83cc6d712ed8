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

# Zero-context hunks: the header's line is the only place information.
# jsdiff adds the lines at that line; here (as git apply without
# --unidiff-zero, Documentation/locating.md,
# "Locating hunks": "A hunk with no old lines") a hunk with no
# old lines is taken only where the file confirms the place: an empty
# file or its end. Elsewhere: refused, nothing written. Removals are
# pinned by what they remove and land.
test_expect_success 'zero context, one line added after line 2' '
	seed z1 "line2\nline3\nline5\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -2,0 +3 @@\n+line4\n" >z1.diff &&
	refused z1 &&
	test_grep "nothing in the file confirms the place" z1/err
'

test_expect_success 'zero context, three lines added after line 2' '
	seed z2 "line2\nline3\nline7\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -2,0 +3,3 @@\n+line4\n+line5\n+line6\n" >z2.diff &&
	refused z2 &&
	test_grep "nothing in the file confirms the place" z2/err
'

test_expect_success 'zero context, one line added at the start' '
	seed z3 "line2\nline3\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -0,0 +1 @@\n+line1\n" >z3.diff &&
	refused z3 &&
	test_grep "nothing in the file confirms the place" z3/err
'

test_expect_success 'zero context, two lines added at the start' '
	seed z4 "line3\nline4\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -0,0 +1,2 @@\n+line1\n+line2\n" >z4.diff &&
	refused z4 &&
	test_grep "nothing in the file confirms the place" z4/err
'

test_expect_success 'zero context, one line added at the end' '
	seed z5 "line1\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -1,0 +2 @@\n+line2\n" >z5.diff &&
	lands z5 "line1\nline2\n"
'

test_expect_success 'zero context, two lines added at the end' '
	seed z6 "line1\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -1,0 +2,2 @@\n+line2\n+line3\n" >z6.diff &&
	lands z6 "line1\nline2\nline3\n"
'

test_expect_success 'zero context, first line removed' '
	seed z7 "line1\nline2\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -1 +0,0 @@\n-line1\n" >z7.diff &&
	lands z7 "line2\n"
'

test_expect_success 'zero context, two first lines removed' '
	seed z8 "line1\nline2\nline3\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -1,2 +0,0 @@\n-line1\n-line2\n" >z8.diff &&
	lands z8 "line3\n"
'

test_expect_success 'zero context, last line removed' '
	seed z9 "line1\nline2\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -2 +1,0 @@\n-line2\n" >z9.diff &&
	lands z9 "line1\n"
'

test_expect_success 'zero context, two last lines removed' '
	seed z10 "line1\nline2\nline3\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -2,2 +1,0 @@\n-line2\n-line3\n" >z10.diff &&
	lands z10 "line1\n"
'

test_expect_success 'a removed line that differs is refused' '
	seed delmis "foo\nSOMETHING ENTIRELY DIFFERENT\nbaz\nqux\n" &&
	printf "Index: test\n===================================================================\n--- test\n+++ test\n@@ -1,4 +1,3 @@\n foo\n-bar\n baz\n qux\n" >delmis.diff &&
	refused delmis
'

test_expect_success 'the same removal lands on the file it was made from' '
	seed delok "foo\nbar\nbaz\nqux\n" &&
	printf "Index: test\n===================================================================\n--- test\n+++ test\n@@ -1,4 +1,3 @@\n foo\n-bar\n baz\n qux\n" >delok.diff &&
	lands delok "foo\nbaz\nqux\n"
'

test_expect_success 'a line next to an insertion that differs is refused (after)' '
	seed nextafter "lineA\nlineB\nlineC\nlineD\nlineE\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -1,5 +1,6 @@\n lineA\n lineB\n lineC\n+lineNEW\n lineX\n lineE\n" >nextafter.diff &&
	refused nextafter
'

test_expect_success 'a line next to an insertion that differs is refused (before)' '
	seed nextbefore "lineA\nlineB\nlineC\nlineD\nlineE\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -1,5 +1,6 @@\n lineA\n lineB\n lineX\n+lineNEW\n lineD\n lineE\n" >nextbefore.diff &&
	refused nextbefore
'

FUZZ_HUNK="--- foo.txt\t2024-07-19 09:58:02.489059795 +0100\n+++ foo.txt\t2024-07-19 09:58:24.768153252 +0100\n@@ -2,8 +2,8 @@\n line2\n line3\n line4\n+line5\n line6\n line7\n line8\n-line9\n line10\n"

# jsdiff lands these with fuzzFactor 2 or 3: context lines inside the
# hunk are extra, missing or changed. We have no fuzz factor: refused.
test_expect_success 'no fuzz factor: extra lines inside the context are refused' '
	seed fextra "line1\nline2\nline2.5\nline3\nline4\nline6\nline7\nline8\nline8.5\nline9\nline10\n" &&
	(cd fextra && git mv test foo.txt && git commit -q -m name) &&
	printf -- "$FUZZ_HUNK" >fextra.diff &&
	refused fextra
'

test_expect_success 'no fuzz factor: missing context lines are refused' '
	seed fmiss "line1\nline2\nline4\nline6\nline7\nline9\nline10\n" &&
	(cd fmiss && git mv test foo.txt && git commit -q -m name) &&
	printf -- "$FUZZ_HUNK" >fmiss.diff &&
	refused fmiss
'

test_expect_success 'no fuzz factor: changed context lines are refused' '
	seed fchg "line1\nline2\nlineTHREE\nline4\nline6\nline7\nlineEIGHT\nline9\nline10\n" &&
	(cd fchg && git mv test foo.txt && git commit -q -m name) &&
	printf -- "$FUZZ_HUNK" >fchg.diff &&
	refused fchg
'

# The fuzz cases name the file foo.txt on both sides here; jsdiff's own
# hunk names "--- foo.txt" and "+++ bar.txt" (it ignores names).
test_expect_success 'the fuzz hunk lands on the file it was made from' '
	seed fok "line1\nline2\nline3\nline4\nline6\nline7\nline8\nline9\nline10\n" &&
	(cd fok && git mv test foo.txt && git commit -q -m name) &&
	printf -- "$FUZZ_HUNK" >fok.diff &&
	(cd fok && git ai-apply ../fok.diff &&
	 printf "line1\nline2\nline3\nline4\nline5\nline6\nline7\nline8\nline10\n" >../fok.expect &&
	 staged_as foo.txt ../fok.expect)
'

# jsdiff ignores the names; "--- foo.txt" / "+++ bar.txt" without git
# headers, where only foo.txt exists, edits foo.txt (as GNU patch picks
# the existing name), with a note.
test_expect_success 'old and new names differ, only the old exists: edit it' '
	seed fname "line1\nline2\nline3\nline4\nline6\nline7\nline8\nline9\nline10\n" &&
	(cd fname && git mv test foo.txt && git commit -q -m name) &&
	printf -- "$FUZZ_HUNK" | sed "2s/foo.txt/bar.txt/" >fname.diff &&
	(cd fname && git ai-apply ../fname.diff 2>../fname.err &&
	 test_grep "other name" ../fname.err &&
	 test_path_is_missing bar.txt &&
	 printf "line1\nline2\nline3\nline4\nline5\nline6\nline7\nline8\nline10\n" >../fname.expect &&
	 staged_as foo.txt ../fname.expect)
'

# intro N..M: introductory lines of the Finnegan test; verses N: the
# repeated verse N times.
intro () {
	for l in "Bla bla bla" "Foo bar baz" "Fworble worble glorble" \
		"Need to be at least 6 lines of" "Jingle jangle jungle" \
		"Horgle worgle borgle" "Wiggly jiggly piggly" "A B C" "1 2 3" \
		"Baa oink moo" "Probably enough" "Incy wincy mincy"
	do
		printf "%s introductory text\n" "$l"
	done
	printf "\nThree repeated verses:\n"
}
verse () {
	printf "\nThere was an old man named %s\nHe had whiskers on his chinnegan\nThe wind came along and blew them in again\nPoor old Michael Finnegan, begin again\n" "$1"
}

test_expect_success 'setup: the Finnegan patch' '
	printf -- "--- test\t2024-07-19 12:28:25.056182029 +0100\n+++ test\t2024-07-19 12:28:13.036639136 +0100\n@@ -9,7 +9,6 @@\n 1 2 3 introductory text\n Baa oink moo introductory text\n Probably enough introductory text\n-Incy wincy mincy introductory text\n \n Three repeated verses:\n \n@@ -28,7 +27,7 @@\n The wind came along and blew them in again\n Poor old Michael Finnegan, begin again\n \n-There was an old man named Michael Finnegan\n+There was an old man named Bob\n He had whiskers on his chinnegan\n The wind came along and blew them in again\n Poor old Michael Finnegan, begin again\n" >finnegan.diff &&
	M="Michael Finnegan" &&
	{ intro && verse "$M" && verse "$M" && verse "$M" && verse "$M" && verse "$M" && verse "$M"; } >finnegan.orig &&
	{ intro | grep -v Incy && verse "$M" && verse "$M" && verse "$M" && verse Bob && verse "$M" && verse "$M"; } >finnegan.new
'

test_expect_success 'offsets: the second hunk lands at its header line' '
	git init -q fin && cp finnegan.orig fin/test &&
	(cd fin && git add . && git commit -q -m base &&
	 cp ../finnegan.diff ../fin.diff && git ai-apply ../fin.diff &&
	 staged_as test ../finnegan.new)
'

# jsdiff moves the second hunk by the first hunk offset (-5 lines) and
# changes verse 4; its header line names verse 5. Two exact places, and
# no revision to decide: refused (SPEC "Locating edits").
test_expect_success 'offsets: header line and offset disagree: refused' '
	git init -q finless && sed 1,5d finnegan.orig >finless/test &&
	(cd finless && git add . && git commit -q -m base) &&
	cp finnegan.diff finless.diff &&
	refused finless
'

test_expect_success 'offsets: five lines added above: refused the same way' '
	git init -q finmore &&
	{ printf "line1\nline2\nline3\nline4\nline5\n" && cat finnegan.orig; } >finmore/test &&
	(cd finmore && git add . && git commit -q -m base) &&
	cp finnegan.diff finmore.diff &&
	refused finmore
'

test_expect_success 'an insertion before the first line' '
	seed ins1 "line2\nline3\nline4\nline5\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -1,2 +1,3 @@\n+line1\n line2\n line3\n" >ins1.diff &&
	lands ins1 "line1\nline2\nline3\nline4\nline5\n"
'

test_expect_success 'an insertion after the last line, header off by two' '
	seed ins2 "line1\nline2\nline3\nline4\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -3,2 +3,3 @@\n line3\n line4\n+line5\n" >ins2.diff &&
	lands ins2 "line1\nline2\nline3\nline4\nline5\n"
'

test_expect_success 'the first hunk has a wrong newStart' '
	seed nstart1 "line1\nline2\nline3\nline5\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -1,2 +2,3 @@\n line3\n+line4\n line5\n" >nstart1.diff &&
	lands nstart1 "line1\nline2\nline3\nline4\nline5\n"
'

test_expect_success 'the second hunk has a wrong newStart' '
	seed nstart2 "line1\nline2\nline3\nline5\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -1,3 +1,2 @@\n line1\n-line2\n line3\n@@ -3,2 +3,3 @@\n line3\n+line4\n line5\n" >nstart2.diff &&
	lands nstart2 "line1\nline3\nline4\nline5\n"
'

test_expect_success 'a hunk that creates content in an empty file' '
	seed mk "" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -0,0 +1,4 @@\n+line1\n+line2\n+line3\n+line4\n" >mk.diff &&
	lands mk "line1\nline2\nline3\nline4\n"
'

test_expect_success 'a hunk that erases every line' '
	seed erase "line1\nline2\nline3\nline4\n" &&
	printf -- "--- test\theader1\n+++ test\theader2\n@@ -1,4 +0,0 @@\n-line1\n-line2\n-line3\n-line4\n" >erase.diff &&
	lands erase ""
'

test_expect_success 'the last line changed and its newline dropped' '
	seed struct "line1\nline2\n" &&
	printf -- "--- test\n+++ test\n@@ -1,2 +1,2 @@\n line1\n-line2\n+line02\n\\\\ No newline at end of file\n" >struct.diff &&
	lands struct "line1\nline02"
'

test_expect_success 'a hunk truncating a file without a final newline' '
	seed trunc "this\n\ntos" &&
	printf "===================================================================\n--- test\n+++ test\n@@ -1,3 +1,0 @@\n-this\n-\n-tos\n\\\\ No newline at end of file\n" >trunc.diff &&
	lands trunc ""
'

test_expect_success 'an LF diff on a CRLF file: added lines take CRLF' '
	seed l2w "foo\r\nbar\r\nbaz\r\nqux\r\n" &&
	printf "Index: test\n===================================================================\n--- test\tOld Header\n+++ test\tNew Header\n@@ -2,2 +2,3 @@\n-bar\n-baz\n+new\n+two\n+three\n" >l2w.diff &&
	lands l2w "foo\r\nnew\r\ntwo\r\nthree\r\nqux\r\n"
'

test_expect_success 'a CRLF diff on an LF file: added lines take LF' '
	seed w2l "foo\nbar\nbaz\nqux\n" &&
	printf "Index: test\r\n===================================================================\r\n--- test\tOld Header\r\n+++ test\tNew Header\r\n@@ -2,2 +2,3 @@\r\n-bar\r\n-baz\r\n+new\r\n+two\r\n+three\r\n" >w2l.diff &&
	lands w2l "foo\nnew\ntwo\nthree\nqux\n"
'

# jsdiff refuses these two with fuzzFactor 0 and leaves the file as it
# is with fuzzFactor 1. Here the hunk's new side is what the file holds:
# "already applied", nothing to change, the file untouched.
test_expect_success 'a removal of a newline the file lacks: already applied' '
	seed nonl1 "foo\nbar\nbaz\nqux" &&
	printf "Index: test\n===================================================================\n--- test\tOld Header\n+++ test\tNew Header\n@@ -4,1 +4,1 @@\n-qux\n+qux\n\\\\ No newline at end of file\n" >nonl1.diff &&
	(cd nonl1 && git ai-apply ../nonl1.diff >out 2>&1 &&
	 test_grep "already applied" out &&
	 printf "foo\nbar\nbaz\nqux" >../nonl1.expect && staged_as test ../nonl1.expect &&
	 git diff --cached --exit-code)
'

test_expect_success 'an addition of a newline the file has: already applied' '
	seed nonl2 "foo\nbar\nbaz\nqux\n" &&
	printf "Index: test\n===================================================================\n--- test\tOld Header\n+++ test\tNew Header\n@@ -4,1 +4,1 @@\n-qux\n\\\\ No newline at end of file\n+qux\n" >nonl2.diff &&
	(cd nonl2 && git ai-apply ../nonl2.diff >out 2>&1 &&
	 test_grep "already applied" out &&
	 git diff --cached --exit-code)
'

NONL_BOTH="Index: test\n===================================================================\n--- test\n+++ test\n@@ -1,4 +1,4 @@\n foo\n bar\n baz\n-banana\n\\\\ No newline at end of file\n+babaco\n\\\\ No newline at end of file\n"

test_expect_success 'last line changed, no final newline on either side' '
	seed both "foo\nbar\nbaz\nbanana" &&
	printf "$NONL_BOTH" >both.diff &&
	lands both "foo\nbar\nbaz\nbabaco"
'

# jsdiff refuses with fuzzFactor 0 and keeps the newline with 1. Both
# sides of the hunk end without a newline: it changes no newline, so the
# file's own final newline is kept.
test_expect_success 'no final newline on either side, the file has one: kept' '
	seed bothnl "foo\nbar\nbaz\nbanana\n" &&
	printf "$NONL_BOTH" >bothnl.diff &&
	lands bothnl "foo\nbar\nbaz\nbabaco\n"
'

# jsdiff lands this: the hunk ends at "banana" and the lines after it
# are not the hunk's business. Here too: the lines are unique, the
# final newline is the file's.
test_expect_success 'no final newline on either side, but lines follow' '
	seed bothmore "foo\nbar\nbaz\nbanana\nqux" &&
	printf "$NONL_BOTH" >bothmore.diff &&
	lands bothmore "foo\nbar\nbaz\nbabaco\nqux"
'

test_done
