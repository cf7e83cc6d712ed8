/*
 * The new index streamed from the old one (index_write.h). The rules are
 * git's read-cache.c (do_write_index, ce_write_entry,
 * ce_smudge_racily_clean_entry) and cache-tree.c (do_invalidate_path,
 * write_one), git 2.39.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <openssl/evp.h>

#include "land/index_fsmonitor.h"
#include "land/index_untracked.h"
#include "land/index_write.h"
#include "util/testhook.h"
#include "util/util.h"
#include "land/index_bytes.h"

#define IX_HEADER 12
#define IX_TRAILER 20
#define IX_FIXED 62
#define IX_EXTENDED 0x4000
#define IX_VALID 0x8000
#define IX_NAME_MASK 0x0fff
#define IX_EXT_FLAGS (GIT_INDEX_ENTRY_INTENT_TO_ADD | GIT_INDEX_ENTRY_SKIP_WORKTREE)

/* ---- output: buffered, hashed ---- */

typedef struct ixout {
	int fd;
	EVP_MD_CTX *md;
	unsigned char buf[1 << 16];
	size_t n;
	int failed;
} ixout;

static void out_flush(ixout *o)
{
	if (!o->failed && o->n && aa_write_all(o->fd, o->buf, o->n) < 0)
		o->failed = 1;
	o->n = 0;
}

static void out_put(ixout *o, const void *p, size_t len)
{
	if (o->failed || !len)
		return;
	if (!EVP_DigestUpdate(o->md, p, len)) {
		o->failed = 1;
		return;
	}
	if (o->n + len > sizeof(o->buf)) {
		out_flush(o);
		if (len >= sizeof(o->buf)) {
			if (!o->failed && aa_write_all(o->fd, p, len) < 0)
				o->failed = 1;
			return;
		}
	}
	memcpy(o->buf + o->n, p, len);
	o->n += len;
}

/* ---- the touched paths ---- */

static int path_cmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	return strcmp(x, y); /* bytes, shorter first: the index's order */
}

static int add_path(aa_ixstream *st, const char *path, size_t len)
{
	char *copy;

	if (AA_GROW(st->paths, st->npaths, st->cappaths) < 0 ||
	    !(copy = aa_strndup(path, len)))
		return -1;
	st->paths[st->npaths++] = copy;
	return 0;
}

/* The old entries under `path`/ (a directory the new file replaces). */
static int add_entries_under(aa_ixstream *st, const char *path)
{
	aa_buf prefix = AA_BUF_INIT;
	git_index_entry e;
	aa_ixiter it;
	int r = 0;

	if (aa_buf_printf(&prefix, "%s/", path) < 0 ||
	    aa_ixiter_start(&it, st->old, prefix.ptr) < 0) {
		aa_buf_free(&prefix);
		return -1;
	}
	while (!r && aa_ixiter_next(&it, &e) > 0 &&
	       !strncmp(e.path, prefix.ptr, prefix.len))
		r = add_path(st, e.path, strlen(e.path));
	aa_ixiter_free(&it);
	aa_buf_free(&prefix);
	return r;
}

int aa_ixstream_touch(aa_ixstream *st, const char *path, int added)
{
	const char *slash;
	git_index_entry e;
	aa_buf dir = AA_BUF_INIT;
	int r = add_path(st, path, strlen(path));

	if (r < 0 || !added)
		return r;
	/* a file where one of its directories goes (git's has_dir_name) */
	for (slash = strchr(path, '/'); !r && slash; slash = strchr(slash + 1, '/')) {
		aa_buf_clear(&dir);
		if (aa_buf_put(&dir, path, (size_t)(slash - path)) < 0)
			r = -1;
		else if (aa_ixread_get(st->old, dir.ptr, 0, &e))
			r = add_path(st, dir.ptr, dir.len);
	}
	aa_buf_free(&dir);
	/* entries under it (git's has_file_name) */
	return r < 0 ? r : add_entries_under(st, path);
}

