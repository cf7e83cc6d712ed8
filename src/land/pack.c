/*
 * Writing one pack and its index (src/land/pack.h): trees as deltas
 * against their older version, zlib at the level asked (level 0: stored
 * blocks written here), ids sorted for the index, SHA-1 trailers by
 * OpenSSL (libgit2 exposes no raw SHA-1).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <openssl/evp.h>
#include <git2/sys/odb_backend.h>

#include "land/pack.h"
#include "land/journal.h"
#include "land/loose.h"
#include "util/testhook.h"
#include "util/util.h"

/*
 * SHA-1 for the pack's and the index's trailers: OpenSSL's, as for the
 * index (src/land/index_write.c), which uses the processor's SHA
 * instructions where it has them (mbedTLS's took 7% of a 100-suggestion
 * --each). A checksum of our own bytes, not an object id: git too
 * checksums with a SHA-1 that does not detect collisions. libgit2
 * exposes no raw SHA-1 (git_odb_hash adds an object header).
 */
static int sha1_buf(const void *data, size_t len, unsigned char out[20])
{
	unsigned int n = 0;

	return EVP_Digest(data, len, out, &n, EVP_sha1(), NULL) == 1 && n == 20 ?
	       0 : -1;
}

/* ---- the pack ---- */

static int put_be32(aa_buf *b, uint32_t v)
{
	unsigned char x[4] = { (unsigned char)(v >> 24), (unsigned char)(v >> 16),
			       (unsigned char)(v >> 8), (unsigned char)v };

	return aa_buf_put(b, (const char *)x, 4);
}

/* The entry header: type and size, 4 bits then 7 a byte. */
static int put_entry_header(aa_buf *b, git_object_t type, size_t size)
{
	unsigned char h[16];
	size_t n = 0;

	h[n] = (unsigned char)((type << 4) | (size & 15));
	size >>= 4;
	while (size) {
		h[n++] |= 0x80;
		h[n] = size & 0x7f;
		size >>= 7;
	}
	return aa_buf_put(b, (const char *)h, n + 1);
}

/*
 * A zlib stream of stored blocks (RFC 1950/1951: the header of level 0,
 * blocks of at most 65,535 bytes, the Adler-32 of the data), written
 * directly: at level 0, deflate() gives these same kinds of blocks, but
 * each deflateReset() clears its 128 KiB match table, 16% of a
 * 100-suggestion --each for nothing.
 */
static int put_stored(aa_buf *b, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t blocks = len / 65535 + 1, at = 0;
	unsigned char *o;
	uLong sum = adler32(adler32(0L, Z_NULL, 0), Z_NULL, 0);

	if (aa_buf_grow(b, 2 + 5 * blocks + len + 4) < 0)
		return -1;
	o = (unsigned char *)b->ptr + b->len;
	*o++ = 0x78;
	*o++ = 0x01;
	do {
		size_t run = len - at < 65535 ? len - at : 65535;

		*o++ = at + run == len; /* BFINAL on the last, BTYPE 00 */
		*o++ = run & 0xff;
		*o++ = (run >> 8) & 0xff;
		*o++ = ~run & 0xff;
		*o++ = (~run >> 8) & 0xff;
		memcpy(o, p + at, run);
		/* adler32 takes a uInt: at most 65,535 bytes here */
		sum = adler32(sum, p + at, (uInt)run);
		o += run;
		at += run;
	} while (at < len);
	*o++ = (unsigned char)(sum >> 24);
	*o++ = (unsigned char)(sum >> 16);
	*o++ = (unsigned char)(sum >> 8);
	*o++ = (unsigned char)sum;
	b->len = (size_t)(o - (unsigned char *)b->ptr);
	return 0;
}

