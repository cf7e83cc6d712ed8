#!/bin/sh

test_description='ap format (seed 003): snippets, anchors, ranges, CREATE_FILE, idempotency'

. "$(dirname "$0")/test-lib.sh"

# line_of PATTERN FILE / col_of PATTERN FILE: the line number and the
# (1-based) column of the first occurrence of the fixed string PATTERN.
line_of () {
	grep -n -F -e "$1" "$2" | head -n 1 | cut -d: -f1
}

col_of () {
	awk -v pat="$1" 'i = index($0, pat) { print i; exit }' "$2"
}

test_expect_success 'setup: the seed calculator and a service module' '
	make_repo repo &&
	(
		cd repo &&
		mkdir -p src app &&
		cat >src/calculator.py <<-\EOF &&
		# A simple calculator module
		import math

		def add(a, b):
		    # Deprecated: use sum() for lists
		    return a + b

		def get_pi():
		    return 3.14
		EOF
		cat >app/service.py <<-\EOF &&
		import logging

		log = logging.getLogger(__name__)


		class Service:
		    def start(self):
		        log.info("start")
		        return None

		    def stop(self):
		        log.info("stop")
		        return None

		    def status(self):
		        # TODO: report real status
		        value = 0
		        value += 1
		        return value
		EOF
		git add . &&
		git commit -q -m "the project" &&
		git tag base
	)
'

# Seed 003 section 5, verbatim (its three-space indentation removed).
test_expect_success 'setup: the seed patch and its expected result' '
	cat >patch.ap <<-\EOF &&
	# Summary: Refactor the calculator module to enhance the `add` function
	# and remove deprecated code.
	#
	# Plan:
	#   1. Import the `List` type for type hinting.
	#   2. Update the `add` function to also handle summing a list of numbers.
	#   3. Remove the unused `get_pi` function.
	#
	version: "2.0"
	changes:
	  - file_path: "src/calculator.py"
	    modifications:
	      - action: INSERT_AFTER
	        snippet: |
	          import math
	        content: |
	          from typing import List

	      - action: REPLACE
	        anchor: |
	          def add(a, b):
	        snippet: |
	          return a + b
	        content: |
	          # New implementation supports summing a list
	          if isinstance(a, List):
	              return sum(a)
	          return a + b

	      - action: DELETE
	        snippet: |
	          def get_pi():
	              return 3.14
	        include_leading_blank_lines: 1
	EOF
	cat >expect-calc <<-\EOF
	# A simple calculator module
	import math
	from typing import List

	def add(a, b):
	    # Deprecated: use sum() for lists
	    # New implementation supports summing a list
	    if isinstance(a, List):
	        return sum(a)
	    return a + b
	EOF
'

test_expect_success 'the seed example gives exactly the seed result' '
	fresh w-seed &&
	(
		cd w-seed &&
		git ai-apply ../patch.ap >../out 2>../err &&
		staged_as src/calculator.py ../expect-calc &&
		git diff --exit-code &&
		git diff --cached --name-only >../names &&
		test "$(git rev-parse HEAD)" = "$(git rev-parse base)"
	) &&
	echo src/calculator.py >expect &&
	test_cmp expect names &&
	! grep "^error" err
'

test_expect_success 'applying it a second time writes nothing and exits 0' '
	(
		cd w-seed &&
		repo_snapshot twice &&
		git ai-apply ../patch.ap >../out 2>&1 &&
		repo_unchanged twice
	) &&
	test_grep -i "already applied" out
'

test_expect_success 'the seed example on a branch, under --check, and with --cached' '
	fresh w-seed-modes &&
	(
		cd w-seed-modes &&
		repo_snapshot check &&
		git ai-apply --check ../patch.ap &&
		repo_unchanged check &&
		git ai-apply --branch=ai/calc ../patch.ap &&
		git show ai/calc:src/calculator.py >../actual-branch &&
		test -z "$(git status --porcelain)" &&
		git ai-apply --cached ../patch.ap &&
		git show :src/calculator.py >../actual-cached &&
		git show HEAD:src/calculator.py >../expect-worktree &&
		test_cmp ../expect-worktree src/calculator.py
	) &&
	test_cmp expect-calc actual-branch &&
	test_cmp expect-calc actual-cached
'

