/* The change set: ordered operations with their input positions. */
#include <stdlib.h>
#include <string.h>

#include "change/changeset.h"
#include "util/util.h"

aa_op *aa_changeset_add(aa_changeset *cs, aa_op_kind kind, aa_pos pos)
{
	aa_op *op;

	if (cs->n >= AA_MAX_OPS ||
	    AA_GROW(cs->ops, cs->n, cs->cap) < 0)
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

/* Room for one more of the n items of `size` bytes at *arrayp. */
static int grow_pow2(void *arrayp, size_t n, size_t size)
{
	size_t cap = n ? implicit_cap(n) : 0;

	return aa_array_grow(arrayp, &cap, n + 1, size);
}

aa_hunk *aa_op_add_hunk(aa_op *op, aa_pos pos)
{
	aa_hunk *h;

	if (grow_pow2(&op->hunks, op->nhunks, sizeof(*op->hunks)) < 0)
		return NULL;
	h = &op->hunks[op->nhunks++];
	memset(h, 0, sizeof(*h));
	h->pos = pos;
	return h;
}

int aa_hunk_add_line(aa_hunk *h, char kind, const char *text, size_t len)
{
	aa_hline *l;

	if (grow_pow2(&h->lines, h->nlines, sizeof(*h->lines)) < 0)
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

int aa_hunk_side_text(const aa_hunk *h, char kind, aa_buf *out)
{
	size_t k;

	for (k = 0; k < h->nlines; k++)
		if (h->lines[k].kind == kind &&
		    (aa_buf_put(out, h->lines[k].text, h->lines[k].len) < 0 ||
		     aa_buf_putc(out, '\n') < 0))
			return -1;
	return 0;
}

aa_repl *aa_op_add_repl(aa_op *op, aa_pos pos)
{
	aa_repl *r;

	op->edit_kind = AA_EDIT_REPLACEMENTS;  /* the union's member */
	if (grow_pow2(&op->repls, op->nrepls, sizeof(*op->repls)) < 0)
		return NULL;
	r = &op->repls[op->nrepls++];
	memset(r, 0, sizeof(*r));
	r->pos = pos;
	return r;
}

aa_apmod *aa_op_add_apmod(aa_op *op, aa_pos pos)
{
	aa_apmod *m;

	op->edit_kind = AA_EDIT_AP;  /* the union's member */
	if (grow_pow2(&op->apmods, op->napmods, sizeof(*op->apmods)) < 0)
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

static void hunks_free(aa_op *op)
{
	size_t i;

	for (i = 0; i < op->nhunks; i++)
		hunk_free(&op->hunks[i]);
	free(op->hunks);
}

static void repls_free(aa_op *op)
{
	size_t i;

	for (i = 0; i < op->nrepls; i++) {
		free(op->repls[i].find);
		free(op->repls[i].replace);
	}
	free(op->repls);
}

static void apmods_free(aa_op *op)
{
	size_t i;

	for (i = 0; i < op->napmods; i++) {
		aa_apmod *m = &op->apmods[i];

		free(m->snippet);
		free(m->start_snippet);
		free(m->end_snippet);
		free(m->anchor);
		free(m->content);
	}
	free(op->apmods);
}

/* *dst = a copy of src (NULL stays NULL); -1 when out of memory. */
static int dup_opt(char **dst, const char *src)
{
	*dst = NULL;
	return src && !(*dst = aa_strdup(src)) ? -1 : 0;
}

static int dup_optn(char **dst, const char *src, size_t len)
{
	*dst = NULL;
	return src && !(*dst = aa_strndup(src, len)) ? -1 : 0;
}

static int hunks_clone(aa_op *op, const aa_op *src)
{
	size_t i, k;

	for (i = 0; i < src->nhunks; i++) {
		const aa_hunk *from = &src->hunks[i];
		aa_hunk *h = aa_op_add_hunk(op, from->pos);

		if (!h)
			return -1;
		*h = *from;     /* every plain field; the owned ones follow */
		h->lines = NULL;
		h->nlines = 0;
		if (dup_opt(&h->section, from->section) < 0)
			return -1;
		for (k = 0; k < from->nlines; k++) {
			const aa_hline *l = &from->lines[k];

			if (aa_hunk_add_line(h, l->kind, l->text, l->len) < 0)
				return -1;
			h->lines[k].loose = l->loose;
		}
	}
	return 0;
}

static int repls_clone(aa_op *op, const aa_op *src)
{
	size_t i;

	for (i = 0; i < src->nrepls; i++) {
		aa_repl *r = aa_op_add_repl(op, src->repls[i].pos);

		if (!r)
			return -1;
		*r = src->repls[i];
		if (dup_optn(&r->find, src->repls[i].find, r->find_len) |
		    dup_optn(&r->replace, src->repls[i].replace, r->replace_len))
			return -1;
	}
	return 0;
}

static int apmods_clone(aa_op *op, const aa_op *src)
{
	size_t i;

	for (i = 0; i < src->napmods; i++) {
		const aa_apmod *from = &src->apmods[i];
		aa_apmod *m = aa_op_add_apmod(op, from->pos);

		if (!m)
			return -1;
		*m = *from;
		if (dup_opt(&m->snippet, from->snippet) |
		    dup_opt(&m->start_snippet, from->start_snippet) |
		    dup_opt(&m->end_snippet, from->end_snippet) |
		    dup_opt(&m->anchor, from->anchor) |
		    dup_opt(&m->content, from->content))
			return -1;
	}
	return 0;
}

static void bin_free(aa_op *op)
{
	free(op->bin[0].data);
	free(op->bin[1].data);
}

static int bin_clone(aa_op *op, const aa_op *src)
{
	size_t i;

	memset(op->bin, 0, sizeof(op->bin));
	for (i = 0; i < src->nbin && i < 2; i++) {
		op->bin[i] = src->bin[i];
		op->bin[i].data = malloc(src->bin[i].len ? src->bin[i].len : 1);
		if (!op->bin[i].data)
			return -1;
		if (src->bin[i].len)
			memcpy(op->bin[i].data, src->bin[i].data, src->bin[i].len);
	}
	return 0;
}

int aa_op_binary_reverse(aa_op *op)
{
	char id[41];
	aa_binhunk h;

	if (op->edit_kind != AA_EDIT_BINARY)
		return 0;
	if (op->nbin == 1)
		return -1;
	memcpy(id, op->base_blob, sizeof(id));
	memcpy(op->base_blob, op->new_blob, sizeof(id));
	memcpy(op->new_blob, id, sizeof(id));
	h = op->bin[0];
	op->bin[0] = op->bin[1];
	op->bin[1] = h;
	return 0;
}

/*
 * The memory of each payload, by the kind that tags it: the one place
 * that knows which member of the union an edit kind uses (the engines,
 * src/edit/engines.c, apply them). A kind with no payload of its own
 * (AA_EDIT_NONE, AA_EDIT_ELIDE) has the hunks member, empty but for a
 * deletion's content check.
 */
typedef struct payload_kind {
	void (*free)(aa_op *op);
	int (*clone)(aa_op *op, const aa_op *src);
} payload_kind;

static const payload_kind hunk_payload = { hunks_free, hunks_clone };
static const payload_kind repl_payload = { repls_free, repls_clone };
static const payload_kind apmod_payload = { apmods_free, apmods_clone };
static const payload_kind bin_payload = { bin_free, bin_clone };

static const payload_kind *payload_of(aa_edit_kind kind)
{
	return kind == AA_EDIT_REPLACEMENTS ? &repl_payload :
	       kind == AA_EDIT_AP ? &apmod_payload :
	       kind == AA_EDIT_BINARY ? &bin_payload : &hunk_payload;
}

void aa_op_free(aa_op *op)
{
	free(op->path);
	free(op->to);
	free(op->other_name);
	free(op->content);
	payload_of(op->edit_kind)->free(op);
	memset(op, 0, sizeof(*op));
}

/*
 * Plain fields are copied with the struct (so a field added to aa_op
 * later is not forgotten); the ones aa_op_free frees are reset and
 * copied one by one: a new owned field of aa_op needs a line here.
 * Payload arrays are rebuilt through the append functions above, which
 * keep their capacity rule.
 */
int aa_op_clone(aa_changeset *cs, const aa_op *src)
{
	aa_op *op = aa_changeset_add(cs, src->kind, src->pos);

	if (!op)
		return -1;
	*op = *src;
	op->path = op->to = op->content = op->other_name = NULL;
	op->hunks = NULL;
	op->nhunks = 0;
	if (dup_opt(&op->path, src->path) | dup_opt(&op->to, src->to) |
	    dup_opt(&op->other_name, src->other_name) |
	    dup_optn(&op->content, src->content, src->content_len))
		return -1;
	return payload_of(src->edit_kind)->clone(op, src);
}

void aa_changeset_truncate(aa_changeset *cs, size_t n)
{
	while (cs->n > n)
		aa_op_free(&cs->ops[--cs->n]);
}

void aa_changeset_free(aa_changeset *cs)
{
	aa_changeset_truncate(cs, 0);
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
