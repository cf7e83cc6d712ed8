#!/bin/sh

test_description='a change that already stands elsewhere in the file is not landed a second time; identical hunks each take a place; history needs the answer'"'"'s other edits'

. "$(dirname "$0")/test-lib.sh"

# tests.sh: a list of checks that each end in "fi" and a blank line,
# and "exit 0" at the end. The answer appends one check; upstream then
# appended another after it, so the answer's old lines ("fi", blank,
# "exit 0") stand again at the end, while its change stands above.
test_expect_success 'setup: a list that grew after the answer landed' '
	git init -q repo &&
	(
		cd repo &&
		cat >tests.sh <<-\EOF &&
		#!/bin/sh
		if check_one; then
		  echo one failed
		  exit 1
		fi

		exit 0
		EOF
		git add tests.sh &&
		git commit -q -m base &&
		git tag seen &&
		cat >tests.sh <<-\EOF &&
		#!/bin/sh
		if check_one; then
		  echo one failed
		  exit 1
		fi

		# two: the answer
		if check_two; then
		  echo two failed
		  exit 1
		fi

		# three: upstream, later
		if check_three; then
		  echo three failed
		  exit 1
		fi

		exit 0
		EOF
		git commit -q -a -m "two and three" &&
		git tag base
	) &&
	cat >append.diff <<-\EOF &&
	--- a/tests.sh
	+++ b/tests.sh
	@@ -3,4 +3,10 @@
	   exit 1
	 fi
	 
	+# two: the answer
	+if check_two; then
	+  echo two failed
	+  exit 1
	+fi
	+
	 exit 0
	EOF
	cat >append-sr.md <<-\EOF &&
	tests.sh
	```sh
	<<<<<<< SEARCH
	fi

	exit 0
	=======
	fi

	# two: the answer
	if check_two; then
	  echo two failed
	  exit 1
	fi

	exit 0
	>>>>>>> REPLACE
	```
	EOF
	cat >append.v4a <<-\EOF
	*** Begin Patch
	*** Update File: tests.sh
	@@
	 fi
	 
	+# two: the answer
	+if check_two; then
	+  echo two failed
	+  exit 1
	+fi
	+
	 exit 0
	*** End Patch
	EOF
'

for answer in append.diff append-sr.md append.v4a
do
	test_expect_success "$answer: its lines stand above, its old lines at the end: refused, nothing written" '
		fresh "w-$answer" &&
		(
			cd "w-$answer" &&
			test_rejected "../$answer" &&
			test_grep "already stand at line 5\\|conflicts with the current content" err
		)
	'
done

test_expect_success 'git apply lands it a second time (the peer this differs from)' '
	fresh w-git &&
	(
		cd w-git &&
		git apply ../append.diff &&
		test "$(grep -c "# two: the answer" tests.sh)" = 2
	)
'

test_expect_success 'the same answer on the file it was written for lands' '
	fresh w-seen &&
	(
		cd w-seen &&
		git checkout -q seen &&
		git ai-apply ../append.diff &&
		test "$(grep -c "# two: the answer" tests.sh)" = 1 &&
		test "$(grep -c "exit 0" tests.sh)" = 1
	)
'

# loops.sh: two loops that end in "done" and a blank line. The answer
# changes the second loop and adds a line after it. Once it is in (here
# committed upstream), its second chunk's old lines ("done", blank)
# stand once more, at the first loop, and its change after the second:
# the chunk before it says which.
test_expect_success 'setup: an answer whose old lines stay elsewhere once applied' '
	git init -q loops &&
	(
		cd loops &&
		cat >loops.sh <<-\EOF &&
		for a in 1 2; do
		  echo "$a"
		done

		for c in x y; do
		  COLOR=$c show
		done

		echo end
		EOF
		git add loops.sh &&
		git commit -q -m base &&
		git tag base &&
		cat >loops.sh <<-\EOF &&
		for a in 1 2; do
		  echo "$a"
		done

		for c in x y; do
		  export COLOR=$c
		  show
		done
		unset COLOR

		echo end
		EOF
		git commit -q -a -m "the answer, upstream" &&
		git tag applied
	) &&
	cat >loops.v4a <<-\EOF &&
	*** Begin Patch
	*** Update File: loops.sh
	@@
	 for c in x y; do
	-  COLOR=$c show
	+  export COLOR=$c
	+  show
	@@
	 done
	+unset COLOR
	 
	*** End Patch
	EOF
	cat >loops-sr.md <<-\EOF
	loops.sh
	```sh
	<<<<<<< SEARCH
	for c in x y; do
	  COLOR=$c show
	=======
	for c in x y; do
	  export COLOR=$c
	  show
	>>>>>>> REPLACE
	```

	loops.sh
	```sh
	<<<<<<< SEARCH
	done

	=======
	done
	unset COLOR

	>>>>>>> REPLACE
	```
	EOF
'

