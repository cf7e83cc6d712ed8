/*
 * The history search's pack reader (history_pack.h): pack index v2
 * lookups, entries inflated with zlib, deltas applied with the binary
 * patch engine's aa_delta_apply(), the objects made kept in a cache by
 * pack and offset. Every length and offset read from a file is checked;
 * what does not check out is left to libgit2 (1), never an error.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "plan/history_pack.h"
#include "plan/history_filter.h"
#include "edit/edit.h"
#include "util/util.h"

/*
 * Bytes of made objects and of delta instructions kept (least recently
 * used out); a delta version itself is never made unless asked for.
 */
#define HP_CACHE_BYTES (32u * 1024 * 1024)
/* A longer delta chain is left to libgit2 (git's default depth is 50). */
#define HP_MAX_DEPTH   128
/* A needle's places kept per object; past this only "many". */
#define HP_OCC_CAP     64

/*
 * Room a buffer keeps past an object's size for inflate_to(): zlib
 * decodes with its fast loop only while 258 bytes of output room are
 * left, so a small object (a commit, a tree, a delta) inflated into
 * exactly its size went the slow way for every byte.
 */
#define HP_INFLATE_SLACK 512

enum { OBJ_BLOB = 3, OBJ_OFS_DELTA = 6, OBJ_REF_DELTA = 7 };

typedef struct hp_file {
	unsigned char *p;
	size_t len;
} hp_file;

typedef struct hp_pack {
	hp_file idx, pack;
	uint32_t n;               /* objects in the pack */
} hp_pack;

/*
 * An object met: a whole one (its bytes made when needed), or a delta
 * over `base` (its instructions; its bytes read through them).
 */
typedef struct hp_obj {
	struct aa_hpack *hp;
	size_t pack;
	uint64_t off;
	int type;                 /* a delta's is its base's */
	size_t len;
	struct hp_obj *base;      /* a delta's base, else NULL */
	char *data;               /* the bytes, when made */
	unsigned char *delta;     /* a delta's inflated instructions, when loaded */
	aa_delta_op *ops;
	size_t nops;
	size_t held;              /* bytes of data, delta and ops held */
	aa_occ *occ;              /* per needle (hp->nneedles) ... */
	unsigned char *known;     /* ... when known */
	unsigned long used;       /* the tick of its last use (LRU) */
} hp_obj;

struct aa_hpack {
	hp_pack *packs;
	size_t npacks, cappacks;
	hp_obj **objs;
	size_t nobjs, capobjs;
	hp_obj **slot;            /* objs by pack and offset (open addressing) */
	size_t nslots;
	z_stream z;               /* reset for each object */
	int z_ready;
	size_t kept;              /* bytes of data and deltas held */
	unsigned long tick;
	aa_buf out;               /* the delta version last made for a caller */
	const aa_version_filter *filter;
	size_t nneedles;          /* "\r", then filter->lf, then filter->cr */
	size_t last_failed;
};

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static int map_file(const char *path, hp_file *f)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	f->p = NULL;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_size < 32) {
		close(fd);
		return -1;
	}
	f->len = (size_t)st.st_size;
	f->p = mmap(NULL, f->len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (f->p == MAP_FAILED) {
		f->p = NULL;
		return -1;
	}
	return 0;
}

static void unmap_file(hp_file *f)
{
	if (f->p)
		munmap(f->p, f->len);
	f->p = NULL;
}

/* A version 2 index whose tables fit its size, and its pack. */
static int pack_valid(hp_pack *pk)
{
	const unsigned char *ix = pk->idx.p;
	uint32_t n;

	if (memcmp(ix, "\377tOc", 4) || be32(ix + 4) != 2 || pk->idx.len < 8 + 1024 ||
	    memcmp(pk->pack.p, "PACK", 4))
		return 0;
	n = be32(ix + 8 + 255 * 4);
	/* names, crcs and 32-bit offsets, then the trailer's two ids */
	if ((uint64_t)8 + 1024 + (uint64_t)n * 28 + 40 > pk->idx.len)
		return 0;
	pk->n = n;
	return 1;
}

static int add_pack(aa_hpack *hp, const char *dir, const char *name)
{
	aa_buf path = AA_BUF_INIT;
	hp_pack pk;
	size_t stem = strlen(name) - 4;
	int ok;

	memset(&pk, 0, sizeof(pk));
	ok = aa_buf_printf(&path, "%s%s", dir, name) == 0 &&
	     map_file(path.ptr, &pk.idx) == 0;
	aa_buf_clear(&path);
	ok = ok && aa_buf_printf(&path, "%s%.*s.pack", dir, (int)stem, name) == 0 &&
	     map_file(path.ptr, &pk.pack) == 0 && pack_valid(&pk) &&
	     AA_GROW(hp->packs, hp->npacks, hp->cappacks) == 0;
	aa_buf_free(&path);
	if (!ok) {
		unmap_file(&pk.idx);
		unmap_file(&pk.pack);
		return 0;
	}
	hp->packs[hp->npacks++] = pk;
	return 0;
}

