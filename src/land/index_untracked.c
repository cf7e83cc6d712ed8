/*
 * The untracked cache (index_untracked.h). The layout, from git's
 * Documentation/gitformat-index.txt and dir.c (git 2.39):
 *
 *   varint ident length, ident (the work tree and system it was made
 *   for); two stat records (36 bytes each) and the directory flags (4);
 *   two object ids (info/exclude, core.excludesFile); the per-directory
 *   exclude file name, NUL-ended; then, when there is a root directory:
 *   varint directory count, the directories in pre-order (varint
 *   untracked-name count, varint subdirectory count, name NUL, the
 *   untracked names NUL-ended each, then the subdirectories), three EWAH
 *   bitmaps over the directories' order (valid, check_only, sha1_valid),
 *   a stat record for each valid directory, an object id for each one
 *   with an exclude file, and a NUL. Without a root: a varint 0.
 *
 * Damaged data is dropped as git drops it (its reader returns no
 * cache); where git's reader would read or write out of bounds (a bit
 * naming a directory past the count, a literal run past the words,
 * more directories than the count), the data is dropped too.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "land/ewah.h"
#include "land/index_untracked.h"
#include "util/util.h"
#include "land/index_bytes.h"

#define STAT_LEN 36                       /* git's struct stat_data on disk */
#define OID_LEN 20
#define HEAD_FIXED (2 * STAT_LEN + 4 + 2 * OID_LEN)
#define FLAGS_AT (2 * STAT_LEN)
#define SHOW_OTHER_DIRECTORIES (1u << 1)  /* dir.h's DIR_SHOW_OTHER_DIRECTORIES */
#define HIDE_EMPTY_DIRECTORIES (1u << 2)
#define MAX_DEPTH 4096                    /* deeper than any path: damaged */

typedef struct udir udir;
struct udir {
	const char *name;             /* in the data, or owned (created) */
	char *owned;
	const char **names;           /* the untracked names */
	size_t nnames;
	udir **dirs;
	size_t ndirs, capdirs;
	unsigned valid : 1, check_only : 1, recurse : 1;
	const unsigned char *stat;    /* valid: its stat record */
	const unsigned char *oid;     /* the exclude file's id, or NULL */
};

struct aa_untr {
	const unsigned char *ident;   /* the head as read: ident ... exclude name */
	size_t identlen;
	const unsigned char *fixed;   /* HEAD_FIXED bytes; NULL for a new cache */
	const char *exclude_per_dir;
	unsigned dir_flags;
	char *new_ident;              /* a new cache's own */
	udir *root;
	udir **order;                 /* pre-order, while parsing */
	size_t count;
};

/* git's encode_varint, appended to b */
static int put_varint(aa_buf *b, uint64_t value)
{
	unsigned char v[16];

	return aa_buf_put(b, v, aa_ix_varint_put(value, v));
}

static void free_dir(udir *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->ndirs; i++)
		free_dir(d->dirs[i]);
	free(d->dirs);
	free(d->names);
	free(d->owned);
	free(d);
}

void aa_untr_free(aa_untr *u)
{
	if (!u)
		return;
	free_dir(u->root);
	free(u->order);
	free(u->new_ident);
	free(u);
}

/* ---- reading ---- */

typedef struct rd {
	aa_untr *u;
	const unsigned char *p, *end;
	size_t cap;
	int oom;
} rd;