for answer in loops.v4a loops-sr.md
do
	test_expect_success "$answer on the file that has it: nothing changes" '
		rm -rf "l-$answer" && cp -R loops "l-$answer" &&
		(
			cd "l-$answer" &&
			repo_snapshot again &&
			git ai-apply "../$answer" 2>../l.err &&
			repo_unchanged again &&
			test_grep "already applied" ../l.err &&
			! grep "^error" ../l.err
		)
	'
done

test_expect_success 'the same change meant for a second place: the hunk before it says which' '
	rm -rf l3 && cp -R loops l3 &&
	(
		cd l3 &&
		git checkout -q base &&
		sed -i "3a unset COLOR" loops.sh &&
		git commit -q -a -m "first loop has it" &&
		git ai-apply ../loops.v4a &&
		test "$(grep -c "unset COLOR" loops.sh)" = 2 &&
		test "$(sed -n 10p loops.sh)" = "unset COLOR"
	)
'

# Four identical hunks with wrong line numbers: any hunk may take any of
# the four places, but each place once; a hunk is not "already applied"
# by the lines an earlier hunk of the same answer wrote.
test_expect_success 'four identical hunks, numbers off: every place changed once' '
	git init -q four &&
	(
		cd four &&
		for f in a b c d
		do
			printf "%s\n" "int $f(void) {" "  int r = old();" "  return r;" "}" "" || return 1
		done >f.c &&
		git add f.c &&
		git commit -q -m base &&
		cat >../four.diff <<-\EOF &&
		--- a/f.c
		+++ b/f.c
		@@ -9,3 +9,2 @@
		-  int r = old();
		-  return r;
		+  return new();
		 }
		@@ -8,3 +7,2 @@
		-  int r = old();
		-  return r;
		+  return new();
		 }
		@@ -17,3 +15,2 @@
		-  int r = old();
		-  return r;
		+  return new();
		 }
		@@ -19,3 +16,2 @@
		-  int r = old();
		-  return r;
		+  return new();
		 }
		EOF
		git ai-apply ../four.diff &&
		test "$(grep -c "return new();" f.c)" = 4 &&
		! grep "old()" f.c
	)
'

# Two SEARCH blocks of one file in separate fences; the second block's
# SEARCH matches twice now, once in an older version (where the place
# the first block edits did not exist yet). That older version is not
# the one the answer saw: refused as ambiguous, not merged from it.
test_expect_success 'history: a version must hold the old lines of the answer'"'"'s other blocks' '
	git init -q hist &&
	(
		cd hist &&
		printf "%s\n" "loop one" "done" "" "tail" >f.sh &&
		git add f.sh &&
		git commit -q -m old &&
		printf "%s\n" "loop one" "done" "" "loop two" "  COLOR=x show" "done" "" "tail" >f.sh &&
		git commit -q -a -m "loop two" &&
		cat >../hist.md <<-\EOF &&
		f.sh
		```
		<<<<<<< SEARCH
		  COLOR=x show
		=======
		  export COLOR=x
		  show
		>>>>>>> REPLACE
		```

		f.sh
		```
		<<<<<<< SEARCH
		done

		=======
		done
		unset COLOR

		>>>>>>> REPLACE
		```
		EOF
		test_rejected ../hist.md &&
		test_grep "ambiguous" err &&
		! grep "merged" err
	)
'

test_expect_success 'v4a: two chunks under the same @@ anchor, both in that function' '
	git init -q anchors &&
	(
		cd anchors &&
		printf "%s\n" "def f():" "    a = 1" "    b = 2" "    c = 3" "    d = 4" "" "def g():" "    a = 1" >m.py &&
		git add m.py &&
		git commit -q -m base &&
		cat >../anchors.v4a <<-\EOF &&
		*** Begin Patch
		*** Update File: m.py
		@@ def f():
		-    a = 1
		+    a = 10
		@@ def f():
		-    d = 4
		+    d = 40
		*** End Patch
		EOF
		git ai-apply ../anchors.v4a &&
		printf "%s\n" "def f():" "    a = 10" "    b = 2" "    c = 3" "    d = 40" "" "def g():" "    a = 1" >expect &&
		test_cmp expect m.py
	)
'

# Rung 2 keeps the hunks in the file's order: the second hunk's header
# is 40 lines off, towards a copy of its context before the first hunk.
test_expect_success 'a hunk whose header is off does not land before the hunk before it' '
	git init -q order &&
	(
		cd order &&
		{
			printf "%s\n" "[one]" "  via: common" "  pkg: a"
			for i in $(test_seq 1 30); do echo "filler $i"; done
			printf "%s\n" "[two]" "  tag: x" "" "[three]" "  via: common" "  pkg: a"
		} >deps.txt &&
		git add deps.txt &&
		git commit -q -m base &&
		cat >../order.diff <<-\EOF &&
		--- a/deps.txt
		+++ b/deps.txt
		@@ -34,2 +34,2 @@
		 [two]
		-  tag: x
		+  tag: y
		@@ -5,2 +5,3 @@
		   via: common
		+  pkg: b
		   pkg: a
		EOF
		git ai-apply ../order.diff &&
		test "$(sed -n 3p deps.txt)" = "  pkg: a" &&
		test "$(sed -n 39p deps.txt)" = "  pkg: b"
	)
'

test_done
