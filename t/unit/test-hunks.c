/*
 * Unit tests of the hunk engine (src/edit/hunks.c): SPEC "Locating
 * edits" (the ladder: exact at the hint, exact nearest the hint,
 * already applied, whitespace-insensitive, reduced context), "Text
 * fidelity", "Already applied", --strict (seed 004) and the deletion
 * check (aa_edit_check_deletion).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "unit.h"
#include "edit/edit.h"

/*
 * One hunk as the diff parser leaves it. `body` holds one line per
 * hunk line: its kind (' ', '-', '+') then its text; a final '\n' does
 * not start another line. The counts are taken from the body.
 */
typedef struct hspec {
	int has_hint;
	long old_start, new_start;
	const char *body;
	int old_no_eol, new_no_eol, count_mismatch;
} hspec;

#define H(os, ns, body) { 1, (os), (ns), (body), 0, 0, 0 }
#define BARE(body) { 0, 0, 0, (body), 0, 0, 0 }

/* The input line of hunk i (its "@@" line). */
#define HUNK_LINE(i) (20 + 10 * (long)(i))

typedef struct run {
	aa_diags d;
	aa_edit_ctx cx;
	aa_buf out;
	int rc;
} run;

static void add_hunks(aa_op *op, const hspec *hs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		aa_pos hp = { "answer.md", HUNK_LINE(i) };
		aa_hunk *h = aa_op_add_hunk(op, hp);
		const char *p = hs[i].body, *end = p + strlen(p);

		assert_non_null(h);
		h->has_hint = hs[i].has_hint;
		h->old_start = hs[i].old_start;
		h->new_start = hs[i].new_start;
		h->old_no_eol = hs[i].old_no_eol;
		h->new_no_eol = hs[i].new_no_eol;
		h->count_mismatch = hs[i].count_mismatch;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

			assert_true(len >= 1);
			assert_true(*p == ' ' || *p == '-' || *p == '+');
			assert_int_equal(aa_hunk_add_line(h, *p, p + 1, len - 1), 0);
			if (*p != '+')
				h->old_count++;
			if (*p != '-')
				h->new_count++;
			p = nl ? nl + 1 : end;
		}
	}
}

/* How apply_len() runs the engine. */
enum { MODE_LADDER = 0, MODE_STRICT = 1, MODE_EXACT_ONLY = 2 };

/* Decodes `file`, applies the hunks, encodes the result when it worked. */
static void apply_len(run *r, const char *file, size_t len, const hspec *hs,
		      size_t n, int mode)
{
	int strict = mode == MODE_STRICT;
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_text t = AA_TEXT_INIT;
	aa_pos pos = { "answer.md", 5 };
	const char *why = NULL;
	aa_op *op;

	memset(r, 0, sizeof(*r));
	r->cx.path = "f.txt";
	r->cx.diags = &r->d;
	r->cx.strict = strict;
	r->cx.exact_only = mode == MODE_EXACT_ONLY;
	op = aa_changeset_add(&cs, AA_OP_EDIT, pos);
	assert_non_null(op);
	op->path = aa_strdup("f.txt");
	op->edit_kind = AA_EDIT_HUNKS;
	op->strict = strict;
	op->format = "diff";
	add_hunks(op, hs, n);
	if (aa_text_decode(&t, file, len, &why) < 0)
		fail_msg("decode: %s", why ? why : "?");
	r->rc = aa_edit_hunks(&t, op, &r->cx);
	if (r->rc == 0)
		assert_int_equal(aa_text_encode(&t, &r->out), 0);
	aa_text_free(&t);
	aa_changeset_free(&cs);
}

static void run_free(run *r)
{
	aa_diags_free(&r->d);
	aa_edit_ctx_release(&r->cx);
	aa_buf_free(&r->out);
}

#define APPLY(r, file, ...) do { \
	const hspec hs_[] = { __VA_ARGS__ }; \
	apply_len((r), (file), strlen(file), hs_, sizeof(hs_) / sizeof(*hs_), 0); \
} while (0)

#define APPLY_STRICT(r, file, ...) do { \
	const hspec hs_[] = { __VA_ARGS__ }; \
	apply_len((r), (file), strlen(file), hs_, sizeof(hs_) / sizeof(*hs_), MODE_STRICT); \
} while (0)

/* Rungs 1 and 2 only (aa_edit_ctx.exact_only), as the planner's first try. */
#define APPLY_EXACT_ONLY(r, file, ...) do { \
	const hspec hs_[] = { __VA_ARGS__ }; \
	apply_len((r), (file), strlen(file), hs_, sizeof(hs_) / sizeof(*hs_), MODE_EXACT_ONLY); \
} while (0)

static void assert_out_len(const run *r, const char *want, size_t len)
{
	if (r->rc != 0)
		fail_msg("applying failed: %s", r->d.n ? r->d.v[0].msg : "(no message)");
	if (r->out.len != len || (len && memcmp(r->out.ptr, want, len)))
		fail_msg("got \"%.*s\" (%zu bytes), want \"%s\" (%zu bytes)",
			 (int)r->out.len, r->out.ptr ? r->out.ptr : "", r->out.len,
			 want, len);
}

static void assert_out(const run *r, const char *want)
{
	assert_out_len(r, want, strlen(want));
}

static size_t count_level(const aa_diags *d, aa_diag_level level)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++)
		n += d->v[i].level == level;
	return n;
}

/* The message of the first diagnostic of `level` (fails when none). */
static const char *msg_of(const aa_diags *d, aa_diag_level level)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].level == level)
			return d->v[i].msg;
	fail_msg("no diagnostic of level %d", (int)level);
	return "";
}

static const aa_diag *first_error(const aa_diags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].level == AA_DIAG_ERROR)
			return &d->v[i];
	fail_msg("no error");
	return NULL;
}

/* Does `msg` hold the number n as a whole number (not part of another)? */
static int has_number(const char *msg, long n)
{
	char num[32];
	const char *p = msg;
	size_t len;

	snprintf(num, sizeof(num), "%ld", n);
	len = strlen(num);
	while ((p = strstr(p, num)) != NULL) {
		int before = p > msg && p[-1] >= '0' && p[-1] <= '9';
		int after = p[len] >= '0' && p[len] <= '9';

		if (!before && !after)
			return 1;
		p++;
	}
	return 0;
}

#define assert_has(msg, needle) do { \
	const char *m_ = (msg); \
	if (!strstr(m_, (needle))) \
		fail_msg("\"%s\" not in message: %s", (needle), m_); \
} while (0)

#define assert_has_number(msg, n) do { \
	const char *m_ = (msg); \
	if (!has_number(m_, (n))) \
		fail_msg("line %ld not in message: %s", (long)(n), m_); \
} while (0)

/* A refusal: one error, at the hunk's input line, for the path. */
static const char *assert_refused(const run *r, long hunk_line)
{
	const aa_diag *e;

	assert_int_equal(r->rc, -1);
	assert_int_equal(r->d.nerrors, 1);
	e = first_error(&r->d);
	assert_int_equal(e->line, hunk_line);
	assert_non_null(e->path);
	assert_string_equal(e->path, "f.txt");
	return e->msg;
}

static void assert_landing(const run *r, size_t i, aa_how how, long line,
			   long offset)
{
	const aa_landing *l;

	if (i >= r->cx.nlandings)
		fail_msg("no landing %zu (%zu in all)", i, r->cx.nlandings);
	l = &r->cx.landings[i];
	if (l->how != how || l->line != line || l->offset != offset)
		fail_msg("landing %zu: got %s at line %ld offset %ld, want %s at line %ld offset %ld",
			 i, aa_how_name(l->how), l->line, l->offset,
			 aa_how_name(how), line, offset);
	assert_int_equal(l->pos.line, HUNK_LINE(i));
}

#define L10 "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n"
#define L10_L5 "l1\nl2\nl3\nl4\nL5\nl6\nl7\nl8\nl9\nl10\n"
#define HUNK_L5 " l4\n-l5\n+L5\n l6\n"

/* ---- rung 1: exact at the hinted line ------------------------------------ */

static void test_rung1_exact(void **state)
{
	run r;

	(void)state;
	APPLY(&r, L10, H(4, 4, HUNK_L5));
	assert_out(&r, L10_L5);
	assert_int_equal(r.cx.nlandings, 1);
	assert_landing(&r, 0, AA_HOW_EXACT, 4, 0);
	assert_int_equal(r.cx.applied, 1);
	assert_int_equal(r.cx.skipped, 0);
	/* nothing to say about an exact landing */
	assert_int_equal(r.d.n, 0);
	run_free(&r);
}

/* Removal only, addition only (with context), first and last lines. */
static void test_rung1_shapes(void **state)
{
	run r;

	(void)state;
	APPLY(&r, L10, H(4, 4, " l4\n-l5\n-l6\n l7\n"));
	assert_out(&r, "l1\nl2\nl3\nl4\nl7\nl8\nl9\nl10\n");
	assert_landing(&r, 0, AA_HOW_EXACT, 4, 0);
	run_free(&r);
	APPLY(&r, L10, H(4, 4, " l4\n+new\n l5\n"));
	assert_out(&r, "l1\nl2\nl3\nl4\nnew\nl5\nl6\nl7\nl8\nl9\nl10\n");
	assert_landing(&r, 0, AA_HOW_EXACT, 4, 0);
	run_free(&r);
	APPLY(&r, L10, H(1, 1, "-l1\n+first\n l2\n"));
	assert_out(&r, "first\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
	assert_landing(&r, 0, AA_HOW_EXACT, 1, 0);
	run_free(&r);
	APPLY(&r, L10, H(9, 9, " l9\n-l10\n+last\n+more\n"));
	assert_out(&r, "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nlast\nmore\n");
	assert_landing(&r, 0, AA_HOW_EXACT, 9, 0);
	run_free(&r);
	/* the whole file */
	APPLY(&r, "a\nb\n", H(1, 1, "-a\n-b\n+c\n"));
	assert_out(&r, "c\n");
	assert_landing(&r, 0, AA_HOW_EXACT, 1, 0);
	run_free(&r);
}

/* The preimage is there: it is applied, even if the postimage is too. */
static void test_preimage_wins_over_already_applied(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "a\nb\nX\na\nc\n", H(1, 1, " a\n-b\n+c\n"));
	assert_out(&r, "a\nc\nX\na\nc\n");
	assert_landing(&r, 0, AA_HOW_EXACT, 1, 0);
	assert_int_equal(r.cx.skipped, 0);
	run_free(&r);
}

/* ---- rung 2: exact, nearest the hint ---------------------------------------- */

static void test_rung2_offset_positive(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "h1\nh2\nh3\n" L10, H(4, 4, HUNK_L5));
	assert_out(&r, "h1\nh2\nh3\n" L10_L5);
	assert_landing(&r, 0, AA_HOW_OFFSET, 7, 3);
	assert_int_equal(r.d.nerrors, 0);
	assert_int_equal(count_level(&r.d, AA_DIAG_WARNING), 1);
	assert_has_number(msg_of(&r.d, AA_DIAG_WARNING), 7);
	run_free(&r);
}