/* One zlib stream for the whole pack, reset per object; NULL: stored. */
static int put_deflated(z_stream *zs, aa_buf *b, const void *data, size_t len)
{
	uLong bound;
	int zr;

	if (!zs)
		return put_stored(b, data, len);
	bound = deflateBound(zs, (uLong)len);
	if ((size_t)(uLong)len != len || (size_t)(uInt)bound != bound ||
	    deflateReset(zs) != Z_OK || aa_buf_grow(b, bound + 1) < 0)
		return -1;
	zs->next_in = (Bytef *)data;
	zs->avail_in = (uInt)len;
	zs->next_out = (Bytef *)b->ptr + b->len;
	zs->avail_out = (uInt)bound;
	zr = deflate(zs, Z_FINISH);
	b->len += bound - zs->avail_out;
	return zr == Z_STREAM_END ? 0 : -1;
}

/* ---- tree deltas ---- */

/* One entry of a raw tree: "<mode> <name>\0<20-byte id>". */
typedef struct tree_ent {
	const unsigned char *p;
	size_t len;           /* the whole entry */
	const unsigned char *name;
	size_t name_len;
	int is_dir;
} tree_ent;

/* Splits a raw tree into entries; -1 when it is not one. */
static int split_tree(const unsigned char *p, size_t len, tree_ent **out,
		      size_t *n)
{
	size_t cap = len / 24 + 1, k = 0, at = 0;
	tree_ent *v = malloc(cap * sizeof(*v));

	if (!v)
		return -1;
	while (at < len) {
		const unsigned char *sp = memchr(p + at, ' ', len - at), *nul;

		nul = sp ? memchr(sp, '\0', len - (size_t)(sp - p)) : NULL;
		if (!nul || (size_t)(nul - p) + 21 > len || k == cap) {
			free(v);
			return -1;
		}
		v[k].p = p + at;
		v[k].name = sp + 1;
		v[k].name_len = (size_t)(nul - sp - 1);
		v[k].is_dir = (size_t)(sp - (p + at)) == 5 && !memcmp(p + at, "40000", 5);
		v[k].len = (size_t)(nul - (p + at)) + 21;
		at += v[k].len;
		k++;
	}
	*out = v;
	*n = k;
	return 0;
}

/* git's order of tree entries: a directory's name sorts as "name/". */
static int tree_order(const tree_ent *a, const tree_ent *b)
{
	size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
	int c = memcmp(a->name, b->name, n);
	unsigned ca, cb;

	if (c)
		return c;
	ca = n < a->name_len ? a->name[n] : a->is_dir ? '/' : 0;
	cb = n < b->name_len ? b->name[n] : b->is_dir ? '/' : 0;
	return ca < cb ? -1 : ca > cb;
}

static int put_varint(aa_buf *b, size_t v)
{
	unsigned char x[10];
	size_t n = 0;

	do {
		x[n] = v & 0x7f;
		v >>= 7;
		if (v)
			x[n] |= 0x80;
		n++;
	} while (v);
	return aa_buf_put(b, (const char *)x, n);
}

/* Copy base[off, off + len) (split in runs of at most 0xffffff). */
static int put_copy(aa_buf *b, size_t off, size_t len)
{
	while (len) {
		size_t run = len < 0xffffff ? len : 0xffffff;
		unsigned char x[8];
		size_t n = 1;
		int i;

		x[0] = 0x80;
		for (i = 0; i < 4; i++)
			if ((off >> (8 * i)) & 0xff) {
				x[0] |= (unsigned char)(1 << i);
				x[n++] = (off >> (8 * i)) & 0xff;
			}
		for (i = 0; i < 3; i++)
			if ((run >> (8 * i)) & 0xff) {
				x[0] |= (unsigned char)(0x10 << i);
				x[n++] = (run >> (8 * i)) & 0xff;
			}
		if (aa_buf_put(b, (const char *)x, n) < 0)
			return -1;
		off += run;
		len -= run;
	}
	return 0;
}

/* Insert p[0..len) literally (in runs of at most 127). */
static int put_insert(aa_buf *b, const unsigned char *p, size_t len)
{
	while (len) {
		size_t run = len < 127 ? len : 127;
		char op = (char)run;

		if (aa_buf_put(b, &op, 1) < 0 ||
		    aa_buf_put(b, (const char *)p, run) < 0)
			return -1;
		p += run;
		len -= run;
	}
	return 0;
}

