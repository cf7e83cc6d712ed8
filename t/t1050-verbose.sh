#!/bin/sh

test_description='-v / --verbose: each placement on standard error, framed as git apply -v'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	git init -q repo &&
	(
		cd repo &&
		seq 1 20 >n.txt &&
		printf "a\nb\n" >a.txt &&
		printf "def f():\n    return 1\n" >f.py &&
		git add . && git commit -q -m base && git tag base &&
		git mv a.txt b.txt && git diff --cached -M >../mv.diff &&
		git reset -q --hard base &&
		sed -i "s/^7\$/seven/" n.txt && git diff >../edit.diff &&
		git reset -q --hard base
	) &&
	# the same hunk, its header one line off
	sed "s/^@@ -4,7 +4,7 @@/@@ -3,7 +3,7 @@/" edit.diff >off.diff &&
	test_grep "^@@ -3,7" off.diff &&
	cat >sr.md <<-\EOF &&
	f.py
	```
	<<<<<<< SEARCH
	    return 1
	=======
	    return 2
	>>>>>>> REPLACE
	```
	EOF
	cat >ws.diff <<-\EOF
	--- a/f.py
	+++ b/f.py
	@@ -1,2 +1,2 @@
	 def f():
	-  return 1
	+  return 3
	EOF
'

# verbose ARGS...: git ai-apply -v ARGS in a fresh copy "v"; standard
# error in ../err, standard output in ../out.
verbose () {
	rm -rf v && cp -R repo v &&
	(cd v && git ai-apply "$@" >../out 2>../err.all) &&
	# the closing line (what was written) is not git apply -v's
	grep -v "^staged \|^would \|^committed " err.all >err || :
}

test_expect_success 'a clean diff: the lines git apply -v prints, and the placement' '
	rm -rf g && cp -R repo g && git -C g update-index -q --refresh &&
	git -C g apply --index -v ../edit.diff 2>git.err &&
	verbose -v ../edit.diff &&
	grep -v "^n.txt: " err >framing &&
	test_cmp git.err framing &&
	test_grep "^n.txt: ../edit.diff:5: placed at line 4: exact\$" err &&
	test $(wc -l <err) = 3 &&
	test_grep "^M n.txt (+1 -1)" out
'

test_expect_success 'a rename: "Checking patch a => b...", as git' '
	rm -rf g && cp -R repo g && git -C g update-index -q --refresh &&
	git -C g apply --index -v ../mv.diff 2>git.err &&
	verbose --verbose ../mv.diff &&
	test_cmp git.err err
'

test_expect_success 'an offset, the rung named' '
	verbose -v ../off.diff &&
	test_grep "^n.txt: ../off.diff:5: placed at line 4 (offset +1 line): offset\$" err
'

test_expect_success 'a whitespace placement: the tolerant rung named' '
	verbose -v ../ws.diff &&
	test_grep "^f.py: ../ws.diff:3: placed at line 1: whitespace, re-indented to the file.s indentation (tolerant)\$" err
'

test_expect_success 'a SEARCH/REPLACE block: located by content' '
	verbose -v ../sr.md &&
	test_grep "^Checking patch f.py...\$" err &&
	test_grep "^f.py: ../sr.md:3: placed at line 2: content\$" err &&
	test_grep "^Applied patch f.py cleanly.\$" err
'

test_expect_success '--check -v: checked, never "Applied", as git apply --check -v' '
	rm -rf g && cp -R repo g && git -C g update-index -q --refresh &&
	git -C g apply --check -v ../edit.diff 2>git.err &&
	verbose --check -v ../edit.diff &&
	grep -v "^n.txt: " err >framing &&
	test_cmp git.err framing &&
	! grep "^Applied" err
'

test_expect_success '-v and -q: the last one counts, as git apply' '
	verbose -v -q ../edit.diff &&
	test_must_be_empty err &&
	test_must_be_empty out &&
	verbose -q -v ../edit.diff &&
	test_grep "^Checking patch n.txt" err &&
	test_grep "^M n.txt" out &&
	verbose -v --no-verbose ../edit.diff &&
	test_must_be_empty err &&
	verbose -v --no-quiet ../edit.diff &&
	test_grep "^Checking patch n.txt" err &&
	verbose -q --no-verbose ../edit.diff &&
	test_must_be_empty out
'

test_expect_success '--json -v: the JSON on standard output, the placements on standard error' '
	verbose --json -v ../edit.diff &&
	jq -e ".status == \"applied\"" out &&
	test_grep "^n.txt: ../edit.diff:5: placed at line 4: exact" err
'

test_expect_success 'a refusal: the error, no placement of the refused run, nothing written' '
	(
		cd repo &&
		git ai-apply -v ../edit.diff >/dev/null 2>&1 &&
		git commit -q -m seven &&
		sed -i "s/^8\$/eight/" n.txt && git add n.txt &&
		sed "s/seven/SEVEN/" ../edit.diff >../stale.diff &&
		test_rejected -v ../stale.diff &&
		! grep "^Applied" err &&
		git reset -q --hard base
	)
'

test_expect_success '-v goes with no --list, --review or --recover' '
	(
		cd repo &&
		test_expect_code 128 git ai-apply -v --review 2>err &&
		test_grep "^fatal: options .--review. and .--verbose. cannot be used together\$" err &&
		test_expect_code 128 git ai-apply --list -v 2>err &&
		test_grep "^fatal: options .--list. and .--verbose. cannot be used together\$" err &&
		rm err
	)
'

test_done
