#!/bin/sh

test_description='the review record of a staged landing, and --review'

. "$(dirname "$0")/test-lib.sh"

numbered () {
	i=1
	while test $i -le $1
	do
		echo "line $i"
		i=$((i + 1))
	done
}

# The repository: f.txt changed upstream since the answer was written
# (its hunk lands merged), g.txt whose line "  b" the answer quotes
# without its indentation (the whitespace rung). ../answer.diff has both.
test_expect_success 'setup: an answer with a merged and a whitespace placement' '
	git init -q repo &&
	(
		cd repo &&
		numbered 30 >f.txt &&
		printf "a\n  b\nc\nd\n" >g.txt &&
		git add . &&
		git commit -q -m v1 &&
		sed "s/^line 15\$/line 15 answer/" f.txt >f.new &&
		mv f.new f.txt &&
		git diff >../f.diff &&
		git checkout -q f.txt &&
		sed "s/^line 13\$/line 13 upstream/" f.txt >f.new &&
		mv f.new f.txt &&
		git commit -q -a -m upstream &&
		git tag base
	) &&
	printf "%s\n" "--- a/g.txt" "+++ b/g.txt" "@@ -1,3 +1,3 @@" \
		" a" "-b" "+B" " c" >g.diff &&
	cat f.diff g.diff >answer.diff
'

record=.git/ai-apply/review

test_expect_success '--check and --branch write no review record' '
	(
		cd repo &&
		git ai-apply --check ../answer.diff 2>/dev/null &&
		test_path_is_missing $record &&
		git ai-apply --branch=s ../answer.diff 2>/dev/null &&
		test_path_is_missing $record
	)
'

test_expect_success 'a staged landing records the answer, each staged blob and each placement' '
	(
		cd repo &&
		git ai-apply ../answer.diff 2>../err &&
		test_path_is_file $record &&
		printf "answer\t%s\t../answer.diff\n" \
			"$(git hash-object ../answer.diff)" >expect &&
		printf "path\t%s\tf.txt\n" "$(git rev-parse :f.txt)" >>expect &&
		printf "path\t%s\tg.txt\n" "$(git rev-parse :g.txt)" >>expect &&
		grep -E "^(answer|path)	" $record >actual &&
		test_cmp expect actual &&
		grep "^edit	[0-9]*	[-0-9]*	merged	none	f.txt\$" $record &&
		grep "^edit	[0-9]*	[-0-9]*	whitespace	none	g.txt\$" $record &&
		grep "^warning	.*	g.txt\$" $record
	)
'

test_expect_success '--review marks the whitespace and the merged placements' '
	(
		cd repo &&
		git ai-apply --review >../out &&
		test_grep "^f.txt: 1 edit, 1 tolerant (merged)\$" ../out &&
		test_grep "^g.txt: 1 edit, 1 tolerant (whitespace)\$" ../out &&
		test_grep "^!   ^ merged placement\$" ../out &&
		test_grep "^!   ^ whitespace placement at line 1 " ../out &&
		test_grep "^! +line 15 answer\$" ../out &&
		test_grep "^! +B\$" ../out &&
		test_grep "^  diff --git a/g.txt b/g.txt\$" ../out
	)
'

test_expect_success '--review shows the diff git diff --cached shows' '
	(
		cd repo &&
		git ai-apply --review >../out &&
		sed -n "s/^[ !] \\([-+ ].*\\)/\\1/p" ../out | grep -v "^ *^" >actual &&
		git diff --cached -- f.txt g.txt |
			grep -E "^[-+ ]" >expect &&
		test_cmp expect actual
	)
'

test_expect_success '--review --json is valid and says what is staged' '
	(
		cd repo &&
		git ai-apply --review --json >../json &&
		jq -e ".status == \"staged\"" ../json &&
		test "$(jq -r ".answers[0].blob" ../json)" = \
			"$(git hash-object ../answer.diff)" &&
		test "$(jq -r ".files[1].staged_blob" ../json)" = \
			"$(git rev-parse :g.txt)" &&
		test "$(jq -r ".files[0].edits[0].how" ../json)" = merged &&
		test "$(jq -r ".files[1].tolerant" ../json)" = 1 &&
		jq -r .diff ../json | grep "^+B\$"
	)