static void test_rung2_offset_negative(void **state)
{
	run r;

	(void)state;
	APPLY(&r, L10, H(8, 8, HUNK_L5));
	assert_out(&r, L10_L5);
	assert_landing(&r, 0, AA_HOW_OFFSET, 4, -4);
	assert_int_equal(count_level(&r.d, AA_DIAG_WARNING), 1);
	assert_has_number(msg_of(&r.d, AA_DIAG_WARNING), 4);
	run_free(&r);
	/* a hint past the end of the file */
	APPLY(&r, L10, H(40, 40, HUNK_L5));
	assert_out(&r, L10_L5);
	assert_landing(&r, 0, AA_HOW_OFFSET, 4, -36);
	run_free(&r);
}

/*
 * The second hunk's context is 3 lines before and 3 lines after its
 * header's line: a tie, but the first hunk was found 3 lines further
 * down, so the second is looked for there first.
 */
#define DRIFT_FILE "h1\nh2\nh3\na1\na2\na3\nf\nf\nf\nc1\nc2\nc3\ng\ng\ng\nc1\nc2\nc3\ng\n"

static void test_hint_drift_carried(void **state)
{
	run r;

	(void)state;
	APPLY(&r, DRIFT_FILE, H(1, 1, " a1\n-a2\n+A2\n a3\n"),
	      H(13, 13, " c1\n-c2\n+C2\n c3\n"));
	assert_out(&r, "h1\nh2\nh3\na1\nA2\na3\nf\nf\nf\nc1\nc2\nc3\ng\ng\ng\nc1\nC2\nc3\ng\n");
	assert_int_equal(r.cx.nlandings, 2);
	assert_landing(&r, 0, AA_HOW_OFFSET, 4, 3);
	assert_landing(&r, 1, AA_HOW_OFFSET, 16, 3);
	assert_int_equal(r.d.nerrors, 0);
	run_free(&r);
}

/* Without the first hunk the same second hunk is a tie: refused. */
static void test_rung2_tie_refused(void **state)
{
	run r;
	const char *msg;

	(void)state;
	APPLY(&r, DRIFT_FILE, H(13, 13, " c1\n-c2\n+C2\n c3\n"));
	msg = assert_refused(&r, HUNK_LINE(0));
	assert_has_number(msg, 10);
	assert_has_number(msg, 16);
	run_free(&r);
}

#define TWO_BLOCKS "top\nx1\nx2\nx3\nm1\nm2\nm3\nm4\nx1\nx2\nx3\nend\n"
#define BLOCK_HUNK " x1\n-x2\n+X2\n x3\n"

static void test_two_blocks_hint_picks(void **state)
{
	run r;

	(void)state;
	APPLY(&r, TWO_BLOCKS, H(9, 9, BLOCK_HUNK));
	assert_out(&r, "top\nx1\nx2\nx3\nm1\nm2\nm3\nm4\nx1\nX2\nx3\nend\n");
	assert_landing(&r, 0, AA_HOW_EXACT, 9, 0);
	run_free(&r);
	APPLY(&r, TWO_BLOCKS, H(2, 2, BLOCK_HUNK));
	assert_out(&r, "top\nx1\nX2\nx3\nm1\nm2\nm3\nm4\nx1\nx2\nx3\nend\n");
	assert_landing(&r, 0, AA_HOW_EXACT, 2, 0);
	run_free(&r);
	/* line 7: 5 lines after the first block, 2 before the second */
	APPLY(&r, TWO_BLOCKS, H(7, 7, BLOCK_HUNK));
	assert_out(&r, "top\nx1\nx2\nx3\nm1\nm2\nm3\nm4\nx1\nX2\nx3\nend\n");
	assert_landing(&r, 0, AA_HOW_OFFSET, 9, 2);
	run_free(&r);
	/* line 5: 3 after the first, 4 before the second */
	APPLY(&r, TWO_BLOCKS, H(5, 5, BLOCK_HUNK));
	assert_out(&r, "top\nx1\nX2\nx3\nm1\nm2\nm3\nm4\nx1\nx2\nx3\nend\n");
	assert_landing(&r, 0, AA_HOW_OFFSET, 2, -3);
	run_free(&r);
}

static void test_two_blocks_no_hint_refused(void **state)
{
	run r;
	const char *msg;

	(void)state;
	APPLY(&r, TWO_BLOCKS, BARE(BLOCK_HUNK));
	msg = assert_refused(&r, HUNK_LINE(0));
	assert_has_number(msg, 2);
	assert_has_number(msg, 9);
	assert_int_equal(r.cx.nlandings, 0);
	run_free(&r);
}

static void test_no_hint_unique(void **state)
{
	run r;

	(void)state;
	APPLY(&r, L10, BARE(HUNK_L5));
	assert_out(&r, L10_L5);
	assert_landing(&r, 0, AA_HOW_CONTENT, 4, 0);
	assert_int_equal(r.d.nerrors, 0);
	run_free(&r);
}

/*
 * Bare hunks use a count of every line: a hunk line that occurs once
 * makes the first match the only one, wherever it is (here far behind
 * where the previous hunk ended, past the outward scan's window), and
 * the count follows the edits (a line a hunk added counts for the next).
 */
static void test_bare_counted_lines(void **state)
{
	aa_buf file = AA_BUF_INIT, want = AA_BUF_INIT;
	size_t i;
	run r;

	(void)state;
	for (i = 0; i < 3000; i++) {
		aa_buf_printf(&file, i == 10 ? "alpha\n" : i == 2990 ? "omega\n" : "same\n");
		aa_buf_printf(&want, i == 10 ? "alpha\nbeta\n" :
				      i == 2990 ? "omega\nBETA\n" : "same\n");
	}
	/* omega (far down) first, then alpha (far up), then the added beta */
	APPLY(&r, file.ptr, BARE(" omega\n+BETA\n"), BARE(" alpha\n+beta\n"),
	      BARE(" beta\n-same\n+same\n"));
	assert_out(&r, want.ptr);
	assert_int_equal(r.cx.nlandings, 3);
	assert_landing(&r, 0, AA_HOW_CONTENT, 2991, 0);
	assert_landing(&r, 1, AA_HOW_CONTENT, 11, 0);
	/* found exactly (not by the whitespace rung): beta was counted */
	assert_int_equal(r.cx.landings[2].how, AA_HOW_CONTENT);
	run_free(&r);
	/* no line of the hunk is rare: every match is counted, and two refuse */
	APPLY(&r, file.ptr, BARE(" same\n-same\n"));
	assert_int_equal(r.rc, -1);
	assert_non_null(strstr(r.d.v[0].msg, "ambiguous"));
	run_free(&r);
	/* a line that occurs nowhere: no exact match; blanks ignored it is found */
	APPLY(&r, file.ptr, BARE(" alpha  \n+gamma\n"));
	assert_int_equal(r.rc, 0);
	assert_landing(&r, 0, AA_HOW_WHITESPACE, 11, 0);
	run_free(&r);
	aa_buf_free(&file);
	aa_buf_free(&want);
}

/*
 * A hunk that matches everywhere in a file of identical lines: the
 * search stops after the places it lists, so the message lists the
 * first five and says "and more" rather than counting every match.
 */
static void test_ambiguous_lists_five_and_more(void **state)
{
	aa_buf file = AA_BUF_INIT;
	const char *msg;
	size_t i;
	run r;

	(void)state;
	for (i = 0; i < 2000; i++)
		aa_buf_puts(&file, "same\n");
	APPLY(&r, file.ptr, BARE(" same\n-same\n+other\n"));
	msg = assert_refused(&r, HUNK_LINE(0));
	assert_has(msg, "more than 5 places");
	assert_has(msg, "lines 1, 2, 3, 4, 5 and more;");
	assert_null(strstr(msg, "in all"));
	assert_null(strstr(msg, "1999"));
	run_free(&r);
	/* a few places: all listed, no "more" */
	APPLY(&r, "a\nx\nb\nx\nc\nx\n", BARE("-x\n+X\n"));
	msg = assert_refused(&r, HUNK_LINE(0));
	assert_has(msg, "matches 3 places, at lines 2, 4 and 6;");
	run_free(&r);
	aa_buf_free(&file);
}

/*
 * Identical hunks for identical places: bare hunks of a file apply in
 * order, so k hunks with the same old lines and k places of those
 * lines land one at each, in order; any other count is ambiguous.
 */
#define TWIN_DOCS "def f():\n    \"\"\"Doc.\"\"\"\n    x = 1\n\ndef g():\n    \"\"\"Doc.\"\"\"\n    x = 1\n"
#define DOC_HUNK(new) "-    \"\"\"Doc.\"\"\"\n+    \"\"\"" new "\"\"\"\n"

static void test_identical_hunks_identical_places(void **state)
{
	run r;

	(void)state;
	APPLY(&r, TWIN_DOCS, BARE(DOC_HUNK("Doc!")), BARE(DOC_HUNK("Doc!")));
	assert_out(&r, "def f():\n    \"\"\"Doc!\"\"\"\n    x = 1\n\ndef g():\n    \"\"\"Doc!\"\"\"\n    x = 1\n");
	assert_int_equal(r.cx.nlandings, 2);
	assert_landing(&r, 0, AA_HOW_CONTENT, 2, 0);
	assert_landing(&r, 1, AA_HOW_CONTENT, 6, 0);
	assert_int_equal(r.d.nerrors, 0);
	assert_has(msg_of(&r.d, AA_DIAG_NOTE), "in order");
	run_free(&r);
	/* identical old sides, different new sides: in order */
	APPLY(&r, TWIN_DOCS, BARE(DOC_HUNK("F.")), BARE(DOC_HUNK("G.")));
	assert_out(&r, "def f():\n    \"\"\"F.\"\"\"\n    x = 1\n\ndef g():\n    \"\"\"G.\"\"\"\n    x = 1\n");
	run_free(&r);
	/* new lines that keep the old ones: the second goes after the first */
	APPLY(&r, TWIN_DOCS, BARE("     \"\"\"Doc.\"\"\"\n+    log()\n     x = 1\n"),
	      BARE("     \"\"\"Doc.\"\"\"\n+    log()\n     x = 1\n"));
	assert_out(&r, "def f():\n    \"\"\"Doc.\"\"\"\n    log()\n    x = 1\n\ndef g():\n    \"\"\"Doc.\"\"\"\n    log()\n    x = 1\n");
	run_free(&r);
	/* blanks ignored, the same */
	APPLY(&r, TWIN_DOCS, BARE("-  \"\"\"Doc.\"\"\"\n+  \"\"\"D.\"\"\"\n"),
	      BARE("-  \"\"\"Doc.\"\"\"\n+  \"\"\"D.\"\"\"\n"));
	assert_out(&r, "def f():\n    \"\"\"D.\"\"\"\n    x = 1\n\ndef g():\n    \"\"\"D.\"\"\"\n    x = 1\n");
	run_free(&r);
}

/*
 * Numbered hunks with the same old lines and headers all off by more
 * than the distance between the places: the nearest place to the first
 * header was the last one, and the offset carried it to the others. In
 * the headers' order, k places for k hunks decide, as for bare hunks.
 */
#define THREE_ENDS "head\nf1\n}\ng\nf2\n}\ng\nf3\n}\ng\n"
#define END_HUNK(new) " }\n+" new "\n g\n"