/*
 * The delta turning tree `base` (its entries bv[0..nb), split once for
 * every tree stored against it) into tree `target`: entries both hold
 * byte for byte are copied, runs of them in one copy; every other
 * target entry is inserted. Walking both in tree order keeps it short;
 * it is correct for any input, since each target entry is emitted once,
 * in order. 0, or -1 when the target is not a tree or memory ran out.
 */
static int tree_delta(const unsigned char *base, size_t base_len,
		      const tree_ent *bv, size_t nb,
		      const unsigned char *target, size_t target_len,
		      aa_buf *out)
{
	tree_ent *tv = NULL;
	size_t nt = 0, i = 0, j = 0, copy_off = 0, copy_len = 0;
	int r = -1;

	if (split_tree(target, target_len, &tv, &nt) < 0 ||
	    put_varint(out, base_len) < 0 || put_varint(out, target_len) < 0)
		goto done;
	for (j = 0; j < nt; j++) {
		int c = 1;

		while (i < nb && (c = tree_order(&bv[i], &tv[j])) < 0)
			i++;
		if (i < nb && !c && bv[i].len == tv[j].len &&
		    !memcmp(bv[i].p, tv[j].p, tv[j].len)) {
			size_t off = (size_t)(bv[i].p - base);

			if (copy_len && copy_off + copy_len == off) {
				copy_len += tv[j].len;
			} else {
				if (copy_len && put_copy(out, copy_off, copy_len) < 0)
					goto done;
				copy_off = off;
				copy_len = tv[j].len;
			}
			i++;
			continue;
		}
		if (copy_len && put_copy(out, copy_off, copy_len) < 0)
			goto done;
		copy_len = 0;
		if (put_insert(out, tv[j].p, tv[j].len) < 0)
			goto done;
	}
	if (copy_len && put_copy(out, copy_off, copy_len) < 0)
		goto done;
	r = 0;
done:
	free(tv);
	return r;
}

/* ---- the pack ---- */

/* One object of the pack. */
typedef struct pack_ent {
	git_oid id;
	git_oid base;      /* as given; then the base it is stored against */
	int has_base;
	uint64_t offset;
	uint32_t crc;
} pack_ent;

static int cmp_ent(const void *a, const void *b)
{
	return git_oid_cmp(&((const pack_ent *)a)->id, &((const pack_ent *)b)->id);
}

static pack_ent *find_ent(pack_ent *v, size_t n, const git_oid *id)
{
	pack_ent key;

	git_oid_cpy(&key.id, id);
	return bsearch(&key, v, n, sizeof(*v), cmp_ent);
}

/* Sorted by id, each once, keeping a base given for any copy. */
static size_t unique_ents(pack_ent *v, size_t n)
{
	size_t i, k = 0;

	qsort(v, n, sizeof(*v), cmp_ent);
	for (i = 0; i < n; i++) {
		if (k && !git_oid_cmp(&v[k - 1].id, &v[i].id)) {
			if (!v[k - 1].has_base && v[i].has_base) {
				git_oid_cpy(&v[k - 1].base, &v[i].base);
				v[k - 1].has_base = 1;
			}
			continue;
		}
		v[k++] = v[i];
	}
	return k;
}

/*
 * One level of deltas: a base that is itself stored as a delta is
 * replaced by its own base, and so on (n steps at most: no cycle).
 * Bases not among the objects are added (written whole); *v may move.
 */
