/*
 * The on-disk index read in O(touched) (index_read.h). The format is
 * git's Documentation/gitformat-index.txt: a 12-byte header ("DIRC",
 * version, entry count), the entries sorted by path and stage, the
 * extensions, a 20-byte trailer. An entry is 62 bytes of stat data, id
 * and flags, 2 more of extended flags when flag 0x4000 is set (v3 and
 * later), then the path: NUL-padded to a multiple of 8 bytes in v2/v3;
 * in v4 a varint (bytes to drop from the end of the previous path) and
 * the NUL-ended rest.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "land/index_read.h"
#include "land/session.h"
#include "util/util.h"
#include "land/index_bytes.h"

#define IX_HEADER 12
#define IX_TRAILER 20
#define IX_FIXED 62           /* stat data, id, flags */
#define IX_EXTENDED 0x4000
#define IX_STAGE_MASK 0x3000
#define IX_NAME_MASK 0x0fff
#define IX_STEP 32            /* one restart point every 32 entries */

struct aa_ixread {
	unsigned char *map;   /* NULL: no index file (empty) */
	size_t size;
	unsigned version;
	size_t count;
	size_t end;           /* where the entries end, the extensions begin */
	uint32_t *start;      /* every 32nd entry's offset (the restart points) */
	size_t nstart;
	char *prev;           /* v4: per restart point, the path before it */
	size_t *prev_at;      /* ... its offset in prev */
	int conflicts;
	size_t extended;      /* entries with extended flags */
	long long mtime_sec;  /* the file's mtime when opened */
	long mtime_nsec;
	git_oid checksum;
	char **kept;          /* v4: paths handed out by aa_ixread_get */
	size_t nkept, capkept;
};

static int grow_path(aa_ixiter *it, size_t need)
{
	char *p;
	size_t cap = it->cap ? it->cap : 256;

	if (need <= it->cap)
		return 0;
	while (cap < need)
		cap *= 2;
	if (!(p = realloc(it->path, cap)))
		return -1;
	it->path = p;
	it->cap = cap;
	return 0;
}

/*
 * The entry at it->off: its flags, path (in place for v2/v3, in it->path
 * for v4) and the offset of the next one. 0, or -1 when it does not fit
 * in the entries' area (a damaged index) or out of memory.
 */
static int entry_span(aa_ixiter *it, unsigned *flags, const char **name,
		      size_t *namelen, size_t *next)
{
	const aa_ixread *r = it->r;
	const unsigned char *base = r->map + it->off;
	const unsigned char *lim = r->map + r->size - IX_TRAILER;
	const unsigned char *p = base + IX_FIXED, *nul;
	uint64_t strip64;
	size_t strip, len;

	if (p > lim)
		return -1;
	*flags = aa_ix_be16(p - 2);
	if (*flags & IX_EXTENDED) {
		if (r->version < 3 || (p += 2) > lim)
			return -1;
	}
	if (r->version < 4) {
		len = *flags & IX_NAME_MASK;
		if (len == IX_NAME_MASK)
			len = strnlen((const char *)p, (size_t)(lim - p));
		if (len >= (size_t)(lim - p) || p[len])
			return -1;
		*name = (const char *)p;
		*namelen = len;
		*next = it->off + (((size_t)(p - base) + len + 8) & ~(size_t)7);
		return *next <= (size_t)(lim - r->map) ? 0 : -1;
	}
	if (aa_ix_varint_read(&p, lim, &strip64) < 0 || strip64 > it->len ||
	    !(nul = memchr(p, 0, (size_t)(lim - p))))
		return -1;
	strip = (size_t)strip64;
	len = it->len - strip + (size_t)(nul - p);
	if (grow_path(it, len + 1) < 0)
		return -1;
	memcpy(it->path + it->len - strip, p, (size_t)(nul - p) + 1);
	it->len = len;
	*name = it->path;
	*namelen = len;
	*next = (size_t)(nul + 1 - r->map);
	return 0;
}

