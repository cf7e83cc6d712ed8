/*
 * libFuzzer target: the locator and the hunk engine (aa_edit_hunks) on
 * a fake file, with no repository.
 *
 * Input layout: a diff, then optionally a line "=====BASE=====" and
 * the bytes of the file the diff is applied to (without the marker the
 * file holds a few fixed lines). The diff is parsed with aa_parse_diff;
 * each of its first few edit operations runs on a fresh decode of the
 * file, whatever path it names (a deletion's hunks go to
 * aa_edit_check_deletion). The input's length picks the mode: bit 0
 * --strict, bit 1 exact-only (the planner's first try).
 *
 * Checks (abort, unless AA_FUZZ_NO_ORACLES=1): a failure reports an
 * error and a success none; a success lands every hunk once, on rung 1
 * only under --strict and on rungs 1-2 only in exact-only mode (a bare
 * "@@" hunk, found exactly, lands "by content"); the
 * edited text encodes (UTF-8 always; UTF-16 unless a line is not valid
 * UTF-8), and that encoding decodes and re-encodes to itself.
 */
#include "fuzz.h"

#define MAX_EDITS 4

static const char default_base[] =
	"one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n";

static void check_landings(const aa_op *op, const aa_edit_ctx *cx,
			   int strict, int exact_only)
{
	size_t i;
	int bare = 0;

	/* a bare "@@" hunk found exactly lands "by content" */
	for (i = 0; i < op->nhunks; i++)
		bare |= !op->hunks[i].has_hint;
	fz_check(cx->nlandings == op->nhunks, "hunks landed != hunks", op->path);
	fz_check(cx->applied + cx->skipped == cx->nlandings,
		 "applied + skipped != landings", op->path);
	for (i = 0; i < cx->nlandings; i++) {
		aa_how how = cx->landings[i].how;

		if (bare && how == AA_HOW_CONTENT)
			continue;
		if (strict)
			fz_check(how == AA_HOW_EXACT, "--strict landed off rung 1",
				 aa_how_name(how));
		/*
		 * exact-only: rungs 1-2, or "already applied" decided from
		 * exact matches there (the new side exactly at the header's
		 * line, a change standing elsewhere that the order of the
		 * hunks decides: locating.md, "A change that already stands
		 * elsewhere")
		 */
		if (exact_only)
			fz_check(how == AA_HOW_EXACT || how == AA_HOW_OFFSET ||
				 how == AA_HOW_ALREADY_APPLIED,
				 "exact-only landed off rungs 1-2", aa_how_name(how));
	}
}

static void edit_one(const aa_op *op, const char *base, size_t blen,
		     int strict, int exact_only)
{
	aa_text t = AA_TEXT_INIT;
	aa_diags d = AA_DIAGS_INIT;
	aa_edit_ctx cx;
	const char *why = NULL;
	int r;

	if (aa_text_decode_borrowed(&t, base, blen, &why) < 0)
		goto out;
	memset(&cx, 0, sizeof(cx));
	cx.path = op->path;
	cx.diags = &d;
	cx.strict = strict || op->strict;
	cx.exact_only = exact_only;
	if (op->kind == AA_OP_DELETE) {
		r = aa_edit_check_deletion(&t, op, &cx);
		fz_check_diags(&d);
		fz_check(r == 0 || d.nerrors, "deletion refused without an error", NULL);
	} else {
		r = aa_edit_hunks(&t, op, &cx);
		if (fz_check_edit("aa_edit_hunks", r, &t, &d))
			check_landings(op, &cx, cx.strict, exact_only);
	}
	aa_edit_ctx_release(&cx);
out:
	aa_text_free(&t);
	aa_diags_free(&d);
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
	aa_input in = { "answer.diff", NULL, 0, NULL };
	aa_parse_opts o = { AA_FORMAT_DIFF, (int)(size & 1) };
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_diags d = AA_DIAGS_INIT;
	aa_block b;
	char *copy = fz_copy(data, size), *base = NULL;
	const char *bsrc;
	size_t blen, i, nedits = 0;

	if (!copy)
		return 0;
	in.data = copy;
	in.len = fz_split_base(copy, size, default_base,
			      sizeof(default_base) - 1, &bsrc, &blen);
	/* Both parts in exact-size buffers, so ASan sees over-reads. */
	base = fz_copy((const uint8_t *)bsrc, blen);
	if (!base)
		goto out;
	b.in = &in;
	b.data = in.data;
	b.len = in.len;
	b.line = 1;
	if (aa_parse_diff(&b, &o, NULL, &cs, &d) <= 0)
		goto out;
	for (i = 0; i < cs.n && nedits < MAX_EDITS; i++) {
		const aa_op *op = &cs.ops[i];

		if (!op->nhunks || (op->kind != AA_OP_DELETE &&
				    (op->kind != AA_OP_EDIT ||
				     op->edit_kind != AA_EDIT_HUNKS)))
			continue;
		edit_one(op, base, blen, o.strict, (int)((size >> 1) & 1));
		nedits++;
	}
out:
	aa_changeset_free(&cs);
	aa_diags_free(&d);
	free(base);
	free(copy);
	return 0;
}
