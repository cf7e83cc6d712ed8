#!/bin/sh

test_description='what happened and what next: the closing line of every run, -q and --json, the terminal hint, the messages for newcomers'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: a repository and answers' '
	make_repo repo &&
	(
		cd repo &&
		printf "one\nTWO\nthree\n" >a.txt &&
		printf "alpha\nBETA\n" >dir/b.txt &&
		git diff >../two.diff &&
		git checkout -q . &&
		printf "one\nTWO\nthree\n" >a.txt &&
		git diff >../one.diff &&
		git checkout -q .
	) &&
	test_grep "^+TWO" two.diff &&
	test_grep "^+BETA" two.diff
'

# closing FILE: the closing line (the last line of standard error).
closing () {
	tail -n 1 "$1"
}

test_expect_success 'default landing: staged and written, then review, commit, undo' '
	fresh d1 &&
	git -C d1 ai-apply ../two.diff >out 2>err &&
	echo "staged 2 files and wrote them to the work tree; review: git diff --cached (or git ai-apply --review), commit: git commit, undo: git ai-apply --undo" >expect &&
	test_cmp expect err &&
	test_grep "^M a.txt (+1 -1)$" out &&
	! grep "staged" out
'

test_expect_success 'one file: "wrote it"' '
	fresh d2 &&
	git -C d2 ai-apply ../one.diff 2>err &&
	test_grep "^staged 1 file and wrote it to the work tree; review: " err
'

test_expect_success '--cached: staged in the index only' '
	fresh c1 &&
	git -C c1 ai-apply --cached ../two.diff >out 2>err &&
	echo "staged 2 files in the index only (the work tree is untouched); review: git diff --cached (or git ai-apply --review), commit: git commit, undo: git ai-apply --undo" >expect &&
	test_cmp expect err &&
	git -C c1 diff --quiet HEAD
'

test_expect_success '--branch: committed on the branch, then merge or drop' '
	fresh b1 &&
	git -C b1 ai-apply --branch=ai/fix ../two.diff >out 2>err &&
	id=$(git -C b1 rev-parse --short=7 ai/fix) &&
	echo "committed on branch ai/fix ($id); merge: git merge ai/fix, drop: git branch -D ai/fix" >expect &&
	test_cmp expect err &&
	test_grep "^branch ai/fix: $id$" out
'

test_expect_success '--check: would change, nothing written' '
	fresh k1 &&
	(
		cd k1 &&
		repo_snapshot check &&
		git ai-apply --check ../two.diff >../out 2>../err &&
		repo_unchanged check
	) &&
	echo "would change 2 files; nothing written" >expect &&
	test_cmp expect err &&
	test_grep "^M a.txt" out
'

test_expect_success 'previews print git apply'"'"'s output and nothing more' '
	fresh p1 &&
	for opt in --stat --numstat --summary --diff "--check --stat"
	do
		git -C p1 ai-apply $opt ../two.diff >out 2>err &&
		test_must_be_empty err || return 1
	done &&
	git -C p1 ai-apply --stat ../two.diff >out &&
	git -C p1 apply --stat ../two.diff >expect &&
	test_cmp expect out
'

test_expect_success 'a report with --apply lands, and then says so' '
	fresh p2 &&
	git -C p2 ai-apply --stat --apply ../two.diff >out 2>err &&
	test_grep "2 files changed" out &&
	test_grep "^staged 2 files and wrote them to the work tree; " err
'

test_expect_success '-q: no closing line, no summary' '
	fresh q1 &&
	git -C q1 ai-apply -q ../two.diff >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err &&
	test -n "$(git -C q1 diff --cached --name-only)"
'

test_expect_success '-q with --check and --branch: silent too' '
	fresh q2 &&
	git -C q2 ai-apply -q --check ../two.diff >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err &&
	git -C q2 ai-apply -q --branch=ai/q ../two.diff >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err
'

test_expect_success 'advice.aiApplyNextStep=false: what was written, no next step' '
	fresh a1 &&
	git -C a1 -c advice.aiApplyNextStep=false ai-apply ../two.diff 2>err &&
	echo "staged 2 files and wrote them to the work tree" >expect &&
	test_cmp expect err &&
	fresh a2 &&
	git -C a2 config advice.aiApplyNextStep false &&
	git -C a2 ai-apply --branch=ai/x ../two.diff 2>err &&
	test_grep "^committed on branch ai/x ([0-9a-f]*)$" err
'