static void test_identical_numbered_hunks_in_order(void **state)
{
	run r;

	(void)state;
	APPLY(&r, THREE_ENDS, H(10, 10, END_HUNK("A")), H(13, 14, END_HUNK("B")),
	      H(16, 18, END_HUNK("C")));
	assert_out(&r, "head\nf1\n}\nA\ng\nf2\n}\nB\ng\nf3\n}\nC\ng\n");
	assert_int_equal(r.cx.nlandings, 3);
	assert_landing(&r, 0, AA_HOW_OFFSET, 3, -7);
	assert_has(msg_of(&r.d, AA_DIAG_NOTE), "in order");
	run_free(&r);
	/* headers right: rung 1 places each, the same result */
	APPLY(&r, THREE_ENDS, H(3, 3, END_HUNK("A")), H(6, 7, END_HUNK("B")),
	      H(9, 11, END_HUNK("C")));
	assert_out(&r, "head\nf1\n}\nA\ng\nf2\n}\nB\ng\nf3\n}\nC\ng\n");
	assert_landing(&r, 0, AA_HOW_EXACT, 3, 0);
	run_free(&r);
	/* two hunks for three places: the headers decide, as before */
	APPLY(&r, THREE_ENDS, H(7, 7, END_HUNK("B")), H(10, 11, END_HUNK("C")));
	assert_out(&r, "head\nf1\n}\ng\nf2\n}\nB\ng\nf3\n}\nC\ng\n");
	run_free(&r);
	/* headers out of order: no run, each by its header */
	APPLY(&r, THREE_ENDS, H(10, 10, END_HUNK("C")), H(4, 4, END_HUNK("A")));
	assert_out(&r, "head\nf1\n}\nA\ng\nf2\n}\ng\nf3\n}\nC\ng\n");
	run_free(&r);
}

/*
 * A numbered hunk whose header's line is after the hunk before it, and
 * whose lines stand at several places, all before that hunk: nothing
 * says which is meant (GNU patch never goes back either). One place
 * in the whole file still lands, and a header before it is the answer
 * saying its hunks are out of order.
 */
static void test_numbered_hunk_behind_previous(void **state)
{
	run r;
	const char *msg;

	(void)state;
	APPLY(&r, THREE_ENDS, H(8, 8, " f3\n }\n+C\n g\n"), H(20, 21, END_HUNK("X")));
	msg = assert_refused(&r, HUNK_LINE(1));
	assert_has(msg, "does not apply after the hunk before it");
	assert_has(msg, "stand at line 6");
	run_free(&r);
	/* one place in the whole file: the lines say where */
	APPLY(&r, "head\nf1\n}\ng\nf3\n}\ng\n", H(5, 5, " f3\n }\n+C\n g\n"),
	      H(20, 21, END_HUNK("X")));
	assert_out(&r, "head\nf1\n}\nX\ng\nf3\n}\nC\ng\n");
	run_free(&r);
	/* the header before it: out of order on purpose, the nearest place */
	APPLY(&r, THREE_ENDS, H(8, 8, " f3\n }\n+C\n g\n"), H(2, 2, END_HUNK("X")));
	assert_out(&r, "head\nf1\n}\nX\ng\nf2\n}\ng\nf3\n}\nC\ng\n");
	run_free(&r);
}

static void test_identical_hunks_ambiguous(void **state)
{
	run r;
	const char *msg;

	(void)state;
	/* one hunk, two places */
	APPLY(&r, TWIN_DOCS, BARE(DOC_HUNK("Doc!")));
	msg = assert_refused(&r, HUNK_LINE(0));
	assert_has(msg, "ambiguous");
	run_free(&r);
	/* two hunks, three places: refused (the second is not placed either) */
	APPLY(&r, TWIN_DOCS "\ndef h():\n    \"\"\"Doc.\"\"\"\n", BARE(DOC_HUNK("A")), BARE(DOC_HUNK("B")));
	assert_int_equal(r.rc, -1);
	msg = first_error(&r.d)->msg;
	assert_has(msg, "lines 2, 6 and 10");
	assert_has(msg, "2 hunks in a row");
	run_free(&r);
	/* three hunks, two places */
	APPLY(&r, TWIN_DOCS, BARE(DOC_HUNK("A")), BARE(DOC_HUNK("B")), BARE(DOC_HUNK("C")));
	assert_int_equal(r.rc, -1);
	run_free(&r);
	/* a different hunk between them breaks the run */
	APPLY(&r, TWIN_DOCS, BARE(DOC_HUNK("A")), BARE(" def g():\n"), BARE(DOC_HUNK("B")));
	assert_int_equal(r.rc, -1);
	assert_has(first_error(&r.d)->msg, "ambiguous");
	run_free(&r);
}

/* ---- already applied -------------------------------------------------------- */

static void test_already_applied_single(void **state)
{
	run r;

	(void)state;
	APPLY(&r, L10_L5, H(4, 4, HUNK_L5));
	assert_out(&r, L10_L5);
	assert_int_equal(r.cx.nlandings, 1);
	assert_landing(&r, 0, AA_HOW_ALREADY_APPLIED, 4, 0);
	assert_int_equal(r.cx.skipped, 1);
	assert_int_equal(r.cx.applied, 0);
	assert_int_equal(r.d.nerrors, 0);
	assert_int_equal(count_level(&r.d, AA_DIAG_NOTE), 1);
	run_free(&r);
	/* a bare hunk too */
	APPLY(&r, L10_L5, BARE(HUNK_L5));
	assert_out(&r, L10_L5);
	assert_int_equal(r.cx.landings[0].how, AA_HOW_ALREADY_APPLIED);
	assert_int_equal(r.cx.skipped, 1);
	run_free(&r);
}

static void test_already_applied_half(void **state)
{
	run r;

	(void)state;
	/* the first hunk is in, the second is not */
	APPLY(&r, "l1\nl2\nL3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n",
	      H(2, 2, " l2\n-l3\n+L3\n l4\n"), H(7, 7, " l7\n-l8\n+L8\n l9\n"));
	assert_out(&r, "l1\nl2\nL3\nl4\nl5\nl6\nl7\nL8\nl9\nl10\n");
	assert_int_equal(r.cx.nlandings, 2);
	assert_landing(&r, 0, AA_HOW_ALREADY_APPLIED, 2, 0);
	assert_landing(&r, 1, AA_HOW_EXACT, 7, 0);
	assert_int_equal(r.cx.skipped, 1);
	assert_int_equal(r.cx.applied, 1);
	assert_int_equal(count_level(&r.d, AA_DIAG_NOTE), 1);
	run_free(&r);
	/*
	 * The first hunk (in) added a line: the second is one line down,
	 * which is where the header says once the first counts as applied:
	 * exact, no warning.
	 */
	APPLY(&r, "l1\nl2\nL3\nL3b\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n",
	      H(2, 2, " l2\n-l3\n+L3\n+L3b\n l4\n"), H(7, 8, " l7\n-l8\n+L8\n l9\n"));
	assert_out(&r, "l1\nl2\nL3\nL3b\nl4\nl5\nl6\nl7\nL8\nl9\nl10\n");
	assert_landing(&r, 0, AA_HOW_ALREADY_APPLIED, 2, 0);
	assert_landing(&r, 1, AA_HOW_EXACT, 8, 0);
	assert_int_equal(count_level(&r.d, AA_DIAG_WARNING), 0);
	run_free(&r);
	/* the second is in, the first is not */
	APPLY(&r, "l1\nl2\nl3\nl4\nl5\nl6\nl7\nL8\nl9\nl10\n",
	      H(2, 2, " l2\n-l3\n+L3\n l4\n"), H(7, 7, " l7\n-l8\n+L8\n l9\n"));
	assert_out(&r, "l1\nl2\nL3\nl4\nl5\nl6\nl7\nL8\nl9\nl10\n");
	assert_landing(&r, 0, AA_HOW_EXACT, 2, 0);
	assert_landing(&r, 1, AA_HOW_ALREADY_APPLIED, 7, 0);
	run_free(&r);
}

/* The result found twice proves nothing: refused. */
static void test_already_applied_twice_is_not(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "l4\nL5\nl6\nx\nl4\nL5\nl6\n", H(4, 4, HUNK_L5));
	assert_refused(&r, HUNK_LINE(0));
	assert_int_equal(r.cx.skipped, 0);
	run_free(&r);
}

/*
 * A hunk that only removes lines, with context on one side, has a new
 * side made of context lines only, which is always in the file: when its
 * old side is there with different blanks, rung 3 must apply it rather
 * than skip it as "already applied" (SPEC: the old side must be absent).
 */
static void test_removal_one_sided_context_whitespace(void **state)
{
	run r;

	(void)state;
	/* "@@ -1,2 +1 @@": "a" removed at the top; the file's "a" has blanks */
	APPLY(&r, "a  \nb\nc\n", H(1, 1, "-a\n b\n"));
	assert_out(&r, "b\nc\n");
	assert_landing(&r, 0, AA_HOW_WHITESPACE, 1, 0);
	run_free(&r);
	/* in the middle, context before only */
	APPLY(&r, "x\nfoo\nbar \ny\n", H(2, 2, " foo\n-bar\n"));
	assert_out(&r, "x\nfoo\ny\n");
	assert_landing(&r, 0, AA_HOW_WHITESPACE, 2, 0);
	run_free(&r);
}

/* ---- rung 3: whitespace ------------------------------------------------------ */

static void test_rung3_trailing_keeps_file_lines(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "l1\nl2\nl3\nl4   \nl5 \nl6\t\nl7\n", H(4, 4, HUNK_L5));
	/* the file's context lines keep their blanks; the added line is the hunk's */
	assert_out(&r, "l1\nl2\nl3\nl4   \nL5\nl6\t\nl7\n");
	assert_landing(&r, 0, AA_HOW_WHITESPACE, 4, 0);
	assert_int_equal(r.d.nerrors, 0);
	assert_int_equal(count_level(&r.d, AA_DIAG_WARNING), 1);
	assert_has(msg_of(&r.d, AA_DIAG_WARNING), "whitespace");
	run_free(&r);
	/* the hunk's lines have the trailing blanks, the file has none */
	APPLY(&r, L10, H(6, 6, " l4  \n-l5\t\n+L5\n l6 \n"));
	assert_out(&r, L10_L5);
	assert_landing(&r, 0, AA_HOW_WHITESPACE, 4, -2);
	run_free(&r);
}

static void test_rung3_ambiguous_refused_even_with_hint(void **state)
{
	run r;
	const char *msg;

	(void)state;
	APPLY(&r, "x\n  foo();\n  bar();\ny\n    foo();\n    bar();\nz\n",
	      H(2, 2, " foo();\n-bar();\n+baz();\n"));
	msg = assert_refused(&r, HUNK_LINE(0));
	assert_has_number(msg, 2);
	assert_has_number(msg, 5);
	run_free(&r);
	/* trailing blanks only, the hint on the first: refused all the same */
	APPLY(&r, "foo(); \nbar();\nfoo();\t\nbar();\n", H(1, 1, " foo();  \n-bar();\n+baz();\n"));
	msg = assert_refused(&r, HUNK_LINE(0));
	assert_has_number(msg, 1);
	assert_has_number(msg, 3);
	run_free(&r);
}

static void test_rung3_shift_more_indented(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "def f():\n    if x:\n        a = 1\n        b = 2\n    return x\n",
	      H(2, 2, " if x:\n     a = 1\n-    b = 2\n+    b = 3\n+\n+    c = 4\n+d = 5\n return x\n"));
	assert_out(&r, "def f():\n    if x:\n        a = 1\n        b = 3\n\n        c = 4\n"
		       "    d = 5\n    return x\n");
	assert_landing(&r, 0, AA_HOW_WHITESPACE, 2, 0);
	run_free(&r);
}

