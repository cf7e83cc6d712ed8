#!/bin/sh

test_description='--3way: a conflicting merge from the revision the answer saw is written as git apply --3way writes it'

. "$(dirname "$0")/test-lib.sh"

# The repository: f.txt ("line 1".."line 20") and g.txt at v1, when the
# answer was written; upstream then changed line 10 of f.txt. The answer
# (a git diff with its index lines) changes line 10 too, the same way
# as upstream at line 15 (already there), and appends to g.txt.

numbered () {
	i=1
	while test $i -le $1
	do
		echo "line $i"
		i=$((i + 1))
	done
}

# state: every index entry with its stage, the work tree's contents and
# leftovers (git write-tree cannot describe an index with conflicts).
state () {
	git ls-files -s &&
	for f in $(git ls-files | sort -u)
	do
		echo "== $f" && cat "$f" || return 1
	done &&
	git ls-files --others --exclude-standard &&
	{ test ! -e .git/index.lock || echo "index.lock left"; } &&
	{ test ! -e .git/ai-apply/journal || echo "journal left"; }
}

test_expect_success 'setup: a stale answer whose merge conflicts' '
	git init -q repo &&
	(
		cd repo &&
		numbered 20 >f.txt &&
		printf "one\ntwo\n" >g.txt &&
		git add . &&
		git commit -q -m v1 &&
		sed "s/^line 10\$/line 10 answer/;s/^line 15\$/line 15 both/" \
			f.txt >f.new && mv f.new f.txt &&
		echo three >>g.txt &&
		git diff >../answer.diff &&
		git checkout -q . &&
		sed "s/^line 10\$/line 10 upstream/;s/^line 15\$/line 15 both/" \
			f.txt >f.new && mv f.new f.txt &&
		git commit -q -a -m upstream &&
		git tag base
	) &&
	test_grep "^index " answer.diff &&
	# what git apply --3way makes of it, for comparison
	fresh by-git &&
	(
		cd by-git &&
		git update-index -q --refresh &&
		test_expect_code 1 git apply --3way ../answer.diff 2>../git.err &&
		state >../expect.state
	) &&
	test_grep "with conflicts" git.err &&
	test_grep "^100644 [0-9a-f]* 3	f.txt" expect.state
'

test_expect_success 'without --3way the conflict is refused, nothing written' '
	fresh plain &&
	(
		cd plain &&
		test_rejected ../answer.diff
	) &&
	test_grep "conflicts with the current content" plain/err &&
	test_grep "; nothing written; try --3way to merge it with conflict markers$" plain/err
'

test_expect_success '--3way: stages 1, 2, 3 and markers as git apply --3way, exit 1' '
	fresh threeway &&
	(
		cd threeway &&
		test_expect_code 1 git ai-apply --3way ../answer.diff >../out 2>../err &&
		state >../actual.state
	) &&
	test_cmp expect.state actual.state &&
	test_grep "^U f.txt (+4 -0, 1 conflict)\$" out &&
	test_grep "^M g.txt (+1 -0)\$" out &&
	test_grep "^warning: f.txt: .*applied with conflicts" err &&
	test_grep "answer.diff:[0-9]*: applied with conflicts: the hunks apply exactly to blob" err
'

test_expect_success 'the stages hold the version, ours and theirs; the other file is staged' '
	(
		cd threeway &&
		git show :1:f.txt >../stage1 &&
		git show :2:f.txt >../stage2 &&
		git show :3:f.txt >../stage3 &&
		git show base~1:f.txt >../v1 &&
		git show base:f.txt >../ours &&
		git show :0:g.txt >../g.staged &&
		test_cmp ../g.staged g.txt
	) &&
	test_cmp v1 stage1 &&
	test_cmp ours stage2 &&
	sed "s/^line 10\$/line 10 answer/;s/^line 15\$/line 15 both/" v1 >theirs &&
	test_cmp theirs stage3 &&
	(cd threeway && git status --porcelain) >status &&
	test_grep "^UU f.txt" status
'

test_expect_success '-3 is --3way' '
	fresh short &&
	(
		cd short &&
		test_expect_code 1 git ai-apply -3 ../answer.diff >/dev/null 2>&1 &&
		state >../actual.state
	) &&
	test_cmp expect.state actual.state
