#!/bin/sh

test_description='--predictions: a branch per prediction, each on its own base, results as JSON Lines'

. "$(dirname "$0")/test-lib.sh"

# swe ID MODEL PATCHFILE [BASE]: one SWE-bench prediction as a JSON line
swe () {
	if test -n "$4"
	then
		jq -cn --arg id "$1" --arg m "$2" --rawfile p "$3" --arg b "$4" \
			"{instance_id: \$id, model_name_or_path: \$m, model_patch: \$p, base_commit: \$b}"
	else
		jq -cn --arg id "$1" --arg m "$2" --rawfile p "$3" \
			"{instance_id: \$id, model_name_or_path: \$m, model_patch: \$p}"
	fi
}

# field N KEY: KEY of the record of prediction N (its place in the file)
field () {
	jq -r "select(.record == $1) | .$2" results
}

test_expect_success 'setup: two bases, diffs against each' '
	make_repo repo &&
	(
		cd repo &&
		git tag b1 &&
		printf "one\ntwo\nthree\nfour\n" >a.txt &&
		git commit -q -am four &&
		git tag b2 &&
		printf "one\nTWO\nthree\nfour\n" >a.txt &&
		git commit -q -am TWO &&
		git tag b3
	) &&
	B1=$(git -C repo rev-parse b1) &&
	B2=$(git -C repo rev-parse b2) &&
	B3=$(git -C repo rev-parse b3) &&
	echo "B1=$B1 B2=$B2 B3=$B3" >bases.sh &&
	cat >p1.diff <<-\EOF &&
	diff --git a/a.txt b/a.txt
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+2
	 three
	EOF
	cat >p2.diff <<-\EOF &&
	diff --git a/a.txt b/a.txt
	--- a/a.txt
	+++ b/a.txt
	@@ -2,3 +2,3 @@
	 two
	 three
	-four
	+4
	EOF
	cat >p3.diff <<-\EOF &&
	diff --git a/dir/b.txt b/dir/b.txt
	--- a/dir/b.txt
	+++ b/dir/b.txt
	@@ -1,2 +1,3 @@
	 alpha
	 beta
	+gamma
	EOF
	cat >bad.diff <<-\EOF &&
	diff --git a/a.txt b/a.txt
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 not
	-in
	+the
	 file
	EOF
	cat >garbage.md <<-\EOF &&
	Sorry, I cannot help with that.
	EOF
	cat >stale.diff <<-\EOF &&
	diff --git a/a.txt b/a.txt
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+deux
	 three
	EOF
	swe repo__a-1 gpt-4o p1.diff $B1 >preds.jsonl &&
	swe repo__a-2 gpt-4o p2.diff $B2 >>preds.jsonl &&
	swe repo__a-3 gpt-4o p3.diff $B1 >>preds.jsonl
'

test_expect_success 'SWE-bench JSON Lines: each prediction on its own branch from its own base' '
	. ./bases.sh &&
	(
		cd repo &&
		git ai-apply --predictions=../preds.jsonl >../results 2>../err
	) &&
	test_grep "^3 predictions: 3 landed, 0 already landed, 0 already applied, 0 refused$" err &&
	test "$(git -C repo rev-parse predictions/gpt-4o/repo__a-1^)" = $B1 &&
	test "$(git -C repo rev-parse predictions/gpt-4o/repo__a-2^)" = $B2 &&
	test "$(git -C repo rev-parse predictions/gpt-4o/repo__a-3^)" = $B1 &&
	git -C repo show predictions/gpt-4o/repo__a-1:a.txt >actual &&
	printf "one\n2\nthree\n" >expect &&
	test_cmp expect actual &&
	git -C repo show predictions/gpt-4o/repo__a-2:a.txt >actual &&
	printf "one\ntwo\nthree\n4\n" >expect &&
	test_cmp expect actual &&
	git -C repo diff --exit-code HEAD &&
	test $(wc -l <results) = 3
'

