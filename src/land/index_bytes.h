/*
 * The byte-level pieces of git's index format, shared by the index
 * reader and writer and their extensions (index_read.c, index_write.c,
 * index_untracked.c, index_fsmonitor.c, ewah.c): big-endian integers
 * and git's offset varint (varint.c: each continuation byte adds one
 * before the shift, so no value has two encodings).
 */
#ifndef AA_LAND_INDEX_BYTES_H
#define AA_LAND_INDEX_BYTES_H

#include <stddef.h>
#include <stdint.h>

static inline uint32_t aa_ix_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline unsigned aa_ix_be16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static inline void aa_ix_put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* git's decode_varint, bounded by end: 0 with *v, or -1 past it or on overflow. */
static inline int aa_ix_varint_read(const unsigned char **pp, const unsigned char *end,
				    uint64_t *v)
{
	const unsigned char *p = *pp;
	uint64_t val;
	unsigned char c;

	if (p >= end)
		return -1;
	c = *p++;
	val = c & 127;
	while (c & 128) {
		val += 1;
		if (!val || (val >> 57) || p >= end)
			return -1;
		c = *p++;
		val = (val << 7) + (c & 127);
	}
	*pp = p;
	*v = val;
	return 0;
}

/* git's encode_varint into buf (16 bytes at least): its length. */
static inline size_t aa_ix_varint_put(uint64_t value, unsigned char *buf)
{
	unsigned char v[16];
	unsigned pos = sizeof(v) - 1, i;

	v[pos] = value & 127;
	while (value >>= 7)
		v[--pos] = (unsigned char)(128 | (--value & 127));
	for (i = pos; i < sizeof(v); i++)
		buf[i - pos] = v[i];
	return sizeof(v) - pos;
}

#endif
