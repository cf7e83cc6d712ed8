#!/bin/sh

test_description='--list: the suggestion branches, how far HEAD moved from their base, and whether each merges now'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: four suggestions, then HEAD moves' '
	git init -q repo &&
	(
		cd repo &&
		seq 1 10 >a.txt &&
		echo bee >b.txt &&
		git add . &&
		git commit -q -m initial &&
		git tag base &&
		git branch plain &&
		sed "s/^2\$/two/" a.txt >../a2 &&
		sed "s/^9\$/nine/" a.txt >../a9 &&
		test_expect_code 1 git diff --no-index a.txt ../a2 >../raw2 &&
		sed "s|b/../a2|b/a.txt|" ../raw2 >../line2.diff &&
		test_expect_code 1 git diff --no-index a.txt ../a9 >../raw9 &&
		sed "s|b/../a9|b/a.txt|" ../raw9 >../line9.diff &&
		printf "%s\n" "--- START-REPLACE-FILE: b.txt ---" "BEE" \
			"--- END-REPLACE-FILE: b.txt ---" >../b.md &&
		printf "%s\n" "--- START-FILE: c.txt ---" "sea" \
			"--- END-FILE: c.txt ---" >../c.md &&
		git ai-apply --each --branch=s ../line2.diff ../line9.diff ../b.md ../c.md &&
		sed "s/^9\$/NINE/" a.txt >tmp && mv tmp a.txt &&
		git commit -q -a -m "HEAD changes line 9" &&
		git merge -q --no-edit s-3 &&
		echo sea >c.txt &&
		git add c.txt &&
		git commit -q -m "c.txt as s-4 makes it" &&
		git checkout -q -b side base &&
		git commit -q --allow-empty -m side &&
		git checkout -q - &&
		git ai-apply --branch=off --base=side ../b.md
	)
'

test_expect_success 'each suggestion: merges, conflicts, merged, applied' '
	(
		cd repo &&
		git ai-apply --list >../out
	) &&
	cut -d" " -f1 out >names &&
	printf "%s\n" off s-1 s-2 s-3 s-4 >expect &&
	test_cmp expect names &&
	test_grep "^s-1  *merges  *line2.diff  base $(git -C repo rev-parse --short=7 base) (HEAD +4)  *1 file +1 -1  tolerant 0$" out &&
	test_grep "^s-2  *conflicts " out &&
	test_grep "^s-3  *merged " out &&
	test_grep "^s-4  *applied " out &&
	test_grep "^off .* (not in HEAD.s history)" out
'

test_expect_success 'HEAD moved on other paths: the listing agrees with git merge-tree' '
	git init -q moved &&
	(
		cd moved &&
		echo k >k.txt &&
		mkdir lib &&
		printf "one\ntwo\nthree\n" >lib/u.txt &&
		echo gone >lib/gone.txt &&
		git add . &&
		git commit -q -m base &&
		printf "%s\n" "--- START-FILE: d/x.txt ---" "x" \
			"--- END-FILE: d/x.txt ---" >../t1.md &&
		printf "%s\n" "--- START-REPLACE-FILE: lib/u.txt ---" "ONE" \
			"--- END-REPLACE-FILE: lib/u.txt ---" >../t2.md &&
		printf "%s\n" "--- START-FILE: n.txt ---" "mine" \
			"--- END-FILE: n.txt ---" >../t3.md &&
		printf "%s\n" "--- START-FILE: lib/new.txt ---" "new" \
			"--- END-FILE: lib/new.txt ---" >../t4.md &&
		printf "%s\n" "--- START-FILE: k.txt/y ---" "y" \
			"--- END-FILE: k.txt/y ---" >../t5.md &&
		git ai-apply --each --branch=t ../t1.md ../t2.md ../t3.md ../t4.md &&
		git rm -q k.txt &&
		git commit -q -m "k.txt goes" &&
		git ai-apply --branch=t-5 ../t5.md &&
		git checkout -q -f HEAD~1 -- k.txt &&
		git commit -q -m "k.txt back" &&
		echo d >d &&
		echo theirs >n.txt &&
		git rm -q lib/gone.txt &&
		echo kk >>k.txt &&
		git add . &&
		git commit -q -m "HEAD: a file d, its own n.txt, lib/gone.txt deleted" &&
		git ai-apply --list "t-*" >../moved.out &&
		for b in t-1 t-2 t-3 t-4 t-5
		do
			if git merge-tree --write-tree HEAD $b >/dev/null
			then
				echo "$b merges"
			else
				echo "$b conflicts"
			fi || return 1
		done >../moved.expect
	) &&
	sed "s/  */ /g" moved.out | cut -d" " -f1,2 >moved.actual &&
	test_cmp moved.expect moved.actual &&
	test_grep "^t-1 conflicts" moved.actual &&
	test_grep "^t-2 merges" moved.actual &&
	test_grep "^t-5 conflicts" moved.actual
'

test_expect_success '--list writes nothing: no object, no ref' '
	(
		cd repo &&
		repo_snapshot list &&
		find .git/objects -type f | sort >../objects.before &&
		git ai-apply --list >/dev/null &&
		find .git/objects -type f | sort >../objects.after &&
		repo_unchanged list
	) &&
	test_cmp objects.before objects.after