test_expect_success 'each record: name, base, branch, commit, formats, files and +/-' '
	. ./bases.sh &&
	test "$(field 1 name)" = repo__a-1 &&
	test "$(field 1 model)" = gpt-4o &&
	test "$(field 1 base_commit)" = $B1 &&
	test "$(field 1 branch)" = predictions/gpt-4o/repo__a-1 &&
	test "$(field 1 status)" = landed &&
	test "$(field 1 commit)" = "$(git -C repo rev-parse predictions/gpt-4o/repo__a-1)" &&
	test "$(field 1 "formats[0]")" = diff &&
	test "$(field 1 tolerant_placements)" = 0 &&
	test "$(field 1 "files[0].path")" = a.txt &&
	test "$(field 1 "files[0].added")" = 1 &&
	test "$(field 1 "files[0].removed")" = 1 &&
	test "$(field 3 added)" = 1 &&
	test "$(field 3 removed)" = 0 &&
	test "$(field 3 line)" = 3
'

test_expect_success 'trailers and note as --each: the answer is the note, its blob the trailer' '
	(
		cd repo &&
		git log -1 --format=%B predictions/gpt-4o/repo__a-2 |
			git interpret-trailers --parse >trailers &&
		test_grep "^AI-Answer: repo__a-2$" trailers &&
		test_grep "^AI-Answer-Blob: $(git hash-object ../p2.diff)$" trailers &&
		test_grep "^AI-Formats: diff$" trailers &&
		git notes --ref=ai-apply show predictions/gpt-4o/repo__a-2 >note &&
		test_cmp ../p2.diff note
	)
'

test_expect_success 'a rerun skips the ones already landed with the same answer (exit 0)' '
	(
		cd repo &&
		git for-each-ref >refs.before &&
		git ai-apply --predictions=../preds.jsonl >../results 2>../err &&
		git for-each-ref >refs.after &&
		test_cmp refs.before refs.after
	) &&
	test_grep "3 predictions: 0 landed, 3 already landed" err &&
	test "$(field 2 status)" = already-landed &&
	test "$(field 2 commit)" = "$(git -C repo rev-parse predictions/gpt-4o/repo__a-2)"
'

test_expect_success 'another answer on a landed branch is refused (branch-exists); --force replaces it' '
	. ./bases.sh &&
	swe repo__a-1 gpt-4o p3.diff $B1 >other.jsonl &&
	old=$(git -C repo rev-parse predictions/gpt-4o/repo__a-1) &&
	(
		cd repo &&
		repo_snapshot exists &&
		test_expect_code 1 git ai-apply --predictions=../other.jsonl >../results 2>../err &&
		repo_unchanged exists
	) &&
	test "$(field 1 status)" = refused &&
	test "$(field 1 reason)" = branch-exists &&
	test_grep "refused, branch-exists: 1" err &&
	git -C repo ai-apply --force --predictions=../other.jsonl >results &&
	test "$(field 1 status)" = landed &&
	test "$(git -C repo rev-parse predictions/gpt-4o/repo__a-1)" != $old &&
	git -C repo diff --quiet $B1 predictions/gpt-4o/repo__a-1 -- a.txt
'

