/* Unit tests for the text model (src/edit/text.c). */
#include <stdio.h>
#include <stdlib.h>
#include "unit.h"
#include "edit/text.h"
#include "edit/text_priv.h"

#define S(lit) lit, sizeof(lit) - 1

static void decode_ok(aa_text *t, const char *buf, size_t len)
{
	const char *why = NULL;

	if (aa_text_decode(t, buf, len, &why) < 0)
		fail_msg("decode failed: %s", why ? why : "(no reason)");
}

static void assert_line(const aa_text *t, size_t i, const char *s, aa_eol eol)
{
	assert_true(i < t->n);
	assert_int_equal(t->lines[i].len, strlen(s));
	if (strlen(s))
		assert_memory_equal(t->lines[i].s, s, strlen(s));
	assert_int_equal(t->lines[i].eol, eol);
}

/* Decoding then encoding must give back exactly the input bytes. */
static void assert_round_trip(const char *buf, size_t len)
{
	aa_text t = AA_TEXT_INIT;
	aa_buf out = AA_BUF_INIT;

	decode_ok(&t, buf, len);
	assert_int_equal(aa_text_encode(&t, &out), 0);
	assert_int_equal(out.len, len);
	if (len)
		assert_memory_equal(out.ptr, buf, len);
	aa_buf_free(&out);
	aa_text_free(&t);
}

static void test_empty_file(void **state)
{
	aa_text t = AA_TEXT_INIT;

	(void)state;
	decode_ok(&t, "", 0);
	assert_int_equal(t.n, 0);
	assert_int_equal(t.enc, AA_ENC_UTF8);
	assert_int_equal(t.dominant, AA_EOL_LF);
	assert_true(aa_text_has_final_newline(&t));
	aa_text_free(&t);
	decode_ok(&t, NULL, 0);
	assert_int_equal(t.n, 0);
	aa_text_free(&t);
}

static void test_one_line_with_newline(void **state)
{
	aa_text t = AA_TEXT_INIT;

	(void)state;
	decode_ok(&t, S("a\n"));
	assert_int_equal(t.n, 1);
	assert_line(&t, 0, "a", AA_EOL_LF);
	assert_true(aa_text_has_final_newline(&t));
	aa_text_free(&t);
}

static void test_no_final_newline(void **state)
{
	aa_text t = AA_TEXT_INIT;

	(void)state;
	decode_ok(&t, S("a\nb"));
	assert_int_equal(t.n, 2);
	assert_line(&t, 0, "a", AA_EOL_LF);
	assert_line(&t, 1, "b", AA_EOL_NONE);
	assert_false(aa_text_has_final_newline(&t));
	aa_text_free(&t);
}

static void test_mixed_endings(void **state)
{
	aa_text t = AA_TEXT_INIT;

	(void)state;
	decode_ok(&t, S("a\r\nb\rc\n\r\n\rd"));
	assert_int_equal(t.n, 6);
	assert_line(&t, 0, "a", AA_EOL_CRLF);
	assert_line(&t, 1, "b", AA_EOL_CR);
	assert_line(&t, 2, "c", AA_EOL_LF);
	assert_line(&t, 3, "", AA_EOL_CRLF);
	assert_line(&t, 4, "", AA_EOL_CR);
	assert_line(&t, 5, "d", AA_EOL_NONE);
	aa_text_free(&t);
}

static void test_lf_cr_is_two_lines(void **state)
{
	aa_text t = AA_TEXT_INIT;

	(void)state;
	/* "\n\r" is LF then a lone CR, not one terminator */
	decode_ok(&t, S("a\n\rb"));
	assert_int_equal(t.n, 3);
	assert_line(&t, 0, "a", AA_EOL_LF);
	assert_line(&t, 1, "", AA_EOL_CR);
	assert_line(&t, 2, "b", AA_EOL_NONE);
	aa_text_free(&t);
}

static void test_final_lone_cr(void **state)
{
	aa_text t = AA_TEXT_INIT;

	(void)state;
	decode_ok(&t, S("a\r"));
	assert_int_equal(t.n, 1);
	assert_line(&t, 0, "a", AA_EOL_CR);
	assert_int_equal(t.dominant, AA_EOL_CR);
	aa_text_free(&t);
}