'

test_expect_success 'changes the user made after staging are shown' '
	(
		cd repo &&
		echo more >>f.txt &&
		echo restaged >>g.txt &&
		git add g.txt &&
		git ai-apply --review >../out &&
		test_grep "^f.txt: .*; changed in the work tree since staging\$" ../out &&
		test_grep "^g.txt: .*; changed in the index since staging\$" ../out &&
		git ai-apply --review --json >../json &&
		jq -e ".files[0].changed_in_worktree and (.files[1].changed_in_index)" ../json
	)
'

test_expect_success 'the record is dropped once committed' '
	(
		cd repo &&
		git commit -q -m taken &&
		git ai-apply --review >../out &&
		echo "no staged AI change to review" >expect &&
		test_cmp expect ../out &&
		test_path_is_missing $record &&
		git ai-apply --review --json >../json &&
		jq -e ".status == \"none\"" ../json
	)
'

test_expect_success 'the record is dropped after a reset; --cached records too' '
	(
		cd repo &&
		git reset -q --hard base &&
		git ai-apply --cached ../answer.diff 2>/dev/null &&
		test_path_is_file $record &&
		git ai-apply --review >../out &&
		test_grep "^g.txt: 1 edit" ../out &&
		git reset -q &&
		git ai-apply --review >../out &&
		test_grep "no staged AI change" ../out &&
		test_path_is_missing $record
	)
'

test_expect_success 'a record that cannot be written is a warning, not a failure' '
	(
		cd repo &&
		git reset -q --hard base &&
		mkdir -p $record/blocker &&
		git ai-apply ../g.diff 2>../err &&
		test_grep "^warning: cannot write the review record" ../err &&
		test "$(git show :g.txt | sed -n 2p)" = B &&
		test_path_is_missing $record.tmp &&
		rm -r $record
	)
'

test_expect_success 'a damaged record is an error naming it, in --json too' '
	(
		cd repo &&
		printf "ai-apply-review 1\nedit\tx\n" >$record &&
		test_expect_code 128 git ai-apply --review 2>../err &&
		test_grep "review:2: .*review record is damaged" ../err &&
		test_expect_code 128 git ai-apply --review --json >../json 2>/dev/null &&
		jq -e ".status == \"error\" and (.errors[0].message | test(\"damaged\"))" ../json &&
		rm $record
	)
'

test_expect_success '--review takes no input and no landing option' '
	(
		cd repo &&
		test_expect_code 128 git ai-apply --review ../g.diff 2>../err &&
		test_grep "review takes no input" ../err &&
		test_expect_code 128 git ai-apply --review --cached 2>../err
	)
'

hook="$AA_TEST_DIR/../contrib/hooks/pre-commit"

test_expect_success 'pre-commit hook: warns while tolerant placements are unseen, blocks with ai-apply.review=block' '
	(
		cd repo &&
		git reset -q --hard base &&
		mkdir -p .git/hooks &&
		cp "$hook" .git/hooks/pre-commit &&
		git ai-apply ../answer.diff 2>/dev/null &&
		git config ai-apply.review block &&
		test_must_fail git commit -q -m blocked 2>../err &&
		test_grep "^  g.txt: 1 edit(s), 1 tolerant\$" ../err &&
		test_grep "2 tolerant placement(s) not reviewed" ../err &&
		test "$(git rev-parse HEAD)" = "$(git rev-parse base)" &&
		git config ai-apply.review warn &&
		git commit -q -m warned 2>../err &&
		test_grep "warning: 2 tolerant placement(s) not reviewed" ../err
	)
'

