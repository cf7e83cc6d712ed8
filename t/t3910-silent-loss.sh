#!/bin/sh

test_description='no silent loss: text over a binary file, an empty block, dropped top-level definitions'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: a PNG, a setup.py and a module of three definitions' '
	git init -q repo &&
	(
		cd repo &&
		printf "\211PNG\r\n\032\n\000\000\000\015IHDR" >logo.png &&
		printf "from setuptools import setup\nsetup(name=\"x\")\n" >setup.py &&
		cat >mod.py <<-\EOF &&
		import os


		def alpha():
		    return 1


		def beta():
		    return 2


		class Gamma:
		    def m(self):
		        return 3
		EOF
		git add . &&
		git commit -q -m "the project" &&
		git tag base
	)
'

test_expect_success 'a text fence labelled logo.png does not replace the PNG' '
	printf "logo.png\n\`\`\`\nnot a png\n\`\`\`\n" >png.md &&
	fresh w-png &&
	(
		cd w-png &&
		test_rejected ../png.md &&
		test_grep "logo.png: .*png.md:3: is a binary file .*a text block does not replace it" err
	)
'

test_expect_success 'any format: aptix and companion replacements of a binary with text are refused' '
	cat >png2.md <<-\EOF &&
	--- START-REPLACE-FILE: logo.png ---
	text
	--- END-REPLACE-FILE: logo.png ---
	EOF
	cat >png3.json <<-\EOF &&
	{"files": [{"path": "logo.png", "content": "text\n"}]}
	EOF
	fresh w-png2 &&
	(
		cd w-png2 &&
		test_rejected ../png2.md &&
		test_grep "is a binary file" err &&
		test_rejected ../png3.json &&
		test_grep "is a binary file" err
	)
'

test_expect_success 'an explicit delete and create replaces the binary' '
	cat >png4.md <<-\EOF &&
	--- DELETE-FILE: logo.png ---
	--- START-FILE: logo.png ---
	now text
	--- END-FILE: logo.png ---
	EOF
	fresh w-png4 &&
	(
		cd w-png4 &&
		git ai-apply ../png4.md &&
		echo "now text" >expect &&
		staged_as logo.png expect
	)
'

test_expect_success 'an empty fence labelled setup.py does not empty it' '
	printf "setup.py\n\`\`\`python\n\`\`\`\n" >empty.md &&
	printf "setup.py\n\`\`\`python\n\n   \n\`\`\`\n" >blank.md &&
	fresh w-empty &&
	(
		cd w-empty &&
		test_rejected ../empty.md &&
		test_grep "setup.py: .*empty.md:.*the block is empty and would empty the file" err &&
		test_rejected ../blank.md &&
		test_grep "the block is empty and would empty the file" err
	)
'

test_expect_success 'an empty companion replacement is refused too; a deletion is explicit' '
	printf -- "--- START-REPLACE-FILE: setup.py ---\n--- END-REPLACE-FILE: setup.py ---\n" >empty2.md &&
	printf -- "--- DELETE-FILE: setup.py ---\n" >delete.md &&
	fresh w-empty2 &&
	(
		cd w-empty2 &&
		test_rejected ../empty2.md &&
		test_grep "the block is empty" err &&
		git ai-apply ../delete.md &&
		test_path_is_missing setup.py
	)
'

test_expect_success 'an empty block still creates a new empty file' '
	printf "pkg/__init__.py\n\`\`\`python\n\`\`\`\n" >new-empty.md &&
	fresh w-ne &&
	(
		cd w-ne &&
		git ai-apply ../new-empty.md &&
		test_path_is_file pkg/__init__.py &&
		test_must_be_empty pkg/__init__.py
	)
'

test_expect_success 'Option 1 of two drops a function: named in the warning, tolerant' '
	cat >option.md <<-\EOF &&
	## Option 1

	mod.py
	```python
	import os


	def alpha():
	    return 10


	class Gamma:
	    def m(self):
	        return 3
	```
	EOF
	fresh w-opt &&
	(
		cd w-opt &&
		git ai-apply --json ../option.md >out.json 2>err &&
		test_grep "mod.py: .*option.md:5: the whole-file block drops 1 top-level definition of the file: beta" err &&
		jq -r ".files[0].edits[].how" out.json >hows &&
		echo definitions-removed >expect &&
		test_cmp expect hows &&
		git ai-apply --review >review &&
		test_grep "1 tolerant (definitions-removed)" review
	)
'

test_expect_success 'a replacement that keeps every definition says nothing of them' '
	cat >keep.md <<-\EOF &&
	mod.py
	```python
	import os


	def alpha():
	    return 10


	def beta():
	    return 20


	class Gamma:
	    def m(self):
	        return 30
	```
	EOF
	fresh w-keep &&
	(
		cd w-keep &&
		git ai-apply ../keep.md 2>err &&
		! grep "top-level definition" err &&
		grep -q "return 20" mod.py
	)
'

test_expect_success 'a method dropped inside a class is not a top-level definition' '
	cat >method.md <<-\EOF &&
	mod.py
	```python
	import os


	def alpha():
	    return 1


	def beta():
	    return 2


	class Gamma:
	    pass
	```
	EOF
	fresh w-meth &&
	(
		cd w-meth &&
		git ai-apply ../method.md 2>err &&
		! grep "top-level definition" err
	)
'

test_done