test_expect_success 'the patch inside a chat answer, in a yaml fence' '
	{
		echo "Here is the patch in ap format:" &&
		echo &&
		echo "\`\`\`yaml" &&
		cat patch.ap &&
		echo "\`\`\`" &&
		echo &&
		echo "Save it as patch.ap and apply it."
	} >answer.md &&
	fresh w-answer &&
	(
		cd w-answer &&
		git ai-apply ../answer.md &&
		staged_as src/calculator.py ../expect-calc
	)
'

test_expect_success 'an ap document in prose but outside a fence is named, not "no change"' '
	{
		echo "Here is the patch in ap format:" &&
		echo &&
		cat patch.ap &&
		echo &&
		echo "Save it as patch.ap and apply it."
	} >loose.md &&
	n=$(line_of "version:" loose.md) &&
	(
		cd repo &&
		test_rejected ../loose.md &&
		test_grep "^error: ../loose.md:$n: found an ap document outside a code fence" err &&
		test_grep "yaml" err &&
		! grep "no change found" err
	)
'

test_expect_success 'file_path is relative to the .ap file inside the work tree' '
	sed -e "s|file_path: \"src/calculator.py\"|file_path: \"calculator.py\"|" \
		patch.ap >local.ap &&
	test_grep "file_path: \"calculator.py\"" local.ap &&
	fresh w-local &&
	cp local.ap w-local/src/local.ap &&
	(
		cd w-local &&
		git ai-apply src/local.ap &&
		staged_as src/calculator.py ../expect-calc &&
		test_path_is_missing calculator.py
	) &&
	fresh w-local-sub &&
	cp local.ap w-local-sub/src/local.ap &&
	(
		cd w-local-sub/app &&
		git ai-apply ../src/local.ap &&
		cd .. &&
		staged_as src/calculator.py ../expect-calc
	)
'

test_expect_success 'file_path of an .ap file outside the work tree is from the root' '
	fresh w-outside &&
	(
		cd w-outside/app &&
		git ai-apply ../../patch.ap &&
		cd .. &&
		staged_as src/calculator.py ../expect-calc &&
		test_path_is_missing app/src
	)
'

test_expect_success 'file_path may not climb out of the .ap file directory' '
	sed -e "s|file_path: \"src/calculator.py\"|file_path: \"../src/calculator.py\"|" \
		patch.ap >climb.ap &&
	test_grep "\.\./src" climb.ap &&
	(
		cd repo &&
		mkdir -p patches &&
		cp ../climb.ap patches/climb.ap &&
		test_rejected patches/climb.ap &&
		rm -r patches
	)
'

test_expect_success 'an ambiguous snippet is refused; an anchor picks the first after it' '
	cat >ambiguous.ap <<-\EOF &&
	version: "2.0"
	changes:
	  - file_path: app/service.py
	    modifications:
	      - action: REPLACE
	        snippet: |
	          return None
	        content: |
	          return True
	EOF
	(
		cd repo &&
		test_rejected ../ambiguous.ap &&
		test_grep "app/service.py" err
	) &&
	cat >anchored.ap <<-\EOF &&
	version: "2.0"
	changes:
	  - file_path: app/service.py
	    modifications:
	      - action: REPLACE
	        anchor: |
	          def stop(self):
	        snippet: |
	          return None
	        content: |
	          return True
	EOF
	sed -e "13s/return None/return True/" repo/app/service.py >expect-service &&
	test $(grep -c "return None" expect-service) = 1 &&
	test "$(sed -n 13p expect-service)" = "        return True" &&
	fresh w-anchor &&
	(
		cd w-anchor &&
		git ai-apply ../anchored.ap &&
		staged_as app/service.py ../expect-service
	)
'

test_expect_success 'an anchor that is not unique, or not found, is refused' '
	cat >bad-anchor.ap <<-\EOF &&
	version: "2.0"
	changes:
	  - file_path: app/service.py
	    modifications:
	      - action: DELETE
	        anchor: |
	          log.info("start")
	          return None
	        snippet: |
	          def stop(self):
	      - action: DELETE
	        anchor: |
	          def missing(self):
	        snippet: |
	          return None
	EOF
	cat >dup-anchor.ap <<-\EOF &&
	version: "2.0"
	changes:
	  - file_path: app/service.py
	    modifications:
	      - action: INSERT_AFTER
	        anchor: |
	          return None
	        snippet: |
	          def status(self):
	        content: |
	          """Report the status."""
	EOF
	(
		cd repo &&
		test_rejected ../bad-anchor.ap &&
		test_grep "def missing(self):\|anchor" err &&
		test_rejected ../dup-anchor.ap &&
		test_grep "app/service.py" err
	)