int aa_ixstream_load(aa_ixstream *st)
{
	size_t i, k = 0;
	int stage;

	if (st->npaths)
		qsort(st->paths, st->npaths, sizeof(*st->paths), path_cmp);
	for (i = 0; i < st->npaths; i++) {
		if (k && !strcmp(st->paths[k - 1], st->paths[i])) {
			free(st->paths[i]);
			continue;
		}
		st->paths[k++] = st->paths[i];
	}
	st->npaths = k;
	for (i = 0; i < st->npaths; i++)
		for (stage = 0; stage <= 3; stage++) {
			git_index_entry e;

			if (aa_ixread_get(st->old, st->paths[i], stage, &e) &&
			    git_index_add(st->now, &e) < 0)
				return -1;
		}
	return 0;
}

int aa_ixstream_touched(const aa_ixstream *st, const char *path)
{
	return st->npaths &&
	       bsearch(&path, st->paths, st->npaths, sizeof(*st->paths), path_cmp) != NULL;
}

int aa_ixstream_check(const aa_ixstream *st)
{
	size_t i, n = git_index_entrycount(st->now);

	for (i = 0; i < n; i++)
		if (!aa_ixstream_touched(st, git_index_get_byindex(st->now, i)->path))
			return -1;
	return 0;
}

void aa_ixstream_free(aa_ixstream *st)
{
	size_t i;

	for (i = 0; i < st->npaths; i++)
		free(st->paths[i]);
	free(st->paths);
	st->paths = NULL;
	st->npaths = st->cappaths = 0;
}

/* ---- entries ---- */

/* The state of the entries' walk: where the version 4 names stand. */
typedef struct ixw {
	const aa_ixstream *st;
	ixout *o;
	unsigned version;
	char *prev;           /* v4: the name written last */
	size_t prevlen, prevcap;
	long long stamp_sec;  /* racy: entries not older than the old index */
	long stamp_nsec;
	const char *workdir;
	aa_buf full;
	aa_fsmn *fsmn;        /* NULL: no FSMN written */
	uint64_t pos;         /* the next entry's number in the new index */
} ixw;

/* The name part of an entry: v2/v3 padded, v4 against the name before. */
static int put_name(ixw *w, const char *name, size_t len, size_t fixed)
{
	static const char zeros[8];

	if (w->version < 4) {
		size_t total = (fixed + len + 8) & ~(size_t)7;

		out_put(w->o, name, len);
		out_put(w->o, zeros, total - fixed - len);
		return 0;
	} else {
		unsigned char vi[16];
		size_t common = 0;

		while (common < w->prevlen && common < len &&
		       name[common] == w->prev[common])
			common++;
		out_put(w->o, vi, aa_ix_varint_put(w->prevlen - common, vi));
		out_put(w->o, name + common, len - common + 1);
		if (len + 1 > w->prevcap) {
			char *p = realloc(w->prev, len + 1);

			if (!p)
				return -1;
			w->prev = p;
			w->prevcap = len + 1;
		}
		memcpy(w->prev, name, len + 1);
		w->prevlen = len;
	}
	return 0;
}

/* A new entry of the landing (from libgit2's in-memory index). */
static int put_new_entry(ixw *w, const git_index_entry *e)
{
	unsigned char f[IX_FIXED + 2];
	size_t len = strlen(e->path), fixed = IX_FIXED;
	unsigned ext = e->flags_extended & IX_EXT_FLAGS;
	unsigned flags = (e->flags & (IX_VALID | GIT_INDEX_ENTRY_STAGEMASK)) |
			 (len < IX_NAME_MASK ? (unsigned)len : IX_NAME_MASK);

	aa_ix_put_be32(f, (uint32_t)e->ctime.seconds);
	aa_ix_put_be32(f + 4, e->ctime.nanoseconds);
	aa_ix_put_be32(f + 8, (uint32_t)e->mtime.seconds);
	aa_ix_put_be32(f + 12, e->mtime.nanoseconds);
	aa_ix_put_be32(f + 16, e->dev);
	aa_ix_put_be32(f + 20, e->ino);
	aa_ix_put_be32(f + 24, e->mode);
	aa_ix_put_be32(f + 28, e->uid);
	aa_ix_put_be32(f + 32, e->gid);
	aa_ix_put_be32(f + 36, e->file_size);
	memcpy(f + 40, e->id.id, GIT_OID_RAWSZ);
	if (ext) {
		flags |= IX_EXTENDED;
		f[62] = (unsigned char)(ext >> 8);
		f[63] = (unsigned char)ext;
		fixed += 2;
	}
	f[60] = (unsigned char)(flags >> 8);
	f[61] = (unsigned char)flags;
	out_put(w->o, f, fixed);
	/* fsmonitor: git marks clean what it stats, a regular file it wrote */
	if (w->fsmn)
		aa_fsmn_mark(w->fsmn, w->pos, !(w->st->worktree &&
			     !(e->flags & GIT_INDEX_ENTRY_STAGEMASK) &&
			     (e->mode & 0170000) == 0100000));
	w->pos++;
	return put_name(w, e->path, len, fixed);
}

