/*
 * The ref journal of --branch and --each (src/land/refjournal.h): written
 * before the keep and the first ref lock, lock records appended while
 * the refs move, removed at the end; recovered by any later run when
 * the process that wrote it is gone.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <git2/sys/refdb_backend.h>
#include <git2/sys/repository.h>

#include "land/refjournal.h"
#include "land/fsync.h"
#include "land/journal.h"
#include "land/loose.h"
#include "util/testhook.h"
#include "land/owner.h"
#include "util/util.h"

#define REFJ_MAGIC "git-ai-apply refs journal 1"
#define NOTES_REF "refs/notes/ai-apply"

struct aa_refjournal {
	git_repository *repo;
	aa_buf dir, path;
	aa_refmove *moves;
	size_t nmoves, cap;
	char **keeps;
	size_t nkeeps;
	aa_buf locklog;    /* the lock records appended so far */
	int fd;            /* the journal, open for appending; -1 */
	int written;
	int keep_journal;  /* a move not settled, a lock left: for the next run */
	char *leftover;
	int blocked;       /* signals held back (from the first write) */
	sigset_t saved;
	long pid;          /* a journal read back: its run */
	char *host;
	aa_fsync fsync;    /* the journal's durability (AA_FSYNC_JOURNAL) */
};

/* The journal the refdb wrapper records locks into (one run at a time). */
static aa_refjournal *current;

static void put_oid(aa_buf *b, int had, const git_oid *id)
{
	char hex[GIT_OID_HEXSZ + 1];

	if (!had) {
		aa_buf_puts(b, " -");
		return;
	}
	git_oid_tostr(hex, sizeof(hex), id);
	aa_buf_printf(b, " %s", hex);
}

static int set_paths(aa_refjournal *j, long pid, const char *host)
{
	return aa_buf_printf(&j->dir, "%sai-apply",
			     git_repository_commondir(j->repo)) < 0 ||
	       aa_buf_printf(&j->path, "%s/refs-%ld@%s", j->dir.ptr, pid,
			     host) < 0 ? -1 : 0;
}

aa_refjournal *aa_refjournal_new(git_repository *repo, const aa_fsync *f)
{
	aa_refjournal *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->repo = repo;
	j->fsync = *f;
	j->fd = -1;
	j->pid = (long)getpid();
	if (set_paths(j, j->pid, aa_owner_host()) < 0) {
		aa_buf_free(&j->dir);
		aa_buf_free(&j->path);
		free(j);
		return NULL;
	}
	current = j;
	return j;
}

long aa_refjournal_add(aa_refjournal *j, const aa_refmove *m)
{
	if (AA_GROW(j->moves, j->nmoves, j->cap) < 0)
		return -1;
	j->moves[j->nmoves] = *m;
	if (!(j->moves[j->nmoves].refname = aa_strdup(m->refname)))
		return -1;
	return (long)j->nmoves++;
}

aa_refmove *aa_refjournal_move(aa_refjournal *j, size_t i)
{
	return i < j->nmoves ? &j->moves[i] : NULL;
}

int aa_refjournal_add_keep(aa_refjournal *j, const char *path)
{
	char **v = realloc(j->keeps, (j->nkeeps + 1) * sizeof(*v));

	if (!v)
		return -1;
	j->keeps = v;
	if (!(v[j->nkeeps] = aa_strdup(path)))
		return -1;
	j->nkeeps++;
	return 0;
}

static int format(const aa_refjournal *j, aa_buf *b)
{
	size_t i;

	aa_buf_printf(b, "%s\npid %ld\nhost %s\n", REFJ_MAGIC, j->pid,
		      aa_owner_host());
	for (i = 0; i < j->nkeeps; i++)
		aa_buf_printf(b, "keep %s\n", j->keeps[i]);
	for (i = 0; i < j->nmoves; i++) {
		const aa_refmove *m = &j->moves[i];

		aa_buf_printf(b, "move %s", m->refname);
		put_oid(b, m->had_old, &m->old);
		put_oid(b, 1, &m->new_commit);
		put_oid(b, m->has_note && m->had_notes, &m->notes_old);
		put_oid(b, m->has_note, &m->notes_new);
		aa_buf_putc(b, '\n');
	}
	aa_buf_puts(b, "end\n");
	aa_buf_put(b, j->locklog.ptr ? j->locklog.ptr : "", j->locklog.len);
	return aa_buf_oom(b) ? -1 : 0;
}

