#!/bin/sh

test_description='a hunk cut at an edge of the file lands only where its context really is at that edge, on every rung'

. "$(dirname "$0")/test-lib.sh"

# f.c: three functions, b() in the middle; g.c: b() and c() end with
# the same lines; a.py: "import os" at the top and inside f(); w.c: f.c's
# shape with CRLF line ends.
test_expect_success 'setup' '
	git init -q repo &&
	(
		cd repo &&
		printf "int a(void)\n{\n\treturn 1;\n}\n\nint b(void)\n{\n\tint x = 2;\n\treturn x;\n}\n\nint c(void)\n{\n\treturn 3;\n}\n" >f.c &&
		printf "int a(void)\n{\n\treturn 1;\n}\n\nint b(void)\n{\n\tint x = 2;\n\treturn x;\n}\n\nint c(void)\n{\n\tint x = 2;\n\treturn x;\n}\n" >g.c &&
		printf "import os\nimport sys\n\n\ndef f():\n    import os\n    return os\n" >a.py &&
		printf "int a(void)\r\n{\r\n\treturn 1;\r\n}\r\n\r\nint b(void)\r\n{\r\n\tint x = 2;\r\n\treturn x;\r\n}\r\n\r\nint c(void)\r\n{\r\n\treturn 3;\r\n}\r\n" >w.c &&
		git add . &&
		git commit -q -m base
	) &&
	AIAPPLY_HISTORY_MAX_VERSIONS=0 &&
	export AIAPPLY_HISTORY_MAX_VERSIONS
'

# Appends to b() in the middle, written against a b() whose first line
# has changed since: only the last context line "}" is left (rung 4's
# core), and it is also the last line of the file.
test_expect_success 'rung 4: a "}" at the end of the file is not b()'"'"'s end: refused' '
	cat >core.diff <<-\EOF &&
	--- a/f.c
	+++ b/f.c
	@@ -7,3 +7,5 @@
	 	int x = 20;
	 	return x;
	 }
	+
	+int b2(void);
	EOF
	fresh core &&
	(
		cd core &&
		test_rejected ../core.diff &&
		test_grep "error: f.c: ../core.diff:3: hunk does not apply" err &&
		test_grep "closest: lines 8-10" err &&
		test_must_fail git apply --check ../core.diff 2>/dev/null
	)
'

test_expect_success 'rung 4 with CRLF line ends: refused the same way' '
	sed "s/f\.c/w.c/g" core.diff >crlf.diff &&
	fresh crlf &&
	(
		cd crlf &&
		test_rejected ../crlf.diff &&
		test_grep "error: w.c: ../crlf.diff:3: hunk does not apply" err
	)
'

test_expect_success 'rung 4: the left-out context is at the end of the file: lands there' '
	cat >tail.diff <<-\EOF &&
	--- a/f.c
	+++ b/f.c
	@@ -12,4 +12,6 @@
	 int c(int y)
	 {
	 	return 3;
	 }
	+
	+int d(void);
	EOF
	fresh tail &&
	(
		cd tail &&
		git ai-apply ../tail.diff 2>../tail.err &&
		test_grep "rung 4" ../tail.err &&
		test "$(tail -n 3 f.c)" = "$(printf "}\n\nint d(void);")" &&
		test $(wc -l <f.c) = 17
	)
'

test_expect_success 'rung 3: context with blanks ignored in the middle and at the end: refused, the line named' '
	printf -- "--- a/g.c\n+++ b/g.c\n@@ -8,3 +8,5 @@\n \tint x = 2; \n \treturn x;\n }\n+\n+int b2(void);\n" >ws.diff &&
	fresh ws &&
	(
		cd ws &&
		test_rejected ../ws.diff &&
		test_grep "error: g.c: ../ws.diff:3: hunk is anchored to the end of the file.*its lines are at line 8, but 6 more line(s) follow them" err
	)
'

test_expect_success 'rung 3: context with blanks ignored at the end only: lands there' '
	printf -- "--- a/f.c\n+++ b/f.c\n@@ -13,3 +13,5 @@\n {\n \treturn 3; \n }\n+\n+int d(void);\n" >ws1.diff &&
	fresh ws1 &&
	(
		cd ws1 &&
		git ai-apply ../ws1.diff 2>../ws1.err &&
		test_grep "rung 3" ../ws1.err &&
		test "$(tail -n 1 f.c)" = "int d(void);" &&
		test $(wc -l <f.c) = 17
	)
'

test_expect_success 'rung 5: a blank line drifted, two places: refused' '
	printf -- "--- a/g.c\n+++ b/g.c\n@@ -8,4 +8,6 @@\n \tint x = 2;\n \n \treturn x;\n }\n+\n+int b2(void);\n" >drift.diff &&
	fresh drift &&
	(
		cd drift &&
		test_rejected ../drift.diff &&
		test_grep "error: g.c: ../drift.diff:3: hunk is ambiguous" err
	)
