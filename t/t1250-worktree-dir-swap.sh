#!/bin/sh

test_description='work tree: a directory swapped for a symbolic link in the middle of a landing is never written through'

. "$(dirname "$0")/test-lib.sh"

# The landing pauses after its first work-tree path (AA_TEST_HOOK
# path#1:pause), the test swaps a directory for a link to a directory
# outside the work tree, the landing goes on. Each directory is checked
# once (opened without following links) and written through that
# descriptor, so what the link points to is never touched.

TRASH=$(pwd)

wait_for () {
	i=0
	while ! test -e "$1"
	do
		i=$((i + 1))
		test $i -lt 6000 || { echo "timed out waiting for $1"; return 1; }
		sleep 0.01
	done
}

start_paused () {
	rm -f "$TRASH/go" "$TRASH/go.waiting" &&
	{ AA_TEST_HOOK="path#1:pause:$TRASH/go" git-ai-apply "$@" \
		>"$TRASH/paused.out" 2>"$TRASH/paused.err" & } &&
	paused_pid=$! &&
	wait_for "$TRASH/go.waiting"
}

resume () {
	: >"$TRASH/go" &&
	paused_code=0 &&
	{ wait $paused_pid || paused_code=$?; }
}

# outside_unchanged: the directory the links point to holds what it did.
outside_unchanged () {
	(cd "$TRASH/outside" && find . | sort) >"$TRASH/outside.now" &&
	test_cmp "$TRASH/outside.before" "$TRASH/outside.now" &&
	test_cmp "$TRASH/outside.keep" "$TRASH/outside/keep.txt"
}

new_file () {
	printf "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+%s\n" \
		"$1" "$1" "$1" "$2"
}

test_expect_success 'setup' '
	make_repo repo &&
	mkdir outside &&
	echo keep >outside/keep.txt &&
	cp outside/keep.txt outside.keep &&
	(cd outside && find . | sort) >outside.before &&
	{ new_file a.txt.new one && new_file dir/n1.txt one && new_file dir/n2.txt two; } >same-dir.diff &&
	{ new_file a.txt.new one && new_file fresh/sub/n.txt two; } >new-dir.diff &&
	{ new_file dir/n1.txt one && new_file dir/n2.txt two; } >cached-dir.diff
'

test_expect_success 'a checked directory swapped for a link: the rest is written into the checked directory, never through the link' '
	rm -rf w1 && cp -R repo w1 &&
	(
		cd w1 &&
		start_paused ../same-dir.diff &&
		test_path_is_file a.txt.new &&
		mv dir dir.moved &&
		ln -s "$TRASH/outside" dir &&
		resume &&
		test_path_is_missing "$TRASH/outside/n1.txt" &&
		test_path_is_missing "$TRASH/outside/n2.txt" &&
		test_path_is_file dir.moved/n1.txt &&
		test_path_is_file dir.moved/n2.txt
	) &&
	outside_unchanged
'

test_expect_success 'a directory made a link before it was first opened: refused, rolled back, nothing outside' '
	rm -rf w2 && cp -R repo w2 &&
	(
		cd w2 &&
		start_paused ../new-dir.diff &&
		test_path_is_file a.txt.new &&
		ln -s "$TRASH/outside" fresh &&
		resume &&
		test "$paused_code" != 0 &&
		test_grep "symbolic link" "$TRASH/paused.err" &&
		rm fresh &&
		test_path_is_missing a.txt.new &&
		git diff --cached --exit-code &&
		git status --porcelain >status &&
		echo "?? status" >expect &&
		test_cmp expect status &&
		test_path_is_missing .git/index.lock
	) &&
	outside_unchanged
'

test_expect_success 'a parent of a checked directory swapped: nothing outside either' '
	rm -rf w4 && cp -R repo w4 &&
	mkdir -p w4/top/mid &&
	echo x >w4/top/mid/x.txt &&
	git -C w4 add top &&
	git -C w4 commit -q -m top &&
	mkdir -p outside/mid &&
	(cd outside && find . | sort) >outside.before &&
	{ new_file top/mid/n1.txt one && new_file top/mid/n2.txt two; } >deep.diff &&
	(
		cd w4 &&
		start_paused ../deep.diff &&
		mv top top.moved &&
		ln -s "$TRASH/outside" top &&
		resume &&
		test_path_is_missing "$TRASH/outside/mid/n2.txt" &&
		test_path_is_file top.moved/mid/n2.txt
	) &&
	outside_unchanged
'

test_done
