#!/bin/sh

test_description='landing safety: one index.lock for the whole landing, a journal that recovers from a kill at any step, verified rollback'

. "$(dirname "$0")/test-lib.sh"

# The test-only hook AA_TEST_HOOK=<step>[#n]:kill|pause:<file> stops the
# landing at a step: lock, journal, path (after each work-tree path),
# index (new index in the lock), rename (the commit point), done.

# wait_for FILE: until the paused run has reached its step.
wait_for () {
	i=0
	while ! test -e "$1"
	do
		i=$((i + 1))
		test $i -lt 6000 || { echo "timed out waiting for $1"; return 1; }
		sleep 0.01
	done
}

# start_paused STEP ARGS...: runs git-ai-apply in the background, paused
# at STEP; $paused_pid is its pid; "resume" lets it go on.
start_paused () {
	step=$1 && shift &&
	rm -f "$TRASH/go" "$TRASH/go.waiting" &&
	{ AA_TEST_HOOK="$step:pause:$TRASH/go" git-ai-apply "$@" \
		>"$TRASH/paused.out" 2>"$TRASH/paused.err" & } &&
	paused_pid=$! &&
	wait_for "$TRASH/go.waiting"
}

resume () {
	: >"$TRASH/go" &&
	paused_code=0 &&
	{ wait $paused_pid || paused_code=$?; }
}

# landing_state: index tree, work tree and leftovers, one per line.
landing_state () {
	echo "tree $(git write-tree)" &&
	git diff --name-status &&
	git ls-files --others &&
	{ test ! -e .git/index.lock || echo "index.lock left"; } &&
	{ test ! -e .git/ai-apply/journal || echo "journal left"; }
}

TRASH=$(pwd)

# strace -e inject makes one system call fail on demand (LeakSanitizer
# cannot run under ptrace: the sanitizer builds skip leak checks there)
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null
then
	test_set_prereq STRACE
fi

test_expect_success 'setup: a change to three paths, the states before and after' '
	make_repo repo &&
	(
		cd repo &&
		printf "gone\n" >dir/c.txt &&
		git add dir/c.txt &&
		git commit -q -m more &&
		git tag base
	) &&
	cat >change.diff <<-\EOF &&
	diff --git a/a.txt b/a.txt
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	diff --git a/dir/c.txt b/dir/c.txt
	deleted file mode 100644
	--- a/dir/c.txt
	+++ /dev/null
	@@ -1 +0,0 @@
	-gone
	diff --git a/new/deep/n.txt b/new/deep/n.txt
	new file mode 100644
	--- /dev/null
	+++ b/new/deep/n.txt
	@@ -0,0 +1 @@
	+new
	EOF
	(cd repo && landing_state >../state.old) &&
	fresh applied &&
	(cd applied && git ai-apply -q ../change.diff && landing_state >../state.new) &&
	! test_cmp state.old state.new
'

test_expect_success 'a held index.lock: exit 128, git'"'"'s message, the lock respected' '
	fresh held &&
	(
		cd held &&
		: >.git/index.lock &&
		test_expect_code 128 git ai-apply ../change.diff 2>../err &&
		test_expect_code 128 git ai-apply --recover 2>../err.recover &&
		test_path_is_file .git/index.lock
	) &&
	test_grep "Unable to create .*index.lock.: File exists" err &&
	test_grep "Another git process seems to be running" err &&
	test_grep "index.lock" err.recover
'

for step in lock journal path index
do
	test_expect_success "git add while the landing pauses at '$step': it waits its turn, nothing lost" '
		fresh race-$step &&
		(
			cd race-$step &&
			start_paused $step ../change.diff &&
			echo other >other.txt &&
			test_expect_code 128 git add other.txt 2>../add.err &&
			resume &&
			test $paused_code = 0 &&
			git add other.txt &&
			git rm -q --cached other.txt &&
			rm other.txt &&
			landing_state >../state.now
		) &&
		test_grep "index.lock" add.err &&
		test_cmp state.new state.now
	'
done