static aa_eol dominant_of(const char *buf, size_t len)
{
	aa_text t = AA_TEXT_INIT;
	aa_eol e;

	decode_ok(&t, buf, len);
	e = t.dominant;
	aa_text_free(&t);
	return e;
}

static void test_dominant(void **state)
{
	(void)state;
	assert_int_equal(dominant_of(S("no terminator")), AA_EOL_LF);
	assert_int_equal(dominant_of(S("a\r\nb\r\nc\n")), AA_EOL_CRLF);
	assert_int_equal(dominant_of(S("a\rb\rc\r\n")), AA_EOL_CR);
	assert_int_equal(dominant_of(S("a\nb\rc\r\nd")), AA_EOL_LF);
	assert_int_equal(dominant_of(S("a\r\nb\r")), AA_EOL_CRLF);
	assert_int_equal(dominant_of(S("a\rb\n")), AA_EOL_LF);
	assert_int_equal(dominant_of(S("a\rb\r\nc\r\nd\r")), AA_EOL_CRLF);
}

static void test_utf8_bom(void **state)
{
	aa_text t = AA_TEXT_INIT;

	(void)state;
	decode_ok(&t, S("\xef\xbb\xbfhello\nworld\n"));
	assert_int_equal(t.enc, AA_ENC_UTF8_BOM);
	assert_int_equal(t.n, 2);
	assert_line(&t, 0, "hello", AA_EOL_LF);
	aa_text_free(&t);

	decode_ok(&t, S("\xef\xbb\xbf"));
	assert_int_equal(t.enc, AA_ENC_UTF8_BOM);
	assert_int_equal(t.n, 0);
	aa_text_free(&t);
}

static void test_invalid_utf8_and_nul_kept(void **state)
{
	aa_text t = AA_TEXT_INIT;

	(void)state;
	decode_ok(&t, S("\xff\x00z\n\xc3"));
	assert_int_equal(t.enc, AA_ENC_UTF8);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.lines[0].len, 3);
	assert_memory_equal(t.lines[0].s, "\xff\x00z", 3);
	assert_int_equal(t.lines[1].len, 1);
	assert_int_equal((unsigned char)t.lines[1].s[0], 0xc3);
	aa_text_free(&t);
}

static void test_utf16le(void **state)
{
	aa_text t = AA_TEXT_INIT;
	/* BOM, "é", CRLF, U+1F600 (surrogates D83D DE00), LF */
	static const char in[] = "\xff\xfe\xe9\x00\r\x00\n\x00"
				 "\x3d\xd8\x00\xde\n\x00";

	(void)state;
	decode_ok(&t, in, sizeof(in) - 1);
	assert_int_equal(t.enc, AA_ENC_UTF16LE);
	assert_int_equal(t.n, 2);
	assert_line(&t, 0, "\xc3\xa9", AA_EOL_CRLF);
	assert_line(&t, 1, "\xf0\x9f\x98\x80", AA_EOL_LF);
	aa_text_free(&t);
}

static void test_utf16be(void **state)
{
	aa_text t = AA_TEXT_INIT;
	static const char in[] = "\xfe\xff\x00h\x00i\x00\r\x20\xac";

	(void)state;
	decode_ok(&t, in, sizeof(in) - 1);
	assert_int_equal(t.enc, AA_ENC_UTF16BE);
	assert_int_equal(t.n, 2);
	assert_line(&t, 0, "hi", AA_EOL_CR);
	assert_line(&t, 1, "\xe2\x82\xac", AA_EOL_NONE);
	aa_text_free(&t);
}

static void assert_decode_fails(const char *buf, size_t len, const char *why)
{
	aa_text t = AA_TEXT_INIT;
	const char *got = NULL;

	assert_int_equal(aa_text_decode(&t, buf, len, &got), -1);
	assert_non_null(got);
	assert_string_equal(got, why);
	assert_int_equal(t.n, 0);
	assert_null(t.lines);
	aa_text_free(&t);
}

