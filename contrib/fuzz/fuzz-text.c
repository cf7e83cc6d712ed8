/*
 * libFuzzer target: the text model. aa_text_decode -> aa_text_splice ->
 * aa_text_encode, with the round trip checked.
 *
 * Input layout: 13 control bytes, then a payload. The payload is split
 * at a control-chosen point: the tail is the file to decode, the head
 * supplies the lines to insert (split at '\n'). Three splices run, each
 * with its own position, deletion count, insertion count and line
 * terminators.
 *
 * Contracts checked (abort on violation, unless AA_FUZZ_NO_ORACLES=1):
 *  - decoding then encoding gives back the identical bytes;
 *  - a splice keeps every line outside it and counts lines right;
 *  - an out-of-range splice is refused and leaves the text alone;
 *  - the encoding of an edited text decodes and re-encodes to itself;
 *  - after aa_text_strip_trailing_ws no line ends in a blank.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit/edit.h"
#include "edit/text.h"

#define NCTL 13 /* 4 per splice, 1 for the split */
#define MAX_INS 64

static int oracles = 1;

static void oracle_failed(const char *what)
{
	fprintf(stderr, "ORACLE: %s\n", what);
	abort();
}

static void check(int ok, const char *what)
{
	if (oracles && !ok)
		oracle_failed(what);
}

static int lines_equal(const aa_line *a, const aa_line *b)
{
	return a->len == b->len && a->eol == b->eol &&
	       (!a->len || !memcmp(a->s, b->s, a->len));
}

/* Decoding `buf` then encoding gives `buf` back. */
static void check_round_trip(const char *buf, size_t len, const char *what)
{
	aa_text t = AA_TEXT_INIT;
	aa_buf out = AA_BUF_INIT;
	const char *why = NULL;

	if (aa_text_decode(&t, buf, len, &why) == 0) {
		if (aa_text_encode(&t, &out) == 0)
			check(out.len == len && (!len || !memcmp(out.ptr, buf, len)),
			      what);
		else
			check(0, "encode of a decoded text failed");
		check(aa_text_has_final_newline(&t) ==
			      (t.n == 0 || t.lines[t.n - 1].eol != AA_EOL_NONE),
		      "aa_text_has_final_newline");
	} else {
		check(why != NULL, "decode failed without a reason");
	}
	aa_text_free(&t);
	aa_buf_free(&out);
}

/* Cuts the insertion source into at most MAX_INS lines. */
static size_t make_ins(aa_line *ins, size_t want, const char *src,
		       size_t len, unsigned eolbits)
{
	size_t n = 0, off = 0;

	while (n < want && n < MAX_INS) {
		const char *nl = off < len ? memchr(src + off, '\n', len - off) : NULL;
		size_t l = nl ? (size_t)(nl - (src + off)) : len - off;

		ins[n].s = l ? src + off : NULL;
		ins[n].len = l;
		/* Keep NULL for empty lines sometimes: allowed with len 0. */
		if (!l && (eolbits & 1))
			ins[n].s = "";
		ins[n].eol = (aa_eol)((eolbits >> ((n % 4) * 2)) & 3);
		n++;
		off = nl ? off + l + 1 : len;
	}
	return n;
}

/* A snapshot of the lines (contents copied) to compare after a splice. */
static aa_line *copy_lines(const aa_text *t, char **store)
{
	size_t i, total = 0, off = 0;
	aa_line *v = malloc((t->n ? t->n : 1) * sizeof(*v));

	for (i = 0; i < t->n; i++)
		total += t->lines[i].len;
	*store = malloc(total ? total : 1);
	if (!v || !*store) {
		free(v);
		free(*store);
		*store = NULL;
		return NULL;
	}
	for (i = 0; i < t->n; i++) {
		v[i] = t->lines[i];
		if (v[i].len)
			memcpy(*store + off, t->lines[i].s, v[i].len);
		v[i].s = *store + off;
		off += v[i].len;
	}
	return v;
}

static void one_splice(aa_text *t, const uint8_t *ctl, const char *src,
		       size_t srclen)
{
	aa_line ins[MAX_INS];
	size_t n0 = t->n, at, del, nins, i;
	aa_line *before;
	char *store;
	int r;

	/* One time in eight, deliberately out of range. */
	at = n0 ? ctl[0] % (n0 + 1) : 0;
	if ((ctl[0] & 0xe0) == 0xe0)
		at = n0 + 1 + (ctl[0] & 3);
	del = ctl[1] % 8;
	nins = make_ins(ins, ctl[2] % 12, src, srclen, ctl[3]);
	before = copy_lines(t, &store);
	if (!before)
		return;
	r = aa_text_splice(t, at, del, ins, nins);
	if (at > n0 || del > n0 - at) {
		check(r == -1, "out-of-range splice accepted");
		check(t->n == n0, "refused splice changed the line count");
		for (i = 0; i < t->n && i < n0; i++)
			check(lines_equal(&t->lines[i], &before[i]),
			      "refused splice changed a line");
	} else if (r == 0) {
		check(t->n == n0 - del + nins, "line count after splice");
		for (i = 0; i < at; i++)
			check(lines_equal(&t->lines[i], &before[i]),
			      "splice changed a line before it");
		for (i = 0; i < nins; i++)
			check(lines_equal(&t->lines[at + i], &ins[i]),
			      "inserted line differs");
		for (i = at + del; i < n0; i++)
			check(lines_equal(&t->lines[i - del + nins], &before[i]),
			      "splice changed a line after it");
	}
	free(before);
	free(store);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *e = getenv("AA_FUZZ_NO_ORACLES");

	(void)argc;
	(void)argv;
	oracles = !(e && *e && strcmp(e, "0"));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *ctl = data;
	size_t plen, split, k, i;
	char *src, *file;
	aa_text t = AA_TEXT_INIT;
	aa_buf out = AA_BUF_INIT;
	const char *why = NULL;

	if (size < NCTL)
		return 0;
	plen = size - NCTL;
	split = plen * ctl[12] / 256;
	/* Exact-size copies, so ASan sees reads past either part. */
	src = malloc(split ? split : 1);
	file = malloc(plen - split ? plen - split : 1);
	if (!src || !file)
		goto out;
	memcpy(src, data + NCTL, split);
	memcpy(file, data + NCTL + split, plen - split);

	check_round_trip(file, plen - split, "decode/encode is not identity");
	if (aa_text_decode(&t, file, plen - split, &why) < 0)
		goto out;
	for (k = 0; k < 3; k++)
		one_splice(&t, ctl + 4 * k, src, split);
	if (aa_text_encode(&t, &out) == 0)
		check_round_trip(out.ptr, out.len,
				 "edited text does not round-trip");
	else
		/* Only a UTF-16 text can refuse bytes that are not UTF-8. */
		check(t.enc == AA_ENC_UTF16LE || t.enc == AA_ENC_UTF16BE,
		      "encode of a UTF-8 text failed");

	if (aa_text_strip_trailing_ws(&t) == 0)
		for (i = 0; i < t.n; i++)
			check(!t.lines[i].len ||
				      (t.lines[i].s[t.lines[i].len - 1] != ' ' &&
				       t.lines[i].s[t.lines[i].len - 1] != '\t'),
			      "trailing blank left after strip");
	(void)aa_bytes_look_binary(file, plen - split);
out:
	aa_text_free(&t);
	aa_buf_free(&out);
	free(src);
	free(file);
	return 0;
}
