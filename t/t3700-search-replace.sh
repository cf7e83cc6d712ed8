#!/bin/sh

test_description='search-replace format: Aider, Cline and Roo Code SEARCH/REPLACE blocks'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: a small project' '
	make_repo repo &&
	(
		cd repo &&
		mkdir -p app &&
		cat >app/config.py <<-\EOF &&
		DEBUG = False
		PORT = 80

		def port():
		    return PORT

		def host():
		    return "localhost"
		EOF
		cat >app/twice.py <<-\EOF &&
		def a():
		    return 1

		def b():
		    return 1
		EOF
		printf "one\r\ntwo\r\n" >app/crlf.txt &&
		git add . &&
		git commit -q -m "the project" &&
		git tag base
	)
'

test_expect_success 'Aider: path before the fence, several blocks in order' '
	cat >aider.md <<-\EOF &&
	Here are the edits.

	app/config.py
	```python
	<<<<<<< SEARCH
	PORT = 80
	=======
	PORT = 8080
	>>>>>>> REPLACE
	```

	**app/config.py**
	```python
	<<<<<<< SEARCH
	PORT = 8080
	=======
	PORT = 9090
	>>>>>>> REPLACE

	<<<<<<< SEARCH
	DEBUG = False
	=======
	DEBUG = True
	>>>>>>> REPLACE
	```
	EOF
	fresh w-aider &&
	(
		cd w-aider &&
		git ai-apply ../aider.md &&
		git show :app/config.py >out &&
		test_grep "^PORT = 9090$" out &&
		test_grep "^DEBUG = True$" out &&
		git diff --exit-code
	)
'

test_expect_success 'blocks in one fence apply in order, each on the result of the previous' '
	cat >chain.md <<-\EOF &&
	app/config.py
	```python
	<<<<<<< SEARCH
	def host():
	=======
	def hostname():
	>>>>>>> REPLACE
	<<<<<<< SEARCH
	PORT = 80
	=======
	PORT = 81
	>>>>>>> REPLACE
	<<<<<<< SEARCH
	def hostname():
	    return "localhost"
	=======
	def hostname():
	    return "example.org"
	>>>>>>> REPLACE
	<<<<<<< SEARCH
	PORT = 81
	=======
	PORT = 82
	>>>>>>> REPLACE
	```
	EOF
	fresh w-chain &&
	(
		cd w-chain &&
		git ai-apply ../chain.md &&
		sed -e "s/def host()/def hostname()/" -e "s/localhost/example.org/" \
			-e "s/PORT = 80/PORT = 82/" ../repo/app/config.py >expect &&
		staged_as app/config.py expect
	)
'

test_expect_success 'Aider diff-fenced: the path inside the fence, a path line switches file' '
	cat >fenced.md <<-\EOF &&
	```
	app/config.py
	<<<<<<< SEARCH
	DEBUG = False
	=======
	DEBUG = True
	>>>>>>> REPLACE
	app/twice.py
	<<<<<<< SEARCH
	def a():
	    return 1
	=======
	def a():
	    return 2
	>>>>>>> REPLACE
	```
	EOF
	fresh w-fenced &&
	(
		cd w-fenced &&
		git ai-apply ../fenced.md &&
		git show :app/config.py >out &&
		test_grep "^DEBUG = True$" out &&
		git show :app/twice.py >out &&
		test_grep "return 2" out
	)
'

test_expect_success 'Cline: replace_in_file with ------- SEARCH / +++++++ REPLACE' '
	cat >cline.md <<-\EOF &&
	<replace_in_file>
	<path>app/config.py</path>
	<diff>
	------- SEARCH
	def host():
	    return "localhost"
	=======
	def host():
	    return "0.0.0.0"
	+++++++ REPLACE
	</diff>
	</replace_in_file>
	EOF
	fresh w-cline &&
	(
		cd w-cline &&
		git ai-apply ../cline.md &&
		git show :app/config.py >out &&
		test_grep "0.0.0.0" out
	)
'