static void test_invalid_utf16(void **state)
{
	(void)state;
	assert_decode_fails(S("\xff\xfe" "a"), "invalid UTF-16");
	{
		aa_text t = AA_TEXT_INIT;

		/* a caller may not want the reason */
		assert_int_equal(aa_text_decode(&t, S("\xff\xfe" "a"), NULL), -1);
		assert_int_equal(aa_text_decode(&t, S("ok"), NULL), 0);
		aa_text_free(&t);
	}
	assert_decode_fails(S("\xff\xfe" "a\x00" "b"), "invalid UTF-16");
	/* lone high surrogate at the end, then before a non-surrogate */
	assert_decode_fails(S("\xff\xfe\x3d\xd8"), "invalid UTF-16");
	assert_decode_fails(S("\xff\xfe\x3d\xd8" "a\x00"), "invalid UTF-16");
	/* lone low surrogate */
	assert_decode_fails(S("\xfe\xff\xde\x00"), "invalid UTF-16");
	/* two high surrogates */
	assert_decode_fails(S("\xfe\xff\xd8\x3d\xd8\x3d"), "invalid UTF-16");
	/* the edges of the surrogate ranges */
	assert_decode_fails(S("\xfe\xff\xdc\x00"), "invalid UTF-16");
	assert_decode_fails(S("\xfe\xff\xdf\xff"), "invalid UTF-16");
	assert_decode_fails(S("\xfe\xff\xdb\xff\xe0\x00"), "invalid UTF-16");
	assert_decode_fails(S("\xfe\xff\xd8\x00\xdb\xff"), "invalid UTF-16");
}

static void test_utf16_surrogate_edges(void **state)
{
	aa_text t = AA_TEXT_INIT;

	(void)state;
	/* D800 DC00 = U+10000; DBFF DFFF = U+10FFFF; D7FF and E000 are BMP */
	decode_ok(&t, S("\xfe\xff\xd8\x00\xdc\x00\xdb\xff\xdf\xff"
			"\xd7\xff\xe0\x00"));
	assert_int_equal(t.n, 1);
	assert_line(&t, 0, "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf"
		    "\xed\x9f\xbf\xee\x80\x80", AA_EOL_NONE);
	aa_text_free(&t);
}

static void test_too_large(void **state)
{
	char *big = calloc(1, (size_t)AA_MAX_TEXT_SIZE + 1);

	(void)state;
	assert_non_null(big);
	assert_decode_fails(big, (size_t)AA_MAX_TEXT_SIZE + 1,
			    "file too large for a text edit");
	free(big);
}