/* One directory and its subdirectories: 0, or -1 damaged / out of memory. */
static int read_dir(rd *r, udir **out, int depth)
{
	const unsigned char *nul;
	uint64_t nnames, ndirs, i;
	udir *d;

	*out = NULL;
	if (depth > MAX_DEPTH || aa_ix_varint_read(&r->p, r->end, &nnames) < 0 ||
	    aa_ix_varint_read(&r->p, r->end, &ndirs) < 0 ||
	    nnames > (uint64_t)(r->end - r->p) || ndirs > (uint64_t)(r->end - r->p) ||
	    !(nul = memchr(r->p, 0, (size_t)(r->end - r->p))))
		return -1;
	if (!(d = calloc(1, sizeof(*d))) ||
	    (nnames && !(d->names = malloc((size_t)nnames * sizeof(*d->names)))) ||
	    (ndirs && !(d->dirs = calloc((size_t)ndirs, sizeof(*d->dirs))))) {
		r->oom = 1;
		free_dir(d);
		return -1;
	}
	*out = d;
	d->recurse = 1;
	d->name = (const char *)r->p;
	r->p = nul + 1;
	for (i = 0; i < nnames; i++) {
		if (!(nul = memchr(r->p, 0, (size_t)(r->end - r->p))))
			return -1;
		d->names[d->nnames++] = (const char *)r->p;
		r->p = nul + 1;
	}
	if (AA_GROW(r->u->order, r->u->count, r->cap) < 0) {
		r->oom = 1;
		return -1;
	}
	r->u->order[r->u->count++] = d;
	d->capdirs = (size_t)ndirs;
	for (i = 0; i < ndirs; i++) {
		int rc = read_dir(r, &d->dirs[i], depth + 1);

		if (d->dirs[i])
			d->ndirs++;
		if (rc < 0)
			return -1;
	}
	return 0;
}

typedef struct bitctx {
	rd *r;
	size_t count;
	int kind;            /* 0 check_only, 1 valid (stat), 2 exclude id */
} bitctx;

static int on_bit(uint64_t pos, void *ctx)
{
	bitctx *b = ctx;
	udir *d;

	if (pos >= b->count)
		return 1; /* git would index past its table */
	d = b->r->u->order[pos];
	if (b->kind == 0) {
		d->check_only = 1;
	} else {
		size_t need = b->kind == 1 ? STAT_LEN : OID_LEN;

		if ((size_t)(b->r->end - b->r->p) < need)
			return 1;
		if (b->kind == 1) {
			d->valid = 1;
			d->stat = b->r->p;
		} else {
			d->oid = b->r->p;
		}
		b->r->p += need;
	}
	return 0;
}

/* The directories, their bitmaps and records: 0, or -1. */
static int read_tree(rd *r, uint64_t count)
{
	size_t used[3];
	const unsigned char *bm[3];
	bitctx b = { r, 0, 0 };
	int i;

	if (read_dir(r, &r->u->root, 0) < 0 || r->u->count != count)
		return -1;
	b.count = r->u->count;
	for (i = 0; i < 3; i++) {
		bm[i] = r->p;
		if (aa_ewah_read(r->p, (size_t)(r->end - r->p), &used[i], NULL, NULL, NULL) < 0)
			return -1;
		r->p += used[i];
	}
	/* git's order: check_only, then valid (the stat records), then the ids */
	b.kind = 0;
	if (aa_ewah_read(bm[1], used[1], NULL, NULL, on_bit, &b) < 0)
		return -1;
	b.kind = 1;
	if (aa_ewah_read(bm[0], used[0], NULL, NULL, on_bit, &b) < 0)
		return -1;
	b.kind = 2;
	return aa_ewah_read(bm[2], used[2], NULL, NULL, on_bit, &b) < 0 ? -1 : 0;
}