/* The whole journal to <path>.tmp, fsynced, renamed, directory fsynced (but with core.fsync=none). */
static int write_whole(aa_refjournal *j, const aa_buf *b)
{
	aa_buf tmp = AA_BUF_INIT;
	int fd = -1, r = -1, tries;

	if (aa_buf_printf(&tmp, "%s.tmp", j->path.ptr) < 0)
		return -1;
	/* the index guard removes an empty ai-apply/ at its end: make it again */
	for (tries = 0; fd < 0 && tries < 3; tries++) {
		if (mkdir(j->dir.ptr, 0777) < 0 && errno != EEXIST)
			break;
		fd = open(tmp.ptr, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (fd < 0 && errno != ENOENT)
			break;
	}
	/* the directory synced is j->dir, the one holding j->path */
	r = aa_replace_file(fd, tmp.ptr, b->ptr, b->len, j->path.ptr,
			    aa_fsync_how(&j->fsync, AA_FSYNC_JOURNAL));
	aa_buf_free(&tmp);
	return r;
}

const char *aa_refjournal_dir(const aa_refjournal *j)
{
	return j->dir.ptr;
}

/*
 * From the first write of the journal to its removal, SIGINT, SIGTERM,
 * SIGHUP, SIGPIPE and SIGQUIT wait: the refs are finished, then the
 * signal ends the run (as the index landing does). SIGKILL is the
 * journal's business.
 */
static void block_signals(aa_refjournal *j)
{
	if (!j->blocked)
		j->blocked = aa_block_landing_signals(&j->saved);
}

int aa_refjournal_write(aa_refjournal *j, aa_diags *d)
{
	aa_buf b = AA_BUF_INIT;
	int r;

	block_signals(j);
	r = format(j, &b) < 0 ? (errno = ENOMEM, -1) : write_whole(j, &b);
	aa_buf_free(&b);
	if (r < 0)
		return aa_fatal(d, AA_NOPOS, NULL, "cannot write %s: %s",
				aa_qpath(j->path.ptr), strerror(errno));
	if (j->fd >= 0)
		close(j->fd);
	j->fd = open(j->path.ptr, O_WRONLY | O_APPEND | O_CLOEXEC);
	j->written = 1;
	aa_test_hook("refjournal");
	return 0;
}

/* A lock record: kept in memory (for a rewrite) and appended. */
static void record(aa_refjournal *j, const char *fmt, const char *refname,
		   const struct stat *st)
{
	size_t at = j->locklog.len;

	if (st)
		aa_buf_printf(&j->locklog, "%s %s %llu %llu\n", fmt, refname,
			      (unsigned long long)st->st_dev,
			      (unsigned long long)st->st_ino);
	else
		aa_buf_printf(&j->locklog, "%s %s\n", fmt, refname);
	if (j->fd >= 0 && !aa_buf_oom(&j->locklog))
		(void)aa_write_all(j->fd, j->locklog.ptr + at, j->locklog.len - at);
}

char *aa_refjournal_take_leftover(aa_refjournal *j)
{
	char *s = j->leftover;

	j->leftover = NULL;
	return s;
}

/* ---- the refdb wrapper ---- */

typedef struct wrapper {
	git_refdb_backend parent;
	git_refdb_backend *inner;
	git_repository *repo;
} wrapper;

typedef struct held {
	void *inner;
	char *refname;
	aa_buf lock;       /* <commondir><refname>.lock */
	struct stat st;
	int known;         /* st is the lock we took */
} held;

#define INNER(b) (((wrapper *)(b))->inner)

static int w_exists(int *e, git_refdb_backend *b, const char *n)
{
	return INNER(b)->exists(e, INNER(b), n);
}

static int w_lookup(git_reference **o, git_refdb_backend *b, const char *n)
{
	return INNER(b)->lookup(o, INNER(b), n);
}

static int w_iterator(git_reference_iterator **o, git_refdb_backend *b,
		      const char *glob)
{
	return INNER(b)->iterator(o, INNER(b), glob);
}

static int w_write(git_refdb_backend *b, const git_reference *ref, int force,
		   const git_signature *who, const char *message,
		   const git_oid *old, const char *old_target)
{
	return INNER(b)->write(INNER(b), ref, force, who, message, old, old_target);
}

static int w_rename(git_reference **o, git_refdb_backend *b, const char *from,
		    const char *to, int force, const git_signature *who,
		    const char *message)
{
	return INNER(b)->rename(o, INNER(b), from, to, force, who, message);
}

static int w_del(git_refdb_backend *b, const char *n, const git_oid *old,
		 const char *old_target)
{
	return INNER(b)->del(INNER(b), n, old, old_target);
}

static int w_compress(git_refdb_backend *b)
{
	return INNER(b)->compress(INNER(b));
}

static int w_has_log(git_refdb_backend *b, const char *n)
{
	return INNER(b)->has_log(INNER(b), n);
}

static int w_ensure_log(git_refdb_backend *b, const char *n)
{
	return INNER(b)->ensure_log(INNER(b), n);
}

static int w_reflog_read(git_reflog **o, git_refdb_backend *b, const char *n)
{
	return INNER(b)->reflog_read(o, INNER(b), n);
}

static int w_reflog_write(git_refdb_backend *b, git_reflog *log)
{
	return INNER(b)->reflog_write(INNER(b), log);
}

static int w_reflog_rename(git_refdb_backend *b, const char *from,
			   const char *to)
{
	return INNER(b)->reflog_rename(INNER(b), from, to);
}

static int w_reflog_delete(git_refdb_backend *b, const char *n)
{
	return INNER(b)->reflog_delete(INNER(b), n);
}

static void w_free(git_refdb_backend *b)
{
	INNER(b)->free(INNER(b));
	free(b);
}

static void held_free(held *h)
{
	free(h->refname);
	aa_buf_free(&h->lock);
	free(h);
}

static int w_lock(void **out, git_refdb_backend *b, const char *refname)
{
	wrapper *w = (wrapper *)b;
	held *h = calloc(1, sizeof(*h));
	int r;

	if (!h || !(h->refname = aa_strdup(refname)) ||
	    aa_buf_printf(&h->lock, "%s%s.lock", git_repository_commondir(w->repo),
			  refname) < 0) {
		if (h)
			held_free(h);
		git_error_set_oom();
		return -1;
	}
	if (current)
		record(current, "locking", refname, NULL);
	r = w->inner->lock(&h->inner, w->inner, refname);
	if (r < 0) {
		/* the reason of a held lock, which libgit2 clears */
		if (r == GIT_ELOCKED)
			git_error_set_str(GIT_ERROR_REFERENCE, "File exists");
		if (current)
			record(current, "unlocked", refname, NULL);
		held_free(h);
		return r;
	}
	h->known = lstat(h->lock.ptr, &h->st) == 0;
	if (current && h->known)
		record(current, "locked", refname, &h->st);
	*out = h;
	return 0;
}

/*
 * After libgit2 released (renamed or removed) a lock: the same file
 * still under the lock's name is ours, left by an unlink whose error
 * libgit2 ignores. Removed; when that fails too, said (the journal is
 * then kept: it names the lock, and the next run removes it).
 */
static int check_leftover(held *h)
{
	struct stat st;
	aa_buf msg = AA_BUF_INIT;

	if (!h->known || lstat(h->lock.ptr, &st) < 0 ||
	    st.st_dev != h->st.st_dev || st.st_ino != h->st.st_ino)
		return 0;
	if (unlink(h->lock.ptr) == 0 || errno == ENOENT)
		return 0;
	if (current) {
		/* every lock left is said, not only the last */
		aa_buf_printf(&msg, "%s%scannot remove the lock %s: %s",
			      current->leftover ? current->leftover : "",
			      current->leftover ? "; " : "",
			      aa_qpath(h->lock.ptr), strerror(errno));
		if (!aa_buf_oom(&msg)) {
			free(current->leftover);
			current->leftover = aa_buf_detach(&msg);
		}
		aa_buf_free(&msg);
		current->keep_journal = 1;
	}
	return -1;
}

static int w_unlock(git_refdb_backend *b, void *payload, int success,
		    int update_reflog, const git_reference *ref,
		    const git_signature *sig, const char *message)
{
	wrapper *w = (wrapper *)b;
	held *h = payload;
	int r = w->inner->unlock(w->inner, h->inner, success, update_reflog, ref,
				 sig, message);

	if (check_leftover(h) == 0 && current)
		record(current, "unlocked", h->refname, NULL);
	if (!r && success)
		aa_test_hook("ref");
	held_free(h);
	return r;
}

/*
 * libgit2's file backend fsyncs refs, packed-refs and reflogs when, as it
 * is made, GIT_OPT_ENABLE_FSYNC_GITDIR is on (or core.fsyncObjectFiles
 * true, its own reading): on for it alone when core.fsync has
 * `reference`, then off again (it would fsync the index and objects of
 * libgit2's own writers too).
 */
static int backend_fs(git_refdb_backend **fs, git_repository *repo,
		      const aa_fsync *f)
{
	int on = aa_fsync_how(f, AA_FSYNC_REFERENCE) != AA_SYNC_NONE, r;

	if (on)
		git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 1);
	r = git_refdb_backend_fs(fs, repo);
	if (on)
		git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 0);
	return r;
}

