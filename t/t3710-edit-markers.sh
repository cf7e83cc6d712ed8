#!/bin/sh

test_description='edit markers are never content: every marker variant the peers accept parses, any other edit structure refuses the answer'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: a file of six lines' '
	make_repo repo &&
	(
		cd repo &&
		printf "line %d\n" 1 2 3 4 5 6 >big.txt &&
		printf "# Doc\n" >doc.md &&
		git add . &&
		git commit -q -m "six lines"
	)
'

# lands ANSWER DIR: the answer applies in a fresh copy, line 3 became
# "line three" and nothing else changed in the file.
lands () {
	fresh "$2" &&
	(
		cd "$2" &&
		git ai-apply "../$1" &&
		printf "line 1\nline 2\nline three\nline 4\nline 5\nline 6\n" >expect &&
		git show :big.txt >actual &&
		test_cmp expect actual &&
		git diff --exit-code
	)
}

test_expect_success 'the issue: "SEARCH>" in a fence labelled with the path is a block, not the whole file' '
	cat >gt.md <<-\EOF &&
	big.txt
	```text
	<<<<<<< SEARCH>
	line 3
	=======
	line three
	>>>>>>> REPLACE
	```
	EOF
	lands gt.md w-gt
'

test_expect_success 'marker runs longer than 9, trailing blanks, "REPLACE>"' '
	printf "big.txt\n\`\`\`\n<<<<<<<<<<<< SEARCH  \nline 3\n=============\t\nline three\n>>>>>>>>>>>> REPLACE> \n\`\`\`\n" >long.md &&
	lands long.md w-long
'

test_expect_success 'short runs: Aider 5, Cline 3 with its own "===" divider' '
	cat >short.md <<-\EOF &&
	big.txt
	```
	<<<<< SEARCH
	line 3
	=====
	line three
	>>>>> REPLACE
	```
	EOF
	lands short.md w-short &&
	cat >cline3.md <<-\EOF &&
	big.txt
	```
	--- SEARCH
	line 3
	===
	line three
	+++ REPLACE
	```
	EOF
	lands cline3.md w-cline3
'

test_expect_success 'unfenced "SEARCH>" blocks after a path line' '
	cat >bare.md <<-\EOF &&
	Change it:

	big.txt
	<<<<<<< SEARCH>
	line 3
	=======
	line three
	>>>>>>> REPLACE

	Done.
	EOF
	lands bare.md w-bare
'

test_expect_success 'a variant block next to a valid block: both land' '
	cat >both.md <<-\EOF &&
	big.txt
	```
	<<<<<<< SEARCH
	line 1
	=======
	line one
	>>>>>>> REPLACE
	```

	big.txt
	```
	<<<<<<<<<< SEARCH>
	line 3
	==========
	line three
	>>>>>>>>>> REPLACE
	```
	EOF
	fresh w-both &&
	(
		cd w-both &&
		git ai-apply ../both.md &&
		git show :big.txt >actual &&
		test_grep "^line one$" actual &&
		test_grep "^line three$" actual
	)
'

test_expect_success 'indented markers in a labelled fence: refused naming the line, nothing written' '
	cat >indented.md <<-\EOF &&
	big.txt
	```
	    <<<<<<< SEARCH
	    line 3
	    =======
	    line three
	    >>>>>>> REPLACE
	```
	EOF
	(
		cd repo &&
		test_rejected ../indented.md &&
		test_grep "indented.md:3: .*SEARCH/REPLACE markers" err &&
		test_grep "never written as file content" err
	)
'

test_expect_success 'next to a valid block, an unread block refuses the whole answer' '
	cat >half.md <<-\EOF &&
	big.txt
	```
	<<<<<<< SEARCH
	line 1
	=======
	line one
	>>>>>>> REPLACE
	```

	Then, in the same file:

	  <<<<<<< SEARCH
	  line 3
	  =======
	  line three
	  >>>>>>> REPLACE
	EOF
	(
		cd repo &&
		test_rejected ../half.md &&
		test_grep "half.md:12: the prose holds SEARCH/REPLACE markers" err
	)
'

test_expect_success 'a sloppy marker ("<<<<<<<SEARCH") in an unlabelled fence is refused, not skipped' '
	cat >sloppy.md <<-\EOF &&
	big.txt
	```
	<<<<<<< SEARCH
	line 1
	=======
	line one
	>>>>>>> REPLACE
	```

	```
	<<<<<<<SEARCH
	line 3
	=======
	line three
	>>>>>>>REPLACE
	```
	EOF
	(
		cd repo &&
		test_rejected ../sloppy.md &&
		test_grep "sloppy.md:11: a code fence holds SEARCH/REPLACE" err
	)
'

