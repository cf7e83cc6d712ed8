/*
 * Running git (run.h). Standard input is a socket, written with
 * MSG_NOSIGNAL: a filter that exits without reading all of it gives
 * EPIPE here, never a SIGPIPE that would kill a landing holding the
 * index lock. Output and input are pumped with poll(), so neither side
 * waits on a full pipe.
 */
#define _GNU_SOURCE 1 /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "land/run.h"

extern char **environ;

#define ERR_KEEP 4096

/* The child: descriptors in place, the environment added to, git run. */
static void child(git_repository *repo, const char *const *argv,
		  const char *const *env, int in, int out, int err)
{
	const char *wd = git_repository_workdir(repo);
	sigset_t none;
	size_t i;

	/* the landing holds signals back (land/journal.h): git must not */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(127);
	for (i = 0; env && env[i]; i++)
		putenv((char *)env[i]);
	if (chdir(wd ? wd : git_repository_path(repo)) < 0)
		_exit(127);
	signal(SIGPIPE, SIG_DFL);
	execvp(argv[0], (char *const *)argv);
	_exit(127);
}

/* argv: git --git-dir=... [--work-tree=...] args... NULL */
static char **make_argv(git_repository *repo, const char *const *args,
			aa_buf *gd, aa_buf *wt)
{
	size_t n = 0, k = 0;
	char **v;

	while (args[n])
		n++;
	v = calloc(n + 4, sizeof(*v));
	if (!v || aa_buf_printf(gd, "--git-dir=%s", git_repository_path(repo)) < 0) {
		free(v);
		return NULL;
	}
	v[k++] = "git";
	v[k++] = gd->ptr;
	if (git_repository_workdir(repo)) {
		if (aa_buf_printf(wt, "--work-tree=%s", git_repository_workdir(repo)) < 0) {
			free(v);
			return NULL;
		}
		v[k++] = wt->ptr;
	}
	memcpy(v + k, args, n * sizeof(*v));
	return v;
}

static int append_from(int fd, aa_buf *b, int keep_tail)
{
	char chunk[65536];
	ssize_t n = read(fd, chunk, sizeof(chunk));

	if (n <= 0)
		return n < 0 && (errno == EINTR || errno == EAGAIN) ? 1 : 0;
	if (b && aa_buf_put(b, chunk, (size_t)n) < 0)
		return -1;
	if (b && keep_tail && b->len > ERR_KEEP) {
		memmove(b->ptr, b->ptr + b->len - ERR_KEEP, ERR_KEEP);
		b->len = ERR_KEEP;
		b->ptr[b->len] = '\0';
	}
	return 1;
}

/* Feeds in[0..len) and drains out and err until both end. */
static int pump(int in, int out, int err, const char *data, size_t len,
		aa_buf *obuf, aa_buf *ebuf)
{
	size_t done = 0;
	int r = 0;

	if (!len) {
		close(in);
		in = -1;
	}
	while (out >= 0 || err >= 0) {
		struct pollfd p[3] = { { in, POLLOUT, 0 }, { out, POLLIN, 0 },
				       { err, POLLIN, 0 } };

		if (poll(p, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			r = -1;
			break;
		}
		if (in >= 0 && p[0].revents) {
			ssize_t n = send(in, data + done, len - done, MSG_NOSIGNAL | MSG_DONTWAIT);

			if (n > 0)
				done += (size_t)n;
			if ((n < 0 && errno != EAGAIN && errno != EINTR) || done == len) {
				close(in); /* EPIPE: the child did not want the rest */
				in = -1;
			}
		}
		if (out >= 0 && p[1].revents) {
			int k = append_from(out, obuf, 0);

			if (k <= 0) {
				r = k < 0 ? -1 : r;
				close(out);
				out = -1;
			}
		}
		if (err >= 0 && p[2].revents && append_from(err, ebuf, 1) <= 0) {
			close(err);
			err = -1;
		}
	}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	if (err >= 0)
		close(err);
	return r;
}

int aa_run_git(git_repository *repo, const char *const *args,
	       const char *const *env, const char *in, size_t len,
	       aa_buf *out, aa_buf *err)
{
	aa_buf gd = AA_BUF_INIT, wt = AA_BUF_INIT;
	char **argv = make_argv(repo, args, &gd, &wt);
	int r = argv ? aa_run_argv(repo, (const char *const *)argv, env, in, len,
				   out, err) : -1;

	aa_buf_free(&gd);
	aa_buf_free(&wt);
	free(argv);
	return r;
}

int aa_run_argv(git_repository *repo, const char *const *argv,
		const char *const *env, const char *in, size_t len,
		aa_buf *out, aa_buf *err)
{
	aa_buf ignore = AA_BUF_INIT;
	int sv[2] = { -1, -1 }, po[2] = { -1, -1 }, pe[2] = { -1, -1 };
	int status = 0, r = -1;
	pid_t pid = -1;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0 &&
	    pipe2(po, O_CLOEXEC) == 0 && pipe2(pe, O_CLOEXEC) == 0)
		pid = fork();
	if (pid == 0)
		child(repo, argv, env, sv[1], po[1], pe[1]);
	if (pid > 0) {
		close(sv[1]);
		close(po[1]);
		close(pe[1]);
		sv[1] = po[1] = pe[1] = -1;
		r = pump(sv[0], po[0], pe[0], in, len, out, err ? err : &ignore);
		sv[0] = po[0] = pe[0] = -1;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (!r)
			r = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
	for (status = 0; status < 2; status++) {
		if (sv[status] >= 0)
			close(sv[status]);
		if (po[status] >= 0)
			close(po[status]);
		if (pe[status] >= 0)
			close(pe[status]);
	}
	aa_buf_free(&ignore);
	return r;
}
