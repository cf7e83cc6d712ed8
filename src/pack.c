/*
 * Writing one pack and its index (src/pack.h): entries undeltified,
 * zlib at git's core.compression default for speed, ids sorted for the
 * index, SHA-1 trailers computed here (libgit2 exposes no raw SHA-1).
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

#include "pack.h"

/* ---- SHA-1 (FIPS 180-4), for the pack's and the index's trailers ---- */

typedef struct sha1_ctx {
	uint32_t h[5];
	uint64_t len;          /* bytes hashed */
	unsigned char block[64];
	size_t used;
} sha1_ctx;

#define ROL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

static void sha1_block(sha1_ctx *c, const unsigned char *p)
{
	uint32_t w[80], a = c->h[0], b = c->h[1], cc = c->h[2], d = c->h[3],
		 e = c->h[4], f, k, t;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 80; i++)
		w[i] = ROL(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	for (i = 0; i < 80; i++) {
		if (i < 20)
			f = (b & cc) | (~b & d), k = 0x5A827999;
		else if (i < 40)
			f = b ^ cc ^ d, k = 0x6ED9EBA1;
		else if (i < 60)
			f = (b & cc) | (b & d) | (cc & d), k = 0x8F1BBCDC;
		else
			f = b ^ cc ^ d, k = 0xCA62C1D6;
		t = ROL(a, 5) + f + e + k + w[i];
		e = d;
		d = cc;
		cc = ROL(b, 30);
		b = a;
		a = t;
	}
	c->h[0] += a;
	c->h[1] += b;
	c->h[2] += cc;
	c->h[3] += d;
	c->h[4] += e;
}

static void sha1_init(sha1_ctx *c)
{
	static const uint32_t h0[5] = { 0x67452301, 0xEFCDAB89, 0x98BADCFE,
					0x10325476, 0xC3D2E1F0 };

	memcpy(c->h, h0, sizeof(h0));
	c->len = 0;
	c->used = 0;
}

static void sha1_update(sha1_ctx *c, const void *data, size_t len)
{
	const unsigned char *p = data;

	c->len += len;
	while (len) {
		size_t take = 64 - c->used < len ? 64 - c->used : len;

		if (!c->used && len >= 64) {
			sha1_block(c, p);
			p += 64;
			len -= 64;
			continue;
		}
		memcpy(c->block + c->used, p, take);
		c->used += take;
		p += take;
		len -= take;
		if (c->used == 64) {
			sha1_block(c, c->block);
			c->used = 0;
		}
	}
}

static void sha1_final(sha1_ctx *c, unsigned char out[20])
{
	uint64_t bits = c->len * 8;
	unsigned char pad[72] = { 0x80 };
	size_t padlen = (c->used < 56 ? 56 : 120) - c->used;
	int i;

	for (i = 0; i < 8; i++)
		pad[padlen + i] = (unsigned char)(bits >> (56 - 8 * i));
	sha1_update(c, pad, padlen + 8);
	for (i = 0; i < 20; i++)
		out[i] = (unsigned char)(c->h[i / 4] >> (24 - 8 * (i % 4)));
}

