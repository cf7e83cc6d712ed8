#!/bin/sh

test_description='the index lock is never held without a record naming its owner: a run killed at any instant leaves nothing, or something the next run recognises and clears'

. "$(dirname "$0")/test-lib.sh"

# Steps of the hook (AA_TEST_HOOK=<step>:kill|pause:<file>) around the
# lock: owner (the owner record made, no lock yet), locked (the lock
# taken, no journal yet), lock (the planning journal written).

wait_for () {
	i=0
	while ! test -e "$1"
	do
		i=$((i + 1))
		test $i -lt 6000 || { echo "timed out waiting for $1"; return 1; }
		sleep 0.01
	done
}

# leftovers: lock, owner records and journal of ours, one per line.
leftovers () {
	{ ls -a .git | grep -e "^index\.lock" || :; } &&
	{ ls .git/ai-apply 2>/dev/null | grep journal || :; }
}

TRASH=$(pwd)

test_expect_success 'setup' '
	make_repo repo &&
	cat >change.diff <<-\EOF &&
	diff --git a/a.txt b/a.txt
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
	fresh applied &&
	(cd applied && git ai-apply -q ../change.diff && git write-tree >../tree.new)
'

test_expect_success 'a landing leaves no owner record' '
	fresh plain &&
	(
		cd plain &&
		git ai-apply -q ../change.diff &&
		leftovers >../left
	) &&
	test_must_be_empty left
'

test_expect_success 'while the lock is held it is a hard link to a record naming the pid and host' '
	fresh held &&
	(
		cd held &&
		rm -f ../go ../go.waiting &&
		{ AA_TEST_HOOK="locked:pause:$TRASH/go" git-ai-apply ../change.diff & } &&
		pid=$! &&
		wait_for ../go.waiting &&
		ls .git >../names &&
		test "$(stat -c %h .git/index.lock)" = 2 &&
		test_grep "^index\.lock\.ai-apply-$pid@$(hostname)\$" ../names &&
		: >../go &&
		wait $pid &&
		leftovers >../left
	) &&
	test_must_be_empty left
'

for step in owner locked lock
do
	test_expect_success "killed at '$step': the next run clears it and lands" '
		fresh kill-$step &&
		(
			cd kill-$step &&
			test_expect_code 137 env AA_TEST_HOOK="$step:kill" git-ai-apply ../change.diff &&
			git ai-apply ../change.diff 2>../err &&
			test "$(git write-tree)" = "$(cat ../tree.new)" &&
			leftovers >../left
		) &&
		test_must_be_empty left
	'

	test_expect_success "killed at '$step': --recover clears it" '
		fresh rec-$step &&
		(
			cd rec-$step &&
			test_expect_code 137 env AA_TEST_HOOK="$step:kill" git-ai-apply --cached ../change.diff &&
			git ai-apply --recover >../out 2>../err &&
			leftovers >../left &&
			git diff --cached --exit-code
		) &&
		test_must_be_empty left
	'
done

test_expect_success 'killed between the lock and the journal: --recover says what it removed' '
	fresh says &&
	(
		cd says &&
		test_expect_code 137 env AA_TEST_HOOK="locked:kill" git-ai-apply ../change.diff &&
		test_path_is_file .git/index.lock &&
		test_path_is_missing .git/ai-apply/journal &&
		git ai-apply --recover 2>../err
	) &&
	test_grep "removed the index lock of process [0-9]*, killed before it wrote anything" err
'

test_expect_success 'two runs: one killed holding the lock, the other started while the lock is there' '
	fresh two &&
	(
		cd two &&
		test_expect_code 137 env AA_TEST_HOOK="locked:kill" git-ai-apply ../change.diff &&
		test_path_is_file .git/index.lock &&
		git ai-apply --cached ../change.diff &&
		test "$(git write-tree)" = "$(cat ../tree.new)" &&
		leftovers >../left
	) &&
	test_must_be_empty left
'

test_expect_success 'a live run holding the lock is respected: exit 128' '
	fresh live &&
	(
		cd live &&
		rm -f ../go ../go.waiting &&
		{ AA_TEST_HOOK="locked:pause:$TRASH/go" git-ai-apply ../change.diff & } &&
		pid=$! &&
		wait_for ../go.waiting &&
		test_expect_code 128 git ai-apply --cached ../change.diff 2>../err &&
		test_expect_code 128 git ai-apply --recover 2>>../err &&
		: >../go &&
		wait $pid &&
		test "$(git write-tree)" = "$(cat ../tree.new)"
	) &&
	test_grep "Another git process seems to be running" err
'

test_expect_success 'a lock without a record of ours (git'"'"'s, another program'"'"'s) is respected' '
	fresh foreign &&
	(
		cd foreign &&
		: >.git/index.lock &&
		test_expect_code 128 git ai-apply ../change.diff 2>../err &&
		test_expect_code 128 git ai-apply --recover 2>>../err &&
		test_path_is_file .git/index.lock
	) &&
	test_grep "File exists" err
'

test_expect_success 'a dead run'"'"'s record that is not the lock: the record goes, the lock stays' '
	fresh other &&
	(
		cd other &&
		test_expect_code 137 env AA_TEST_HOOK="owner:kill" git-ai-apply ../change.diff &&
		ls .git | grep "^index\.lock\.ai-apply-" >../records &&
		test "$(wc -l <../records)" = 1 &&
		: >.git/index.lock &&
		test_expect_code 128 git ai-apply ../change.diff 2>../err &&
		test_path_is_file .git/index.lock &&
		{ ls .git | grep "^index\.lock\.ai-apply-" >../records2 || :; } &&
		test_must_be_empty ../records2
	)
'

test_expect_success 'a record of a live process that is not ours to judge (another host) stays' '
	fresh host &&
	(
		cd host &&
		: >.git/index.lock.ai-apply-1@elsewhere.example &&
		ln .git/index.lock.ai-apply-1@elsewhere.example .git/index.lock &&
		test_expect_code 128 git ai-apply ../change.diff 2>../err &&
		test_path_is_file .git/index.lock &&
		test_path_is_file .git/index.lock.ai-apply-1@elsewhere.example
	)
'

test_done