int aa_refjournal_attach(git_repository *repo, const aa_fsync *f)
{
	git_refdb_backend *fs = NULL;
	git_refdb *db = NULL;
	wrapper *w;

	if (backend_fs(&fs, repo, f) < 0)
		return -1;
	w = calloc(1, sizeof(*w));
	if (!w || git_refdb_new(&db, repo) < 0) {
		free(w);
		fs->free(fs);
		return -1;
	}
	w->parent.version = GIT_REFDB_BACKEND_VERSION;
	w->parent.exists = w_exists;
	w->parent.lookup = w_lookup;
	w->parent.iterator = w_iterator;
	w->parent.write = w_write;
	w->parent.rename = w_rename;
	w->parent.del = w_del;
	w->parent.compress = w_compress;
	w->parent.has_log = w_has_log;
	w->parent.ensure_log = w_ensure_log;
	w->parent.free = w_free;
	w->parent.reflog_read = w_reflog_read;
	w->parent.reflog_write = w_reflog_write;
	w->parent.reflog_rename = w_reflog_rename;
	w->parent.reflog_delete = w_reflog_delete;
	w->parent.lock = w_lock;
	w->parent.unlock = w_unlock;
	w->inner = fs;
	w->repo = repo;
	if (git_refdb_set_backend(db, &w->parent) < 0) {
		w_free(&w->parent);
		git_refdb_free(db);
		return -1;
	}
	if (git_repository_set_refdb(repo, db) < 0) {
		git_refdb_free(db);
		return -1;
	}
	git_refdb_free(db);
	return 0;
}