/*
 * An entry whose mtime is not older than the old index: git cannot tell
 * from stat data whether the file changed in the same instant, so when
 * its content differs now, the size is zeroed to make git look
 * (ce_smudge_racily_clean_entry). A symbolic link is smudged without
 * looking; a file that cannot be read is left as it is, as git does.
 */
static int racy_modified(ixw *w, const git_index_entry *e)
{
	struct stat sb;
	git_oid id;

	if (!w->workdir || (e->mode & 0170000) == 0160000 ||
	    (e->flags_extended & IX_EXT_FLAGS))
		return 0;
	if ((long long)e->mtime.seconds < w->stamp_sec ||
	    ((long long)e->mtime.seconds == w->stamp_sec &&
	     (long)e->mtime.nanoseconds < w->stamp_nsec))
		return 0;
	aa_buf_clear(&w->full);
	if (aa_buf_printf(&w->full, "%s%s", w->workdir, e->path) < 0 ||
	    lstat(w->full.ptr, &sb) < 0)
		return 0;
	if (S_ISLNK(sb.st_mode))
		return 1;
	if (!S_ISREG(sb.st_mode))
		return 0;
	if ((w->st->attrs_for && w->st->attrs_for(w->st->attrs_ctx, e->path) < 0) ||
	    git_repository_hashfile(&id, w->st->repo, e->path, GIT_OBJECT_BLOB,
				    NULL) < 0) {
		git_error_clear();
		return 0;
	}
	return !git_oid_equal(&id, &e->id);
}

/* An entry of the old index (number `opos`), kept: its bytes, re-encoded for v4. */
static int put_old_entry(ixw *w, const unsigned char *p, size_t opos,
			 const git_index_entry *e)
{
	size_t fixed = IX_FIXED + ((e->flags & IX_EXTENDED) ? 2 : 0);
	unsigned char f[IX_FIXED + 2];

	memcpy(f, p, fixed);
	if (racy_modified(w, e))
		aa_ix_put_be32(f + 36, 0);
	out_put(w->o, f, fixed);
	if (w->fsmn)
		aa_fsmn_mark(w->fsmn, w->pos, aa_fsmn_old_dirty(w->fsmn, opos, e->path, e->mode));
	w->pos++;
	return put_name(w, e->path, strlen(e->path), fixed);
}

/* Every entry the landing's index holds for one touched path. */
static int put_touched(ixw *w, const char *path)
{
	int stage;

	for (stage = 0; stage <= 3; stage++) {
		const git_index_entry *e = git_index_get_bypath(w->st->now, path, stage);

		if (e && put_new_entry(w, e) < 0)
			return -1;
	}
	return 0;
}

/* The old entries, merged with the touched paths' new ones. */
static int put_entries(ixw *w)
{
	const aa_ixstream *st = w->st;
	size_t size, t = 0;
	const unsigned char *map = aa_ixread_bytes(st->old, &size);
	aa_ixiter it;
	git_index_entry e;
	int r = 0;

	if (aa_ixiter_start(&it, st->old, NULL) < 0)
		return -1;
	for (;;) {
		size_t off = it.off, opos = it.pos;

		if (aa_ixiter_next(&it, &e) <= 0)
			break;
		while (t < st->npaths && strcmp(st->paths[t], e.path) < 0)
			if ((r = put_touched(w, st->paths[t++])) < 0)
				goto done;
		if (t < st->npaths && !strcmp(st->paths[t], e.path))
			continue; /* replaced: written when the walk passes it */
		if ((r = put_old_entry(w, map + off, opos, &e)) < 0)
			goto done;
	}
	while (t < st->npaths)
		if ((r = put_touched(w, st->paths[t++])) < 0)
			break;
done:
	aa_ixiter_free(&it);
	return r;
}

