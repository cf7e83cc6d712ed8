#!/bin/sh

test_description='reports as previews: --stat, --numstat, --summary and --diff write nothing unless --apply, and print what git apply prints'

. "$(dirname "$0")/test-lib.sh"

# record NAME: the staged change as a git diff (renames found) in ../NAME,
# then the repository is put back at base.
record () {
	git add -A &&
	git diff --cached -M --binary >"../$1" &&
	git reset -q --hard base &&
	git clean -qfd
}

test_expect_success 'setup: a repository and diffs of every kind' '
	make_repo repo &&
	(
		cd repo &&
		seq 1 30 >long.txt &&
		mkdir -p deep/er &&
		printf "moved\ncontent\n" >deep/er/old-name.txt &&
		printf "#!/bin/sh\n" >run.sh &&
		git add . && git commit -q -m more && git tag base &&

		printf "one\nTWO\nthree\nfour\n" >a.txt &&
		record edit.diff &&

		printf "new\nfile\n" >created.txt && git rm -q dir/b.txt &&
		record create-delete.diff &&

		git mv deep/er/old-name.txt deep/er/new-name.txt &&
		git mv a.txt top.txt &&
		record rename.diff &&

		chmod +x run.sh && git add run.sh &&
		printf "one\ntwo\nthree\nmore\n" >a.txt &&
		record mode.diff &&

		seq 1 30 | sed "s/^/changed /" >long.txt &&
		printf "x\n" >"a name with spaces.txt" &&
		mkdir -p very/long/directory/name/that/goes/on/and/on/and/on &&
		echo deep >very/long/directory/name/that/goes/on/and/on/and/on/file.txt &&
		record wide.diff &&

		printf "one\nTWO\nthree\n" >a.txt &&
		chmod +x run.sh &&
		git mv deep/er/old-name.txt deep/moved.txt &&
		echo n >n.txt &&
		git rm -q dir/b.txt &&
		record all.diff
	) &&
	test_grep "^rename from" rename.diff &&
	test_grep "^new mode 100755" mode.diff
'

diffs="edit create-delete rename mode wide all"

for opt in --stat --numstat --summary --diff "--stat --summary" \
	   "--stat --numstat --summary" "--stat --diff" "--check --stat"
do
	test_expect_success "$opt alone writes nothing" '
		(
			cd repo &&
			repo_snapshot pre &&
			git ai-apply $opt ../all.diff >../out &&
			repo_unchanged pre
		) &&
		test -s out
	'
done

for d in $diffs
do
	for opt in --stat --numstat --summary "--stat --numstat --summary"
	do
		test_expect_success "$d: ai-apply $opt prints what git apply $opt prints" '
			(
				cd repo &&
				git apply $opt "../$d.diff" >../expect &&
				git ai-apply $opt "../$d.diff" >../actual
			) &&
			test_cmp expect actual
		'
	done
done

# Binary patches are not taken yet (a binary file can be moved): a moved
# binary file counts no lines, as git apply counts its patch.
test_expect_success 'a binary file moved: 0 lines, as git apply' '
	(
		cd repo &&
		printf "bin\000ary" >blob.bin && git add blob.bin &&
		git commit -q -m bin && git tag bbase &&
		git mv blob.bin moved.bin && echo t >t.txt && git add t.txt &&
		git diff --cached -M --binary >../bin.diff &&
		git reset -q --hard bbase &&
		git apply --stat --numstat --summary ../bin.diff >../expect &&
		repo_snapshot bin &&
		git ai-apply --stat --numstat --summary ../bin.diff >../actual &&
		repo_unchanged bin &&
		git reset -q --hard base
	) &&
	test_grep "^ rename blob.bin => moved.bin (100%)\$" actual &&
	test_cmp expect actual
'

test_expect_success '--stat --diff: the stat, a blank line, then the diff (git diff --stat -p)' '
	(
		cd repo &&
		git ai-apply --stat ../edit.diff >../expect &&
		echo >>../expect &&
		git ai-apply --diff ../edit.diff >>../expect &&
		git ai-apply --diff --stat ../edit.diff >../actual
	) &&
	test_cmp expect actual
'

test_expect_success '--diff alone: the git diff of what would land, which git apply takes' '
	(
		cd repo &&
		repo_snapshot d &&
		git ai-apply --diff ../all.diff >../shown.diff &&
		repo_unchanged d &&
		git apply --index ../shown.diff &&
		git diff --cached -M base >../landed.diff &&
		git reset -q --hard base && git clean -qfd
	) &&
	test_grep "^rename from deep/er/old-name.txt" shown.diff &&
	test_grep "^+TWO" landed.diff
