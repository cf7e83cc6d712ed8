/*
 * The planner's edit step: an edit engine's ladder on a node's text
 * (the engine table chooses the engine), the landings it records, and
 * the trial of an op's edits that path resolution asks for. The driver
 * (plan.c), the operations (plan_ops.c), history (plan_history.c) and
 * path resolution (plan_resolve.c) call it; it calls none of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/planner.h"

int append_landings(planner *p, aa_plan_node *n, const aa_edit_ctx *cx)
{
	aa_landing *v;

	if (!cx->nlandings)
		return 0;
	v = realloc(n->landings, (n->nlandings + cx->nlandings) * sizeof(*v));
	if (!v)
		return oom(p, AA_NOPOS);
	memcpy(v + n->nlandings, cx->landings, cx->nlandings * sizeof(*v));
	n->landings = v;
	n->nlandings += cx->nlandings;
	return 0;
}

/*
 * A diff's hunks change a symbolic link's target when the diff says it
 * means a link: its old mode (an "index <a>..<b> 120000" line or "old
 * mode 120000") is one, as in git apply, whose preimage of a link is
 * its target. Other edits of a link are refused: they do not say they
 * mean one.
 */
static int edits_link_target(const aa_op *op)
{
	return op->edit_kind == AA_EDIT_HUNKS && op->old_mode == AA_MODE_LINK;
}

/* Decodes the node's text for an edit, refusing links and binaries. */
int load_text(planner *p, const aa_op *op, aa_plan_node *n, aa_text *t)
{
	const char *data, *why = NULL;
	size_t len;

	if (n->mode == AA_MODE_LINK && !edits_link_target(op))
		return aa_error(p->d, op->pos, n->path,
				"is a symbolic link; text edits are refused");
	if (node_bytes(p, n, &data, &len) < 0)
		return -1;
	if (n->mode != AA_MODE_LINK && is_binary(p, n->path, data, len))
		return aa_error(p->d, op->pos, n->path,
				op->strict ? "Binary file targeted: binary files cannot be modified via diff"
					   : "binary file; text edits are refused");
	if (len > AA_MAX_TEXT_SIZE)
		return aa_error(p->d, op->pos, n->path,
				"file too large for a text edit (%zu bytes)", len);
	/* the node's bytes outlive the text: it is freed before they change */
	if (aa_text_decode_borrowed(t, data, len, &why) < 0)
		return aa_error(p->d, op->pos, n->path, "cannot decode: %s", why);
	return 0;
}

static int run_edit_engine(aa_text *t, const aa_op *op, aa_edit_ctx *cx)
{
	switch (op->edit_kind) {
	case AA_EDIT_HUNKS:
		return aa_edit_hunks(t, op, cx);
	case AA_EDIT_REPLACEMENTS:
		return aa_edit_replacements(t, op, cx);
	case AA_EDIT_AP:
		return aa_edit_ap(t, op, cx);
	case AA_EDIT_V4A:
		return aa_edit_v4a(t, op, cx);
	case AA_EDIT_ELIDE:
		return aa_edit_elide(t, op, cx);
	case AA_EDIT_BINARY: /* bytes, not text: plan_binary.c */
		return aa_error(cx->diags, op->pos, cx->path,
				"a binary patch does not edit text");
	case AA_EDIT_NONE:
		break;
	}
	return 0;
}

/* Keeps an edit's result as the node's content (or counts it skipped). */
int commit_result(planner *p, aa_plan_node *n, aa_buf *out,
		  const aa_edit_ctx *cx)
{
	const char *cur;
	size_t curlen;

	if (append_landings(p, n, cx) < 0 || node_bytes(p, n, &cur, &curlen) < 0)
		return -1;
	if (!same_bytes(cur, curlen, out->ptr, out->len)) {
		size_t len = out->len;

		node_set_data(n, aa_buf_detach(out), len);
		p->plan->ops_applied++;
	} else {
		p->plan->ops_skipped++;
	}
	return 0;
}

/* The node's text with the op's edits, as a text (see edit_node_text). */
static int edit_node_lines(planner *p, const aa_op *op, aa_plan_node *n,
			   aa_engine_fn engine, aa_edit_ctx *cx, aa_text *t,
			   aa_enc *enc)
{
	if (load_text(p, op, n, t) < 0)
		return -1;
	if (enc)
		*enc = t->enc;
	cx->path = n->path;
	cx->preimage_named = index_line_names_node(op, n);
	return engine ? engine(t, op, cx) : run_edit_engine(t, op, cx);
}

/*
 * The node's text with the op's edits: loads it, runs `engine` (NULL:
 * the op's own, from the engine table) with cx, whose path is set here,
 * and encodes the result into out. 0, the engine's refusal, or -1 with
 * the error reported. *enc (when enc is not NULL) receives the file's
 * encoding once the text is loaded.
 */
/*
 * The diff's `index` line names the node's content: its blob id starts
 * with the line's old id (git abbreviates to 7 digits at least).
 */