test_expect_success 'Roo Code: a start_line hint tells two places apart' '
	cat >roo.md <<-\EOF &&
	<apply_diff>
	<path>app/twice.py</path>
	<diff>
	<<<<<<< SEARCH
	:start_line:5
	-------
	    return 1
	=======
	    return 5
	>>>>>>> REPLACE
	</diff>
	</apply_diff>
	EOF
	fresh w-roo &&
	(
		cd w-roo &&
		git ai-apply ../roo.md &&
		printf "def a():\n    return 1\n\ndef b():\n    return 5\n" >expect &&
		staged_as app/twice.py expect
	)
'

test_expect_success 'a SEARCH that matches twice is refused, listing the places' '
	cat >twice.md <<-\EOF &&
	app/twice.py
	```
	<<<<<<< SEARCH
	    return 1
	=======
	    return 2
	>>>>>>> REPLACE
	```
	EOF
	(
		cd repo &&
		test_rejected ../twice.md &&
		test_grep "app/twice.py: ../twice.md:3:" err &&
		test_grep "2" err
	)
'

test_expect_success 'two identical blocks for a text that occurs twice are refused too' '
	cat >twice2.md <<-\EOF &&
	app/twice.py
	```
	<<<<<<< SEARCH
	    return 1
	=======
	    return 2
	>>>>>>> REPLACE
	<<<<<<< SEARCH
	    return 1
	=======
	    return 2
	>>>>>>> REPLACE
	```
	EOF
	(
		cd repo &&
		test_rejected ../twice2.md &&
		test_grep "twice2.md:3:.*ambiguous" err
	)
'

test_expect_success 'a SEARCH that is not there is refused with the closest region' '
	cat >absent.md <<-\EOF &&
	app/config.py
	```
	<<<<<<< SEARCH
	def port():
	    return PORTS
	=======
	def port():
	    return 1
	>>>>>>> REPLACE
	```
	EOF
	(
		cd repo &&
		test_rejected ../absent.md &&
		test_grep "app/config.py: ../absent.md:3:" err &&
		test_grep "PORT" err
	)
'

test_expect_success 'a SEARCH with other indentation lands by the whitespace rung' '
	cat >indent.md <<-\EOF &&
	app/config.py
	```
	<<<<<<< SEARCH
	def port():
	  return PORT
	=======
	def port():
	  return PORT + 1
	>>>>>>> REPLACE
	```
	EOF
	fresh w-indent &&
	(
		cd w-indent &&
		git ai-apply ../indent.md 2>err &&
		git show :app/config.py >out &&
		test_grep "return PORT + 1" out
	)
'

test_expect_success 'a CRLF file keeps its line endings' '
	cat >crlf.md <<-\EOF &&
	app/crlf.txt
	```
	<<<<<<< SEARCH
	two
	=======
	2
	>>>>>>> REPLACE
	```
	EOF
	fresh w-crlf &&
	(
		cd w-crlf &&
		git ai-apply ../crlf.md &&
		printf "one\r\n2\r\n" >expect &&
		staged_as app/crlf.txt expect
	)
'

test_expect_success 'an empty SEARCH creates a file; on an existing file it is refused' '
	cat >create.md <<-\EOF &&
	app/new.py
	```
	<<<<<<< SEARCH
	=======
	print("new")
	>>>>>>> REPLACE
	```
	EOF
	sed "s|app/new.py|app/config.py|" create.md >overwrite.md &&
	fresh w-create &&
	(
		cd w-create &&
		git ai-apply ../create.md &&
		echo "print(\"new\")" >expect &&
		staged_as app/new.py expect
	) &&
	(
		cd repo &&
		test_rejected ../overwrite.md &&
		test_grep "app/config.py" err
	)
'

test_expect_success 'an empty SEARCH fills an existing empty file; a non-empty one is refused' '
	cat >fill.md <<-\EOF &&
	app/empty.py
	```
	<<<<<<< SEARCH
	=======
	print("filled")
	>>>>>>> REPLACE
	```
	EOF
	fresh w-fill &&
	(
		cd w-fill &&
		>app/empty.py &&
		git add app/empty.py &&
		git commit -q -m "an empty file" &&
		git tag -f base >/dev/null &&
		git ai-apply ../fill.md &&
		echo "print(\"filled\")" >expect &&
		staged_as app/empty.py expect &&
		rm expect &&
		clean_result &&
		echo "x = 1" >app/empty.py &&
		git commit -q -a -m "no longer empty" &&
		test_rejected ../fill.md &&
		test_grep "app/empty.py" err &&
		test_grep "not empty" err
	)
