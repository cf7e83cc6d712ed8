/*
 * The hunk editor of -p (Documentation/safety.md, "The hunk editor never
 * outlives the run"). git runs the editor in its
 * own process group and ignores SIGINT and SIGQUIT while it waits
 * (editor.c: launch_specified_editor), so that the terminal's ^C goes
 * to the editor, which decides. A run that ends by a signal while the
 * editor is open must neither leave the editor running nor its edit
 * file behind: the editor runs in a process group of its own (the
 * editor may be a shell that runs another program: the group reaches
 * all of them), which holds the terminal while it runs, as a shell's
 * foreground job; a signal meant for the run ends that group and the
 * file, then the run. The terminal's own signals go to the editor's
 * group only; when they kill the editor, the run ends the same way
 * (git raises them again too).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "aiapply/common.h"
#include "workflow/editor.h"

static const int guarded[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE };
#define NGUARDED (sizeof(guarded) / sizeof(guarded[0]))

/* Ticks of 10 ms an editor gets to end after the forwarded signal. */
#define END_TICKS 500

static struct {
	int active;
	struct sigaction saved[NGUARDED];
	volatile sig_atomic_t caught[NGUARDED]; /* our handler is installed */
	char file[4096];                        /* the edit file, "" if none */
} guard;

/* The running editor's process group (0: none), for the handler. */
static volatile sig_atomic_t editor_group;
/* The signal that ends the run, held while the editor ends. */
static volatile sig_atomic_t ending;

static int slot(int sig)
{
	size_t i;

	for (i = 0; i < NGUARDED; i++)
		if (guarded[i] == sig)
			return (int)i;
	return -1;
}

/* Puts back the run's own action for sig (async-signal-safe). */
static void restore(int sig)
{
	int i = slot(sig);

	if (i >= 0 && guard.caught[i]) {
		guard.caught[i] = 0;
		sigaction(sig, &guard.saved[i], NULL);
	}
}

static void on_signal(int sig)
{
	if (editor_group > 0) {
		if (!ending) {
			ending = sig;
			kill(-(pid_t)editor_group, sig == SIGHUP ? SIGHUP : SIGTERM);
			kill(-(pid_t)editor_group, SIGCONT);
		}
		return; /* aa_editor_run waits for the editor, then ends the run */
	}
	if (guard.file[0])
		unlink(guard.file);
	restore(sig);
	raise(sig); /* delivered to the run's action once we return */
}

int aa_editor_guard_begin(const char *file)
{
	struct sigaction sa;
	size_t i, n = strlen(file);

	if (guard.active)
		return -1;
	guard.active = 1;
	ending = 0;
	guard.file[0] = '\0';
	if (n < sizeof(guard.file))
		memcpy(guard.file, file, n + 1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: waitpid sees EINTR */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NGUARDED; i++)
		sigaddset(&sa.sa_mask, guarded[i]);
	for (i = 0; i < NGUARDED; i++) {
		if (sigaction(guarded[i], NULL, &guard.saved[i]) < 0 ||
		    guard.saved[i].sa_handler == SIG_IGN)
			continue; /* ignored (nohup): it stays ignored */
		if (sigaction(guarded[i], &sa, NULL) == 0)
			guard.caught[i] = 1;
	}
	return 0;
}

void aa_editor_guard_end(void)
{
	size_t i;

	if (!guard.active)
		return;
	for (i = 0; i < NGUARDED; i++)
		restore(guarded[i]);
	guard.file[0] = '\0';
	guard.active = 0;
}

