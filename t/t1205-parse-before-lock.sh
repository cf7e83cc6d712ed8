#!/bin/sh

test_description='the inputs are read and parsed before the index lock is taken or recovery runs, as git apply does: a malformed answer fails with its own message (exit 1) and never touches the lock'

. "$(dirname "$0")/test-lib.sh"

# leftovers: lock, owner records and journal of ours, one per line.
leftovers () {
	{ ls -a .git | grep -e "^index\.lock" || :; } &&
	{ ls .git/ai-apply 2>/dev/null | grep journal || :; }
}

test_expect_success 'setup' '
	make_repo repo &&
	cat >change.diff <<-\EOF &&
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
	cat >quote.diff <<-\EOF &&
	--- "a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
	cat >dotdot.diff <<-\EOF &&
	--- a/../x.txt
	+++ b/../x.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
	echo "no change here, only prose" >prose.md
'

# held ARGS...: git ai-apply ARGS with another process'"'"'s index.lock in
# place: must exit 1, leave everything (the lock too) as it was and say
# nothing about the lock.
held () {
	fresh held &&
	(
		cd held &&
		: >.git/index.lock &&
		test_rejected "$@" &&
		test_path_is_file .git/index.lock &&
		test_must_be_empty .git/index.lock
	) &&
	cp held/err err &&
	! grep -i "index.lock\|another git process" err
}

test_expect_success 'a held lock, a malformed file name: the parse error, exit 1' '
	held ../quote.diff &&
	test_grep "error: ../quote.diff:1: malformed quoted file name" err
'

test_expect_success 'a held lock, a path leaving the work tree: the path error, exit 1' '
	held ../dotdot.diff &&
	test_grep "error: ../x.txt: ../dotdot.diff:1: invalid path" err
'

test_expect_success 'a held lock, --cached, no change in the answer: exit 1' '
	held --cached ../prose.md &&
	test_grep "no change found in the input" err
'

test_expect_success 'a held lock, --json: the report says rejected, with the parse error' '
	fresh held-json &&
	(
		cd held-json &&
		: >.git/index.lock &&
		test_expect_code 1 git ai-apply --json ../quote.diff >../out 2>../err
	) &&
	jq -r .status out >status &&
	echo rejected >expect &&
	test_cmp expect status &&
	jq -r ".errors[].message" out >messages &&
	test_grep "malformed quoted file name" messages &&
	! grep -i "index.lock" messages
'

test_expect_success 'a held lock and an answer that parses: the lock is what stops it (exit 128)' '
	fresh held-good &&
	(
		cd held-good &&
		: >.git/index.lock &&
		test_expect_code 128 git ai-apply ../change.diff 2>../err &&
		test_must_be_empty .git/index.lock
	) &&
	test_grep "error: Unable to create .*index.lock.: File exists" err
'

test_expect_success 'a held lock and an input that cannot be read: exit 128, the input named' '
	fresh held-missing &&
	(
		cd held-missing &&
		: >.git/index.lock &&
		test_expect_code 128 git ai-apply ../no-such.diff 2>../err
	) &&
	test_grep "fatal: cannot open .../no-such.diff." err &&
	! grep "index.lock" err
'

test_expect_success 'a killed run'"'"'s lock and journal: a malformed answer leaves them to the next run' '
	fresh killed &&
	(
		cd killed &&
		test_expect_code 137 env AA_TEST_HOOK="lock:kill" git-ai-apply ../change.diff &&
		leftovers >../left.before &&
		test -s ../left.before &&
		test_expect_code 1 git ai-apply ../quote.diff 2>../err &&
		leftovers >../left.after &&
		git ai-apply -q ../change.diff &&
		leftovers >../left.last &&
		git diff --cached --name-only >../staged
	) &&
	test_cmp left.before left.after &&
	test_grep "malformed quoted file name" err &&
	! grep -i "recover" err &&
	test_must_be_empty left.last &&
	echo a.txt >expect &&
	test_cmp expect staged
'

test_done