/* ---- settling a move: both refs or neither ---- */

/* Where a ref points: 1 and *id, 0 absent, <0 error. */
static int ref_at(git_repository *repo, const char *name, git_oid *id)
{
	int r = git_reference_name_to_id(id, repo, name);

	return r == GIT_ENOTFOUND ? 0 : r < 0 ? r : 1;
}

static int is_state(int has, const git_oid *at, int want_has,
		    const git_oid *want)
{
	return has == want_has && (!has || git_oid_equal(at, want));
}

/* The notes ref (now) holds a note for the commit. */
static int has_note(git_repository *repo, const git_oid *commit)
{
	git_note *note = NULL;
	int r = git_note_read(&note, repo, NOTES_REF, commit);

	git_note_free(note);
	git_error_clear();
	return r == 0;
}

static int exists(git_repository *repo, const git_oid *id)
{
	git_odb *odb = NULL;
	int r = 0;

	if (git_repository_odb(&odb, repo) == 0)
		r = git_odb_exists(odb, id);
	git_odb_free(odb);
	return r;
}

/*
 * Moves ref `name` from (had_from, from) to (has_to, to), compare and
 * swap; 0 or <0 (libgit2's error set).
 */
static int move_ref(git_repository *repo, const char *name, int had_from,
		    const git_oid *from, int has_to, const git_oid *to,
		    const char *log)
{
	git_reference *ref = NULL;
	int r;

	if (!has_to) {
		r = git_reference_lookup(&ref, repo, name);
		if (!r && (git_reference_type(ref) != GIT_REFERENCE_DIRECT ||
			   !git_oid_equal(git_reference_target(ref), from)))
			r = GIT_EMODIFIED;
		if (!r)
			r = git_reference_delete(ref);
	} else if (had_from) {
		r = git_reference_create_matching(&ref, repo, name, to, 1, from, log);
	} else {
		r = git_reference_create(&ref, repo, name, to, 0, log);
	}
	git_reference_free(ref);
	return r;
}

static int ref_fail(aa_diags *d, const char *what, const char *name)
{
	return aa_fatal(d, AA_NOPOS, NULL, "cannot %s %s: %s", what, name,
			aa_git_error(strerror(errno)));
}

/*
 * Both or neither for one move. 1 completed, 0 neither (rolled back or
 * never moved), 2 complete already, 3 left (a ref moved by someone
 * else), AA_FATAL (the error in d).
 */