int aa_untr_parse(aa_untr **out, const unsigned char *data, size_t len)
{
	const unsigned char *p = data, *end, *nul;
	uint64_t identlen, count = 1;
	aa_untr *u;
	rd r;

	*out = NULL;
	if (len <= 1 || data[len - 1])
		return 0;
	end = data + len - 1; /* the last NUL ends the string lists */
	if (aa_ix_varint_read(&p, end + 1, &identlen) < 0 || p > end ||
	    identlen > (uint64_t)(end - p) ||
	    (uint64_t)(end - p) - identlen < HEAD_FIXED + 1)
		return 0;
	if (!(u = calloc(1, sizeof(*u))))
		return -1;
	u->ident = p;
	u->identlen = (size_t)identlen;
	p += identlen;
	u->fixed = p;
	u->dir_flags = aa_ix_be32(p + FLAGS_AT);
	p += HEAD_FIXED;
	u->exclude_per_dir = (const char *)p;
	if (!(nul = memchr(p, 0, (size_t)(end - p)))) {
		aa_untr_free(u); /* the name runs into the last NUL */
		return 0;
	}
	p = nul + 1;
	if (p == end) {
		*out = u; /* no root */
		return 0;
	}
	if (aa_ix_varint_read(&p, end + 1, &count) < 0 || p > end || !count) {
		if (!count && p == end)
			*out = u; /* a count of 0 and nothing after it: no root */
		else
			aa_untr_free(u);
		return 0;
	}
	memset(&r, 0, sizeof(r));
	r.u = u;
	r.p = p;
	r.end = end;
	if (read_tree(&r, count) < 0 || r.p != end) {
		aa_untr_free(u);
		return r.oom ? -1 : 0;
	}
	free(u->order);
	u->order = NULL;
	*out = u;
	return 0;
}

/* ---- invalidating ---- */

/* git's lookup_untracked: the subdirectory name[0..len), made when missing. */
static udir *lookup(udir *dir, const char *name, size_t len)
{
	size_t first = 0, last = dir->ndirs;
	udir *d;

	if (len && name[len - 1] == '/')
		len--;
	while (last > first) {
		size_t next = first + ((last - first) >> 1);
		int cmp = strncmp(name, dir->dirs[next]->name, len);

		if (!cmp && strlen(dir->dirs[next]->name) > len)
			cmp = -1;
		if (!cmp)
			return dir->dirs[next];
		if (cmp < 0)
			last = next;
		else
			first = next + 1;
	}
	/* made as git makes it: not written (not "recurse"), but searched */
	if (!(d = calloc(1, sizeof(*d))) || !(d->owned = aa_strndup(name, len)) ||
	    AA_GROW(dir->dirs, dir->ndirs, dir->capdirs) < 0) {
		free_dir(d);
		return NULL;
	}
	d->name = d->owned;
	memmove(dir->dirs + first + 1, dir->dirs + first,
		(dir->ndirs - first) * sizeof(*dir->dirs));
	dir->dirs[first] = d;
	dir->ndirs++;
	return d;
}

static void invalidate_dir(udir *d)
{
	d->valid = 0;
	d->nnames = 0;
}

/* git's invalidate_one_component: 1 when the parents go too, -1 OOM. */
static int invalidate_component(const aa_untr *u, udir *dir, const char *path)
{
	const char *rest = strchr(path, '/');
	int r;

	if (!rest) {
		invalidate_dir(dir);
		return (u->dir_flags & SHOW_OTHER_DIRECTORIES) != 0;
	}
	{
		udir *d = lookup(dir, path, (size_t)(rest - path));

		if (!d)
			return -1;
		r = invalidate_component(u, d, rest + 1);
	}
	if (r > 0)
		invalidate_dir(dir);
	return r;
}

/*
 * git's verify_path for a path the fsmonitor names: no empty, "." or
 * ".." component, no ".git" (any case). (git's NTFS and HFS variants of
 * ".git" are not refused here: invalidating more is safe.)
 */
static int path_ok(const char *path)
{
	const char *c = path;

	for (;;) {
		const char *slash = strchr(c, '/');
		size_t len = slash ? (size_t)(slash - c) : strlen(c);

		if (!len || (len == 1 && c[0] == '.') ||
		    (len == 2 && !memcmp(c, "..", 2)) ||
		    (len == 4 && aa_ci_starts_with(c, 4, ".git")))
			return 0;
		if (!slash)
			return 1;
		c = slash + 1;
	}
}

int aa_untr_invalidate(aa_untr *u, const char *path, int checked)
{
	if (!u || !u->root || (!checked && !path_ok(path)))
		return 0;
	return invalidate_component(u, u->root, path) < 0 ? -1 : 0;
}

/* ---- writing ---- */

