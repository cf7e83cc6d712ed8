/*
 * The landing guard: git's index.lock held for the whole landing, and a
 * journal that a later run (or --recover) uses to finish or undo a
 * landing that was killed (Documentation/safety.md, "The landing
 * journal", "Recovery").
 *
 * Files, all under the git dir of the index:
 *   <index>.lock          our lock (git's protocol: O_EXCL, renamed onto
 *                         the index at the commit point); its inode is
 *                         recorded in the journal, so a stale one left by
 *                         a killed run is recognised as ours;
 *   <index>.lock.ai-apply-<pid>@<host>
 *                         the owner record, made before the lock: the lock
 *                         is a hard link to it (link(2) fails when the
 *                         lock exists, as O_EXCL does), so at no instant
 *                         is the lock held without a name saying whose it
 *                         is (safety.md, "The index lock");
 *   ai-apply/index        the index libgit2 reads and writes (a hard link
 *                         to, or copy of, the index, taken under the lock);
 *   ai-apply/journal      pid, lock inode, old index checksum and, once
 *                         the work tree is about to change, every path
 *                         with its old and new blob and mode.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "land/fsync.h"
#include "land/journal.h"
#include "land/loose.h"
#include "land/owner.h"
#include "land/worktree.h"
#include "plan/plan.h"
#include "util/testhook.h"
#include "util/util.h"

#define JOURNAL_MAGIC "git-ai-apply journal 1"

struct aa_guard {
	git_repository *repo;
	aa_buf index_path, lock_path, dir, journal_path, private_path;
	aa_buf owner_path;  /* our owner record beside the lock */
	int owner_made;     /* it exists */
	long stale_pid;     /* a stale lock of this dead run was removed */
	char **keeps;       /* .keep files of the landing's pack */
	size_t nkeeps;
	int lock_fd;
	struct stat lock_st;
	int old_absent;
	git_oid old_sum;
	int held;       /* we hold the lock */
	int owner;      /* we took the lock: the journal is ours */
	int keep;       /* leave the journal for --recover */
	int blocked;    /* signals held back */
	sigset_t saved;
	aa_fsync fsync; /* what is made durable (land/fsync.h) */
};

typedef struct journal {
	long pid;
	unsigned long long dev, ino;
	int old_absent;
	git_oid old_sum;
	int landing;
	aa_jentry *v;
	size_t n;
	char **keeps;
	size_t nkeeps;
} journal;

/* ---- what a signal handler may touch ---- */

static char sig_lock[4096], sig_journal[4096], sig_private[4096],
	    sig_owner[4096];
static volatile sig_atomic_t sig_held, sig_planning, sig_owned;

void aa_guard_emergency_cleanup(void)
{
	if (sig_held) {
		sig_held = 0;
		unlink(sig_lock);
	}
	/* the record goes after the lock: never a lock without one */
	if (sig_owned) {
		sig_owned = 0;
		unlink(sig_owner);
	}
	if (sig_planning) {
		sig_planning = 0;
		unlink(sig_journal);
		unlink(sig_private);
	}
}

static void copy_for_signal(char *dst, const aa_buf *src)
{
	size_t n = src->len < 4095 ? src->len : 4095;

	memcpy(dst, src->ptr, n);
	dst[n] = '\0';
}

int aa_block_landing_signals(sigset_t *saved)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGPIPE);
	sigaddset(&set, SIGQUIT);
	return sigprocmask(SIG_BLOCK, &set, saved) == 0;
}

static void block_signals(aa_guard *g)
{
	if (!g->blocked)
		g->blocked = aa_block_landing_signals(&g->saved);
}

static void unblock_signals(aa_guard *g)
{
	if (g->blocked)
		sigprocmask(SIG_SETMASK, &g->saved, NULL);
	g->blocked = 0;
}

/* ---- small file helpers ---- */

static int read_file(const char *path, aa_buf *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r;

	if (fd < 0)
		return -1;
	r = aa_read_all(fd, out);
	close(fd);
	return r;
}

/* The trailing checksum of an index file; 1 when it does not exist. */
static int index_trailer(const char *path, git_oid *sum)
{
	unsigned char tail[20];
	int fd = open(path, O_RDONLY | O_CLOEXEC), r = -1;

	memset(sum, 0, sizeof(*sum));
	if (fd < 0)
		return errno == ENOENT ? 1 : -1;
	if (lseek(fd, -20, SEEK_END) >= 0 && read(fd, tail, 20) == 20) {
		memcpy(sum->id, tail, 20);
		r = 0;
	}
	close(fd);
	return r;
}