test_expect_success 'a second ai-apply while the first writes the work tree: exit 128, the first lands' '
	fresh race2 &&
	(
		cd race2 &&
		printf "diff --git a/x.txt b/x.txt\nnew file mode 100644\n--- /dev/null\n+++ b/x.txt\n@@ -0,0 +1 @@\n+x\n" >../x.diff &&
		start_paused path ../change.diff &&
		test_expect_code 128 git ai-apply ../x.diff 2>../second.err &&
		test_expect_code 128 git ai-apply --cached ../x.diff 2>>../second.err &&
		resume &&
		test $paused_code = 0 &&
		landing_state >../state.now &&
		git ai-apply ../x.diff &&
		git cat-file -e :x.txt &&
		git cat-file -e :new/deep/n.txt
	) &&
	test_grep "Another git process seems to be running" second.err &&
	test_cmp state.new state.now
'

test_expect_success 'git add right after the commit point is kept (no stale write)' '
	fresh race-rename &&
	(
		cd race-rename &&
		start_paused rename ../change.diff &&
		echo other >other.txt &&
		git add other.txt &&
		resume &&
		test $paused_code = 0 &&
		git cat-file -e :other.txt &&
		git cat-file -e :new/deep/n.txt
	)
'

# kill_at STEP EXPECT: SIGKILL at STEP, then --recover leaves the
# repository in state EXPECT (old or new), clean.
kill_at () {
	fresh "kill-$1" &&
	(
		cd "kill-$1" &&
		test_expect_code 137 env AA_TEST_HOOK="$1:kill" git-ai-apply ../change.diff &&
		git ai-apply --recover 2>../recover.err &&
		landing_state >../state.now &&
		git fsck 2>../fsck.err &&
		test_must_be_empty ../fsck.err
	) &&
	test_cmp "state.$2" state.now
}

for step in lock journal path path#2 index
do
	test_expect_success "killed at '$step': --recover rolls back to the old state" '
		kill_at $step old
	'
done

for step in rename done
do
	test_expect_success "killed at '$step': --recover keeps the new state" '
		kill_at $step new
	'
done

test_expect_success 'recovery says what it did' '
	kill_at path#2 old &&
	test_grep "a.txt: rolled back" recover.err &&
	test_grep "recovered the landing interrupted in process" recover.err
'

test_expect_success 'the next run recovers by itself, then lands' '
	fresh kill-next &&
	(
		cd kill-next &&
		test_expect_code 137 env AA_TEST_HOOK="path#2:kill" git-ai-apply ../change.diff &&
		test_path_is_file .git/index.lock &&
		git ai-apply ../change.diff 2>../next.err &&
		landing_state >../state.now
	) &&
	test_grep "rolled back" next.err &&
	test_cmp state.new state.now
'

test_expect_success 'recovery leaves alone a path edited since the kill' '
	fresh kill-edit &&
	(
		cd kill-edit &&
		test_expect_code 137 env AA_TEST_HOOK="path#3:kill" git-ai-apply ../change.diff &&
		echo mine >a.txt &&
		git ai-apply --recover 2>../recover.err &&
		echo mine >expect &&
		test_cmp expect a.txt &&
		test_path_is_missing new/deep/n.txt &&
		test_path_is_file dir/c.txt
	) &&
	test_grep "a.txt: left alone" recover.err
'

test_expect_success '--recover with nothing to do' '
	(
		cd repo &&
		git ai-apply --recover >../out
	) &&
	test_grep "nothing to recover" out
'

test_expect_success 'SIGTERM before the work tree is touched removes the lock and the journal' '
	fresh term1 &&
	(
		cd term1 &&
		start_paused lock ../change.diff &&
		kill -TERM $paused_pid &&
		resume &&
		test $paused_code = 143 &&
		landing_state >../state.now
	) &&
	test_cmp state.old state.now
'

test_expect_success 'SIGTERM while the work tree is written is held back until the landing is done' '
	fresh term2 &&
	(
		cd term2 &&
		start_paused path ../change.diff &&
		kill -TERM $paused_pid &&
		resume &&
		test $paused_code = 143 &&
		landing_state >../state.now
	) &&
	test_cmp state.new state.now
'