static void fill_entry(const aa_ixread *r, size_t off, unsigned flags,
		       const char *name, git_index_entry *e)
{
	const unsigned char *p = r->map + off;

	memset(e, 0, sizeof(*e));
	e->ctime.seconds = (int32_t)aa_ix_be32(p);
	e->ctime.nanoseconds = aa_ix_be32(p + 4);
	e->mtime.seconds = (int32_t)aa_ix_be32(p + 8);
	e->mtime.nanoseconds = aa_ix_be32(p + 12);
	e->dev = aa_ix_be32(p + 16);
	e->ino = aa_ix_be32(p + 20);
	e->mode = aa_ix_be32(p + 24);
	e->uid = aa_ix_be32(p + 28);
	e->gid = aa_ix_be32(p + 32);
	e->file_size = aa_ix_be32(p + 36);
	memcpy(e->id.id, p + 40, GIT_OID_RAWSZ);
	e->flags = (uint16_t)flags;
	if (flags & IX_EXTENDED)
		e->flags_extended = (uint16_t)aa_ix_be16(p + IX_FIXED);
	e->path = name;
}

/* Orders as git's index does: path bytes, then length, then stage. */
static int entry_cmp(const char *a, size_t alen, unsigned astage,
		     const char *b, size_t blen, unsigned bstage)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c)
		return c;
	if (alen != blen)
		return alen < blen ? -1 : 1;
	return astage < bstage ? -1 : astage > bstage;
}

/* ---- the one pass ---- */

static int keep_restart(aa_ixread *r, const aa_ixiter *it, size_t *cap,
			size_t *used)
{
	char *p;

	if (*used + it->len + 1 > *cap) {
		size_t ncap = *cap ? *cap * 2 : 4096;

		while (ncap < *used + it->len + 1)
			ncap *= 2;
		if (!(p = realloc(r->prev, ncap)))
			return -1;
		r->prev = p;
		*cap = ncap;
	}
	if (it->len)
		memcpy(r->prev + *used, it->path, it->len);
	r->prev[*used + it->len] = '\0';
	r->prev_at[r->nstart] = *used;
	*used += it->len + 1;
	return 0;
}

/*
 * v2/v3: the one pass, without the iterator (it is most of a --check
 * on a large index): the same bounds checks as entry_span, the flags
 * and the name's length of each entry read in place.
 */
static int walk_v2v3(aa_ixread *r)
{
	const unsigned char *map = r->map;
	size_t lim = r->size - IX_TRAILER, off = IX_HEADER, i;

	for (i = 0; i < r->count; i++) {
		size_t p = off + IX_FIXED, len;
		unsigned flags;

		if (i % IX_STEP == 0)
			r->start[r->nstart++] = (uint32_t)off;
		if (p > lim)
			return -1;
		flags = aa_ix_be16(map + p - 2);
		if (flags & IX_EXTENDED) {
			if (r->version < 3 || (p += 2) > lim)
				return -1;
			r->extended++;
		}
		if (flags & IX_STAGE_MASK)
			r->conflicts = 1;
		len = flags & IX_NAME_MASK;
		if (len == IX_NAME_MASK)
			len = strnlen((const char *)map + p, lim - p);
		if (len >= lim - p || map[p + len])
			return -1;
		off += (p - off + len + 8) & ~(size_t)7;
		if (off > lim)
			return -1;
	}
	r->end = off;
	return 0;
}