static int resolve_bases(pack_ent **v, size_t *n)
{
	size_t i, count = *n, extra = 0;
	git_oid *base = malloc((count ? count : 1) * sizeof(*base));
	pack_ent *w;

	if (!base)
		return -1;
	for (i = 0; i < count; i++) {
		pack_ent *e = &(*v)[i], *b;
		size_t steps = 0;

		git_oid_cpy(&base[i], &e->base);
		while (e->has_base && steps++ < count &&
		       (b = find_ent(*v, count, &base[i])) && b->has_base)
			git_oid_cpy(&base[i], &b->base);
	}
	for (i = 0; i < count; i++) {
		git_oid_cpy(&(*v)[i].base, &base[i]);
		if ((*v)[i].has_base && !git_oid_cmp(&base[i], &(*v)[i].id))
			(*v)[i].has_base = 0;
		extra += (*v)[i].has_base;
	}
	free(base);
	w = realloc(*v, (count + extra + 1) * sizeof(*w));
	if (!w)
		return -1;
	*v = w;
	for (i = 0; i < count; i++)
		if (w[i].has_base) {
			memset(&w[*n], 0, sizeof(w[*n]));
			git_oid_cpy(&w[(*n)++].id, &w[i].base);
		}
	*n = unique_ents(w, *n);
	/* a base must be whole (this also breaks any cycle) */
	for (i = 0; i < *n; i++) {
		pack_ent *b = w[i].has_base ? find_ent(w, *n, &w[i].base) : NULL;

		if (w[i].has_base && (!b || b->has_base))
			w[i].has_base = 0;
	}
	return 0;
}

/*
 * The few delta bases, read and split into entries once: most deltas
 * share one (the base commit's root tree, the first notes tree), and
 * libgit2's cache keeps a tree it parsed instead of its raw bytes, so
 * each read inflated it.
 */
#define BASE_CACHE 4

typedef struct base_tree {
	git_odb_object *obj;
	tree_ent *ents;       /* NULL: not a tree (no delta against it) */
	size_t n;
} base_tree;

typedef struct base_cache {
	base_tree v[BASE_CACHE];
	size_t next;
} base_cache;

static int read_base(git_odb *odb, base_cache *c, const git_oid *id,
		     base_tree **out)
{
	base_tree *b;
	size_t i;

	for (i = 0; i < BASE_CACHE; i++)
		if (c->v[i].obj && git_oid_equal(git_odb_object_id(c->v[i].obj), id)) {
			*out = &c->v[i];
			return 0;
		}
	b = &c->v[c->next];
	git_odb_object_free(b->obj);
	free(b->ents);
	memset(b, 0, sizeof(*b));
	if (git_odb_read(&b->obj, odb, id) < 0)
		return -1;
	if (git_odb_object_type(b->obj) == GIT_OBJECT_TREE &&
	    split_tree(git_odb_object_data(b->obj), git_odb_object_size(b->obj),
		       &b->ents, &b->n) < 0)
		b->ents = NULL;
	c->next = (c->next + 1) % BASE_CACHE;
	*out = b;
	return 0;
}

static void base_cache_free(base_cache *c)
{
	size_t i;

	for (i = 0; i < BASE_CACHE; i++) {
		git_odb_object_free(c->v[i].obj);
		free(c->v[i].ents);
	}
}

struct raw_obj;

/* Its delta against base into delta, when the delta is worth it. */
static int worth_a_delta(const struct raw_obj *obj, const base_tree *base,
			 aa_buf *delta);

/*
 * One object's bytes: from the in-memory store's backend itself when it
 * is there (every object a lander makes is), else through the odb. Read
 * through the odb, each object stayed in libgit2's cache for the rest
 * of the run (trees up to 1 MiB are cached: src/cli/cli.c): 4.3 MB of
 * 100 suggestions' trees, never asked for again.
 */
typedef struct raw_obj {
	void *data;
	size_t len;
	git_object_t type;
	git_odb_backend *from;  /* data is this backend's, or: */
	git_odb_object *obj;
} raw_obj;

static int read_object(git_odb *odb, git_odb_backend *mem, const git_oid *id,
		       raw_obj *o)
{
	memset(o, 0, sizeof(*o));
	if (mem && mem->read &&
	    mem->read(&o->data, &o->len, &o->type, mem, id) == 0) {
		o->from = mem;
		return 0;
	}
	git_error_clear();
	if (git_odb_read(&o->obj, odb, id) < 0)
		return -1;
	o->data = (void *)git_odb_object_data(o->obj);
	o->len = git_odb_object_size(o->obj);
	o->type = git_odb_object_type(o->obj);
	return 0;
}

