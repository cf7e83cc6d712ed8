#!/bin/sh

test_description='-R / --reverse: the answer landed backwards, all or nothing, as git apply -R'

. "$(dirname "$0")/test-lib.sh"

# record NAME: the staged change against "base" as a git diff (renames
# and copies found) in ../NAME.diff, then the tree it made is tagged
# NAME, and the repository is put back at base.
record () {
	git add -A &&
	git diff --cached -M -C --binary >"../$1.diff" &&
	git commit -q -m "$1" &&
	git tag "$1" &&
	git reset -q --hard base &&
	git clean -qfd
}

# at NAME DIR: DIR, a fresh copy of repo checked out (index and work
# tree) at tag NAME, where a diff recorded as NAME has been applied.
at () {
	rm -rf "$2" && cp -R repo "$2" &&
	git -C "$2" reset -q --hard "$1" &&
	git -C "$2" update-index -q --refresh
}

# same_as_git_reverse NAME: git apply -R --index and git ai-apply -R
# take the tree NAME back to base's, and ai-apply forward again to NAME's.
same_as_git_reverse () {
	at "$1" by-git && at "$1" by-us &&
	git -C by-git apply -R --index "../$1.diff" &&
	git -C by-us ai-apply -R "../$1.diff" >out &&
	test "$(git -C by-git write-tree)" = "$(git -C repo rev-parse base^{tree})" &&
	test "$(git -C by-us write-tree)" = "$(git -C by-git write-tree)" &&
	git -C by-us diff --exit-code &&
	test -z "$(git -C by-us ls-files --others --exclude-standard)" &&
	git -C by-us ai-apply "../$1.diff" >out &&
	test "$(git -C by-us write-tree)" = "$(git -C repo rev-parse "$1^{tree}")" &&
	git -C by-us diff --exit-code
}

test_expect_success 'setup: a repository and diffs of every kind' '
	make_repo repo &&
	(
		cd repo &&
		seq 1 30 >long.txt &&
		printf "#!/bin/sh\necho hi\n" >run.sh &&
		printf "no newline" >tail.txt &&
		: >empty.txt &&
		mkdir -p deep &&
		printf "moved\ncontent\nhere\n" >deep/old.txt &&
		git add . && git commit -q -m more && git tag base &&

		printf "one\nTWO\nthree\n" >a.txt &&
		record edit &&

		seq 1 30 | sed -e "s/^3\$/three/" -e "s/^27\$/twenty-seven/" >long.txt &&
		record hunks &&

		printf "new\nfile\n" >created.txt &&
		record create &&

		git rm -q dir/b.txt &&
		record delete &&

		git mv deep/old.txt deep/new.txt &&
		record rename &&

		git mv deep/old.txt top.txt &&
		printf "moved\nCONTENT\nhere\n" >top.txt &&
		record rename-edit &&

		chmod +x a.txt &&
		record mode &&

		chmod -x run.sh && printf "#!/bin/sh\necho bye\n" >run.sh &&
		record mode-edit &&

		printf "no newline, changed" >tail.txt &&
		record no-eol &&

		: >new-empty.txt &&
		record create-empty &&

		git rm -q empty.txt &&
		record delete-empty &&

		printf "one\ntwo\nthree\nfour\n" >a.txt &&
		printf "made\n" >made.txt &&
		git rm -q dir/b.txt &&
		git mv deep/old.txt deep/moved.txt &&
		chmod +x run.sh &&
		record multi
	) &&
	test_grep "^rename from deep/old.txt" repo/../rename-edit.diff &&
	test_grep "^new mode 100755" mode.diff &&
	test_grep "^deleted file mode" delete-empty.diff &&
	test_grep "No newline" no-eol.diff
'

for name in edit hunks create delete rename rename-edit mode mode-edit \
	    no-eol create-empty delete-empty multi
do
	test_expect_success "$name: -R lands what git apply -R does; forward again gives it back" "
		same_as_git_reverse $name
	"
done