aa_hpack *aa_hpack_open(git_repository *repo)
{
	aa_hpack *hp = calloc(1, sizeof(*hp));
	aa_buf dir = AA_BUF_INIT;
	struct dirent *de;
	DIR *d;

	if (!hp || aa_buf_printf(&dir, "%sobjects/pack/", git_repository_commondir(repo)) < 0 ||
	    !(d = opendir(dir.ptr))) {
		aa_buf_free(&dir);
		free(hp);
		return NULL;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l > 4 && !strcmp(de->d_name + l - 4, ".idx"))
			add_pack(hp, dir.ptr, de->d_name);
	}
	closedir(d);
	aa_buf_free(&dir);
	return hp;
}

/* Drops what an object holds that can be made again. */
static void obj_drop(aa_hpack *hp, hp_obj *o)
{
	hp->kept -= o->held;
	o->held = 0;
	free(o->data);
	free(o->delta);
	free(o->ops);
	o->data = NULL;
	o->delta = NULL;
	o->ops = NULL;
}

static void obj_free(aa_hpack *hp, hp_obj *o)
{
	size_t i;

	obj_drop(hp, o);
	for (i = 0; o->occ && i < hp->nneedles; i++)
		aa_occ_free(&o->occ[i]);
	free(o->occ);
	free(o->known);
	free(o);
}

void aa_hpack_close(aa_hpack *hp)
{
	size_t i;

	if (!hp)
		return;
	for (i = 0; i < hp->npacks; i++) {
		unmap_file(&hp->packs[i].idx);
		unmap_file(&hp->packs[i].pack);
	}
	for (i = 0; i < hp->nobjs; i++)
		obj_free(hp, hp->objs[i]);
	free(hp->objs);
	free(hp->slot);
	if (hp->z_ready)
		inflateEnd(&hp->z);
	aa_buf_free(&hp->out);
	free(hp->packs);
	free(hp);
}