static int settle(git_repository *repo, const aa_refmove *m, aa_diags *d)
{
	git_oid b, n;
	int bhas = ref_at(repo, m->refname, &b), nhas = ref_at(repo, NOTES_REF, &n);
	int at_new, at_old, noted;

	if (!m->has_note)
		return 0; /* one ref: git's own update is all or nothing */
	if (bhas < 0 || nhas < 0)
		return ref_fail(d, "read", bhas < 0 ? m->refname : NOTES_REF);
	at_new = is_state(bhas, &b, 1, &m->new_commit);
	at_old = is_state(bhas, &b, m->had_old, &m->old);
	noted = has_note(repo, &m->new_commit);
	if (at_new == noted)
		return at_new ? 2 : 0;
	if (at_new) {
		/* the branch without its note: add it, else take the branch back */
		if (is_state(nhas, &n, m->had_notes, &m->notes_old) &&
		    exists(repo, &m->notes_new) &&
		    move_ref(repo, NOTES_REF, m->had_notes, &m->notes_old, 1,
			     &m->notes_new, "ai-apply: the answer of a suggestion (recovered)") == 0)
			return 1;
		if (move_ref(repo, m->refname, 1, &m->new_commit, m->had_old, &m->old,
			     "ai-apply: rolled back (its note could not be written)") < 0)
			return ref_fail(d, "roll back", m->refname);
		return 0;
	}
	if (!at_old)
		return 3; /* the branch is someone else's now */
	/* the note without its branch: create it, else take the note back */
	if (exists(repo, &m->new_commit) &&
	    move_ref(repo, m->refname, m->had_old, &m->old, 1, &m->new_commit,
		     "ai-apply: suggestion (recovered)") == 0)
		return 1;
	if (!is_state(nhas, &n, 1, &m->notes_new))
		return 3;
	if (move_ref(repo, NOTES_REF, 1, &m->notes_new, m->had_notes, &m->notes_old,
		     "ai-apply: rolled back (its branch could not be written)") < 0)
		return ref_fail(d, "roll back", NOTES_REF);
	return 0;
}

int aa_refjournal_settle(aa_refjournal *j, size_t i, aa_diags *d)
{
	const aa_refmove *m = aa_refjournal_move(j, i);
	int r = m ? settle(j->repo, m, d) : 0;

	if (r == AA_FATAL) {
		j->keep_journal = 1;
		return aa_fatal(d, AA_NOPOS, NULL,
				"%s and its note could not be completed nor rolled back; "
				"the next git ai-apply (or 'git ai-apply --recover') finishes it",
				m->refname);
	}
	return r == 1 || r == 2 ? 1 : 0;
}

/* ---- the end of a run ---- */

/* Removes the keeps; -1 when one stays (the journal then stays too). */
static int remove_keeps(char *const *keeps, size_t n, aa_sync how)
{
	size_t i;
	int r = 0;

	for (i = 0; i < n; i++) {
		const char *slash = strrchr(keeps[i], '/');
		aa_buf dir = AA_BUF_INIT;

		if (unlink(keeps[i]) < 0) {
			if (errno != ENOENT)
				r = -1;
			continue;
		}
		if (slash && aa_buf_put(&dir, keeps[i], (size_t)(slash - keeps[i])) == 0)
			aa_sync_dir(dir.ptr, how);
		aa_buf_free(&dir);
	}
	return r;
}

static void refjournal_free(aa_refjournal *j)
{
	size_t i;

	if (current == j)
		current = NULL;
	if (j->fd >= 0)
		close(j->fd);
	if (j->blocked)
		sigprocmask(SIG_SETMASK, &j->saved, NULL);
	for (i = 0; i < j->nmoves; i++)
		free(j->moves[i].refname);
	for (i = 0; i < j->nkeeps; i++)
		free(j->keeps[i]);
	free(j->moves);
	free(j->keeps);
	free(j->leftover);
	free(j->host);
	aa_buf_free(&j->dir);
	aa_buf_free(&j->path);
	aa_buf_free(&j->locklog);
	free(j);
}

int aa_refjournal_finish(aa_refjournal *j, aa_diags *d)
{
	int r = 0;

	if (!j)
		return 0;
	if (!j->keep_journal) {
		aa_test_hook("unkeep");
		if (remove_keeps(j->keeps, j->nkeeps,
				 aa_fsync_how(&j->fsync, AA_FSYNC_JOURNAL)) < 0) {
			aa_warn(d, AA_NOPOS, NULL,
				"a .keep of this run could not be removed (%s); the next git ai-apply removes it",
				strerror(errno));
			refjournal_free(j);
			return 0;
		}
		if (j->written && unlink(j->path.ptr) < 0 && errno != ENOENT)
			r = (aa_error(d, AA_NOPOS, NULL, "cannot remove %s: %s",
				      aa_qpath(j->path.ptr), strerror(errno)), AA_FATAL);
		if (j->written) {
			aa_fsync_dir_for(&j->fsync, AA_FSYNC_JOURNAL, j->dir.ptr);
			rmdir(j->dir.ptr);
		}
	}
	refjournal_free(j);
	return r;
}