# git's t4127: one diff names a file twice (and three times), each part
# on the previous one's result; -R undoes the last part first.
test_expect_success 'a file the diff names twice and three times: -R undoes the last part first, as git apply -R' '
	rm -rf same && git init -q same &&
	(
		cd same &&
		printf "%s\\n" a b c d e f g h i j k l m >same_fn &&
		cp same_fn other_fn &&
		git add . && git commit -q -m base &&
		sed "s/^d/z/" same_fn >t && mv t same_fn &&
		git diff >../twice.diff && git add same_fn &&
		sed "s/^e/y/" same_fn >t && mv t same_fn &&
		git diff >>../twice.diff && git add same_fn &&
		sed "s/^f/x/" other_fn >t && mv t other_fn &&
		git diff >>../twice.diff && git add other_fn &&
		sed "s/^z/w/" same_fn >t && mv t same_fn &&
		git diff >>../twice.diff && git add same_fn &&
		git commit -q -m changed
	) &&
	test "$(grep -c "^diff --git a/same_fn" twice.diff)" = 3 &&
	rm -rf same-git && cp -R same same-git &&
	git -C same-git update-index -q --refresh &&
	git -C same-git apply -R --index ../twice.diff &&
	git -C same ai-apply -R ../twice.diff >out &&
	test "$(git -C same write-tree)" = "$(git -C same-git write-tree)" &&
	test "$(git -C same write-tree)" = "$(git -C same rev-parse HEAD~1^{tree})" &&
	git -C same diff --exit-code
'

test_expect_success '--reverse, the long name; --no-reverse takes it back' '
	at edit rl &&
	(
		cd rl &&
		git ai-apply --reverse ../edit.diff &&
		test "$(git write-tree)" = "$(git rev-parse base^{tree})" &&
		git ai-apply -R --no-reverse --check ../edit.diff
	)
'

test_expect_success 'a copy reversed is removed once it is its source again (git apply -R refuses)' '
	(
		cd repo &&
		cp long.txt copy.txt && sed -i "s/^5\$/five/" copy.txt &&
		git add copy.txt &&
		git diff --cached -C -C >../copy.diff &&
		git commit -q -m copy && git tag copy &&
		git reset -q --hard base
	) &&
	test_grep "^copy from long.txt" copy.diff &&
	at copy cp-git && at copy cp-us &&
	test_must_fail git -C cp-git apply -R --index ../copy.diff 2>err &&
	test_grep "already exists" err &&
	git -C cp-us ai-apply -R ../copy.diff >out &&
	test "$(git -C cp-us write-tree)" = "$(git -C repo rev-parse base^{tree})" &&
	test_path_is_missing cp-us/copy.txt &&
	git -C cp-us ai-apply ../copy.diff &&
	test "$(git -C cp-us write-tree)" = "$(git -C repo rev-parse copy^{tree})"
'

test_expect_success 'a copy whose source changed since is refused, nothing written' '
	at copy cp2 &&
	(
		cd cp2 &&
		echo changed >>long.txt && git add long.txt &&
		test_rejected -R ../copy.diff &&
		test_grep "long.txt: ../copy.diff:1: already exists (with other content); refusing to move copy.txt onto it" err
	)
'

test_expect_success '-R of a diff that was not applied: already applied, or refused' '
	rm -rf nr && cp -R repo nr &&
	(
		cd nr &&
		repo_snapshot pre &&
		git ai-apply -R ../edit.diff >../out &&
		test_grep "^already applied: nothing to change" ../out &&
		repo_unchanged pre &&
		test_rejected -R ../multi.diff &&
		test_grep "deep/moved.txt: ../multi.diff:[0-9]*: does not exist; cannot rename it" err
	)
'

test_expect_success '-R of a creation whose file changed since is refused' '
	at create cr &&
	(
		cd cr &&
		echo more >>created.txt && git add created.txt &&
		test_rejected -R ../create.diff &&
		test_grep "created.txt: .*create.diff:[0-9]*: the deletion .*would lose lines" err
	)
'

test_expect_success 'SEARCH/REPLACE blocks reversed, last first' '
	cat >sr.md <<-\EOF &&
	a.txt
	```
	<<<<<<< SEARCH
	two
	=======
	TWO
	>>>>>>> REPLACE

	<<<<<<< SEARCH
	TWO
	three
	=======
	2
	3
	>>>>>>> REPLACE
	```
	EOF
	rm -rf sr && cp -R repo sr &&
	(
		cd sr &&
		git ai-apply ../sr.md &&
		printf "one\n2\n3\n" >expect && test_cmp expect a.txt &&
		git ai-apply -R ../sr.md &&
		test "$(git write-tree)" = "$(git rev-parse base^{tree})" &&
		git diff --exit-code
	)
'

