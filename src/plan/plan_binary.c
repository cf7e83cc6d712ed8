/*
 * Binary changes (Documentation/format-diff.md, "Binary patches"), as
 * git apply's apply_binary: a binary change is never located, fuzzed
 * or merged. Its pre-image must be the blob the index line names (the
 * base's, or what an earlier operation made of the path); its result
 * is that blob when the repository already holds it (so "Binary files
 * a/x and b/x differ" lands when the blob is there), else the patch's
 * forward hunk on the pre-image (src/edit/binary.c), whose blob id
 * must be the index line's new id. Object ids come from the snapshot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/planner.h"

static int hex_value(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* 40 hex digits into an id: 0, or -1 when it is not one. */
static int id_of_hex(const char *hex, aa_oid *out)
{
	size_t i;

	if (strlen(hex) != 40)
		return -1;
	for (i = 0; i < 20; i++) {
		int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out->id[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

static void hex_of_id(const aa_oid *id, char hex[41])
{
	size_t i;

	for (i = 0; i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", id->id[i]);
}

static int same_id(const aa_oid *a, const aa_oid *b)
{
	return !memcmp(a->id, b->id, sizeof(a->id));
}

static int no_ids(planner *p, const aa_op *op)
{
	return aa_error(p->d, op->pos, op->path,
			"cannot apply a binary patch here: the base cannot name blobs by id");
}

/* The blob id of bytes: 0, or -1 with the error reported. */
static int id_of_bytes(planner *p, const aa_op *op, const char *data,
		       size_t len, aa_oid *out)
{
	const aa_snapshot *sn = p->base;

	if (!sn->blob_id)
		return no_ids(p, op);
	if (sn->blob_id(sn->ctx, data, len, out) < 0)
		return base_failed(p, op->path, "cannot hash the blob");
	return 0;
}

/* The blob id of what the node holds now. */
static int id_of_node(planner *p, const aa_op *op, aa_plan_node *n,
		      aa_oid *out)
{
	const char *data;
	size_t len;

	if (n->has_oid) {
		*out = n->oid;
		return 0;
	}
	if (node_bytes(p, n, &data, &len) < 0)
		return -1;
	return id_of_bytes(p, op, data, len, out);
}

/* 1 when the repository holds blob id, 0 when not, -1 on error. */
static int repository_has(planner *p, const aa_op *op, const aa_oid *id)
{
	const aa_snapshot *sn = p->base;
	int r;

	if (!sn->has_blob)
		return no_ids(p, op);
	r = sn->has_blob(sn->ctx, id);
	if (r < 0)
		return base_failed(p, op->path, "cannot look up the object");
	return r;
}

/*
 * The file's blob `cur` is the pre-image `want` the patch names: 0,
 * or -1 with the error.
 */
static int check_preimage(planner *p, const aa_op *op, const aa_oid *cur,
			  const aa_oid *want)
{
	char has[41], wants[41];

	if (same_id(cur, want))
		return 0;
	hex_of_id(cur, has);
	hex_of_id(want, wants);
	return aa_error(p->d, op->bin_pos, op->path,
			"the binary patch applies to blob %s, but the file is blob %s "
			"(a binary change applies to exactly its pre-image: it is "
			"never located or merged)", wants, has);
}

/*
 * The result of the op on the pre-image pre[0..len): the blob `want`
 * when the repository holds it (*use_id set), else the forward hunk's
 * bytes in out, which must hash to want.
 */
static int binary_result(planner *p, const aa_op *op, const aa_plan_node *n,
			 const char *pre, size_t len, const aa_oid *want,
			 int *use_id, aa_buf *out)
{
	aa_edit_ctx cx = { 0 };
	const aa_engine *e = aa_engine_of(op->edit_kind);
	char got[41];
	aa_oid id;
	int r = repository_has(p, op, want);

	*use_id = r == 1;
	if (r)
		return r < 0 ? -1 : 0;
	if (!op->nbin)
		return aa_error(p->d, op->bin_pos, n->path,
				"the binary content is not in the patch and blob %s is "
				"not in this repository; ask for a patch made with git "
				"diff --binary", op->new_blob);
	cx.path = n->path;
	cx.diags = p->d;
	r = e && e->bytes ? e->bytes(pre, len, op, &cx, out) : -1;
	aa_edit_ctx_release(&cx);
	if (r < 0 || id_of_bytes(p, op, out->ptr ? out->ptr : "", out->len, &id) < 0)
		return -1;
	if (same_id(&id, want))
		return 0;
	hex_of_id(&id, got);
	return aa_error(p->d, op->bin[0].pos, n->path,
			"binary patch creates incorrect result (expecting %s, got %s); "
			"nothing written", op->new_blob, got);
}

/* Gives node n the result: the blob by id, or the bytes in out. */
static void set_result(aa_plan_node *n, int use_id, const aa_oid *id,
		       aa_buf *out)
{
	size_t len = out->len;

	if (use_id) {
		node_drop_data(n);
		n->len = 0;
		n->has_oid = 1;
		n->oid = *id;
		n->exists = 1;
		n->touched = 1;
		return;
	}
	node_set_data(n, aa_buf_detach(out), len);
	if (!n->data)
		n->data = aa_strdup("");
}

/* The op's ids; -1 with an error when one is not a full id. */
static int op_ids(planner *p, const aa_op *op, aa_oid *old_id, aa_oid *new_id)
{
	if (id_of_hex(op->base_blob, old_id) < 0 || id_of_hex(op->new_blob, new_id) < 0)
		return aa_error(p->d, op->pos, op->path,
				"cannot apply binary patch without full index line");
	return 0;
}

/* The bytes of blob id, read from the repository into out. */
static int read_blob(planner *p, const aa_op *op, const aa_oid *id, aa_buf *out)
{
	if (p->base->read(p->base->ctx, id, out) < 0)
		return base_failed(p, op->path, "cannot read the object");
	return 0;
}

/*
 * --3way, the file not the pre-image, as git apply --3way: the result
 * is made from the pre-image blob (which the repository must hold), and
 * binary files cannot be merged, so the path is a conflict: stages 1, 2
 * and 3 (pre-image, the file, the result) in the index, the work tree
 * keeps the file.
 */
static int binary_conflict(planner *p, const aa_op *op, aa_plan_node *n,
			   const aa_oid *old_id, const aa_oid *new_id)
{
	aa_buf pre = AA_BUF_INIT, theirs = AA_BUF_INIT;
	const char *cur;
	char *ours = NULL, *ours_wt = NULL;
	size_t len = 0;
	int use_id = 0, r = repository_has(p, op, old_id), i;

	if (r == 0)
		return aa_error(p->d, op->bin_pos, op->path,
				"the binary patch applies to blob %s, which this repository "
				"lacks, and the file is another blob; no 3-way merge (--3way) "
				"without it", op->base_blob);
	if (r < 0 || read_blob(p, op, old_id, &pre) < 0 ||
	    binary_result(p, op, n, pre.ptr ? pre.ptr : "", pre.len, new_id,
			  &use_id, &theirs) < 0 ||
	    (use_id && read_blob(p, op, new_id, &theirs) < 0) ||
	    node_bytes(p, n, &cur, &len) < 0)
		goto fail;
	ours = aa_strndup(cur, len);
	ours_wt = aa_strndup(cur, len);
	if (!ours || !ours_wt) {
		oom(p, op->pos);
		goto fail;
	}
	n->stage_len[0] = pre.len;
	n->stage[0] = pre.ptr ? aa_buf_detach(&pre) : aa_strdup("");
	n->stage_len[1] = len;
	n->stage[1] = ours;
	n->stage_len[2] = theirs.len;
	n->stage[2] = theirs.ptr ? aa_buf_detach(&theirs) : aa_strdup("");
	for (i = 0; i < 3; i++)
		if (!n->stage[i]) {
			free(ours_wt);
			return oom(p, op->pos);
		}
	n->stage_mode = n->mode;
	n->conflict = 1;
	node_set_data(n, ours_wt, len);
	p->plan->ops_applied++;
	aa_warn(p->d, op->bin_pos, op->path,
		"applied with conflicts: binary files cannot be merged (the patch applies "
		"to blob %s, the file is another blob); the work tree keeps the file, "
		"stages 1, 2 and 3 in the index (--3way), as git apply --3way",
		op->base_blob);
	return 0;
fail:
	free(ours);
	free(ours_wt);
	aa_buf_free(&pre);
	aa_buf_free(&theirs);
	return -1;
}

/*
 * A preview (--stat, --numstat, --summary, --diff without --apply)
 * reports a binary patch from the patch alone, as git apply --stat
 * does: nothing is checked against the file or the object database
 * (the ids may be abbreviated, the result may be in place already), as
 * nothing lands. The path is a binary change of the patch's kind; its
 * node keeps the bytes it had, which are not the result (bin_preview:
 * the reports print "Bin", "-\t-" and "Binary files ... differ").
 * --check and the landings keep every check.
 */
static int binary_preview(planner *p, const aa_op *op, aa_plan_node *n,
			  int create)
{
	uint32_t mode = AA_MODE_FILE;

	if (create && !n->exists) {
		if (mode_for_new(p, op->pos, op->path, op->mode, &mode) < 0)
			return -1;
		node_set_data(n, aa_strdup(""), 0);
		if (!n->data)
			return oom(p, op->pos);
		n->mode = mode;
		n->exists = 1;
	}
	n->bin_preview = 1;
	n->touched = 1;
	p->plan->ops_applied++;
	return create ? node_sync(p, n) : 0;
}

/* A binary modification of the existing file n (plan_edit). */
int plan_binary_edit(planner *p, const aa_op *op, aa_plan_node *n)
{
	aa_oid old_id, new_id, cur;
	aa_buf out = AA_BUF_INIT;
	const char *data;
	size_t len;
	int use_id = 0;

	if (p->opts->preview && n->mode != AA_MODE_LINK)
		return binary_preview(p, op, n, 0);
	if (n->mode == AA_MODE_LINK)
		return aa_error(p->d, op->pos, op->path,
				"is a symbolic link; a binary patch does not change it");
	if (op_ids(p, op, &old_id, &new_id) < 0 || id_of_node(p, op, n, &cur) < 0)
		return -1;
	if (same_id(&cur, &new_id) && !same_id(&cur, &old_id)) {
		aa_note(p->d, op->pos, op->path,
			"already has the binary patch's result (blob %s); skipped",
			op->new_blob);
		p->plan->ops_skipped++;
		return 0;
	}
	if (!same_id(&cur, &old_id) && p->opts->threeway && p->base->merge3_markers)
		return binary_conflict(p, op, n, &old_id, &new_id);
	if (check_preimage(p, op, &cur, &old_id) < 0 ||
	    node_bytes(p, n, &data, &len) < 0 ||
	    binary_result(p, op, n, data, len, &new_id, &use_id, &out) < 0) {
		aa_buf_free(&out);
		return -1;
	}
	if (same_id(&old_id, &new_id)) {
		p->plan->ops_skipped++;
	} else {
		set_result(n, use_id, &new_id, &out);
		p->plan->ops_applied++;
	}
	aa_buf_free(&out);
	return 0;
}

/* A binary creation: n does not exist (or holds the result already). */
int plan_binary_create(planner *p, const aa_op *op, aa_plan_node *n)
{
	aa_oid old_id, new_id, cur;
	aa_buf out = AA_BUF_INIT;
	uint32_t mode = AA_MODE_FILE;
	int use_id = 0;

	if (p->opts->preview)
		return binary_preview(p, op, n, 1);
	if (op_ids(p, op, &old_id, &new_id) < 0)
		return -1;
	if (n->exists) {
		if (id_of_node(p, op, n, &cur) < 0)
			return -1;
		if (!same_id(&cur, &new_id))
			return aa_error(p->d, op->pos, op->path,
					"already exists (with other content)");
		aa_note(p->d, op->pos, op->path, "already has this content; skipped");
		p->plan->ops_skipped++;
		return 0;
	}
	if (check_no_directory(p, op->pos, op->path) < 0 ||
	    mode_for_new(p, op->pos, op->path, op->mode, &mode) < 0 ||
	    binary_result(p, op, n, "", 0, &new_id, &use_id, &out) < 0) {
		aa_buf_free(&out);
		return -1;
	}
	set_result(n, use_id, &new_id, &out);
	aa_buf_free(&out);
	n->mode = mode;
	p->plan->ops_applied++;
	return node_sync(p, n);
}

/* A binary deletion: the file must be the blob the patch deletes. */
int check_binary_deletion(planner *p, const aa_op *op, aa_plan_node *n)
{
	aa_oid old_id, cur;

	if (p->opts->preview) {
		n->bin_preview = 1; /* as the patch says (binary_preview) */
		return 0;
	}
	if (id_of_hex(op->base_blob, &old_id) < 0)
		return aa_error(p->d, op->pos, op->path,
				"cannot apply binary patch without full index line");
	if (id_of_node(p, op, n, &cur) < 0)
		return -1;
	return check_preimage(p, op, &cur, &old_id);
}
