/*
 * The history search's filter (history_filter.h): the rule on bytes,
 * and a needle's places carried through a delta.
 */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>

#include "plan/history_filter.h"
#include "edit/edit.h"

int aa_filter_holds(const aa_version_filter *f, const char *data, size_t len,
		    size_t *start)
{
	int has_cr = len && memchr(data, '\r', len) != NULL;
	const aa_needle *nd = has_cr ? f->cr : f->lf;
	size_t s0 = start ? *start : 0, j;

	for (j = 0; j < f->n; j++) {
		size_t i = (s0 + j) % f->n;

		if (nd[i].len && (!len || !memmem(data, len, nd[i].s, nd[i].len))) {
			if (start)
				*start = i;
			return 0;
		}
	}
	return 1;
}

void aa_occ_free(aa_occ *o)
{
	free(o->at);
	memset(o, 0, sizeof(*o));
}

/* One more place (the list may then pass the cap by one). */
static int occ_push(aa_occ *o, size_t *cap, uint64_t at)
{
	if (AA_GROW(o->at, o->n, *cap) < 0)
		return -1;
	o->at[o->n++] = at;
	return 0;
}

/* Over the cap: the places dropped, "many" kept. */
static void occ_overflow(aa_occ *o)
{
	free(o->at);
	o->at = NULL;
	o->n = 0;
	o->many = 1;
}

int aa_occ_scan(const char *data, size_t len, const char *s, size_t m,
		size_t cap, aa_occ *out)
{
	size_t room = 0, p = 0;

	memset(out, 0, sizeof(*out));
	while (m && p + m <= len) {
		const char *hit = memmem(data + p, len - p, s, m);

		if (!hit)
			break;
		if (out->n == cap) {
			occ_overflow(out);
			return 0;
		}
		if (occ_push(out, &room, (uint64_t)(hit - data)) < 0) {
			aa_occ_free(out);
			return -1;
		}
		p = (size_t)(hit - data) + 1;
	}
	return 0;
}

/* The next instruction at *p into op (op->at set by the caller): 0, or -1. */
static int delta_op(const unsigned char **p, const unsigned char *end,
		    size_t srclen, aa_delta_op *op)
{
	unsigned char cmd = *(*p)++;
	size_t off, size;

	if (cmd & 0x80) {
		if (aa_delta_copy_args(p, end, cmd, &off, &size) < 0 ||
		    off > srclen || size > srclen - off)
			return -1;
		op->from = off;
		op->lit = NULL;
	} else if (cmd) {
		size = cmd;
		if (size > (size_t)(end - *p))
			return -1;
		op->from = 0;
		op->lit = *p;
		*p += size;
	} else {
		return -1; /* the reserved opcode 0 */
	}
	op->len = size;
	return 0;
}

int aa_delta_ops_parse(const unsigned char *d, size_t dlen, size_t srclen,
		       aa_delta_op **ops, size_t *nops, size_t *result_len)
{
	const unsigned char *p = d, *end = d + dlen;
	size_t want, left, cap = 0, n = 0;
	aa_delta_op *v = NULL;
	uint64_t at = 0;

	if (aa_delta_varint(&p, end, &want) < 0 || aa_delta_varint(&p, end, &left) < 0 ||
	    want != srclen)
		return -1;
	*result_len = left;
	while (p < end) {
		if (AA_GROW(v, n, cap) < 0 || delta_op(&p, end, srclen, &v[n]) < 0 ||
		    v[n].len > left) {
			free(v);
			return -1;
		}
		v[n].at = at;
		at += v[n].len;
		left -= v[n++].len;
	}
	if (left) {
		free(v);
		return -1;
	}
	*ops = v;
	*nops = n;
	return 0;
}