test_expect_success 'V4A: an update, a move and an added file reversed' '
	cat >v4a.md <<-\EOF &&
	*** Begin Patch
	*** Update File: long.txt
	@@
	 9
	-10
	+ten
	 11
	*** Add File: added/new.txt
	+hello
	*** Update File: deep/old.txt
	*** Move to: deep/renamed.txt
	@@
	-content
	+CONTENT
	*** End Patch
	EOF
	rm -rf v4 && cp -R repo v4 &&
	(
		cd v4 &&
		git ai-apply ../v4a.md &&
		test_path_is_file deep/renamed.txt &&
		git ai-apply -R ../v4a.md &&
		test "$(git write-tree)" = "$(git rev-parse base^{tree})" &&
		git diff --exit-code &&
		test -z "$(git ls-files --others --exclude-standard)"
	)
'

test_expect_success 'aptix replacements reversed' '
	cat >ax.json <<-\EOF &&
	{ "patches": [ { "path": "a.txt", "replacements": [
	  { "find": "two", "replace": "zwei" },
	  { "find": "zwei\nthree", "replace": "zwei\ndrei" } ] } ] }
	EOF
	rm -rf ax && cp -R repo ax &&
	(
		cd ax &&
		git ai-apply --format=aptix ../ax.json &&
		printf "one\nzwei\ndrei\n" >expect && test_cmp expect a.txt &&
		git ai-apply -R --format=aptix ../ax.json &&
		test "$(git write-tree)" = "$(git rev-parse base^{tree})"
	)
'

test_expect_success 'a whole-file block cannot be reversed: refused naming the format and line' '
	cat >whole.md <<-\EOF &&
	Here is the file:

	a.txt
	```
	one
	two
	3
	```
	EOF
	rm -rf wf && cp -R repo wf &&
	(
		cd wf &&
		git ai-apply ../whole.md &&
		git add -A && git commit -q -m whole &&
		test_rejected -R ../whole.md &&
		test_grep "error: a.txt: ../whole.md:[0-9]*: a whole-file block carries no old content (.*); -R cannot reverse it" err
	)
'

test_expect_success 'an empty SEARCH fills a missing or empty file: which, it does not say' '
	cat >fill.md <<-\EOF &&
	fresh.txt
	```
	<<<<<<< SEARCH
	=======
	filled
	>>>>>>> REPLACE
	```
	EOF
	rm -rf fl && cp -R repo fl &&
	(
		cd fl &&
		git ai-apply ../fill.md &&
		git commit -q -m fill &&
		test_rejected -R ../fill.md &&
		test_grep "error: fresh.txt: ../fill.md:[0-9]*: a block that fills a missing or empty file does not say which it was (search-replace); -R cannot reverse it" err
	)
'

test_expect_success 'a deletion without its lines cannot be reversed; one refusal refuses all' '
	cat >del.md <<-\EOF &&
	*** Begin Patch
	*** Update File: a.txt
	@@
	-two
	+2
	*** Delete File: dir/b.txt
	*** End Patch
	EOF
	rm -rf dl && cp -R repo dl &&
	(
		cd dl &&
		git ai-apply ../del.md &&
		git commit -q -m del &&
		test_rejected -R ../del.md &&
		test_grep "error: dir/b.txt: ../del.md:6: a deletion without the deleted lines cannot be restored (v4a); -R cannot reverse it" err
	)
'

test_expect_success 'ap: an INSERT_AFTER and a REPLACE reversed; an ap DELETE refused' '
	cat >ap.ap <<-\EOF &&
	version: "2.0"
	changes:
	  - file_path: "long.txt"
	    modifications:
	      - action: INSERT_AFTER
	        snippet: |
	          12
	        content: |
	          twelve and a half
	      - action: REPLACE
	        snippet: |
	          20
	        content: |
	          twenty
	EOF
	cat >apdel.ap <<-\EOF &&
	version: "2.0"
	changes:
	  - file_path: "long.txt"
	    modifications:
	      - action: DELETE
	        snippet: |
	          25
	EOF
	rm -rf apd && cp -R repo apd &&
	(
		cd apd &&
		git ai-apply ../ap.ap &&
		test_grep "^twelve and a half\$" long.txt &&
		git ai-apply -R ../ap.ap &&
		test "$(git write-tree)" = "$(git rev-parse base^{tree})" &&
		git diff --exit-code &&
		git ai-apply ../apdel.ap &&
		git commit -q -m apd &&
		test_rejected -R ../apdel.ap &&
		test_grep "long.txt: ../apdel.ap:[0-9]*: an ap DELETE does not say where its lines stood (ap); -R cannot reverse it" err
	)
'

test_expect_success '-R with --include: only the paths kept are reversed' '
	at multi inc &&
	(
		cd inc &&
		git ai-apply -R --include="a.*" ../multi.diff &&
		git diff --cached --name-only HEAD >names &&
		echo a.txt >expect && test_cmp expect names
	)
'

test_done
