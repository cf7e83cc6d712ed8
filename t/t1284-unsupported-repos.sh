#!/bin/sh

test_description='repository shapes libgit2 cannot read: a message naming what and what to do, exit 128; the shapes it reads land'

. "$(dirname "$0")/test-lib.sh"

edit_b () {
	printf -- "--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n x\n-y\n+Y\n"
}

# fatal_unchanged ARGS...: exit 128, nothing written, the message in err.
fatal_unchanged () {
	repo_snapshot fatal &&
	test_expect_code 128 git ai-apply "$@" >"$(snapshot_dir)/out" 2>"$(snapshot_dir)/err" &&
	repo_unchanged fatal &&
	cp "$(snapshot_dir)/err" ../err
}

test_expect_success 'setup' '
	git init -q repo &&
	(
		cd repo &&
		printf "x\ny\n" >b.txt &&
		git add b.txt &&
		git commit -q -m initial
	) &&
	edit_b >edit.diff
'

test_expect_success 'a split index: named, with the command that undoes it' '
	rm -rf split && cp -R repo split &&
	(
		cd split &&
		git update-index --split-index &&
		fatal_unchanged ../edit.diff &&
		fatal_unchanged --cached ../edit.diff &&
		fatal_unchanged --check ../edit.diff
	) &&
	test_grep "the index is a split index" err &&
	test_grep "git update-index --no-split-index" err &&
	! grep "unsupported mandatory extension" err
'

test_expect_success 'a split index: --branch lands (it never reads the index)' '
	(
		cd split &&
		git ai-apply --branch=s ../edit.diff &&
		git show s:b.txt >../got
	) &&
	printf "x\nY\n" >want &&
	test_cmp want got
'

test_expect_success 'a split index: after the command it names, the landing works' '
	(
		cd split &&
		git update-index --no-split-index &&
		git ai-apply ../edit.diff &&
		git diff --cached --name-only >../got
	) &&
	echo b.txt >want &&
	test_cmp want got
'

test_expect_success 'a sparse index: named, with the command that undoes it' '
	rm -rf sparse && git init -q sparse &&
	(
		cd sparse &&
		mkdir in out &&
		echo a >in/a.txt &&
		printf "x\ny\n" >out/b.txt &&
		git add . && git commit -q -m i &&
		git sparse-checkout set --sparse-index in &&
		fatal_unchanged ../edit.diff
	) &&
	test_grep "sparse index" err &&
	test_grep "git sparse-checkout init --no-sparse-index" err
'

test_expect_success 'a SHA-256 repository: named, exit 128' '
	git init -q --object-format=sha256 sha256 &&
	(
		cd sha256 &&
		printf "x\ny\n" >b.txt &&
		git add b.txt &&
		git commit -q -m initial &&
		fatal_unchanged ../edit.diff &&
		fatal_unchanged --branch=x ../edit.diff
	) &&
	test_grep "object format" err &&
	test_grep "SHA-1 repositories only" err &&
	! grep "unsupported extension name" err
'

# The shapes libgit2 reads: each lands, and git reads the index after.
for shape in index-v4 untracked-cache fsmonitor-hook
do
	test_expect_success "$shape: lands, and git reads the index after" '
		rm -rf $shape && cp -R repo $shape &&
		(
			cd $shape &&
			case $shape in
			index-v4) git update-index --index-version 4 ;;
			untracked-cache)
				git config core.untrackedCache true &&
				git update-index --untracked-cache && git status >/dev/null ;;
			fsmonitor-hook)
				printf "#!/bin/sh\nprintf \"/\\\\0\"\n" >../fsmonitor &&
				chmod +x ../fsmonitor &&
				git config core.fsmonitor "\"$PWD/../fsmonitor\"" &&
				git config core.fsmonitorHookVersion 1 &&
				git status >/dev/null ;;
			esac &&
			git ai-apply ../edit.diff &&
			git diff --cached --name-only >../got &&
			git diff --exit-code &&
			git fsck --no-progress 2>&1 | { ! grep . ; }
		) &&
		echo b.txt >want &&
		test_cmp want got
	'
done

test_expect_success 'extensions.worktreeConfig (format version 1): opens, config.worktree read under git -c' '
	rm -rf wtconfig && cp -R repo wtconfig &&
	(
		cd wtconfig &&
		unset GIT_AUTHOR_NAME &&
		git config core.repositoryformatversion 1 &&
		git config extensions.worktreeConfig true &&
		git config --worktree user.name "Worktree Name" &&
		git ai-apply --branch=w1 ../edit.diff &&
		git -c user.name="Command Name" ai-apply --branch=w2 ../edit.diff &&
		git log -1 --format=%an w1 >../got &&
		git log -1 --format=%an w2 >>../got &&
		git ai-apply ../edit.diff &&
		git diff --cached --name-only >>../got
	) &&
	printf "Worktree Name\nCommand Name\nb.txt\n" >want &&
	test_cmp want got
'

test_expect_success 'a linked worktree (git worktree add): lands in its own index' '
	git -C repo worktree add -q ../linked &&
	(
		cd linked &&
		git ai-apply ../edit.diff &&
		git diff --cached --name-only >../got
	) &&
	echo b.txt >want &&
	test_cmp want got &&
	git -C repo diff --cached --exit-code
'

test_done
