#!/bin/sh

test_description='hunk places: anchored to the start or the end of the file, identical hunks for identical places, every failing hunk reported'

. "$(dirname "$0")/test-lib.sh"

# A module the assistant saw with b() as its last function; upstream
# has since appended d().
test_expect_success 'setup' '
	git init -q repo &&
	(
		cd repo &&
		printf "import os\n\n\ndef a():\n    return 1\n\n\ndef b():\n    return 2\n" >mod.py &&
		git add mod.py &&
		git commit -q -m seen &&
		git tag seen &&
		printf "\n\ndef c():\n    return 3\n" >>mod.py &&
		git diff >../append.diff &&
		git commit -q -a -m answer &&
		git tag answer &&
		git reset -q --hard seen &&
		printf "\n\ndef d():\n    return 4\n" >>mod.py &&
		git commit -q -a -m upstream &&
		git tag base
	) &&
	# git diff cut the hunk at the end of the file: no line after it
	test "$(tail -n 1 append.diff)" = "+    return 3"
'

test_expect_success 'a hunk cut at the end of the file lands at the end of the file it was written for' '
	fresh seen &&
	(
		cd seen &&
		git reset -q --hard seen &&
		git ai-apply ../append.diff &&
		git diff --exit-code answer -- mod.py
	)
'

test_expect_success 'after upstream appended: refused, not put before the new code' '
	fresh end &&
	(
		cd end &&
		test_rejected ../append.diff &&
		test_grep "mod.py: .*conflicts with the current content" err &&
		# without history the anchor alone refuses it
		AIAPPLY_HISTORY_MAX_VERSIONS=0 &&
		export AIAPPLY_HISTORY_MAX_VERSIONS &&
		test_rejected ../append.diff &&
		test_grep "anchored to the end of the file" err &&
		test_grep "mod.py" err
	) &&
	# git apply refuses it too
	(
		cd end &&
		test_must_fail git apply --check ../append.diff 2>/dev/null
	)
'

test_expect_success 'a hunk cut at the start of the file: refused after upstream put lines first' '
	fresh start &&
	(
		cd start &&
		git reset -q --hard seen &&
		printf "#!/usr/bin/env python3\n" >new.py &&
		cat mod.py >>new.py &&
		mv new.py mod.py &&
		git diff >../start.diff &&
		git checkout -q mod.py &&
		printf "# Copyright\n" >new.py &&
		cat mod.py >>new.py &&
		mv new.py mod.py &&
		git commit -q -a -m header &&
		test_rejected ../start.diff &&
		test_grep "mod.py: .*conflicts with the current content" err &&
		AIAPPLY_HISTORY_MAX_VERSIONS=0 test_rejected ../start.diff &&
		test_grep "anchored to the start of the file" err &&
		git reset -q --hard seen &&
		git ai-apply ../start.diff &&
		test "$(head -n 1 mod.py)" = "#!/usr/bin/env python3"
	)
'

test_expect_success 'every hunk that does not apply is reported in one run; nothing lands' '
	fresh two &&
	cat >two.diff <<-\EOF &&
	--- a/mod.py
	+++ b/mod.py
	@@ -4,2 +4,2 @@
	 def a():
	-    return 10
	+    return 11
	@@ -7,3 +7,3 @@
	 
	 def b():
	-    return 2
	+    return 22
	@@ -8,2 +8,2 @@
	 def b():
	-    return 20
	+    return 21
	EOF
	(
		cd two &&
		test_rejected ../two.diff
	) &&
	test $(grep -c "^error: mod.py: ../two.diff:" two/err) = 2 &&
	test_grep "^error: mod.py: ../two.diff:3: " two/err &&
	test_grep "^error: mod.py: ../two.diff:12: " two/err
'

# Assistants often end a hunk on its changed line and get the numbers
# wrong: such a hunk, with no history that puts it at an edge, is placed
# by its lines as before (the edge rule only steers the history search).
test_expect_success 'a hunk ending on its changed line, numbers off, still lands' '
	fresh loose &&
	cat >loose.diff <<-\EOF &&
	--- a/mod.py
	+++ b/mod.py
	@@ -1,2 +1,2 @@
	 def a():
	-    return 1
	+    return 10
	EOF
	(
		cd loose &&
		git ai-apply ../loose.diff 2>../loose.err &&
		test "$(sed -n 5p mod.py)" = "    return 10" &&
		test $(grep -v "^staged 1 file" ../loose.err | wc -l) = 1 &&
		test_grep "rung 2" ../loose.err
	)
'

test_done