typedef struct wd {
	size_t index;
	aa_ewah check_only, valid, has_oid;
	aa_buf out, stats, oids;
} wd;

static int null_oid(const unsigned char *oid)
{
	static const unsigned char zero[OID_LEN];

	return !memcmp(oid, zero, OID_LEN);
}

static void write_dir(const udir *d, wd *w)
{
	size_t i = w->index++, recurse = 0;
	size_t nnames = d->valid ? d->nnames : 0;

	if (d->valid && d->check_only)
		aa_ewah_set(&w->check_only, i);
	if (d->valid) {
		aa_ewah_set(&w->valid, i);
		aa_buf_put(&w->stats, d->stat, STAT_LEN);
	}
	if (d->oid && !null_oid(d->oid)) {
		aa_ewah_set(&w->has_oid, i);
		aa_buf_put(&w->oids, d->oid, OID_LEN);
	}
	put_varint(&w->out, nnames);
	for (i = 0; i < d->ndirs; i++)
		recurse += d->dirs[i]->recurse;
	put_varint(&w->out, recurse);
	aa_buf_put(&w->out, d->name, strlen(d->name) + 1);
	for (i = 0; i < nnames; i++)
		aa_buf_put(&w->out, d->names[i], strlen(d->names[i]) + 1);
	for (i = 0; i < d->ndirs; i++)
		if (d->dirs[i]->recurse)
			write_dir(d->dirs[i], w);
}

static int write_head(const aa_untr *u, aa_buf *out)
{
	static const unsigned char zeros[HEAD_FIXED];
	unsigned char flags[4];

	put_varint(out, u->identlen);
	aa_buf_put(out, u->new_ident ? (const unsigned char *)u->new_ident : u->ident,
		   u->identlen);
	if (u->fixed) {
		aa_buf_put(out, u->fixed, HEAD_FIXED);
	} else {
		/* a new cache: no stat data, no ids, only the flags */
		aa_buf_put(out, zeros, FLAGS_AT);
		flags[0] = (unsigned char)(u->dir_flags >> 24);
		flags[1] = (unsigned char)(u->dir_flags >> 16);
		flags[2] = (unsigned char)(u->dir_flags >> 8);
		flags[3] = (unsigned char)u->dir_flags;
		aa_buf_put(out, flags, 4);
		aa_buf_put(out, zeros, 2 * OID_LEN);
	}
	return aa_buf_put(out, u->exclude_per_dir, strlen(u->exclude_per_dir) + 1);
}

int aa_untr_write(const aa_untr *u, aa_buf *out)
{
	wd w;
	int r = 0;

	write_head(u, out);
	if (!u->root)
		return put_varint(out, 0) < 0 || aa_buf_oom(out) ? -1 : 0;
	memset(&w, 0, sizeof(w));
	if (aa_ewah_init(&w.check_only) < 0 || aa_ewah_init(&w.valid) < 0 ||
	    aa_ewah_init(&w.has_oid) < 0)
		r = -1;
	if (!r) {
		write_dir(u->root, &w);
		put_varint(out, w.index);
		aa_buf_put(out, w.out.ptr, w.out.len);
		if (aa_ewah_write(&w.valid, out) < 0 ||
		    aa_ewah_write(&w.check_only, out) < 0 ||
		    aa_ewah_write(&w.has_oid, out) < 0 || aa_buf_oom(&w.out) ||
		    aa_buf_oom(&w.stats) || aa_buf_oom(&w.oids))
			r = -1;
		aa_buf_put(out, w.stats.ptr, w.stats.len);
		aa_buf_put(out, w.oids.ptr, w.oids.len);
		aa_buf_putc(out, '\0');
	}
	aa_ewah_free(&w.check_only);
	aa_ewah_free(&w.valid);
	aa_ewah_free(&w.has_oid);
	aa_buf_free(&w.out);
	aa_buf_free(&w.stats);
	aa_buf_free(&w.oids);
	return r || aa_buf_oom(out) ? -1 : 0;
}

/* ---- core.untrackedCache ---- */

