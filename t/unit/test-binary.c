/*
 * Unit tests of binary patches: git's base85 and the exact inflate
 * (src/util/base85.c), git's delta format and the binary engine
 * (src/edit/binary.c), the "GIT binary patch" parser
 * (src/format/diff_binary.c) and the payload's memory and reversal
 * (src/change/changeset.c). Every malformed input is refused, never
 * read out of bounds (the sanitizer build runs these too).
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "unit.h"
#include "edit/edit.h"
#include "util/util.h"
#include "parse-fixture.h"

/* ---- base85 ---- */

static void test_base85_decode(void **state)
{
	unsigned char out[16];

	(void)state;
	assert_int_equal(aa_base85_decode(out, 12, "Xk~0{Zy<MXa%^NF", 15), 0);
	assert_memory_equal(out, "hello world!", 12);
	/* a last group of fewer than four bytes: "abc" padded */
	memset(out, 0, sizeof(out));
	assert_int_equal(aa_base85_decode(out, 3, "VPazd", 5), 0);
	assert_memory_equal(out, "abc\0", 4); /* nothing written past 3 */
	/* a character outside the alphabet, a group over 2^32, too short */
	assert_int_equal(aa_base85_decode(out, 3, "VPa,d", 5), -1);
	assert_int_equal(aa_base85_decode(out, 4, "~~~~~", 5), -1);
	assert_int_equal(aa_base85_decode(out, 5, "VPazd", 5), -1);
	assert_int_equal(aa_base85_decode(out, 0, "", 0), 0);
}

/* ---- inflate to exactly the stated size ---- */

static void test_inflate_exact(void **state)
{
	unsigned char z[64], *out;
	uLongf zlen = sizeof(z);
	const char *why = NULL;

	(void)state;
	assert_int_equal(compress(z, &zlen, (const Bytef *)"hello", 5), Z_OK);
	assert_int_equal(aa_inflate_exact(z, zlen, 5, &out, &why), 0);
	assert_memory_equal(out, "hello", 5);
	free(out);
	assert_int_equal(aa_inflate_exact(z, zlen, 4, &out, &why), -1);
	assert_null(out);
	assert_string_equal(why, "the data inflates to more bytes than stated");
	assert_int_equal(aa_inflate_exact(z, zlen, 6, &out, &why), -1);
	assert_string_equal(why, "the data inflates to fewer bytes than stated");
	assert_int_equal(aa_inflate_exact(z, zlen - 3, 5, &out, &why), -1);
	assert_string_equal(why, "the deflated data is cut short");
	assert_int_equal(aa_inflate_exact((const unsigned char *)"hello", 5, 5,
					  &out, &why), -1);
	assert_string_equal(why, "the data is not zlib's deflate");
	assert_int_equal(aa_inflate_exact(z, 0, 5, &out, &why), -1);
	/* an empty result */
	zlen = sizeof(z);
	assert_int_equal(compress(z, &zlen, (const Bytef *)"", 0), Z_OK);
	assert_int_equal(aa_inflate_exact(z, zlen, 0, &out, &why), 0);
	free(out);
}

/* ---- git's delta ---- */

static const char src16[] = "0123456789abcdef";

/* Applies delta[0..n) to src16; the result or NULL, *why on failure. */
static int delta(const char *d, size_t n, aa_buf *out, const char **why)
{
	aa_buf_clear(out);
	return aa_delta_apply((const unsigned char *)src16, 16,
			      (const unsigned char *)d, n, 1000, out, why);
}

static void test_delta_valid(void **state)
{
	/* source 16, result 9: copy 6 bytes from offset 4, insert "XYZ" */
	static const char d[] = "\x10\x09\x91\x04\x06\x03XYZ";
	aa_buf out = AA_BUF_INIT;
	const char *why = NULL;

	(void)state;
	assert_int_equal(delta(d, sizeof(d) - 1, &out, &why), 0);
	assert_int_equal(out.len, 9);
	assert_memory_equal(out.ptr, "456789XYZ", 9);
	/* offset bytes 0 and 1 (flags 0x01, 0x02), size byte 0 (0x10) */
	assert_int_equal(delta("\x10\x02\x93\x0e\x00\x02", 6, &out, &why), 0);
	assert_memory_equal(out.ptr, "ef", 2);
	/* offset byte 1 alone: offset 0x100, past the source */
	assert_int_equal(delta("\x10\x02\x92\x01\x02", 5, &out, &why), -1);
	aa_buf_free(&out);
}