static void raw_obj_free(raw_obj *o)
{
	if (o->from)
		git_odb_backend_data_free(o->from, o->data);
	git_odb_object_free(o->obj);
	memset(o, 0, sizeof(*o));
}

static int worth_a_delta(const raw_obj *obj, const base_tree *base,
			 aa_buf *delta)
{
	aa_buf_clear(delta);
	return base && base->ents && obj->type == GIT_OBJECT_TREE &&
	       tree_delta(git_odb_object_data(base->obj),
			  git_odb_object_size(base->obj), base->ents, base->n,
			  obj->data, obj->len, delta) == 0 &&
	       delta->len < obj->len / 2;
}

/* The entry of e: a delta against its base when that is worth it. */
static int put_object(git_odb *odb, git_odb_backend *mem, pack_ent *e,
		      aa_buf *pack, z_stream *zs, base_cache *bases,
		      aa_buf *delta, aa_diags *d)
{
	raw_obj obj;
	base_tree *base = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	int r;

	if (read_object(odb, mem, &e->id, &obj) < 0) {
		git_oid_tostr(hex, sizeof(hex), &e->id);
		return aa_error(d, AA_NOPOS, NULL,
				"cannot read object %s for the pack", hex);
	}
	if (e->has_base && read_base(odb, bases, &e->base, &base) < 0) {
		raw_obj_free(&obj);
		git_oid_tostr(hex, sizeof(hex), &e->base);
		return aa_error(d, AA_NOPOS, NULL,
				"cannot read object %s for the pack", hex);
	}
	e->offset = pack->len;
	if (worth_a_delta(&obj, base, delta))
		r = put_entry_header(pack, GIT_OBJECT_REF_DELTA, delta->len) |
		    aa_buf_put(pack, (const char *)e->base.id, GIT_OID_RAWSZ) |
		    put_deflated(zs, pack, delta->ptr, delta->len);
	else
		r = put_entry_header(pack, obj.type, obj.len) |
		    put_deflated(zs, pack, obj.data, obj.len);
	raw_obj_free(&obj);
	if (r < 0)
		return aa_oom(d, AA_NOPOS, NULL);
	e->crc = (uint32_t)crc32(0, (const Bytef *)pack->ptr + e->offset,
				 (uInt)(pack->len - e->offset));
	return 0;
}

/* Whole objects first, then the deltas; then the trailer. */
static int build_pack(git_odb *odb, git_odb_backend *mem, pack_ent *v,
		      size_t n, aa_buf *pack, z_stream *zs, aa_diags *d)
{
	aa_buf delta = AA_BUF_INIT;
	base_cache bases;
	size_t i;
	int pass, r = 0;

	memset(&bases, 0, sizeof(bases));
	if (aa_buf_put(pack, "PACK", 4) < 0 || put_be32(pack, 2) < 0 ||
	    put_be32(pack, (uint32_t)n) < 0)
		return aa_oom(d, AA_NOPOS, NULL);
	for (pass = 0; pass < 2 && !r; pass++)
		for (i = 0; i < n && !r; i++)
			if (v[i].has_base == pass)
				r = put_object(odb, mem, &v[i], pack, zs, &bases,
					       &delta, d);
	base_cache_free(&bases);
	aa_buf_free(&delta);
	if (r < 0)
		return r;
	if (aa_buf_grow(pack, 20) < 0)
		return aa_oom(d, AA_NOPOS, NULL);
	if (sha1_buf(pack->ptr, pack->len,
		     (unsigned char *)pack->ptr + pack->len) < 0)
		return aa_error(d, AA_NOPOS, NULL,
				"cannot compute the pack's checksum");
	pack->len += 20;
	return 0;
}

/*
 * The index v2's offsets: 31 bits each; one past 2^31 - 1 is stored in
 * the table of 64-bit offsets after them, its place there with the
 * high bit set.
 */
