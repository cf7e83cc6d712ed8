# A real terminal for a test: tmux runs the command, the test types the
# keys and reads the pane. Sourced by the scripts that drive one; they
# mark their terminal tests with the TMUX prerequisite.

command -v tmux >/dev/null 2>&1 && test_set_prereq TMUX
# one server per script run: scripts run in parallel under prove
tmux_sock=aa-$(basename "$0" .sh)-$$

tmux_run () {
	tmux -L "$tmux_sock" -f /dev/null "$@"
}

# wait_for TEXT: until the pane "aa" shows TEXT (10 seconds at most).
wait_for () {
	i=0
	while test $i -lt 100
	do
		tmux_run capture-pane -p -t aa >pane 2>/dev/null &&
		grep -F -- "$1" pane >/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "wait_for: no '$1' in:" && cat pane
	return 1
}