static void sha1_buf(const void *data, size_t len, unsigned char out[20])
{
	sha1_ctx c;

	sha1_init(&c);
	sha1_update(&c, data, len);
	sha1_final(&c, out);
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

/* zlib at this level; one stream for the whole pack, reset per object. */
#ifndef AA_PACK_COMPRESSION
#define AA_PACK_COMPRESSION Z_BEST_SPEED
#endif

static int put_deflated(z_stream *zs, aa_buf *b, const void *data, size_t len)
{
	uLong bound = deflateBound(zs, (uLong)len);
	int zr;

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

static int cmp_oid(const void *a, const void *b)
{
	return git_oid_cmp(a, b);
}

/* One entry per object: offsets[i] and crcs[i] of ids[i] (sorted). */
static int build_pack(git_odb *odb, const git_oid *ids, size_t n,
		      uint64_t *offsets, uint32_t *crcs, aa_buf *pack,
		      z_stream *zs, aa_diags *d)
{
	size_t i;

	if (aa_buf_put(pack, "PACK", 4) < 0 || put_be32(pack, 2) < 0 ||
	    put_be32(pack, (uint32_t)n) < 0)
		return aa_oom(d, (aa_pos){ NULL, 0 }, NULL);
	for (i = 0; i < n; i++) {
		git_odb_object *obj;
		int r;

		if (git_odb_read(&obj, odb, &ids[i]) < 0) {
			char hex[GIT_OID_HEXSZ + 1];

			git_oid_tostr(hex, sizeof(hex), &ids[i]);
			return aa_error(d, (aa_pos){ NULL, 0 }, NULL,
					"cannot read new object %s", hex);
		}
		offsets[i] = pack->len;
		r = put_entry_header(pack, git_odb_object_type(obj),
				     git_odb_object_size(obj));
		if (!r)
			r = put_deflated(zs, pack, git_odb_object_data(obj),
					 git_odb_object_size(obj));
		git_odb_object_free(obj);
		if (r < 0)
			return aa_oom(d, (aa_pos){ NULL, 0 }, NULL);
		crcs[i] = (uint32_t)crc32(0, (const Bytef *)pack->ptr + offsets[i],
					  (uInt)(pack->len - offsets[i]));
	}
	if (aa_buf_grow(pack, 20) < 0)
		return aa_oom(d, (aa_pos){ NULL, 0 }, NULL);
	sha1_buf(pack->ptr, pack->len, (unsigned char *)pack->ptr + pack->len);
	pack->len += 20;
	return 0;
}

/* The index v2: fan-out, ids, CRCs, offsets, both checksums. */
static int build_index(const git_oid *ids, size_t n, const uint64_t *offsets,
		       const uint32_t *crcs, const aa_buf *pack, aa_buf *idx)
{
	size_t i, at = 0;
	unsigned fan;
	int r = aa_buf_put(idx, "\377tOc", 4) | put_be32(idx, 2);

	for (fan = 0; fan < 256; fan++) {
		while (at < n && ids[at].id[0] <= fan)
			at++;
		r |= put_be32(idx, (uint32_t)at);
	}
	for (i = 0; i < n; i++)
		r |= aa_buf_put(idx, (const char *)ids[i].id, GIT_OID_RAWSZ);
	for (i = 0; i < n; i++)
		r |= put_be32(idx, crcs[i]);
	for (i = 0; i < n; i++)
		r |= put_be32(idx, (uint32_t)offsets[i]);
	r |= aa_buf_put(idx, pack->ptr + pack->len - 20, 20);
	if (r < 0 || aa_buf_grow(idx, 20) < 0)
		return -1;
	sha1_buf(idx->ptr, idx->len, (unsigned char *)idx->ptr + idx->len);
	idx->len += 20;
	return 0;
}

/* ---- files ---- */

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* A read-only temporary file <dir>/<prefix>XXXXXX holding b, fsynced. */
static int write_temp(const char *dir, const char *prefix, const aa_buf *b,
		      aa_buf *name, aa_diags *d)
{
	int fd, r = 0;

	if (aa_buf_printf(name, "%s/%sXXXXXX", dir, prefix) < 0)
		return aa_oom(d, (aa_pos){ NULL, 0 }, NULL);
	fd = mkstemp(name->ptr);
	if (fd < 0) {
		r = aa_error(d, (aa_pos){ NULL, 0 }, NULL, "cannot create %s: %s",
			     aa_qpath(name->ptr), strerror(errno));
		aa_buf_clear(name);
		return r;
	}
	if (write_all(fd, b->ptr, b->len) < 0 || fchmod(fd, 0444) < 0 ||
	    fsync(fd) < 0)
		r = aa_error(d, (aa_pos){ NULL, 0 }, NULL, "cannot write %s: %s",
			     aa_qpath(name->ptr), strerror(errno));
	if (close(fd) < 0 && !r)
		r = aa_error(d, (aa_pos){ NULL, 0 }, NULL, "cannot write %s: %s",
			     aa_qpath(name->ptr), strerror(errno));
	return r;
}

static int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), r;

	if (fd < 0)
		return -1;
	r = fsync(fd);
	if (close(fd) < 0)
		r = -1;
	return r;
}