static int put_offsets(const pack_ent *v, size_t n, aa_buf *idx)
{
	uint32_t large = 0;
	size_t i;
	int r = 0;

	for (i = 0; i < n; i++)
		if ((uint64_t)v[i].offset > 0x7fffffffu)
			r |= put_be32(idx, 0x80000000u | large++);
		else
			r |= put_be32(idx, (uint32_t)v[i].offset);
	for (i = 0; i < n; i++)
		if ((uint64_t)v[i].offset > 0x7fffffffu)
			r |= put_be32(idx, (uint32_t)((uint64_t)v[i].offset >> 32)) |
			     put_be32(idx, (uint32_t)v[i].offset);
	return r;
}

/* The index v2: fan-out, ids, CRCs, offsets, both checksums. */
static int build_index(const pack_ent *v, size_t n, const aa_buf *pack,
		       aa_buf *idx)
{
	size_t i, at = 0;
	unsigned fan;
	int r = aa_buf_put(idx, "\377tOc", 4) | put_be32(idx, 2);

	for (fan = 0; fan < 256; fan++) {
		while (at < n && v[at].id.id[0] <= fan)
			at++;
		r |= put_be32(idx, (uint32_t)at);
	}
	for (i = 0; i < n; i++)
		r |= aa_buf_put(idx, (const char *)v[i].id.id, GIT_OID_RAWSZ);
	for (i = 0; i < n; i++)
		r |= put_be32(idx, v[i].crc);
	r |= put_offsets(v, n, idx);
	r |= aa_buf_put(idx, pack->ptr + pack->len - 20, 20);
	if (r < 0 || aa_buf_grow(idx, 20) < 0 ||
	    sha1_buf(idx->ptr, idx->len, (unsigned char *)idx->ptr + idx->len) < 0)
		return -1;
	idx->len += 20;
	return 0;
}

/* ---- files ---- */

/* A read-only temporary file <dir>/<prefix>XXXXXX holding b, made durable. */
static int write_temp(const char *dir, const char *prefix, const aa_buf *b,
		      aa_sync how, aa_buf *name, aa_diags *d)
{
	int fd, r = 0;

	if (aa_buf_printf(name, "%s/%sXXXXXX", dir, prefix) < 0)
		return aa_oom(d, AA_NOPOS, NULL);
	fd = mkstemp(name->ptr);
	if (fd < 0) {
		r = aa_error(d, AA_NOPOS, NULL, "cannot create %s: %s",
			     aa_qpath(name->ptr), strerror(errno));
		aa_buf_clear(name);
		return r;
	}
	if (aa_write_all(fd, b->ptr, b->len) < 0 || fchmod(fd, 0444) < 0 ||
	    aa_sync_fd(fd, how) < 0)
		r = aa_error(d, AA_NOPOS, NULL, "cannot write %s: %s",
			     aa_qpath(name->ptr), strerror(errno));
	if (close(fd) < 0 && !r)
		r = aa_error(d, AA_NOPOS, NULL, "cannot write %s: %s",
			     aa_qpath(name->ptr), strerror(errno));
	return r;
}

/*
 * The pack's .keep, recorded first, created (O_EXCL) before the pack is
 * visible; *made when it is ours to remove on failure. A keep that exists
 * already (the same pack kept by another writer) keeps it as well.
 */