static int pid_alive(long pid)
{
	if (pid <= 0 || pid == (long)getpid())
		return 0;
	return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

/* Same file: device and inode. */
static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* ---- the journal file ---- */

static int put_path(aa_buf *b, const char *p)
{
	for (; *p; p++) {
		unsigned char c = (unsigned char)*p;
		int r = (c < 0x20 || c == 0x7f || c == '\\') ?
			aa_buf_printf(b, "\\%03o", c) : aa_buf_putc(b, (char)c);

		if (r < 0)
			return -1;
	}
	return 0;
}

static char *get_path(const char *p)
{
	aa_buf b = AA_BUF_INIT;

	for (; *p; p++) {
		char c = *p;

		if (c == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] && p[3]) {
			c = (char)(((p[1] - '0') << 6) | ((p[2] - '0') << 3) | (p[3] - '0'));
			p += 3;
		}
		if (aa_buf_putc(&b, c) < 0) {
			aa_buf_free(&b);
			return NULL;
		}
	}
	return aa_buf_detach(&b);
}

static int put_side(aa_buf *b, unsigned mode, const git_oid *id)
{
	char hex[GIT_OID_HEXSZ + 1];

	if (!mode)
		return aa_buf_puts(b, " 0 -");
	git_oid_tostr(hex, sizeof(hex), id);
	return aa_buf_printf(b, " %o %s", mode, hex);
}

/* --3way: "conflict <stage 3 blob>" after the entry it belongs to. */
static int put_conflict(aa_buf *b, const aa_jentry *e)
{
	char hex[GIT_OID_HEXSZ + 1];

	if (!e->conflict)
		return 0;
	git_oid_tostr(hex, sizeof(hex), &e->theirs_id);
	return aa_buf_printf(b, "conflict %s\n", hex);
}

static int format_journal(const aa_guard *g, const aa_jentry *v, size_t n,
			  aa_buf *b)
{
	char hex[GIT_OID_HEXSZ + 1];
	size_t i;


	git_oid_tostr(hex, sizeof(hex), &g->old_sum);
	if (aa_buf_printf(b, "%s\npid %ld\nlock %llu %llu\nold-index %s\nstage %s\n",
			  JOURNAL_MAGIC, (long)getpid(),
			  (unsigned long long)g->lock_st.st_dev,
			  (unsigned long long)g->lock_st.st_ino,
			  g->old_absent ? "absent" : hex,
			  v ? "landing" : "planning") < 0)
		return -1;
	for (i = 0; i < g->nkeeps; i++)
		if (aa_buf_puts(b, "keep ") < 0 || put_path(b, g->keeps[i]) < 0 ||
		    aa_buf_putc(b, '\n') < 0)
			return -1;
	for (i = 0; v && i < n; i++)
		if (aa_buf_puts(b, "entry") < 0 ||
		    put_side(b, v[i].old_mode, &v[i].old_id) < 0 ||
		    put_side(b, v[i].new_mode, &v[i].new_id) < 0 ||
		    aa_buf_putc(b, ' ') < 0 || put_path(b, v[i].path) < 0 ||
		    aa_buf_putc(b, '\n') < 0 || put_conflict(b, &v[i]) < 0)
			return -1;
	return aa_buf_puts(b, "end\n");
}

