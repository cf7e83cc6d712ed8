#!/bin/sh

test_description='-p: a signal while the hunk editor is open ends the editor and removes its file'

. "$(dirname "$0")/test-lib.sh"

write_script () {
	{ echo "#!/bin/sh" && cat; } >"$1" && chmod +x "$1"
}

test_expect_success 'setup' '
	git init -q repo &&
	(
		cd repo &&
		seq 1 10 >a.txt &&
		git add . &&
		git commit -q -m base
	) &&
	cat >one.diff <<-\EOF &&
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 1
	-2
	+TWO
	 3
	EOF
	# The editor: a shell that runs another program and waits, so the
	# editor is two processes under the shell git-ai-apply starts.
	write_script slow-editor <<-\EOF &&
	echo $$ >"$TRASH/editor.pid"
	sleep 1000 &
	echo $! >"$TRASH/sleep.pid"
	wait
	EOF
	echo e >answers
'

# gone PID: the process has ended (or is a zombie nobody reaped yet),
# waiting 10 seconds at most.
gone () {
	n=0 &&
	while st=$(ps -o stat= -p "$1" 2>/dev/null) && test -n "$st" &&
		test "${st#Z}" = "$st"
	do
		n=$((n + 1)) &&
		test $n -lt 200 || { echo "process $1 still running: $st"; return 1; }
		sleep 0.05
	done
}

# wait_file FILE: until FILE exists and is not empty (10 seconds at most).
wait_file () {
	n=0 &&
	while ! test -s "$1"
	do
		n=$((n + 1)) &&
		test $n -lt 200 || { echo "no $1"; return 1; }
		sleep 0.05
	done
}

# run_editing DIR EDITOR: git-ai-apply -p in a copy DIR of the
# repository answering "e" with EDITOR, in the background (its pid in
# $run).
run_editing () {
	rm -f editor.pid sleep.pid &&
	rm -rf "$1" && cp -R repo "$1" || return 1
	(
		cd "$1" &&
		TRASH=$SHARNESS_TRASH_DIRECTORY &&
		GIT_EDITOR="\"$SHARNESS_TRASH_DIRECTORY/$2\"" &&
		export TRASH GIT_EDITOR &&
		exec git-ai-apply -p ../one.diff <../answers >../out 2>../err
	) &
	run=$!
}

# start_edit DIR: git-ai-apply -p in DIR answering "e", in the
# background (its pid in $run); returns once the editor runs.
start_edit () {
	run_editing "$1" slow-editor &&
	wait_file editor.pid &&
	wait_file sleep.pid &&
	test_path_is_file "$1/.git/ai-apply-hunk-edit.diff"
}

# ended DIR CODE: the run exited with CODE, the editor and what it ran
# are gone, no edit file, nothing staged, no lock.
ended () {
	code=0 &&
	{ wait $run || code=$?; } &&
	test "$code" = "$2" &&
	gone "$(cat editor.pid)" &&
	gone "$(cat sleep.pid)" &&
	test_path_is_missing "$1/.git/ai-apply-hunk-edit.diff" &&
	test_path_is_missing "$1/.git/index.lock" &&
	git -C "$1" diff --cached --exit-code &&
	git -C "$1" diff --exit-code
}

for s in TERM:15 HUP:1 INT:2 QUIT:3
do
	sig=${s%:*} num=${s#*:}
	test_expect_success "SIG$sig to the run while the editor is open" '
		start_edit s-$sig &&
		kill -$sig $run &&
		ended s-$sig $((128 + num))
	'
done

test_expect_success 'the terminal ^C (SIGINT to the editor group) ends the editor, then the run as git' '
	start_edit s-tty &&
	pgid=$(ps -o pgid= -p "$(cat editor.pid)" | tr -d " ") &&
	test "$pgid" != "$(ps -o pgid= -p $$ | tr -d " ")" &&
	kill -INT -$pgid &&
	ended s-tty 130
'

test_expect_success 'an editor that ignores SIGTERM is killed after a while' '
	write_script stubborn-editor <<-\EOF &&
	trap "" TERM
	echo $$ >"$TRASH/editor.pid"
	echo $$ >"$TRASH/sleep.pid"
	while :; do sleep 1; done
	EOF
	run_editing s-stub stubborn-editor &&
	wait_file editor.pid &&
	kill -TERM $run &&
	ended s-stub 143
'

test_expect_success 'an editor that ends normally: the edit file goes, the signals are the run'"'"'s again' '
	write_script quick-editor <<-\EOF &&
	sed -i "s/^+TWO/+Two/" "$1"
	EOF
	rm -rf s-ok && cp -R repo s-ok &&
	(
		cd s-ok &&
		GIT_EDITOR="\"$SHARNESS_TRASH_DIRECTORY/quick-editor\"" git-ai-apply -p ../one.diff <../answers &&
		git show :a.txt >staged &&
		test_grep -x Two staged &&
		test_path_is_missing .git/ai-apply-hunk-edit.diff
	)
'

# A real terminal: tmux runs the command; the editor holds the terminal
# while it runs, ^C goes to it, and the run gets the terminal back.
. "$AA_TEST_DIR/lib/tmux.sh"

test_expect_success 'setup two hunks' '
	seq 1 30 >repo/a.txt &&
	git -C repo commit -q -a -m thirty &&
	cat >two.diff <<-\EOF
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 1
	-2
	+TWO
	 3
	@@ -20,3 +20,3 @@
	 20
	-21
	+TWENTYONE
	 22
	EOF
'

test_expect_success TMUX 'a terminal: the editor edits, the run gets the terminal back for the next question' '
	rm -rf t-ok && cp -R repo t-ok &&
	test_when_finished tmux_stop &&
	tmux_start -d -s aa -x 100 -y 50 \
		"cd t-ok && GIT_EDITOR=\"\\\"$PWD/quick-editor\\\"\" git-ai-apply -p ../two.diff; echo EXIT=\$?; sleep 60" &&
	wait_for "(1/2) Stage this hunk" &&
	tmux_run send-keys -t aa e Enter &&
	wait_for "(2/2) Stage this hunk" &&
	tmux_run send-keys -t aa n Enter &&
	wait_for "EXIT=0" &&
	git -C t-ok show :a.txt >staged &&
	test_grep -x Two staged &&
	test_grep -x 21 staged &&
	test_path_is_missing t-ok/.git/ai-apply-hunk-edit.diff
'

test_expect_success TMUX 'a terminal: ^C while the editor is open ends the editor, its file and the run' '
	rm -rf t-int && cp -R repo t-int &&
	rm -f editor.pid sleep.pid &&
	test_when_finished tmux_stop &&
	tmux_start -d -s aa -x 100 -y 50 \
		"cd t-int && TRASH=\"$PWD\" GIT_EDITOR=\"\\\"$PWD/slow-editor\\\"\" git-ai-apply -p ../two.diff; echo EXIT=\$?; sleep 60" &&
	wait_for "(1/2) Stage this hunk" &&
	tmux_run send-keys -t aa e Enter &&
	wait_file editor.pid &&
	wait_file sleep.pid &&
	test_path_is_file t-int/.git/ai-apply-hunk-edit.diff &&
	tmux_run send-keys -t aa C-c &&
	wait_for "EXIT=130" &&
	gone "$(cat editor.pid)" &&
	gone "$(cat sleep.pid)" &&
	test_path_is_missing t-int/.git/ai-apply-hunk-edit.diff &&
	git -C t-int diff --cached --exit-code
'

test_done
