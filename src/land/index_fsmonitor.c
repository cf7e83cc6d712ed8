/*
 * The fsmonitor data (index_fsmonitor.h). On disk (gitformat-index):
 * a 32-bit version; version 1 a 64-bit time in nanoseconds, version 2
 * a NUL-ended token; a 32-bit size and an EWAH bitmap with a bit for
 * each entry not known clean. git writes version 2.
 *
 * git on reading the index, when core.fsmonitor is on:
 * - an extension with a bitmap: every entry but a gitlink clean except
 *   the bits, then the monitor asked for what changed since the token
 *   (the paths it names are dirty, and their untracked-cache
 *   directories invalid; no answer, or "/", makes every entry dirty),
 *   its answer the new token;
 * - no extension (or one too short, or of an unknown version): every
 *   entry dirty, a token of the time now, an untracked cache of another
 *   work tree replaced, then the monitor asked as above;
 * - a token whose bitmap does not parse: every entry dirty, the token
 *   kept, the monitor not asked. (Where git's bitmap names more entries
 *   than the index has it stops with a BUG; here that is this case.)
 * When it is off, the extension is dropped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "land/ewah.h"
#include "land/index_fsmonitor.h"
#include "land/run.h"
#include "util/util.h"
#include "land/index_bytes.h"

enum { MODE_OFF, MODE_HOOK, MODE_IPC };
#define NAME_FILE 1
#define NAME_DIR 2

typedef struct fname {
	const char *name;     /* in f->answer, the trailing '/' cut */
	unsigned kind;        /* NAME_FILE and/or NAME_DIR */
} fname;

struct aa_fsmn {
	char *token;          /* the token written */
	size_t count;         /* entries of the old index */
	unsigned char *old;   /* a bit per old entry: dirty before */
	int all_dirty, added;
	aa_buf answer;        /* the monitor's answer */
	fname *names;
	size_t nnames, capnames;
	aa_ewah now;          /* the new bitmap */
};

void aa_fsmn_free(aa_fsmn *f)
{
	if (!f)
		return;
	free(f->token);
	free(f->old);
	aa_buf_free(&f->answer);
	free(f->names);
	aa_ewah_free(&f->now);
	free(f);
}

/* ---- core.fsmonitor ---- */

static int config_mode(git_repository *repo, git_config *cfg, git_buf *hook)
{
	git_config_entry *e = NULL;
	const char *env;
	int b, mode = MODE_OFF;

	if (git_repository_is_bare(repo))
		return MODE_OFF; /* git: incompatible, nothing to watch */
	if (!git_config_get_entry(&e, cfg, "core.fsmonitor")) {
		if (!e->value || !git_config_parse_bool(&b, e->value))
			mode = (!e->value || b) ? MODE_IPC : MODE_OFF;
		else if (!git_config_get_path(hook, cfg, "core.fsmonitor") && hook->size)
			mode = MODE_HOOK;
		git_config_entry_free(e);
		git_error_clear();
		return mode;
	}
	git_error_clear();
	/* unset: git's own tests name a hook in the environment */
	env = getenv("GIT_TEST_FSMONITOR");
	if (env && *env && !git_buf_set(hook, env, strlen(env)))
		mode = MODE_HOOK;
	return mode;
}

static int hook_version(git_config *cfg)
{
	int32_t v;

	if (git_config_get_int32(&v, cfg, "core.fsmonitorhookversion") < 0) {
		git_error_clear();
		return -1;
	}
	return v == 1 || v == 2 ? v : -1;
}

/* ---- the old extension ---- */

typedef struct oldctx {
	aa_fsmn *f;
} oldctx;

static int old_bit(uint64_t pos, void *ctx)
{
	aa_fsmn *f = ((oldctx *)ctx)->f;

	if (pos >= f->count)
		return 1;
	f->old[pos / 8] |= (unsigned char)(1u << (pos % 8));
	return 0;
}

/*
 * git's read_fsmonitor_extension: 1 with the token and the bits, 2 with
 * the token only (the bitmap did not parse), 0 no token, -1 OOM.
 */