/* The first instruction that makes a byte at or after position a. */
static size_t op_at(const aa_delta_op *ops, size_t nops, uint64_t a)
{
	size_t lo = 0, hi = nops;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ops[mid].at + ops[mid].len <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int aa_delta_read(const aa_delta_op *ops, size_t nops, uint64_t a, uint64_t b,
		  aa_range_fn rd, void *ctx, aa_buf *out)
{
	size_t k;

	for (k = op_at(ops, nops, a); k < nops && a < b; k++) {
		uint64_t skip = a - ops[k].at;
		uint64_t take = ops[k].len - skip;

		if (take > b - a)
			take = b - a;
		if (ops[k].lit ? aa_buf_put(out, ops[k].lit + skip, (size_t)take) < 0 :
		    rd(ctx, ops[k].from + skip, ops[k].from + skip + take, out) < 0)
			return -1;
		a += take;
	}
	return a == b ? 0 : -1;
}

/* The first of the base's places at or after `from`. */
static size_t place_at(const aa_occ *o, uint64_t from)
{
	size_t lo = 0, hi = o->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (o->at[mid] < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The base's places that a copy takes whole, where the copy puts them. */
static int places_copied(const aa_occ *base, const aa_delta_op *op, size_t m,
			 aa_occ *out, size_t *room)
{
	size_t q;

	if (op->lit || op->len < m)
		return 0;
	for (q = place_at(base, op->from);
	     q < base->n && base->at[q] + m <= op->from + op->len; q++)
		if (occ_push(out, room, op->at + (base->at[q] - op->from)) < 0)
			return -1;
	return 0;
}

/* The search of the result's places that start in [ws, we]. */
typedef struct window_search {
	const aa_delta_op *ops;
	size_t nops;
	const char *s;
	size_t m;
	aa_range_fn rd;
	void *ctx;
	aa_buf bytes;
} window_search;

static int search_window(window_search *w, uint64_t ws, uint64_t we,
			 aa_occ *out, size_t *room)
{
	size_t p = 0;

	aa_buf_clear(&w->bytes);
	if (aa_delta_read(w->ops, w->nops, ws, we + w->m, w->rd, w->ctx, &w->bytes) < 0)
		return -1;
	while (p + w->m <= w->bytes.len) {
		const char *hit = memmem(w->bytes.ptr + p, w->bytes.len - p, w->s, w->m);

		if (!hit)
			break;
		p = (size_t)(hit - w->bytes.ptr);
		if (occ_push(out, room, ws + p) < 0)
			return -1;
		p++;
	}
	return 0;
}

/*
 * Every place not inside one copy: starts that make the needle overlap
 * an insert, or cross the boundary where an instruction starts. The
 * windows of start positions come in order; touching ones are merged.
 */
static int places_at_seams(window_search *w, uint64_t vlen, aa_occ *out,
			   size_t *room)
{
	uint64_t m = w->m, last = vlen - m, ws = 0, we = 0;
	int have = 0;
	size_t k;

	for (k = 0; k < w->nops; k++) {
		const aa_delta_op *op = &w->ops[k];
		uint64_t lo = op->at >= m - 1 ? op->at - (m - 1) : 0;
		uint64_t hi = op->lit ? op->at + op->len - 1 : op->at - 1;

		if (!op->lit && (k == 0 || m == 1))
			continue; /* no boundary to cross */
		if (hi > last)
			hi = last;
		if (lo > hi)
			continue;
		if (have && lo <= we + 1) {
			if (hi > we)
				we = hi;
			continue;
		}
		if (have && search_window(w, ws, we, out, room) < 0)
			return -1;
		ws = lo;
		we = hi;
		have = 1;
	}
	return have ? search_window(w, ws, we, out, room) : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorted, each place once, and "many" past the cap. */
static void occ_settle(aa_occ *o, size_t cap)
{
	size_t i, n = 0;

	if (o->n)
		qsort(o->at, o->n, sizeof(*o->at), cmp_u64);
	for (i = 0; i < o->n; i++)
		if (!n || o->at[n - 1] != o->at[i])
			o->at[n++] = o->at[i];
	o->n = n;
	if (n > cap)
		occ_overflow(o);
}

int aa_occ_through_delta(const aa_occ *base, const aa_delta_op *ops,
			 size_t nops, uint64_t vlen, const char *s, size_t m,
			 aa_range_fn rd, void *ctx, size_t cap, aa_occ *out)
{
	window_search w = { ops, nops, s, m, rd, ctx, AA_BUF_INIT };
	size_t room = 0, k;
	int r = 0;

	memset(out, 0, sizeof(*out));
	if (!m || m > vlen || base->many)
		return base->many && m && m <= vlen ? -1 : 0;
	for (k = 0; k < nops && !r; k++)
		r = places_copied(base, &ops[k], m, out, &room);
	if (!r)
		r = places_at_seams(&w, vlen, out, &room);
	aa_buf_free(&w.bytes);
	if (r < 0) {
		aa_occ_free(out);
		return -1;
	}
	occ_settle(out, cap);
	return 0;
}
