#!/bin/sh

test_description='--branch: the commit names its answer in trailers; -m replaces the subject only'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	make_repo repo &&
	mkdir answers &&
	cat >answers/exact.diff <<-\EOF &&
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
	printf "%s\n" "--- a/a.txt" "+++ b/a.txt" "@@ -1,3 +1,3 @@" \
		" one  " "-two" "+TWO" " three" >answers/loose.diff &&
	cat >answers/file.md <<-\EOF
	--- START-REPLACE-FILE: dir/b.txt ---
	gamma
	--- END-REPLACE-FILE: dir/b.txt ---
	EOF
'

# trailers BRANCH: the trailers of the branch's commit, as git parses them.
trailers () {
	git log -1 --format=%B "$1" | git interpret-trailers --parse
}

test_expect_success 'the commit carries the answer, its blob id, formats, tolerant placements' '
	(
		cd repo &&
		git ai-apply --branch=s/exact ../answers/exact.diff &&
		cat >expect <<-EOF &&
		AI-Answer: exact.diff
		AI-Answer-Blob: $(git hash-object ../answers/exact.diff)
		AI-Formats: diff
		AI-Tolerant-Placements: 0
		EOF
		trailers s/exact >actual &&
		test_cmp expect actual &&
		git log -1 --format=%s s/exact >subject &&
		echo "ai-apply: update a.txt" >expect &&
		test_cmp expect subject
	)
'

test_expect_success 'a placement git apply would refuse is counted' '
	(
		cd repo &&
		git ai-apply --branch=s/loose ../answers/loose.diff 2>err &&
		trailers s/loose >actual &&
		test_grep "^AI-Tolerant-Placements: 1$" actual
	)
'

test_expect_success 'several inputs: each named, the formats each once' '
	(
		cd repo &&
		git ai-apply --branch=s/two ../answers/exact.diff ../answers/file.md &&
		trailers s/two >actual &&
		test_grep "^AI-Answer: exact.diff$" actual &&
		test_grep "^AI-Answer: file.md$" actual &&
		test_grep "^AI-Answer-Blob: $(git hash-object ../answers/file.md)$" actual &&
		test_grep "^AI-Formats: diff, companion$" actual
	)
'

test_expect_success '-m replaces the subject only: the trailers stay' '
	(
		cd repo &&
		git ai-apply --branch=s/msg -m "my subject" ../answers/exact.diff &&
		git log -1 --format=%s s/msg >subject &&
		echo "my subject" >expect &&
		test_cmp expect subject &&
		trailers s/msg >actual &&
		test_grep "^AI-Answer: exact.diff$" actual
	)
'

test_expect_success 'the index and default modes write no trailers (no commit)' '
	(
		cd repo &&
		git ai-apply --check ../answers/exact.diff &&
		git rev-parse HEAD >before &&
		git ai-apply --cached ../answers/exact.diff &&
		git rev-parse HEAD >after &&
		test_cmp before after &&
		git reset -q --hard
	)
'

test_done