test_expect_success 'a file size limit is an error, not a silent kill; the work tree is put back' '
	fresh fsize &&
	awk "BEGIN { print \"diff --git a/big.txt b/big.txt\"; print \"new file mode 100644\";
		print \"--- /dev/null\"; print \"+++ b/big.txt\"; print \"@@ -0,0 +1,3000 @@\";
		for (i = 0; i < 3000; i++) print \"+\" sprintf(\"%060d\", i) }" >big.diff &&
	cat change.diff big.diff >both.diff &&
	(
		cd fsize &&
		(
			ulimit -f 100 &&
			test_expect_code 128 git-ai-apply ../both.diff 2>../err
		) &&
		landing_state >../state.now
	) &&
	test_grep "big.txt: cannot write: File too large" err &&
	test_cmp state.old state.now
'

# a small tmpfs makes a full disk (root only)
if test "$(id -u)" = 0 && mkdir -p "$TRASH/mnt" &&
	mount -t tmpfs -o size=4m tmpfs "$TRASH/mnt" 2>/dev/null
then
	test_set_prereq TMPFS
fi

test_expect_success TMPFS 'a full disk: the error names it, the work tree is put back, nothing to recover' '
	cp -R repo mnt/full &&
	{ dd if=/dev/zero of=mnt/filler bs=4k 2>/dev/null || :; } &&
	truncate -s -100K mnt/filler &&
	(
		cd mnt/full &&
		test_expect_code 128 git-ai-apply ../../both.diff 2>../../err &&
		landing_state >../../state.now &&
		git ai-apply --recover >../../out
	) &&
	test_grep "No space left on device" err &&
	test_cmp state.old state.now &&
	test_grep "nothing to recover" out
'

test_expect_success TMPFS 'unmount the small file system' '
	umount "$TRASH/mnt"
'

test_expect_success '--cached killed at each step: the next run finds a whole index and no lock' '
	for step in lock index rename
	do
		fresh "cached-$step" &&
		(
			cd "cached-$step" &&
			test_expect_code 137 env AA_TEST_HOOK="$step:kill" \
				git-ai-apply --cached ../change.diff &&
			git ai-apply --recover 2>../recover.err &&
			test_path_is_missing .git/index.lock &&
			git fsck &&
			git write-tree >../tree.now &&
			{ test "$(cat ../tree.now)" = "$(git rev-parse base^{tree})" ||
			  test "$(cat ../tree.now)" = "$(cd ../applied && git write-tree)"; }
		) || return 1
	done
'

test_expect_success STRACE 'a restore that fails lists where each path is left; --recover finishes it' '
	fresh rb &&
	(
		cd rb &&
		test_expect_code 128 env ASAN_OPTIONS=detect_leaks=0 strace -f -o /dev/null -e inject=renameat:error=EIO:when=2+ \
			git-ai-apply ../change.diff 2>../err &&
		test_path_is_missing .git/index.lock &&
		test_path_is_file .git/ai-apply/journal &&
		git ai-apply --recover 2>../recover.err &&
		landing_state >../state.now
	) &&
	test_grep "could not be put back" err &&
	test_grep "a.txt: new (Input/output error)" err &&
	test_grep "dir/c.txt: missing" err &&
	test_grep "git ai-apply --recover" err &&
	test_cmp state.old state.now
'

test_expect_success STRACE 'a directory that cannot be made gives mkdir'"'"'s reason' '
	fresh mk &&
	(
		cd mk &&
		test_expect_code 128 env ASAN_OPTIONS=detect_leaks=0 strace -f -o /dev/null -e inject=mkdirat:error=EACCES \
			git-ai-apply ../change.diff 2>../err &&
		landing_state >../state.now
	) &&
	test_grep "new/deep/n.txt: cannot create its directory: Permission denied" err &&
	test_cmp state.old state.now
'

test_expect_success 'a branch created by another process meanwhile: exit 1, as an existing branch' '
	fresh br &&
	(
		cd br &&
		start_paused branch --branch=ai/x ../change.diff &&
		git branch ai/x &&
		resume &&
		test $paused_code = 1 &&
		test "$(git rev-parse ai/x)" = "$(git rev-parse HEAD)"
	) &&
	test_grep "branch .ai/x. already exists" paused.err
'

test_done