/* Every 32nd entry's start (v4: with the path before it). */
static int walk_entries(aa_ixread *r)
{
	aa_ixiter it;
	size_t n = r->count / IX_STEP + 1;
	size_t cap = 0, used = 0, next, len;
	const char *name;
	unsigned flags;
	int rc = 0;

	memset(&it, 0, sizeof(it));
	it.r = r;
	it.off = IX_HEADER;
	if (!(r->start = malloc(n * sizeof(*r->start))) ||
	    (r->version >= 4 && !(r->prev_at = malloc(n * sizeof(*r->prev_at)))))
		return -1;
	if (r->version < 4)
		return walk_v2v3(r);
	for (; it.pos < r->count; it.pos++) {
		int restart = it.pos % IX_STEP == 0;

		if (restart && r->version >= 4 && keep_restart(r, &it, &cap, &used) < 0) {
			rc = -1;
			break;
		}
		if (restart)
			r->start[r->nstart++] = (uint32_t)it.off;
		if (entry_span(&it, &flags, &name, &len, &next) < 0) {
			rc = -1;
			break;
		}
		if (flags & IX_STAGE_MASK)
			r->conflicts = 1;
		if (flags & IX_EXTENDED)
			r->extended++;
		it.off = next;
	}
	r->end = it.off;
	aa_ixiter_free(&it);
	return rc;
}

/* The extensions: libgit2's words for a mandatory one it does not know. */
static int check_extensions(const aa_ixread *r, char *why, size_t whylen)
{
	size_t off = r->end, lim = r->size - IX_TRAILER;

	while (off + 8 <= lim) {
		const unsigned char *p = r->map + off;
		size_t len = aa_ix_be32(p + 4);

		if (!(p[0] >= 'A' && p[0] <= 'Z')) {
			snprintf(why, whylen, "unsupported mandatory extension: '%.4s'",
				 (const char *)p);
			return -1;
		}
		if (len > lim - off - 8)
			break;
		off += 8 + len;
	}
	if (off != lim) {
		snprintf(why, whylen, "index extension is truncated");
		return -1;
	}
	return 0;
}

static int parse(aa_ixread *r, char *why, size_t whylen)
{
	if (r->size < IX_HEADER + IX_TRAILER || memcmp(r->map, "DIRC", 4)) {
		snprintf(why, whylen, "incorrect header signature");
		return -1;
	}
	r->version = aa_ix_be32(r->map + 4);
	if (r->version < 2 || r->version > 4) {
		snprintf(why, whylen, "unsupported index version %u", r->version);
		return -1;
	}
	r->count = aa_ix_be32(r->map + 8);
	if (r->size > UINT32_MAX) {
		snprintf(why, whylen, "the index is larger than 4 GiB");
		return -1;
	}
	if (walk_entries(r) < 0) {
		snprintf(why, whylen, errno == ENOMEM ? "out of memory" :
			 "invalid index entry (the index is damaged)");
		return -1;
	}
	memcpy(r->checksum.id, r->map + r->size - IX_TRAILER, GIT_OID_RAWSZ);
	return check_extensions(r, why, whylen);
}

int aa_ixread_open(aa_ixread **out, const char *path, char *why, size_t whylen)
{
	aa_ixread *r = calloc(1, sizeof(*r));
	struct stat st;
	int fd, rc = 0;

	*out = NULL;
	if (!r) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		*out = r; /* no index yet: empty */
		return 0;
	}
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(why, whylen, "cannot open '%s': %s", path, strerror(errno));
		rc = -1;
	} else if (st.st_size > 0) {
		r->mtime_sec = (long long)st.st_mtim.tv_sec;
		r->mtime_nsec = st.st_mtim.tv_nsec;
		r->size = (size_t)st.st_size;
		r->map = mmap(NULL, r->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (r->map == MAP_FAILED) {
			r->map = NULL;
			snprintf(why, whylen, "cannot map '%s': %s", path, strerror(errno));
			rc = -1;
		}
	}
	if (fd >= 0)
		close(fd);
	errno = 0;
	if (!rc && r->map && parse(r, why, whylen) < 0)
		rc = -1;
	if (!rc && !r->map && r->size == 0 && fd >= 0) {
		snprintf(why, whylen, "index file is empty");
		rc = -1;
	}
	if (rc < 0) {
		aa_ixread_close(r);
		return -1;
	}
	*out = r;
	return 0;
}

void aa_ixread_close(aa_ixread *r)
{
	size_t i;

	if (!r)
		return;
	if (r->map)
		munmap(r->map, r->size);
	for (i = 0; i < r->nkept; i++)
		free(r->kept[i]);
	free(r->kept);
	free(r->start);
	free(r->prev);
	free(r->prev_at);
	free(r);
}

