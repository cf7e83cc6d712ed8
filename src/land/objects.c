/*
 * The objects a lander makes (objects.h): each one remembered with the
 * version it replaces, and the blob of a change's new content. Both the
 * landing (land.c) and the fast tree writer (land_tree.c) call these;
 * they call neither.
 */
#include <stdlib.h>
#include <string.h>

#include "land/objects.h"
#include "land/filters.h"
#include "util/util.h"

/*
 * Records a new object (in the mempack) and the object it replaces
 * (base: the same tree before the change, or NULL), which --each's pack
 * stores it as a delta against.
 */
int aa_remember_version(aa_session *s, const git_oid *oid,
			const git_oid *base)
{
	size_t cap = s->capcreated;

	/* two arrays, one capacity: the second grows as the first did */
	if (AA_GROW(s->created, s->ncreated, cap) < 0 ||
	    AA_GROW(s->bases, s->ncreated, s->capcreated) < 0)
		return -1;
	git_oid_cpy(&s->created[s->ncreated], oid);
	if (base)
		git_oid_cpy(&s->bases[s->ncreated], base);
	else
		memset(&s->bases[s->ncreated], 0, sizeof(git_oid));
	s->ncreated++;
	return 0;
}

void aa_oid_to_git(git_oid *out, const aa_oid *in)
{
	memset(out, 0, sizeof(*out));
	memcpy(out->id, in->id, sizeof(in->id));
}

/*
 * Bytes in their work-tree form at a path under a filter driver: the
 * blob is what the clean filter makes of them (land/filters.h).
 */
static int clean_blob(aa_session *s, const char *path, const char *data,
		      size_t len, git_oid *out, aa_diags *d)
{
	aa_buf why = AA_BUF_INIT, clean = AA_BUF_INIT;
	int r = aa_filter_run(s, AA_FILTER_CLEAN, path, data ? data : "",
			      len, out, &clean, &why);

	if (r < 0)
		r = aa_fatal(d, AA_NOPOS, path, "%s", why.ptr ? why.ptr : "the clean filter failed");
	else if (aa_remember_version(s, out, NULL) < 0)
		r = aa_git_fail(d, "out of memory");
	aa_buf_free(&why);
	aa_buf_free(&clean);
	return r;
}

int aa_worktree_bytes_blob(aa_session *s, const char *path, int is_link,
			   const char *data, size_t len, git_oid *out,
			   aa_diags *d)
{
	if (!is_link && aa_filter_driver(s, path, NULL) == 1)
		return clean_blob(s, path, data, len, out, d);
	if (git_blob_create_from_buffer(out, s->repo, data ? data : "", len) < 0)
		return aa_git_fail(d, "cannot create a blob");
	if (aa_remember_version(s, out, NULL) < 0)
		return aa_git_fail(d, "out of memory");
	return 0;
}

/* The blob id of a change's new content, writing it to the mempack. */
int aa_change_blob(aa_session *s, const aa_change *c, git_oid *out,
		   aa_diags *d)
{
	if (c->has_oid) {
		git_oid id;

		/* a filtered file read smudged and kept: its blob as it was */
		aa_oid_to_git(&id, &c->oid);
		aa_filter_real(s, &id, out);
		return 0;
	}
	return aa_worktree_bytes_blob(s, c->path, c->mode == AA_MODE_LINK,
				      c->data, c->len, out, d);
}