'

test_expect_success 'a preview exits as --check does: a rejection is 1, nothing written' '
	(
		cd repo &&
		printf "one\nchanged\nthree\n" >a.txt && git add a.txt &&
		git commit -q -m moved && git tag moved &&
		repo_snapshot rej &&
		test_expect_code 1 git ai-apply --stat ../edit.diff >../out 2>../err &&
		repo_unchanged rej &&
		test_expect_code 1 git ai-apply --check ../edit.diff 2>../err.check &&
		git reset -q --hard base
	) &&
	test_cmp err.check err &&
	test_grep "a.txt" err &&
	test_must_be_empty out
'

test_expect_success '--stat --apply lands (index and work tree) and prints the same stat' '
	(
		cd repo &&
		git ai-apply --stat ../all.diff >../preview &&
		git ai-apply --stat --apply ../all.diff >../landed &&
		git diff --cached --name-status -M >../status &&
		test_path_is_file deep/moved.txt &&
		test -x run.sh &&
		git diff --quiet &&
		git reset -q --hard base && git clean -qfd
	) &&
	test_cmp preview landed &&
	test_grep "^R100	deep/er/old-name.txt	deep/moved.txt" status &&
	test_grep "^A	n.txt" status
'

test_expect_success '--summary --numstat --apply --cached: only the index, and the report' '
	(
		cd repo &&
		git ai-apply --summary --numstat ../all.diff >../preview &&
		git ai-apply --cached --apply --summary --numstat ../all.diff >../landed &&
		git diff --cached --name-only >../staged &&
		test_path_is_missing n.txt &&
		git reset -q --hard base && git clean -qfd
	) &&
	test_cmp preview landed &&
	test_grep "^n.txt\$" staged
'

test_expect_success '--diff --apply --branch: a commit on the branch, the diff printed' '
	(
		cd repo &&
		git ai-apply --diff ../edit.diff >../preview &&
		repo_snapshot br &&
		git ai-apply --branch=ai/p --apply --diff ../edit.diff >../landed &&
		git diff base ai/p >../committed &&
		git show -s --format=%p ai/p >../parent &&
		git rev-parse --short base >../expect-parent
	) &&
	head -n $(wc -l <preview) landed >landed.head &&
	test_cmp preview landed.head &&
	test_grep "^branch ai/p: " landed &&
	test_cmp expect-parent parent &&
	test_grep "^+TWO" committed
'

test_expect_success 'a preview with --branch is refused (nothing written): add --apply' '
	(
		cd repo &&
		repo_snapshot b2 &&
		test_expect_code 128 git ai-apply --branch=ai/q --stat ../edit.diff 2>../err &&
		repo_unchanged b2
	) &&
	test_grep "add --apply" err
'

test_expect_success '-p with a preview is refused; -p --apply --stat lands what is chosen' '
	(
		cd repo &&
		repo_snapshot p &&
		test_expect_code 128 git ai-apply -p --stat ../edit.diff </dev/null 2>../err &&
		repo_unchanged p &&
		echo y | git ai-apply -p --apply --stat ../edit.diff >../out &&
		git diff --cached --name-only >../staged &&
		git reset -q --hard base
	) &&
	test_grep "add --apply" err &&
	test_grep " a.txt |    3 ++-\$" out &&
	test_grep "^a.txt\$" staged
'

test_expect_success '--json is no preview: it reports the landing, and goes with no preview option' '
	(
		cd repo &&
		git ai-apply --json ../edit.diff >../json &&
		git diff --cached --name-only >../staged &&
		git reset -q --hard base &&
		repo_snapshot j &&
		test_expect_code 128 git ai-apply --json --stat ../edit.diff >../json2 2>../err &&
		repo_unchanged j
	) &&
	jq -e ".status == \"applied\"" json &&
	test_grep "^a.txt\$" staged &&
	test_grep "^fatal: options .--stat. and .--json. cannot be used together\$" err &&
	jq -e ".status == \"fatal\"" json2
'

test_expect_success '--check --apply cannot go together; --no-stat takes the preview back' '
	(
		cd repo &&
		repo_snapshot c &&
		test_expect_code 128 git ai-apply --check --apply --stat ../edit.diff 2>../err &&
		repo_unchanged c &&
		git ai-apply --stat --no-stat ../edit.diff >../out &&
		git diff --cached --name-only >../staged &&
		git reset -q --hard base
	) &&
	test_grep "'\''--check'\'' and '\''--apply'\''" err &&
	test_grep "^M a.txt (+2 -1)\$" out &&
	test_grep "^a.txt\$" staged
'

test_done