static int read_old(aa_fsmn *f, const unsigned char *p, size_t len)
{
	const unsigned char *end = p + len, *q = p + 4, *nul;
	size_t used;
	uint64_t bits;
	oldctx c = { f };
	uint32_t size;

	if (!p || len < 4 + 1 + 4)
		return 0;
	if (aa_ix_be32(p) == 1) {
		unsigned long long t;
		char num[32];

		if (len < 4 + 8)
			return 0; /* git would read past the extension */
		t = (unsigned long long)aa_ix_be32(q) << 32 | aa_ix_be32(q + 4);
		snprintf(num, sizeof(num), "%llu", t);
		f->token = aa_strdup(num);
		q += 8;
	} else if (aa_ix_be32(p) == 2) {
		if (!(nul = memchr(q, 0, (size_t)(end - q))))
			return 0; /* git would read past the extension */
		f->token = aa_strdup((const char *)q);
		q = nul + 1;
	} else {
		return 0;
	}
	if (!f->token)
		return -1;
	if (end - q < 4)
		return 2;
	size = aa_ix_be32(q);
	q += 4;
	if (size > (size_t)(end - q))
		return 2;
	if (!(f->old = calloc(f->count / 8 + 1, 1)))
		return -1;
	if (aa_ewah_read(q, size, &used, &bits, NULL, NULL) < 0 || used != size ||
	    bits > f->count || aa_ewah_read(q, size, NULL, NULL, old_bit, &c) < 0)
		return 2;
	return 1;
}

/* ---- asking the monitor ---- */

static uint64_t nanotime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * git's query_fsmonitor_hook: the hook's exit status (0 success), its
 * output appended to out (git does not empty its buffer between the
 * protocol 2 call and the protocol 1 one).
 */
static int run_hook(git_repository *repo, const char *hook, int version,
		    const char *token, aa_buf *out)
{
	char v[4];
	const char *argv[] = { "/bin/sh", "-c", NULL, hook, v, token, NULL };
	aa_buf cmd = AA_BUF_INIT;
	int r;

	/* as git's run_command with use_shell: the arguments as "$@" */
	snprintf(v, sizeof(v), "%d", version);
	if (aa_buf_printf(&cmd, "%s \"$@\"", hook) < 0)
		return -1;
	argv[2] = cmd.ptr;
	r = aa_run_argv(repo, argv, NULL, NULL, 0, out, NULL);
	aa_buf_free(&cmd);
	return r;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(((const fname *)a)->name, ((const fname *)b)->name);
}

/* The answer's paths from `at`, NUL-separated, sorted and merged. */
static int take_names(aa_fsmn *f, size_t at)
{
	char *a = f->answer.ptr;
	size_t i, k = 0;

	while (at < f->answer.len) {
		size_t len = strlen(a + at);

		if (len) {
			unsigned kind = a[at + len - 1] == '/' ? NAME_DIR : NAME_FILE;

			if (kind == NAME_DIR)
				a[at + len - 1] = '\0';
			if (AA_GROW(f->names, f->nnames, f->capnames) < 0)
				return -1;
			f->names[f->nnames].name = a + at;
			f->names[f->nnames++].kind = kind;
		}
		at += len + 1;
	}
	if (f->nnames)
		qsort(f->names, f->nnames, sizeof(*f->names), name_cmp);
	for (i = 0; i < f->nnames; i++) {
		if (k && !strcmp(f->names[k - 1].name, f->names[i].name))
			f->names[k - 1].kind |= f->names[i].kind;
		else
			f->names[k++] = f->names[i];
	}
	f->nnames = k;
	return 0;
}

/*
 * git's refresh_fsmonitor with f->token the last one: the new token
 * and the dirty paths, or every entry dirty. -1 out of memory.
 */
static int refresh(aa_fsmn *f, git_repository *repo, int mode,
		   const char *hook, int version)
{
	aa_buf tok = AA_BUF_INIT;
	int ok = 0, trivial = 0;
	size_t bol = 0;
	char *old = f->token;
	uint64_t now = nanotime();

	aa_buf_clear(&f->answer);
	if (mode == MODE_IPC) {
		/* the built-in daemon: what git does when it does not answer */
		aa_buf_puts(&tok, "builtin:fake");
	} else {
		if (version == 1)
			aa_buf_printf(&tok, "%llu", (unsigned long long)now);
		if (version != 1) {
			ok = !run_hook(repo, hook, 2, old, &f->answer);
			if (ok) {
				version = 2;
				aa_buf_clear(&tok);
				aa_buf_puts(&tok, f->answer.ptr ? f->answer.ptr : "");
				if (!tok.len) {
					ok = 0; /* git: "Empty last update token." */
				} else {
					bol = tok.len + 1;
					trivial = bol < f->answer.len && f->answer.ptr[bol] == '/';
				}
			} else if (version < 0) {
				version = 1;
				if (!tok.len)
					aa_buf_printf(&tok, "%llu", (unsigned long long)now);
			}
		}
		if (version == 1) {
			ok = !run_hook(repo, hook, 1, old, &f->answer);
			bol = 0;
			trivial = ok && f->answer.len && f->answer.ptr[0] == '/';
		}
	}
	if (aa_buf_oom(&tok) || aa_buf_oom(&f->answer)) {
		aa_buf_free(&tok);
		return -1;
	}
	if (ok && !trivial) {
		if (take_names(f, bol) < 0) {
			aa_buf_free(&tok);
			return -1;
		}
	} else {
		f->all_dirty = 1;
	}
	free(old);
	f->token = tok.ptr ? aa_buf_detach(&tok) : aa_strdup("");
	return f->token ? 0 : -1;
}