test_expect_success '--json: "written" and "next" fields, nothing on standard error' '
	fresh j1 &&
	git -C j1 ai-apply --json ../two.diff >out 2>err &&
	test_must_be_empty err &&
	test "$(jq -r .written out)" = "index+worktree" &&
	jq -r ".next[] | \"\(.do): \(.run)\"" out >actual &&
	cat >expect <<-\EOF &&
	review: git diff --cached
	review: git ai-apply --review
	commit: git commit
	undo: git ai-apply --undo
	EOF
	test_cmp expect actual &&
	fresh j2 &&
	git -C j2 ai-apply --json --cached ../two.diff >out &&
	test "$(jq -r .written out)" = "index" &&
	git -C j2 ai-apply --json --check ../two.diff >out &&
	test "$(jq -r .written out)" = "nothing" &&
	test "$(jq -r ".next | length" out)" = 0 &&
	git -C j2 ai-apply --json --branch=ai/j ../two.diff >out &&
	test "$(jq -r .written out)" = "branch" &&
	jq -r ".next[] | \"\(.do): \(.run)\"" out >actual &&
	printf "merge: git merge ai/j\ndrop: git branch -D ai/j\n" >expect &&
	test_cmp expect actual
'

test_expect_success '--json of a refusal: nothing written, no next step' '
	fresh j3 &&
	printf "one\ntwo\n" >j3/a.txt &&
	(
		cd j3 &&
		git commit -q -am moved &&
		repo_snapshot json-refused &&
		test_expect_code 1 git ai-apply --json ../two.diff >../out 2>../err &&
		repo_unchanged json-refused
	) &&
	test "$(jq -r .written out)" = "nothing" &&
	test "$(jq -r ".next | length" out)" = 0
'

test_expect_success 'a refusal has no closing line: the error says it' '
	fresh r1 &&
	printf "one\ntwo\n" >r1/a.txt &&
	git -C r1 commit -q -am moved &&
	(
		cd r1 &&
		test_rejected ../two.diff
	) &&
	! grep "staged\|would change\|committed" r1/err
'

test_expect_success 'already applied: stdout says so, no closing line' '
	fresh aa &&
	git -C aa ai-apply ../two.diff 2>/dev/null &&
	git -C aa ai-apply ../two.diff >out 2>err &&
	test_grep "already applied" out &&
	! grep "staged\|would change\|committed" err
'

test_expect_success '--each: one line for the set' '
	fresh e1 &&
	git -C e1 ai-apply --each --branch=ai/s ../one.diff ../two.diff >out 2>err &&
	echo "committed 2 suggestions on branches ai/s-1 and ai/s-2; compare: git ai-apply --list, merge one: git merge <branch>, drop one: git branch -D <branch>" >expect &&
	test_cmp expect err
'

test_expect_success '--each: three or more name the first and the last' '
	fresh e2 &&
	git -C e2 ai-apply --each --branch=ai/t ../one.diff ../two.diff ../one.diff 2>err &&
	test_grep "^committed 3 suggestions on branches ai/t-1 ... ai/t-3; compare: " err
'

test_expect_success '--each: a failed suggestion is left out of the set'"'"'s line' '
	fresh e3 &&
	echo "not an answer" >junk.md &&
	test_expect_code 1 git -C e3 ai-apply --each --branch=ai/u ../one.diff ../junk.md 2>err &&
	test_grep "1 of 2 suggestions failed; the others landed" err &&
	closing err >last &&
	test_grep "^committed 1 suggestion on branch ai/u-1; compare: " last
'

test_expect_success '--each --json: the set'"'"'s "written" and "next"' '
	fresh e4 &&
	git -C e4 ai-apply --json --each --branch=ai/v ../one.diff ../two.diff >out 2>err &&
	test_must_be_empty err &&
	test "$(jq -r .written out)" = "branches" &&
	test "$(jq -r ".next[0].run" out)" = "git ai-apply --list" &&
	test "$(jq -r ".suggestions[1].written" out)" = "branch" &&
	test "$(jq -r ".suggestions[1].next[0].run" out)" = "git merge ai/v-2"
'

test_expect_success '--each -q: silent' '
	fresh e5 &&
	git -C e5 ai-apply -q --each --branch=ai/w ../one.diff ../two.diff >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err
'

test_expect_success '--3way with a conflict: the closing line says where to resolve' '
	git init -q tw &&
	(
		cd tw &&
		printf "1\n2\n3\n4\n5\n" >f &&
		git add f &&
		git commit -q -m v1 &&
		sed s/^3\$/3a/ f >f.new && mv f.new f &&
		git diff --full-index >../stale.diff &&
		git checkout -q f &&
		sed s/^3\$/3b/ f >f.new && mv f.new f &&
		git commit -q -am v2 &&
		test_expect_code 1 git ai-apply --3way ../stale.diff >../out 2>../err
	) &&
	closing err >last &&
	echo "staged 1 file and wrote it to the work tree, 1 with conflict markers (index stages 1-3); resolve: edit the markers, then git add <path>, see: git status" >expect &&
	test_cmp expect last
