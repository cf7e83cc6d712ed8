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
		clean_result &&
		git reset -q --hard base &&
		git ai-apply ../stale.diff >../out 2>/dev/null &&
		staged_as f.txt ../stale.expect
	) &&
	echo "M f.txt (+1 -1, merged)" >expect.out &&
	test_cmp expect.out out &&
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

# setup_lost REPO: REPO holds only the upstream version of the stale
# scenario (the answer's revision is in no commit).
setup_lost () {
	rm -rf "$1" &&
	git init -q "$1" &&
	cp stale/f.txt "$1/f.txt" &&
	git -C stale show base:f.txt >"$1/f.txt" &&
	git -C "$1" add f.txt &&
	git -C "$1" commit -q -m upstream-only
}

test_expect_success 'the index line blob absent, no history: the ladder (rung 4)' '
	setup_lost lost &&
	(
		cd lost &&
		git ai-apply --json ../stale.diff >../json 2>../err &&
		staged_as f.txt ../stale.expect
	) &&
	test_must_fail grep "merged" err &&
	echo reduced-context >expect &&
	jq -r ".files[].edits[].how" json >actual &&
	test_cmp expect actual
'

test_expect_success 'the index line blob present (abbreviated): merged from it' '
	setup_lost lost-abbrev &&
	git -C lost-abbrev hash-object -w ../stale.base >/dev/null &&
	test_grep "^index [0-9a-f]\{7\}\.\." stale.diff &&
	(
		cd lost-abbrev &&
		git ai-apply --json ../stale.diff >../json 2>../err &&
		staged_as f.txt ../stale.expect
	) &&
	blob=$(git hash-object stale.base | cut -c1-7) &&
	test_grep "hunks applied to blob $blob (the diff.s index line)" err
'

test_expect_success 'the index line blob present (full id): merged from it' '
	setup_lost lost-full &&
	git -C lost-full hash-object -w ../stale.base >/dev/null &&
	blob=$(git hash-object stale.base) &&
	sed "s/^index [0-9a-f]*\.\./index $blob../" stale.diff >full.diff &&
	test_grep "^index $blob\.\." full.diff &&
	(
		cd lost-full &&
		git ai-apply ../full.diff 2>../err &&
		staged_as f.txt ../stale.expect
	) &&
	test_grep "hunks applied to blob $(echo $blob | cut -c1-7) (the diff" err
'

test_expect_success 'a bound of the history search is named when it stops it' '
	rm -rf bounded && cp -R stale bounded &&
	(
		cd bounded &&
		git reset -q --hard base &&
		AIAPPLY_HISTORY_MAX_COMMITS=1 git ai-apply ../noindex.diff 2>../err &&
		staged_as f.txt ../stale.expect
	) &&
	test_grep "^note: f.txt: .*stopped after 1 commits (its bound)" err &&
	test_must_fail grep "merged into" err &&
	(
		cd bounded &&
		git reset -q --hard base &&
		AIAPPLY_HISTORY_MAX_VERSIONS=0 git ai-apply ../noindex.diff 2>../err &&
		staged_as f.txt ../stale.expect
	) &&
	test_grep "^note: f.txt: .*stopped after 0 versions of the file (its bound)" err
'

test_expect_success '--branch with --base: the history from --base' '
	setup_stale branch "s/^line 15\$/line 15 answer/" \
		"s/^line 13\$/line 13 upstream/;s/^line 17\$/line 17 upstream/" &&
	sed "/^index /d" branch.diff >branch-noindex.diff &&
	(
		cd branch &&
		sed "s/^line 30\$/line 30 later/" f.txt >f.new && mv f.new f.txt &&
		git commit -q -a -m later &&
		git ai-apply --branch=topic --base=base ../branch-noindex.diff 2>../err &&
		git show topic:f.txt >../actual &&
		test "$(git rev-parse topic^)" = "$(git rev-parse base)"
	) &&
	test_cmp branch.expect actual &&
	test_grep "hunks applied to commit" err
'

# crlf: the same lines with CRLF endings
crlf () {
	sed "s/\$/$(printf "\r")/"
}

test_expect_success 'CRLF files stay CRLF' '
	rm -rf crlf && git init -q crlf &&
	(
		cd crlf &&
		numbered 30 | crlf >f.txt &&
		git add f.txt && git commit -q -m v1 &&
		cp f.txt ../crlf.base &&
		sed "s/^line 15/line 15 answer/" ../crlf.base >f.txt &&
		cp f.txt ../crlf.theirs &&
		git diff >../crlf.diff &&
		sed "s/^line 13/line 13 upstream/;s/^line 17/line 17 upstream/" \
			../crlf.base >f.txt &&
		git commit -q -a -m upstream &&
		cp f.txt ../crlf.expect &&
		git merge-file -q ../crlf.expect ../crlf.base ../crlf.theirs &&
		git ai-apply ../crlf.diff 2>../err &&
		staged_as f.txt ../crlf.expect
	) &&
	test $(grep -c "$(printf "\r")\$" crlf/f.txt) = 30 &&
	test_grep "merged into" err
'

