/*
 * The binary part of a git diff (Documentation/format-diff.md,
 * "Binary patches"), read as git's apply.c reads it: "GIT binary
 * patch", then a forward hunk and an optional reverse one, each a
 * "literal <size>" or "delta <size>" line, lines of base85 data (a
 * length character, A-Z for 1-26 bytes and a-z for 27-52, then five
 * characters for each four bytes), and a blank line. The data of a
 * hunk is zlib's deflate of exactly <size> bytes: the result itself
 * (literal) or git's delta against the pre-image (delta). Decoding is
 * done here; the delta is applied, and the object ids checked, when
 * the change is planned (src/edit/binary.c, src/plan/plan_binary.c).
 */
#include <stdlib.h>
#include <string.h>

#include "aiapply/common.h"
#include "change/changeset.h"
#include "format/diff_int.h"
#include "util/util.h"

/* Most bytes one base85 line gives (git writes at most 52). */
#define LINE_MAX_BYTES 52

static int corrupt(aa_dparser *P, const aa_dline *l, const char *name,
		   const char *why)
{
	return aa_error(P->d, aa_diff_pos(P, l->lineno), name,
			"corrupt binary patch: %s (%s)", why,
			aa_qtext(l->s, l->len, 60));
}

/* "literal <size>" / "delta <size>": 1 with the hunk's method and size. */
static int method_line(const aa_dline *l, aa_bin_method *m, size_t *size,
		       int *bad_size)
{
	const char *p, *end = l->s + l->len;
	size_t v = 0;

	*bad_size = 0;
	if (aa_diff_starts(l, "literal "))
		*m = AA_BIN_LITERAL, p = l->s + 8;
	else if (aa_diff_starts(l, "delta "))
		*m = AA_BIN_DELTA, p = l->s + 6;
	else
		return 0;
	if (p == end || *p < '0' || *p > '9')
		*bad_size = 1;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (size_t)(*p - '0');
		if (v > AA_MAX_INPUT_SIZE) {
			*bad_size = 2;
			return 1;
		}
	}
	while (p < end && aa_is_blank(*p))
		p++;
	if (p != end)
		*bad_size = 1;
	*size = v;
	return 1;
}

/* The bytes one data line stands for: its length character's. */
static int line_bytes(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 1;
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 27;
	return -1;
}

/* A line that ends a hunk's data: blank, or a Markdown fence. */
static int ends_data(const aa_dline *l)
{
	size_t i = 0;

	while (i < l->len && aa_is_blank(l->s[i]))
		i++;
	return i == l->len || aa_diff_starts(l, "```") || aa_diff_starts(l, "~~~");
}

/* One data line decoded and appended to raw. */
static int data_line(aa_dparser *P, const aa_dline *l, const char *name,
		     aa_buf *raw)
{
	unsigned char out[LINE_MAX_BYTES];
	size_t chars = l->len - 1, max;
	int n;

	/* git: at least "A00000", a length character and groups of five */
	if (l->len < 6 || chars % 5)
		return corrupt(P, l, name, "a data line is not a length "
			       "character and groups of five base85 characters");
	n = line_bytes(l->s[0]);
	max = chars / 5 * 4;
	if (n < 0)
		return corrupt(P, l, name, "a data line does not start with its "
			       "length (A-Z, a-z)");
	if ((size_t)n > max || (size_t)n + 4 <= max)
		return corrupt(P, l, name, "the length character does not match "
			       "the line's length");
	if (aa_base85_decode(out, (size_t)n, l->s + 1, chars) < 0)
		return corrupt(P, l, name, "not base85");
	if (raw->len + (size_t)n > AA_MAX_INPUT_SIZE)
		return corrupt(P, l, name, "too much data");
	return aa_buf_put(raw, (const char *)out, (size_t)n) < 0
	       ? aa_oom(P->d, aa_diff_pos(P, l->lineno), name) : 0;
}

/*
 * One hunk from its method line (current): 1 read into *h, 0 when the
 * current line is no method line, -1 on error.
 */
static int read_hunk(aa_dparser *P, const char *name, aa_binhunk *h)
{
	aa_dline l, first;
	aa_buf raw = AA_BUF_INIT;
	size_t size = 0;
	int bad, r = 0;
	const char *why = NULL;

	if (!aa_diff_peek(P, 0, &first) ||
	    !method_line(&first, &h->method, &size, &bad))
		return 0;
	if (bad)
		return corrupt(P, &first, name, bad == 2
			       ? "the stated size is too large" : "no size after the method");
	h->pos = aa_diff_pos(P, first.lineno);
	if (aa_diff_take(P, &first) < 0)
		return -1;
	while (aa_diff_peek(P, 0, &l) && !ends_data(&l) && !r) {
		r = data_line(P, &l, name, &raw);
		if (!r && aa_diff_take(P, &l) < 0)
			r = -1;
	}
	/* the blank line after the data is the hunk's (a fence is not) */
	if (!r && aa_diff_peek(P, 0, &l) && ends_data(&l) &&
	    !aa_diff_starts(&l, "```") && !aa_diff_starts(&l, "~~~"))
		aa_diff_advance(P, &l);
	if (!r && aa_inflate_exact((const unsigned char *)(raw.ptr ? raw.ptr : ""),
				   raw.len, size, &h->data, &why) < 0)
		r = aa_error(P->d, h->pos, name, "corrupt binary patch: %s "
			     "(the hunk states %zu bytes)", why, size);
	if (!r)
		h->len = size;
	aa_buf_free(&raw);
	return r < 0 ? -1 : 1;
}

int aa_diff_read_binary(aa_dparser *P, const char *name, aa_binhunk bin[2],
			size_t *nbin)
{
	aa_dline l;
	int r;

	aa_diff_peek(P, 0, &l);
	if (aa_diff_take(P, &l) < 0)
		return -1;
	*nbin = 0;
	r = read_hunk(P, name, &bin[0]);
	if (r == 0)
		return aa_error(P->d, aa_diff_pos(P, l.lineno), name,
				"unrecognized binary patch: 'GIT binary patch' is not "
				"followed by a 'literal <size>' or 'delta <size>' line");
	if (r < 0)
		return -1;
	*nbin = 1;
	r = read_hunk(P, name, &bin[1]);
	if (r < 0)
		return -1;
	*nbin += (size_t)r;
	return 0;
}

/* Up to 40 hex digits into id (NUL-terminated); their count. */
static size_t hex_run(const char *s, size_t len, char id[41])
{
	size_t n = 0;

	while (n < len && n < 41 && strchr("0123456789abcdef", s[n]) && s[n])
		n++;
	if (n > 40)
		return 0;
	memcpy(id, s, n);
	id[n] = '\0';
	return n;
}

int aa_diff_index_ids(const char *s, size_t len, char old_id[41],
		      char new_id[41])
{
	size_t a = hex_run(s, len, old_id), b;

	new_id[0] = '\0';
	if (!a || a + 2 > len || s[a] != '.' || s[a + 1] != '.')
		return 0;
	b = hex_run(s + a + 2, len - a - 2, new_id);
	if (!b || (a + 2 + b < len && s[a + 2 + b] != ' '))
		return 0;
	return a == 40 && b == 40;
}