'

test_expect_success '--3way --cached: the stages as git apply --3way --cached, the work tree untouched' '
	fresh by-git-cached &&
	(
		cd by-git-cached &&
		git update-index -q --refresh &&
		test_expect_code 1 git apply --3way --cached ../answer.diff 2>/dev/null &&
		state >../expect.cached
	) &&
	fresh cached &&
	(
		cd cached &&
		test_expect_code 1 git ai-apply --3way --cached ../answer.diff >../out 2>../err &&
		state >../actual.cached &&
		git diff --quiet base -- f.txt g.txt
	) &&
	test_cmp expect.cached actual.cached &&
	test_grep "^U f.txt" out
'

test_expect_success '--json marks the file conflicted with its regions' '
	fresh for-json &&
	(
		cd for-json &&
		test_expect_code 1 git ai-apply --3way --json ../answer.diff >../json 2>/dev/null &&
		grep -n "^<<<<<<< ours\$" f.txt | cut -d: -f1 >../starts &&
		grep -n "^>>>>>>> theirs\$" f.txt | cut -d: -f1 >../ends
	) &&
	echo conflicted >expect &&
	jq -r .status json >actual &&
	test_cmp expect actual &&
	jq -r ".files[] | select(.path == \"f.txt\") | .status, .conflicted" json >actual &&
	printf "U\ntrue\n" >expect &&
	test_cmp expect actual &&
	jq -r ".files[] | select(.path == \"f.txt\") | .conflicts[].start" json >actual &&
	test_cmp starts actual &&
	jq -r ".files[] | select(.path == \"f.txt\") | .conflicts[].end" json >actual &&
	test_cmp ends actual &&
	jq -r ".files[] | select(.path == \"g.txt\") | .conflicted" json >actual &&
	echo null >expect &&
	test_cmp expect actual
'

test_expect_success '--3way --stat and --diff show the content written' '
	fresh for-stat &&
	(
		cd for-stat &&
		test_expect_code 1 git ai-apply --3way --apply --stat ../answer.diff >../stat 2>/dev/null &&
		git reset -q --hard base &&
		test_expect_code 1 git ai-apply --3way --apply --diff ../answer.diff >../diff 2>/dev/null
	) &&
	test_grep "f.txt | *4 ++++" stat &&
	test_grep "^+<<<<<<< ours" diff &&
	test_grep "^+>>>>>>> theirs" diff
'

test_expect_success 'merge.conflictStyle=diff3 is honoured as git apply does' '
	fresh by-git-diff3 &&
	(
		cd by-git-diff3 &&
		git config merge.conflictStyle diff3 &&
		git update-index -q --refresh &&
		test_expect_code 1 git apply --3way ../answer.diff 2>/dev/null &&
		state >../expect.diff3
	) &&
	fresh diff3 &&
	(
		cd diff3 &&
		git config merge.conflictStyle diff3 &&
		test_expect_code 1 git ai-apply --3way ../answer.diff >/dev/null 2>&1 &&
		state >../actual.diff3
	) &&
	test_cmp expect.diff3 actual.diff3 &&
	test_grep "^||||||| base" diff3/f.txt
'

test_expect_success 'without the index line the version comes from the history' '
	sed "/^index /d" answer.diff >noindex.diff &&
	fresh noindex &&
	(
		cd noindex &&
		test_expect_code 1 git ai-apply --3way ../noindex.diff >/dev/null 2>../err &&
		state >../actual.state
	) &&
	test_cmp expect.state actual.state &&
	test_grep "apply exactly to commit" err
'