# setup_large REPO UPSTREAM_SED: the stale scenario on a 3000-line file
# (merged by windows around the hunks): the answer changes lines 1500
# and 2500.
setup_large () {
	rm -rf "$1" && git init -q "$1" &&
	(
		cd "$1" &&
		numbered 3000 >f.txt &&
		git add f.txt && git commit -q -m v1 &&
		cp f.txt "../$1.base" &&
		sed "s/^line 1500\$/line 1500 answer/;s/^line 2500\$/line 2500 answer/" \
			f.txt >"../$1.theirs" &&
		cp "../$1.theirs" f.txt &&
		git diff | sed "/^index /d" >"../$1.diff" &&
		sed "$2" "../$1.base" >f.txt &&
		git commit -q -a -m upstream &&
		git tag base &&
		cp f.txt "../$1.expect" &&
		if git merge-file -q "../$1.expect" "../$1.base" "../$1.theirs"
		then
			echo clean >"../$1.clean"
		else
			echo conflict >"../$1.clean"
		fi
	)
}

test_expect_success 'a large file: merged around the hunks, as git merge-file' '
	setup_large large \
		"s/^line 10\$/up 10/;s/^line 1498\$/up 1498/;s/^line 2990\$/up 2990/;1200d" &&
	test "$(cat large.clean)" = clean &&
	(
		cd large &&
		git ai-apply ../large.diff 2>../err &&
		staged_as f.txt ../large.expect
	) &&
	test_grep "merged into the current content" err
'

test_expect_success 'a large file: a conflict is refused, shown on the whole file' '
	setup_large large-conflict \
		"s/^line 10\$/up 10/;s/^line 2500\$/up 2500/;1200d" &&
	test "$(cat large-conflict.clean)" = conflict &&
	(
		cd large-conflict &&
		test_rejected ../large-conflict.diff
	) &&
	test_grep "conflict at line 2499 of the current content" large-conflict/err &&
	test_grep "\"up 2500\"" large-conflict/err
'

test_expect_success 'a hunk appending at the end, upstream changed its context' '
	setup_stale eof "\$a\\
line 31 answer" "s/^line 28\$/line 28 upstream/" &&
	test "$(cat eof.clean)" = clean &&
	(
		cd eof &&
		git ai-apply ../eof.diff 2>../err &&
		staged_as f.txt ../eof.expect
	) &&
	test "$(tail -n 1 eof/f.txt)" = "line 31 answer" &&
	test_grep "merged into" err
'

# The end-of-file anchoring (issue 7 point 2) keeps the exact rungs from
# putting the lines after "line 30", before upstream's: the merge decides.
test_expect_success 'a hunk appending at the end, upstream appended too: refused' '
	setup_stale eof2 "\$a\\
line 31 answer" "\$a\\
line 31 upstream" &&
	test "$(cat eof2.clean)" = conflict &&
	(
		cd eof2 &&
		test_rejected ../eof2.diff
	)
'

test_expect_success 'the file deleted then added back: the walk goes past the gap' '
	rm -rf gap && git init -q gap &&
	(
		cd gap &&
		numbered 30 >f.txt &&
		git add f.txt && git commit -q -m v1 &&
		cp f.txt ../gap.base &&
		sed "s/^line 15\$/line 15 answer/" f.txt >../gap.theirs &&
		cp ../gap.theirs f.txt &&
		git diff | sed "/^index /d" >../gap.diff &&
		git rm -q -f f.txt && git commit -q -m gone &&
		sed "s/^line 13\$/line 13 upstream/" ../gap.base >f.txt &&
		git add f.txt && git commit -q -m back &&
		cp f.txt ../gap.expect &&
		git merge-file -q ../gap.expect ../gap.base ../gap.theirs &&
		git ai-apply ../gap.diff 2>../err &&
		staged_as f.txt ../gap.expect
	) &&
	commit=$(git -C gap rev-parse --short=7 HEAD~2) &&
	test_grep "hunks applied to commit $commit" err
'

# f.txt at v1: one block ending "}" then a blank line; upstream added a
# second block ending the same way. A bare hunk with one line of context
# on each side finds its old lines at two places now, once at v1.
setup_two_ends () {
	rm -rf "$1" && git init -q "$1" &&
	(
		cd "$1" &&
		printf "head\nf1 {\n}\n\nend\n" >f.txt &&
		git add f.txt && git commit -q -m v1 &&
		printf "head\nf1 {\n}\n\nf2 {\n}\n\nend\n" >f.txt &&
		git commit -q -a -m upstream
	)
}

test_expect_success 'a bare hunk whose lines stand at two places now is refused, not merged from a version where they stood once' '
	setup_two_ends twoends &&
	cat >twoends.diff <<-\EOF &&
	--- a/f.txt
	+++ b/f.txt
	@@
	 }
	+added
	 
	EOF
	(
		cd twoends &&
		test_rejected ../twoends.diff &&
		test_grep "ambiguous" err &&
		! grep "merged into the current content" err
	)
'

test_expect_success 'a bare hunk with an old line the current content lacks still merges from the version that has it' '
	setup_two_ends twoends2 &&
	printf "head\nf1 {\n  body\n}\n\nf2 {\n}\n\nend\n" >twoends2/f.txt &&
	git -C twoends2 commit -q -a -m "f1 body" &&
	printf "head\nf1 {\n  body\n}\n\nf2 {\n}\n\nend\n" >twoends2.expect &&
	cat >twoends2.diff <<-\EOF &&
	--- a/f.txt
	+++ b/f.txt
	@@
	 f1 {
	 }
	+added
	EOF
	printf "head\nf1 {\n  body\n}\nadded\n\nf2 {\n}\n\nend\n" >twoends2.expect &&
	(
		cd twoends2 &&
		git ai-apply ../twoends2.diff 2>../err &&
		staged_as f.txt ../twoends2.expect
	) &&
	test_grep "merged into the current content" err
'

test_done