static void free_keeps(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Adds a copy of path to *v; -1 when out of memory. */
static int add_keep(char ***v, size_t *n, char *path)
{
	char **w = path ? realloc(*v, (*n + 1) * sizeof(*w)) : NULL;

	if (!w) {
		free(path);
		return -1;
	}
	*v = w;
	w[(*n)++] = path;
	return 0;
}

/* Removes the pack's keeps (its objects are reachable, or never were). */
static void remove_keeps(char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		unlink(v[i]);
}

static void journal_free(journal *j)
{
	size_t i;

	for (i = 0; i < j->n; i++)
		free(j->v[i].path);
	free(j->v);
	free_keeps(j->keeps, j->nkeeps);
	memset(j, 0, sizeof(*j));
}

static int parse_side(const char **p, unsigned *mode, git_oid *id)
{
	char hex[GIT_OID_HEXSZ + 1];
	int used = 0;

	if (sscanf(*p, " %o %40s%n", mode, hex, &used) != 2)
		return -1;
	*p += used;
	if (!*mode)
		return strcmp(hex, "-") ? -1 : 0;
	return git_oid_fromstr(id, hex);
}

static int parse_entry(journal *j, const char *line)
{
	aa_jentry e;
	aa_jentry *v;

	memset(&e, 0, sizeof(e));
	if (parse_side(&line, &e.old_mode, &e.old_id) < 0 ||
	    parse_side(&line, &e.new_mode, &e.new_id) < 0 || *line != ' ' ||
	    !(e.path = get_path(line + 1)))
		return -1;
	v = realloc(j->v, (j->n + 1) * sizeof(*v));
	if (!v) {
		free(e.path);
		return -1;
	}
	j->v = v;
	j->v[j->n++] = e;
	return 0;
}

static int parse_line(journal *j, const char *line)
{
	char hex[GIT_OID_HEXSZ + 1];

	if (!strncmp(line, "entry ", 6))
		return parse_entry(j, line + 5);
	if (!strncmp(line, "keep ", 5))
		return add_keep(&j->keeps, &j->nkeeps, get_path(line + 5));
	if (sscanf(line, "conflict %40s", hex) == 1) {
		if (!j->n)
			return -1;
		j->v[j->n - 1].conflict = 1;
		return git_oid_fromstr(&j->v[j->n - 1].theirs_id, hex);
	}
	if (sscanf(line, "pid %ld", &j->pid) == 1 ||
	    sscanf(line, "lock %llu %llu", &j->dev, &j->ino) == 2)
		return 0;
	if (sscanf(line, "old-index %40s", hex) == 1) {
		j->old_absent = !strcmp(hex, "absent");
		return j->old_absent ? 0 : git_oid_fromstr(&j->old_sum, hex);
	}
	if (!strcmp(line, "stage landing"))
		j->landing = 1;
	return 0;
}

/* 1 when there is no journal, 0 read, -1 unreadable or damaged. */
static int read_journal(const aa_guard *g, journal *j)
{
	aa_buf b = AA_BUF_INIT;
	char *line, *nl;
	int r = 0, ended = 0;

	memset(j, 0, sizeof(*j));
	errno = 0;
	if (read_file(g->journal_path.ptr, &b) < 0) {
		aa_buf_free(&b);
		return errno == ENOENT ? 1 : -1;
	}
	if (strncmp(b.ptr ? b.ptr : "", JOURNAL_MAGIC "\n", sizeof(JOURNAL_MAGIC)))
		r = -1;
	for (line = b.ptr; !r && line && (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		if (!strcmp(line, "end"))
			ended = 1;
		else
			r = parse_line(j, line);
	}
	aa_buf_free(&b);
	if (!r && !ended)
		r = -1; /* cut short: the journal is written whole, then renamed */
	if (r) {
		journal_free(j);
		errno = 0;
	}
	return r;
}

/* Writes the journal whole to a temporary name, then renames it. */
static int write_journal(aa_guard *g, const aa_jentry *v, size_t n, int durable)
{
	aa_buf b = AA_BUF_INIT, tmp = AA_BUF_INIT;
	int r = -1;

	if (format_journal(g, v, n, &b) == 0 &&
	    aa_buf_printf(&tmp, "%s.tmp", g->journal_path.ptr) == 0)
		r = aa_replace_file(open(tmp.ptr, O_WRONLY | O_CREAT | O_TRUNC |
					 O_CLOEXEC, 0666),
				    tmp.ptr, b.ptr, b.len, g->journal_path.ptr,
				    durable ? aa_fsync_how(&g->fsync, AA_FSYNC_JOURNAL)
					    : AA_SYNC_NONE);
	aa_buf_free(&b);
	aa_buf_free(&tmp);
	return r;
}

/* ---- paths and the lock ---- */

static int set_paths(aa_guard *g, git_repository *repo)
{
	const char *env = getenv("GIT_INDEX_FILE");
	const char *gitdir = git_repository_path(repo);

	if ((env && *env ? aa_buf_puts(&g->index_path, env) :
			   aa_buf_printf(&g->index_path, "%sindex", gitdir)) < 0 ||
	    aa_buf_printf(&g->lock_path, "%s.lock", g->index_path.ptr) < 0 ||
	    aa_buf_printf(&g->dir, "%sai-apply", gitdir) < 0 ||
	    aa_buf_printf(&g->journal_path, "%s/journal", g->dir.ptr) < 0 ||
	    aa_buf_printf(&g->private_path, "%s/index", g->dir.ptr) < 0 ||
	    aa_buf_printf(&g->owner_path, "%s.ai-apply-%ld@%s", g->lock_path.ptr,
			  (long)getpid(), aa_owner_host()) < 0)
		return -1;
	copy_for_signal(sig_owner, &g->owner_path);
	copy_for_signal(sig_lock, &g->lock_path);
	copy_for_signal(sig_journal, &g->journal_path);
	copy_for_signal(sig_private, &g->private_path);
	return 0;
}

static int lock_error(aa_guard *g, int err, aa_diags *d)
{
	if (err == EEXIST)
		aa_error(d, AA_NOPOS, NULL,
			 "Unable to create '%s': File exists.\n\n"
			 "Another git process seems to be running in this repository, e.g.\n"
			 "an editor opened by 'git commit'. Please make sure all processes\n"
			 "are terminated then try again. If it still fails, a git process\n"
			 "may have crashed in this repository earlier:\n"
			 "remove the file manually to continue.", g->lock_path.ptr);
	else
		aa_error(d, AA_NOPOS, NULL, "Unable to create '%s': %s",
			 g->lock_path.ptr, strerror(err));
	return AA_FATAL;
}

/*
 * A lock left by a killed run of ours: the journal's pid is dead and the
 * lock is the very file (device and inode) that run created. It is moved
 * aside before it is checked and removed, so that two runs cleaning up at
 * once never remove a lock a third process has just taken.
 */
static int remove_stale_lock(aa_guard *g, const journal *j)
{
	aa_buf aside = AA_BUF_INIT;
	struct stat st;
	int r = -1;

	if (lstat(g->lock_path.ptr, &st) < 0 || pid_alive(j->pid) ||
	    (unsigned long long)st.st_dev != j->dev ||
	    (unsigned long long)st.st_ino != j->ino)
		return -1;
	if (aa_buf_printf(&aside, "%s/stale-lock-%ld", g->dir.ptr, (long)getpid()) < 0 ||
	    rename(g->lock_path.ptr, aside.ptr) < 0)
		goto out;
	if (lstat(aside.ptr, &st) == 0 &&
	    (unsigned long long)st.st_ino == j->ino) {
		r = 0;
	} else if (link(aside.ptr, g->lock_path.ptr) < 0) {
		/* someone else's fresh lock: put it back; nothing else is safe */
	}
	unlink(aside.ptr);
out:
	aa_buf_free(&aside);
	return r;
}

/*
 * Moves a stale lock aside, checks that it still is the file `want`
 * (nobody took the lock meanwhile) and removes it; 0 when removed.
 */
static int remove_lock_if(aa_guard *g, const struct stat *want)
{
	aa_buf aside = AA_BUF_INIT;
	struct stat st;
	int r = -1;

	if (aa_buf_printf(&aside, "%s.stale-%ld", g->lock_path.ptr, (long)getpid()) < 0 ||
	    rename(g->lock_path.ptr, aside.ptr) < 0)
		goto out;
	if (lstat(aside.ptr, &st) == 0 && same_file(&st, want))
		r = 0;
	else
		(void)link(aside.ptr, g->lock_path.ptr); /* not ours: put it back */
	unlink(aside.ptr);
out:
	aa_buf_free(&aside);
	return r;
}

/* "<pid>@<host>" of an owner record's name; 0 when it is one. */
static int parse_owner(const char *tail, long *pid, const char **host)
{
	char *end;

	errno = 0;
	*pid = strtol(tail, &end, 10);
	if (errno || end == tail || *end != '@')
		return -1;
	*host = end + 1;
	return 0;
}

/*
 * The owner records beside the lock whose process is gone: a record that
 * is the lock itself (same file) marks the lock stale -- it is moved
 * aside and removed, *stale set to the dead pid; every other dead record
 * is removed (a run killed before its lock, or after its commit point).
 * Our own record is skipped. lock: the lock's stat, or NULL (not held).
 */
static void sweep_owners(aa_guard *g, const struct stat *lock, long *stale)
{
	const char *slash = strrchr(g->lock_path.ptr, '/');
	const char *base = slash ? slash + 1 : g->lock_path.ptr;
	const char *own = strrchr(g->owner_path.ptr, '/');
	aa_buf dir = AA_BUF_INIT, prefix = AA_BUF_INIT, path = AA_BUF_INIT;
	struct dirent *e;
	DIR *dh;

	own = own ? own + 1 : g->owner_path.ptr;
	if (aa_buf_put(&dir, g->lock_path.ptr,
		       slash ? (size_t)(slash - g->lock_path.ptr) + 1 : 0) < 0 ||
	    aa_buf_puts(&dir, ".") < 0 ||
	    aa_buf_printf(&prefix, "%s.ai-apply-", base) < 0 ||
	    !(dh = opendir(dir.ptr)))
		goto out;
	while ((e = readdir(dh))) {
		const char *host;
		struct stat st;
		long pid;

		if (strncmp(e->d_name, prefix.ptr, prefix.len) ||
		    parse_owner(e->d_name + prefix.len, &pid, &host) < 0 ||
		    !aa_owner_gone(pid, host))
			continue;
		aa_buf_clear(&path);
		if (!strcmp(e->d_name, own) ||
		    aa_buf_printf(&path, "%s/%s", dir.ptr, e->d_name) < 0 ||
		    lstat(path.ptr, &st) < 0)
			continue;
		if (lock && same_file(&st, lock) && remove_lock_if(g, &st) == 0)
			*stale = pid;
		unlink(path.ptr);
	}
	closedir(dh);
out:
	aa_buf_free(&dir);
	aa_buf_free(&prefix);
	aa_buf_free(&path);
}

/*
 * The owner record first, then the lock as a hard link to it: 0 and
 * g->lock_fd, or -1 with errno (EEXIST: the lock is held). Where hard
 * links are not possible the lock is created with O_EXCL and the record
 * dropped (the journal's inode is then the only mark, as before).
 */
static int create_lock(aa_guard *g)
{
	int fd, e;

	unlink(g->owner_path.ptr); /* a dead run's with our pid: never truncated */
	fd = open(g->owner_path.ptr, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		return -1;
	g->owner_made = 1;
	sig_owned = 1;
	aa_test_hook("owner");
	if (link(g->owner_path.ptr, g->lock_path.ptr) == 0) {
		g->lock_fd = fd;
		return 0;
	}
	e = errno;
	close(fd);
	sig_owned = 0;
	g->owner_made = 0;
	unlink(g->owner_path.ptr);
	if (e == EEXIST || e == ENOENT) {
		errno = e;
		return -1;
	}
	/* no hard links here: git's own O_EXCL */
	g->lock_fd = open(g->lock_path.ptr, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	return g->lock_fd < 0 ? -1 : 0;
}

/* A held lock: stale and ours (owner record or journal) is removed. */
static int clear_stale_lock(aa_guard *g)
{
	struct stat st;
	journal j;
	int r;

	if (lstat(g->lock_path.ptr, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	g->stale_pid = 0;
	sweep_owners(g, &st, &g->stale_pid);
	if (g->stale_pid)
		return 0;
	if (read_journal(g, &j) != 0)
		return -1;
	r = remove_stale_lock(g, &j);
	journal_free(&j);
	return r;
}

static int take_lock(aa_guard *g, aa_diags *d)
{
	int tries;

	for (tries = 0; tries < 3; tries++) {
		if (create_lock(g) == 0)
			break;
		if (errno != EEXIST)
			return lock_error(g, errno, d);
		if (clear_stale_lock(g) < 0)
			return lock_error(g, EEXIST, d);
	}
	if (g->lock_fd < 0)
		return lock_error(g, EEXIST, d);
	sig_held = 1;
	g->held = 1;
	g->owner = 1;
	if (fstat(g->lock_fd, &g->lock_st) < 0)
		return lock_error(g, errno, d);
	aa_test_hook("locked");
	/* records of runs killed before their lock or after their commit */
	sweep_owners(g, NULL, NULL);
	return 0;
}

/* A valid index with no entries: header "DIRC", version 2, 0 entries. */
static const unsigned char empty_index[32] = {
	'D', 'I', 'R', 'C', 0, 0, 0, 2, 0, 0, 0, 0,
	0x39, 0xd8, 0x90, 0x13, 0x9e, 0xe5, 0x35, 0x6c, 0x7e, 0xf5,
	0x72, 0x21, 0x6c, 0xeb, 0xcd, 0x27, 0xaa, 0x41, 0xf9, 0xdf
};

static int write_new_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);

	if (fd < 0)
		return -1;
	if (aa_write_all(fd, data, len) < 0) {
		int e = errno;

		close(fd);
		unlink(path);
		errno = e;
		return -1;
	}
	return close(fd);
}

/*
 * The private index: a hard link to the index (libgit2 writes by renaming
 * a new file over it, so the index itself is never touched), a copy where
 * links are not possible, an empty index when there is none.
 */
static int make_private_index(aa_guard *g, aa_diags *d)
{
	aa_buf copy = AA_BUF_INIT;
	int r;

	unlink(g->private_path.ptr);
	if (g->old_absent)
		r = write_new_file(g->private_path.ptr, empty_index, sizeof(empty_index));
	else if ((r = link(g->index_path.ptr, g->private_path.ptr)) < 0 &&
		 errno != ENOENT) {
		r = read_file(g->index_path.ptr, &copy);
		if (!r)
			r = write_new_file(g->private_path.ptr, copy.ptr ? copy.ptr : "",
					   copy.len);
	}
	aa_buf_free(&copy);
	if (r < 0)
		return aa_fatal(d, AA_NOPOS, NULL,
				"cannot set up '%s': %s", g->private_path.ptr,
				strerror(errno));
	return 0;
}

/* ---- recovery ---- */

typedef enum direction { BACKWARD, FORWARD, NEITHER } direction;

static int entry_is(const git_index *idx, const char *path, unsigned mode,
		    const git_oid *id)
{
	const git_index_entry *e = git_index_get_bypath((git_index *)idx, path, 0);

	if (!mode)
		return e == NULL;
	return e && e->mode == mode && git_oid_equal(&e->id, id);
}

/* --3way's new state of a path: no stage 0, stage 3 its answer's blob. */
static int conflict_is(const git_index *idx, const aa_jentry *e)
{
	const git_index_entry *theirs =
		git_index_get_bypath((git_index *)idx, e->path, 3);

	return !git_index_get_bypath((git_index *)idx, e->path, 0) && theirs &&
	       theirs->mode == e->new_mode && git_oid_equal(&theirs->id, &e->theirs_id);
}

/* Whether the index on disk is the one before the landing or after it. */
static direction index_direction(aa_guard *g, const journal *j)
{
	git_index *idx = NULL;
	git_oid now;
	int absent = index_trailer(g->index_path.ptr, &now), all_new = 1,
	    all_old = 1;
	size_t i;

	if (absent == 1 ? j->old_absent :
	    !absent && !j->old_absent && git_oid_equal(&now, &j->old_sum))
		return BACKWARD;
	if (git_index_open(&idx, g->index_path.ptr) < 0)
		return NEITHER;
	for (i = 0; i < j->n; i++) {
		all_new &= j->v[i].conflict ? conflict_is(idx, &j->v[i]) :
			   entry_is(idx, j->v[i].path, j->v[i].new_mode, &j->v[i].new_id);
		all_old &= entry_is(idx, j->v[i].path, j->v[i].old_mode, &j->v[i].old_id);
	}
	git_index_free(idx);
	return all_new ? FORWARD : all_old ? BACKWARD : NEITHER;
}

/* Without core.filemode the executable bit of the work tree means nothing. */
static unsigned comparable_mode(unsigned mode, int filemode)
{
	return !filemode && mode == AA_MODE_EXEC ? AA_MODE_FILE : mode;
}

static int same_state(unsigned mode, const git_oid *id, unsigned want_mode,
		      const git_oid *want_id, int filemode)
{
	mode = comparable_mode(mode, filemode);
	want_mode = comparable_mode(want_mode, filemode);
	if (!mode || !want_mode)
		return mode == want_mode;
	return mode == want_mode && git_oid_equal(id, want_id);
}

static int core_filemode(git_repository *repo)
{
	git_config *cfg;
	int filemode = 1;

	if (git_repository_config_snapshot(&cfg, repo) == 0) {
		if (git_config_get_bool(&filemode, cfg, "core.filemode") < 0)
			filemode = 1;
		git_config_free(cfg);
	}
	return filemode;
}

/*
 * Puts one path in its target state when its work-tree content is the
 * other state, a leftover, or missing; leaves content that is neither.
 * Returns 0 done (or nothing to do), 1 left alone, -1 failed.
 */
static int recover_path(git_repository *repo, const aa_jentry *e,
			direction dir, int filemode, aa_diags *d)
{
	unsigned want = dir == FORWARD ? e->new_mode : e->old_mode;
	unsigned other = dir == FORWARD ? e->old_mode : e->new_mode;
	const git_oid *want_id = dir == FORWARD ? &e->new_id : &e->old_id;
	const git_oid *other_id = dir == FORWARD ? &e->old_id : &e->new_id;
	unsigned mode;
	git_oid id;

	if (aa_worktree_probe(repo, e->path, &id, &mode) < 0)
		return 1;
	if (same_state(mode, &id, want, want_id, filemode))
		return 0;
	if (mode && !same_state(mode, &id, other, other_id, filemode))
		return 1;
	return aa_worktree_put(repo, e->path, want_id, want, d) < 0 ? -1 : 0;
}

static int recover_worktree(aa_guard *g, const journal *j, direction dir,
			    aa_diags *d)
{
	static const char *done[] = { "rolled back", "completed" };
	int filemode = core_filemode(g->repo);
	size_t i, failed = 0;

	for (i = 0; i < j->n; i++) {
		int r = dir == NEITHER ? 1 :
			recover_path(g->repo, &j->v[i], dir, filemode, d);

		aa_worktree_remove_temps(g->repo, j->v[i].path, j->pid);
		if (r > 0)
			aa_warn(d, AA_NOPOS, j->v[i].path,
				"left alone: the work tree holds neither its old nor its new content");
		else if (r < 0)
			failed++;
		else
			aa_note(d, AA_NOPOS, j->v[i].path, "%s",
				done[dir == FORWARD]);
	}
	return failed ? -1 : 0;
}

static int recover(aa_guard *g, const journal *j, aa_diags *d)
{
	direction dir = j->landing ? index_direction(g, j) : BACKWARD;
	aa_buf lock2 = AA_BUF_INIT;
	int r = 0;

	if (j->landing && git_repository_workdir(g->repo))
		r = recover_worktree(g, j, dir, d);
	if (aa_buf_printf(&lock2, "%s.lock", g->private_path.ptr) == 0)
		unlink(lock2.ptr);
	aa_buf_free(&lock2);
	unlink(g->private_path.ptr);
	if (r < 0) {
		g->keep = 1;
		return aa_fatal(d, AA_NOPOS, NULL,
				"could not recover the landing interrupted in process %ld; "
				"fix the cause and run 'git ai-apply --recover' again", j->pid);
	}
	remove_keeps(j->keeps, j->nkeeps);
	aa_note(d, AA_NOPOS, NULL,
		"recovered the landing interrupted in process %ld: %s", j->pid,
		!j->landing ? "nothing had been written" :
		dir == FORWARD ? "it was complete; the index and work tree hold the change" :
		dir == BACKWARD ? "rolled back to the index and work tree before it" :
		"the index changed since; the work tree was left as it is");
	if (unlink(g->journal_path.ptr) < 0 && errno != ENOENT)
		return aa_fatal(d, AA_NOPOS, NULL, "cannot remove '%s': %s",
				g->journal_path.ptr, strerror(errno));
	aa_fsync_parent(&g->fsync, AA_FSYNC_JOURNAL, g->journal_path.ptr);
	return 0;
}

/* A journal whose run is alive is about to be removed by it: wait. */
static int recover_if_any(aa_guard *g, int *recovered, aa_diags *d)
{
	journal j;
	int i, r;

	for (i = 0; i < 200; i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		r = read_journal(g, &j);
		if (r == 1)
			return 0;
		if (r < 0)
			return aa_fatal(d, AA_NOPOS, NULL,
					"cannot read '%s': %s", g->journal_path.ptr,
					errno ? strerror(errno) : "damaged");
		if (!pid_alive(j.pid))
			break;
		journal_free(&j);
		nanosleep(&ts, NULL);
	}
	if (i == 200)
		return aa_fatal(d, AA_NOPOS, NULL,
				"another git ai-apply is finishing a landing ('%s'); try again",
				g->journal_path.ptr);
	*recovered = 1;
	r = recover(g, &j, d);
	journal_free(&j);
	return r;
}

/* ---- the guard ---- */

int aa_guard_open(aa_guard **out, git_repository *repo, const aa_fsync *f,
		  int *recovered, aa_diags *d)
{
	aa_guard *g = calloc(1, sizeof(*g));
	int r;

	*out = g;
	*recovered = 0;
	if (!g)
		return aa_fatal_oom(d, AA_NOPOS, NULL);
	g->repo = repo;
	g->fsync = *f;
	g->lock_fd = -1;
	if (set_paths(g, repo) < 0)
		return aa_fatal_oom(d, AA_NOPOS, NULL);
	if (mkdir(g->dir.ptr, 0777) < 0 && errno != EEXIST)
		return aa_fatal(d, AA_NOPOS, NULL, "cannot create '%s': %s",
				g->dir.ptr, strerror(errno));
	r = take_lock(g, d);
	if (!r)
		r = recover_if_any(g, recovered, d);
	if (r)
		return r;
	if (g->stale_pid && !*recovered) {
		*recovered = 1;
		aa_note(d, AA_NOPOS, NULL,
			"removed the index lock of process %ld, killed before it wrote anything",
			g->stale_pid);
	}
	r = index_trailer(g->index_path.ptr, &g->old_sum);
	if (r < 0)
		return aa_fatal(d, AA_NOPOS, NULL, "cannot read '%s': %s",
				g->index_path.ptr, strerror(errno));
	g->old_absent = r == 1;
	if ((r = make_private_index(g, d)) < 0)
		return r;
	if (write_journal(g, NULL, 0, 0) < 0)
		return aa_fatal(d, AA_NOPOS, NULL, "cannot write '%s': %s",
				g->journal_path.ptr, strerror(errno));
	sig_planning = 1;
	aa_test_hook("lock");
	return 0;
}

const char *aa_guard_index_path(const aa_guard *g)
{
	return g->private_path.ptr;
}

const char *aa_guard_dir(const aa_guard *g)
{
	return g->dir.ptr;
}

int aa_guard_add_keep(aa_guard *g, const char *path)
{
	return add_keep(&g->keeps, &g->nkeeps, aa_strdup(path));
}

int aa_guard_journal(aa_guard *g, const aa_jentry *v, size_t n, aa_diags *d)
{
	block_signals(g);
	sig_planning = 0;
	if (write_journal(g, v, n, 1) < 0) {
		sig_planning = 1;
		return aa_fatal(d, AA_NOPOS, NULL, "cannot write '%s': %s",
				g->journal_path.ptr, strerror(errno));
	}
	aa_test_hook("journal");
	return 0;
}

static int fill_lock(aa_guard *g)
{
	aa_buf data = AA_BUF_INIT;
	int r = read_file(g->private_path.ptr, &data);

	if (!r && (ftruncate(g->lock_fd, 0) < 0 || lseek(g->lock_fd, 0, SEEK_SET) < 0 ||
		   aa_write_all(g->lock_fd, data.ptr ? data.ptr : "", data.len) < 0 ||
		   aa_fsync_file(&g->fsync, AA_FSYNC_INDEX, g->lock_fd) < 0))
		r = -1;
	aa_buf_free(&data);
	return r;
}

/* Our owner record, after the lock is gone (renamed or removed). */
static void drop_owner(aa_guard *g)
{
	if (!g->owner_made)
		return;
	sig_owned = 0;
	unlink(g->owner_path.ptr);
	g->owner_made = 0;
}

/* The rename onto the index and what follows it (the commit point). */
static int commit_lock(aa_guard *g, aa_diags *d);

int aa_guard_commit(aa_guard *g, aa_diags *d)
{
	block_signals(g);
	if (fill_lock(g) < 0)
		return aa_fatal(d, AA_NOPOS, NULL, "cannot write '%s': %s",
				g->lock_path.ptr, strerror(errno));
	return commit_lock(g, d);
}

int aa_guard_commit_with(aa_guard *g, aa_guard_writer *writer, void *ctx,
			 aa_diags *d)
{
	char why[256] = "";

	block_signals(g);
	if (ftruncate(g->lock_fd, 0) < 0 || lseek(g->lock_fd, 0, SEEK_SET) < 0)
		snprintf(why, sizeof(why), "%s", strerror(errno));
	else if (writer(ctx, g->lock_fd, why, sizeof(why)) < 0 && !*why)
		snprintf(why, sizeof(why), "cannot write the index");
	else if (!*why && aa_fsync_file(&g->fsync, AA_FSYNC_INDEX, g->lock_fd) < 0)
		snprintf(why, sizeof(why), "%s", strerror(errno));
	if (*why)
		return aa_fatal(d, AA_NOPOS, NULL, "cannot write '%s': %s",
				g->lock_path.ptr, why);
	return commit_lock(g, d);
}

static int commit_lock(aa_guard *g, aa_diags *d)
{
	unlink(g->private_path.ptr);
	aa_test_hook("index");
	/* the lock is free from the rename on: the handler must not remove it */
	sig_held = 0;
	if (rename(g->lock_path.ptr, g->index_path.ptr) < 0) {
		sig_held = 1;
		return aa_fatal(d, AA_NOPOS, NULL,
				"unable to write new index file '%s': %s",
				g->index_path.ptr, strerror(errno));
	}
	g->held = 0;
	g->owner = 0; /* from here on the lock and git dir files are not ours */
	drop_owner(g);
	aa_fsync_parent(&g->fsync, AA_FSYNC_INDEX, g->index_path.ptr);
	aa_test_hook("rename");
	/* the index names the pack's objects now */
	remove_keeps(g->keeps, g->nkeeps);
	unlink(g->journal_path.ptr);
	aa_fsync_parent(&g->fsync, AA_FSYNC_JOURNAL, g->journal_path.ptr);
	aa_test_hook("done");
	return 0;
}

void aa_guard_keep_journal(aa_guard *g)
{
	g->keep = 1;
}

void aa_guard_close(aa_guard *g)
{
	aa_buf tmp = AA_BUF_INIT;

	if (!g)
		return;
	if (g->lock_fd >= 0)
		close(g->lock_fd);
	/* only while we hold the lock are these files ours to remove */
	sig_planning = 0;
	if (g->owner) {
		unlink(g->private_path.ptr);
		if (aa_buf_printf(&tmp, "%s.lock", g->private_path.ptr) == 0)
			unlink(tmp.ptr);
		if (!g->keep) {
			remove_keeps(g->keeps, g->nkeeps);
			unlink(g->journal_path.ptr);
			rmdir(g->dir.ptr);
		}
	}
	if (g->held) {
		sig_held = 0;
		/* a lock that stays keeps its record: the next run clears both */
		if (unlink(g->lock_path.ptr) < 0 && errno != ENOENT)
			g->owner_made = 0;
	}
	drop_owner(g);
	unblock_signals(g);
	aa_buf_free(&tmp);
	aa_buf_free(&g->index_path);
	aa_buf_free(&g->lock_path);
	aa_buf_free(&g->dir);
	aa_buf_free(&g->journal_path);
	aa_buf_free(&g->private_path);
	aa_buf_free(&g->owner_path);
	free_keeps(g->keeps, g->nkeeps);
	free(g);
}