/* Renames the fsynced temporaries into place, the pack first. */
static int place_pack(const char *dir, const aa_buf *pack, aa_buf *tmp_pack,
		      aa_buf *tmp_idx, aa_diags *d)
{
	char hex[41];
	aa_buf final_pack = AA_BUF_INIT, final_idx = AA_BUF_INIT;
	const unsigned char *sum = (const unsigned char *)pack->ptr + pack->len - 20;
	int i, r = 0, had_pack;

	for (i = 0; i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", sum[i]);
	if (aa_buf_printf(&final_pack, "%s/pack-%s.pack", dir, hex) < 0 ||
	    aa_buf_printf(&final_idx, "%s/pack-%s.idx", dir, hex) < 0)
		r = aa_oom(d, (aa_pos){ NULL, 0 }, NULL);
	had_pack = !r && access(final_pack.ptr, F_OK) == 0;
	if (!r && rename(tmp_pack->ptr, final_pack.ptr) < 0)
		r = aa_error(d, (aa_pos){ NULL, 0 }, NULL, "cannot rename %s: %s",
			     aa_qpath(tmp_pack->ptr), strerror(errno));
	else if (!r)
		aa_buf_clear(tmp_pack);
	if (!r && rename(tmp_idx->ptr, final_idx.ptr) < 0) {
		r = aa_error(d, (aa_pos){ NULL, 0 }, NULL, "cannot rename %s: %s",
			     aa_qpath(tmp_idx->ptr), strerror(errno));
		if (!had_pack)
			unlink(final_pack.ptr);
	} else if (!r) {
		aa_buf_clear(tmp_idx);
	}
	if (!r && fsync_dir(dir) < 0)
		r = aa_error(d, (aa_pos){ NULL, 0 }, NULL, "cannot fsync %s: %s",
			     aa_qpath(dir), strerror(errno));
	aa_buf_free(&final_pack);
	aa_buf_free(&final_idx);
	return r;
}

/* Sorted, each id once (git's index holds an id once). */
static git_oid *unique_ids(const git_oid *ids, size_t n, size_t *out_n)
{
	git_oid *v = malloc((n ? n : 1) * sizeof(*v));
	size_t i, k = 0;

	if (!v)
		return NULL;
	memcpy(v, ids, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_oid);
	for (i = 0; i < n; i++)
		if (!k || git_oid_cmp(&v[k - 1], &v[i]))
			v[k++] = v[i];
	*out_n = k;
	return v;
}

int aa_pack_write(const char *objects_dir, git_odb *odb, const git_oid *ids,
		  size_t n, aa_diags *d)
{
	aa_buf dir = AA_BUF_INIT, pack = AA_BUF_INIT, idx = AA_BUF_INIT,
	       tmp_pack = AA_BUF_INIT, tmp_idx = AA_BUF_INIT;
	uint64_t *offsets = NULL;
	uint32_t *crcs = NULL;
	z_stream zs;
	git_oid *v;
	size_t k = 0;
	int r = 0;

	if (!n)
		return 0;
	memset(&zs, 0, sizeof(zs));
	v = unique_ids(ids, n, &k);
	offsets = calloc(n, sizeof(*offsets));
	crcs = calloc(n, sizeof(*crcs));
	if (!v || !offsets || !crcs ||
	    aa_buf_printf(&dir, "%s/pack", objects_dir) < 0)
		r = aa_oom(d, (aa_pos){ NULL, 0 }, NULL);
	/* git init makes it; a repository may have lost it */
	if (!r && mkdir(dir.ptr, 0777) < 0 && errno != EEXIST)
		r = aa_error(d, (aa_pos){ NULL, 0 }, NULL, "cannot create %s: %s",
			     aa_qpath(dir.ptr), strerror(errno));
	if (!r && deflateInit(&zs, AA_PACK_COMPRESSION) != Z_OK)
		r = aa_oom(d, (aa_pos){ NULL, 0 }, NULL);
	else if (!r) {
		r = build_pack(odb, v, k, offsets, crcs, &pack, &zs, d);
		deflateEnd(&zs);
	}
	/* 4-byte offsets: a pack of new objects this large is refused */
	if (!r && pack.len > 0x7fffffff)
		r = aa_error(d, (aa_pos){ NULL, 0 }, NULL,
			     "the new objects are larger than 2 GiB");
	if (!r && build_index(v, k, offsets, crcs, &pack, &idx) < 0)
		r = aa_oom(d, (aa_pos){ NULL, 0 }, NULL);
	if (!r)
		r = write_temp(dir.ptr, "tmp_pack_", &pack, &tmp_pack, d);
	if (!r)
		r = write_temp(dir.ptr, "tmp_idx_", &idx, &tmp_idx, d);
	if (!r)
		r = place_pack(dir.ptr, &pack, &tmp_pack, &tmp_idx, d);
	/* what is still a temporary is ours: remove it */
	if (tmp_pack.len)
		unlink(tmp_pack.ptr);
	if (tmp_idx.len)
		unlink(tmp_idx.ptr);
	aa_buf_free(&dir);
	aa_buf_free(&pack);
	aa_buf_free(&idx);
	aa_buf_free(&tmp_pack);
	aa_buf_free(&tmp_idx);
	free(offsets);
	free(crcs);
	free(v);
	return r < 0 ? AA_FATAL : 0;
}