test_expect_success 'a JSON list with the bases from --dataset (the dataset rows)' '
	. ./bases.sh &&
	{
		echo "[" &&
		swe i-1 m p1.diff && echo "," &&
		swe i-2 m p2.diff &&
		echo "]"
	} >list.json &&
	jq -n --arg b1 $B1 --arg b2 $B2 \
		"[{instance_id: \"i-1\", repo: \"x\", base_commit: \$b1},
		  {instance_id: \"i-2\", base_commit: \$b2}]" >dataset.json &&
	git -C repo ai-apply --branch=eval --predictions=../list.json \
		--dataset=../dataset.json >results &&
	test "$(git -C repo rev-parse eval/m/i-1^)" = $B1 &&
	test "$(git -C repo rev-parse eval/m/i-2^)" = $B2 &&
	test "$(field 1 line)" = null
'

test_expect_success 'a manifest: name, base, answer or answer_file (any format), relative to the manifest' '
	mkdir -p man/answers &&
	cat >man/answers/c.md <<-\EOF &&
	--- START-FILE: new.txt ---
	from a companion block
	--- END-FILE: new.txt ---
	EOF
	{
		jq -cn --rawfile a p1.diff "{name: \"first\", base: \"b1\", answer: \$a}" &&
		jq -cn "{name: \"second\", base: \"b3\", answer_file: \"answers/c.md\"}"
	} >man/manifest.jsonl &&
	git -C repo ai-apply --branch=man --predictions=../man/manifest.jsonl >results &&
	test "$(git -C repo rev-parse man/first^)" = "$(git -C repo rev-parse b1)" &&
	test "$(git -C repo rev-parse man/second^)" = "$(git -C repo rev-parse b3)" &&
	echo "from a companion block" >expect &&
	git -C repo show man/second:new.txt >actual &&
	test_cmp expect actual &&
	test "$(field 2 "formats[0]")" = companion &&
	test "$(field 2 "files[0].status")" = A
'

test_expect_success 'the predictions from standard input (-), in a bare repository' '
	git clone -q --bare repo bare.git &&
	git -C bare.git ai-apply --branch=bare --predictions=- <preds.jsonl >results &&
	git -C bare.git rev-parse --verify bare/gpt-4o/repo__a-3 &&
	test "$(field 3 status)" = landed
'

test_expect_success '--results=<file>: the records there, nothing on standard output; -q: no summary' '
	git -C repo ai-apply -q --branch=res --predictions=../preds.jsonl \
		--results=../res.jsonl >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err &&
	test $(wc -l <res.jsonl) = 3
'

test_expect_success 'not a terminal: no progress line' '
	git -C repo ai-apply --branch=np --predictions=../preds.jsonl >/dev/null 2>err &&
	! grep "Landing predictions" err
'

# refused_alone REASON PREFIX FILE: every prediction of FILE refused for
# REASON, the repository byte for byte as it was, exit 1.
refused_alone () {
	(
		cd repo &&
		repo_snapshot "$2" &&
		test_expect_code 1 git ai-apply --branch="$2" --predictions="$3" \
			>../results 2>../err &&
		repo_unchanged "$2"
	) &&
	jq -r .reason results | sort -u >reasons &&
	echo "$1" >expect &&
	test_cmp expect reasons &&
	test_grep "refused, $1:" err
}

test_expect_success 'refused: a hunk that does not apply (its line in the answer)' '
	. ./bases.sh &&
	swe r-1 m bad.diff $B1 >r.jsonl &&
	refused_alone does-not-apply r1 ../r.jsonl &&
	test "$(field 1 position.path)" = a.txt &&
	test "$(field 1 position.input)" = r-1 &&
	test "$(field 1 position.line)" = 4 &&
	test_grep "hunk does not apply" results
'

test_expect_success 'refused: an answer with no change in it (malformed-answer)' '
	. ./bases.sh &&
	swe r-2 m garbage.md $B1 >r.jsonl &&
	refused_alone malformed-answer r2 ../r.jsonl &&
	test_grep "no change found" results
'

test_expect_success 'refused: a stale answer whose change meets the base (conflict), with the revision it was written against' '
	. ./bases.sh &&
	swe r-3 m stale.diff $B3 >r.jsonl &&
	refused_alone conflict r3 ../r.jsonl &&
	test "$(field 1 "written_against[0].path")" = a.txt &&
	test "$(field 1 "written_against[0].revision")" = "commit $(git -C repo rev-parse --short b2)"
'

test_expect_success 'refused: an empty model_patch, a malformed line, a base that is no commit' '
	. ./bases.sh &&
	printf "" >empty.diff &&
	swe r-4 m empty.diff $B1 >r.jsonl &&
	refused_alone empty r4 ../r.jsonl &&
	echo "{not json" >r.jsonl &&
	refused_alone malformed-record r5 ../r.jsonl &&
	test "$(field 1 position.line)" = 1 &&
	swe r-6 m p1.diff 0123456789012345678901234567890123456789 >r.jsonl &&
	swe r-7 m p1.diff no-such-rev >>r.jsonl &&
	swe r-8 m p1.diff >>r.jsonl &&
	refused_alone no-base r6 ../r.jsonl &&
	test_grep "no-such-rev" results &&
	test "$(field 3 reason)" = no-base
'

test_expect_success 'refused: a missing answer_file; one branch for two predictions (duplicate-branch)' '
	echo "{\"name\": \"x\", \"base\": \"b1\", \"answer_file\": \"nope.md\"}" >r.jsonl &&
	refused_alone unreadable-answer r9 ../r.jsonl &&
	test_grep "nope.md" results &&
	. ./bases.sh &&
	swe "a b" m p1.diff $B1 >r.jsonl &&
	swe "a:b" m p2.diff $B2 >>r.jsonl &&
	(
		cd repo &&
		test_expect_code 1 git ai-apply --branch=dup --predictions=../r.jsonl \
			>../results 2>../err
	) &&
	test "$(field 1 status)" = landed &&
	test "$(field 2 reason)" = duplicate-branch &&
	test "$(git -C repo rev-parse dup/m/a-b^)" = $B1
'

test_expect_success 'already applied at its base: no branch, exit 0' '
	. ./bases.sh &&
	cat >done.diff <<-\EOF &&
	diff --git a/a.txt b/a.txt
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
	swe d-1 m done.diff $B3 >r.jsonl &&
	git -C repo ai-apply --branch=done --predictions=../r.jsonl >results 2>err &&
	test "$(field 1 status)" = already-applied &&
	test_grep "1 already applied" err &&
	test_must_fail git -C repo rev-parse --verify -q done/m/d-1
'

test_expect_success 'landed and refused together: exit 1, the good ones land' '
	. ./bases.sh &&
	swe m-1 m p1.diff $B1 >r.jsonl &&
	swe m-2 m bad.diff $B1 >>r.jsonl &&
	swe m-3 m p2.diff $B2 >>r.jsonl &&
	test_expect_code 1 git -C repo ai-apply --branch=mix --predictions=../r.jsonl \
		>results 2>err &&
	test_grep "3 predictions: 2 landed, 0 already landed, 0 already applied, 1 refused" err &&
	git -C repo rev-parse --verify mix/m/m-1 &&
	git -C repo rev-parse --verify mix/m/m-3 &&
	test_must_fail git -C repo rev-parse --verify -q mix/m/m-2
'

test_expect_success 'names git refuses are made valid branch names' '
	. ./bases.sh &&
	for id in "x..y" ".hidden" "a b" "t~1^2" "q?*[" "end." "x.lock" "a@{1}" "-lead" "s/l/a/sh"
	do
		swe "$id" "org/model v1" p1.diff $B1 || return 1
	done >r.jsonl &&
	git -C repo ai-apply --branch=names --predictions=../r.jsonl >results &&
	jq -r .branch results >branches &&
	test $(sort -u branches | wc -l) = 10 &&
	while read b
	do
		git check-ref-format --branch "$b" >/dev/null &&
		git -C repo rev-parse --verify -q "refs/heads/$b" >/dev/null || return 1
	done <branches
'

test_expect_success 'the file as a whole: unreadable, not JSON, no record: 128, nothing written' '
	(
		cd repo &&
		repo_snapshot whole &&
		test_expect_code 128 git ai-apply --predictions=../missing.jsonl 2>../err &&
		test_grep "fatal: cannot open .\.\./missing.jsonl" ../err &&
		printf "[\n{\"a\": 1},\n oops\n]\n" >../broken.json &&
		test_expect_code 128 git ai-apply --predictions=../broken.json 2>../err &&
		test_grep "fatal: \.\./broken.json:3: not JSON" ../err &&
		printf "\n\n" >../none.jsonl &&
		test_expect_code 128 git ai-apply --predictions=../none.jsonl 2>../err &&
		test_grep "no prediction in the file" ../err &&
		test_expect_code 128 git ai-apply --predictions=../preds.jsonl \
			--dataset=../missing.json 2>../err &&
		test_grep "cannot open .\.\./missing.json" ../err &&
		test_expect_code 128 git ai-apply --predictions=../preds.jsonl \
			--branch=-bad 2>../err &&
		repo_unchanged whole
	)
'

test_expect_success 'options: no input file, no --base, --dataset and --results need --predictions' '
	(
		cd repo &&
		repo_snapshot opts &&
		test_expect_code 128 git ai-apply --predictions=../preds.jsonl ../p1.diff 2>../err &&
		test_grep "fatal: --predictions takes no input file" ../err &&
		test_expect_code 128 git ai-apply --predictions=../preds.jsonl --base=b1 2>../err &&
		test_expect_code 128 git ai-apply --predictions=../preds.jsonl --check 2>../err &&
		test_expect_code 128 git ai-apply --predictions=../preds.jsonl --3way 2>../err &&
		test_expect_code 128 git ai-apply --dataset=../dataset.json ../p1.diff 2>../err &&
		test_grep "fatal: --dataset and --results need --predictions" ../err &&
		repo_unchanged opts
	)
'

# A batch's refs are renamed in one round, --each's (Documentation/
# landing.md, "--each: one ref round"): the "branch" step comes before
# each prediction's lock, the "ref" step after each rename (three
# branches and the notes ref: four).
test_expect_success 'killed before its second branch: nothing renamed yet, none landed; a rerun lands all' '
	. ./bases.sh &&
	swe k-1 m p1.diff $B1 >k.jsonl &&
	swe k-2 m p3.diff $B1 >>k.jsonl &&
	swe k-3 m p2.diff $B2 >>k.jsonl &&
	(
		cd repo &&
		test_expect_code 137 env AA_TEST_HOOK="branch#2:kill" \
			git-ai-apply --branch=kill --predictions=../k.jsonl >../results &&
		test_must_fail git rev-parse --verify -q kill/m/k-1 &&
		test_must_fail git rev-parse --verify -q kill/m/k-2 &&
		test_must_fail git rev-parse --verify -q kill/m/k-3 &&
		git ai-apply --branch=kill --predictions=../k.jsonl >../results 2>../err &&
		find .git -name "*.lock" >../locks &&
		test_must_be_empty ../locks
	) &&
	test_grep "3 predictions: 3 landed, 0 already landed" err &&
	test "$(git -C repo rev-parse kill/m/k-3^)" = $B2 &&
	git -C repo notes --ref=ai-apply show kill/m/k-2 >note &&
	test_cmp p3.diff note
'

for step in ref ref#2 ref#3 ref#4
do
	test_expect_success "killed at '$step' of the ref round: each prediction has its branch and note or neither; a rerun finishes" '
		. ./bases.sh &&
		swe r-1 m p1.diff $B1 >r.jsonl &&
		swe r-2 m p3.diff $B1 >>r.jsonl &&
		swe r-3 m p2.diff $B2 >>r.jsonl &&
		rm -rf killed && cp -R repo killed &&
		(
			cd killed &&
			test_expect_code 137 env AA_TEST_HOOK="$step:kill" \
				git-ai-apply --branch=round --predictions=../r.jsonl >../results &&
			git ai-apply --recover 2>../recover.err &&
			for b in r-1 r-2 r-3
			do
				if git rev-parse --verify -q round/m/$b >/dev/null
				then
					git notes --ref=ai-apply show round/m/$b >/dev/null || return 1
				fi || return 1
			done &&
			git ai-apply --branch=round --predictions=../r.jsonl >../results 2>../err &&
			find .git -name "*.lock" >../locks &&
			test_must_be_empty ../locks &&
			git fsck --no-dangling --no-progress
		) &&
		test_grep "3 predictions: [0-3] landed, [0-3] already landed, 0 already applied, 0 refused" err &&
		test "$(git -C killed rev-parse round/m/r-3^)" = $B2 &&
		git -C killed notes --ref=ai-apply show round/m/r-1 >note &&
		test_cmp p1.diff note &&
		git -C killed notes --ref=ai-apply show round/m/r-2 >note &&
		test_cmp p3.diff note
	'
done

. "$AA_TEST_DIR/lib/tmux.sh"

test_expect_success TMUX 'on a terminal: a progress line (counts, rate, done); -q: none' '
	test_when_finished tmux_stop &&
	tmux_start -d -s aa -x 200 -y 50 \
		"cd repo && git ai-apply --branch=tty --predictions=../preds.jsonl >/dev/null; echo EXIT=\$?; sleep 60" &&
	wait_for "EXIT=0" &&
	test_grep "Landing predictions: 100% (3/3), [0-9]*/s, done\." pane &&
	tmux_stop &&
	tmux_start -d -s aa -x 200 -y 50 \
		"cd repo && git ai-apply -q --branch=tty2 --predictions=../preds.jsonl >/dev/null; echo EXIT=\$?; sleep 60" &&
	wait_for "EXIT=0" &&
	! grep "Landing predictions" pane
'

test_done