static void test_delta_refusals(void **state)
{
	aa_buf out = AA_BUF_INIT;
	const char *why = NULL;

	(void)state;
	/* cut short: the insert's bytes, the copy's arguments, the sizes */
	assert_int_equal(delta("\x10\x09\x91\x04\x06\x03XY", 8, &out, &why), -1);
	assert_string_equal(why, "an insert opcode is cut short");
	assert_int_equal(delta("\x10\x06\x91\x04", 4, &out, &why), -1);
	assert_string_equal(why, "a copy opcode is cut short");
	assert_int_equal(delta("\x10\x86\x80\x80", 4, &out, &why), -1);
	assert_string_equal(why, "the delta is cut short");
	assert_int_equal(delta("\x10", 1, &out, &why), -1);
	/* a copy past the source's end (offset 12, size 6) */
	assert_int_equal(delta("\x10\x06\x91\x0c\x06", 5, &out, &why), -1);
	assert_string_equal(why, "a copy reaches past the source's end");
	/* an offset far out (all four offset bytes) */
	assert_int_equal(delta("\x10\x06\x9f\xff\xff\xff\xff\x06", 8, &out, &why), -1);
	assert_string_equal(why, "a copy reaches past the source's end");
	/* sizes that disagree: the source's, the result's either way */
	assert_int_equal(delta("\x0f\x06\x91\x04\x06", 5, &out, &why), -1);
	assert_string_equal(why, "the delta is for a source of another size");
	assert_int_equal(delta("\x10\x07\x91\x04\x06", 5, &out, &why), -1);
	assert_string_equal(why, "the delta makes fewer bytes than its stated size");
	assert_int_equal(delta("\x10\x05\x91\x04\x06", 5, &out, &why), -1);
	assert_string_equal(why, "the delta makes more than its stated size");
	assert_int_equal(delta("\x10\x02\x03XYZ", 6, &out, &why), -1);
	assert_string_equal(why, "the delta makes more than its stated size");
	/* opcode 0 is reserved; a result over the limit */
	assert_int_equal(delta("\x10\x01\x00\x01", 4, &out, &why), -1);
	assert_string_equal(why, "the delta has the reserved opcode 0");
	assert_int_equal(delta("\x10\xe9\x07\x01X", 5, &out, &why), -1);
	assert_string_equal(why, "the delta's result is too large");
	aa_buf_free(&out);
}

/* A copy with no size byte copies 0x10000 bytes (files over 64 KiB). */
static void test_delta_copy_64k(void **state)
{
	size_t n = 70000, i;
	unsigned char *src = malloc(n);
	/* source 70000 = 0xf0 0xa2 0x04, result 65537 = 0x81 0x80 0x04 */
	static const unsigned char d[] = { 0xf0, 0xa2, 0x04, 0x81, 0x80, 0x04,
					   0x81, 0x10, 0x01, 'Q' };
	aa_buf out = AA_BUF_INIT;
	const char *why = NULL;

	(void)state;
	assert_non_null(src);
	for (i = 0; i < n; i++)
		src[i] = (unsigned char)(i * 7);
	assert_int_equal(aa_delta_apply(src, n, d, sizeof(d), 1u << 20, &out, &why), 0);
	assert_int_equal(out.len, 0x10001);
	assert_memory_equal(out.ptr, src + 0x10, 0x10000);
	assert_int_equal(out.ptr[0x10000], 'Q');
	free(src);
	aa_buf_free(&out);
}

/* ---- the parser and the engine ---- */

static const char literal_patch[] =
	"diff --git a/x.bin b/x.bin\n"
	"index e69de29bb2d1d6434b8b29ae775ad8c2e48c5391..db12d84d7d09898766cc3d68c37aa7d58f6c3702 100644\n"
	"GIT binary patch\n"
	"literal 11\n"
	"Sc-qTI&B@7UD9<m-NdW*EO9VXt\n"
	"\n"
	"literal 0\n"
	"HcmV?d00001\n"
	"\n";

