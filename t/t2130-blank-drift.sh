#!/bin/sh

test_description='rung 5: blank context lines missing from the file or extra in it'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	git init -q repo &&
	(
		cd repo &&
		cat >m.py <<-\EOF &&
		import os

		def main():
		    return 1


		def other():
		    pass
		EOF
		printf "a\nb\nc\nd\n" >abc.txt &&
		printf "x\n\ny\nz\nx\n\ny\nz\n" >twice.txt &&
		git add . &&
		git commit -q -m base &&
		git tag base
	) &&
	# the assistant lost the blank line after the import
	cat >lost.diff <<-\EOF
	--- a/m.py
	+++ b/m.py
	@@ -1,4 +1,5 @@
	 import os
	+import sys
	 def main():
	-    return 1
	+    return 2
	EOF
'

test_expect_success 'a blank line of the file missing from the hunk: lands, the file keeps it' '
	fresh lost &&
	(
		cd lost &&
		git ai-apply ../lost.diff 2>../lost.err &&
		test_grep "warning: m.py: ../lost.diff:3: hunk applied at line 1 with blank-line drift (rung 5): 1 blank line(s) of the file not in the hunk (kept)" ../lost.err &&
		cat >expect <<-\EOF &&
		import os
		import sys

		def main():
		    return 2


		def other():
		    pass
		EOF
		staged_as m.py expect
	)
'

test_expect_success 'applied again: already applied, nothing changes' '
	(
		cd lost &&
		git ai-apply ../lost.diff 2>../again.err &&
		test_grep "already applied" ../again.err &&
		staged_as m.py expect
	)
'

test_expect_success '--json names the rung: blank-lines; it is a tolerant placement' '
	fresh json &&
	(
		cd json &&
		git ai-apply --json ../lost.diff >../lost.json &&
		test_grep "\"how\":	\"blank-lines\"" ../lost.json &&
		git reset -q --hard &&
		git ai-apply --branch=ai/drift ../lost.diff &&
		git log -1 --format=%B ai/drift >../trailers &&
		test_grep "^AI-Tolerant-Placements: 1$" ../trailers
	)
'

test_expect_success 'a blank context line of the hunk missing from the file: dropped' '
	fresh added &&
	cat >added.diff <<-\EOF &&
	--- a/abc.txt
	+++ b/abc.txt
	@@ -1,3 +1,3 @@
	 a

	-b
	+B
	 c
	EOF
	(
		cd added &&
		git ai-apply ../added.diff 2>../added.err &&
		test_grep "rung 5): 1 blank context line(s) of the hunk not in the file" ../added.err &&
		printf "a\nB\nc\nd\n" >expect &&
		staged_as abc.txt expect
	)
'

test_expect_success '--strict never drifts: refused, nothing written' '
	(
		cd repo &&
		test_rejected --strict ../lost.diff &&
		test_grep "error: m.py: ../lost.diff:3: Context lines don.t match" err
	)
'

test_expect_success 'two places with the drift: refused, both listed' '
	cat >two.diff <<-\EOF &&
	--- a/twice.txt
	+++ b/twice.txt
	@@ -1,3 +1,3 @@
	 x
	-y
	+Y
	 z
	EOF
	(
		cd repo &&
		test_rejected ../two.diff &&
		test_grep "error: twice.txt: ../two.diff:3: hunk is ambiguous: it matches 2 places when blank lines may be missing or extra, at lines 1 and 5" err
	)
'

test_expect_success 'a removed blank line must be in the file: refused, nothing written' '
	cat >removed.diff <<-\EOF &&
	--- a/abc.txt
	+++ b/abc.txt
	@@ -1,4 +1,2 @@
	 a
	-
	-b
	 c
	EOF
	(
		cd repo &&
		test_rejected ../removed.diff &&
		test_grep "error: abc.txt: ../removed.diff:3: hunk does not apply" err
	)
'

test_expect_success 'with trailing blanks lost too: lands, the warning says so' '
	fresh trailing &&
	printf -- "--- a/abc.txt\n+++ b/abc.txt\n@@ -1,3 +1,3 @@\n a  \n \n-b\n+B\n c\n" >trailing.diff &&
	(
		cd trailing &&
		git ai-apply ../trailing.diff 2>../trailing.err &&
		test_grep "rung 5): 1 blank context line(s) of the hunk not in the file; its other lines matched ignoring trailing blanks" ../trailing.err &&
		printf "a\nB\nc\nd\n" >expect &&
		staged_as abc.txt expect
	)
'

test_expect_success 'a bare hunk, a SEARCH/REPLACE block and a V4A chunk drift too' '
	fresh formats &&
	cat >bare.md <<-\EOF &&
	```diff
	--- a/abc.txt
	+++ b/abc.txt
	@@
	 a

	-b
	+B
	EOF
	echo "\`\`\`" >>bare.md &&
	cat >sr.md <<-\EOF &&
	m.py
	```python
	<<<<<<< SEARCH
	import os
	def main():
	    return 1
	=======
	import os
	def main():
	    return 3
	>>>>>>> REPLACE
	```
	EOF
	cat >v4a.md <<-\EOF &&
	*** Begin Patch
	*** Update File: m.py
	@@ def main():
	     return 3
	+
	+def helper():
	+    return 4
	 def other():
	*** End Patch
	EOF
	(
		cd formats &&
		git ai-apply ../bare.md 2>../bare.err &&
		test_grep "rung 5)" ../bare.err &&
		printf "a\nB\nc\nd\n" >expect &&
		staged_as abc.txt expect &&
		git ai-apply ../sr.md 2>../sr.err &&
		test_grep "rung 5)" ../sr.err &&
		test "$(sed -n 4p m.py)" = "    return 3" &&
		test "$(sed -n 2p m.py)" = "" &&
		git ai-apply ../v4a.md 2>../v4a.err &&
		test_grep "rung 5)" ../v4a.err &&
		cat >expect <<-\EOF &&
		import os

		def main():
		    return 3

		def helper():
		    return 4


		def other():
		    pass
		EOF
		staged_as m.py expect
	)
'

test_done