'

test_expect_success '-p: the hunks chosen land and say so; nothing chosen, no closing line' '
	fresh pp1 &&
	printf "y\nn\n" | git -C pp1 ai-apply -p ../two.diff >out 2>err &&
	closing err >last &&
	test_grep "^staged 1 file and wrote it to the work tree; review: " last &&
	fresh pp2 &&
	printf "n\nn\n" | git -C pp2 ai-apply -p ../two.diff >out 2>err &&
	test_grep "No change selected: nothing applied." out &&
	! grep "staged\|would change\|nothing written" err
'

# ---- "no change found": the fences without a path, the forms that land ----

test_expect_success '"no change found" names the fences without a path and how to label one' '
	printf "Here:\n\n\`\`\`python\nprint(1)\n\`\`\`\n\nand\n\n\`\`\`\nfoo\n\`\`\`\n" >plain.md &&
	fresh n1 &&
	(
		cd n1 &&
		test_rejected ../plain.md
	) &&
	head -n 1 n1/err >first &&
	echo "error: ../plain.md: no change found in the input: the code fences at line 3 \"\`\`\`python\" and line 9 \"\`\`\`\" name no file, so they are read as examples, not edits" >expect &&
	test_cmp expect first &&
	test_grep "^  to land a fence as the whole file, name the file in one of these forms:$" n1/err &&
	test_grep "^    path/to/file.py  *the line right before the fence$" n1/err &&
	test_grep "^  or answer with a diff or SEARCH/REPLACE blocks$" n1/err
'

test_expect_success 'each label form the message shows lands' '
	sed -n "s/^    \([^ ].*[^ ]\)  .*/\1/p" n1/err >forms &&
	test $(wc -l <forms) = 3 &&
	i=0 &&
	while read -r form
	do
		i=$((i + 1)) &&
		shown=$(echo "$form" | sed "s|path/to/file.py|app/f$i.py|") &&
		case "$shown" in
		"\`\`\`"*) printf "%s\nprint($i)\n\`\`\`\n" "$shown" ;;
		"#"*) printf "\`\`\`python\n%s\nprint($i)\n\`\`\`\n" "$shown" ;;
		*) printf "%s\n\`\`\`python\nprint($i)\n\`\`\`\n" "$shown" ;;
		esac >form$i.md &&
		fresh f$i &&
		git -C f$i ai-apply ../form$i.md 2>err &&
		git -C f$i show :app/f$i.py >landed &&
		test_grep "^print($i)$" landed || return 1
	done <forms &&
	test $i = 3
'

test_expect_success 'one fence: "the code fence at ... names no file"; -q keeps the error; --json has it' '
	printf "\`\`\`js\nx()\n\`\`\`\n" >one-plain.md &&
	fresh n2 &&
	(
		cd n2 &&
		test_rejected -q ../one-plain.md &&
		test_grep "no change found in the input: the code fence at line 1 \"\`\`\`js\" names no file, so it is read as an example, not an edit$" err &&
		test_expect_code 1 git ai-apply --json ../one-plain.md >../json 2>/dev/null
	) &&
	jq -r ".errors[0].message" json >msg &&
	test_grep "the code fence at line 1" msg &&
	test "$(jq -r .written json)" = nothing
'

test_expect_success '"no change found" without fences keeps its words' '
	echo "Just prose, no code." >prose.md &&
	fresh n3 &&
	(
		cd n3 &&
		test_rejected ../prose.md
	) &&
	test_grep "no change found in the input (no diff, file block or patch document)" n3/err
'

test_expect_success 'the chat shape "Update `a.txt` as follows:" and a fence lands' '
	printf "Update \`a.txt\` as follows:\n\n\`\`\`\none\nTWO\nthree\n\`\`\`\n" >update.md &&
	fresh u1 &&
	git -C u1 ai-apply ../update.md >out 2>err &&
	printf "one\nTWO\nthree\n" >expect &&
	(cd u1 && staged_as a.txt ../expect) &&
	test_grep "^staged 1 file and wrote it to the work tree; " err
'

# ---- a bare repository ----

test_expect_success 'a bare repository: the default mode, --cached, --check and previews name it (128)' '
	git clone -q --bare repo bare.git &&
	(
		cd bare.git &&
		repo_snapshot bare &&
		for opt in "" --cached --check --stat --diff
		do
			test_expect_code 128 git ai-apply $opt ../two.diff >../out 2>../err &&
			echo "fatal: this is a bare repository: it has no index or work tree; use --branch=<name>" >../expect &&
			test_cmp ../expect ../err &&
			test_must_be_empty ../out || return 1
		done &&
		repo_unchanged bare
	)
