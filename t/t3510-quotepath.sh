#!/bin/sh

test_description='core.quotePath: the paths of every report quoted as git quotes them, or not'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: a file named in UTF-8, a change to it and a new one' '
	git init -q repo &&
	(
		cd repo &&
		printf "x\n" >café.txt &&
		printf "keep\n" >plain.txt &&
		git add . && git commit -q -m base && git tag base &&
		printf "X\n" >café.txt &&
		printf "n\n" >naïve.txt &&
		printf "m\n" >"naïve dir.txt" &&
		git add -A && git diff --cached >../utf8.diff &&
		git diff --cached -- café.txt naïve.txt >../nospace.diff &&
		git reset -q --hard base && git clean -qfd
	) &&
	test_grep "caf" utf8.diff
'

for v in true false
do
	for opt in --stat --numstat --summary "--stat --summary"
	do
		test_expect_success "core.quotePath=$v: $opt as git apply $opt" "
			git -C repo -c core.quotePath=$v apply $opt ../utf8.diff >expect &&
			git -C repo -c core.quotePath=$v ai-apply $opt ../utf8.diff >actual &&
			test_cmp expect actual
		"
	done

	test_expect_success "core.quotePath=$v: --diff names the files as git diff" "
		rm -rf d && cp -R repo d &&
		git -C d -c core.quotePath=$v ai-apply --diff ../nospace.diff >actual.raw &&
		git -C d ai-apply ../nospace.diff >/dev/null &&
		git -C d -c core.quotePath=$v diff --cached >expect.raw &&
		grep -v ^index expect.raw >expect &&
		grep -v ^index actual.raw >actual &&
		test_cmp expect actual
	"
done

test_expect_success 'the summary: octal by default (git'"'"'s), UTF-8 with core.quotePath=false' '
	rm -rf s && cp -R repo s &&
	git -C s ai-apply --check ../nospace.diff >out &&
	test_grep "^M \"caf\\\\303\\\\251.txt\" (+1 -1)\$" out &&
	git -C s -c core.quotePath=false ai-apply --check ../nospace.diff >out &&
	test_grep "^M café.txt (+1 -1)\$" out
'

test_expect_success 'the repository'"'"'s own configuration is read too' '
	rm -rf c && cp -R repo c &&
	git -C c config core.quotePath false &&
	git -C c ai-apply --numstat ../nospace.diff >out &&
	test_grep "	café.txt\$" out &&
	git -C c -c core.quotePath=true ai-apply --numstat ../nospace.diff >out &&
	test_grep "	\"caf\\\\303\\\\251.txt\"\$" out
'

test_expect_success 'messages follow it: a refusal names the path as the reports do' '
	rm -rf m && cp -R repo m &&
	(
		cd m &&
		printf "Y\n" >café.txt && git add café.txt &&
		test_rejected ../nospace.diff &&
		test_grep "^error: \"caf\\\\303\\\\251.txt\": " err &&
		repo_snapshot pre &&
		test_expect_code 1 git -c core.quotePath=false ai-apply ../nospace.diff 2>../err2 &&
		repo_unchanged pre &&
		test_grep "^error: café.txt: " ../err2
	)
'

test_expect_success 'control characters stay escaped whatever core.quotePath says' '
	esc=$(printf "\033") &&
	printf "*** Begin Patch\n*** Add File: t%sx.txt\n+x\n*** End Patch\n" "$esc" >esc.md &&
	rm -rf t && cp -R repo t &&
	(
		cd t &&
		repo_snapshot pre &&
		for v in true false
		do
			test_expect_code 1 git -c core.quotePath=$v ai-apply ../esc.md 2>../err &&
			test_grep -F "invalid path \"t\\033x.txt\"" ../err &&
			! grep "$esc" ../err || return 1
		done &&
		repo_unchanged pre
	)
'

test_expect_success '--json is never quoted: its strings are JSON-escaped' '
	rm -rf j && cp -R repo j &&
	git -C j ai-apply --json --check ../nospace.diff >out &&
	jq -e "[.files[].path] | index(\"café.txt\") != null" out &&
	git -C j -c core.quotePath=false ai-apply --json --check ../nospace.diff >out2 &&
	test_cmp out out2
'

test_done