int index_line_names_node(const aa_op *op, const aa_plan_node *n)
{
	size_t len = strlen(op->base_blob), i;
	static const char digits[] = "0123456789abcdef";

	if (!n->has_oid || len < 7 || len > 40)
		return 0;
	for (i = 0; i < len; i++) {
		unsigned char byte = n->oid.id[i / 2];
		char want = digits[i % 2 ? byte & 15 : byte >> 4];
		char c = op->base_blob[i];

		if ((c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c) != want)
			return 0;
	}
	return 1;
}

int edit_node_text(planner *p, const aa_op *op, aa_plan_node *n,
		   aa_engine_fn engine, aa_edit_ctx *cx, aa_buf *out,
		   aa_enc *enc)
{
	aa_text t = AA_TEXT_INIT;
	const char *why = NULL;
	int r = edit_node_lines(p, op, n, engine, cx, &t, enc);

	if (!r && aa_text_encode_why(&t, out, &why) < 0)
		r = aa_error(p->d, op->pos, n->path, "cannot encode the result: %s", why);
	aa_text_free(&t);
	return r;
}

/*
 * A text whose lines point into the node's base bytes (they live as long
 * as the plan) may stay unencoded when nothing reads the bytes; UTF-16
 * is encoded at once (encoding it can fail, and the failure is the op's).
 */
static int may_stay_text(const planner *p, const aa_plan_node *n,
			 const aa_text *t)
{
	return p->opts->no_content && n->has_oid && n->base_exists &&
	       !memcmp(&n->oid, &n->base_oid, sizeof(aa_oid)) &&
	       (t->enc == AA_ENC_UTF8 || t->enc == AA_ENC_UTF8_BOM);
}

/* commit_result() for a text kept unencoded (may_stay_text()). */
static int commit_text(planner *p, aa_plan_node *n, aa_text *t,
		       const aa_edit_ctx *cx)
{
	const char *cur;
	size_t curlen;

	if (append_landings(p, n, cx) < 0 || node_bytes(p, n, &cur, &curlen) < 0)
		return -1;
	if (aa_text_same_bytes(t, cur, curlen) == 1) {
		p->plan->ops_skipped++;
		return 0;
	}
	if (node_set_pending(n, t) < 0)
		return oom(p, AA_NOPOS);
	p->plan->ops_applied++;
	return 0;
}

/*
 * The node's text with the op's edits kept as its content: edit_node_text()
 * then commit_result(), without the encoding when nothing reads the bytes.
 * With `keep`, only when keep(cx) says so after the engine ran: else 2,
 * nothing kept.
 */
int edit_and_commit_if(planner *p, const aa_op *op, aa_plan_node *n,
		       aa_engine_fn engine, aa_edit_ctx *cx, aa_enc *enc,
		       int (*keep)(const aa_edit_ctx *cx))
{
	aa_text t = AA_TEXT_INIT;
	aa_buf out = AA_BUF_INIT;
	const char *why = NULL;
	int r = edit_node_lines(p, op, n, engine, cx, &t, enc);

	if (!r && keep && !keep(cx))
		r = 2;
	if (r) {
		aa_text_free(&t);
		return r;
	}
	if (may_stay_text(p, n, &t)) {
		r = commit_text(p, n, &t, cx);
	} else if (aa_text_encode_why(&t, &out, &why) < 0) {
		r = aa_error(p->d, op->pos, n->path, "cannot encode the result: %s", why);
	} else {
		r = commit_result(p, n, &out, cx);
	}
	aa_text_free(&t);
	aa_buf_free(&out);
	return r;
}

int edit_and_commit(planner *p, const aa_op *op, aa_plan_node *n,
		    aa_engine_fn engine, aa_edit_ctx *cx, aa_enc *enc)
{
	return edit_and_commit_if(p, op, n, engine, cx, enc, NULL);
}

/* The whole ladder of the op's engine on the current content. */
int edit_on_ladder(planner *p, const aa_op *op, aa_plan_node *n)
{
	aa_edit_ctx cx = { 0 };
	int r;

	cx.diags = p->d;
	cx.strict = op->strict;
	r = edit_and_commit(p, op, n, NULL, &cx, NULL);
	aa_edit_ctx_release(&cx);
	return r;
}

/* ---- hunks and the revision the answer was written against ---- */
/* The op's edits land on the text without an error (a trial: nothing kept). */
int edit_fits(const aa_op *op, aa_plan_node *n, const char *data,
	      size_t len)
{
	aa_diags scratch = AA_DIAGS_INIT;
	aa_text t = AA_TEXT_INIT;
	aa_edit_ctx cx = { 0 };
	const char *why = NULL;
	int r = -1;

	if (aa_text_decode_borrowed(&t, data, len, &why) == 0) {
		cx.path = n->path;
		cx.diags = &scratch;
		cx.strict = op->strict;
		r = run_edit_engine(&t, op, &cx);
	}
	aa_text_free(&t);
	aa_edit_ctx_release(&cx);
	aa_diags_free(&scratch);
	return r == 0;
}