static void test_rung3_shift_less_indented(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "if x:\n    a = 1\nend\n",
	      H(1, 1, "     if x:\n         a = 1\n+        b = 2\n+    c = 3\n     end\n"));
	assert_out(&r, "if x:\n    a = 1\n    b = 2\nc = 3\nend\n");
	assert_landing(&r, 0, AA_HOW_WHITESPACE, 1, 0);
	run_free(&r);
}

static void test_rung3_tabs_in_file_spaces_in_hunk(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "void f(void)\n{\n\tif (x) {\n\t\ta();\n\t}\n}\n",
	      H(3, 3, "     if (x) {\n         a();\n+        b();\n     }\n"));
	assert_out(&r, "void f(void)\n{\n\tif (x) {\n\t\ta();\n\t\tb();\n\t}\n}\n");
	assert_landing(&r, 0, AA_HOW_WHITESPACE, 3, 0);
	run_free(&r);
	/* deeper than any line seen: still one tab per four spaces */
	APPLY(&r, "void f(void)\n{\n\tif (x) {\n\t\ta();\n\t}\n}\n",
	      H(3, 3, "     if (x) {\n         a();\n+        if (y)\n+            b();\n+              c;\n     }\n"));
	assert_out(&r, "void f(void)\n{\n\tif (x) {\n\t\ta();\n\t\tif (y)\n\t\t\tb();\n\t\t\t  c;\n\t}\n}\n");
	run_free(&r);
	/* and back: the file indents with spaces, the hunk with tabs */
	APPLY(&r, "def f():\n  if x:\n    a()\n",
	      H(2, 2, " \tif x:\n \t\ta()\n+\t\t\tb()\n"));
	assert_out(&r, "def f():\n  if x:\n    a()\n      b()\n");
	run_free(&r);
}

/* The same indentation in file and hunk: added lines are left alone. */
static void test_rung3_no_shift_when_indent_agrees(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "if x:\n    a = 1   \nend\n",
	      H(1, 1, " if x:\n     a = 1\n+    b = 2\n end\n"));
	assert_out(&r, "if x:\n    a = 1   \n    b = 2\nend\n");
	assert_landing(&r, 0, AA_HOW_WHITESPACE, 1, 0);
	run_free(&r);
}

/* Each re-indent is recorded in the landing, with its amount, and warned. */
static void test_rung3_reindent_recorded(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "  if x:\n      a = 1\n  end\n", H(1, 1, " if x:\n     a = 1\n+    b = 2\n end\n"));
	assert_out(&r, "  if x:\n      a = 1\n      b = 2\n  end\n");
	assert_int_equal(r.cx.landings[0].reindent, AA_REINDENT_DEEPER);
	assert_int_equal(r.cx.landings[0].reindent_by, 2);
	assert_has(msg_of(&r.d, AA_DIAG_WARNING), "added lines indented 2 blanks deeper");
	run_free(&r);
	/* no common prefix: each indentation of the hunk to the file's own */
	APPLY(&r, "if x:\n    a = 1\nend\n", H(1, 1, " if x:\n   a = 1\n+  b = 2\n end\n"));
	assert_out(&r, "if x:\n    a = 1\n    b = 2\nend\n");
	assert_int_equal(r.cx.landings[0].reindent, AA_REINDENT_MAPPED);
	assert_int_equal(r.cx.landings[0].reindent_by, 0);
	assert_has(msg_of(&r.d, AA_DIAG_WARNING), "re-indented to the file's indentation");
	run_free(&r);
	APPLY(&r, "if x:\n    a = 1\nend\n",
	      H(1, 1, "     if x:\n         a = 1\n+        b = 2\n     end\n"));
	assert_int_equal(r.cx.landings[0].reindent, AA_REINDENT_SHALLOWER);
	assert_int_equal(r.cx.landings[0].reindent_by, 4);
	run_free(&r);
	APPLY(&r, "void f(void)\n{\n\tif (x) {\n\t\ta();\n\t}\n}\n",
	      H(3, 3, "     if (x) {\n         a();\n+        b();\n     }\n"));
	assert_int_equal(r.cx.landings[0].reindent, AA_REINDENT_TABS);
	assert_int_equal(r.cx.landings[0].reindent_by, 4);
	assert_has(msg_of(&r.d, AA_DIAG_WARNING), "indented with tabs (4 spaces a tab)");
	run_free(&r);
	APPLY(&r, "def f():\n  if x:\n    a()\n", H(2, 2, " \tif x:\n \t\ta()\n+\t\t\tb()\n"));
	assert_int_equal(r.cx.landings[0].reindent, AA_REINDENT_SPACES);
	assert_int_equal(r.cx.landings[0].reindent_by, 2);
	run_free(&r);
}

/* A shift that changes no added line is no re-indent (nor in the warning). */
static void test_rung3_reindent_only_when_added_lines_change(void **state)
{
	run r;

	(void)state;
	/* only a blank line added: the shift found on the context moves nothing */
	APPLY(&r, "if x:\n    a = 1\nend\n", H(1, 1, " if x:\n   a = 1\n+\n end\n"));
	assert_out(&r, "if x:\n    a = 1\n\nend\n");
	assert_int_equal(r.cx.landings[0].how, AA_HOW_WHITESPACE);
	assert_int_equal(r.cx.landings[0].reindent, AA_REINDENT_NONE);
	assert_null(strstr(msg_of(&r.d, AA_DIAG_WARNING), "added lines"));
	run_free(&r);
	/* the same indentation: nothing to re-indent */
	APPLY(&r, "if x:\n    a = 1   \nend\n",
	      H(1, 1, " if x:\n     a = 1\n+    b = 2\n end\n"));
	assert_int_equal(r.cx.landings[0].reindent, AA_REINDENT_NONE);
	run_free(&r);
}

/* Trailing blanks ignored first: unique there wins over ambiguity later. */
static void test_rung3_trailing_before_both(void **state)
{
	run r;

	(void)state;
	/* ignoring leading blanks too, lines 1 and 3 match; trailing only, line 3 */
	APPLY(&r, "  foo\nbar\nfoo \nbar\n", H(1, 1, " foo\n-bar\n+baz\n"));
	assert_out(&r, "  foo\nbar\nfoo \nbaz\n");
	assert_landing(&r, 0, AA_HOW_WHITESPACE, 3, 2);
	run_free(&r);
}

/* The result already there (exactly once) comes before whitespace matching. */
static void test_already_applied_before_whitespace(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "l4\nL5\nl6\nx\nl4 \nl5\nl6\n", H(1, 1, HUNK_L5));
	assert_out(&r, "l4\nL5\nl6\nx\nl4 \nl5\nl6\n");
	assert_landing(&r, 0, AA_HOW_ALREADY_APPLIED, 1, 0);
	run_free(&r);
}

/* Whitespace rung on a CRLF file: endings kept, new lines CRLF and indented. */
static void test_rung3_crlf(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "x\r\n  a\r\n  b \r\ny\r\n", H(2, 2, " a\n-b\n+c\n+d\n"));
	assert_out(&r, "x\r\n  a\r\n  c\r\n  d\r\ny\r\n");
	assert_landing(&r, 0, AA_HOW_WHITESPACE, 2, 0);
	run_free(&r);
}

/* A later hunk located by whitespace reports the line of the file before. */
static void test_rung3_after_growing_hunk(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "l1\nl2\nl3\nl4\nl5\nl6\n  l7\nl8\nl9\n",
	      H(1, 1, " l1\n+n1\n+n2\n l2\n"), H(7, 9, " l7\n-l8\n+L8\n l9\n"));
	assert_out(&r, "l1\nn1\nn2\nl2\nl3\nl4\nl5\nl6\n  l7\nL8\nl9\n");
	assert_landing(&r, 0, AA_HOW_EXACT, 1, 0);
	assert_landing(&r, 1, AA_HOW_WHITESPACE, 7, 0);
	run_free(&r);
}

/* An empty context line, and a blank line in the file. */
static void test_empty_context_lines(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "a\n\nb\n", H(1, 1, " a\n \n-b\n+B\n"));
	assert_out(&r, "a\n\nB\n");
	assert_landing(&r, 0, AA_HOW_EXACT, 1, 0);
	run_free(&r);
	/* the file's blank line holds blanks: kept */
	APPLY(&r, "a\n  \nb\n", H(1, 1, " a\n \n-b\n+B\n"));
	assert_out(&r, "a\n  \nB\n");
	assert_landing(&r, 0, AA_HOW_WHITESPACE, 1, 0);
	run_free(&r);
}

/* The last line removed from a file without a final newline. */
static void test_remove_last_line_no_newline(void **state)
{
	hspec h = H(1, 1, " a\n-b\n");
	run r;

	(void)state;
	/* as git writes it: the marker after "-b"; "a" keeps its newline */
	h.old_no_eol = 1;
	apply_len(&r, "a\nb", 3, &h, 1, 0);
	assert_out(&r, "a\n");
	run_free(&r);
}

/* ---- rung 4: reduced context -------------------------------------------------- */

#define RC_HUNK " // header comment v2\n start();\n-run(1);\n+run(2);\n stop();\n // trailer v2\n"

static void test_rung4_reduced_context(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "// header comment\nstart();\nrun(1);\nstop();\n// trailer\n", H(1, 1, RC_HUNK));
	/* the file's outer lines stay as they are */
	assert_out(&r, "// header comment\nstart();\nrun(2);\nstop();\n// trailer\n");
	assert_landing(&r, 0, AA_HOW_REDUCED_CONTEXT, 2, 0);
	assert_int_equal(r.d.nerrors, 0);
	assert_int_equal(count_level(&r.d, AA_DIAG_WARNING), 1);
	run_free(&r);
	/* elsewhere than the header says */
	APPLY(&r, "p\nq\nr\n// header comment\nstart();\nrun(1);\nstop();\n// trailer\n",
	      H(1, 1, RC_HUNK));
	assert_out(&r, "p\nq\nr\n// header comment\nstart();\nrun(2);\nstop();\n// trailer\n");
	assert_landing(&r, 0, AA_HOW_REDUCED_CONTEXT, 5, 3);
	run_free(&r);
	/* the outer context may be missing altogether (start of file) */
	APPLY(&r, "start();\nrun(1);\nstop();\n// trailer v2\n", H(1, 1, RC_HUNK));
	assert_out(&r, "start();\nrun(2);\nstop();\n// trailer v2\n");
	assert_int_equal(r.cx.landings[0].how, AA_HOW_REDUCED_CONTEXT);
	assert_int_equal(r.cx.landings[0].line, 1);
	run_free(&r);
}

/* Removed lines and the context around them may differ in blanks, as in rung 3. */
static void test_rung4_with_indentation(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "    // hdr\n    start();\n    run(1);\n    stop();\n    // trl\n",
	      H(1, 1, RC_HUNK));
	assert_out(&r, "    // hdr\n    start();\n    run(2);\n    stop();\n    // trl\n");
	assert_landing(&r, 0, AA_HOW_REDUCED_CONTEXT, 2, 0);
	run_free(&r);
}

static void test_rung4_not_unique_refused(void **state)
{
	run r;
	const char *msg;

	(void)state;
	APPLY(&r, "// a\nstart();\nrun(1);\nstop();\n// b\n// c\nstart();\nrun(1);\nstop();\n// d\n",
	      H(1, 1, RC_HUNK));
	msg = assert_refused(&r, HUNK_LINE(0));
	assert_has_number(msg, 2);
	assert_has_number(msg, 7);
	run_free(&r);
}

