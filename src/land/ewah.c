/*
 * git's EWAH bitmaps (ewah.h). The writer follows the encoding git's
 * ewah/ewah_bitmap.c produces when bits are set in increasing order: a
 * literal word for each 64-bit word that holds a set bit, the words
 * without one as a run of zeros in the marker before it, a word whose
 * 64 bits end up all set turned into a run of ones; a new marker when
 * the current one cannot take the next run or literal.
 */
#include <stdlib.h>
#include <string.h>

#include "land/ewah.h"
#include "util/util.h"
#include "land/index_bytes.h"

#define RUN_BITS 32
#define MAX_RUN ((((uint64_t)1) << RUN_BITS) - 1)
#define MAX_LITERALS ((((uint64_t)1) << (63 - RUN_BITS)) - 1)
#define ALL_ONES (~(uint64_t)0)

static uint64_t run_bit(uint64_t m)
{
	return m & 1;
}

static uint64_t run_len(uint64_t m)
{
	return (m >> 1) & MAX_RUN;
}

static uint64_t literals(uint64_t m)
{
	return m >> (1 + RUN_BITS);
}

static uint64_t with_run_len(uint64_t m, uint64_t len)
{
	return (m & ~(MAX_RUN << 1)) | (len << 1);
}

static uint64_t with_literals(uint64_t m, uint64_t n)
{
	return (m & ((((uint64_t)1) << (1 + RUN_BITS)) - 1)) | (n << (1 + RUN_BITS));
}

static uint64_t be64(const unsigned char *p)
{
	return (uint64_t)aa_ix_be32(p) << 32 | aa_ix_be32(p + 4);
}

/* ---- reading ---- */

int aa_ewah_read(const unsigned char *p, size_t len, size_t *used,
		 uint64_t *bits, aa_ewah_bit_fn *fn, void *ctx)
{
	const unsigned char *words = p + 8;
	uint64_t nwords, i, pos = 0, k;

	if (len < 12)
		return -1;
	nwords = aa_ix_be32(p + 4);
	if (nwords > (len - 12) / 8)
		return -1;
	/* every marker's literal words lie inside the words */
	for (i = 0; i < nwords;) {
		uint64_t lw = literals(be64(words + i * 8));

		i++;
		if (lw > nwords - i)
			return -1;
		i += lw;
	}
	if (used)
		*used = (size_t)(8 + nwords * 8 + 4);
	if (bits)
		*bits = aa_ix_be32(p);
	for (i = 0; fn && i < nwords;) {
		uint64_t m = be64(words + i * 8), lw = literals(m);

		if (run_bit(m)) {
			for (k = 0; k < run_len(m) * 64; k++)
				if (fn(pos++, ctx))
					return -1;
		} else {
			pos += run_len(m) * 64;
		}
		for (i++; lw--; i++, pos += 64) {
			uint64_t w = be64(words + i * 8);

			while (w) {
				if (fn(pos + (uint64_t)__builtin_ctzll(w), ctx))
					return -1;
				w &= w - 1;
			}
		}
	}
	return 0;
}

/* ---- writing ---- */

static void push(aa_ewah *e, uint64_t word)
{
	if (e->oom || AA_GROW(e->w, e->n, e->cap) < 0) {
		e->oom = 1;
		return;
	}
	e->w[e->n++] = word;
}

static void push_marker(aa_ewah *e)
{
	push(e, 0);
	if (!e->oom)
		e->rlw = e->n - 1;
}

int aa_ewah_init(aa_ewah *e)
{
	memset(e, 0, sizeof(*e));
	push_marker(e);
	return e->oom ? -1 : 0;
}

void aa_ewah_free(aa_ewah *e)
{
	free(e->w);
	memset(e, 0, sizeof(*e));
}

/* `number` words of zeros after what is written. */
static void add_zero_words(aa_ewah *e, uint64_t number)
{
	uint64_t m = e->w[e->rlw], can;

	if (run_bit(m) && !run_len(m) && !literals(m))
		e->w[e->rlw] = m & ~(uint64_t)1;
	else if (literals(m) || run_bit(m))
		push_marker(e);
	if (e->oom)
		return;
	m = e->w[e->rlw];
	can = MAX_RUN - run_len(m) < number ? MAX_RUN - run_len(m) : number;
	e->w[e->rlw] = with_run_len(m, run_len(m) + can);
	number -= can;
	while (!e->oom && number) {
		can = number < MAX_RUN ? number : MAX_RUN;
		push_marker(e);
		if (!e->oom)
			e->w[e->rlw] = with_run_len(0, can);
		number -= can;
	}
}

static void add_literal(aa_ewah *e, uint64_t word)
{
	uint64_t n = literals(e->w[e->rlw]);

	if (n >= MAX_LITERALS) {
		push_marker(e);
		n = 0;
	}
	if (e->oom)
		return;
	e->w[e->rlw] = with_literals(e->w[e->rlw], n + 1);
	push(e, word);
}

/* One word of ones after what is written. */
static void add_ones_word(aa_ewah *e)
{
	uint64_t m = e->w[e->rlw];

	if (!literals(m) && !run_len(m))
		m |= 1;
	if (!literals(m) && run_bit(m) && run_len(m) < MAX_RUN) {
		e->w[e->rlw] = with_run_len(m, run_len(m) + 1);
		return;
	}
	push_marker(e);
	if (!e->oom)
		e->w[e->rlw] = with_run_len(1, 1);
}

void aa_ewah_set(aa_ewah *e, uint64_t i)
{
	uint64_t bit = (uint64_t)1 << (i % 64);
	uint64_t dist = (i + 64) / 64 - (e->bits + 63) / 64;

	if (e->oom || i < e->bits)
		return;
	e->bits = i + 1;
	if (dist) {
		if (dist > 1)
			add_zero_words(e, dist - 1);
		add_literal(e, bit);
		return;
	}
	/* the same word as the bit before: the last word is its literal */
	e->w[e->n - 1] |= bit;
	if (e->w[e->n - 1] == ALL_ONES) {
		e->n--;
		e->w[e->rlw] = with_literals(e->w[e->rlw], literals(e->w[e->rlw]) - 1);
		add_ones_word(e);
	}
}

static int put32(aa_buf *b, uint32_t v)
{
	unsigned char c[4] = { (unsigned char)(v >> 24), (unsigned char)(v >> 16),
			       (unsigned char)(v >> 8), (unsigned char)v };

	return aa_buf_put(b, c, 4);
}

int aa_ewah_write(const aa_ewah *e, aa_buf *b)
{
	size_t i;

	if (e->oom)
		return -1;
	put32(b, (uint32_t)e->bits);
	put32(b, (uint32_t)e->n);
	for (i = 0; i < e->n; i++) {
		put32(b, (uint32_t)(e->w[i] >> 32));
		put32(b, (uint32_t)e->w[i]);
	}
	put32(b, (uint32_t)e->rlw);
	return aa_buf_oom(b) ? -1 : 0;
}