/* ---- the header's figures, known before the entries are written ---- */

static void count_entries(const aa_ixstream *st, size_t *count, size_t *extended)
{
	size_t i;
	int stage;

	*count = aa_ixread_count(st->old);
	*extended = aa_ixread_extended(st->old);
	for (i = 0; i < st->npaths; i++)
		for (stage = 0; stage <= 3; stage++) {
			const git_index_entry *e =
				git_index_get_bypath(st->now, st->paths[i], stage);
			git_index_entry old;

			if (aa_ixread_get(st->old, st->paths[i], stage, &old)) {
				(*count)--;
				if (old.flags & IX_EXTENDED)
					(*extended)--;
			}
			if (e) {
				(*count)++;
				if (e->flags_extended & IX_EXT_FLAGS)
					(*extended)++;
			}
		}
}

size_t aa_ixstream_count(const aa_ixstream *st)
{
	size_t count, extended;

	count_entries(st, &count, &extended);
	return count;
}

/* ---- TREE: the cache-tree, its touched paths invalidated ---- */

typedef struct tnode {
	const char *name;
	size_t namelen;
	long entries;         /* -1: invalid (no id) */
	long nsub;
	const unsigned char *id;
	size_t size;          /* nodes in this subtree, itself included */
	int removed;
} tnode;

typedef struct ttree {
	tnode *v;
	size_t n, cap;
} ttree;

/* One node and its subtrees, pre-order; -1 when the data is not a cache-tree. */
static long parse_node(ttree *t, const unsigned char **pp, const unsigned char *end)
{
	const unsigned char *p = *pp, *nul = memchr(p, 0, (size_t)(end - p));
	size_t at = t->n;
	char num[64], *q;
	long i, sub;
	size_t k;

	if (!nul || aa_array_grow(&t->v, &t->cap, t->n + 1, sizeof(*t->v)) < 0)
		return -1;
	t->n++;
	t->v[at].name = (const char *)p;
	t->v[at].namelen = (size_t)(nul - p);
	t->v[at].removed = 0;
	p = nul + 1;
	for (k = 0; p + k < end && p[k] != '\n' && k < sizeof(num) - 1; k++)
		num[k] = (char)p[k];
	if (p + k >= end || p[k] != '\n')
		return -1;
	num[k] = '\0';
	p += k + 1;
	t->v[at].entries = strtol(num, &q, 10);
	if (*q != ' ')
		return -1;
	t->v[at].nsub = sub = strtol(q + 1, &q, 10);
	if (*q || sub < 0)
		return -1;
	t->v[at].id = NULL;
	if (t->v[at].entries >= 0) {
		if (end - p < GIT_OID_RAWSZ)
			return -1;
		t->v[at].id = p;
		p += GIT_OID_RAWSZ;
	}
	*pp = p;
	for (i = 0; i < sub; i++)
		if (parse_node(t, pp, end) < 0)
			return -1;
	t->v[at].size = t->n - at;
	return 0;
}

/* The child of node `at` named name[0..len), or 0 (the root is never one). */
static size_t find_child(const ttree *t, size_t at, const char *name, size_t len)
{
	size_t c = at + 1;
	long i;

	for (i = 0; i < t->v[at].nsub; i++, c += t->v[c].size)
		if (!t->v[c].removed && t->v[c].namelen == len &&
		    !memcmp(t->v[c].name, name, len))
			return c;
	return 0;
}

/* cache-tree.c's do_invalidate_path, over the parsed nodes. */
static void invalidate(ttree *t, const char *path)
{
	size_t at = 0;

	for (;;) {
		const char *slash = strchr(path, '/');
		size_t len = slash ? (size_t)(slash - path) : strlen(path), c;

		t->v[at].entries = -1;
		c = find_child(t, at, path, len);
		if (!slash) {
			if (c)
				t->v[c].removed = 1;
			return;
		}
		if (!c)
			return;
		at = c;
		path = slash + 1;
	}
}