test_expect_success 'pre-commit hook: --review marks them seen; off says nothing; other commits pass' '
	(
		cd repo &&
		git reset -q --hard base &&
		git ai-apply ../answer.diff 2>/dev/null &&
		git config ai-apply.review block &&
		git ai-apply --review >/dev/null &&
		git commit -q -m reviewed 2>../err &&
		test_grep "holds a change staged by git ai-apply" ../err &&
		test_must_fail grep "not reviewed" ../err &&
		echo other >other.txt &&
		git add other.txt &&
		git commit -q -m other 2>../err &&
		test_must_be_empty ../err &&
		git reset -q --hard base &&
		git ai-apply ../answer.diff 2>/dev/null &&
		git config ai-apply.review off &&
		git commit -q -m off 2>../err &&
		test_must_be_empty ../err &&
		rm .git/hooks/pre-commit
	)
'

# k.txt indents every line four blanks deeper than the answer quotes
# it: the whitespace rung re-indents the added line.
test_expect_success 'setup: an answer whose added lines are re-indented' '
	git init -q ri &&
	(
		cd ri &&
		printf "    a = 1\n    b = 2\n    d = 4\n" >k.txt &&
		git add k.txt &&
		git commit -q -m k
	) &&
	printf "%s\n" "--- a/k.txt" "+++ b/k.txt" "@@ -1,3 +1,4 @@" \
		" a = 1" "+c = 3" " b = 2" " d = 4" >reindent.diff
'

test_expect_success 'the re-indent is its own field: in the record, the landing JSON and the warning' '
	(
		cd ri &&
		git ai-apply --json ../reindent.diff >../json 2>../err &&
		test "$(git show :k.txt | sed -n 2p)" = "    c = 3" &&
		jq -e ".files[0].edits[0] | .how == \"whitespace\" and
			.reindent == \"deeper\" and .reindent_by == 4" ../json &&
		test_grep "added lines indented 4 blanks deeper, as the file is" ../err &&
		grep "^edit	1	0	whitespace	deeper:4	k.txt\$" $record
	)
'

test_expect_success '--review shows the re-indent in the summary and the margin, and --json' '
	(
		cd ri &&
		git ai-apply --review >../out &&
		test_grep "^k.txt: 1 edit, 1 tolerant (whitespace re-indented)\$" ../out &&
		test_grep "^!   ^ whitespace placement at line 1 (offset +0); added lines indented 4 blanks deeper\$" ../out &&
		git ai-apply --review --json >../json &&
		jq -e ".files[0].edits[0] | .reindent == \"deeper\" and .reindent_by == 4" ../json
	)
'

test_expect_success 'an exact landing has no re-indent' '
	(
		cd ri &&
		git reset -q --hard &&
		sed "4,\$s/^\(.\)/\1    /" ../reindent.diff >../exact.diff &&
		git ai-apply --json ../exact.diff >../json 2>/dev/null &&
		jq -e ".files[0].edits[0] | .how == \"exact\" and
			.reindent == \"none\" and .reindent_by == 0" ../json &&
		grep "^edit	1	0	exact	none	k.txt\$" $record
	)
'

test_expect_success 'a record of version 1 (no re-indent field) is still read' '
	(
		cd ri &&
		{
			echo "ai-apply-review 1" &&
			printf "path\t%s\tk.txt\n" "$(git rev-parse :k.txt)" &&
			printf "edit\t1\t0\twhitespace\tk.txt\n"
		} >$record &&
		git ai-apply --review >../out &&
		test_grep "^k.txt: 1 edit, 1 tolerant (whitespace)\$" ../out
	)
'

# ---- version 3: what --undo needs; conflicts; --cached's work tree ----

test_expect_success 'setup: a file changed upstream since the answer (a conflict)' '
	git init -q tw &&
	(
		cd tw &&
		printf "a\nb\nc\nd\ne\n" >f.txt &&
		printf "x\ny\n" >h.txt &&
		git add . &&
		git commit -q -m v1 &&
		sed "s/^c\$/C answer/" f.txt >f.new && mv f.new f.txt &&
		git diff >../conflict.diff &&
		git checkout -q f.txt &&
		sed "s/^c\$/c upstream/" f.txt >f.new && mv f.new f.txt &&
		git commit -q -a -m upstream
	) &&
	printf "%s\n" "--- a/h.txt" "+++ b/h.txt" "@@ -1,2 +1,2 @@" \
		" x" "-y" "+Y" >h.diff
