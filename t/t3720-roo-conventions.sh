#!/bin/sh

test_description='Roo Code conventions: line-number prefixes, escaped markers, malformed REPLACE sections'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	make_repo repo &&
	(
		cd repo &&
		cat >app.py <<-\EOF &&
		def start():
		    return 1

		def stop():
		    return 1
		EOF
		printf "one | 1\n2 | two\nthree\n" >table.txt &&
		git add . &&
		git commit -q -m base
	)
'

test_expect_success 'numbered SEARCH and REPLACE lines: the numbers are the viewer, not content' '
	cat >numbers.md <<-\EOF &&
	<apply_diff>
	<path>app.py</path>
	<diff>
	<<<<<<< SEARCH
	4 | def stop():
	5 |     return 1
	=======
	4 | def stop():
	5 |     return 0
	>>>>>>> REPLACE
	</diff>
	</apply_diff>
	EOF
	fresh w-numbers &&
	(
		cd w-numbers &&
		git ai-apply ../numbers.md &&
		git show :app.py >actual &&
		printf "def start():\n    return 1\n\ndef stop():\n    return 0\n" >expect &&
		test_cmp expect actual
	)
'

test_expect_success 'the first number is the line hint: it picks the occurrence' '
	cat >hint.md <<-\EOF &&
	app.py
	```
	<<<<<<< SEARCH
	5 |     return 1
	=======
	5 |     return 2
	>>>>>>> REPLACE
	```
	EOF
	fresh w-hint &&
	(
		cd w-hint &&
		git ai-apply ../hint.md &&
		git show :app.py >actual &&
		printf "def start():\n    return 1\n\ndef stop():\n    return 2\n" >expect &&
		test_cmp expect actual
	)
'

test_expect_success 'new REPLACE lines without a number keep their text; an empty REPLACE deletes' '
	cat >mixed.md <<-\EOF &&
	app.py
	```
	<<<<<<< SEARCH
	1 | def start():
	2 |     return 1
	=======
	1 | def start():
	    print("go")
	2 |     return 1
	>>>>>>> REPLACE
	```

	app.py
	```
	<<<<<<< SEARCH
	3 |
	=======
	>>>>>>> REPLACE
	```
	EOF
	fresh w-mixed &&
	(
		cd w-mixed &&
		git ai-apply ../mixed.md &&
		git show :app.py >actual &&
		printf "def start():\n    print(\"go\")\n    return 1\ndef stop():\n    return 1\n" >expect &&
		test_cmp expect actual
	)
'

test_expect_success 'when not every SEARCH line is numbered, "N | " is content' '
	cat >literal.md <<-\EOF &&
	table.txt
	```
	<<<<<<< SEARCH
	2 | two
	three
	=======
	2 | TWO
	three
	>>>>>>> REPLACE
	```
	EOF
	fresh w-literal &&
	(
		cd w-literal &&
		git ai-apply ../literal.md &&
		git show :table.txt >actual &&
		printf "one | 1\n2 | TWO\nthree\n" >expect &&
		test_cmp expect actual
	)
'

test_expect_success 'escaped marker lines are content without the backslash' '
	cat >escaped.md <<-\EOF &&
	notes.txt
	```
	<<<<<<< SEARCH
	=======
	\<<<<<<< SEARCH
	\=======
	\>>>>>>> REPLACE
	\-------
	\:start_line:7
	\:end_line:9
	\not a marker
	>>>>>>> REPLACE
	```
	EOF
	fresh w-escaped &&
	(
		cd w-escaped &&
		git ai-apply ../escaped.md &&
		printf "%s\n" "<<<<<<< SEARCH" "=======" ">>>>>>> REPLACE" \
			"-------" ":start_line:7" ":end_line:9" "\\not a marker" >expect &&
		git show :notes.txt >actual &&
		test_cmp expect actual
	)
'

test_expect_success 'an escaped marker in SEARCH matches the marker in the file' '
	fresh w-unescape &&
	(
		cd w-unescape &&
		printf "Title\n=======\n\ntext\n" >doc.rst &&
		git add doc.rst &&
		git commit -q -m doc &&
		cat >../unescape.md <<-\EOF &&
		doc.rst
		```
		<<<<<<< SEARCH
		:start_line:1
		-------
		Title
		\=======
		=======
		Heading
		\=======
		>>>>>>> REPLACE
		```
		EOF
		git ai-apply ../unescape.md &&
		printf "Heading\n=======\n\ntext\n" >expect &&
		git show :doc.rst >actual &&
		test_cmp expect actual
	)
'

