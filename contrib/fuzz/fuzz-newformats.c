/*
 * libFuzzer target: the parsers of the formats beyond the seeds (v4a,
 * search-replace, whole-file) and the elision resolver.
 *
 * Each input is parsed with --format=auto and with each of the three
 * formats. The input may carry an original file after a line
 * "=====BASE=====": every op a parse produces is then run, as far as the
 * engines go, on that text (v4a chunks through their anchors and the
 * hunk ladder, SEARCH/REPLACE hunks, whole files with elisions). Without
 * the marker the original is a few fixed lines.
 *
 * Contracts checked (abort on breach, unless AA_FUZZ_NO_ORACLES=1): a
 * failure records an error and a success none; a resolved elision edit
 * leaves no elision line in the text that was not in the original.
 */
/* memmem (glibc declares it for _GNU_SOURCE only) */
#define _GNU_SOURCE 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aiapply/common.h"
#include "edit/edit.h"
#include "format/format.h"
#include "edit/text.h"

#define BASE_MARKER "=====BASE=====\n"

static const char default_base[] =
	"class A:\n    def run(self):\n        return 1\n\n"
	"class B:\n    def run(self):\n        return 1\n";

static int oracles = 1;

static void breach(const char *what, const char *detail)
{
	fprintf(stderr, "ORACLE: %s%s%s\n", what, detail ? ": " : "",
		detail ? detail : "");
	abort();
}

static void check_result(const char *stage, int r, const aa_diags *d)
{
	if (!oracles)
		return;
	if (r < 0 && !d->nerrors)
		breach(stage, "failed without an error");
	if (r >= 0 && d->nerrors)
		breach(stage, d->v[0].msg);
}

/* No line of t is an elision unless the original has it too. */
static void check_no_elision(const aa_text *t, const char *base, size_t blen,
			     const char *path)
{
	size_t i;

	for (i = 0; oracles && i < t->n; i++) {
		const aa_line *l = &t->lines[i];

		if (!aa_is_elision(l->s, l->len, path))
			continue;
		if (!memmem(base, blen, l->s, l->len))
			breach("an elision was written", path);
	}
}

static void run_edit(const aa_op *op, const char *base, size_t blen)
{
	aa_text t = AA_TEXT_INIT;
	aa_edit_ctx cx;
	aa_diags d = AA_DIAGS_INIT;
	const char *why;
	int r = -1;

	if (op->kind != AA_OP_EDIT || aa_text_decode(&t, base, blen, &why) < 0) {
		aa_text_free(&t);
		return;
	}
	memset(&cx, 0, sizeof(cx));
	cx.path = op->path;
	cx.diags = &d;
	switch (op->edit_kind) {
	case AA_EDIT_HUNKS:
		r = aa_edit_hunks(&t, op, &cx);
		break;
	case AA_EDIT_V4A:
		r = aa_edit_v4a(&t, op, &cx);
		break;
	case AA_EDIT_ELIDE:
		r = aa_edit_elide(&t, op, &cx);
		if (r == 0 && !strcmp(op->format, "whole-file"))
			check_no_elision(&t, base, blen, op->path);
		break;
	default:
		r = 0;
		break;
	}
	check_result("edit", r, &d);
	aa_edit_ctx_release(&cx);
	aa_diags_free(&d);
	aa_text_free(&t);
}

static void parse_and_edit(const aa_input *in, aa_format f, const char *base,
			   size_t blen)
{
	aa_parse_opts o;
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_diags d = AA_DIAGS_INIT;
	size_t i;
	int r;

	memset(&o, 0, sizeof(o));
	o.format = f;
	r = aa_parse_input(in, &o, &cs, &d);
	check_result("aa_parse_input", r, &d);
	for (i = 0; r > 0 && i < cs.n; i++)
		run_edit(&cs.ops[i], base, blen);
	aa_changeset_free(&cs);
	aa_diags_free(&d);
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
	static const aa_format formats[] = {
		AA_FORMAT_AUTO, AA_FORMAT_V4A, AA_FORMAT_SEARCH_REPLACE,
		AA_FORMAT_WHOLE_FILE
	};
	const size_t ml = sizeof(BASE_MARKER) - 1;
	const char *base = default_base;
	size_t alen = size, blen = sizeof(default_base) - 1, i;
	char *answer;
	aa_input in;

	for (i = 0; i + ml <= size; i++)
		if ((i == 0 || data[i - 1] == '\n') &&
		    !memcmp(data + i, BASE_MARKER, ml)) {
			alen = i;
			base = (const char *)data + i + ml;
			blen = size - i - ml;
			break;
		}
	/* an exact-size copy, so ASan sees any read past the answer */
	answer = malloc(alen ? alen : 1);
	if (!answer)
		return 0;
	memcpy(answer, data, alen);
	memset(&in, 0, sizeof(in));
	in.name = "answer.md";
	in.data = answer;
	in.len = alen;
	for (i = 0; i < sizeof(formats) / sizeof(*formats); i++)
		parse_and_edit(&in, formats[i], base, blen);
	free(answer);
	return 0;
}
