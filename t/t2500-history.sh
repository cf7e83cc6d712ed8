#!/bin/sh

test_description='stale answers: the hunks land on the revision the answer saw, merged into the current content'

. "$(dirname "$0")/test-lib.sh"

# Every scenario: f.txt held "line 1".."line 30" (v1) when the answer
# was written; upstream changed it since. The right result is what
# git merge-file makes of (current, v1, v1 + the answer's change).

# numbered N: "line 1".."line N"
numbered () {
	i=1
	while test $i -le $1
	do
		echo "line $i"
		i=$((i + 1))
	done
}

# setup_stale REPO ANSWER_SED UPSTREAM_SED (sed scripts): REPO's history is v1 then
# an upstream commit; ../REPO.diff is the answer (git diff at v1, with
# its index line); ../REPO.expect what git merge-file makes of it, and
# ../REPO.clean says whether that merge was clean.
setup_stale () {
	ss_repo=$1 ss_answer=$2 ss_upstream=$3 &&
	rm -rf "$ss_repo" &&
	git init -q "$ss_repo" &&
	(
		cd "$ss_repo" &&
		numbered 30 >f.txt &&
		git add f.txt &&
		git commit -q -m v1 &&
		sed "$ss_answer" f.txt >"../$ss_repo.theirs" &&
		cp ../$ss_repo.theirs f.txt &&
		git diff >"../$ss_repo.diff" &&
		git checkout -q f.txt &&
		cp f.txt "../$ss_repo.base" &&
		sed "$ss_upstream" f.txt >f.txt.new &&
		mv f.txt.new f.txt &&
		git commit -q -a -m upstream &&
		git tag base &&
		cp f.txt "../$ss_repo.expect" &&
		if git merge-file -q "../$ss_repo.expect" "../$ss_repo.base" \
			"../$ss_repo.theirs"
		then
			echo clean >"../$ss_repo.clean"
		else
			echo conflict >"../$ss_repo.clean"
		fi
	)
}

test_expect_success 'a stale hunk merges from the revision the answer saw' '
	setup_stale stale "s/^line 15\$/line 15 answer/" \
		"s/^line 13\$/line 13 upstream/;s/^line 17\$/line 17 upstream/" &&
	test "$(cat stale.clean)" = clean &&
	(
		cd stale &&
		git ai-apply --json ../stale.diff >../json 2>../err &&
		staged_as f.txt ../stale.expect &&
		clean_result
	) &&
	test_grep "^note: f.txt: .*merged into the current content" err &&
	echo merged >expect &&
	jq -r ".files[].edits[].how" json >actual &&
	test_cmp expect actual
'

test_expect_success 'the note names the revision: the index line blob' '
	blob=$(git -C stale rev-parse HEAD~1:f.txt | cut -c1-7) &&
	test_grep "hunks applied to blob $blob (the diff.s index line)" err
'

test_expect_success 'without the index line: the commit found in the history' '
	sed "/^index /d" stale.diff >noindex.diff &&
	rm -rf stale2 && cp -R stale stale2 &&
	(
		cd stale2 &&
		git reset -q --hard base &&
		git ai-apply ../noindex.diff 2>../err &&
		staged_as f.txt ../stale.expect
	) &&
	commit=$(git -C stale rev-parse --short=7 HEAD~1) &&
	test_grep "hunks applied to commit $commit, the version" err
'

test_expect_success 'a conflicting merge is refused with the region shown' '
	setup_stale conflict "s/^line 15\$/line 15 answer/" \
		"s/^line 15\$/line 15 upstream/;s/^line 13\$/line 13 upstream/" &&
	test "$(cat conflict.clean)" = conflict &&
	(
		cd conflict &&
		test_rejected ../conflict.diff
	) &&
	test_grep "^error: f.txt: ../conflict.diff:5: .*conflicts with the current content" conflict/err &&
	test_grep "conflict at line 15 of the current content" conflict/err &&
	test_grep "\"line 15 upstream\"" conflict/err &&
	test_grep "\"line 15 answer\"" conflict/err
'

test_expect_success 'the change already upstream: a no-op' '
	setup_stale upstream "s/^line 15\$/line 15 answer/" \
		"s/^line 15\$/line 15 answer/;s/^line 12\$/line 12 upstream/" &&
	test "$(cat upstream.clean)" = clean &&
	(
		cd upstream &&
		repo_snapshot noop &&
		git ai-apply ../upstream.diff 2>../err &&
		repo_unchanged noop
	) &&
	test_grep "already in the current content" err
'

test_expect_success 'the change partly upstream: the rest lands' '
	setup_stale partly \
		"s/^line 15\$/line 15 answer/;s/^line 18\$/line 18 answer/" \
		"s/^line 15\$/line 15 answer/;s/^line 12\$/line 12 upstream/" &&
	test "$(cat partly.clean)" = clean &&
	(
		cd partly &&
		git ai-apply ../partly.diff 2>../err &&
		staged_as f.txt ../partly.expect
	) &&
	test_grep "line 18 answer" partly/f.txt
'

test_expect_success '--strict never uses history' '
	sed "/^diff --git/d;/^index /d" stale.diff >plain.diff &&
	rm -rf strict && cp -R stale strict &&
	(
		cd strict &&
		git reset -q --hard base &&
		test_rejected --strict ../plain.diff &&
		git ai-apply ../plain.diff &&
		staged_as f.txt ../stale.expect
	)
'

test_expect_success 'the answer applies to the current content: no history' '
	setup_stale fresh "s/^line 15\$/line 15 answer/" \
		"s/^line 2\$/line 2 upstream/" &&
	(
		cd fresh &&
		git ai-apply ../fresh.diff 2>../err &&
		staged_as f.txt ../fresh.expect
	) &&
	test_must_fail grep "merged" err
'

test_done