/* Makes pg the terminal's foreground process group (from any group). */
static void hand_terminal(int tty, pid_t pg)
{
	sigset_t set, old;

	sigemptyset(&set);
	sigaddset(&set, SIGTTOU);
	sigaddset(&set, SIGTTIN);
	sigaddset(&set, SIGTSTP);
	sigprocmask(SIG_BLOCK, &set, &old);
	tcsetpgrp(tty, pg);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void run_child(const char *script, const char *cmd, const char *file,
		      int tty, int fg, pid_t parent, const sigset_t *mask)
{
	size_t i;

	setpgid(0, 0);
	if (fg)
		hand_terminal(tty, getpid());
	for (i = 0; i < NGUARDED; i++)
		if (guard.caught[i])
			sigaction(guarded[i], &guard.saved[i], NULL);
#ifdef __linux__
	/* the run killed outright (SIGKILL): the editor's shell hears of it */
	prctl(PR_SET_PDEATHSIG, SIGHUP);
	if (getppid() != parent)
		_exit(129);
#else
	(void)parent;
#endif
	sigprocmask(SIG_SETMASK, mask, NULL);
	execl("/bin/sh", "sh", "-c", script, cmd, file, (char *)NULL);
	_exit(127);
}

/*
 * The editor stopped (its ^Z): the run stops with it, as a shell's job
 * would, and gives it the terminal back when it is continued.
 */
static void stop_with(pid_t pid, int tty)
{
	hand_terminal(tty, getpgrp());
	kill(0, SIGTSTP);
	hand_terminal(tty, pid);
	kill(-pid, SIGCONT);
}

static int wait_editor(pid_t pid, int tty, int fg, int *status)
{
	static const struct timespec tick = { 0, 10 * 1000 * 1000 };
	long ticks = 0;

	for (;;) {
		int flags = (fg ? WUNTRACED : 0) | (ending ? WNOHANG : 0);
		pid_t r = waitpid(pid, status, flags);

		if (r == pid && WIFSTOPPED(*status)) {
			if (ending)
				kill(-pid, SIGCONT);
			else
				stop_with(pid, tty);
			continue;
		}
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
		if (ending) {
			if (++ticks == END_TICKS)
				kill(-pid, SIGKILL);
			nanosleep(&tick, NULL);
		}
	}
}

/*
 * 1 when no process of group pg is left. The run is the subreaper of
 * the editor's processes (Linux), so the ones its shell left are ours
 * to reap and none is missed; elsewhere, kill(-pg, 0) says.
 */
static int group_gone(pid_t pg, int subreaper)
{
	while (waitpid(-pg, NULL, WNOHANG) > 0)
		;
	if (errno != ECHILD)
		return 0;
	return subreaper || kill(-pg, 0) < 0;
}

/*
 * The run ends by `sig`: what is left of the editor's group (SIGTERM,
 * SIGKILL after END_TICKS), its file, then the run.
 */
static void end_run(pid_t pid, const char *file, int sig, int subreaper)
{
	static const struct timespec tick = { 0, 10 * 1000 * 1000 };
	long ticks = 0;

	kill(-pid, SIGTERM);
	kill(-pid, SIGCONT);
	errno = 0;
	while (!group_gone(pid, subreaper) && ticks < 2 * END_TICKS) {
		if (++ticks == END_TICKS)
			kill(-pid, SIGKILL);
		nanosleep(&tick, NULL);
		errno = 0;
	}
	unlink(file);
	restore(sig);
	raise(sig);
}

/* The run adopts what the editor's shell leaves running (Linux). */
static int become_subreaper(void)
{
#if defined(__linux__) && defined(PR_SET_CHILD_SUBREAPER)
	return prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
#else
	return 0;
#endif
}

int aa_editor_run(const char *cmd, const char *file, int *status)
{
	aa_buf script = AA_BUF_INIT;
	sigset_t set, old;
	pid_t pid, me = getpgrp(), parent = getpid();
	int tty, fg, r, subreaper = become_subreaper();
	size_t i;

	*status = 0;
	if (aa_buf_printf(&script, "%s \"$@\"", cmd) < 0)
		return -1;
	tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	fg = tty >= 0 && tcgetpgrp(tty) == me;
	sigemptyset(&set);
	for (i = 0; i < NGUARDED; i++)
		sigaddset(&set, guarded[i]);
	sigprocmask(SIG_BLOCK, &set, &old);
	pid = fork();
	if (pid == 0)
		run_child(script.ptr, cmd, file, tty, fg, parent, &old);
	if (pid > 0) {
		setpgid(pid, pid);
		if (fg)
			hand_terminal(tty, pid);
		editor_group = pid;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	aa_buf_free(&script);
	r = pid > 0 ? wait_editor(pid, tty, fg, status) : -1;
	editor_group = 0;
	if (fg)
		hand_terminal(tty, me);
	if (tty >= 0)
		close(tty);
	if (r == 0 && !ending && WIFSIGNALED(*status) &&
	    (WTERMSIG(*status) == SIGINT || WTERMSIG(*status) == SIGQUIT))
		ending = WTERMSIG(*status);
	if (pid > 0 && ending) {
		end_run(pid, file, ending, subreaper);
		ending = 0; /* still here: the run ignores that signal */
		r = -1;
	}
	return r;
}
