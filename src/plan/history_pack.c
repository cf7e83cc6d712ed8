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

#include "plan/history_pack.h"
#include "edit/edit.h"
#include "util/util.h"

/* At most this many objects, and this many bytes, stay made. */
#define HP_CACHE_MAX   8
#define HP_CACHE_BYTES (32u * 1024 * 1024)
/* A longer delta chain is left to libgit2 (git's default depth is 50). */
#define HP_MAX_DEPTH   128

enum { OBJ_BLOB = 3, OBJ_OFS_DELTA = 6, OBJ_REF_DELTA = 7 };

typedef struct hp_file {
	unsigned char *p;
	size_t len;
} hp_file;

typedef struct hp_pack {
	hp_file idx, pack;
	uint32_t n;               /* objects in the pack */
} hp_pack;

typedef struct hp_made {
	size_t pack;
	uint64_t off;
	int type;
	char *data;
	size_t len;
	unsigned long used;       /* the tick of its last use (LRU) */
} hp_made;

struct aa_hpack {
	hp_pack *packs;
	size_t npacks, cappacks;
	hp_made made[HP_CACHE_MAX];
	size_t nmade, made_bytes;
	unsigned long tick;
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

void aa_hpack_close(aa_hpack *hp)
{
	size_t i;

	if (!hp)
		return;
	for (i = 0; i < hp->npacks; i++) {
		unmap_file(&hp->packs[i].idx);
		unmap_file(&hp->packs[i].pack);
	}
	for (i = 0; i < hp->nmade; i++)
		free(hp->made[i].data);
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

/* An object made before, as the most recently used. */
static hp_made *made_find(aa_hpack *hp, size_t pack, uint64_t off)
{
	size_t i;

	for (i = 0; i < hp->nmade; i++)
		if (hp->made[i].pack == pack && hp->made[i].off == off) {
			hp->made[i].used = ++hp->tick;
			return &hp->made[i];
		}
	return NULL;
}

/* Keeps an object made (data moves in), the least recently used ones out. */
static hp_made *made_keep(aa_hpack *hp, size_t pack, uint64_t off, int type,
			  char *data, size_t len)
{
	hp_made *m;

	while (hp->nmade && (hp->nmade == HP_CACHE_MAX ||
			     hp->made_bytes + len > HP_CACHE_BYTES)) {
		size_t i, old = 0;

		for (i = 1; i < hp->nmade; i++)
			if (hp->made[i].used < hp->made[old].used)
				old = i;
		hp->made_bytes -= hp->made[old].len;
		free(hp->made[old].data);
		hp->made[old] = hp->made[--hp->nmade];
	}
	m = &hp->made[hp->nmade++];
	m->pack = pack;
	m->off = off;
	m->type = type;
	m->data = data;
	m->len = len;
	m->used = ++hp->tick;
	hp->made_bytes += len;
	return m;
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
	return e->size > UINT32_MAX - 2 ? -1 : 0;
}

/* The zlib stream at e->at, inflated to exactly e->size bytes. */
static char *inflate_at(const hp_file *f, const hp_entry *e)
{
	size_t avail = f->len - 20 - e->at;
	unsigned char *out;
	const char *why;

	if (e->at >= f->len - 20)
		return NULL;
	if (avail > UINT32_MAX - 1)
		avail = UINT32_MAX - 1;
	if (aa_inflate_exact(f->p + e->at, avail, (size_t)e->size, &out, &why) < 0)
		return NULL;
	return (char *)out;
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

/*
 * The size a delta states for its result (its second varint), so the
 * result is allocated once: growing it as it is made copied it again
 * and again. 0 when cut short (aa_delta_apply() then refuses it).
 */
static size_t delta_result_size(const unsigned char *d, size_t len)
{
	size_t i = 0, k, v = 0;

	for (k = 0; k < 2; k++) {
		unsigned shift = 0;
		unsigned char c;

		v = 0;
		do {
			if (i >= len || shift > 56)
				return 0;
			c = d[i++];
			v |= (size_t)(c & 0x7f) << shift;
			shift += 7;
		} while (c & 0x80);
	}
	return v;
}

/* The object at (pack, off), made and kept; NULL when it cannot be. */
static hp_made *make(aa_hpack *hp, size_t pack, uint64_t off, unsigned depth)
{
	const hp_file *f = &hp->packs[pack].pack;
	hp_made *m = made_find(hp, pack, off), *base;
	aa_buf out = AA_BUF_INIT;
	const char *why;
	hp_entry e;
	size_t bpack;
	uint64_t boff;
	char *delta;
	int type, r;

	if (m)
		return m;
	if (depth > HP_MAX_DEPTH || entry_header(f, off, &e) < 0 || e.type == 0 || e.type == 5)
		return NULL;
	if (e.type < OBJ_OFS_DELTA) {
		char *data = inflate_at(f, &e);

		return data ? made_keep(hp, pack, off, e.type, data, (size_t)e.size) : NULL;
	}
	if (delta_base(hp, pack, off, &e, &bpack, &boff) < 0 ||
	    !(base = make(hp, bpack, boff, depth + 1)) || !(delta = inflate_at(f, &e)))
		return NULL;
	type = base->type;
	if (aa_buf_grow(&out, delta_result_size((const unsigned char *)delta,
						(size_t)e.size) + 1) < 0) {
		free(delta);
		return NULL;
	}
	r = aa_delta_apply((const unsigned char *)base->data, base->len,
			   (const unsigned char *)delta, (size_t)e.size,
			   AA_MAX_TEXT_SIZE * 4u, &out, &why);
	free(delta);
	if (r < 0 || !out.ptr) {
		aa_buf_free(&out);
		return NULL;
	}
	{
		size_t len = out.len;

		return made_keep(hp, pack, off, type, aa_buf_detach(&out), len);
	}
}

int aa_hpack_read(aa_hpack *hp, const git_oid *id, const char **data,
		  size_t *len)
{
	size_t i;

	for (i = 0; hp && i < hp->npacks; i++) {
		uint64_t off;
		hp_made *m;

		if (find_in_pack(&hp->packs[i], id->id, &off))
			continue;
		m = make(hp, i, off, 0);
		if (!m || m->type != OBJ_BLOB)
			return 1;
		*data = m->data;
		*len = m->len;
		return 0;
	}
	return 1;
}