size_t aa_ixread_count(const aa_ixread *r)
{
	return r->count;
}

unsigned aa_ixread_version(const aa_ixread *r)
{
	return r->version;
}

const unsigned char *aa_ixread_bytes(const aa_ixread *r, size_t *size)
{
	*size = r->size;
	return r->map;
}

size_t aa_ixread_entries_end(const aa_ixread *r)
{
	return r->map ? r->end : 0;
}

size_t aa_ixread_extended(const aa_ixread *r)
{
	return r->extended;
}

void aa_ixread_mtime(const aa_ixread *r, long long *sec, long *nsec)
{
	*sec = r->mtime_sec;
	*nsec = r->mtime_nsec;
}

int aa_ixread_has_conflicts(const aa_ixread *r)
{
	return r->conflicts;
}

const git_oid *aa_ixread_checksum(const aa_ixread *r)
{
	return &r->checksum;
}

/* ---- finding and walking ---- */

/* The iterator at restart point i (its entry not read yet). */
static int iter_at(aa_ixiter *it, size_t i)
{
	const aa_ixread *r = it->r;

	it->pos = i * IX_STEP;
	it->off = r->start[i];
	it->len = 0;
	if (r->version >= 4) {
		const char *prev = r->prev + r->prev_at[i];

		it->len = strlen(prev);
		if (grow_path(it, it->len + 1) < 0)
			return -1;
		memcpy(it->path, prev, it->len + 1);
	}
	return 0;
}

/* Compares restart point i's entry with (path, stage). */
static int restart_cmp(aa_ixiter *it, size_t i, const char *path,
		       size_t plen, unsigned stage)
{
	const char *name;
	size_t len, next;
	unsigned flags;

	if (iter_at(it, i) < 0 || entry_span(it, &flags, &name, &len, &next) < 0)
		return 0; /* checked by the pass: cannot happen but for memory */
	return entry_cmp(name, len, (flags & IX_STAGE_MASK) >> 12,
			 path, plen, stage);
}

/*
 * Positions it on the first entry >= (path, stage), read into it->cur
 * and pending: binary search over the restart points, then steps.
 */