'

test_expect_success 'ranges: REPLACE and DELETE from start_snippet to end_snippet' '
	cat >range.ap <<-\EOF &&
	# Summary: simplify status and drop stop.
	version: "2.0"
	changes:
	  - file_path: app/service.py
	    modifications:
	      - action: REPLACE
	        start_snippet: |
	          # TODO: report real status
	        end_snippet: |
	          return value
	        content: |
	          return 1
	      - action: DELETE
	        start_snippet: |
	          def stop(self):
	        end_snippet: |
	          return None
	        include_trailing_blank_lines: 1
	EOF
	cat >expect-range <<-\EOF &&
	import logging

	log = logging.getLogger(__name__)


	class Service:
	    def start(self):
	        log.info("start")
	        return None

	    def status(self):
	        return 1
	EOF
	fresh w-range &&
	(
		cd w-range &&
		git ai-apply ../range.ap &&
		staged_as app/service.py ../expect-range
	)
'

test_expect_success 'INSERT_BEFORE and INSERT_AFTER indent the content like the snippet' '
	cat >insert.ap <<-\EOF &&
	version: "2.0"
	changes:
	  - file_path: app/service.py
	    modifications:
	      - action: INSERT_BEFORE
	        snippet: |
	          log.info("stop")
	        content: |
	          if not self.running:
	              return None
	      - action: INSERT_AFTER
	        snippet: |
	          log = logging.getLogger(__name__)
	        content: |
	          TIMEOUT = 30
	EOF
	cat >expect-insert <<-\EOF &&
	import logging

	log = logging.getLogger(__name__)
	TIMEOUT = 30


	class Service:
	    def start(self):
	        log.info("start")
	        return None

	    def stop(self):
	        if not self.running:
	            return None
	        log.info("stop")
	        return None

	    def status(self):
	        # TODO: report real status
	        value = 0
	        value += 1
	        return value
	EOF
	fresh w-insert &&
	(
		cd w-insert &&
		git ai-apply ../insert.ap &&
		staged_as app/service.py ../expect-insert
	)
'

test_expect_success 'CREATE_FILE with newline CRLF, and again when identical' '
	cat >create.ap <<-\EOF &&
	version: "2.0"
	changes:
	  - file_path: scripts/build.bat
	    newline: CRLF
	    modifications:
	      - action: CREATE_FILE
	        content: |
	          @echo off
	          python -m build
	EOF
	printf "@echo off\r\npython -m build\r\n" >expect-bat &&
	fresh w-create &&
	(
		cd w-create &&
		git ai-apply ../create.ap &&
		staged_as scripts/build.bat ../expect-bat &&
		repo_snapshot create &&
		git ai-apply ../create.ap >../out 2>&1 &&
		repo_unchanged create
	) &&
	test_grep -i "already applied" out
'

test_expect_success 'CREATE_FILE over a file with other content is refused' '
	cat >create-exists.ap <<-\EOF &&
	version: "2.0"
	changes:
	  - file_path: src/calculator.py
	    modifications:
	      - action: CREATE_FILE
	        content: |
	          print("hello")
	EOF
	(
		cd repo &&
		test_rejected ../create-exists.ap &&
		test_grep "src/calculator.py: .*already exists" err
	)
'

test_expect_success 'trailing whitespace is removed from every line of a modified file' '
	fresh w-trailing &&
	(
		cd w-trailing &&
		printf "import os   \n\ndef f():\t\n    return 1  \n" >src/trail.py &&
		printf "keep me   \n" >src/untouched.py &&
		git add src &&
		git commit -q -m trailing &&
		cat >../trailing.ap <<-\EOF &&
		version: "2.0"
		changes:
		  - file_path: src/trail.py
		    modifications:
		      - action: REPLACE
		        snippet: |
		          return 1
		        content: "return 2   \n"
		EOF
		git ai-apply ../trailing.ap &&
		printf "import os\n\ndef f():\n    return 2\n" >../expect-trail &&
		staged_as src/trail.py ../expect-trail &&
		printf "keep me   \n" >../expect-untouched &&
		staged_as src/untouched.py ../expect-untouched
	)