static int make_keep(const aa_pack_keep *keep, const aa_buf *path, int *made,
		     aa_diags *d)
{
	int fd, r;

	*made = 0;
	if ((r = keep->record(keep->ctx, path->ptr, d)) < 0)
		return r;
	fd = open(path->ptr, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
	if (fd < 0 && errno == EEXIST)
		return 0;
	if (fd < 0 || aa_write_all(fd, keep->reason, strlen(keep->reason)) < 0 ||
	    aa_write_all(fd, "\n", 1) < 0 || close(fd) < 0) {
		r = aa_error(d, AA_NOPOS, NULL, "cannot write %s: %s",
			     aa_qpath(path->ptr), strerror(errno));
		if (fd >= 0)
			unlink(path->ptr);
		return r;
	}
	*made = 1;
	aa_test_hook("keep");
	return 0;
}

/*
 * The directory's entries are made durable when the pack's or the
 * index's are to be, the stronger way of the two.
 */
static aa_sync dir_sync(const aa_fsync *f)
{
	aa_sync p = aa_fsync_how(f, AA_FSYNC_PACK),
		m = aa_fsync_how(f, AA_FSYNC_PACK_METADATA);

	return p == AA_SYNC_FULL || m == AA_SYNC_FULL ? AA_SYNC_FULL :
	       p != AA_SYNC_NONE ? p : m;
}

/* Renames the temporaries (made durable) into place, the pack first. */
static int place_pack(const char *dir, const aa_buf *pack, aa_buf *tmp_pack,
		      aa_buf *tmp_idx, const aa_fsync *f,
		      const aa_pack_keep *keep, aa_diags *d)
{
	char hex[41];
	aa_buf final_pack = AA_BUF_INIT, final_idx = AA_BUF_INIT,
	       final_keep = AA_BUF_INIT;
	const unsigned char *sum = (const unsigned char *)pack->ptr + pack->len - 20;
	int i, r = 0, had_pack, kept = 0;

	for (i = 0; i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", sum[i]);
	if (aa_buf_printf(&final_pack, "%s/pack-%s.pack", dir, hex) < 0 ||
	    aa_buf_printf(&final_idx, "%s/pack-%s.idx", dir, hex) < 0 ||
	    aa_buf_printf(&final_keep, "%s/pack-%s.keep", dir, hex) < 0)
		r = aa_oom(d, AA_NOPOS, NULL);
	if (!r && keep)
		r = make_keep(keep, &final_keep, &kept, d);
	had_pack = !r && access(final_pack.ptr, F_OK) == 0;
	if (!r && rename(tmp_pack->ptr, final_pack.ptr) < 0)
		r = aa_error(d, AA_NOPOS, NULL, "cannot rename %s: %s",
			     aa_qpath(tmp_pack->ptr), strerror(errno));
	else if (!r)
		aa_buf_clear(tmp_pack);
	if (!r && rename(tmp_idx->ptr, final_idx.ptr) < 0) {
		r = aa_error(d, AA_NOPOS, NULL, "cannot rename %s: %s",
			     aa_qpath(tmp_idx->ptr), strerror(errno));
		if (!had_pack)
			unlink(final_pack.ptr);
	} else if (!r) {
		aa_buf_clear(tmp_idx);
	}
	if (!r && aa_sync_dir(dir, dir_sync(f)) < 0)
		r = aa_error(d, AA_NOPOS, NULL, "cannot fsync %s: %s",
			     aa_qpath(dir), strerror(errno));
	if (r && kept)
		unlink(final_keep.ptr);
	if (!r)
		aa_test_hook("pack");
	aa_buf_free(&final_pack);
	aa_buf_free(&final_idx);
	aa_buf_free(&final_keep);
	return r;
}

/* keep->tmp_dir when it is on the pack directory's file system. */
static const char *temp_dir(const char *pack_dir, const aa_pack_keep *keep)
{
	struct stat a, b;

	if (!keep || !keep->tmp_dir || stat(pack_dir, &a) < 0 ||
	    stat(keep->tmp_dir, &b) < 0 || a.st_dev != b.st_dev)
		return pack_dir;
	return keep->tmp_dir;
}

/*
 * The pack's and the index's temporary files: in objects/pack as git
 * names them, or in keep->tmp_dir as tmp_pack_<pid>-XXXXXX (a later
 * run removes those of a run that is gone).
 */
static int write_temps(const char *pack_dir, const aa_pack_keep *keep,
		       const aa_buf *pack, const aa_buf *idx, const aa_fsync *f,
		       aa_buf *tmp_pack, aa_buf *tmp_idx, aa_diags *d)
{
	const char *dir = temp_dir(pack_dir, keep);
	char p1[64], p2[64];
	int r;

	if (dir == pack_dir) {
		snprintf(p1, sizeof(p1), "tmp_pack_");
		snprintf(p2, sizeof(p2), "tmp_idx_");
	} else {
		snprintf(p1, sizeof(p1), "tmp_pack_%ld-", (long)getpid());
		snprintf(p2, sizeof(p2), "tmp_idx_%ld-", (long)getpid());
	}
	r = write_temp(dir, p1, pack, aa_fsync_how(f, AA_FSYNC_PACK), tmp_pack, d);
	if (!r)
		r = write_temp(dir, p2, idx, aa_fsync_how(f, AA_FSYNC_PACK_METADATA),
			       tmp_idx, d);
	return r;
}

static void remove_temp(const aa_buf *tmp, aa_diags *d)
{
	if (tmp->len && unlink(tmp->ptr) < 0 && errno != ENOENT)
		aa_error(d, AA_NOPOS, NULL,
			 "its temporary file %s is left and could not be removed: %s",
			 aa_qpath(tmp->ptr), strerror(errno));
}

int aa_pack_write(const char *objects_dir, git_odb *odb, git_odb_backend *mem,
		  const aa_pack_object *objs, size_t n, int level,
		  const aa_fsync *f, const aa_pack_keep *keep, aa_diags *d)
{
	aa_buf dir = AA_BUF_INIT, pack = AA_BUF_INIT, idx = AA_BUF_INIT,
	       tmp_pack = AA_BUF_INIT, tmp_idx = AA_BUF_INIT;
	pack_ent *v;
	z_stream zs;
	size_t i, k = n;
	int r = 0;

	if (!n)
		return 0;
	memset(&zs, 0, sizeof(zs));
	v = calloc(n, sizeof(*v));
	if (v)
		for (i = 0; i < n; i++) {
			git_oid_cpy(&v[i].id, &objs[i].id);
			git_oid_cpy(&v[i].base, &objs[i].base);
			v[i].has_base = !git_oid_is_zero(&objs[i].base);
		}
	if (!v || aa_buf_printf(&dir, "%s/pack", objects_dir) < 0 ||
	    (k = unique_ents(v, n), resolve_bases(&v, &k)) < 0)
		r = aa_oom(d, AA_NOPOS, NULL);
	/* git init makes it; a repository may have lost it */
	if (!r && mkdir(dir.ptr, 0777) < 0 && errno != EEXIST)
		r = aa_error(d, AA_NOPOS, NULL, "cannot create %s: %s",
			     aa_qpath(dir.ptr), strerror(errno));
	if (!r && level == 0) {
		r = build_pack(odb, mem, v, k, &pack, NULL, d);
	} else if (!r && deflateInit(&zs, level) != Z_OK) {
		r = aa_oom(d, AA_NOPOS, NULL);
	} else if (!r) {
		r = build_pack(odb, mem, v, k, &pack, &zs, d);
		deflateEnd(&zs);
	}
	/* 4-byte offsets: a pack of new objects this large is refused */
	if (!r && pack.len > 0x7fffffff)
		r = aa_error(d, AA_NOPOS, NULL,
			     "the new objects are larger than 2 GiB");
	if (!r && build_index(v, k, &pack, &idx) < 0)
		r = aa_oom(d, AA_NOPOS, NULL);
	if (!r)
		r = write_temps(dir.ptr, keep, &pack, &idx, f, &tmp_pack, &tmp_idx, d);
	if (!r)
		r = place_pack(dir.ptr, &pack, &tmp_pack, &tmp_idx, f, keep, d);
	/* what is still a temporary is ours: remove it, or say it is left */
	remove_temp(&tmp_pack, d);
	remove_temp(&tmp_idx, d);
	aa_buf_free(&dir);
	aa_buf_free(&pack);
	aa_buf_free(&idx);
	aa_buf_free(&tmp_pack);
	aa_buf_free(&tmp_idx);
	free(v);
	return r < 0 ? AA_FATAL : 0;
}