static int iter_seek(aa_ixiter *it, const char *path, unsigned stage)
{
	const aa_ixread *r = it->r;
	size_t lo = 0, hi = r->nstart, plen = strlen(path);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (restart_cmp(it, mid, path, plen, stage) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	it->pending = 0;
	if (r->nstart == 0) {
		it->pos = r->count;
		return 0;
	}
	if (iter_at(it, lo ? lo - 1 : 0) < 0)
		return -1;
	while (aa_ixiter_next(it, &it->cur) > 0) {
		if (entry_cmp(it->cur.path, strlen(it->cur.path),
			      (unsigned)git_index_entry_stage(&it->cur), path, plen, stage) >= 0) {
			it->pending = 1;
			break;
		}
	}
	return 0;
}

int aa_ixiter_start(aa_ixiter *it, aa_ixread *r, const char *prefix)
{
	memset(it, 0, sizeof(*it));
	it->r = r;
	if (!r->map) {
		it->pos = r->count;
		return 0;
	}
	if (!prefix || !*prefix) {
		it->off = IX_HEADER;
		return 0;
	}
	return iter_seek(it, prefix, 0);
}

int aa_ixiter_next(aa_ixiter *it, git_index_entry *out)
{
	const char *name;
	size_t len, next;
	unsigned flags;

	if (it->pending) {
		it->pending = 0;
		if (out != &it->cur)
			*out = it->cur;
		return 1;
	}
	if (it->pos >= it->r->count ||
	    entry_span(it, &flags, &name, &len, &next) < 0)
		return 0;
	fill_entry(it->r, it->off, flags, name, out);
	it->off = next;
	it->pos++;
	return 1;
}

void aa_ixiter_free(aa_ixiter *it)
{
	free(it->path);
	it->path = NULL;
	it->cap = it->len = 0;
}

static const char *keep_path(aa_ixread *r, const char *path)
{
	char *copy;

	if (r->version < 4)
		return path; /* in the mapping */
	if (r->nkept == r->capkept) {
		size_t cap = r->capkept ? r->capkept * 2 : 8;
		char **v = realloc(r->kept, cap * sizeof(*v));

		if (!v)
			return NULL;
		r->kept = v;
		r->capkept = cap;
	}
	if (!(copy = strdup(path)))
		return NULL;
	r->kept[r->nkept++] = copy;
	return copy;
}

int aa_ixread_get(aa_ixread *r, const char *path, int stage,
		  git_index_entry *out)
{
	aa_ixiter it;
	int found = 0;

	if (aa_ixiter_start(&it, r, NULL) < 0 || !r->map)
		return 0;
	if (iter_seek(&it, path, (unsigned)stage) == 0 && it.pending &&
	    !strcmp(it.cur.path, path) &&
	    git_index_entry_stage(&it.cur) == stage) {
		*out = it.cur;
		found = (out->path = keep_path(r, it.cur.path)) != NULL;
	}
	aa_ixiter_free(&it);
	return found;
}

/* ---- the session's index: the reader's ---- */

int aa_index_get(const aa_session *s, const char *path, int stage,
		 git_index_entry *out)
{
	const git_index_entry *e;

	if (s->ixr)
		return aa_ixread_get(s->ixr, path, stage, out);
	if (!s->index || !(e = git_index_get_bypath(s->index, path, stage)))
		return 0;
	*out = *e;
	return 1;
}

int aa_index_present(const aa_session *s)
{
	return s->index || s->ixr;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A path the landing changes (base->touched, sorted: land/index_write.h). */
static int is_touched(const aa_base *b, const char *path)
{
	return b->ntouched &&
	       bsearch(&path, b->touched, b->ntouched, sizeof(*b->touched), str_cmp);
}

/* One directory's .gitattributes from the reader into the attribute index. */
static int attrs_of_dir(aa_session *s, git_index *ix, const char *path,
			size_t dirlen, aa_buf *name)
{
	git_index_entry e;

	aa_buf_clear(name);
	if (aa_buf_printf(name, "%.*s%s.gitattributes", (int)dirlen, path,
			  dirlen ? "/" : "") < 0)
		return -1;
	/* a touched one is kept as the landing has it (land.c, load_touched) */
	if (is_touched(s->base, name->ptr) ||
	    git_index_get_bypath(ix, name->ptr, 0) ||
	    !aa_ixread_get(s->ixr, name->ptr, 0, &e))
		return 0;
	return git_index_add(ix, &e);
}

/*
 * The path's own entry from the reader into the attribute index:
 * libgit2's CRLF filter asks the repository's index whether the blob
 * there has CRs (text=auto leaves such a file alone, as git's
 * has_crlf_in_index does). git_index_add wants the blob in the object
 * database; without it (a partial clone, a blob not fetched) the filter
 * could not read it either, so the entry is left out, as before.
 */
static int entry_of_path(aa_session *s, git_index *ix, const char *path)
{
	git_index_entry e;

	if (git_index_get_bypath(ix, path, 0) || !aa_ixread_get(s->ixr, path, 0, &e))
		return 0;
	if (git_index_add(ix, &e) < 0)
		git_error_clear();
	return 0;
}

int aa_index_attrs_for(aa_session *s, const char *path)
{
	aa_buf name = AA_BUF_INIT;
	const char *slash;
	int r = 0;

	if (!s->ixr || !s->base->attr_index)
		return 0;
	r = attrs_of_dir(s, s->base->attr_index, path, 0, &name);
	for (slash = strchr(path, '/'); !r && slash; slash = strchr(slash + 1, '/'))
		r = attrs_of_dir(s, s->base->attr_index, path,
				 (size_t)(slash - path), &name);
	if (!r)
		r = entry_of_path(s, s->base->attr_index, path);
	aa_buf_free(&name);
	return r < 0 ? -1 : 0;
}