'

test_expect_success '--list <pattern> and --json' '
	(
		cd repo &&
		git ai-apply --list --json "s-[12]" >../out.json
	) &&
	jq -r ".suggestions[] | .branch + \" \" + .merge" out.json >actual &&
	printf "s-1 merges\ns-2 conflicts\n" >expect &&
	test_cmp expect actual &&
	jq -e ".status == \"listed\" and .suggestions[0].head_ahead == 4 and
		.suggestions[0].base_in_head and .suggestions[0].answer == \"line2.diff\"" out.json
'

test_expect_success '--list with a landing option is fatal' '
	test_expect_code 128 git -C repo ai-apply --list --cached 2>err &&
	test_grep "fatal: --list takes" err
'

test_expect_success 'HEAD still at the base: a change merges, an empty one is applied' '
	git init -q fresh &&
	(
		cd fresh &&
		seq 1 10 >a.txt &&
		git add a.txt &&
		git commit -q -m initial &&
		git ai-apply -q --branch=t ../line2.diff &&
		c=$(git commit-tree -p HEAD -m empty -m "AI-Answer: none.md" HEAD^{tree}) &&
		git update-ref refs/heads/e $c &&
		git ai-apply --list >../out
	) &&
	test_grep "^t  *merges  *line2.diff  base $(git -C fresh rev-parse --short=7 HEAD) (HEAD +0)" out &&
	test_grep "^e  *applied " out
'

test_expect_success 'files and lines as git diff counts them: deleted, added in new directories, mode, file to directory' '
	(
		cd fresh &&
		git checkout -q -b shapes &&
		echo one >b.txt && echo d >d &&
		git add b.txt d &&
		git commit -q -m "b.txt and d" &&
		git rm -q a.txt d &&
		mkdir -p n/m d &&
		printf "1\n2\n3\n" >n/m/new.txt && echo x >d/x &&
		chmod +x b.txt &&
		git add -A &&
		git commit -q -m shapes -m "AI-Answer: shapes.md" &&
		git checkout -q - &&
		git diff --numstat shapes^ shapes >../numstat &&
		git ai-apply --list shapes >../out
	) &&
	awk "{ a += \$1; r += \$2; n++ } END { printf \"%d files +%d -%d\n\", n, a, r }" numstat >expect &&
	test_grep "^5 files +4 -11$" expect &&
	test_grep "^shapes .* $(cat expect)$" out
'

test_expect_success 'columns line up over all rows, whatever the widths' '
	(
		cd repo &&
		git ai-apply --list >../out
	) &&
	# each column starts where it starts on the first line
	for word in "base " "1 file" "tolerant"
	do
		awk -v w="$word" "{ print index(\$0, w) }" out | sort -u >cols &&
		test $(wc -l <cols) = 1 || return 1
	done &&
	awk "{ print index(\$0, \$2) \" \" index(\$0, \$3) }" out | sort -u >cols &&
	test $(wc -l <cols) = 1 &&
	! grep " \$" out
'

test_expect_success 'the branch checked out is left out (a suggestion fast-forwarded into it)' '
	git init -q ff &&
	(
		cd ff &&
		seq 1 10 >a.txt &&
		git add a.txt &&
		git commit -q -m initial &&
		git ai-apply -q --branch=ai/s ../line2.diff &&
		git ai-apply -q --branch=ai/t ../c.md &&
		git merge -q --ff-only ai/s &&
		git ai-apply --list >../out &&
		git ai-apply --list --json >../json &&
		git checkout -q ai/t &&
		git ai-apply --list >../out2
	) &&
	cut -d" " -f1 out >names &&
	printf "%s\n" ai/s ai/t >expect &&
	test_cmp expect names &&
	jq -r ".suggestions[].branch" json >names &&
	test_cmp expect names &&
	cut -d" " -f1 out2 >names &&
	printf "%s\n" ai/s master >expect &&
	test_cmp expect names
'

test_expect_success 'names as the trailer quotes them; a control byte quoted; --json raw' '
	git init -q q &&
	(
		cd q &&
		seq 1 10 >a.txt &&
		git add a.txt &&
		git commit -q -m initial &&
		cp ../c.md "../caf$(printf "\303\251").md" &&
		git ai-apply -q --branch=ai/q "../caf$(printf "\303\251").md" &&
		c=$(git commit-tree -p HEAD -m tab -m "AI-Answer: a$(printf "\033")b.md" HEAD^{tree}) &&
		git update-ref refs/heads/ai/r $c &&
		git ai-apply --list >../out &&
		git ai-apply --list --json >../json
	) &&
	test_grep "^ai/q  merges   \"caf\\\\303\\\\251.md\"  base " out &&
	test_grep "^ai/r  applied  \"a\\\\033b.md\"       base " out &&
	test "$(jq -r ".suggestions[0].answer" json)" = "\"caf\\303\\251.md\"" &&
	test "$(jq -r ".suggestions[1].answer" json)" = "a$(printf "\033")b.md"
'

test_done