enum { UC_KEEP, UC_REMOVE, UC_WRITE };

/* git_parse_maybe_bool: 1, 0, or -1 for any other word. */
static int maybe_bool(const char *v)
{
	int b;

	if (!v)
		return 1; /* a key without a value */
	if (git_config_parse_bool(&b, v) < 0) {
		git_error_clear();
		return -1;
	}
	return b;
}

static int config_mode(git_config *cfg)
{
	git_config_entry *e = NULL;
	int mode = UC_KEEP, b;

	if (!git_config_get_entry(&e, cfg, "feature.manyfiles") && maybe_bool(e->value) > 0)
		mode = UC_WRITE;
	git_config_entry_free(e);
	e = NULL;
	if (!git_config_get_entry(&e, cfg, "core.untrackedcache") &&
	    (b = maybe_bool(e->value)) >= 0)
		mode = b ? UC_WRITE : UC_REMOVE;
	git_config_entry_free(e);
	git_error_clear();
	return mode;
}

/* git's get_ident_string: "Location <work tree>, system <kernel name>". */
static char *ident_string(git_repository *repo)
{
	const char *wd = git_repository_workdir(repo);
	char *real;
	struct utsname uts;
	aa_buf b = AA_BUF_INIT;
	size_t len;

	if (!wd || uname(&uts) < 0)
		return NULL;
	real = realpath(wd, NULL);
	len = strlen(real ? real : wd);
	if (len > 1 && (real ? real : wd)[len - 1] == '/')
		len--;
	aa_buf_puts(&b, "Location ");
	aa_buf_put(&b, real ? real : wd, len);
	aa_buf_printf(&b, ", system %s", uts.sysname);
	free(real);
	if (aa_buf_oom(&b)) {
		aa_buf_free(&b);
		return NULL;
	}
	return aa_buf_detach(&b);
}

/* git's new_untracked_cache_flags: status.showUntrackedFiles=all or not. */
static unsigned new_flags(git_config *cfg)
{
	git_buf v = { 0 };
	unsigned flags = SHOW_OTHER_DIRECTORIES | HIDE_EMPTY_DIRECTORIES;

	if (!git_config_get_string_buf(&v, cfg, "status.showuntrackedfiles") &&
	    !strcmp(v.ptr, "all"))
		flags = 0;
	git_buf_dispose(&v);
	git_error_clear();
	return flags;
}

/* git's add_untracked_cache: kept when made for this work tree, else new. */
static int add_cache(aa_untr **u, git_repository *repo, git_config *cfg)
{
	char *ident;
	aa_untr *n;

	if (!(ident = ident_string(repo)))
		return -1;
	/* kept when its ident (up to a NUL) is this one */
	if (*u && strlen(ident) == strnlen((const char *)(*u)->ident, (*u)->identlen) &&
	    !memcmp((*u)->ident, ident, strlen(ident))) {
		free(ident);
		return 0;
	}
	if (!(n = calloc(1, sizeof(*n)))) {
		free(ident);
		return -1;
	}
	n->new_ident = ident;
	n->identlen = strlen(ident) + 1; /* git keeps the NUL (old lists of idents) */
	n->exclude_per_dir = ".gitignore";
	n->dir_flags = new_flags(cfg);
	aa_untr_free(*u);
	*u = n;
	return 0;
}

int aa_untr_configure(aa_untr **u, git_repository *repo, int fsmonitor_start)
{
	git_config *cfg = NULL;
	int mode, r = 0;

	if (git_repository_is_bare(repo) || (fsmonitor_start && !*u))
		return 0;
	if (git_repository_config_snapshot(&cfg, repo) < 0)
		return -1;
	mode = fsmonitor_start ? UC_WRITE : config_mode(cfg);
	if (mode == UC_REMOVE) {
		aa_untr_free(*u);
		*u = NULL;
	} else if (mode == UC_WRITE) {
		r = add_cache(u, repo, cfg);
	}
	git_config_free(cfg);
	return r;
}