test_expect_success 'a fenced whole file with conflict markers is refused naming the line' '
	cat >fixture.md <<-\EOF &&
	t/fixtures/conflict.txt
	```
	before
	<<<<<<< HEAD
	mine
	=======
	theirs
	>>>>>>> topic
	```
	EOF
	(
		cd repo &&
		test_rejected ../fixture.md &&
		test_grep "fixture.md:4: a fenced whole file holds conflict-style markers" err &&
		test_grep "give --format=whole-file" err
	)
'

test_expect_success '--format=whole-file writes such a file as it stands' '
	fresh w-fixture &&
	(
		cd w-fixture &&
		git ai-apply --format=whole-file ../fixture.md &&
		git show :t/fixtures/conflict.txt >actual &&
		test_grep "^<<<<<<< HEAD$" actual &&
		test_grep "^>>>>>>> topic$" actual
	)
'

test_expect_success 'a whole file with an old-style ORIGINAL/UPDATED block is refused' '
	cat >orig.md <<-\EOF &&
	big.txt
	```
	<<<<<<< ORIGINAL
	line 3
	=======
	line three
	>>>>>>> UPDATED
	```
	EOF
	(
		cd repo &&
		test_rejected ../orig.md &&
		test_grep "orig.md:3: .*conflict-style markers" err
	)
'

test_expect_success 'a whole file with a REPLACE marker but no SEARCH is refused' '
	cat >noopen.md <<-\EOF &&
	big.txt
	```
	line 3
	=======
	line three
	>>>>>>> REPLACE
	```
	EOF
	(
		cd repo &&
		test_rejected ../noopen.md &&
		test_grep "noopen.md:6: a fenced whole file holds SEARCH/REPLACE markers" err
	)
'

test_expect_success 'a lone "=======" (setext heading, rst underline) is still content' '
	cat >setext.md <<-\EOF &&
	doc.md
	```markdown
	Title
	=======

	Section
	-------

	text
	```
	EOF
	fresh w-setext &&
	(
		cd w-setext &&
		git ai-apply ../setext.md &&
		git show :doc.md >actual &&
		test_grep "^=======$" actual &&
		test_grep "^-------$" actual
	)
'

test_expect_success 'a git conflict shown in prose stays an example' '
	cat >example.md <<-\EOF &&
	Git shows the conflict like this:

	```
	<<<<<<< HEAD
	line 3
	=======
	line three
	>>>>>>> topic
	```

	big.txt
	```
	<<<<<<< SEARCH
	line 3
	=======
	line three
	>>>>>>> REPLACE
	```
	EOF
	lands example.md w-example
'

test_expect_success 'an indented diff in prose is refused, not skipped' '
	cat >udiff.md <<-\EOF &&
	1. Apply:
	   --- a/big.txt
	   +++ b/big.txt
	   @@ -3 +3 @@
	   -line 3
	   +line three
	EOF
	(
		cd repo &&
		test_rejected ../udiff.md &&
		test_grep "udiff.md:2: the prose holds a unified diff header" err
	)
'

test_expect_success 'a second divider inside REPLACE is refused naming its line' '
	cat >div2.md <<-\EOF &&
	big.txt
	```
	<<<<<<< SEARCH
	line 3
	=======
	line three
	=======
	line 3b
	>>>>>>> REPLACE
	```
	EOF
	(
		cd repo &&
		test_rejected ../div2.md &&
		test_grep "div2.md:7: search-replace: a second \"=======\" inside REPLACE" err
	)
'

test_expect_success 'a REPLACE marker that closes nothing, a conflict line in REPLACE: refused' '
	cat >stray.md <<-\EOF &&
	big.txt
	```
	<<<<<<< SEARCH
	line 3
	=======
	line three
	>>>>>>> REPLACE
	>>>>>>> REPLACE
	```
	EOF
	cat >conf.md <<-\EOF &&
	big.txt
	```
	<<<<<<< SEARCH
	line 3
	=======
	<<<<<<< HEAD
	line three
	>>>>>>> REPLACE
	```
	EOF
	(
		cd repo &&
		test_rejected ../stray.md &&
		test_grep "stray.md:8: .*closes no block" err &&
		test_rejected ../conf.md &&
		test_grep "conf.md:6: .*conflict marker inside REPLACE" err
	)
'

test_expect_success 'conflict lines in SEARCH are content to match (resolving a conflict)' '
	fresh w-resolve &&
	(
		cd w-resolve &&
		printf "a\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> topic\nz\n" >c.txt &&
		git add c.txt &&
		git commit -q -m conflict &&
		cat >../resolve.md <<-\EOF &&
		c.txt
		```
		<<<<<<< SEARCH
		\<<<<<<< HEAD
		mine
		\=======
		theirs
		\>>>>>>> topic
		=======
		mine and theirs
		>>>>>>> REPLACE
		```
		EOF
		git ai-apply ../resolve.md &&
		printf "a\nmine and theirs\nz\n" >expect &&
		git show :c.txt >actual &&
		test_cmp expect actual
	)
'

test_done