int aa_fsmn_read(aa_fsmn **out, git_repository *repo,
		 const unsigned char *data, size_t len, size_t count)
{
	git_config *cfg = NULL;
	git_buf hook = { 0 };
	aa_fsmn *f;
	int mode, version, r;
	char num[32];

	*out = NULL;
	if (git_repository_config_snapshot(&cfg, repo) < 0)
		return -1;
	mode = config_mode(repo, cfg, &hook);
	version = hook_version(cfg);
	git_config_free(cfg);
	if (mode == MODE_OFF) {
		git_buf_dispose(&hook);
		return 0;
	}
	if (!(f = calloc(1, sizeof(*f))) || aa_ewah_init(&f->now) < 0) {
		free(f);
		git_buf_dispose(&hook);
		return -1;
	}
	f->count = count;
	r = read_old(f, data, len);
	if (r == 0) {
		/* git's add_fsmonitor: every entry dirty, a token of now */
		free(f->token);
		free(f->old);
		f->old = NULL;
		snprintf(num, sizeof(num), "%llu", (unsigned long long)nanotime());
		f->token = aa_strdup(num);
		f->all_dirty = f->added = 1;
		r = f->token ? 1 : -1;
	} else if (r == 2) {
		f->all_dirty = 1; /* the token kept, the monitor not asked */
	}
	if (r == 1)
		r = refresh(f, repo, mode, hook.ptr, version);
	git_buf_dispose(&hook);
	if (r < 0) {
		aa_fsmn_free(f);
		return -1;
	}
	if (f->added)
		f->all_dirty = 1;
	*out = f;
	return 0;
}

/* ---- the entries ---- */

static const fname *find_name(const aa_fsmn *f, const char *name, size_t len)
{
	size_t lo = 0, hi = f->nnames;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *n = f->names[mid].name;
		int c = strncmp(n, name, len);

		if (!c && n[len])
			c = 1;
		if (!c)
			return &f->names[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int aa_fsmn_old_dirty(const aa_fsmn *f, size_t pos, const char *path,
		      unsigned mode)
{
	const char *slash;
	const fname *n;

	if (f->all_dirty || (mode & 0170000) == 0160000 ||
	    (f->old && pos < f->count && (f->old[pos / 8] >> (pos % 8)) & 1))
		return 1;
	if (!f->nnames)
		return 0;
	/* a name the monitor gave: the entry itself, or a directory of it */
	if ((n = find_name(f, path, strlen(path))) && (n->kind & NAME_FILE))
		return 1;
	for (slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/'))
		if (find_name(f, path, (size_t)(slash - path)))
			return 1;
	return 0;
}

int aa_fsmn_added(const aa_fsmn *f)
{
	return f->added;
}

size_t aa_fsmn_npaths(const aa_fsmn *f)
{
	return f->nnames;
}

const char *aa_fsmn_path(const aa_fsmn *f, size_t i)
{
	return f->names[i].name;
}

void aa_fsmn_mark(aa_fsmn *f, uint64_t pos, int dirty)
{
	if (dirty)
		aa_ewah_set(&f->now, pos);
}

int aa_fsmn_write(aa_fsmn *f, aa_buf *out)
{
	static const unsigned char v2[4] = { 0, 0, 0, 2 };
	size_t at;
	uint32_t size;

	aa_buf_put(out, v2, 4);
	aa_buf_put(out, f->token, strlen(f->token) + 1);
	at = out->len;
	aa_buf_put(out, v2, 4); /* the size, filled in below */
	if (aa_ewah_write(&f->now, out) < 0 || aa_buf_oom(out))
		return -1;
	size = (uint32_t)(out->len - at - 4);
	out->ptr[at] = (char)(size >> 24);
	out->ptr[at + 1] = (char)(size >> 16);
	out->ptr[at + 2] = (char)(size >> 8);
	out->ptr[at + 3] = (char)size;
	return 0;
}