static void test_rung4_core_must_match(void **state)
{
	run r;

	(void)state;
	/* a removed line differs */
	APPLY(&r, "// header comment\nstart();\nrun(9);\nstop();\n// trailer\n", H(1, 1, RC_HUNK));
	assert_refused(&r, HUNK_LINE(0));
	run_free(&r);
	/* the context line next to the change differs */
	APPLY(&r, "// header comment v2\nbegin();\nrun(1);\nstop();\n// trailer v2\n", H(1, 1, RC_HUNK));
	assert_refused(&r, HUNK_LINE(0));
	run_free(&r);
	APPLY(&r, "// header comment v2\nstart();\nrun(1);\nend();\n// trailer v2\n", H(1, 1, RC_HUNK));
	assert_refused(&r, HUNK_LINE(0));
	run_free(&r);
}

/* ---- refusals: the closest place -------------------------------------------- */

static void test_conflict_names_closest_line(void **state)
{
	run r;
	const char *msg;

	(void)state;
	APPLY(&r, "l1\nl2\nl3\nl4\nvalue = 7;\nl6\nl7\n",
	      H(4, 4, " l4\n-value = 5;\n+value = 6;\n l6\n"));
	msg = assert_refused(&r, HUNK_LINE(0));
	assert_has_number(msg, 5);
	assert_has(msg, "value = 7;");
	assert_int_equal(r.cx.nlandings, 0);
	run_free(&r);
}

/*
 * A hunk that left out one blank line: the closest region is shown
 * aligned against the hunk, so the missing line is named ("-": only in
 * the file) instead of every later line being reported one line off.
 */
static void test_miss_shows_aligned_region(void **state)
{
	run r;
	const char *msg;

	(void)state;
	APPLY(&r, "a\nb\n\nc\nd\ne\n", H(1, 1, " a\n b\n c\n-D\n+E\n e\n"));
	msg = assert_refused(&r, HUNK_LINE(0));
	assert_has(msg, "\n        2   \"b\"");
	assert_has(msg, "\n        3 - \"\"");
	assert_has(msg, "\n        4   \"c\"");
	assert_has(msg, "\n        5 - \"d\"\n          + \"D\"");
	assert_has(msg, "\n        6   \"e\"");
	assert_null(strstr(msg, "differs:"));
	run_free(&r);
	/* a line that differs only in its blanks says so */
	APPLY(&r, "a\nb\nc\nd\n", H(1, 1, " a\n  b\n-x\n+y\n c\n"));
	msg = assert_refused(&r, HUNK_LINE(0));
	assert_has(msg, "+ \" b\" (differs only in whitespace)");
	run_free(&r);
}

/* A second hunk that fails fails the whole edit. */
static void test_second_hunk_fails(void **state)
{
	run r;

	(void)state;
	APPLY(&r, L10, H(2, 2, " l2\n-l3\n+L3\n l4\n"), H(7, 7, " l7\n-nope\n+L8\n l9\n"));
	assert_refused(&r, HUNK_LINE(1));
	run_free(&r);
}

/*
 * Every failing hunk is reported in one run, each at its own line; the
 * hunks after a failing one are still placed (their header lines are
 * those of the file, which the failed hunk did not change), and the
 * edit fails.
 */
static void test_every_failing_hunk_reported(void **state)
{
	run r;
	size_t i;

	(void)state;
	APPLY(&r, L10, H(2, 2, " l2\n-nope\n+x\n l4\n"), H(5, 5, " l5\n-l6\n+L6\n l7\n"),
	      H(8, 8, " l8\n-nope2\n+y\n l10\n"));
	assert_int_equal(r.rc, -1);
	assert_int_equal(r.d.nerrors, 2);
	assert_int_equal(r.d.v[0].line, HUNK_LINE(0));
	assert_int_equal(r.d.v[1].line, HUNK_LINE(2));
	for (i = 0; i < r.d.n; i++)
		assert_int_equal(r.d.v[i].level, AA_DIAG_ERROR);
	run_free(&r);
	/* the first (failing) hunk would add two lines: the second is still exact */
	APPLY(&r, L10, H(2, 2, " l2\n-nope\n+a\n+b\n+c\n l4\n"), H(7, 9, " l7\n-l8\n+L8\n l9\n"));
	assert_int_equal(r.rc, -1);
	assert_int_equal(r.d.nerrors, 1);
	assert_int_equal(r.d.n, 1);
	assert_int_equal(r.cx.nlandings, 1);
	assert_int_equal(r.cx.landings[0].how, AA_HOW_EXACT);
	assert_int_equal(r.cx.landings[0].line, 7);
	run_free(&r);
}

/* ---- several hunks ------------------------------------------------------------ */

/* Line numbers of later hunks count the lines earlier hunks added. */
static void test_hunks_in_order_with_delta(void **state)
{
	run r;

	(void)state;
	APPLY(&r, L10, H(2, 2, " l2\n+n1\n+n2\n l3\n"), H(7, 9, " l7\n-l8\n l9\n"));
	assert_out(&r, "l1\nl2\nn1\nn2\nl3\nl4\nl5\nl6\nl7\nl9\nl10\n");
	assert_landing(&r, 0, AA_HOW_EXACT, 2, 0);
	/* lines of the file before the edit */
	assert_landing(&r, 1, AA_HOW_EXACT, 7, 0);
	assert_int_equal(r.d.n, 0);
	run_free(&r);
}

/* Hunks out of file order: the later one lands in the part already rebuilt. */
static void test_hunks_out_of_order(void **state)
{
	run r;

	(void)state;
	APPLY(&r, L10, H(7, 7, " l7\n-l8\n+L8\n+L8b\n l9\n"), H(2, 2, " l2\n-l3\n+L3\n l4\n"));
	assert_out(&r, "l1\nl2\nL3\nl4\nl5\nl6\nl7\nL8\nL8b\nl9\nl10\n");
	assert_int_equal(r.cx.nlandings, 2);
	assert_landing(&r, 0, AA_HOW_EXACT, 7, 0);
	assert_landing(&r, 1, AA_HOW_EXACT, 2, 0);
	run_free(&r);
}

/* Each hunk sees the result of the ones before it. */
static void test_hunk_sees_previous_result(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "a\nb\nc\n", H(1, 1, " a\n-b\n+B\n c\n"), H(2, 2, "-B\n+BB\n c\n"));
	assert_out(&r, "a\nBB\nc\n");
	run_free(&r);
}

/* ---- text fidelity ------------------------------------------------------------- */

static void test_crlf_file_lf_hunk(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "a\r\nb\r\nc\r\n", H(1, 1, " a\n-b\n+B\n+B2\n c\n"));
	assert_out(&r, "a\r\nB\r\nB2\r\nc\r\n");
	assert_landing(&r, 0, AA_HOW_EXACT, 1, 0);
	assert_int_equal(r.d.n, 0);
	run_free(&r);
	/* appended at the end */
	APPLY(&r, "a\r\nb\r\n", H(2, 2, " b\n+c\n"));
	assert_out(&r, "a\r\nb\r\nc\r\n");
	run_free(&r);
}

static void test_mixed_endings(void **state)
{
	run r;

	(void)state;
	/* CRLF dominates; the LF lines keep LF, the new line gets CRLF */
	APPLY(&r, "a\nb\r\nc\r\nd\r\ne\n", H(2, 2, " b\n-c\n+C\n d\n"));
	assert_out(&r, "a\nb\r\nC\r\nd\r\ne\n");
	run_free(&r);
	APPLY(&r, "a\nb\r\nc\r\nd\r\ne\n", H(4, 4, " d\n-e\n+E\n"));
	assert_out(&r, "a\nb\r\nc\r\nd\r\nE\r\n");
	run_free(&r);
}

static void test_no_final_newline_kept(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "a\nb\nc", H(2, 2, " b\n-c\n+C\n"));
	assert_out(&r, "a\nb\nC");
	run_free(&r);
	/* with the markers a real diff would have */
	{
		hspec h = H(2, 2, " b\n-c\n+C\n");

		h.old_no_eol = h.new_no_eol = 1;
		apply_len(&r, "a\nb\nc", 5, &h, 1, 0);
		assert_out(&r, "a\nb\nC");
		run_free(&r);
	}
	/* a line elsewhere: the end stays as it was */
	APPLY(&r, "a\nb\nc", H(1, 1, "-a\n+A\n b\n"));
	assert_out(&r, "A\nb\nc");
	run_free(&r);
	/* a line added after the last one */
	APPLY(&r, "a\nb", H(2, 3, " b\n+c\n"));
	assert_out(&r, "a\nb\nc");
	run_free(&r);
	/* CRLF */
	APPLY(&r, "a\r\nb", H(1, 1, " a\n-b\n+B\n"));
	assert_out(&r, "a\r\nB");
	run_free(&r);
}

static void test_no_newline_markers(void **state)
{
	hspec h;
	run r;

	(void)state;
	/* old side only: the change adds the final newline */
	h = (hspec)H(1, 1, " a\n-b\n+B\n");
	h.old_no_eol = 1;
	apply_len(&r, "a\nb", 3, &h, 1, 0);
	assert_out(&r, "a\nB\n");
	run_free(&r);
	/* the same line kept, only the newline added */
	h = (hspec)H(1, 1, " a\n-b\n+b\n");
	h.old_no_eol = 1;
	apply_len(&r, "a\nb", 3, &h, 1, 0);
	assert_out(&r, "a\nb\n");
	run_free(&r);
	/* CRLF file: the added newline is CRLF */
	h = (hspec)H(1, 1, " a\n-b\n+B\n");
	h.old_no_eol = 1;
	apply_len(&r, "a\r\nb", 4, &h, 1, 0);
	assert_out(&r, "a\r\nB\r\n");
	run_free(&r);
	/* new side only: the change removes it */
	h = (hspec)H(1, 1, " a\n-b\n+B\n");
	h.new_no_eol = 1;
	apply_len(&r, "a\nb\n", 4, &h, 1, 0);
	assert_out(&r, "a\nB");
	run_free(&r);
	/* both: a line appended, still without one */
	h = (hspec)H(1, 1, " a\n-b\n+b\n+c\n");
	h.old_no_eol = h.new_no_eol = 1;
	apply_len(&r, "a\nb", 3, &h, 1, 0);
	assert_out(&r, "a\nb\nc");
	run_free(&r);
	/* old side only, a line appended: all with newlines */
	h = (hspec)H(1, 1, " a\n-b\n+b\n+c\n");
	h.old_no_eol = 1;
	apply_len(&r, "a\nb", 3, &h, 1, 0);
	assert_out(&r, "a\nb\nc\n");
	run_free(&r);
}

static void test_utf16_file(void **state)
{
	static const char in[] = "\xff\xfe" "a\0\r\0\n\0b\0\r\0\n\0";
	static const char want[] = "\xff\xfe" "a\0\r\0\n\0c\0\r\0\n\0";
	hspec h = H(1, 1, " a\n-b\n+c\n");
	run r;

	(void)state;
	apply_len(&r, in, sizeof(in) - 1, &h, 1, 0);
	assert_out_len(&r, want, sizeof(want) - 1);
	run_free(&r);
}

/* ---- insertions (no old lines) -------------------------------------------------- */

/*
 * A hunk without old lines goes only where the file confirms the place:
 * an empty file, or after its last line. In the middle, or at the top of
 * a non-empty file (a "new" file that exists), line numbers alone are
 * not trusted.
 */