'

test_expect_success 'DELETE of a snippet that is gone is already done' '
	cat >gone.ap <<-\EOF &&
	version: "2.0"
	changes:
	  - file_path: src/calculator.py
	    modifications:
	      - action: DELETE
	        snippet: |
	          def get_e():
	              return 2.71
	EOF
	(
		cd repo &&
		repo_snapshot gone &&
		git ai-apply ../gone.ap >../out 2>&1 &&
		repo_unchanged gone
	) &&
	test_grep -i "already applied" out
'

test_expect_success 'a snippet not found rejects every change of the patch' '
	cat >notfound.ap <<-\EOF &&
	version: "2.0"
	changes:
	  - file_path: src/calculator.py
	    modifications:
	      - action: INSERT_AFTER
	        snippet: |
	          import math
	        content: |
	          import sys
	  - file_path: app/service.py
	    modifications:
	      - action: REPLACE
	        snippet: |
	          def restart(self):
	        content: |
	          def reload(self):
	EOF
	n=$(line_of "file_path: app/service.py" notfound.ap) &&
	for mode in "" --cached --branch=ai/nf --check
	do
		(
			cd repo &&
			test_rejected $mode ../notfound.ap &&
			test_grep "app/service.py: .*notfound.ap:[0-9]" err &&
			test_grep -F "def restart(self):" err
		) || return 1
	done
'

test_expect_success 'the target of an edit must exist' '
	sed -e "s|src/calculator.py|src/missing.py|" patch.ap >missing.ap &&
	(
		cd repo &&
		test_rejected ../missing.ap &&
		test_grep "src/missing.py: .*does not exist" err
	)
'

test_expect_success 'YAML aliases are refused' '
	cat >alias.ap <<-\EOF &&
	version: "2.0"
	changes:
	  - file_path: src/calculator.py
	    modifications:
	      - action: DELETE
	        snippet: &gone |
	          return 3.14
	  - file_path: app/service.py
	    modifications:
	      - action: DELETE
	        snippet: *gone
	EOF
	(
		cd repo &&
		test_rejected ../alias.ap &&
		test_grep -i "alias\|anchor" err
	)
'

test_expect_success 'an unknown key is refused with its line and column' '
	cat >unknown.ap <<-\EOF &&
	version: "2.0"
	changes:
	  - file_path: src/calculator.py
	    modifications:
	      - action: DELETE
	        snippet: |
	          return 3.14
	        include_blank_lines: 1
	EOF
	l=$(line_of include_blank_lines unknown.ap) &&
	c=$(col_of include_blank_lines unknown.ap) &&
	test "$l,$c" = "8,9" &&
	(
		cd repo &&
		test_rejected ../unknown.ap &&
		test_grep "include_blank_lines" err &&
		test_grep -E "line $l, column $c|:$l:$c" err
	)
'

test_expect_success 'positions inside a fenced patch count from the answer' '
	{
		printf "Here is the patch.\n\nIt removes get_pi:\n\n\`\`\`yaml\n" &&
		cat unknown.ap &&
		printf "\`\`\`\n"
	} >unknown.md &&
	l=$(line_of include_blank_lines unknown.md) &&
	test "$l" = 13 &&
	(
		cd repo &&
		test_rejected ../unknown.md &&
		test_grep -E "unknown.md:.*(line $l, column 9|:$l:9)" err
	)
'

test_expect_success 'a version other than "2.0" is refused' '
	sed -e "s/^version: \"2.0\"/version: \"1.0\"/" patch.ap >v1.ap &&
	test_grep "^version: \"1.0\"" v1.ap &&
	(
		cd repo &&
		test_rejected ../v1.ap &&
		test_grep "1.0" err
	)
'

test_expect_success 'malformed YAML is refused with its position' '
	cat >broken.ap <<-\EOF &&
	version: "2.0"
	changes:
	  - file_path: src/calculator.py
	    modifications:
	      - action: DELETE
	        snippet: |
	          return 3.14
	       - action: DELETE
	EOF
	(
		cd repo &&
		test_rejected ../broken.ap &&
		test_grep "broken.ap:[0-9]" err
	)
'

test_done
