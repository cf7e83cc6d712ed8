#!/bin/sh

test_description='contrib/test-suggestions.sh: a test command on every suggestion branch in a temporary worktree'

. "$(dirname "$0")/test-lib.sh"

runner="$AA_TEST_DIR/../contrib/test-suggestions.sh"

test_expect_success 'setup: two suggestions, one with the file the test wants' '
	make_repo repo &&
	printf "%s\n" "--- START-FILE: new.txt ---" "new" \
		"--- END-FILE: new.txt ---" >with.md &&
	printf "%s\n" "--- START-REPLACE-FILE: a.txt ---" "changed" \
		"--- END-REPLACE-FILE: a.txt ---" >without.md &&
	git -C repo ai-apply --each --branch=s ../with.md ../without.md
'

test_expect_success 'a table: branch, merges, pass or fail; exit 1 when one failed' '
	(
		cd repo &&
		test_expect_code 1 sh "$runner" -- "test -f new.txt" >../out
	) &&
	test_grep "^s-1  *merges  *pass " out &&
	test_grep "^s-2  *merges  *fail " out &&
	git -C repo worktree list >worktrees &&
	test $(wc -l <worktrees) = 1
'

test_expect_success 'a pattern; every test passing is exit 0' '
	(
		cd repo &&
		sh "$runner" "s-1" -- "test -f new.txt" >../out
	) &&
	test_grep "^s-1 " out &&
	! test_grep "^s-2 " out
'

test_expect_success 'interrupted: its worktrees are removed, the test command ended' '
	(
		cd repo &&
		{ sh "$runner" -- "sleep 30 & echo \$! >\"$PWD/../cmd.pid\"; touch \"$PWD/../started\"; wait" >../out 2>&1 & } &&
		pid=$! &&
		i=0 &&
		while ! test -e ../started
		do
			i=$((i + 1)) &&
			test $i -lt 1000 || return 1
			sleep 0.01
		done &&
		git worktree list >../during &&
		test $(wc -l <../during) = 2 &&
		kill -TERM $pid &&
		{ wait $pid || :; } &&
		git worktree list >../after &&
		test $(wc -l <../after) = 1 &&
		sleep 0.2 &&
		# gone, or a zombie its new parent has not reaped yet
		! ps -o stat= -p $(cat ../cmd.pid) | grep -qv Z
	)
'

test_expect_success 'usage: no command is exit 2' '
	test_expect_code 2 sh "$runner" s-1 2>err &&
	test_grep "usage:" err
'

test_done