static void test_insertion_at_header_line(void **state)
{
	run r;

	(void)state;
	/* after the last line */
	APPLY(&r, "l1\nl2\n", H(2, 3, "+n3\n"));
	assert_out(&r, "l1\nl2\nn3\n");
	assert_int_equal(r.cx.nlandings, 1);
	assert_int_equal(r.cx.applied, 1);
	run_free(&r);
	/* into an empty file */
	APPLY(&r, "", H(0, 1, "+x\n+y\n"));
	assert_out(&r, "x\ny\n");
	run_free(&r);
	/* "@@ -2,0 +3,2 @@": after line 2 of 5, unconfirmed */
	APPLY(&r, "l1\nl2\nl3\nl4\nl5\n", H(2, 3, "+n1\n+n2\n"));
	assert_refused(&r, HUNK_LINE(0));
	run_free(&r);
	/* "@@ -0,0 +1 @@" on a file that has lines */
	APPLY(&r, "l1\nl2\n", H(0, 1, "+n0\n"));
	assert_refused(&r, HUNK_LINE(0));
	run_free(&r);
}

/*
 * An insertion that lands where its header says is exact, not "offset
 * +1" (its lines go after line N, i.e. at line N + 1).
 */
static void test_insertion_is_exact(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "l1\nl2\nl3\n", H(3, 4, "+n1\n+n2\n"));
	assert_out(&r, "l1\nl2\nl3\nn1\nn2\n");
	assert_int_equal(r.cx.landings[0].how, AA_HOW_EXACT);
	assert_int_equal(r.cx.landings[0].line, 4);
	assert_int_equal(r.cx.landings[0].offset, 0);
	assert_int_equal(count_level(&r.d, AA_DIAG_WARNING), 0);
	run_free(&r);
}

/*
 * An insertion whose added lines equal the lines before it is applied,
 * not skipped: an empty old side is never absent, so it cannot be
 * "already applied" ("a\n}\n" plus "}" at the end gives "a\n}\n}\n").
 */
static void test_insertion_equal_to_next_line_is_applied(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "a\n}\n", H(2, 3, "+}\n"));
	assert_out(&r, "a\n}\n}\n");
	assert_int_equal(r.cx.skipped, 0);
	assert_int_equal(r.cx.applied, 1);
	run_free(&r);
}

/*
 * The same change with context lines is applied (its preimage is
 * there). Without the line after it, it would be anchored to the end
 * of the file (see the anchoring tests).
 */
static void test_insertion_with_context_equal_to_next_line(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "a\n}\n", H(1, 1, " a\n+}\n }\n"));
	assert_out(&r, "a\n}\n}\n");
	assert_int_equal(r.cx.skipped, 0);
	run_free(&r);
}

static void test_insertion_beyond_end_refused(void **state)
{
	run r;
	const char *msg;

	(void)state;
	APPLY(&r, "l1\nl2\nl3\n", H(4, 5, "+x\n"));
	msg = assert_refused(&r, HUNK_LINE(0));
	assert_has_number(msg, 3);
	run_free(&r);
	APPLY(&r, "l1\nl2\nl3\n", H(9, 10, "+x\n"));
	assert_refused(&r, HUNK_LINE(0));
	run_free(&r);
	APPLY(&r, "", H(1, 2, "+x\n"));
	assert_refused(&r, HUNK_LINE(0));
	run_free(&r);
}

static void test_insertion_bare(void **state)
{
	run r;

	(void)state;
	/* nothing says where in a non-empty file */
	APPLY(&r, "a\n", BARE("+x\n"));
	assert_refused(&r, HUNK_LINE(0));
	run_free(&r);
	/* in an empty file there is one place */
	APPLY(&r, "", BARE("+x\n"));
	assert_out(&r, "x\n");
	run_free(&r);
}

/* ---- random edits against a model -------------------------------------------- */

static unsigned rnd(unsigned *seed, unsigned mod)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 16) % mod;
}

typedef struct model {
	aa_buf file, want;     /* the file, and the expected result */
	hspec h[32];
	size_t nh;
	long line[32];         /* where each hunk should land (1-based) */
} model;

/* Joins lines with `eol`, the last one without it unless final_nl. */
static void join(aa_buf *b, char **v, size_t n, int crlf, int final_nl)
{
	size_t i;

	for (i = 0; i < n; i++) {
		aa_buf_puts(b, v[i]);
		if (i + 1 < n || final_nl)
			aa_buf_puts(b, crlf ? "\r\n" : "\n");
	}
}

/*
 * A file of unique lines ("line N", some with trailing blanks when
 * `blanks`), random edits at least 6 lines apart, each written as a
 * hunk with 1-3 lines of context and the right header, as diff would;
 * `junk` lines before the file shift every hunk by that much. The
 * result must be the edited file with the file's own lines, endings
 * and final-newline state.
 */
static void make_case(unsigned *seed, model *m, int crlf, int final_nl,
		      int blanks, size_t junk)
{
	size_t n = 1 + rnd(seed, 60), i, j, nw = 0, nf = 0, prev_end = 0;
	long delta = 0;
	char text[64];
	char **orig = calloc(n, sizeof(*orig));
	char **fv = calloc(n + junk, sizeof(*fv));
	char **wv = calloc(n + junk + 32 * 3, sizeof(*wv));

	memset(m, 0, sizeof(*m));
	assert_non_null(orig);
	assert_non_null(fv);
	assert_non_null(wv);
	for (i = 0; i < junk; i++) {
		snprintf(text, sizeof(text), "junk %zu", i);
		fv[nf++] = wv[nw++] = strdup(text);
	}
	for (i = 0; i < n; i++) {
		snprintf(text, sizeof(text), "line %zu%s", i + 1,
			 blanks && rnd(seed, 3) == 0 ? "  " : "");
		fv[nf++] = orig[i] = strdup(text);
	}
	i = rnd(seed, 5);
	/*
	 * Junk before the file: a hunk that adds before line 1 with no
	 * line before it would be anchored to the start, and refused.
	 */
	if (junk && i == 0)
		i = 1;
	while (i <= n && m->nh < 32) {
		size_t start = i, rem = rnd(seed, 4), add = rnd(seed, 4);
		size_t c0 = 1 + rnd(seed, 3), c1 = 1 + rnd(seed, 3);
		aa_buf body = AA_BUF_INIT;
		hspec *h = &m->h[m->nh];

		if (start + rem > n)
			rem = n - start;
		if (!rem && !add)
			add = 1;
		if (c0 > start)
			c0 = start;
		if (c1 > n - start - rem)
			c1 = n - start - rem;
		if (c0 + rem + c1 == 0)
			break;
		/* untouched lines up to the change */
		for (j = prev_end; j < start; j++)
			wv[nw++] = orig[j];
		for (j = start - c0; j < start; j++)
			aa_buf_printf(&body, " line %zu\n", j + 1);
		for (j = start; j < start + rem; j++)
			aa_buf_printf(&body, "-line %zu\n", j + 1);
		for (j = 0; j < add; j++) {
			snprintf(text, sizeof(text), "new %zu.%zu", m->nh, j);
			aa_buf_printf(&body, "+%s\n", text);
			wv[nw++] = strdup(text);
		}
		for (j = start + rem; j < start + rem + c1; j++)
			aa_buf_printf(&body, " line %zu\n", j + 1);
		h->has_hint = 1;
		h->old_start = (long)(start - c0) + 1;
		h->new_start = h->old_start + delta;
		/* the hunk reaches the end of a file without a final newline */
		if (!final_nl && start + rem + c1 == n)
			h->old_no_eol = h->new_no_eol = 1;
		h->body = aa_buf_detach(&body);
		m->line[m->nh] = (long)(start - c0 + 1 + junk);
		m->nh++;
		delta += (long)add - (long)rem;
		prev_end = start + rem;
		i = start + rem + 6 + rnd(seed, 6);
	}
	for (j = prev_end; j < n; j++)
		wv[nw++] = orig[j];
	join(&m->file, fv, nf, crlf, final_nl);
	/* a file without any line ending takes LF for new ones */
	join(&m->want, wv, nw, crlf && (nf > 1 || final_nl), final_nl);
	for (i = 0; i < nw; i++)
		if (strncmp(wv[i], "line ", 5))
			free(wv[i]);
	for (i = 0; i < n; i++)
		free(orig[i]);
	free(orig);
	free(fv);
	free(wv);
}

static void model_free(model *m)
{
	size_t i;

	for (i = 0; i < m->nh; i++)
		free((char *)m->h[i].body);
	aa_buf_free(&m->file);
	aa_buf_free(&m->want);
}

static void check_model(unsigned seed0, int crlf, int final_nl, int blanks, size_t junk)
{
	unsigned seed = seed0;
	model m;
	run r;
	size_t i;

	make_case(&seed, &m, crlf, final_nl, blanks, junk);
	if (!m.nh) {
		model_free(&m);
		return;
	}
	apply_len(&r, m.file.ptr, m.file.len, m.h, m.nh, 0);
	if (r.rc != 0 || r.out.len != m.want.len ||
	    (m.want.len && memcmp(r.out.ptr, m.want.ptr, m.want.len)))
		fail_msg("seed %u crlf %d final_nl %d blanks %d junk %zu: %s\n"
			 "file:\n%s\nwant:\n%s\ngot:\n%s", seed0, crlf, final_nl, blanks, junk,
			 r.rc ? r.d.v[0].msg : "wrong result", m.file.ptr,
			 m.want.ptr ? m.want.ptr : "", r.out.ptr ? r.out.ptr : "");
	assert_int_equal(r.cx.nlandings, m.nh);
	for (i = 0; i < m.nh; i++) {
		const aa_landing *l = &r.cx.landings[i];

		if (l->line != m.line[i] || l->offset != (long)junk)
			fail_msg("seed %u hunk %zu: line %ld offset %ld (%s), want line %ld offset %zu",
				 seed0, i, l->line, l->offset, aa_how_name(l->how), m.line[i], junk);
		if (!blanks)
			assert_int_equal(l->how, junk ? AA_HOW_OFFSET : AA_HOW_EXACT);
		else
			assert_true(l->how == AA_HOW_WHITESPACE ||
				    l->how == (junk ? AA_HOW_OFFSET : AA_HOW_EXACT));
	}
	run_free(&r);
	model_free(&m);
}

static void test_random_edits_against_model(void **state)
{
	unsigned k;

	(void)state;
	for (k = 0; k < 3000; k++)
		check_model(k, k % 2, (k / 2) % 2, (k / 4) % 2, (k / 8) % 3 == 2 ? 5 : 0);
}

