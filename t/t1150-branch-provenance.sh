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
		Assisted-by: git-ai-apply (diff, answer $(git hash-object ../answers/exact.diff | cut -c1-12))
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

test_expect_success 'the answer text is the commit'"'"'s note, its blob the AI-Answer-Blob' '
	(
		cd repo &&
		git notes --ref=ai-apply show s/exact >note &&
		test_cmp ../answers/exact.diff note &&
		git notes --ref=ai-apply list s/exact >blob &&
		git hash-object ../answers/exact.diff >expect &&
		test_cmp expect blob &&
		git log -1 --notes=ai-apply --format=%N s/loose >shown &&
		test_grep "^ one  $" shown &&
		git fsck --no-progress
	)
'

test_expect_success 'several inputs: the note holds each answer under its name' '
	(
		cd repo &&
		git notes --ref=ai-apply show s/two >note &&
		test_grep "^--- AI-Answer: exact.diff ---$" note &&
		test_grep "^--- AI-Answer: file.md ---$" note &&
		test_grep "^gamma$" note
	)
'

test_expect_success 'a held lock on the notes ref: no branch, no note (128)' '
	(
		cd repo &&
		old=$(git rev-parse refs/notes/ai-apply) &&
		>.git/refs/notes/ai-apply.lock &&
		test_when_finished "rm -f .git/refs/notes/ai-apply.lock" &&
		test_expect_code 128 git ai-apply --branch=s/locked \
			../answers/exact.diff 2>err &&
		test_grep "Unable to create .*refs/notes/ai-apply.lock.: File exists" err &&
		test_must_fail git rev-parse --verify -q s/locked &&
		test "$(git rev-parse refs/notes/ai-apply)" = "$old"
	)
'

test_expect_success 'a notes lock released while waiting: the branch and note land' '
	(
		cd repo &&
		>.git/refs/notes/ai-apply.lock &&
		{ git ai-apply --branch=s/waited ../answers/exact.diff \
			>out 2>err & } &&
		pid=$! &&
		sleep 0.3 &&
		rm -f .git/refs/notes/ai-apply.lock &&
		wait $pid &&
		git notes --ref=ai-apply show s/waited >note &&
		test_cmp ../answers/exact.diff note
	)
'

test_expect_success 'a held lock on the branch: no note either (128)' '
	(
		cd repo &&
		old=$(git rev-parse refs/notes/ai-apply) &&
		mkdir -p .git/refs/heads/s &&
		>.git/refs/heads/s/held.lock &&
		test_when_finished "rm -f .git/refs/heads/s/held.lock" &&
		test_expect_code 128 git ai-apply --branch=s/held \
			../answers/exact.diff 2>err &&
		test_must_fail git rev-parse --verify -q s/held &&
		test "$(git rev-parse refs/notes/ai-apply)" = "$old"
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