/* ---- recovery ---- */

typedef struct lockrec {
	char *refname;
	int state;   /* 1 locking, 2 locked (dev, ino), 0 released */
	unsigned long long dev, ino;
} lockrec;

static int parse_oid(const char *hex, int *had, git_oid *id)
{
	*had = strcmp(hex, "-") != 0;
	if (!*had) {
		memset(id, 0, sizeof(*id));
		return 0;
	}
	return git_oid_fromstr(id, hex);
}

static int parse_move(aa_refjournal *j, const char *line)
{
	char name[4096], a[64], b[64], c[64], e[64];
	aa_refmove m;
	int one;

	memset(&m, 0, sizeof(m));
	if (sscanf(line, "move %4095s %63s %63s %63s %63s", name, a, b, c, e) != 5 ||
	    parse_oid(a, &m.had_old, &m.old) < 0 ||
	    parse_oid(b, &one, &m.new_commit) < 0 || !one ||
	    parse_oid(c, &m.had_notes, &m.notes_old) < 0 ||
	    parse_oid(e, &m.has_note, &m.notes_new) < 0)
		return -1;
	m.refname = name;
	return aa_refjournal_add(j, &m) < 0 ? -1 : 0;
}

static lockrec *find_lock(lockrec **v, size_t *n, const char *refname)
{
	lockrec *w;
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i].refname, refname))
			return &(*v)[i];
	w = realloc(*v, (*n + 1) * sizeof(*w));
	if (!w)
		return NULL;
	*v = w;
	memset(&w[*n], 0, sizeof(*w));
	if (!(w[*n].refname = aa_strdup(refname)))
		return NULL;
	return &w[(*n)++];
}

static int parse_lock(const char *line, lockrec **v, size_t *n)
{
	char name[4096];
	unsigned long long dev, ino;
	lockrec *l;

	if (sscanf(line, "locked %4095s %llu %llu", name, &dev, &ino) == 3) {
		if (!(l = find_lock(v, n, name)))
			return -1;
		l->state = 2;
		l->dev = dev;
		l->ino = ino;
	} else if (sscanf(line, "locking %4095s", name) == 1) {
		if (!(l = find_lock(v, n, name)))
			return -1;
		l->state = 1;
	} else if (sscanf(line, "unlocked %4095s", name) == 1) {
		if (!(l = find_lock(v, n, name)))
			return -1;
		l->state = 0;
	}
	return 0;
}

/* Parses a journal read back; -1 when it is not one (or cut short). */
static int parse_journal(aa_refjournal *j, char *text, lockrec **locks,
			 size_t *nlocks)
{
	char *line, *nl, host[256];
	int ended = 0, r = 0;

	if (strncmp(text, REFJ_MAGIC "\n", sizeof(REFJ_MAGIC)))
		return -1;
	for (line = text; !r && (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		if (ended)
			r = parse_lock(line, locks, nlocks);
		else if (!strcmp(line, "end"))
			ended = 1;
		else if (!strncmp(line, "move ", 5))
			r = parse_move(j, line);
		else if (!strncmp(line, "keep ", 5))
			r = aa_refjournal_add_keep(j, line + 5);
		else if (sscanf(line, "host %255s", host) == 1)
			r = (j->host = aa_strdup(host)) ? 0 : -1;
		else
			sscanf(line, "pid %ld", &j->pid);
	}
	return r < 0 || !ended ? -1 : 0;
}

/*
 * A lock the dead run was taking when it was killed (inside libgit2's
 * open, before it could record the inode): libgit2 holds its locks
 * empty until the commit, and any live holder releases a ref lock
 * within milliseconds. Empty and still the same file after a second:
 * taken by the dead run; removed (moved aside and checked first). 1
 * when removed, 2 when gone meanwhile, 0 when left.
 */
static int taken_while_killed(const aa_buf *lock, const struct stat *first)
{
	aa_buf aside = AA_BUF_INIT;
	struct stat st;
	int i, r = 0;

	for (i = 0; i < 50; i++) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		if (lstat(lock->ptr, &st) < 0)
			return 2; /* released: it was a live holder's */
		if (st.st_ino != first->st_ino || st.st_size)
			return 0;
	}
	if (aa_buf_printf(&aside, "%s.stale-%ld", lock->ptr, (long)getpid()) == 0 &&
	    rename(lock->ptr, aside.ptr) == 0) {
		if (lstat(aside.ptr, &st) == 0 && st.st_ino == first->st_ino &&
		    !st.st_size)
			r = 1;
		else
			(void)link(aside.ptr, lock->ptr);
		unlink(aside.ptr);
	}
	aa_buf_free(&aside);
	return r;
}

