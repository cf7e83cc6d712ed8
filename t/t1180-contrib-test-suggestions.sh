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

test_expect_success 'a failing run'"'"'s output is kept and its place said; a pass removes it' '
	(
		cd repo &&
		test_expect_code 1 sh "$runner" -- "echo out of \$(git rev-parse --abbrev-ref HEAD 2>/dev/null || echo x); echo to stderr >&2; test -f new.txt" >../out 2>../err
	) &&
	log="$(cd repo/.git && pwd)/ai-apply/test-logs/s-2.log" &&
	test_grep "^test-suggestions.sh: s-2 failed; its output: $log\$" err &&
	! grep "s-1 failed" err &&
	test_path_is_file "$log" &&
	test_grep "^to stderr\$" "$log" &&
	test_path_is_missing repo/.git/ai-apply/test-logs/s-1.log &&
	git -C repo worktree list >worktrees &&
	test $(wc -l <worktrees) = 1 &&
	(
		cd repo &&
		sh "$runner" -- true >../out 2>../err
	) &&
	test_path_is_missing "$log" &&
	test_must_be_empty err
'

test_expect_success 'a branch with a slash: its log named with a dash' '
	(
		cd repo &&
		git branch ai/x s-2 &&
		test_expect_code 1 sh "$runner" "ai/*" -- false 2>../err
	) &&
	test_path_is_file repo/.git/ai-apply/test-logs/ai-x.log &&
	test_grep "ai/x failed; its output: .*/ai-x.log\$" err &&
	git -C repo branch -D -q ai/x
'

top=$(cd "$AA_TEST_DIR/.." && pwd)
command -v make >/dev/null 2>&1 && test -f "$top/Makefile" &&
	test_set_prereq MAKE

test_expect_success MAKE 'make install puts it in bin as git-ai-apply-test-suggestions: git ai-apply-test-suggestions runs it' '
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -C "$top" \
		--no-print-directory B="$AA_BUILD_DIR" NO_BUILD=1 NO_MAN=1 \
		DESTDIR="$PWD/dest" prefix=/opt/aa install-bin >make.out 2>&1 &&
	test -x dest/opt/aa/bin/git-ai-apply-test-suggestions &&
	test_cmp "$runner" dest/opt/aa/bin/git-ai-apply-test-suggestions &&
	(
		cd repo &&
		env PATH="$SHARNESS_TRASH_DIRECTORY/dest/opt/aa/bin:/usr/bin:/bin" \
			git ai-apply-test-suggestions s-1 -- "test -f new.txt" >../out
	) &&
	test_grep "^s-1  *merges  *pass " out &&
	test_expect_code 2 env PATH="$SHARNESS_TRASH_DIRECTORY/dest/opt/aa/bin:/usr/bin:/bin" \
		git ai-apply-test-suggestions 2>err &&
	test_grep "^usage: git-ai-apply-test-suggestions " err
'

test_done
