#!/bin/sh

test_description='v4a "@@" anchors name a region: the chunk must match once inside it'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: a class whose methods share lines, and a C file' '
	git init -q repo &&
	(
		cd repo &&
		cat >w.py <<-\EOF &&
		import os


		class Writer:
		    def open(self):
		        self.buf = []
		        self.count = 0

		    def reset(self):
		        self.buf = []
		        self.count = 0


		class Reader:
		    def reset(self):
		        self.buf = []
		        self.count = 0
		EOF
		cat >w.c <<-\EOF &&
		struct writer {
		    int count;
		};

		int writer_open(struct writer *w)
		{
		    w->count = 0;
		    return 0;
		}

		int writer_reset(struct writer *w) {
		    w->count = 0;
		    return 0;
		}
		EOF
		git add . &&
		git commit -q -m base &&
		git tag base
	)
'

test_expect_success 'a chunk that matches in two methods of the anchored class: refused, the places listed' '
	cat >class.md <<-\EOF &&
	*** Begin Patch
	*** Update File: w.py
	@@ class Writer:
	-        self.buf = []
	+        self.buf = None
	*** End Patch
	EOF
	(
		cd repo &&
		test_rejected ../class.md &&
		test_grep "error: w.py: ../class.md:3: hunk is ambiguous: it matches 2 places, at lines 6 and 10 inside the region that \"class Writer:\" (line 4) opens, lines 4-13" err
	)
'

test_expect_success 'nested anchors narrow the region: class, then method' '
	cat >nested.md <<-\EOF &&
	*** Begin Patch
	*** Update File: w.py
	@@ class Writer:
	@@     def reset(self):
	-        self.buf = []
	+        self.buf = None
	*** End Patch
	EOF
	fresh nested &&
	(
		cd nested &&
		git ai-apply ../nested.md 2>../nested.err &&
		test "$(sed -n 10p w.py)" = "        self.buf = None" &&
		test "$(sed -n 6p w.py)" = "        self.buf = []" &&
		test "$(sed -n 16p w.py)" = "        self.buf = []" &&
		! test_grep "rung 2" ../nested.err
	)
'

test_expect_success 'the anchored class decides between two classes' '
	cat >reader.md <<-\EOF &&
	*** Begin Patch
	*** Update File: w.py
	@@ class Reader:
	     def reset(self):
	-        self.buf = []
	+        self.buf = None
	*** End Patch
	EOF
	fresh reader &&
	(
		cd reader &&
		git ai-apply ../reader.md &&
		test "$(sed -n 16p w.py)" = "        self.buf = None" &&
		test "$(sed -n 10p w.py)" = "        self.buf = []"
	)
'

test_expect_success 'a nested anchor not inside the outer region: refused' '
	cat >outside.md <<-\EOF &&
	*** Begin Patch
	*** Update File: w.py
	@@ class Reader:
	@@     def open(self):
	-        self.buf = []
	+        self.buf = None
	*** End Patch
	EOF
	(
		cd repo &&
		test_rejected ../outside.md &&
		test_grep "error: w.py: ../outside.md:3: v4a: the chunk.s context line \"    def open(self):\" is not inside the region that \"class Reader:\" (line 14) opens, lines 14-17" err
	)
'

test_expect_success 'a chunk whose lines lie outside its region: refused, saying where they are' '
	cat >off.md <<-\EOF &&
	*** Begin Patch
	*** Update File: w.py
	@@ class Writer:
	-import os
	+import sys
	*** End Patch
	EOF
	(
		cd repo &&
		test_rejected ../off.md &&
		test_grep "error: w.py: ../off.md:3: hunk does not apply: no place has its context and removed lines inside the region that \"class Writer:\" (line 4) opens, lines 4-13; its lines are at line 1, outside it" err
	)
'

test_expect_success 'a chunk that starts with the anchor line itself lands' '
	cat >self.md <<-\EOF &&
	*** Begin Patch
	*** Update File: w.py
	@@     def open(self):
	     def open(self):
	-        self.buf = []
	+        self.buf = None
	*** End Patch
	EOF
	fresh self &&
	(
		cd self &&
		git ai-apply ../self.md &&
		test "$(sed -n 6p w.py)" = "        self.buf = None"
	)
'

test_expect_success 'braces: the function on the anchor line, its brace on the next line or the same' '
	cat >c.md <<-\EOF &&
	*** Begin Patch
	*** Update File: w.c
	@@ int writer_reset(struct writer *w) {
	-    w->count = 0;
	+    w->count = -1;
	@@ int writer_open(struct writer *w)
	-    return 0;
	+    return 1;
	*** End Patch
	EOF
	fresh braces &&
	(
		cd braces &&
		test_rejected ../c.md &&
		test_grep "w.c: ../c.md:6: v4a: the chunk.s context line \"int writer_open(struct writer \*w)\" is not in the file after line 11" err
	) &&
	cat >c2.md <<-\EOF &&
	*** Begin Patch
	*** Update File: w.c
	@@ int writer_open(struct writer *w)
	-    return 0;
	+    return 1;
	@@ int writer_reset(struct writer *w) {
	-    w->count = 0;
	+    w->count = -1;
	*** End Patch
	EOF
	(
		cd braces &&
		git ai-apply ../c2.md &&
		test "$(sed -n 8p w.c)" = "    return 1;" &&
		test "$(sed -n 12p w.c)" = "    w->count = -1;" &&
		test "$(sed -n 13p w.c)" = "    return 0;" &&
		test "$(sed -n 7p w.c)" = "    w->count = 0;"
	)
'

test_expect_success 'braces: a chunk in two functions under a struct anchor is not in its region' '
	cat >struct.md <<-\EOF &&
	*** Begin Patch
	*** Update File: w.c
	@@ struct writer {
	-    return 0;
	+    return 1;
	*** End Patch
	EOF
	(
		cd repo &&
		test_rejected ../struct.md &&
		test_grep "inside the region that \"struct writer {\" (line 1) opens, lines 1-3; its lines are at lines 8 and 13, outside it" err
	)
'

test_expect_success 'a chunk that starts inside the region may run past its end' '
	cat >past.md <<-\EOF &&
	*** Begin Patch
	*** Update File: w.py
	@@ class Writer:
	         self.count = 0
	+
	+    def close(self):
	+        pass
	 
	 
	 class Reader:
	*** End Patch
	EOF
	fresh past &&
	(
		cd past &&
		git ai-apply ../past.md 2>../past.err &&
		test "$(sed -n 13p w.py)" = "    def close(self):" &&
		test "$(sed -n 17p w.py)" = "class Reader:" &&
		test "$(sed -n 7p w.py)" = "        self.count = 0"
	)
'

test_expect_success '--json: the anchored chunk is placed by content in its region' '
	fresh json &&
	(
		cd json &&
		git ai-apply --json ../nested.md >../nested.json &&
		test_grep "\"how\":	\"content\"" ../nested.json &&
		test_grep "\"line\":	10" ../nested.json
	)
'

test_done