/*
 * The locks the dead run recorded as held: each one still the same
 * file (device, inode) is moved aside, checked again and removed. A
 * lock it was taking when it was killed (no inode recorded) is left:
 * nothing proves whose it is. 0, or -1 when one of its locks stays.
 */
static int remove_dead_locks(aa_refjournal *j, lockrec *v, size_t n,
			     aa_diags *d)
{
	size_t i;
	int r = 0;

	for (i = 0; i < n; i++) {
		aa_buf lock = AA_BUF_INIT, aside = AA_BUF_INIT;
		struct stat st;

		if (!v[i].state ||
		    aa_buf_printf(&lock, "%s%s.lock", git_repository_commondir(j->repo),
				  v[i].refname) < 0 ||
		    lstat(lock.ptr, &st) < 0) {
			aa_buf_free(&lock);
			continue;
		}
		if (v[i].state == 2 && (unsigned long long)st.st_dev == v[i].dev &&
		    (unsigned long long)st.st_ino == v[i].ino &&
		    aa_buf_printf(&aside, "%s.stale-%ld", lock.ptr, (long)getpid()) == 0 &&
		    rename(lock.ptr, aside.ptr) == 0) {
			if (lstat(aside.ptr, &st) == 0 &&
			    (unsigned long long)st.st_ino == v[i].ino)
				aa_note(d, AA_NOPOS, NULL,
					"removed the lock %s of process %ld", aa_qpath(lock.ptr),
					j->pid);
			else
				(void)link(aside.ptr, lock.ptr); /* not ours: back */
			unlink(aside.ptr);
		} else if (v[i].state == 1) {
			int t = taken_while_killed(&lock, &st);

			if (!t) {
				aa_warn(d, AA_NOPOS, NULL,
					"%s may be left by process %ld, killed while taking it; "
					"remove it if no git process is running",
					aa_qpath(lock.ptr), j->pid);
				r = -1;
			} else if (t == 1) {
				aa_note(d, AA_NOPOS, NULL,
					"removed the lock %s of process %ld",
					aa_qpath(lock.ptr), j->pid);
			}
		}
		aa_buf_free(&lock);
		aa_buf_free(&aside);
	}
	return r;
}

static void locks_free(lockrec *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].refname);
	free(v);
}

static const char *const settled_as[] = {
	"neither its branch nor its note", "completed", "complete",
	"left alone: its branch was moved by another process"
};

/* One dead run's journal, read under our flock. 1 recovered, AA_FATAL. */
static int recover_one(aa_refjournal *j, char *text, aa_diags *d)
{
	lockrec *locks = NULL;
	size_t nlocks = 0, i;
	int r = 0;

	if (parse_journal(j, text, &locks, &nlocks) < 0) {
		locks_free(locks, nlocks);
		return aa_fatal(d, AA_NOPOS, NULL,
				"%s is damaged; it was left as it is", aa_qpath(j->path.ptr));
	}
	if (!aa_owner_gone(j->pid, j->host)) {
		locks_free(locks, nlocks);
		return 0;
	}
	if (remove_dead_locks(j, locks, nlocks, d) < 0)
		r = AA_FATAL;
	for (i = 0; r == 0 && i < j->nmoves; i++) {
		int s = settle(j->repo, &j->moves[i], d);

		if (s == AA_FATAL)
			r = AA_FATAL;
		else if (s == 1 || s == 3)
			aa_note(d, AA_NOPOS, NULL, "%s: %s",
				j->moves[i].refname + 11, settled_as[s]);
	}
	locks_free(locks, nlocks);
	if (r < 0)
		return aa_fatal(d, AA_NOPOS, NULL,
				"could not recover the suggestions interrupted in process %ld (%s); "
				"fix the cause and run 'git ai-apply --recover' again",
				j->pid, aa_qpath(j->path.ptr));
	if (remove_keeps(j->keeps, j->nkeeps,
			 aa_fsync_how(&j->fsync, AA_FSYNC_JOURNAL)) < 0)
		return aa_fatal(d, AA_NOPOS, NULL,
				"cannot remove a .keep of process %ld: %s", j->pid,
				strerror(errno));
	if (unlink(j->path.ptr) < 0 && errno != ENOENT)
		return aa_fatal(d, AA_NOPOS, NULL, "cannot remove %s: %s",
				aa_qpath(j->path.ptr), strerror(errno));
	aa_fsync_dir_for(&j->fsync, AA_FSYNC_JOURNAL, j->dir.ptr);
	aa_note(d, AA_NOPOS, NULL,
		"recovered the suggestions interrupted in process %ld: each has both its branch and its note, or neither",
		j->pid);
	return 1;
}