static void test_parse_literal_and_engine(void **state)
{
	fixture f;
	aa_op *op;
	aa_edit_ctx cx = { 0 };
	aa_buf out = AA_BUF_INIT;
	aa_changeset copy = AA_CHANGESET_INIT;

	(void)state;
	assert_int_equal(parse(&f, literal_patch, AA_FORMAT_DIFF), 1);
	assert_int_equal(f.cs.n, 1);
	op = &f.cs.ops[0];
	assert_int_equal(op->kind, AA_OP_EDIT);
	assert_int_equal(op->edit_kind, AA_EDIT_BINARY);
	assert_int_equal(op->nbin, 2);
	assert_int_equal(op->bin[0].method, AA_BIN_LITERAL);
	assert_int_equal(op->bin[0].len, 11);
	assert_memory_equal(op->bin[0].data, "hello\0world", 11);
	assert_int_equal(op->bin[0].pos.line, 4);
	assert_int_equal(op->bin[1].len, 0);
	assert_int_equal(op->bin_pos.line, 3);
	assert_string_equal(op->base_blob, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
	assert_string_equal(op->new_blob, "db12d84d7d09898766cc3d68c37aa7d58f6c3702");
	/* the engine: a literal is the result */
	cx.diags = &f.d;
	cx.path = "x.bin";
	assert_int_equal(aa_engine_of(AA_EDIT_BINARY)->bytes("", 0, op, &cx, &out), 0);
	assert_int_equal(out.len, 11);
	assert_memory_equal(out.ptr, "hello\0world", 11);
	/* a copy owns its data; reversed, the ids and hunks swap */
	assert_int_equal(aa_op_clone(&copy, op), 0);
	assert_ptr_not_equal(copy.ops[0].bin[0].data, op->bin[0].data);
	assert_int_equal(aa_op_binary_reverse(&copy.ops[0]), 0);
	assert_string_equal(copy.ops[0].base_blob, op->new_blob);
	assert_string_equal(copy.ops[0].new_blob, op->base_blob);
	assert_int_equal(copy.ops[0].bin[0].len, 0);
	assert_int_equal(copy.ops[0].bin[1].len, 11);
	copy.ops[0].nbin = 1;
	assert_int_equal(aa_op_binary_reverse(&copy.ops[0]), -1);
	aa_changeset_free(&copy);
	aa_buf_free(&out);
	aa_edit_ctx_release(&cx);
	release(&f);
}

static void test_parse_refusals(void **state)
{
	fixture f;
	char bad[sizeof(literal_patch) + 16];
	char *p;

	(void)state;
	/* the stated size is not what the data inflates to */
	strcpy(bad, literal_patch);
	p = strstr(bad, "literal 11");
	p[9] = '2';
	assert_int_equal(parse(&f, bad, AA_FORMAT_DIFF), -1);
	assert_true(has_error(&f, 4, "inflates to fewer bytes than stated"));
	release(&f);
	/* the length character says more bytes than the line holds */
	strcpy(bad, literal_patch);
	p = strstr(bad, "Sc-q");
	p[0] = 'U';
	assert_int_equal(parse(&f, bad, AA_FORMAT_DIFF), -1);
	assert_true(has_error(&f, 5, "the length character does not match"));
	release(&f);
	/* an abbreviated index line */
	strcpy(bad, literal_patch);
	p = strstr(bad, "..db12d84");
	memmove(p + 9, p + 42, strlen(p + 42) + 1);
	assert_int_equal(parse(&f, bad, AA_FORMAT_DIFF), -1);
	assert_true(has_error(&f, 3, "without full index line"));
	release(&f);
	/* no hunk after "GIT binary patch" */
	assert_int_equal(parse(&f, "diff --git a/x b/x\nGIT binary patch\nnope\n",
			       AA_FORMAT_DIFF), -1);
	assert_true(has_error(&f, 2, "unrecognized binary patch"));
	release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base85_decode),
		cmocka_unit_test(test_inflate_exact),
		cmocka_unit_test(test_delta_valid),
		cmocka_unit_test(test_delta_refusals),
		cmocka_unit_test(test_delta_copy_64k),
		cmocka_unit_test(test_parse_literal_and_engine),
		cmocka_unit_test(test_parse_refusals),
	};

	return AA_RUN_TESTS(tests);
}