static void test_round_trips(void **state)
{
	static const struct { const char *s; size_t len; } cases[] = {
		{ S("") },
		{ S("a") },
		{ S("a\n") },
		{ S("\n") },
		{ S("\n\n\n") },
		{ S("\r") },
		{ S("\r\r\n\n\r") },
		{ S("a\r\nb\rc\nd") },
		{ S("line one\r\nline two\r\n") },
		{ S("cr only\rlines\r") },
		{ S("\xef\xbb\xbf") },
		{ S("\xef\xbb\xbf" "x\r\ny") },
		{ S("\xef\xbb") },
		{ S("\xff\xfe") },
		{ S("\xfe\xff") },
		{ S("\xff\xfe\r\x00\n\x00\r\x00") },
		{ S("\xff\xfe" "a\x00\n\x00\x3d\xd8\x00\xde\x00\x00") },
		{ S("\xfe\xff\x00" "a\x00\r\x00\n\xd8\x3d\xde\x00\xff\xfd") },
		{ S("nul\x00" "byte\n\x00\n") },
		{ S("\x80\xff\xfe\xc0\xaf\xed\xa0\x80\n") },
		{ S("trailing spaces   \t\n\t") },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_round_trip(cases[i].s, cases[i].len);
}

/* Round trip of every byte string of length <= 4 over an alphabet rich in
 * terminators, BOM bytes and surrogate bytes. */
static void test_round_trip_exhaustive_small(void **state)
{
	static const char alpha[] = { 'a', '\n', '\r', '\0', '\xef', '\xbb',
				      '\xbf', '\xff', '\xfe', '\xd8', '\xdc' };
	const size_t k = sizeof(alpha);
	char buf[4];
	size_t len, idx, total;

	(void)state;
	for (len = 0; len <= 4; len++) {
		total = 1;
		for (idx = 0; idx < len; idx++)
			total *= k;
		for (idx = 0; idx < total; idx++) {
			size_t v = idx, j;
			aa_text t = AA_TEXT_INIT;
			const char *why;

			for (j = 0; j < len; j++) {
				buf[j] = alpha[v % k];
				v /= k;
			}
			if (aa_text_decode(&t, buf, len, &why) < 0) {
				/* only UTF-16 may fail */
				assert_true(len >= 2);
				assert_string_equal(why, "invalid UTF-16");
				aa_text_free(&t);
				continue;
			}
			aa_text_free(&t);
			assert_round_trip(buf, len);
		}
	}
}

/* Random UTF-16 input made of valid code units round-trips exactly. */
static void test_round_trip_random_utf16(void **state)
{
	unsigned seed = 12345;
	int iter;

	(void)state;
	for (iter = 0; iter < 500; iter++) {
		char buf[2 + 2 * 64];
		size_t len = 2, n, j;
		int be = iter & 1;

		buf[0] = be ? '\xfe' : '\xff';
		buf[1] = be ? '\xff' : '\xfe';
		seed = seed * 1103515245u + 12345u;
		n = (seed >> 16) % 32;
		for (j = 0; j < n; j++) {
			unsigned u, r;

			seed = seed * 1103515245u + 12345u;
			r = seed >> 8;
			switch (r % 5) {
			case 0: u = '\n'; break;
			case 1: u = '\r'; break;
			case 2: u = r >> 4 & 0x7f; break;
			case 3: u = 0xe000 + (r >> 4 & 0x1fff); break;
			default: u = 0x100 + (r >> 4 & 0x7fff); break;
			}
			if (u >= 0xd800 && u <= 0xdfff)
				u = 0x2028;
			if (r % 7 == 0) {
				/* a surrogate pair instead */
				unsigned hi = 0xd800 + (r >> 3 & 0x3ff);
				unsigned lo = 0xdc00 + (r >> 13 & 0x3ff);

				buf[len++] = (char)(be ? hi >> 8 : hi & 0xff);
				buf[len++] = (char)(be ? hi & 0xff : hi >> 8);
				u = lo;
			}
			if (len + 2 > sizeof(buf))
				break;
			buf[len++] = (char)(be ? u >> 8 : u & 0xff);
			buf[len++] = (char)(be ? u & 0xff : u >> 8);
		}
		assert_round_trip(buf, len);
	}
}

static void test_encode_appends(void **state)
{
	aa_text t = AA_TEXT_INIT;
	aa_buf out = AA_BUF_INIT;

	(void)state;
	decode_ok(&t, S("x\n"));
	assert_int_equal(aa_buf_puts(&out, "pre:"), 0);
	assert_int_equal(aa_text_encode(&t, &out), 0);
	assert_string_equal(out.ptr, "pre:x\n");
	aa_buf_free(&out);
	aa_text_free(&t);
}

static void assert_encoded(const aa_text *t, const char *want, size_t len)
{
	aa_buf out = AA_BUF_INIT;

	assert_int_equal(aa_text_encode(t, &out), 0);
	assert_int_equal(out.len, len);
	if (len)
		assert_memory_equal(out.ptr, want, len);
	aa_buf_free(&out);
}

static void test_splice_replace_middle(void **state)
{
	aa_text t = AA_TEXT_INIT;
	aa_line ins[] = {
		{ "X", 1, AA_EOL_LF },
		{ "YY", 2, AA_EOL_CRLF },
		{ "Z", 1, AA_EOL_CRLF },
	};

	(void)state;
	decode_ok(&t, S("a\r\nb\r\nc\r\nd"));
	assert_int_equal(aa_text_splice(&t, 1, 2, ins, 3), 0);
	assert_int_equal(t.n, 5);
	assert_encoded(&t, S("a\r\nX\nYY\r\nZ\r\nd"));
	aa_text_free(&t);
}

static void test_splice_insert_delete_ends(void **state)
{
	aa_text t = AA_TEXT_INIT;
	aa_line head = { "h", 1, AA_EOL_LF };
	aa_line tail = { "t", 1, AA_EOL_NONE };

	(void)state;
	decode_ok(&t, S("a\nb\n"));
	assert_int_equal(aa_text_splice(&t, 0, 0, &head, 1), 0);
	assert_int_equal(aa_text_splice(&t, t.n, 0, &tail, 1), 0);
	assert_encoded(&t, S("h\na\nb\nt"));
	assert_false(aa_text_has_final_newline(&t));
	assert_int_equal(aa_text_splice(&t, 1, 2, NULL, 0), 0);
	assert_encoded(&t, S("h\nt"));
	assert_int_equal(aa_text_splice(&t, 0, t.n, NULL, 0), 0);
	assert_int_equal(t.n, 0);
	assert_encoded(&t, "", 0);
	aa_text_free(&t);
}

static void test_splice_bounds(void **state)
{
	aa_text t = AA_TEXT_INIT;
	aa_line l = { "q", 1, AA_EOL_LF };
	aa_line bad_eol = { "q", 1, (aa_eol)7 };

	(void)state;
	decode_ok(&t, S("a\nb\n"));
	assert_int_equal(aa_text_splice(&t, 3, 0, &l, 1), -1);
	assert_int_equal(aa_text_splice(&t, 1, 2, &l, 1), -1);
	assert_int_equal(aa_text_splice(&t, 2, 1, &l, 1), -1);
	assert_int_equal(aa_text_splice(&t, 0, (size_t)-1, &l, 1), -1);
	assert_int_equal(aa_text_splice(&t, (size_t)-1, 1, &l, 1), -1);
	assert_int_equal(aa_text_splice(&t, 0, 0, NULL, 1), -1);
	assert_int_equal(aa_text_splice(&t, 0, 0, &bad_eol, 1), -1);
	assert_encoded(&t, S("a\nb\n"));
	assert_int_equal(aa_text_splice(&t, 2, 0, &l, 1), 0);
	assert_encoded(&t, S("a\nb\nq\n"));
	aa_text_free(&t);
}

/* ins may alias the text's own lines; splicing must copy them first. */
static void test_splice_from_own_lines(void **state)
{
	aa_text t = AA_TEXT_INIT;

	(void)state;
	decode_ok(&t, S("1\n2\n3\n"));
	assert_int_equal(aa_text_splice(&t, 0, 1, t.lines, 3), 0);
	assert_encoded(&t, S("1\n2\n3\n2\n3\n"));
	assert_int_equal(aa_text_splice(&t, 0, 0, t.lines + 3, 2), 0);
	assert_encoded(&t, S("2\n3\n1\n2\n3\n2\n3\n"));
	aa_text_free(&t);
}

/* Bytes are copied: the caller's buffer may change after the splice. */
static void test_splice_copies_bytes(void **state)
{
	aa_text t = AA_TEXT_INIT;
	char tmp[8] = "new";
	aa_line l = { tmp, 3, AA_EOL_LF };
	char *big = malloc(200000);
	aa_line lb = { big, 200000, AA_EOL_LF };
	aa_buf out = AA_BUF_INIT;

	(void)state;
	assert_non_null(big);
	memset(big, 'b', 200000);
	decode_ok(&t, S("old\n"));
	assert_int_equal(aa_text_splice(&t, 0, 1, &l, 1), 0);
	assert_int_equal(aa_text_splice(&t, 1, 0, &lb, 1), 0);
	assert_int_equal(aa_text_splice(&t, 2, 0, &l, 1), 0);
	memcpy(tmp, "XXX", 3);
	memset(big, 'X', 200000);
	assert_int_equal(aa_text_encode(&t, &out), 0);
	assert_int_equal(out.len, 3 + 1 + 200000 + 1 + 3 + 1);
	assert_memory_equal(out.ptr, "new\nbbb", 7);
	assert_memory_equal(out.ptr + out.len - 6, "b\nnew\n", 6);
	aa_buf_free(&out);
	free(big);
	aa_text_free(&t);
}

static void test_store(void **state)
{
	aa_text t = AA_TEXT_INIT;
	const char *a, *b;
	int i;

	(void)state;
	a = aa_text_store(&t, "hello", 5);
	assert_non_null(a);
	for (i = 0; i < 100000; i++)
		assert_non_null(aa_text_store(&t, "0123456789", 10));
	b = aa_text_store(&t, "", 0);
	assert_non_null(b);
	assert_memory_equal(a, "hello", 5);
	aa_text_free(&t);
}

static void test_splice_into_utf16(void **state)
{
	aa_text t = AA_TEXT_INIT;
	aa_line ins = { "\xe2\x82\xac!", 4, AA_EOL_CRLF };
	aa_line bad = { "\xff", 1, AA_EOL_CRLF };
	aa_buf out = AA_BUF_INIT;
	const char *why = NULL;

	(void)state;
	decode_ok(&t, S("\xff\xfe" "a\x00\r\x00\n\x00"));
	assert_int_equal(aa_text_splice(&t, 1, 0, &ins, 1), 0);
	assert_encoded(&t, S("\xff\xfe" "a\x00\r\x00\n\x00"
			     "\xac\x20!\x00\r\x00\n\x00"));
	assert_int_equal(aa_text_splice(&t, 0, 0, &bad, 1), 0);
	assert_int_equal(aa_text_encode_why(&t, &out, &why), -1);
	assert_non_null(why);
	assert_non_null(strstr(why, "UTF-16"));
	aa_buf_free(&out);
	aa_text_free(&t);
}

/* Only strict UTF-8 can be encoded as UTF-16. */
static void test_utf16_encode_rejects_bad_utf8(void **state)
{
	static const char *const bad[] = {
		"\xc0\xaf",             /* overlong '/' */
		"\xe0\x80\xaf",         /* overlong, 3 bytes */
		"\xf0\x80\x80\xaf",     /* overlong, 4 bytes */
		"\xed\xa0\x80",         /* encoded surrogate */
		"\xf4\x90\x80\x80",     /* above U+10FFFF */
		"\xe2\x82",             /* truncated */
		"\x80",                 /* lone continuation */
		"\xf8\x88\x80\x80\x80", /* 5-byte form */
		"a\xe2\x82(",           /* bad continuation */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		aa_text t = AA_TEXT_INIT;
		aa_buf out = AA_BUF_INIT;
		aa_line l = { bad[i], strlen(bad[i]), AA_EOL_LF };
		const char *why = NULL;

		decode_ok(&t, S("\xfe\xff"));
		assert_int_equal(aa_text_splice(&t, 0, 0, &l, 1), 0);
		if (aa_text_encode_why(&t, &out, &why) != -1)
			fail_msg("case %zu encoded", i);
		assert_int_equal(aa_text_encode(&t, &out), -1);
		aa_buf_free(&out);
		aa_text_free(&t);
	}
}

static void test_many_lines_fast(void **state)
{
	aa_buf in = AA_BUF_INIT, out = AA_BUF_INIT;
	aa_text t = AA_TEXT_INIT;
	size_t i;
	aa_line l = { "inserted", 8, AA_EOL_LF };

	(void)state;
	for (i = 0; i < 200000; i++)
		assert_int_equal(aa_buf_printf(&in, "line %zu\r\n", i), 0);
	decode_ok(&t, in.ptr, in.len);
	assert_int_equal(t.n, 200000);
	assert_int_equal(t.dominant, AA_EOL_CRLF);
	assert_line(&t, 199999, "line 199999", AA_EOL_CRLF);
	/* 2000 splices in the middle: O(n) each, so well within a second */
	for (i = 0; i < 2000; i++)
		assert_int_equal(aa_text_splice(&t, 1000 + i, 0, &l, 1), 0);
	assert_int_equal(t.n, 202000);
	assert_int_equal(aa_text_splice(&t, 1000, 2000, NULL, 0), 0);
	assert_int_equal(aa_text_encode(&t, &out), 0);
	assert_int_equal(out.len, in.len);
	assert_memory_equal(out.ptr, in.ptr, in.len);
	aa_buf_free(&in);
	aa_buf_free(&out);
	aa_text_free(&t);
}

static void test_look_binary(void **state)
{
	char *buf = malloc(9000);

	(void)state;
	assert_non_null(buf);
	assert_false(aa_bytes_look_binary(S("plain text\n")));
	assert_false(aa_bytes_look_binary("", 0));
	assert_false(aa_bytes_look_binary(NULL, 0));
	assert_true(aa_bytes_look_binary(S("a\0b")));
	assert_true(aa_bytes_look_binary(S("\0")));
	assert_false(aa_bytes_look_binary(S("\xff\xfe" "a\0b\0")));
	assert_false(aa_bytes_look_binary(S("\xfe\xff\0a\0b")));
	assert_true(aa_bytes_look_binary(S("\xef\xbb\xbf" "a\0")));
	assert_true(aa_bytes_look_binary(S("\xff" "a\0")));
	memset(buf, 'x', 9000);
	buf[7999] = '\0';
	assert_true(aa_bytes_look_binary(buf, 9000));
	buf[7999] = 'x';
	buf[8000] = '\0';
	assert_false(aa_bytes_look_binary(buf, 9000));
	free(buf);
}

static void test_enc_name(void **state)
{
	(void)state;
	assert_string_equal(aa_enc_name(AA_ENC_UTF8), "utf-8");
	assert_string_equal(aa_enc_name(AA_ENC_UTF8_BOM), "utf-8-bom");
	assert_string_equal(aa_enc_name(AA_ENC_UTF16LE), "utf-16le");
	assert_string_equal(aa_enc_name(AA_ENC_UTF16BE), "utf-16be");
}

static void test_free_twice_is_safe(void **state)
{
	aa_text t = AA_TEXT_INIT;

	(void)state;
	decode_ok(&t, S("a\nb\n"));
	aa_text_free(&t);
	aa_text_free(&t);
	assert_int_equal(t.n, 0);
	assert_null(t.chunks);
}

/* A line from an answer that ends in CR asks for a CRLF ending. */
static void test_line_own_eol(void **state)
{
	size_t len;

	(void)state;
	len = 4;
	assert_int_equal(aa_line_own_eol("abc\r", &len, AA_EOL_LF), AA_EOL_CRLF);
	assert_int_equal(len, 3);
	len = 3;
	assert_int_equal(aa_line_own_eol("abc", &len, AA_EOL_LF), AA_EOL_LF);
	assert_int_equal(len, 3);
	len = 0;
	assert_int_equal(aa_line_own_eol("", &len, AA_EOL_CR), AA_EOL_CR);
	assert_int_equal(len, 0);
	len = 1;
	assert_int_equal(aa_line_own_eol("\r", &len, AA_EOL_LF), AA_EOL_CRLF);
	assert_int_equal(len, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_file),
		cmocka_unit_test(test_one_line_with_newline),
		cmocka_unit_test(test_no_final_newline),
		cmocka_unit_test(test_mixed_endings),
		cmocka_unit_test(test_lf_cr_is_two_lines),
		cmocka_unit_test(test_final_lone_cr),
		cmocka_unit_test(test_dominant),
		cmocka_unit_test(test_utf8_bom),
		cmocka_unit_test(test_invalid_utf8_and_nul_kept),
		cmocka_unit_test(test_utf16le),
		cmocka_unit_test(test_utf16be),
		cmocka_unit_test(test_invalid_utf16),
		cmocka_unit_test(test_utf16_surrogate_edges),
		cmocka_unit_test(test_too_large),
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_round_trip_exhaustive_small),
		cmocka_unit_test(test_round_trip_random_utf16),
		cmocka_unit_test(test_encode_appends),
		cmocka_unit_test(test_splice_replace_middle),
		cmocka_unit_test(test_splice_insert_delete_ends),
		cmocka_unit_test(test_splice_bounds),
		cmocka_unit_test(test_splice_from_own_lines),
		cmocka_unit_test(test_splice_copies_bytes),
		cmocka_unit_test(test_store),
		cmocka_unit_test(test_splice_into_utf16),
		cmocka_unit_test(test_utf16_encode_rejects_bad_utf8),
		cmocka_unit_test(test_many_lines_fast),
		cmocka_unit_test(test_look_binary),
		cmocka_unit_test(test_enc_name),
		cmocka_unit_test(test_free_twice_is_safe),
		cmocka_unit_test(test_line_own_eol),
	};
	return AA_RUN_TESTS(tests);
}
