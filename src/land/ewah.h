/*
 * git's EWAH compressed bitmaps (Documentation/gitformat-index.txt,
 * the UNTR and FSMN extensions; git's ewah/): read from an index
 * extension, which is untrusted input, and written as git writes the
 * bitmaps it fills by setting bits in increasing order (the only way
 * the index code fills them), so that the bytes are git's.
 *
 * On disk: the bit count (32 bits), the number of 64-bit words (32),
 * the words, the position of the last marker word (32), all big-endian.
 * A marker word holds, from its lowest bit: the bit of its run, the
 * run's length in words (32 bits), the number of literal words that
 * follow it (31 bits).
 */
#ifndef AA_LAND_EWAH_H
#define AA_LAND_EWAH_H

#include <stddef.h>
#include <stdint.h>
#include "aiapply/common.h"

/* Called for each set bit, in increasing order; nonzero stops the read. */
typedef int aa_ewah_bit_fn(uint64_t pos, void *ctx);

/*
 * Reads the bitmap serialized at p[0..len): *used gets the bytes it
 * takes, *bits its bit count (either may be NULL). Checks the whole
 * bitmap first (every size against len, every marker's literal words
 * inside the words) and only then calls fn (may be NULL) for its bits.
 * 0, or -1: damaged, or fn stopped it.
 */
int aa_ewah_read(const unsigned char *p, size_t len, size_t *used,
		 uint64_t *bits, aa_ewah_bit_fn *fn, void *ctx);

/* A bitmap being written. */
typedef struct aa_ewah {
	uint64_t *w;      /* the words: markers and literals */
	size_t n, cap;
	size_t rlw;       /* the last marker's index in w */
	uint64_t bits;    /* the bit count: the last set bit + 1 */
	int oom;
} aa_ewah;

/* An empty bitmap (one marker word). 0, or -1 out of memory. */
int aa_ewah_init(aa_ewah *e);
/* Sets bit i, which is above every bit set before (as git's callers do). */
void aa_ewah_set(aa_ewah *e, uint64_t i);
/* Appends the serialized bitmap to b. 0, or -1 out of memory. */
int aa_ewah_write(const aa_ewah *e, aa_buf *b);
void aa_ewah_free(aa_ewah *e);

#endif
