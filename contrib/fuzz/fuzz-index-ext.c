/*
 * libFuzzer target: the index extensions the landing reads and writes
 * again (Documentation/landing.md, "The untracked cache and the
 * fsmonitor data"): git's EWAH bitmaps (land/ewah.c) and the untracked
 * cache (land/index_untracked.c), on exact-size heap copies so that
 * ASan sees any read past the input.
 *
 * Input layout: 1 control byte, then the data. Control bit 0 set: the
 * data is an EWAH bitmap; clear: an UNTR extension's data, the rest of
 * the control byte choosing the path invalidated in it.
 *
 * Contracts checked (abort on violation, unless AA_FUZZ_NO_ORACLES=1):
 *  - a bitmap that reads reports increasing bits, and written again
 *    from those bits reads back the same bits;
 *  - an untracked cache that parses writes, its output parses, and
 *    writes the same bytes again.
 */
#include "fuzz.h"
#include "land/ewah.h"
#include "land/index_untracked.h"

typedef struct bits {
	uint64_t *v;
	size_t n, cap;
} bits;

static int collect(uint64_t pos, void *ctx)
{
	bits *b = ctx;

	if (b->n && pos <= b->v[b->n - 1])
		fz_fail("ewah bits not increasing", NULL);
	if (b->n >= 1u << 16)
		return 1; /* enough: a run of ones can name billions */
	if (b->n == b->cap) {
		uint64_t *p = realloc(b->v, (b->cap = b->cap ? b->cap * 2 : 64) * sizeof(*p));

		if (!p)
			return 1;
		b->v = p;
	}
	b->v[b->n++] = pos;
	return 0;
}

static void bitmap(const unsigned char *p, size_t n)
{
	bits a = { NULL, 0, 0 }, b = { NULL, 0, 0 };
	aa_buf out = AA_BUF_INIT;
	aa_ewah e;
	size_t i;

	if (aa_ewah_read(p, n, NULL, NULL, collect, &a) == 0 &&
	    aa_ewah_init(&e) == 0) {
		for (i = 0; i < a.n; i++)
			aa_ewah_set(&e, a.v[i]);
		if (aa_ewah_write(&e, &out) == 0) {
			fz_check(aa_ewah_read((unsigned char *)out.ptr, out.len, NULL,
					      NULL, collect, &b) == 0,
				 "written bitmap does not read", NULL);
			fz_check(a.n == b.n && (!a.n || !memcmp(a.v, b.v, a.n * sizeof(*a.v))),
				 "written bitmap reads other bits", NULL);
		}
		aa_ewah_free(&e);
	}
	free(a.v);
	free(b.v);
	aa_buf_free(&out);
}

static void untracked(const unsigned char *p, size_t n, unsigned which)
{
	static const char *const paths[] = { "a", "a/b", "a/b/c", "d/e", "zz/y/x", "g" };
	aa_untr *u = NULL, *v = NULL;
	aa_buf a = AA_BUF_INIT, b = AA_BUF_INIT;

	if (aa_untr_parse(&u, p, n) < 0 || !u)
		return;
	if (aa_untr_invalidate(u, paths[which % 6], which & 1) == 0 &&
	    aa_untr_write(u, &a) == 0) {
		fz_check(aa_untr_parse(&v, (unsigned char *)a.ptr, a.len) == 0 && v,
			 "written untracked cache does not parse", NULL);
		if (v) {
			fz_check(aa_untr_write(v, &b) == 0 && a.len == b.len &&
				 !memcmp(a.ptr, b.ptr, a.len),
				 "untracked cache written twice differs", NULL);
		}
	}
	aa_untr_free(u);
	aa_untr_free(v);
	aa_buf_free(&a);
	aa_buf_free(&b);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_init_oracles();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *p;

	if (!size)
		return 0;
	if (!(p = (unsigned char *)fz_copy(data + 1, size - 1)))
		return 0;
	if (data[0] & 1)
		bitmap(p, size - 1);
	else
		untracked(p, size - 1, data[0] >> 1);
	free(p);
	return 0;
}