'

test_expect_success 'rung 5: a blank line drifted, at the end only: lands there' '
	printf -- "--- a/f.c\n+++ b/f.c\n@@ -13,4 +13,6 @@\n {\n \n \treturn 3;\n }\n+\n+int d(void);\n" >drift1.diff &&
	fresh drift1 &&
	(
		cd drift1 &&
		git ai-apply ../drift1.diff 2>../drift1.err &&
		test_grep "rung 5" ../drift1.err &&
		test "$(tail -n 1 f.c)" = "int d(void);" &&
		test $(wc -l <f.c) = 17
	)
'

# git apply (match_end) and GNU patch land it at the end too: the exact
# lines are there, and the hunk says it ends the file.
test_expect_success 'rung 1: exact context in the middle and at the end: the end, as git apply' '
	printf -- "--- a/g.c\n+++ b/g.c\n@@ -8,3 +8,5 @@\n \tint x = 2;\n \treturn x;\n }\n+\n+int b2(void);\n" >exact.diff &&
	fresh exact &&
	(
		cd exact &&
		git apply ../exact.diff &&
		cp g.c ../exact.expect &&
		git checkout -q g.c &&
		git ai-apply ../exact.diff &&
		test_cmp ../exact.expect g.c
	)
'

test_expect_success 're-applied: the second run is a no-op' '
	fresh again &&
	(
		cd again &&
		git ai-apply ../tail.diff 2>/dev/null &&
		git commit -q -a -m once &&
		git ai-apply ../tail.diff >../again.out 2>&1 &&
		test_grep "already applied" ../again.out &&
		git diff --exit-code HEAD &&
		test $(wc -l <f.c) = 17
	)
'

# Its added lines end with "}", as the core's last context line does:
# applied once, the core would match the new end of the file again.
test_expect_success 're-applied, the hunk adds a function: not added twice' '
	cat >fn.diff <<-\EOF &&
	--- a/f.c
	+++ b/f.c
	@@ -12,4 +12,9 @@
	 int c(int y)
	 {
	 	return 3;
	 }
	+
	+int d(void)
	+{
	+	return 4;
	+}
	EOF
	fresh fn &&
	(
		cd fn &&
		git ai-apply ../fn.diff 2>/dev/null &&
		git commit -q -a -m once &&
		git ai-apply ../fn.diff >../fn.out 2>&1 &&
		test_grep "already applied" ../fn.out &&
		git diff --exit-code HEAD &&
		test $(grep -c "^int d" f.c) = 1
	)
'

test_expect_success 're-applied after a rung 3 landing: a no-op' '
	fresh again3 &&
	(
		cd again3 &&
		git ai-apply ../ws1.diff 2>/dev/null &&
		git commit -q -a -m once &&
		git ai-apply ../ws1.diff >../again3.out 2>&1 &&
		test_grep "already applied" ../again3.out &&
		git diff --exit-code HEAD
	)
'

test_expect_success 'start anchor, rung 4: the core at line 1, the context inside f(): refused, the line named' '
	printf -- "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,3 @@\n+import re\n     import os\n     return os\n" >start.diff &&
	fresh start &&
	(
		cd start &&
		test_rejected ../start.diff &&
		test_grep "error: a.py: ../start.diff:3: hunk is anchored to the start of the file.*its lines are at line 6" err
	)
'

test_expect_success 'start anchor, rung 4: the context changed at the top: lands at line 1' '
	printf -- "--- a/a.py\n+++ b/a.py\n@@ -1,3 +1,4 @@\n+import re\n import os\n import json\n \n" >start1.diff &&
	fresh start1 &&
	(
		cd start1 &&
		git ai-apply ../start1.diff 2>../start1.err &&
		test_grep "rung 4" ../start1.err &&
		test "$(head -n 2 a.py)" = "$(printf "import re\nimport os")"
	)
'

test_expect_success 'a header past the end of the file, its context ending the file: lands there' '
	printf -- "--- a/f.c\n+++ b/f.c\n@@ -40,3 +40,5 @@\n {\n \treturn 3;\n }\n+\n+int d(void);\n" >far.diff &&
	fresh far &&
	(
		cd far &&
		git ai-apply ../far.diff 2>/dev/null &&
		test "$(tail -n 1 f.c)" = "int d(void);" &&
		test $(wc -l <f.c) = 17
	)
'

test_expect_success 'a header past the end, its context in the middle only: refused, the line named' '
	printf -- "--- a/f.c\n+++ b/f.c\n@@ -40,3 +40,5 @@\n \tint x = 2;\n \treturn x;\n }\n+\n+int b2(void);\n" >farmid.diff &&
	fresh farmid &&
	(
		cd farmid &&
		test_rejected ../farmid.diff &&
		test_grep "error: f.c: ../farmid.diff:3: hunk is anchored to the end of the file.*its lines are at line 8, but 5 more line(s) follow them" err
	)
'

test_done