/* The offset of `id` in pack pk: 0 found, 1 not there. */
static int find_in_pack(const hp_pack *pk, const unsigned char *id, uint64_t *off)
{
	const unsigned char *ix = pk->idx.p, *names = ix + 8 + 1024;
	uint32_t lo = id[0] ? be32(ix + 8 + (id[0] - 1) * 4) : 0;
	uint32_t hi = be32(ix + 8 + id[0] * 4);

	if (hi > pk->n || lo > hi)
		return 1;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = memcmp(names + (size_t)mid * 20, id, 20);

		if (!c) {
			const unsigned char *o32 = names + (size_t)pk->n * 24;
			uint32_t o = be32(o32 + (size_t)mid * 4);
			const unsigned char *o64;

			if (!(o & 0x80000000u)) {
				*off = o;
				return 0;
			}
			o64 = o32 + (size_t)pk->n * 4 + (size_t)(o & 0x7fffffffu) * 8;
			if (o64 + 8 > ix + pk->idx.len - 40)
				return 1;
			*off = (uint64_t)be32(o64) << 32 | be32(o64 + 4);
			return 0;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 1;
}

/* An entry's header: type, size, and where its data (or base) starts. */
typedef struct hp_entry {
	int type;
	uint64_t size;
	size_t at;
} hp_entry;

static int entry_header(const hp_file *f, uint64_t off, hp_entry *e)
{
	size_t i = (size_t)off;
	unsigned shift = 4;
	unsigned char c;

	if (off < 12 || off >= f->len - 20)
		return -1;
	c = f->p[i++];
	e->type = (c >> 4) & 7;
	e->size = c & 15;
	while (c & 0x80) {
		if (i >= f->len - 20 || shift > 57)
			return -1;
		c = f->p[i++];
		e->size |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	}
	e->at = i;
	return e->size > UINT32_MAX - 2 * HP_INFLATE_SLACK ? -1 : 0;
}

/*
 * The zlib stream at e->at, inflated to exactly e->size bytes into buf
 * (HP_INFLATE_SLACK bytes more of room: a longer stream shows there).
 * One stream, reset for each object: a history walk inflates thousands
 * of small commits and trees, and setting a stream up costs more than
 * those.
 */
static int inflate_to(aa_hpack *hp, const hp_file *f, const hp_entry *e,
		      unsigned char *buf)
{
	size_t avail;
	int st;

	if (e->at >= f->len - 20)
		return -1;
	avail = f->len - 20 - e->at;
	if (avail > UINT32_MAX - 1)
		avail = UINT32_MAX - 1;
	if (!hp->z_ready) {
		memset(&hp->z, 0, sizeof(hp->z));
		if (inflateInit(&hp->z) != Z_OK)
			return -1;
		hp->z_ready = 1;
	} else if (inflateReset(&hp->z) != Z_OK) {
		return -1;
	}
	hp->z.next_in = f->p + e->at;
	hp->z.avail_in = (uInt)avail;
	hp->z.next_out = buf;
	hp->z.avail_out = (uInt)e->size + HP_INFLATE_SLACK;
	st = inflate(&hp->z, Z_FINISH);
	return st == Z_STREAM_END && hp->z.total_out == e->size ? 0 : -1;
}

static char *inflate_at(aa_hpack *hp, const hp_file *f, const hp_entry *e)
{
	unsigned char *buf = malloc((size_t)e->size + HP_INFLATE_SLACK);

	if (buf && inflate_to(hp, f, e, buf) < 0) {
		free(buf);
		buf = NULL;
	}
	return (char *)buf;
}

/* A delta entry's base: its offset in the same pack or in another. */
static int delta_base(aa_hpack *hp, size_t pack, uint64_t off, hp_entry *e,
		      size_t *bpack, uint64_t *boff)
{
	const hp_file *f = &hp->packs[pack].pack;
	size_t i;

	if (e->type == OBJ_OFS_DELTA) {
		uint64_t back;
		unsigned char c;

		if (e->at >= f->len - 20)
			return -1;
		c = f->p[e->at++];
		back = c & 127;
		while (c & 128) {
			if (e->at >= f->len - 20 || back > (UINT64_MAX >> 8))
				return -1;
			c = f->p[e->at++];
			back = ((back + 1) << 7) | (c & 127);
		}
		if (back == 0 || back > off)
			return -1;
		*bpack = pack;
		*boff = off - back;
		return 0;
	}
	if (e->at + 20 > f->len - 20)
		return -1;
	for (i = 0; i < hp->npacks; i++) {
		size_t k = (pack + i) % hp->npacks;

		if (find_in_pack(&hp->packs[k], f->p + e->at, boff) == 0) {
			*bpack = k;
			e->at += 20;
			return 0;
		}
	}
	return -1;
}


/* Counts what an object now holds (data, delta) against the budget. */
static void obj_hold(aa_hpack *hp, hp_obj *o, size_t bytes)
{
	o->held += bytes;
	hp->kept += bytes;
}

/*
 * Keeps the budget, the least recently used first. Only between calls:
 * while a version is read, the objects of its chain stay.
 */
static void trim(aa_hpack *hp)
{
	while (hp->kept > HP_CACHE_BYTES) {
		hp_obj *old = NULL;
		size_t i;

		for (i = 0; i < hp->nobjs; i++)
			if (hp->objs[i]->held && (!old || hp->objs[i]->used < old->used))
				old = hp->objs[i];
		if (!old)
			return;
		obj_drop(hp, old);
	}
}

static size_t slot_of(const aa_hpack *hp, size_t pack, uint64_t off)
{
	uint64_t h = (off ^ ((uint64_t)pack << 48)) * 0x9e3779b97f4a7c15ull;
	size_t s = (size_t)(h >> 20) & (hp->nslots - 1);

	while (hp->slot[s] && (hp->slot[s]->pack != pack || hp->slot[s]->off != off))
		s = (s + 1) & (hp->nslots - 1);
	return s;
}

static hp_obj *obj_find(aa_hpack *hp, size_t pack, uint64_t off)
{
	return hp->nslots ? hp->slot[slot_of(hp, pack, off)] : NULL;
}

/* Adds o to objs and to the slots (kept at most half full). */
static int obj_add(aa_hpack *hp, hp_obj *o)
{
	size_t i;

	if (AA_GROW(hp->objs, hp->nobjs, hp->capobjs) < 0)
		return -1;
	if ((hp->nobjs + 1) * 2 > hp->nslots) {
		size_t n = hp->nslots ? hp->nslots * 2 : 256;
		hp_obj **v = calloc(n, sizeof(*v));

		if (!v)
			return -1;
		free(hp->slot);
		hp->slot = v;
		hp->nslots = n;
		for (i = 0; i < hp->nobjs; i++)
			hp->slot[slot_of(hp, hp->objs[i]->pack, hp->objs[i]->off)] = hp->objs[i];
	}
	hp->objs[hp->nobjs++] = o;
	hp->slot[slot_of(hp, o->pack, o->off)] = o;
	return 0;
}

/*
 * A delta's instructions, loaded (again, after the budget dropped
 * them): the entry inflated and read against its base's size.
 */
static int obj_ops(hp_obj *o)
{
	aa_hpack *hp = o->hp;
	const hp_file *f = &hp->packs[o->pack].pack;
	size_t bpack, n, len;
	uint64_t boff;
	hp_entry e;

	if (o->ops)
		return 0;
	if (entry_header(f, o->off, &e) < 0 ||
	    delta_base(hp, o->pack, o->off, &e, &bpack, &boff) < 0 ||
	    !(o->delta = (unsigned char *)inflate_at(hp, f, &e)))
		return -1;
	if (aa_delta_ops_parse(o->delta, (size_t)e.size, o->base->len, &o->ops, &n,
			       &len) < 0 || len > AA_MAX_TEXT_SIZE * 4u) {
		free(o->delta);
		o->delta = NULL;
		return -1;
	}
	o->nops = n;
	o->len = len;
	obj_hold(hp, o, (size_t)e.size + n * sizeof(*o->ops));
	return 0;
}

/* A whole object's bytes, made. */
static int obj_data(hp_obj *o)
{
	hp_entry e;

	if (o->data)
		return 0;
	if (entry_header(&o->hp->packs[o->pack].pack, o->off, &e) < 0 ||
	    !(o->data = inflate_at(o->hp, &o->hp->packs[o->pack].pack, &e)))
		return -1;
	obj_hold(o->hp, o, o->len);
	return 0;
}

/* The object at (pack, off), met before or now; NULL when it cannot be. */
static hp_obj *obj_get(aa_hpack *hp, size_t pack, uint64_t off, unsigned depth)
{
	const hp_file *f = &hp->packs[pack].pack;
	hp_obj *o = obj_find(hp, pack, off), *base = NULL;
	size_t bpack;
	uint64_t boff;
	hp_entry e;

	if (o) {
		o->used = ++hp->tick;
		return o;
	}
	if (depth > HP_MAX_DEPTH || entry_header(f, off, &e) < 0 || e.type == 0 || e.type == 5)
		return NULL;
	if (e.type >= OBJ_OFS_DELTA &&
	    (delta_base(hp, pack, off, &e, &bpack, &boff) < 0 ||
	     !(base = obj_get(hp, bpack, boff, depth + 1))))
		return NULL;
	if (!(o = calloc(1, sizeof(*o))))
		return NULL;
	o->hp = hp;
	o->pack = pack;
	o->off = off;
	o->base = base;
	o->type = base ? base->type : e.type;
	o->len = (size_t)e.size;
	o->used = ++hp->tick;
	if ((base && obj_ops(o) < 0) || obj_add(hp, o) < 0) {
		obj_drop(hp, o);
		free(o);
		return NULL;
	}
	return o;
}

/* aa_range_fn over an object: its bytes [a, b) appended to out. */
static int obj_read(void *ctx, uint64_t a, uint64_t b, aa_buf *out)
{
	hp_obj *o = ctx;

	o->used = ++o->hp->tick;
	if (a > b || b > o->len)
		return -1;
	if (!o->base && obj_data(o) < 0)
		return -1;
	if (o->data)
		return aa_buf_put(out, o->data + a, (size_t)(b - a));
	if (obj_ops(o) < 0)
		return -1;
	return aa_delta_read(o->ops, o->nops, a, b, obj_read, o->base, out);
}

/* A delta object's bytes, made and kept (its base's places were "many"). */
static int obj_make(hp_obj *o)
{
	aa_buf b = AA_BUF_INIT;

	if (o->data || !o->base)
		return obj_data(o);
	if (aa_buf_grow(&b, o->len + 1) < 0 || obj_read(o, 0, o->len, &b) < 0) {
		aa_buf_free(&b);
		return -1;
	}
	o->data = aa_buf_detach(&b);
	obj_hold(o->hp, o, o->len);
	return 0;
}

static aa_needle needle(const aa_hpack *hp, size_t i)
{
	static const aa_needle cr = { "\r", 1 };
	size_t n = hp->filter->n;

	return !i ? cr : i <= n ? hp->filter->lf[i - 1] : hp->filter->cr[i - n - 1];
}

/*
 * Where needle i occurs in object o: from its bytes when whole (or when
 * its base's places were too many to carry), else carried through its
 * delta from its base's. NULL on error.
 */
static const aa_occ *obj_occ(hp_obj *o, size_t i)
{
	aa_hpack *hp = o->hp;
	aa_needle nd = needle(hp, i);
	const aa_occ *b = NULL;

	if ((!o->occ && !(o->occ = calloc(hp->nneedles, sizeof(*o->occ)))) ||
	    (!o->known && !(o->known = calloc(hp->nneedles, 1))))
		return NULL;
	if (o->known[i])
		return &o->occ[i];
	if (o->base && !o->data && !(b = obj_occ(o->base, i)))
		return NULL;
	o->used = ++hp->tick;
	if (b && !b->many) {
		if (obj_ops(o) < 0 ||
		    aa_occ_through_delta(b, o->ops, o->nops, o->len, nd.s, nd.len,
					 obj_read, o->base, HP_OCC_CAP, &o->occ[i]) < 0)
			return NULL;
	} else if (obj_make(o) < 0 ||
		   aa_occ_scan(o->data, o->len, nd.s, nd.len, HP_OCC_CAP, &o->occ[i]) < 0) {
		return NULL;
	}
	o->known[i] = 1;
	return &o->occ[i];
}

/* The filter's rule (aa_filter_holds) on an object's places: 1, 0, -1. */
static int obj_holds(hp_obj *o)
{
	aa_hpack *hp = o->hp;
	const aa_occ *cr = obj_occ(o, 0), *oc;
	size_t n = hp->filter->n, first, j;

	if (!cr)
		return -1;
	first = cr->many || cr->n ? n + 1 : 1;
	for (j = 0; j < n; j++) {
		size_t i = (hp->last_failed + j) % n;

		if (!needle(hp, first + i).len)
			continue;
		if (!(oc = obj_occ(o, first + i)))
			return -1;
		if (!oc->many && !oc->n) {
			hp->last_failed = i;
			return 0;
		}
	}
	return 1;
}

/* The object `id` as an object of this reader, or NULL. */
static hp_obj *find_obj(aa_hpack *hp, const git_oid *id)
{
	size_t i;

	for (i = 0; hp && i < hp->npacks; i++) {
		uint64_t off;

		if (!find_in_pack(&hp->packs[i], id->id, &off))
			return obj_get(hp, i, off, 0);
	}
	return NULL;
}

int aa_hpack_holds(aa_hpack *hp, const git_oid *id, const aa_version_filter *f)
{
	hp_obj *o;

	if (!hp || !f || (hp->filter && hp->filter != f))
		return -1;
	if (!hp->filter) {
		hp->filter = f;
		hp->nneedles = 2 * f->n + 1;
	}
	trim(hp);
	o = find_obj(hp, id);
	return o && o->type == OBJ_BLOB ? obj_holds(o) : -1;
}

/*
 * An object's bytes: kept ones as they are; a whole blob made and kept
 * (the base of the versions after it); anything else made into the one
 * buffer of the reader, grown once, not allocated anew each time.
 */
static int obj_bytes(aa_hpack *hp, hp_obj *o, const char **data, size_t *len)
{
	hp_entry e;

	if (!o->data && !o->base && o->type == OBJ_BLOB && obj_data(o) < 0)
		return 1;
	if (o->data) {
		*data = o->data;
		*len = o->len;
		return 0;
	}
	aa_buf_clear(&hp->out);
	if (aa_buf_grow(&hp->out, o->len + HP_INFLATE_SLACK) < 0)
		return 1;
	if (o->base) {
		if (obj_read(o, 0, o->len, &hp->out) < 0)
			return 1;
	} else if (entry_header(&hp->packs[o->pack].pack, o->off, &e) < 0 ||
		   inflate_to(hp, &hp->packs[o->pack].pack, &e,
			      (unsigned char *)hp->out.ptr) < 0) {
		return 1;
	} else {
		hp->out.len = o->len;
		hp->out.ptr[o->len] = '\0';
	}
	*data = hp->out.ptr;
	*len = hp->out.len;
	return 0;
}

int aa_hpack_read(aa_hpack *hp, const git_oid *id, const char **data,
		  size_t *len)
{
	hp_obj *o;

	if (!hp)
		return 1;
	trim(hp);
	o = find_obj(hp, id);
	return o && o->type == OBJ_BLOB ? obj_bytes(hp, o, data, len) : 1;
}

int aa_hpack_object(aa_hpack *hp, const git_oid *id, int *type,
		    const char **data, size_t *len)
{
	hp_obj *o;

	if (!hp)
		return 1;
	trim(hp);
	if (!(o = find_obj(hp, id)))
		return 1;
	*type = o->type;
	return obj_bytes(hp, o, data, len);
}
