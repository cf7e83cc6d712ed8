#!/bin/sh

test_description='landing a diff: default (index + work tree), --cached, --branch, --check'

. "$(dirname "$0")/test-lib.sh"

# record_patch NAME: the work tree's change as a git diff in ../NAME,
# then the work tree is put back.
record_patch () {
	git add -N . &&
	git diff >"../$1" &&
	git reset -q &&
	git checkout -q -- . &&
	git clean -qfd
}

test_expect_success 'setup: a repository and a two-file patch' '
	make_repo repo &&
	(
		cd repo &&
		printf "one\nTWO\nthree\n" >a.txt &&
		printf "new file\n" >new.txt &&
		record_patch change.diff
	) &&
	test_grep "^+TWO" change.diff
'

test_expect_success 'default mode stages the change and writes the work tree' '
	rm -rf d && cp -R repo d &&
	(
		cd d &&
		head=$(git rev-parse HEAD) &&
		git ai-apply ../change.diff >out &&
		test_grep "^M a.txt" out &&
		test_grep "^A new.txt" out &&
		printf "one\nTWO\nthree\n" >expect &&
		test_cmp expect a.txt &&
		git diff --cached --name-status >staged &&
		printf "M\ta.txt\nA\tnew.txt\n" >expect &&
		test_cmp expect staged &&
		git diff --quiet -- a.txt new.txt &&
		test "$(git rev-parse HEAD)" = "$head"
	)
'

test_expect_success '--cached changes the index only' '
	rm -rf c && cp -R repo c &&
	(
		cd c &&
		git ai-apply --cached ../change.diff &&
		printf "one\ntwo\nthree\n" >expect &&
		test_cmp expect a.txt &&
		test_path_is_missing new.txt &&
		git show :a.txt >staged &&
		printf "one\nTWO\nthree\n" >expect &&
		test_cmp expect staged &&
		git cat-file -e :new.txt
	)
'

test_expect_success '--branch commits on a new branch; index, work tree and HEAD untouched' '
	rm -rf b && cp -R repo b &&
	(
		cd b &&
		git rev-parse HEAD >head.before &&
		git ls-files -s >index.before &&
		git ai-apply --branch=ai/fix ../change.diff >out &&
		test_grep "branch ai/fix" out &&
		git rev-parse HEAD >head.after &&
		test_cmp head.before head.after &&
		git ls-files -s >index.after &&
		test_cmp index.before index.after &&
		printf "one\ntwo\nthree\n" >expect &&
		test_cmp expect a.txt &&
		test_path_is_missing new.txt &&
		test "$(git rev-parse ai/fix^)" = "$(git rev-parse HEAD)" &&
		git diff --name-status HEAD ai/fix >names &&
		printf "M\ta.txt\nA\tnew.txt\n" >expect &&
		test_cmp expect names &&
		git log -1 --format=%s ai/fix >subject &&
		test_grep "a.txt" subject &&
		git reflog show ai/fix >reflog &&
		test_grep "ai-apply" reflog &&
		git fsck --no-progress
	)
'

test_expect_success '--branch uses -m and --base' '
	(
		cd b &&
		git ai-apply --branch=ai/other --base=HEAD -m "my message" ../change.diff &&
		git log -1 --format=%s ai/other >msg &&
		echo "my message" >expect &&
		test_cmp expect msg
	)
'

test_expect_success '--branch refuses an existing branch and writes nothing' '
	(
		cd b &&
		test_rejected --branch=ai/fix ../change.diff &&
		test_grep "already exists" err
	)
'

test_expect_success '--branch --force replaces an existing branch' '
	(
		cd b &&
		old=$(git rev-parse ai/fix) &&
		git ai-apply --branch=ai/fix --force -m again ../change.diff &&
		test "$(git rev-parse ai/fix)" != "$old" &&
		git log -1 --format=%s ai/fix >msg &&
		echo again >expect &&
		test_cmp expect msg
	)
'

test_expect_success '--branch does not depend on the index: a corrupt one is left as it is' '
	rm -rf ni && cp -R repo ni &&
	(
		cd ni &&
		printf "not an index" >.git/index &&
		git ai-apply -q --branch=ai/noindex ../change.diff &&
		printf "not an index" >expect &&
		test_cmp expect .git/index &&
		git show ai/noindex:a.txt >a.out &&
		printf "one\nTWO\nthree\n" >expect &&
		test_cmp expect a.out &&
		test_must_fail git ai-apply -q --cached ../change.diff 2>err &&
		test_grep -i "index" err
	)
'

test_expect_success '--branch --force refuses the checked-out branch' '
	(
		cd b &&
		cur=$(git symbolic-ref --short HEAD) &&
		repo_snapshot cur &&
		test_expect_code 1 git ai-apply --branch="$cur" --force ../change.diff 2>../err &&
		repo_unchanged cur &&
		test_grep "checked out" ../err
	)
'

test_expect_success '--branch with an invalid name is fatal' '
	(
		cd b &&
		test_expect_code 128 git ai-apply --branch="bad..name" ../change.diff 2>err &&
		test_grep "not a valid branch name" err
	)
'

test_expect_success '--branch on an unborn HEAD makes a root commit' '
	git init -q unborn &&
	(
		cd unborn &&
		printf "diff --git a/x b/x\nnew file mode 100644\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+x\n" >../create.diff &&
		git ai-apply --branch=first ../create.diff &&
		test_must_fail git rev-parse --verify -q first^ &&
		git show first:x >x.out &&
		echo x >expect &&
		test_cmp expect x.out
	)
