/* The change set: ordered operations with their input positions. */
#include <stdlib.h>
#include <string.h>

#include "change/changeset.h"

/* Grows an array of `size`-byte items to hold one more; 0 or -1. */
static int grow(void **v, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 4;
	if (ncap > SIZE_MAX / size)
		return -1;
	p = realloc(*v, ncap * size);
	if (!p)
		return -1;
	*v = p;
	*cap = ncap;
	return 0;
}

aa_op *aa_changeset_add(aa_changeset *cs, aa_op_kind kind, aa_pos pos)
{
	aa_op *op;

	if (cs->n >= AA_MAX_OPS ||
	    grow((void **)&cs->ops, &cs->cap, cs->n, sizeof(*cs->ops)) < 0)
		return NULL;
	op = &cs->ops[cs->n++];
	memset(op, 0, sizeof(*op));
	op->kind = kind;
	op->pos = pos;
	return op;
}

/*
 * Sub-arrays of an op keep no capacity field: with n items the capacity
 * is the smallest power of two >= max(n, 4), so n alone tells when to grow.
 */
static size_t implicit_cap(size_t n)
{
	size_t cap = 4;

	while (cap < n)
		cap *= 2;
	return cap;
}

static int grow_pow2(void **v, size_t n, size_t size)
{
	size_t cap;
	void *p;

	if (n && n < implicit_cap(n))
		return 0;
	cap = implicit_cap(n + 1);
	if (cap > SIZE_MAX / size)
		return -1;
	p = realloc(*v, cap * size);
	if (!p)
		return -1;
	*v = p;
	return 0;
}

aa_hunk *aa_op_add_hunk(aa_op *op, aa_pos pos)
{
	aa_hunk *h;

	if (grow_pow2((void **)&op->hunks, op->nhunks, sizeof(*op->hunks)) < 0)
		return NULL;
	h = &op->hunks[op->nhunks++];
	memset(h, 0, sizeof(*h));
	h->pos = pos;
	return h;
}

int aa_hunk_add_line(aa_hunk *h, char kind, const char *text, size_t len)
{
	aa_hline *l;

	if (grow_pow2((void **)&h->lines, h->nlines, sizeof(*h->lines)) < 0)
		return -1;
	l = &h->lines[h->nlines];
	l->text = aa_strndup(text, len);
	if (!l->text)
		return -1;
	l->kind = kind;
	l->len = len;
	l->loose = 0;
	h->nlines++;
	return 0;
}

aa_repl *aa_op_add_repl(aa_op *op, aa_pos pos)
{
	aa_repl *r;

	if (grow_pow2((void **)&op->repls, op->nrepls, sizeof(*op->repls)) < 0)
		return NULL;
	r = &op->repls[op->nrepls++];
	memset(r, 0, sizeof(*r));
	r->pos = pos;
	return r;
}

aa_apmod *aa_op_add_apmod(aa_op *op, aa_pos pos)
{
	aa_apmod *m;

	if (grow_pow2((void **)&op->apmods, op->napmods, sizeof(*op->apmods)) < 0)
		return NULL;
	m = &op->apmods[op->napmods++];
	memset(m, 0, sizeof(*m));
	m->pos = pos;
	return m;
}

static void hunk_free(aa_hunk *h)
{
	size_t i;

	for (i = 0; i < h->nlines; i++)
		free(h->lines[i].text);
	free(h->lines);
	free(h->section);
}

void aa_op_free(aa_op *op)
{
	size_t i;

	free(op->path);
	free(op->to);
	free(op->other_name);
	free(op->content);
	for (i = 0; i < op->nhunks; i++)
		hunk_free(&op->hunks[i]);
	free(op->hunks);
	for (i = 0; i < op->nrepls; i++) {
		free(op->repls[i].find);
		free(op->repls[i].replace);
	}
	free(op->repls);
	for (i = 0; i < op->napmods; i++) {
		aa_apmod *m = &op->apmods[i];

		free(m->snippet);
		free(m->start_snippet);
		free(m->end_snippet);
		free(m->anchor);
		free(m->content);
	}
	free(op->apmods);
	memset(op, 0, sizeof(*op));
}

void aa_changeset_free(aa_changeset *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		aa_op_free(&cs->ops[i]);
	free(cs->ops);
	cs->ops = NULL;
	cs->n = cs->cap = 0;
}

const char *aa_op_kind_name(aa_op_kind k)
{
	switch (k) {
	case AA_OP_WRITE: return "write";
	case AA_OP_DELETE: return "delete";
	case AA_OP_RENAME: return "rename";
	case AA_OP_COPY: return "copy";
	case AA_OP_EDIT: return "edit";
	}
	return "?";
}
