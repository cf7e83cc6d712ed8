/*
 * Shared by the per-parser libFuzzer targets (contrib/fuzz/fuzz-*.c):
 * the oracle switch, exact-size copies of the input, and the contracts
 * every parser keeps whatever its input (see check_parse()).
 *
 * Header-only on purpose: each target is one .c file plus this header,
 * linked with libaiapply, so a target builds and replays on its own.
 */
#ifndef AA_FUZZ_H
#define AA_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "change/changeset.h"
#include "edit/edit.h"
#include "aiapply/common.h"
#include "format/format.h"
#include "change/path.h"
#include "edit/text.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 0 with AA_FUZZ_NO_ORACLES=1: only crashes, leaks and UB count. */
static int fz_oracles = 1;

static inline void fz_init_oracles(void)
{
	const char *e = getenv("AA_FUZZ_NO_ORACLES");

	fz_oracles = !(e && *e && strcmp(e, "0"));
}

static inline void fz_fail(const char *what, const char *detail)
{
	fprintf(stderr, "ORACLE: %s%s%s\n", what, detail ? ": " : "",
		detail ? detail : "");
	abort();
}

static inline void fz_check(int ok, const char *what, const char *detail)
{
	if (fz_oracles && !ok)
		fz_fail(what, detail);
}

/*
 * An exact-size heap copy (never NULL-terminated), so that ASan sees a
 * read one byte past the input; NULL on out-of-memory.
 */
static inline char *fz_copy(const uint8_t *data, size_t size)
{
	char *p = malloc(size ? size : 1);

	if (p && size)
		memcpy(p, data, size);
	return p;
}

/* Every diagnostic has a message and formats; nerrors counts errors. */
static inline void fz_check_diags(const aa_diags *d)
{
	size_t i, nerr = 0;

	for (i = 0; i < d->n; i++) {
		aa_buf b = AA_BUF_INIT;

		if (d->v[i].level == AA_DIAG_ERROR)
			nerr++;
		fz_check(d->v[i].msg != NULL, "diagnostic without a message", NULL);
		fz_check(aa_diag_format(&d->v[i], &b) == 0,
			 "aa_diag_format failed", d->v[i].msg);
		aa_buf_free(&b);
	}
	fz_check(nerr == d->nerrors, "nerrors does not count the errors", NULL);
}

static inline void fz_check_path(const char *what, const char *path)
{
	const char *why = NULL;

	fz_check(path != NULL, what, "NULL path");
	/*
	 * An absolute POSIX path is kept whole by the parsers
	 * (aa_path_answer) and made relative to the work tree, or refused,
	 * by the planner (Documentation/locating.md, "Which file a path
	 * names"): what follows the slashes must be a valid path.
	 */
	while (path && *path == '/')
		path++;
	if (path && aa_path_check(path, strlen(path), &why) < 0)
		fz_check(0, what, why);
}

/* A hunk's lines are ' ', '-' or '+', and its counts are its body's. */
static inline void fz_check_hunk(const aa_hunk *h)
{
	long o = 0, n = 0;
	size_t i;

	for (i = 0; i < h->nlines; i++) {
		const aa_hline *l = &h->lines[i];

		fz_check(l->kind == ' ' || l->kind == '-' || l->kind == '+',
			 "hunk line kind", NULL);
		fz_check(!l->len || l->text, "hunk line text is NULL", NULL);
		o += l->kind != '+';
		n += l->kind != '-';
	}
	if (h->has_hint) {
		fz_check(h->old_count == o, "hunk old count is not the body's", NULL);
		fz_check(h->new_count == n, "hunk new count is not the body's", NULL);
	}
}

/* What a parsed operation holds: valid paths, content, edits. */
static inline void fz_check_op(const aa_op *op)
{
	size_t i;

	fz_check_path("op path", op->path);
	if (op->kind == AA_OP_RENAME || op->kind == AA_OP_COPY)
		fz_check_path("op destination", op->to);
	if (op->kind == AA_OP_WRITE)
		fz_check(!op->content_len || op->content, "content is NULL", op->path);
	if (op->edit_kind == AA_EDIT_REPLACEMENTS) {
		for (i = 0; i < op->nrepls; i++)
			fz_check(op->repls[i].find && op->repls[i].find_len,
				 "replacement without a find text", op->path);
	} else if (op->edit_kind == AA_EDIT_BINARY) {
		for (i = 0; i < op->nbin && i < 2; i++)
			fz_check(!op->bin[i].len || op->bin[i].data,
				 "binary hunk data is NULL", op->path);
		fz_check(op->nbin <= 2, "more than two binary hunks", op->path);
	} else if (op->edit_kind != AA_EDIT_AP) {
		for (i = 0; i < op->nhunks; i++)
			fz_check_hunk(&op->hunks[i]);
	}
}