'

test_expect_success 'default mode on an unborn HEAD stages a new file' '
	(
		cd unborn &&
		git ai-apply ../create.diff &&
		git cat-file -e :x &&
		echo x >expect &&
		test_cmp expect x
	)
'

test_expect_success '--check writes nothing at all, not even objects' '
	(
		cd repo &&
		repo_snapshot check &&
		git ai-apply --check ../change.diff >../out &&
		repo_unchanged check
	) &&
	test_grep "^M a.txt" out
'

test_expect_success 'a work-tree write that fails restores the paths already written' '
	rm -rf wf && cp -R repo wf &&
	cat change.diff >big.diff &&
	{
		echo "--- /dev/null" &&
		echo "+++ b/zz-big.txt" &&
		echo "@@ -0,0 +1,3000 @@" &&
		awk "BEGIN { for (i = 0; i < 3000; i++) print \"+\" sprintf(\"%060d\", i) }"
	} >>big.diff &&
	(
		cd wf &&
		git prune --expire=now &&
		repo_snapshot wf &&
		# a file size limit makes the last write fail (as root too)
		(
			trap "" XFSZ &&
			ulimit -f 100 &&
			test_expect_code 128 git ai-apply ../big.diff 2>../err
		) &&
		# objects go to disk before the journal and the work tree
		# (t1200): a fatal error may leave them, unreachable
		git prune --expire=now &&
		repo_unchanged wf
	) &&
	test_grep "zz-big.txt: .*cannot write" err
'

test_expect_success 'a change set that fails in its last file writes nothing' '
	cat change.diff >bad.diff &&
	cat >>bad.diff <<-\EOF &&
	diff --git a/dir/b.txt b/dir/b.txt
	--- a/dir/b.txt
	+++ b/dir/b.txt
	@@ -1,2 +1,2 @@
	-no such line
	+gamma
	 beta
	EOF
	for mode in "" --cached --branch=ai/bad --check
	do
		(
			cd repo &&
			test_rejected $mode ../bad.diff &&
			test_grep "dir/b.txt" err
		) || return 1
	done
'

test_expect_success 'default mode refuses a touched path with unstaged changes' '
	rm -rf u && cp -R repo u &&
	(
		cd u &&
		echo local >>a.txt &&
		test_rejected ../change.diff &&
		test_grep "a.txt: has unstaged changes" err
	)
'

test_expect_success 'unstaged changes in untouched files stay as they are' '
	(
		cd u &&
		git checkout -- a.txt &&
		echo local >>dir/b.txt &&
		git ai-apply ../change.diff &&
		tail -n 1 dir/b.txt >last &&
		echo local >expect &&
		test_cmp expect last &&
		git diff --name-only >unstaged &&
		echo dir/b.txt >expect &&
		test_cmp expect unstaged
	)
'

test_expect_success 'an untracked file where a new file goes is refused' '
	rm -rf ut && cp -R repo ut &&
	(
		cd ut &&
		echo mine >new.txt &&
		test_rejected ../change.diff &&
		test_grep "new.txt: already exists in the work tree" err
	)
'

test_expect_success 'a held index.lock is reported, never removed' '
	rm -rf l && cp -R repo l &&
	(
		cd l &&
		: >.git/index.lock &&
		repo_snapshot lock &&
		test_expect_code 128 git ai-apply ../change.diff 2>../err &&
		repo_unchanged lock &&
		test_path_is_file .git/index.lock &&
		test_expect_code 128 git ai-apply --cached ../change.diff 2>../err &&
		repo_unchanged lock
	) &&
	test_grep "index.lock" err
'

test_expect_success 'works from a subdirectory, with -C and with GIT_DIR/GIT_WORK_TREE' '
	rm -rf s1 s2 s3 && cp -R repo s1 && cp -R repo s2 && cp -R repo s3 &&
	(cd s1/dir && git ai-apply --cached ../../change.diff) &&
	git -C s1 cat-file -e :new.txt &&
	git-ai-apply -C s2 --cached "$(pwd)/change.diff" &&
	git -C s2 cat-file -e :new.txt &&
	GIT_DIR=s3/.git GIT_WORK_TREE=s3 git-ai-apply change.diff &&
	test_path_is_file s3/new.txt &&
	git -C s3 cat-file -e :new.txt
'

test_expect_success 'a change set already applied exits 0 and writes nothing' '
	(
		cd d &&
		repo_snapshot again &&
		git ai-apply ../change.diff >../out 2>../err &&
		repo_unchanged again
	) &&
	test_grep "already applied" out
'

test_expect_success 'output formats: --stat, --json, --diff' '
	(
		cd repo &&
		git ai-apply --check --stat ../change.diff >../stat &&
		git ai-apply --check --json ../change.diff >../json &&
		git ai-apply --check --diff ../change.diff >../diff.out &&
		git apply --check ../diff.out
	) &&
	test_grep "a.txt *| *2 +-" stat &&
	test_grep "2 files changed, 2 insertions(+), 1 deletion(-)" stat &&
	test "$(jq -r .status json)" = checked &&
	jq -r ".files[].path" json >paths &&
	printf "a.txt\nnew.txt\n" >expect &&
	test_cmp expect paths &&
	test_grep "^new file mode 100644" diff.out
'

test_expect_success '-q silences the summary' '
	rm -rf q && cp -R repo q &&
	git -C q ai-apply -q ../change.diff >out &&
	test_must_be_empty out
'
test_done