static size_t put_tree_node(const ttree *t, size_t at, aa_buf *b)
{
	size_t c = at + 1;
	long i, live = 0;

	for (i = 0; i < t->v[at].nsub; i++, c += t->v[c].size)
		live += !t->v[c].removed;
	aa_buf_put(b, t->v[at].name, t->v[at].namelen);
	aa_buf_putc(b, '\0');
	aa_buf_printf(b, "%ld %ld\n", t->v[at].entries, live);
	if (t->v[at].entries >= 0)
		aa_buf_put(b, t->v[at].id, GIT_OID_RAWSZ);
	c = at + 1;
	for (i = 0; i < t->v[at].nsub; i++, c += t->v[c].size)
		if (!t->v[c].removed)
			put_tree_node(t, c, b);
	return 0;
}

/* TREE: invalidated and written; dropped when it does not parse. */
static int put_tree_ext(const aa_ixstream *st, ixout *o,
			const unsigned char *data, size_t len)
{
	const unsigned char *p = data;
	ttree t = { NULL, 0, 0 };
	aa_buf b = AA_BUF_INIT;
	unsigned char hdr[8];
	size_t i;

	if (!len || parse_node(&t, &p, data + len) < 0 || p != data + len) {
		free(t.v);
		return 0;
	}
	for (i = 0; i < st->npaths; i++)
		invalidate(&t, st->paths[i]);
	put_tree_node(&t, 0, &b);
	free(t.v);
	if (aa_buf_oom(&b)) {
		aa_buf_free(&b);
		return -1;
	}
	memcpy(hdr, "TREE", 4);
	aa_ix_put_be32(hdr + 4, (uint32_t)b.len);
	out_put(o, hdr, 8);
	out_put(o, b.ptr, b.len);
	aa_buf_free(&b);
	return 0;
}

/* An extension's data: the last one named `sig` (git's reader keeps the last). */
static const unsigned char *find_ext(const aa_ixread *old, const char *sig, size_t *len)
{
	size_t size, off = aa_ixread_entries_end(old);
	const unsigned char *map = aa_ixread_bytes(old, &size), *found = NULL;

	while (map && off + 8 <= size - IX_TRAILER) {
		const unsigned char *p = map + off;
		size_t n = aa_ix_be32(p + 4);

		if (n > size - IX_TRAILER - off - 8)
			break;
		if (!memcmp(p, sig, 4)) {
			found = p + 8;
			*len = n;
		}
		off += 8 + n;
	}
	return found;
}

static void put_ext(ixout *o, const char *sig, const aa_buf *b)
{
	unsigned char hdr[8];

	memcpy(hdr, sig, 4);
	aa_ix_put_be32(hdr + 4, (uint32_t)b->len);
	out_put(o, hdr, 8);
	out_put(o, b->ptr, b->len);
}

/*
 * UNTR as git keeps it (index_untracked.h), in git's order: read,
 * core.untrackedCache, the fsmonitor's turn (a cache of another work
 * tree replaced when it starts; the paths it names), the landing's
 * paths.
 */
static int put_untracked_ext(const aa_ixstream *st, const ixw *w, ixout *o)
{
	size_t len = 0, i;
	const unsigned char *data = find_ext(st->old, "UNTR", &len);
	aa_untr *u = NULL;
	aa_buf b = AA_BUF_INIT;
	int r = 0;

	if (data && aa_untr_parse(&u, data, len) < 0)
		return -1;
	if (st->repo && aa_untr_configure(&u, st->repo, 0) < 0)
		r = -1;
	if (!r && u && st->repo && w->fsmn && aa_fsmn_added(w->fsmn))
		r = aa_untr_configure(&u, st->repo, 1);
	for (i = 0; !r && u && w->fsmn && i < aa_fsmn_npaths(w->fsmn); i++)
		r = aa_untr_invalidate(u, aa_fsmn_path(w->fsmn, i), 0);
	for (i = 0; !r && u && i < st->npaths; i++)
		r = aa_untr_invalidate(u, st->paths[i], 1);
	if (!r && u && !(r = aa_untr_write(u, &b)))
		put_ext(o, "UNTR", &b);
	aa_untr_free(u);
	aa_buf_free(&b);
	return r;
}