/* 200,000 lines, 2,000 hunks each 7 lines off its header: near-linear. */
static void test_large_file_many_hunks(void **state)
{
	const size_t nlines = 200000, nh = 2000, gap = nlines / nh;
	aa_buf file = AA_BUF_INIT, want = AA_BUF_INIT;
	hspec *h = calloc(nh, sizeof(*h));
	char **bodies = calloc(nh, sizeof(*bodies));
	clock_t t0;
	size_t i;
	run r;

	(void)state;
	assert_non_null(h);
	assert_non_null(bodies);
	for (i = 0; i < 7; i++) {
		aa_buf_printf(&file, "extra %zu\n", i);
		aa_buf_printf(&want, "extra %zu\n", i);
	}
	for (i = 0; i < nlines; i++) {
		aa_buf_printf(&file, "row %zu of the file\n", i + 1);
		if (i % gap == 5)
			aa_buf_printf(&want, "ROW %zu\n", i + 1);
		else
			aa_buf_printf(&want, "row %zu of the file\n", i + 1);
	}
	for (i = 0; i < nh; i++) {
		aa_buf b = AA_BUF_INIT;
		size_t at = i * gap + 5; /* 0-based line changed */

		aa_buf_printf(&b, " row %zu of the file\n-row %zu of the file\n+ROW %zu\n"
			      " row %zu of the file\n", at, at + 1, at + 1, at + 2);
		bodies[i] = aa_buf_detach(&b);
		h[i] = (hspec)H((long)at, (long)at, bodies[i]);
	}
	t0 = clock();
	apply_len(&r, file.ptr, file.len, h, nh, 0);
	assert_out_len(&r, want.ptr, want.len);
	assert_int_equal(r.cx.nlandings, nh);
	assert_landing(&r, 0, AA_HOW_OFFSET, 5 + 7, 7);
	assert_int_equal(r.cx.landings[nh - 1].offset, 7);
	assert_int_equal(r.cx.landings[nh - 1].line, (long)((nh - 1) * gap + 5 + 7));
	/* generous: quadratic behaviour would take far longer */
	assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 20.0);
	run_free(&r);
	for (i = 0; i < nh; i++)
		free(bodies[i]);
	free(bodies);
	free(h);
	aa_buf_free(&file);
	aa_buf_free(&want);
}

/* ---- anchoring: hunks cut at the start or the end of the file ---------------------- */

/* Written when c was the last line; upstream appended since. */
#define UP_APPENDED "a\nb\nc\nup1\nup2\n"
#define APPEND_HUNK " b\n c\n+new\n"

static void test_anchor_end_refused_after_upstream_appended(void **state)
{
	run r;
	const char *msg;

	(void)state;
	/* exact at its header's line, but not the end: no landing there */
	APPLY(&r, UP_APPENDED, H(2, 2, APPEND_HUNK));
	msg = assert_refused(&r, HUNK_LINE(0));
	assert_has(msg, "anchored to the end of the file");
	assert_has_number(msg, 2);
	assert_has(msg, "2 more line(s) follow");
	assert_int_equal(r.cx.nlandings, 0);
	run_free(&r);
	/* nor with blanks ignored, nor with reduced context */
	APPLY(&r, UP_APPENDED, H(2, 2, " b  \n c\n+new\n"));
	msg = assert_refused(&r, HUNK_LINE(0));
	assert_has(msg, "anchored to the end of the file");
	run_free(&r);
	APPLY(&r, "x\ny\nb\nc\nup1\n", H(1, 1, " a\n b\n c\n+new\n"));
	assert_refused(&r, HUNK_LINE(0));
	run_free(&r);
	/* the same under --strict and in the exact-only mode */
	APPLY_STRICT(&r, UP_APPENDED, H(2, 2, APPEND_HUNK));
	assert_refused(&r, HUNK_LINE(0));
	run_free(&r);
	APPLY_EXACT_ONLY(&r, UP_APPENDED, H(2, 2, APPEND_HUNK));
	assert_refused(&r, HUNK_LINE(0));
	run_free(&r);
}

static void test_anchor_end_lands_at_the_end(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "a\nb\nc\n", H(2, 2, APPEND_HUNK));
	assert_out(&r, "a\nb\nc\nnew\n");
	assert_landing(&r, 0, AA_HOW_EXACT, 2, 0);
	assert_int_equal(r.d.n, 0);
	run_free(&r);
	/* lines inserted before it: the end, at an offset */
	APPLY(&r, "h1\nh2\na\nb\nc\n", H(2, 2, APPEND_HUNK));
	assert_out(&r, "h1\nh2\na\nb\nc\nnew\n");
	assert_landing(&r, 0, AA_HOW_OFFSET, 4, 2);
	run_free(&r);
	/* blanks ignored, at the end */
	APPLY(&r, "a\nb  \nc\n", H(2, 2, APPEND_HUNK));
	assert_out(&r, "a\nb  \nc\nnew\n");
	assert_landing(&r, 0, AA_HOW_WHITESPACE, 2, 0);
	run_free(&r);
	/* outer context differs, at the end */
	APPLY(&r, "a\nB\nc\n", H(1, 1, " a\n B\n c\n+new\n"));
	assert_int_equal(r.rc, 0);
	run_free(&r);
	APPLY(&r, "a\nB\nc\n", H(1, 1, " x\n B\n c\n+new\n"));
	assert_out(&r, "a\nB\nc\nnew\n");
	/* the line of the core, the lines next to the change */
	assert_landing(&r, 0, AA_HOW_REDUCED_CONTEXT, 3, 0);
	run_free(&r);
	/* already applied at the end */
	APPLY(&r, "a\nb\nc\nnew\n", H(2, 2, APPEND_HUNK));
	assert_out(&r, "a\nb\nc\nnew\n");
	assert_landing(&r, 0, AA_HOW_ALREADY_APPLIED, 2, 0);
	run_free(&r);
	/* after an earlier hunk changed the line count */
	APPLY(&r, "a\nb\nc\n", H(1, 1, "-a\n+A\n+A2\n b\n"), H(2, 3, APPEND_HUNK));
	assert_out(&r, "A\nA2\nb\nc\nnew\n");
	run_free(&r);
	APPLY_STRICT(&r, "a\nb\nc\n", H(2, 2, APPEND_HUNK));
	assert_out(&r, "a\nb\nc\nnew\n");
	run_free(&r);
	APPLY_EXACT_ONLY(&r, "h1\na\nb\nc\n", H(2, 2, APPEND_HUNK));
	assert_out(&r, "h1\na\nb\nc\nnew\n");
	assert_landing(&r, 0, AA_HOW_OFFSET, 3, 1);
	run_free(&r);
	/* blanks ignored is rung 3: not in the exact-only mode */
	APPLY_EXACT_ONLY(&r, "a\nb  \nc\n", H(2, 2, APPEND_HUNK));
	assert_int_equal(r.rc, -1);
	run_free(&r);
}

static void test_anchor_start(void **state)
{
	run r;
	const char *msg;

	(void)state;
	APPLY(&r, "a\nb\nc\n", H(1, 1, "+#!/bin/sh\n a\n b\n"));
	assert_out(&r, "#!/bin/sh\na\nb\nc\n");
	assert_landing(&r, 0, AA_HOW_EXACT, 1, 0);
	run_free(&r);
	/* upstream put a header first: not after it */
	APPLY(&r, "# header\na\nb\nc\n", H(1, 1, "+#!/bin/sh\n a\n b\n"));
	msg = assert_refused(&r, HUNK_LINE(0));
	assert_has(msg, "anchored to the start of the file");
	assert_has_number(msg, 2);
	assert_int_equal(r.cx.nlandings, 0);
	run_free(&r);
	/* a hunk with no line before it that does not start at line 1 */
	APPLY(&r, "x\na\nb\n", H(2, 2, "+new\n a\n b\n"));
	assert_out(&r, "x\nnew\na\nb\n");
	run_free(&r);
}

/* Context on both sides, or a removed line at the edge: no anchor. */
static void test_anchor_not_for_pinned_edges(void **state)
{
	run r;

	(void)state;
	APPLY(&r, UP_APPENDED, H(2, 2, " b\n+new\n c\n"));
	assert_out(&r, "a\nb\nnew\nc\nup1\nup2\n");
	run_free(&r);
	/* one context line after it is enough */
	APPLY(&r, UP_APPENDED, H(1, 1, " a\n b\n+new\n c\n"));
	assert_out(&r, "a\nb\nnew\nc\nup1\nup2\n");
	run_free(&r);
	/* the removed line pins where its replacement goes */
	APPLY(&r, UP_APPENDED, H(2, 2, " b\n-c\n+C\n+D\n"));
	assert_out(&r, "a\nb\nC\nD\nup1\nup2\n");
	run_free(&r);
	APPLY(&r, "# header\na\nb\n", H(1, 1, "-a\n+A\n b\n"));
	assert_out(&r, "# header\nA\nb\n");
	run_free(&r);
	/* no context at all */
	APPLY(&r, UP_APPENDED, H(3, 3, "-c\n+C\n"));
	assert_out(&r, "a\nb\nC\nup1\nup2\n");
	run_free(&r);
}

/* A bare hunk does not say it was at the end: it lands, with a warning. */
static void test_anchor_bare_hunk_warns(void **state)
{
	run r;

	(void)state;
	APPLY(&r, UP_APPENDED, BARE(APPEND_HUNK));
	assert_out(&r, "a\nb\nc\nnew\nup1\nup2\n");
	assert_int_equal(count_level(&r.d, AA_DIAG_WARNING), 1);
	assert_has(msg_of(&r.d, AA_DIAG_WARNING), "not the end of the file");
	assert_has(msg_of(&r.d, AA_DIAG_WARNING), "2 more lines follow");
	run_free(&r);
	APPLY(&r, "a\nb\nc\n", BARE(APPEND_HUNK));
	assert_out(&r, "a\nb\nc\nnew\n");
	assert_int_equal(r.d.n, 0);
	run_free(&r);
}

/* ---- --strict (seed 004) ---------------------------------------------------------- */

static void test_strict_exact_applies(void **state)
{
	run r;

	(void)state;
	APPLY_STRICT(&r, L10, H(4, 4, HUNK_L5));
	assert_out(&r, L10_L5);
	assert_landing(&r, 0, AA_HOW_EXACT, 4, 0);
	assert_int_equal(r.d.n, 0);
	run_free(&r);
}

static void test_strict_offset_refused(void **state)
{
	run r;
	const char *msg;

	(void)state;
	APPLY_STRICT(&r, "h1\nh2\nh3\n" L10, H(4, 4, HUNK_L5));
	msg = assert_refused(&r, HUNK_LINE(0));
	assert_has(msg, "Context lines don't match");
	assert_int_equal(r.cx.nlandings, 0);
	run_free(&r);
}

static void test_strict_whitespace_refused(void **state)
{
	run r;

	(void)state;
	APPLY_STRICT(&r, "l1\nl2\nl3\nl4 \nl5\nl6\n", H(4, 4, HUNK_L5));
	assert_has(assert_refused(&r, HUNK_LINE(0)), "Context lines don't match");
	run_free(&r);
	APPLY_STRICT(&r, "// header comment\nstart();\nrun(1);\nstop();\n// trailer\n",
		     H(1, 1, RC_HUNK));
	assert_has(assert_refused(&r, HUNK_LINE(0)), "Context lines don't match");
	run_free(&r);
}

static void test_strict_encoding_first(void **state)
{
	static const char in[] = "\xff\xfe" "a\0\r\0\n\0b\0\r\0\n\0";
	hspec good = H(1, 1, " a\n-b\n+c\n"), bad = H(1, 1, " x\n-y\n+z\n");
	run r;

	(void)state;
	apply_len(&r, in, sizeof(in) - 1, &good, 1, 1);
	assert_int_equal(r.rc, -1);
	assert_int_equal(r.d.nerrors, 1);
	assert_has(first_error(&r.d)->msg, "Encoding mismatch");
	run_free(&r);
	/* the context does not match either: the encoding is reported, not it */
	apply_len(&r, in, sizeof(in) - 1, &bad, 1, 1);
	assert_int_equal(r.rc, -1);
	assert_int_equal(r.d.nerrors, 1);
	assert_has(first_error(&r.d)->msg, "Encoding mismatch");
	run_free(&r);
	/* UTF-16 BE too */
	{
		static const char be[] = "\xfe\xff" "\0a\0\r\0\n\0b\0\r\0\n";

		apply_len(&r, be, sizeof(be) - 1, &good, 1, 1);
		assert_int_equal(r.rc, -1);
		assert_has(first_error(&r.d)->msg, "Encoding mismatch");
		run_free(&r);
	}
	/* UTF-8 with a BOM is not a mismatch */
	{
		static const char bom[] = "\xef\xbb\xbf" "a\nb\n";

		apply_len(&r, bom, sizeof(bom) - 1, &good, 1, 1);
		assert_out(&r, "\xef\xbb\xbf" "a\nc\n");
		run_free(&r);
	}
}