static inline const char *fz_first_error(const aa_diags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].level == AA_DIAG_ERROR)
			return d->v[i].msg;
	return NULL;
}

/*
 * The contract of every parser: a failure (-1) records an error and,
 * for a block parser (`rolls_back`), leaves the change set as it was
 * (n0 operations); a success records no error. Whatever it appended is
 * valid either way.
 */
static inline void fz_check_parse(const char *stage, int r,
				  const aa_changeset *cs, size_t n0,
				  int rolls_back, const aa_diags *d)
{
	size_t i;

	fz_check_diags(d);
	if (r < 0) {
		fz_check(d->nerrors > 0, stage, "failed without an error");
		if (rolls_back)
			fz_check(cs->n == n0, stage, "failed but left operations");
	} else {
		fz_check(d->nerrors == 0, stage, fz_first_error(d));
	}
	for (i = n0; i < cs->n; i++)
		fz_check_op(&cs->ops[i]);
}

typedef int (*fz_parse_fn)(const aa_block *b, const aa_parse_opts *o,
			   aa_changeset *cs, aa_diags *d);

/*
 * Runs one block parser over the whole input, without and with
 * --strict, into a change set that already holds one operation (a
 * failure must leave it alone), and checks the contract.
 */
static inline void fz_run_parser(const char *name, fz_parse_fn parse,
				 const uint8_t *data, size_t size)
{
	static const aa_pos pos = { "answer.md", 1 };
	aa_input in = { "answer.md", NULL, 0, NULL };
	aa_block b;
	int strict;

	in.data = fz_copy(data, size);
	if (!in.data)
		return;
	in.len = size;
	b.in = &in;
	b.data = in.data;
	b.len = size;
	b.line = 1;
	for (strict = 0; strict <= 1; strict++) {
		aa_parse_opts o = { AA_FORMAT_AUTO, strict };
		aa_changeset cs = AA_CHANGESET_INIT;
		aa_diags d = AA_DIAGS_INIT;
		aa_op *op = aa_changeset_add(&cs, AA_OP_DELETE, pos);
		int r;

		if (op && (op->path = aa_strdup("before")) != NULL) {
			r = parse(&b, &o, &cs, &d);
			fz_check_parse(name, r, &cs, 1, 1, &d);
		}
		aa_changeset_free(&cs);
		aa_diags_free(&d);
	}
	free((char *)in.data);
}

/* ---------- the edit targets: an answer and the file it edits ---------- */

#define FZ_BASE_MARKER "=====BASE=====\n"

/*
 * Splits an input "answer, then a line =====BASE=====, then the file"
 * (the file is `dflt` without the marker). Returns the answer's length.
 */
static inline size_t fz_split_base(const char *s, size_t n, const char *dflt,
				   size_t dflt_len, const char **base,
				   size_t *blen)
{
	const size_t ml = sizeof(FZ_BASE_MARKER) - 1;
	size_t i;

	for (i = 0; i + ml <= n; i++)
		if ((i == 0 || s[i - 1] == '\n') &&
		    !memcmp(s + i, FZ_BASE_MARKER, ml)) {
			*base = s + i + ml;
			*blen = n - i - ml;
			return i;
		}
	*base = dflt;
	*blen = dflt_len;
	return n;
}

/* An edited text's encoding decodes and encodes back to itself. */
static inline void fz_check_round_trip(const char *buf, size_t len)
{
	aa_text t = AA_TEXT_INIT;
	aa_buf out = AA_BUF_INIT;
	const char *why = NULL;

	if (aa_text_decode(&t, buf, len, &why) == 0) {
		fz_check(aa_text_encode(&t, &out) == 0,
			 "an encoded result does not re-encode", NULL);
		fz_check(out.len == len && (!len || !memcmp(out.ptr, buf, len)),
			 "an encoded result does not round-trip", NULL);
	} else {
		fz_check(0, "an encoded result does not decode", why);
	}
	aa_text_free(&t);
	aa_buf_free(&out);
}

/*
 * After an edit engine returned r on t: a failure reports an error, a
 * success none, and the edited text encodes (a UTF-16 text may refuse
 * bytes that are not UTF-8) to bytes that round-trip. Returns 1 when
 * the edit succeeded.
 */
static inline int fz_check_edit(const char *engine, int r, const aa_text *t,
				const aa_diags *d)
{
	aa_buf out = AA_BUF_INIT;

	fz_check_diags(d);
	if (r < 0) {
		fz_check(d->nerrors > 0, engine, "failed without an error");
		return 0;
	}
	fz_check(d->nerrors == 0, engine, fz_first_error(d));
	if (aa_text_encode(t, &out) == 0)
		fz_check_round_trip(out.ptr, out.len);
	else
		fz_check(t->enc == AA_ENC_UTF16LE || t->enc == AA_ENC_UTF16BE,
			 engine, "the edited UTF-8 text does not encode");
	aa_buf_free(&out);
	return 1;
}

#endif
