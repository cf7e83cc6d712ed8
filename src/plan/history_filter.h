/*
 * The history search's filter (Documentation/locating.md, "Cost of
 * locating"): which versions of a file can hold a hunk's old lines,
 * decided on a version's bytes, or from its delta without making it.
 *
 * A version stored as a delta is copies of its base's bytes and
 * inserted bytes. A needle that occurs in it either lies inside one
 * copy (then it occurs in the base there) or overlaps an insert or a
 * boundary between two instructions. So the needle's places in the
 * version are the base's places that a copy takes whole, moved to
 * where the copy puts them, plus what a search finds in the few bytes
 * around each insert and boundary: exact, and no pass over the
 * version. Pure: no libgit2, no file access.
 */
#ifndef AA_HISTORY_FILTER_H
#define AA_HISTORY_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "plan/snapshot.h"
#include "util/util.h"

/*
 * The rule: 1 when data holds, in a version with a CR, every non-empty
 * f->cr[i], else every non-empty f->lf[i]; 0 when it lacks one. *start
 * (NULL: 0) is the needle to try first and receives the one that failed
 * (versions next to each other fail alike).
 */
int aa_filter_holds(const aa_version_filter *f, const char *data, size_t len,
		    size_t *start);

/* Where a needle occurs in some bytes: every place, or "more than cap". */
typedef struct aa_occ {
	uint64_t *at;      /* the places, ascending (when !many) */
	size_t n;
	int many;          /* more than the cap: the places not kept */
} aa_occ;

void aa_occ_free(aa_occ *o);
/* Every place of s[0..m) in data (m > 0), at most cap: 0, -1 out of memory. */
int aa_occ_scan(const char *data, size_t len, const char *s, size_t m,
		size_t cap, aa_occ *out);

/*
 * One instruction of a delta: `len` bytes at `at` in the result, copied
 * from the base at `from`, or (lit non-NULL) the inserted bytes lit.
 */
typedef struct aa_delta_op {
	uint64_t at, len, from;
	const unsigned char *lit;
} aa_delta_op;

/*
 * git's delta format (as aa_delta_apply() reads it) into instructions
 * pointing into d, for a base of srclen bytes; *result_len the size it
 * makes. 0, or -1 when the delta is malformed or out of memory.
 */
int aa_delta_ops_parse(const unsigned char *d, size_t dlen, size_t srclen,
		       aa_delta_op **ops, size_t *nops, size_t *result_len);

/* Appends the base's bytes [a, b) to out: 0, or -1. */
typedef int (*aa_range_fn)(void *ctx, uint64_t a, uint64_t b, aa_buf *out);

/* Appends the delta's result [a, b) to out, the base read through rd. */
int aa_delta_read(const aa_delta_op *ops, size_t nops, uint64_t a, uint64_t b,
		  aa_range_fn rd, void *ctx, aa_buf *out);

/*
 * The places of s[0..m) in the delta's result (vlen bytes) from its
 * places in the base (`base`, not many): 0 (*out filled, many when over
 * cap), -1 error.
 */
int aa_occ_through_delta(const aa_occ *base, const aa_delta_op *ops,
			 size_t nops, uint64_t vlen, const char *s, size_t m,
			 aa_range_fn rd, void *ctx, size_t cap, aa_occ *out);

#endif