'

test_expect_success 'version 3: the landing mode, HEAD and each path before the landing' '
	(
		cd tw &&
		git ai-apply ../h.diff 2>/dev/null &&
		head -n 1 $record >actual &&
		echo "ai-apply-review 3" >expect &&
		test_cmp expect actual &&
		grep "^landing	index\$" $record &&
		grep "^head	$(git rev-parse HEAD)\$" $record &&
		grep "^before	100644	$(git rev-parse HEAD:h.txt)	100644	h.txt\$" $record &&
		! grep "^worktree	" $record &&
		git reset -q --hard
	)
'

test_expect_success '--review after --3way shows the conflict, not a deletion' '
	(
		cd tw &&
		test_expect_code 1 git ai-apply --3way ../conflict.diff 2>/dev/null &&
		grep "^conflict	$(git rev-parse :3:f.txt)	$(git hash-object f.txt)	f.txt\$" $record &&
		git ai-apply --review >../out &&
		test_grep "^f.txt: .*; conflict: stages 1, 2 and 3 in the index, conflict markers in the work tree\$" ../out &&
		! grep "deleted file" ../out &&
		! grep "/dev/null" ../out &&
		! grep "changed in the work tree" ../out &&
		test_grep "^[ !] +<<<<<<< ours\$" ../out &&
		test_grep "^[ !] +>>>>>>> theirs\$" ../out &&
		test_grep "^[ !]  c upstream\$" ../out &&
		git ai-apply --review --json >../json &&
		jq -e ".files[0].conflict == true and .files[0].staged == true" ../json
	)
'

test_expect_success '--review after the conflict is resolved: no longer the AI change' '
	(
		cd tw &&
		printf "a\nb\nresolved\nd\ne\n" >f.txt &&
		git add f.txt &&
		git ai-apply --review >../out &&
		test_grep "^no staged AI change to review\$" ../out
	) &&
	git -C tw reset -q --hard
'

test_expect_success '--review after --cached: the work tree it did not write is not "changed"' '
	(
		cd tw &&
		git ai-apply --cached ../h.diff 2>/dev/null &&
		grep "^landing	cached\$" $record &&
		grep "^worktree	100644	$(git hash-object h.txt)	h.txt\$" $record &&
		git ai-apply --review >../out &&
		test_grep "^h.txt: 1 edit, 0 tolerant\$" ../out &&
		git ai-apply --review --json >../json &&
		jq -e ".files[0].changed_in_worktree == false" ../json
	)
'

test_expect_success '--review after --cached: an edit since, not staged, is "changed"' '
	(
		cd tw &&
		echo more >>h.txt &&
		git ai-apply --review >../out &&
		test_grep "^h.txt: 1 edit, 0 tolerant; changed in the work tree since staging\$" ../out &&
		git add h.txt &&
		git ai-apply --review >../out &&
		! grep "changed in the work tree" ../out
	) &&
	git -C tw reset -q --hard
'

test_expect_success '--review after a default landing: an unstaged edit is "changed"' '
	(
		cd tw &&
		git ai-apply ../h.diff 2>/dev/null &&
		git ai-apply --review >../out &&
		! grep "changed in" ../out &&
		echo more >>h.txt &&
		git ai-apply --review >../out &&
		test_grep "^h.txt: .*; changed in the work tree since staging\$" ../out &&
		git add h.txt &&
		git ai-apply --review >../out &&
		test_grep "^no staged AI change to review\$" ../out
	) &&
	git -C tw reset -q --hard
'

test_expect_success 'a record of version 2 is still read' '
	(
		cd tw &&
		git ai-apply ../h.diff 2>/dev/null &&
		grep -v -E "^(landing|head|before|worktree|conflict)	" $record |
			sed "1s/.*/ai-apply-review 2/" >v2 &&
		mv v2 $record &&
		git ai-apply --review >../out &&
		test_grep "^h.txt: 1 edit, 0 tolerant\$" ../out
	) &&
	git -C tw reset -q --hard
'

test_done