static void test_strict_counts_after_context(void **state)
{
	hspec h[2];
	run r;

	(void)state;
	/* context fine, counts wrong */
	h[0] = (hspec)H(4, 4, HUNK_L5);
	h[0].count_mismatch = 1;
	apply_len(&r, L10, strlen(L10), h, 1, 1);
	assert_int_equal(r.rc, -1);
	assert_int_equal(r.d.nerrors, 1);
	assert_has(first_error(&r.d)->msg, "Hunk line counts incorrect");
	assert_int_equal(first_error(&r.d)->line, HUNK_LINE(0));
	run_free(&r);
	/* context wrong too: that is what is reported */
	h[0] = (hspec)H(4, 4, " l4\n-nope\n+L5\n l6\n");
	h[0].count_mismatch = 1;
	apply_len(&r, L10, strlen(L10), h, 1, 1);
	assert_int_equal(r.rc, -1);
	assert_int_equal(r.d.nerrors, 1);
	assert_has(first_error(&r.d)->msg, "Context lines don't match");
	run_free(&r);
	/* the first hunk's counts are wrong, the second's context: context first */
	h[0] = (hspec)H(2, 2, " l2\n-l3\n+L3\n l4\n");
	h[0].count_mismatch = 1;
	h[1] = (hspec)H(7, 7, " l7\n-nope\n+L8\n l9\n");
	apply_len(&r, L10, strlen(L10), h, 2, 1);
	assert_int_equal(r.rc, -1);
	assert_int_equal(r.d.nerrors, 1);
	assert_has(first_error(&r.d)->msg, "Context lines don't match");
	assert_int_equal(first_error(&r.d)->line, HUNK_LINE(1));
	run_free(&r);
	/* outside --strict a recounted hunk is fine */
	h[0] = (hspec)H(4, 4, HUNK_L5);
	h[0].count_mismatch = 1;
	apply_len(&r, L10, strlen(L10), h, 1, 0);
	assert_out(&r, L10_L5);
	run_free(&r);
}

/* ---- aa_edit_check_deletion ---------------------------------------------------------- */

static int check_deletion(run *r, const char *file, const char *body, int strict)
{
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_text t = AA_TEXT_INIT;
	aa_pos pos = { "answer.md", 5 };
	const char *why = NULL;
	aa_op *op;

	memset(r, 0, sizeof(*r));
	r->cx.path = "f.txt";
	r->cx.diags = &r->d;
	r->cx.strict = strict;
	op = aa_changeset_add(&cs, AA_OP_DELETE, pos);
	assert_non_null(op);
	op->path = aa_strdup("f.txt");
	op->strict = strict;
	if (body) {
		hspec h = H(1, 0, body);

		add_hunks(op, &h, 1);
	}
	if (aa_text_decode(&t, file, strlen(file), &why) < 0)
		fail_msg("decode: %s", why ? why : "?");
	r->rc = aa_edit_check_deletion(&t, op, &r->cx);
	aa_text_free(&t);
	aa_changeset_free(&cs);
	return r->rc;
}

static void test_deletion_exact(void **state)
{
	run r;

	(void)state;
	assert_int_equal(check_deletion(&r, "a\nb\nc\n", "-a\n-b\n-c\n", 0), 0);
	assert_int_equal(r.d.n, 0);
	run_free(&r);
	assert_int_equal(check_deletion(&r, "a\nb\nc\n", "-a\n-b\n-c\n", 1), 0);
	assert_int_equal(r.d.n, 0);
	run_free(&r);
	/* CRLF file, LF diff: the same lines */
	assert_int_equal(check_deletion(&r, "a\r\nb\r\n", "-a\n-b\n", 1), 0);
	run_free(&r);
	/* no final newline */
	assert_int_equal(check_deletion(&r, "a\nb", "-a\n-b\n", 0), 0);
	run_free(&r);
	/* no hunks: nothing to check */
	assert_int_equal(check_deletion(&r, "a\nb\n", NULL, 1), 0);
	run_free(&r);
}

static void test_deletion_mismatch_refused(void **state)
{
	run r;

	(void)state;
	/* the diff misses a line of the file */
	assert_int_equal(check_deletion(&r, "a\nb\nc\n", "-a\n-c\n", 0), -1);
	assert_int_equal(r.d.nerrors, 1);
	run_free(&r);
	/* the file has a line more at the end */
	assert_int_equal(check_deletion(&r, "a\nb\nc\nd\n", "-a\n-b\n-c\n", 0), -1);
	assert_int_equal(r.d.nerrors, 1);
	run_free(&r);
	/* the diff has a line more than the file */
	assert_int_equal(check_deletion(&r, "a\nb\n", "-a\n-b\n-c\n", 0), -1);
	assert_int_equal(r.d.nerrors, 1);
	run_free(&r);
	/* a line differs: the error shows it */
	assert_int_equal(check_deletion(&r, "a\nsecret = 1\nc\n", "-a\n-secret = 0\n-c\n", 0), -1);
	assert_int_equal(r.d.nerrors, 1);
	assert_has(first_error(&r.d)->msg, "secret = 1");
	assert_has_number(first_error(&r.d)->msg, 2);
	assert_int_equal(first_error(&r.d)->line, HUNK_LINE(0));
	run_free(&r);
	/* leading blanks are not forgiven */
	assert_int_equal(check_deletion(&r, "a\n  b\n", "-a\n-b\n", 0), -1);
	run_free(&r);
	/* a deletion that adds lines */
	assert_int_equal(check_deletion(&r, "a\n", "-a\n+b\n", 0), -1);
	run_free(&r);
	/* an empty file against a diff with lines */
	assert_int_equal(check_deletion(&r, "", "-a\n", 0), -1);
	run_free(&r);
}

static void test_deletion_trailing_blanks(void **state)
{
	run r;

	(void)state;
	assert_int_equal(check_deletion(&r, "a  \nb\t\nc\n", "-a\n-b\n-c\n", 0), 0);
	assert_int_equal(r.d.nerrors, 0);
	run_free(&r);
	assert_int_equal(check_deletion(&r, "a\nb\nc\n", "-a \n-b\n-c\n", 0), 0);
	assert_int_equal(r.d.nerrors, 0);
	run_free(&r);
	assert_int_equal(check_deletion(&r, "a  \nb\t\nc\n", "-a\n-b\n-c\n", 1), -1);
	assert_int_equal(r.d.nerrors, 1);
	run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rung1_exact),
		cmocka_unit_test(test_rung1_shapes),
		cmocka_unit_test(test_preimage_wins_over_already_applied),
		cmocka_unit_test(test_rung2_offset_positive),
		cmocka_unit_test(test_rung2_offset_negative),
		cmocka_unit_test(test_hint_drift_carried),
		cmocka_unit_test(test_rung2_tie_refused),
		cmocka_unit_test(test_two_blocks_hint_picks),
		cmocka_unit_test(test_two_blocks_no_hint_refused),
		cmocka_unit_test(test_no_hint_unique),
		cmocka_unit_test(test_bare_counted_lines),
		cmocka_unit_test(test_ambiguous_lists_five_and_more),
		cmocka_unit_test(test_identical_hunks_identical_places),
		cmocka_unit_test(test_identical_hunks_ambiguous),
		cmocka_unit_test(test_identical_numbered_hunks_in_order),
		cmocka_unit_test(test_numbered_hunk_behind_previous),
		cmocka_unit_test(test_already_applied_single),
		cmocka_unit_test(test_already_applied_half),
		cmocka_unit_test(test_already_applied_twice_is_not),
		cmocka_unit_test(test_rung3_trailing_keeps_file_lines),
		cmocka_unit_test(test_rung3_ambiguous_refused_even_with_hint),
		cmocka_unit_test(test_rung3_shift_more_indented),
		cmocka_unit_test(test_rung3_shift_less_indented),
		cmocka_unit_test(test_rung3_tabs_in_file_spaces_in_hunk),
		cmocka_unit_test(test_rung3_no_shift_when_indent_agrees),
		cmocka_unit_test(test_rung3_reindent_recorded),
		cmocka_unit_test(test_rung3_reindent_only_when_added_lines_change),
		cmocka_unit_test(test_rung3_trailing_before_both),
		cmocka_unit_test(test_already_applied_before_whitespace),
		cmocka_unit_test(test_rung3_crlf),
		cmocka_unit_test(test_rung3_after_growing_hunk),
		cmocka_unit_test(test_empty_context_lines),
		cmocka_unit_test(test_remove_last_line_no_newline),
		cmocka_unit_test(test_rung4_reduced_context),
		cmocka_unit_test(test_rung4_with_indentation),
		cmocka_unit_test(test_rung4_not_unique_refused),
		cmocka_unit_test(test_rung4_core_must_match),
		cmocka_unit_test(test_conflict_names_closest_line),
		cmocka_unit_test(test_miss_shows_aligned_region),
		cmocka_unit_test(test_second_hunk_fails),
		cmocka_unit_test(test_every_failing_hunk_reported),
		cmocka_unit_test(test_hunks_in_order_with_delta),
		cmocka_unit_test(test_hunks_out_of_order),
		cmocka_unit_test(test_hunk_sees_previous_result),
		cmocka_unit_test(test_crlf_file_lf_hunk),
		cmocka_unit_test(test_mixed_endings),
		cmocka_unit_test(test_no_final_newline_kept),
		cmocka_unit_test(test_no_newline_markers),
		cmocka_unit_test(test_utf16_file),
		cmocka_unit_test(test_insertion_at_header_line),
		cmocka_unit_test(test_insertion_with_context_equal_to_next_line),
		cmocka_unit_test(test_insertion_beyond_end_refused),
		cmocka_unit_test(test_insertion_bare),
		cmocka_unit_test(test_random_edits_against_model),
		cmocka_unit_test(test_large_file_many_hunks),
		cmocka_unit_test(test_anchor_end_refused_after_upstream_appended),
		cmocka_unit_test(test_anchor_end_lands_at_the_end),
		cmocka_unit_test(test_anchor_start),
		cmocka_unit_test(test_anchor_not_for_pinned_edges),
		cmocka_unit_test(test_anchor_bare_hunk_warns),
		cmocka_unit_test(test_strict_exact_applies),
		cmocka_unit_test(test_strict_offset_refused),
		cmocka_unit_test(test_strict_whitespace_refused),
		cmocka_unit_test(test_strict_encoding_first),
		cmocka_unit_test(test_strict_counts_after_context),
		cmocka_unit_test(test_deletion_exact),
		cmocka_unit_test(test_deletion_mismatch_refused),
		cmocka_unit_test(test_deletion_trailing_blanks),
		cmocka_unit_test(test_insertion_is_exact),
		cmocka_unit_test(test_insertion_equal_to_next_line_is_applied),
		cmocka_unit_test(test_removal_one_sided_context_whitespace),
	};
	return AA_RUN_TESTS(tests);
}