/*
 * The extensions, in git's order (do_write_index): TREE invalidated,
 * REUC kept as it is (git changes it only when a conflict is removed; a
 * landing refuses an index with conflicts), UNTR and FSMN kept as git
 * keeps them, the rest dropped: EOIE and IEOT (their offsets change),
 * any other optional one. Where an extension comes twice, the last one
 * counts, as in git's reader.
 */
static int put_extensions(const aa_ixstream *st, const ixw *w, ixout *o)
{
	size_t treelen = 0, reuclen = 0;
	const unsigned char *tree = find_ext(st->old, "TREE", &treelen);
	const unsigned char *reuc = find_ext(st->old, "REUC", &reuclen);
	aa_buf b = AA_BUF_INIT;
	int r = 0;

	if (tree && put_tree_ext(st, o, tree, treelen) < 0)
		return -1;
	if (reuc)
		out_put(o, reuc - 8, 8 + reuclen);
	if (put_untracked_ext(st, w, o) < 0)
		return -1;
	if (w->fsmn && !(r = aa_fsmn_write(w->fsmn, &b)))
		put_ext(o, "FSMN", &b);
	aa_buf_free(&b);
	return r;
}

/* ---- the whole ---- */

int aa_ixstream_write(const aa_ixstream *st, int fd, char *why, size_t whylen)
{
	ixout *o = calloc(1, sizeof(*o));
	ixw w;
	unsigned char hdr[IX_HEADER], sum[EVP_MAX_MD_SIZE];
	size_t count, extended;
	unsigned sumlen = 0;
	int r = -1;

	memset(&w, 0, sizeof(w));
	if (!o || !(o->md = EVP_MD_CTX_new()) ||
	    !EVP_DigestInit_ex(o->md, EVP_sha1(), NULL)) {
		snprintf(why, whylen, "cannot set up SHA-1 (OpenSSL)");
		goto out;
	}
	o->fd = fd;
	w.st = st;
	w.o = o;
	w.version = aa_ixread_version(st->old);
	aa_ixread_mtime(st->old, &w.stamp_sec, &w.stamp_nsec);
	w.workdir = st->repo ? git_repository_workdir(st->repo) : NULL;
	if (!w.stamp_sec)
		w.workdir = NULL; /* no old index: nothing is racy */
	if (st->repo) {
		size_t len = 0;
		const unsigned char *fsmn = find_ext(st->old, "FSMN", &len);

		if (aa_fsmn_read(&w.fsmn, st->repo, fsmn, len, aa_ixread_count(st->old)) < 0) {
			snprintf(why, whylen, "out of memory");
			goto out;
		}
	}
	count_entries(st, &count, &extended);
	/* git writes v2 when no entry needs v3's extended flags */
	if (w.version < 4)
		w.version = extended ? 3 : 2;
	memcpy(hdr, "DIRC", 4);
	aa_ix_put_be32(hdr + 4, w.version);
	aa_ix_put_be32(hdr + 8, (uint32_t)count);
	out_put(o, hdr, sizeof(hdr));
	if (put_entries(&w) < 0) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	out_flush(o);
	aa_test_hook("index-write"); /* the entries in the lock, not the rest */
	if (put_extensions(st, &w, o) < 0) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	if (!EVP_DigestFinal_ex(o->md, sum, &sumlen) || sumlen != IX_TRAILER) {
		snprintf(why, whylen, "cannot compute SHA-1 (OpenSSL)");
		goto out;
	}
	out_flush(o);
	if (!o->failed && aa_write_all(fd, sum, IX_TRAILER) < 0)
		o->failed = 1;
	if (o->failed) {
		snprintf(why, whylen, "%s", strerror(errno));
		goto out;
	}
	r = 0;
out:
	if (o)
		EVP_MD_CTX_free(o->md);
	free(o);
	free(w.prev);
	aa_buf_free(&w.full);
	aa_fsmn_free(w.fsmn);
	return r;
}