/* A journal file of the directory: recovered when its run is gone. */
static int recover_file(git_repository *repo, const char *dir,
			const char *name, aa_diags *d)
{
	aa_refjournal *j = calloc(1, sizeof(*j));
	aa_diags ignored = AA_DIAGS_INIT; /* the landing says them */
	aa_buf text = AA_BUF_INIT;
	struct stat st;
	int fd = -1, r = 0;

	if (!j)
		return aa_fatal_oom(d, AA_NOPOS, NULL);
	j->repo = repo;
	j->fd = -1;
	aa_fsync_read(&j->fsync, repo, &ignored);
	aa_diags_free(&ignored);
	if (aa_buf_puts(&j->dir, dir) < 0 ||
	    aa_buf_printf(&j->path, "%s/%s", dir, name) < 0)
		r = (aa_oom(d, AA_NOPOS, NULL), AA_FATAL);
	if (!r)
		fd = open(j->path.ptr, O_RDONLY | O_CLOEXEC);
	/*
	 * Two later runs meet here: the flock makes one recover it; the
	 * other finds it gone (or settled) afterwards. A dead process
	 * holds no flock.
	 */
	if (fd >= 0 && flock(fd, LOCK_EX) == 0 && fstat(fd, &st) == 0 &&
	    st.st_nlink > 0 && aa_read_all(fd, &text) == 0 && text.ptr)
		r = recover_one(j, text.ptr, d);
	if (fd >= 0)
		close(fd);
	aa_buf_free(&text);
	refjournal_free(j);
	return r;
}

/* A dead run's journal.tmp: written whole before the rename, so nothing. */
static void remove_dead_tmp(const char *dir, const char *name)
{
	const char *at = strchr(name, '@');
	aa_buf path = AA_BUF_INIT, host = AA_BUF_INIT;
	size_t len = strlen(name);

	if (at && aa_buf_put(&host, at + 1, len - (size_t)(at + 1 - name) - 4) == 0 &&
	    aa_owner_gone(strtol(name + 5, NULL, 10), host.ptr) &&
	    aa_buf_printf(&path, "%s/%s", dir, name) == 0)
		unlink(path.ptr);
	aa_buf_free(&path);
	aa_buf_free(&host);
}

/* tmp_pack_<pid>-XXXXXX, tmp_idx_<pid>-XXXXXX of a run that is gone. */
static void remove_dead_pack_temp(const char *dir, const char *name)
{
	aa_buf path = AA_BUF_INIT;
	const char *p = strchr(name, '_');

	p = p ? strchr(p + 1, '_') : NULL;
	if (p && aa_owner_gone(strtol(p + 1, NULL, 10), aa_owner_host()) &&
	    aa_buf_printf(&path, "%s/%s", dir, name) == 0)
		unlink(path.ptr);
	aa_buf_free(&path);
}

int aa_refs_recover(git_repository *repo, aa_diags *d)
{
	aa_buf dir = AA_BUF_INIT;
	struct dirent *e;
	DIR *dh;
	int n = 0, failed = 0;

	if (aa_buf_printf(&dir, "%sai-apply", git_repository_commondir(repo)) < 0)
		return aa_fatal_oom(d, AA_NOPOS, NULL);
	dh = opendir(dir.ptr);
	while (dh && (e = readdir(dh))) {
		size_t len = strlen(e->d_name);
		int r;

		if (!strncmp(e->d_name, "tmp_pack_", 9) ||
		    !strncmp(e->d_name, "tmp_idx_", 8)) {
			remove_dead_pack_temp(dir.ptr, e->d_name);
			continue;
		}
		if (strncmp(e->d_name, "refs-", 5))
			continue;
		if (len > 4 && !strcmp(e->d_name + len - 4, ".tmp")) {
			remove_dead_tmp(dir.ptr, e->d_name);
			continue;
		}
		r = recover_file(repo, dir.ptr, e->d_name, d);
		if (r < 0)
			failed = 1;
		else
			n += r;
	}
	if (dh)
		closedir(dh);
	if (n)
		rmdir(dir.ptr);
	aa_buf_free(&dir);
	return failed ? AA_FATAL : n;
}
