#!/bin/sh

test_description='a newcomer'"'"'s first session, as the README shows it: paste an answer, preview it, land it, review it, undo it, land answers on branches of their own, list them, merge one'

. "$(dirname "$0")/test-lib.sh"

# The README's five workflows are the commands this script runs; if the
# README stops showing one, this script no longer follows it.
test_expect_success 'the README shows the commands this session runs' '
	readme="$AA_TEST_DIR/../README.md" &&
	test_grep "^git ai-apply answer.md " "$readme" &&
	test_grep "^git ai-apply --stat answer.md " "$readme" &&
	test_grep "^git ai-apply --diff answer.md " "$readme" &&
	test_grep "^git ai-apply --review " "$readme" &&
	test_grep "git ai-apply --undo" "$readme" &&
	test_grep "^git ai-apply --branch=try --each a.md b.md c.md " "$readme" &&
	test_grep "^git ai-apply --list " "$readme" &&
	test_grep "with no file reads the answer from standard input" "$readme"
'

test_expect_success 'a scratch project with one commit' '
	git init -q project &&
	(
		cd project &&
		cat >app.py <<-\EOF &&
		def greet(name):
		    return "hello " + name


		def main():
		    print(greet("world"))
		EOF
		git add app.py &&
		git commit -q -m "first"
	)
'

# The answer as a chat gives it: prose, a sentence naming the file, a
# fenced SEARCH/REPLACE block.
test_expect_success 'an answer copied from a chat' '
	cat >answer.md <<-\EOF
	Sure! To make the greeting friendlier, update `app.py`:

	```python
	<<<<<<< SEARCH
	    return "hello " + name
	=======
	    return "Hello, " + name + "!"
	>>>>>>> REPLACE
	```

	Let me know if you want anything else.
	EOF
'

test_expect_success 'pasted on standard input, previewed: --stat and --diff write nothing' '
	(
		cd project &&
		repo_snapshot preview &&
		git ai-apply --stat <../answer.md >../stat &&
		git ai-apply --diff <../answer.md >../diff &&
		repo_unchanged preview
	) &&
	test_grep "^ app.py |  *2 +-$" stat &&
	test_grep "^-    return \"hello \" + name$" diff &&
	test_grep "^+    return \"Hello, \" + name + \"!\"$" diff
'

test_expect_success 'landed: staged, and the run says so and what comes next' '
	(
		cd project &&
		git ai-apply ../answer.md >../out 2>../err
	) &&
	test_grep "^M app.py (+1 -1)$" out &&
	test_grep "^staged 1 file and wrote it to the work tree; review: git diff --cached" err &&
	test_grep "undo: git ai-apply --undo" err &&
	git -C project diff --cached --name-only >staged &&
	echo app.py >expect &&
	test_cmp expect staged &&
	test_grep "Hello, " project/app.py
'

test_expect_success 'reviewed: --review shows the staged AI change' '
	git -C project ai-apply --review >review &&
	test_grep "app.py: 1 edit, 0 tolerant" review &&
	test_grep "^  +    return \"Hello, \" + name + \"!\"$" review
'

test_expect_success 'undone: --undo puts the index and the file back' '
	git -C project ai-apply --undo >out 2>err &&
	test_grep "^M app.py" out &&
	git -C project diff --cached --quiet &&
	git -C project diff --quiet &&
	test_grep "return \"hello \" + name" project/app.py &&
	test_expect_code 1 git -C project ai-apply --undo 2>err &&
	test_grep "nothing to undo" err
'

test_expect_success 'three answers, a branch each; --list says which merge' '
	sed "s/Hello, /Hi, /" answer.md >a.md &&
	sed "s/Hello, /Hey, /" answer.md >b.md &&
	sed "s/Hello, /Howdy, /" answer.md >c.md &&
	(
		cd project &&
		repo_snapshot before_each &&
		git ai-apply --branch=try --each ../a.md ../b.md ../c.md >../out 2>../err &&
		git diff --cached --quiet && git diff --quiet &&
		git ai-apply --list >../list
	) &&
	test_grep "^branch try-1: " out &&
	test_grep "^branch try-3: " out &&
	test_grep "git branch -D" err &&
	test_grep "^try-1  *merges " list &&
	test_grep "^try-2  *merges " list &&
	test_grep "^try-3  *merges " list
'

test_expect_success 'one merged, the others deleted; the list is empty' '
	(
		cd project &&
		git merge -q --ff-only try-2 &&
		git branch -D -q try-1 try-3 &&
		git branch -D -q try-2 &&
		git ai-apply --list >../list
	) &&
	test_grep "Hey, " project/app.py &&
	test_must_be_empty list
'

test_done