'

test_expect_success 'a bare repository with an index (git read-tree): --cached and --check use it, the default mode still needs a work tree' '
	git clone -q --bare repo bare-index.git &&
	(
		cd bare-index.git &&
		git read-tree HEAD &&
		git ai-apply --check ../two.diff >../out &&
		test_grep "^M a.txt (+1 -1)$" ../out &&
		repo_snapshot bareidx &&
		test_expect_code 128 git ai-apply ../two.diff 2>../err &&
		test_grep "this is a bare repository" ../err &&
		repo_unchanged bareidx &&
		git ai-apply --cached ../two.diff &&
		git diff --cached --name-only HEAD >../staged
	) &&
	printf "a.txt\ndir/b.txt\n" >expect &&
	test_cmp expect staged
'

test_expect_success 'a bare repository with --json: the fatal document says it' '
	(
		cd bare.git &&
		test_expect_code 128 git ai-apply --json --cached ../two.diff >../out 2>/dev/null
	) &&
	test "$(jq -r .status out)" = fatal &&
	test_grep "this is a bare repository" out
'

test_expect_success 'a bare repository: --branch lands, the next step shows the commit' '
	(
		cd bare.git &&
		git ai-apply --branch=ai/bare ../two.diff >../out 2>../err
	) &&
	id=$(git -C bare.git rev-parse --short=7 ai/bare) &&
	echo "committed on branch ai/bare ($id); review: git show ai/bare, drop: git branch -D ai/bare" >expect &&
	test_cmp expect err &&
	git -C bare.git ai-apply --list >out &&
	test_grep "^ai/bare " out
'

test_expect_success 'a bare repository: --recover, --review and --undo answer for it, not "use --branch"' '
	(
		cd bare.git &&
		repo_snapshot bare2 &&
		git ai-apply --recover >../out 2>../err &&
		echo "nothing to recover" >../expect &&
		test_cmp ../expect ../out &&
		git ai-apply --review >../out 2>&1 &&
		test_grep "no staged AI change to review" ../out &&
		test_expect_code 1 git ai-apply --undo 2>../err &&
		test_grep "nothing to undo in the index" ../err &&
		test_grep "git branch -D ai/bare" ../err &&
		! grep "use --branch" ../err &&
		repo_unchanged bare2
	)
'

test_expect_success 'a bare repository: --recover settles a --branch landing killed before its refs' '
	git clone -q --bare repo bare-kill.git &&
	(
		cd bare-kill.git &&
		test_expect_code 137 env AA_TEST_HOOK="ref:kill" \
			git-ai-apply --branch=ai/killed ../two.diff &&
		test_path_is_file refs/notes/ai-apply.lock &&
		git ai-apply --recover 2>../err.recover &&
		test_path_is_missing refs/notes/ai-apply.lock &&
		git rev-parse --verify -q refs/heads/ai/killed &&
		git notes --ref=ai-apply show ai/killed >/dev/null &&
		git ai-apply --recover >../out.again &&
		git fsck --no-dangling
	) &&
	test_grep "ai/killed: completed" err.recover &&
	echo "nothing to recover" >expect &&
	test_cmp expect out.again
'

# ---- the answer on a terminal ----

test_expect_success 'standard input not a terminal: no hint' '
	fresh s1 &&
	git -C s1 ai-apply --check <two.diff >out 2>err &&
	! grep "standard input" err &&
	git -C s1 ai-apply --check - <two.diff >out 2>err &&
	! grep "standard input" err
'

. "$AA_TEST_DIR/lib/tmux.sh"

test_expect_success TMUX 'standard input a terminal: how to paste and end; one Ctrl-D ends the answer' '
	fresh s2 &&
	test_when_finished tmux_stop &&
	tmux_start -d -s aa -x 200 -y 50 \
		"cd s2 && git ai-apply --check; echo EXIT=\$?; sleep 60" &&
	wait_for "reading the answer from standard input: paste it, then press Ctrl-D on an empty line" &&
	tmux_run load-buffer "$PWD/one.diff" &&
	tmux_run paste-buffer -t aa &&
	wait_for "+TWO" &&
	tmux_run send-keys -t aa C-d &&
	wait_for "EXIT=0" &&
	test_grep "would change 1 file; nothing written" pane
'

test_expect_success TMUX 'standard input a terminal with -q: no hint' '
	fresh s3 &&
	test_when_finished tmux_stop &&
	tmux_start -d -s aa -x 200 -y 50 \
		"cd s3 && git ai-apply -q --check; echo EXIT=\$?; sleep 60" &&
	sleep 1 &&
	tmux_run send-keys -t aa C-d &&
	wait_for "EXIT=" &&
	! grep "reading the answer" pane
'

test_done