test_expect_success 'a CRLF file: markers end in CRLF, as git apply writes them' '
	git init -q crlf &&
	(
		cd crlf &&
		printf "a\r\nb\r\nc\r\nd\r\ne\r\n" >f &&
		git add f &&
		git commit -q -m v1 &&
		printf "a\r\nB\r\nc\r\nd\r\ne\r\n" >f &&
		git diff >../crlf.diff &&
		printf "a\r\nBB\r\nc\r\nd\r\ne\r\n" >f &&
		git commit -q -a -m upstream
	) &&
	rm -rf crlf-git && cp -R crlf crlf-git &&
	(
		cd crlf-git &&
		git update-index -q --refresh &&
		test_expect_code 1 git apply --3way ../crlf.diff 2>/dev/null &&
		state >../expect.crlf
	) &&
	(
		cd crlf &&
		test_expect_code 1 git ai-apply --3way --json ../crlf.diff >../crlf.json 2>/dev/null &&
		state >../actual.crlf
	) &&
	test_cmp expect.crlf actual.crlf &&
	printf "<<<<<<< ours\r\n" >marker &&
	sed -n 2p crlf/f >line2 &&
	test_cmp marker line2 &&
	jq -r ".files[0].conflicts[] | \"\\(.start) \\(.end)\"" crlf.json >actual &&
	echo "2 6" >expect &&
	test_cmp expect actual
'

test_expect_success '--3way --check: a conflict is still refused' '
	fresh check &&
	(
		cd check &&
		test_rejected --3way --check ../answer.diff
	) &&
	test_grep "conflicts with the current content" check/err &&
	test_grep "; nothing written; --3way, when landing, merges it with conflict markers$" check/err
'

test_expect_success '--branch: the conflict does not point at --3way, which a branch cannot take' '
	fresh branch-stale &&
	(
		cd branch-stale &&
		test_rejected --branch=topic ../answer.diff
	) &&
	test_grep "conflicts with the current content" branch-stale/err &&
	! grep 3way branch-stale/err
'

test_expect_success '--3way --branch is a usage error: a branch never commits a conflict' '
	fresh branch &&
	(
		cd branch &&
		repo_snapshot before &&
		test_expect_code 128 git ai-apply --3way --branch=topic ../answer.diff 2>../err &&
		repo_unchanged before
	) &&
	test_grep "a branch never commits a conflict" err
'

test_expect_success 'a refusal elsewhere in the change set still writes nothing' '
	cat answer.diff >both.diff &&
	cat >>both.diff <<-\EOF &&
	diff --git a/missing.txt b/missing.txt
	--- a/missing.txt
	+++ b/missing.txt
	@@ -1 +1 @@
	-nothing
	+something
	EOF
	fresh mixed &&
	(
		cd mixed &&
		test_rejected --3way ../both.diff
	) &&
	test_grep "missing.txt" mixed/err
'

test_expect_success 'a later operation of the answer on the conflicted path is refused' '
	cat >later.diff <<-\EOF &&
	--- a/f.txt
	+++ b/f.txt
	@@ -1,3 +1,3 @@
	-line 1
	+line 1 later
	 line 2
	 line 3
	EOF
	fresh later &&
	(
		cd later &&
		test_rejected --3way ../answer.diff ../later.diff
	) &&
	test_grep "later.diff:[0-9]*: an earlier operation of the answer left this path with conflicts" later/err
'

test_expect_success 'a conflicted index is refused, as before' '
	(
		cd threeway &&
		repo_snapshot conflicted &&
		test_expect_code 128 git ai-apply --3way ../answer.diff 2>../err &&
		repo_unchanged conflicted
	) &&
	test_grep "unresolved conflicts" err
'

# kill_at STEP: SIGKILL at STEP of a conflicted landing, then --recover.
kill_at () {
	fresh "kill-$1" &&
	(
		cd "kill-$1" &&
		test_expect_code 137 env AA_TEST_HOOK="$1:kill" \
			git-ai-apply --3way ../answer.diff &&
		git ai-apply --recover 2>../recover.err &&
		state >../state.now &&
		git fsck 2>../fsck.err &&
		test_must_be_empty ../fsck.err
	)
}

test_expect_success 'setup: the state before' '
	(cd repo && state >../before.state)
'

for step in lock journal path path#2 index
do
	test_expect_success "killed at '$step': --recover rolls back to the old state" '
		kill_at $step &&
		test_cmp before.state state.now
	'
done

for step in rename done
do
	test_expect_success "killed at '$step': --recover keeps the conflicted state" '
		kill_at $step &&
		test_cmp expect.state state.now
	'
done

test_expect_success 'killed after the commit point: recovery knows the conflict is the new state' '
	kill_at rename &&
	test_grep "it was complete; the index and work tree hold the change" recover.err
'

test_done
