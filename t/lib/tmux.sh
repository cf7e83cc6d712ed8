# A real terminal for a test: tmux runs the command, the test types the
# keys and reads the pane. Sourced by the scripts that drive one; they
# mark their terminal tests with the TMUX prerequisite.

command -v tmux >/dev/null 2>&1 && test_set_prereq TMUX
# one server per script run: scripts run in parallel under prove
tmux_sock=aa-$(basename "$0" .sh)-$$

tmux_run () {
	tmux -L "$tmux_sock" -f /dev/null "$@"
}

# tmux_start ARGS...: tmux new-session ARGS, retried for two seconds: a
# server that the previous test killed may still be shutting down on the
# same socket ("server exited unexpectedly" under load).
tmux_start () {
	n=0
	until tmux_run new-session "$@" 2>tmux.err
	do
		n=$((n + 1))
		test $n -lt 20 || { cat tmux.err; return 1; }
		sleep 0.1
	done
}

# tmux_stop: kills the server and waits until it is gone.
tmux_stop () {
	tmux_run kill-server 2>/dev/null
	n=0
	while tmux_run has-session 2>/dev/null && test $n -lt 20
	do
		n=$((n + 1))
		sleep 0.1
	done
	:
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
