/*
 * libFuzzer target: the pieces of a binary patch below the parser
 * (fuzz-diff covers "GIT binary patch" itself): git's delta applied
 * by aa_delta_apply, git's base85 by aa_base85_decode, and zlib's
 * inflate to an exact size by aa_inflate_exact, each on exact-size heap
 * copies so that ASan sees any read past the input.
 *
 * Input layout: 2 control bytes, then a payload. The first byte splits
 * the payload (at its value times the payload's length / 256): the head
 * is a delta's source (and base85 text, and deflate data), the tail the
 * delta. The second byte is a stated size for the decoders.
 *
 * Contracts checked (abort on violation, unless AA_FUZZ_NO_ORACLES=1):
 *  - a delta that applies makes exactly the size it states, at most
 *    the limit given, and never fails without a reason;
 *  - a decode or inflate that succeeds fills exactly the stated size.
 */
#include "fuzz.h"
#include "edit/edit.h"
#include "util/util.h"

#define LIMIT (1u << 20)

/* The result size a delta states (its second varint), or -1. */
static long stated_result(const unsigned char *d, size_t n)
{
	size_t i = 0, k;
	unsigned long long v = 0;

	for (k = 0; k < 2; k++) {
		unsigned shift = 0;

		v = 0;
		do {
			if (i >= n || shift > 56)
				return -1;
			v |= (unsigned long long)(d[i] & 0x7f) << shift;
			shift += 7;
		} while (d[i++] & 0x80);
	}
	return v > LIMIT ? -1 : (long)v;
}

static void run_delta(const unsigned char *src, size_t slen,
		      const unsigned char *delta, size_t dlen)
{
	aa_buf out = AA_BUF_INIT;
	const char *why = NULL;

	if (aa_delta_apply(src, slen, delta, dlen, LIMIT, &out, &why) == 0) {
		fz_check(stated_result(delta, dlen) == (long)out.len,
			 "a delta made another size than it states", NULL);
		fz_check(out.len <= LIMIT, "a delta made more than the limit", NULL);
	} else {
		fz_check(why != NULL, "a refused delta without a reason", NULL);
	}
	aa_buf_free(&out);
}

static void run_decoders(const unsigned char *p, size_t n, size_t size)
{
	unsigned char *dec = malloc(size ? size : 1), *inf = NULL;
	const char *why = NULL;

	if (dec && aa_base85_decode(dec, size, (const char *)p, n) == 0)
		fz_check((size + 3) / 4 * 5 <= n, "base85 read past its input", NULL);
	free(dec);
	if (aa_inflate_exact(p, n, size, &inf, &why) == 0)
		fz_check(inf != NULL, "inflate succeeded without a buffer", NULL);
	else
		fz_check(inf == NULL && why, "a refused inflate kept a buffer", NULL);
	free(inf);
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
	size_t n, cut;
	unsigned char *head, *tail;

	if (size < 2)
		return 0;
	n = size - 2;
	cut = n * data[0] / 256;
	head = (unsigned char *)fz_copy(data + 2, cut);
	tail = (unsigned char *)fz_copy(data + 2 + cut, n - cut);
	if (head && tail) {
		run_delta(head, cut, tail, n - cut);
		run_decoders(head, cut, data[1]);
	}
	free(head);
	free(tail);
	return 0;
}