test_expect_success 'a ":start_line:" inside REPLACE is refused naming its line' '
	cat >hintrepl.md <<-\EOF &&
	app.py
	```
	<<<<<<< SEARCH
	:start_line:4
	-------
	def stop():
	=======
	:start_line:4
	def halt():
	>>>>>>> REPLACE
	```
	EOF
	(
		cd repo &&
		test_rejected ../hintrepl.md &&
		test_grep "hintrepl.md:8: search-replace: a line hint inside REPLACE" err
	)
'

test_expect_success 'a second "=======" inside REPLACE is refused naming its line' '
	cat >twodiv.md <<-\EOF &&
	<apply_diff>
	<path>app.py</path>
	<diff>
	<<<<<<< SEARCH
	:start_line:4
	-------
	def stop():
	=======
	def halt():
	=======
	def pause():
	>>>>>>> REPLACE
	</diff>
	</apply_diff>
	EOF
	(
		cd repo &&
		test_rejected ../twodiv.md &&
		test_grep "twodiv.md:10: search-replace: a second \"=======\" inside REPLACE" err
	)
'

test_expect_success 'a blank after ":start_line:" is a hint (Roo reads blanks there)' '
	cat >blank.md <<-\EOF &&
	app.py
	```
	<<<<<<< SEARCH
	:start_line: 5
	-------
	    return 1
	=======
	    return 3
	>>>>>>> REPLACE
	```
	EOF
	fresh w-blank &&
	(
		cd w-blank &&
		git ai-apply ../blank.md &&
		git show :app.py >actual &&
		printf "def start():\n    return 1\n\ndef stop():\n    return 3\n" >expect &&
		test_cmp expect actual
	)
'

# Roo reads the file once and numbers every block from that reading; it
# applies them in the order of their hints, each moved by the lines the
# blocks before it added or removed.

# list_repo DIR LINES: a fresh repository DIR whose list.txt holds LINES
# (printf's format), committed.
list_repo () {
	fresh "$1" &&
	printf "$2" >"$1/list.txt" &&
	git -C "$1" add list.txt &&
	git -C "$1" commit -q -m list
}
test_expect_success 'a ":start_line:" counts the lines the model read: earlier blocks above it move it' '
	list_repo w-moved "f1\nx\ng1\nx\nh1\nx\n" &&
	(
		cd w-moved &&
		cat >../moved.md <<-\EOF &&
		<apply_diff>
		<path>list.txt</path>
		<diff>
		<<<<<<< SEARCH
		:start_line:1
		-------
		f1
		=======
		f1
		new1
		new2
		new3
		>>>>>>> REPLACE

		<<<<<<< SEARCH
		:start_line:4
		-------
		x
		=======
		X
		>>>>>>> REPLACE
		</diff>
		</apply_diff>
		EOF
		git ai-apply ../moved.md 2>err &&
		printf "f1\nnew1\nnew2\nnew3\nx\ng1\nX\nh1\nx\n" >expect &&
		git show :list.txt >actual &&
		test_cmp expect actual
	)
'

test_expect_success 'a block below does not move the hint of a block above it' '
	list_repo w-below "f1\nx\ng1\nx\nh1\nx\n" &&
	(
		cd w-below &&
		cat >../below.md <<-\EOF &&
		<apply_diff>
		<path>list.txt</path>
		<diff>
		<<<<<<< SEARCH
		:start_line:5
		-------
		h1
		=======
		h1
		new1
		new2
		>>>>>>> REPLACE

		<<<<<<< SEARCH
		:start_line:4
		-------
		x
		=======
		X
		>>>>>>> REPLACE
		</diff>
		</apply_diff>
		EOF
		git ai-apply ../below.md 2>err &&
		printf "f1\nx\ng1\nX\nh1\nnew1\nnew2\nx\n" >expect &&
		git show :list.txt >actual &&
		test_cmp expect actual
	)
'

test_expect_success 'identical blocks with hints in order are one edit: each at its own place, the first one'"'"'s offset carried' '
	list_repo w-twins "a\nx = 1\nb\nx = 1\nc\nx = 1\n" &&
	(
		cd w-twins &&
		cat >../twins.md <<-\EOF &&
		<apply_diff>
		<path>list.txt</path>
		<diff>
		<<<<<<< SEARCH
		:start_line:1
		-------
		x = 1
		=======
		x = 2
		>>>>>>> REPLACE

		<<<<<<< SEARCH
		:start_line:5
		-------
		x = 1
		=======
		x = 2
		>>>>>>> REPLACE
		</diff>
		</apply_diff>
		EOF
		git ai-apply ../twins.md 2>err &&
		printf "a\nx = 2\nb\nx = 1\nc\nx = 2\n" >expect &&
		git show :list.txt >actual &&
		test_cmp expect actual
	)
'

test_done