'

test_expect_success 'all or nothing: a failing block rejects the earlier ones' '
	cat >partial.md <<-\EOF &&
	app/config.py
	```
	<<<<<<< SEARCH
	DEBUG = False
	=======
	DEBUG = True
	>>>>>>> REPLACE
	<<<<<<< SEARCH
	NOT THERE
	=======
	X
	>>>>>>> REPLACE
	```
	EOF
	(
		cd repo &&
		test_rejected ../partial.md &&
		test_grep "partial.md:8:" err
	)
'

test_expect_success 'malformed blocks are refused, naming the input line' '
	printf "app/config.py\n<<<<<<< SEARCH\nPORT = 80\n>>>>>>> REPLACE\n" >nodiv.md &&
	printf "app/config.py\n<<<<<<< SEARCH\nPORT = 80\n=======\nPORT = 1\n" >noend.md &&
	printf "Change it:\n\n\`\`\`\n<<<<<<< SEARCH\nPORT = 80\n=======\nPORT = 1\n>>>>>>> REPLACE\n\`\`\`\n" >nopath.md &&
	(
		cd repo &&
		test_rejected ../nodiv.md &&
		test_grep "nodiv.md:4: search-replace: REPLACE marker before" err &&
		test_rejected ../noend.md &&
		test_grep "noend.md:2: search-replace: a SEARCH block without its REPLACE line" err &&
		test_rejected ../nopath.md &&
		test_grep "nopath.md:4: search-replace: a SEARCH block names no file" err
	)
'

test_expect_success 'git conflict markers in a diff context and code samples are no blocks' '
	cat >conflict.md <<-\EOF &&
	A sample:

	```python
	print("not an edit")
	```

	```diff
	--- a/app/config.py
	+++ b/app/config.py
	@@ -1,2 +1,2 @@
	-DEBUG = False
	+DEBUG = True
	 PORT = 80
	```

	```
	<<<<<<< HEAD
	mine
	=======
	theirs
	>>>>>>> branch
	```
	EOF
	fresh w-conflict &&
	(
		cd w-conflict &&
		git ai-apply ../conflict.md &&
		git diff --cached --stat >out &&
		test_grep "app/config.py" out &&
		test $(wc -l <out) = 2
	)
'

test_expect_success 'marker runs as the peers write them: Cline 5 and 11, Aider SEARCH>, long dividers' '
	cat >runs.md <<-\EOF &&
	<replace_in_file>
	<path>app/config.py</path>
	<diff>
	----- SEARCH
	DEBUG = False
	==========
	DEBUG = True
	+++++++ REPLACE
	----------- SEARCH
	PORT = 80
	=====
	PORT = 81
	+++++ REPLACE>
	</diff>
	</replace_in_file>

	app/twice.py
	```python
	<<<<<<<<<< SEARCH>
	def b():
	========
	def c():
	>>>>>>>>>> REPLACE
	```
	EOF
	fresh w-runs &&
	(
		cd w-runs &&
		git ai-apply ../runs.md &&
		git show :app/config.py >out &&
		test_grep "^DEBUG = True$" out &&
		test_grep "^PORT = 81$" out &&
		git show :app/twice.py >out &&
		test_grep "^def c():$" out
	)
'

test_expect_success 'an unread marker variant next to a valid block refuses the answer' '
	cat >variant.md <<-\EOF &&
	app/config.py
	```python
	<<<<<<< SEARCH
	PORT = 80
	=======
	PORT = 8080
	>>>>>>> REPLACE
	```

	```python
	 <<<<<<< SEARCH
	 DEBUG = False
	 =======
	 DEBUG = True
	 >>>>>>> REPLACE
	```
	EOF
	(
		cd repo &&
		test_rejected ../variant.md &&
		test_grep "variant.md:11: a code fence holds SEARCH/REPLACE markers" err
	)
'

test_expect_success '--format=search-replace' '
	fresh w-forced &&
	(
		cd w-forced &&
		git ai-apply --format=search-replace ../cline.md &&
		git show :app/config.py >out &&
		test_grep "0.0.0.0" out
	)
'

test_done
