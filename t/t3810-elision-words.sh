#!/bin/sh

test_description='a comment that reads like an elision only by its words ("unchanged", "keep existing") is content unless lines of the original are missing where it stands'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: a three-line file' '
	git init -q repo &&
	(
		cd repo &&
		printf "int a;\nint b;\nint c;\n" >f.c &&
		printf "def f():\n    return 1\n\ndef g():\n    return 2\n" >g.py &&
		git add . &&
		git commit -q -m base
	)
'

test_expect_success 'a worded comment between lines adjacent in the file is written' '
	cat >kept.md <<-\EOF &&
	f.c
	```c
	int a;
	// c: unchanged
	int b;
	int c;
	int d;
	```
	EOF
	fresh w-kept &&
	(
		cd w-kept &&
		git ai-apply ../kept.md >out &&
		echo "M f.c (+2 -0)" >expect.out &&
		test_cmp expect.out out &&
		printf "int a;\n// c: unchanged\nint b;\nint c;\nint d;\n" >expect &&
		staged_as f.c expect
	)
'

test_expect_success 'a "keep existing" comment that stands for nothing: the file gains that line only' '
	cat >keep.md <<-\EOF &&
	f.c
	```c
	int a;
	// keep existing behaviour for b
	int b;
	int c;
	```
	EOF
	fresh w-keep &&
	(
		cd w-keep &&
		git ai-apply ../keep.md >out &&
		echo "M f.c (+1 -0)" >expect.out &&
		test_cmp expect.out out &&
		printf "int a;\n// keep existing behaviour for b\nint b;\nint c;\n" >expect &&
		staged_as f.c expect
	)
'

test_expect_success 'worded comments at the start and the end of the file, and two in a row, are written' '
	cat >edges.md <<-\EOF &&
	f.c
	```c
	// the API is unchanged
	int a;

	// a: as before
	// b: no changes
	int b;
	int c;
	// rest of the declarations follow in g.c
	```
	EOF
	fresh w-edges &&
	(
		cd w-edges &&
		git ai-apply ../edges.md >out &&
		echo "M f.c (+5 -0)" >expect.out &&
		test_cmp expect.out out &&
		printf "// the API is unchanged\nint a;\n\n// a: as before\n// b: no changes\nint b;\nint c;\n// rest of the declarations follow in g.c\n" >expect &&
		staged_as f.c expect
	)
'

test_expect_success 'a worded comment where lines are missing is still an elision: they are put back' '
	cat >real.md <<-\EOF &&
	f.c
	```c
	int a;
	// rest unchanged
	int c;
	int d;
	```
	EOF
	fresh w-real &&
	(
		cd w-real &&
		git ai-apply ../real.md >out &&
		echo "M f.c (+1 -0)" >expect.out &&
		test_cmp expect.out out &&
		printf "int a;\nint b;\nint c;\nint d;\n" >expect &&
		staged_as f.c expect
	)
'

test_expect_success 'a Python "# rest of the file unchanged" after a kept line still stands for the rest' '
	cat >py.md <<-\EOF &&
	g.py
	```python
	def f():
	    return 10

	def g():
	# rest of the file unchanged
	```
	EOF
	fresh w-py &&
	(
		cd w-py &&
		git ai-apply ../py.md >out &&
		printf "def f():\n    return 10\n\ndef g():\n    return 2\n" >expect &&
		staged_as g.py expect
	)
'

test_expect_success 'an ellipsis placeholder after the last line stands for nothing and is dropped' '
	cat >dots.md <<-\EOF &&
	f.c
	```c
	int a;
	int bb;
	int c;
	// ... rest of file
	```
	EOF
	fresh w-dots &&
	(
		cd w-dots &&
		git ai-apply ../dots.md >out &&
		echo "M f.c (+1 -1)" >expect.out &&
		test_cmp expect.out out &&
		printf "int a;\nint bb;\nint c;\n" >expect &&
		staged_as f.c expect
	)
'

test_expect_success 'a worded comment between lines it cannot place is refused, naming its line' '
	cat >lost.md <<-\EOF &&
	f.c
	```c
	int x;
	// rest unchanged
	int c;
	```
	EOF
	(
		cd repo &&
		test_rejected ../lost.md &&
		test_grep "error: f.c: ../lost.md:4: the elision \"// rest unchanged\" cannot be resolved: the line \"int x;\" it follows is not in the file" err
	)
'

test_expect_success 'in a SEARCH/REPLACE block: a worded comment standing for nothing is written' '
	cat >sr.md <<-\EOF &&
	f.c
	```c
	<<<<<<< SEARCH
	int a;
	int b;
	=======
	int a;
	// b: unchanged
	int b;
	>>>>>>> REPLACE
	```
	EOF
	fresh w-sr &&
	(
		cd w-sr &&
		git ai-apply ../sr.md >out &&
		echo "M f.c (+1 -0)" >expect.out &&
		test_cmp expect.out out &&
		printf "int a;\n// b: unchanged\nint b;\nint c;\n" >expect &&
		staged_as f.c expect
	)
'

test_expect_success 'in a SEARCH/REPLACE block: a worded comment standing for SEARCH lines puts them back' '
	cat >sr-real.md <<-\EOF &&
	f.c
	```c
	<<<<<<< SEARCH
	int a;
	int b;
	int c;
	=======
	int a;
	// rest unchanged
	int c;
	int d;
	>>>>>>> REPLACE
	```
	EOF
	fresh w-sr-real &&
	(
		cd w-sr-real &&
		git ai-apply ../sr-real.md >out &&
		echo "M f.c (+1 -0)" >expect.out &&
		test_cmp expect.out out &&
		printf "int a;\nint b;\nint c;\nint d;\n" >expect &&
		staged_as f.c expect
	)
'

test_expect_success 'a worded comment added by a unified diff is content' '
	cat >diff.md <<-\EOF &&
	--- a/f.c
	+++ b/f.c
	@@ -1,3 +1,4 @@
	 int a;
	+// rest unchanged
	 int b;
	 int c;
	EOF
	fresh w-diff &&
	(
		cd w-diff &&
		git ai-apply ../diff.md >out &&
		echo "M f.c (+1 -0)" >expect.out &&
		test_cmp expect.out out &&
		printf "int a;\n// rest unchanged\nint b;\nint c;\n" >expect &&
		staged_as f.c expect
	)
'

test_expect_success 'in a SEARCH/REPLACE block: a comment that trails off with "..." is the answer'"'"'s own line' '
	cat >trail.md <<-\EOF &&
	f.c
	```c
	<<<<<<< SEARCH
	int a;
	int b;
	=======
	int a;
	// the value is read later...
	int b;
	>>>>>>> REPLACE
	```
	EOF
	fresh w-trail &&
	(
		cd w-trail &&
		git ai-apply ../trail.md >out &&
		printf "int a;\n// the value is read later...\nint b;\nint c;\n" >expect &&
		staged_as f.c expect
	)
'

test_expect_success 'a trailing-off comment next to a new line lands too (it was refused as an elision)' '
	cat >trail2.md <<-\EOF &&
	f.c
	```c
	<<<<<<< SEARCH
	int a;
	int b;
	int c;
	=======
	int a;
	// and then we wait for it...
	// until the end
	int c;
	>>>>>>> REPLACE
	```
	EOF
	fresh w-trail2 &&
	(
		cd w-trail2 &&
		git ai-apply ../trail2.md >out &&
		printf "int a;\n// and then we wait for it...\n// until the end\nint c;\n" >expect &&
		staged_as f.c expect
	)
'

test_done
