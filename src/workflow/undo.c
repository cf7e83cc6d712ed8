/*
 * --undo (include/aiapply/undo.h): the last staged landing put back.
 *
 * One mechanism: the undo is a landing. The review record (review.c,
 * version 3) holds each path's index entry before the landing and the
 * one it left; the undo is a plan whose base is the landed state and
 * whose result is the state before, landed by the lander in the mode
 * the landing had (default: index and work tree; --cached: the index
 * alone). So it runs under the same index lock and journal, writes the
 * work tree the same way (never through a link, directories made and
 * pruned, filters), and a kill half way is finished or rolled back by
 * --recover as a landing's is. Every path is checked first, under the
 * lock: an index entry or work-tree file that is no longer what the
 * landing left is refused, and nothing is written.
 * Documentation/workflows.md, "Undo".
 */
#include <stdlib.h>
#include <string.h>
#include <git2.h>

#include "aiapply/undo.h"
#include "aiapply/list.h"
#include "land/land.h"
#include "land/index_read.h"
#include "land/worktree.h"
#include "plan/plan.h"
#include "workflow/review_record.h"
#include "util/util.h"

/* What --undo does with one recorded path. */
typedef enum undo_act {
	UNDO_PUT_BACK,  /* index (and work tree) hold what the landing left */
	UNDO_AS_BEFORE, /* already as before the landing: nothing to do */
	UNDO_REFUSED    /* changed since: the reason is in the diagnostics */
} undo_act;

typedef struct undo_run {
	git_repository *repo;
	const aa_rv_record *r;
	const aa_session *s;  /* its index: the one the undo lands on (locked) */
	git_tree *head;       /* HEAD's tree now, when HEAD moved; else NULL */
	int worktree;         /* the default mode: the work tree is checked */
	int filemode;
	aa_diags *d;
} undo_run;

static int zero_hex(const char *hex)
{
	return !strcmp(hex, AA_RV_ZERO_HEX);
}

static int filemode_of(git_repository *repo)
{
	git_config *cfg;
	int filemode = 1;

	if (git_repository_config_snapshot(&cfg, repo) == 0) {
		if (git_config_get_bool(&filemode, cfg, "core.filemode") < 0)
			filemode = 1;
		git_config_free(cfg);
	}
	git_error_clear();
	return filemode;
}

/* The blob the landing left at stage 0 (zeros: none, or a conflict). */
static unsigned landed_index_mode(const aa_rv_file *f)
{
	return f->conflict || zero_hex(f->staged) ? 0 : f->landed_mode;
}

/* Whether the index's stage 0 entry at path is (mode, hex); 0: none. */
static int index_is(const aa_session *s, const char *path, unsigned mode,
		    const char *hex)
{
	git_index_entry e;
	int found = aa_index_get(s, path, 0, &e);
	char now[41];

	if (!mode)
		return !found;
	if (!found || e.mode != mode)
		return 0;
	git_oid_tostr(now, sizeof(now), &e.id);
	return !strcmp(now, hex);
}

/* "100644 1a2b3c4" of an index entry, or "nothing". */
static const char *entry_words(unsigned mode, const char *hex, char *buf,
			       size_t cap)
{
	if (!mode)
		return "nothing";
	snprintf(buf, cap, "%o %.7s", mode, hex);
	return buf;
}

/* The reason for an index entry that is not what the landing left. */
static int refuse_index(undo_run *u, const aa_rv_file *f)
{
	git_index_entry e, theirs;
	int found = aa_index_get(u->s, f->path, 0, &e);
	char now[41] = AA_RV_ZERO_HEX, a[64], b[64];

	if (found)
		git_oid_tostr(now, sizeof(now), &e.id);
	if (aa_index_get(u->s, f->path, 2, &theirs))
		return aa_error(u->d, AA_NOPOS, f->path,
				"changed in the index since the landing: it is "
				"unmerged (stages 1-3)%s; not undone",
				f->conflict ? ", the conflict --3way left: resolve it "
				"(take the version before the landing with 'git checkout "
				"--ours' and 'git add') and run --undo again" : "");
	return aa_error(u->d, AA_NOPOS, f->path,
			"changed in the index since the landing: the landing "
			"staged %s, the index holds %s; not undone",
			entry_words(landed_index_mode(f), f->staged, a, sizeof(a)),
			entry_words(found ? e.mode : 0, now, b, sizeof(b)));
}

/* The reason for a work-tree file that is not what the landing wrote. */
static int refuse_worktree(undo_run *u, const aa_rv_file *f)
{
	const char *want = f->conflict ? f->markers : f->staged, *why;
	char hex[41];
	unsigned mode;
	git_oid id;

	if (aa_worktree_probe(u->repo, f->path, &id, &mode) < 0)
		why = "it cannot be read as a file (a directory, or beyond a symbolic link)";
	else if (!mode)
		why = "the file was removed";
	else if (!f->landed_mode)
		why = "a file stands where the landing deleted one";
	else if ((mode == AA_MODE_LINK) != (f->landed_mode == AA_MODE_LINK))
		why = "its type changed";
	else if (git_oid_tostr(hex, sizeof(hex), &id), !strcmp(hex, want))
		why = "its mode changed";
	else
		why = "its content differs from what the landing wrote";
	return aa_error(u->d, AA_NOPOS, f->path,
			"changed in the work tree since the landing: %s; not undone "
			"(commit, stash or restore it first)", why);
}

/*
 * HEAD moved since the landing and now holds what the landing staged at
 * path (a deletion: HEAD has no such path): the change was committed.
 */
static int committed_since(undo_run *u, const aa_rv_file *f)
{
	git_tree_entry *e = NULL;
	char hex[41];
	int r;

	if (!u->head)
		return 0;
	if (git_tree_entry_bypath(&e, u->head, f->path) < 0) {
		git_error_clear();
		return !landed_index_mode(f) && !f->conflict;
	}
	git_oid_tostr(hex, sizeof(hex), git_tree_entry_id(e));
	r = landed_index_mode(f) && !strcmp(hex, f->staged) &&
	    (unsigned)git_tree_entry_filemode(e) == f->landed_mode;
	git_tree_entry_free(e);
	return r;
}

/* The work tree is (mode, hex), as git would add it. */
static int worktree_is(undo_run *u, const char *path, unsigned mode,
		       const char *hex)
{
	return !aa_review_worktree_differs(u->repo, path, mode, hex, u->filemode);
}

static undo_act classify(undo_run *u, const aa_rv_file *f)
{
	const char *wt = f->conflict ? f->markers : f->staged;
	int landed = !f->conflict &&
		     index_is(u->s, f->path, landed_index_mode(f), f->staged);
	int before = index_is(u->s, f->path, f->before_mode, f->before);

	if (before && (!u->worktree ||
		       worktree_is(u, f->path, f->before_mode, f->before)))
		return UNDO_AS_BEFORE;
	if (!landed) {
		refuse_index(u, f);
		return UNDO_REFUSED;
	}
	if (committed_since(u, f)) {
		aa_error(u->d, AA_NOPOS, f->path,
			 "committed since the landing (HEAD holds what it staged); "
			 "not undone: 'git revert' or 'git reset' the commit instead");
		return UNDO_REFUSED;
	}
	if (u->worktree && !worktree_is(u, f->path, f->landed_mode, wt)) {
		refuse_worktree(u, f);
		return UNDO_REFUSED;
	}
	return UNDO_PUT_BACK;
}

/* The change that lands f's state before the landing over what it left. */
static int undo_change(undo_run *u, const aa_rv_file *f, aa_change *c)
{
	git_oid id;
	git_odb *odb = NULL;
	int have = 1;

	memset(c, 0, sizeof(*c));
	c->path = f->path;
	c->base_exists = landed_index_mode(f) != 0;
	c->base_mode = landed_index_mode(f);
	if (git_oid_fromstr(&id, f->staged) == 0)
		memcpy(c->base_oid.id, id.id, sizeof(c->base_oid.id));
	c->exists = f->before_mode != 0;
	c->mode = f->before_mode;
	c->has_oid = c->exists;
	if (!c->exists)
		return 0;
	if (git_oid_fromstr(&id, f->before) < 0 ||
	    git_repository_odb(&odb, u->repo) < 0)
		have = 0;
	else
		have = git_odb_exists(odb, &id);
	git_odb_free(odb);
	git_error_clear();
	if (!have)
		return aa_error(u->d, AA_NOPOS, f->path,
				"the blob it held before the landing (%.7s) is no longer "
				"in the object database; not undone", f->before);
	memcpy(c->oid.id, id.id, sizeof(c->oid.id));
	return 0;
}

/* HEAD's tree when HEAD is no longer the commit the landing saw. */
static void head_if_moved(undo_run *u)
{
	git_object *obj = NULL;
	char hex[41] = AA_RV_ZERO_HEX;
	git_oid id;

	u->head = NULL;
	if (git_reference_name_to_id(&id, u->repo, "HEAD") == 0)
		git_oid_tostr(hex, sizeof(hex), &id);
	git_error_clear();
	if (!u->r->has_head || !strcmp(hex, u->r->head))
		return;
	if (git_revparse_single(&obj, u->repo, "HEAD^{tree}") == 0)
		u->head = (git_tree *)obj;
	git_error_clear();
}

/*
 * The plan of the undo (plan->changes borrows the record's paths);
 * *skipped counts the paths already as before. AA_OK, or AA_REJECTED
 * with every refused path in d.
 */
static int build_undo(undo_run *u, aa_plan *plan, size_t *skipped)
{
	size_t i;
	int r = 0;

	*skipped = 0;
	plan->changes = calloc(u->r->nfiles ? u->r->nfiles : 1, sizeof(aa_change));
	if (!plan->changes)
		return aa_fatal_oom(u->d, AA_NOPOS, NULL);
	head_if_moved(u);
	for (i = 0; i < u->r->nfiles; i++) {
		const aa_rv_file *f = &u->r->files[i];

		if (!f->has_before)
			continue;
		switch (classify(u, f)) {
		case UNDO_AS_BEFORE:
			(*skipped)++;
			aa_note(u->d, AA_NOPOS, f->path,
				"already as it was before the landing");
			break;
		case UNDO_REFUSED:
			r = AA_REJECTED;
			break;
		case UNDO_PUT_BACK:
			if (undo_change(u, f, &plan->changes[plan->nchanges]) < 0)
				r = AA_REJECTED;
			else
				plan->nchanges++;
			break;
		}
	}
	git_tree_free(u->head);
	u->head = NULL;
	return r;
}

/*
 * A --3way conflict the landing left and that is still there: the
 * lander opens no index with conflicts, so it is refused here, before
 * the lock, with the way out.
 */
static int refuse_conflicts(git_repository *repo, const aa_rv_record *r,
			    aa_diags *d)
{
	git_index *ix = NULL;
	size_t i;
	int refused = 0;

	if (git_repository_index(&ix, repo) < 0 || git_index_read(ix, 1) < 0) {
		git_index_free(ix);
		return aa_fatal(d, AA_NOPOS, NULL, "cannot read the index: %s",
				aa_git_error("unknown error"));
	}
	for (i = 0; i < r->nfiles; i++)
		if (r->files[i].conflict &&
		    git_index_get_bypath(ix, r->files[i].path, 2)) {
			aa_error(d, AA_NOPOS, r->files[i].path,
				 "the --3way landing left a conflict here: resolve it "
				 "first (to put back the version before the landing: "
				 "'git checkout --ours -- %s' and 'git add -- %s'), "
				 "then run --undo again for the other paths",
				 aa_qpath(r->files[i].path), aa_qpath(r->files[i].path));
			refused = 1;
		}
	git_index_free(ix);
	return refused ? AA_REJECTED : AA_OK;
}

/* ---- nothing to undo: a --branch landing is a branch to delete ---- */

/* The commit time of a suggestion's tip (0 when unreadable). */
static git_time_t tip_time(git_repository *repo, const aa_suggestion *sg)
{
	git_commit *c = NULL;
	git_time_t t = 0;

	if (git_commit_lookup(&c, repo, &sg->tip) == 0)
		t = git_commit_time(c);
	git_commit_free(c);
	git_error_clear();
	return t;
}

/*
 * The suggestion branches of the newest --branch or --each run (those
 * whose tip has the newest commit time), as the note that deletes them.
 */
static void note_branches(git_repository *repo, aa_diags *d)
{
	aa_suggestion *v = NULL;
	aa_diags ignored = AA_DIAGS_INIT;
	aa_buf names = AA_BUF_INIT;
	git_time_t newest = 0;
	size_t n = 0, i, k = 0;

	if (aa_list_suggestions(repo, NULL, &v, &n, &ignored) == 0) {
		for (i = 0; i < n; i++)
			if (tip_time(repo, &v[i]) > newest)
				newest = tip_time(repo, &v[i]);
		for (i = 0; i < n; i++)
			if (tip_time(repo, &v[i]) == newest && ++k)
				aa_buf_printf(&names, " %s", aa_qpath(v[i].branch));
	}
	if (k && !aa_buf_oom(&names))
		aa_note(d, AA_NOPOS, NULL,
			"a --branch or --each landing changes no index: it is "
			"undone by deleting its branch%s: git branch -D%s",
			k == 1 ? "" : "es", names.ptr);
	aa_buf_free(&names);
	aa_suggestions_free(v, n);
	aa_diags_free(&ignored);
}

static int nothing_to_undo(git_repository *repo, const char *why,
			   aa_diags *d)
{
	aa_error(d, AA_NOPOS, NULL, "nothing to undo in the index: %s", why);
	note_branches(repo, d);
	return 1;
}

/* ---- output ---- */

/* "M a.txt": what the undo does to the path's index entry. */
static void print_paths(FILE *out, const aa_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->nchanges; i++) {
		const aa_change *c = &plan->changes[i];

		fprintf(out, "%c %s%s\n", !c->exists ? 'D' : !c->base_exists ? 'A' : 'M',
			aa_qpath(c->path),
			!c->exists ? " (created by the landing: removed)" :
			!c->base_exists ? " (deleted by the landing: restored)" :
			c->base_mode != c->mode ? " (content and mode put back)" : "");
	}
}

/* "answer.md", "answers a.md, b.md": the record's answers. */
static void answer_names(const aa_rv_record *r, aa_buf *out)
{
	size_t i;

	aa_buf_puts(out, r->nanswers > 1 ? "answers " : "answer ");
	for (i = 0; i < r->nanswers; i++) {
		const char *tab = strchr(r->answers[i], '\t');

		aa_buf_printf(out, "%s%s", i ? ", " : "",
			      aa_qpath(tab ? tab + 1 : r->answers[i]));
	}
}

static void print_done(FILE *out, const aa_rv_record *r, const aa_plan *plan,
		       int check)
{
	aa_buf names = AA_BUF_INIT;
	size_t n = plan->nchanges;

	if (!out)
		return;
	print_paths(out, plan);
	answer_names(r, &names);
	if (check)
		fprintf(out, "Would put back %zu path%s as before the landing of %s "
			"(%s); nothing written (--check).\n", n, n == 1 ? "" : "s",
			names.ptr ? names.ptr : "the answer",
			r->cached ? "the index" : "the index and the work tree");
	else
		fprintf(out, "Undone: %zu path%s put back as before the landing of %s "
			"(%s).\n", n, n == 1 ? "" : "s",
			names.ptr ? names.ptr : "the answer",
			r->cached ? "the index" : "the index and the work tree");
	aa_buf_free(&names);
}

/* ---- --undo ---- */

static int undo_record(git_repository *repo, const char *file,
		       const aa_rv_record *r, int check, FILE *out, aa_diags *d)
{
	aa_land_opts lo;
	aa_session s;
	aa_plan plan = AA_PLAN_INIT;
	undo_run u;
	size_t skipped;
	int rc;

	memset(&lo, 0, sizeof(lo));
	lo.mode = check ? AA_LAND_CHECK : r->cached ? AA_LAND_CACHED : AA_LAND_INDEX;
	if ((rc = refuse_conflicts(repo, r, d)) != AA_OK)
		return rc;
	if ((rc = aa_session_open(&s, repo, &lo, d)) != AA_OK) {
		aa_session_close(&s); /* what it opened before failing */
		return rc;
	}
	memset(&u, 0, sizeof(u));
	u.repo = repo;
	u.r = r;
	u.s = &s;
	u.worktree = !r->cached && git_repository_workdir(repo) != NULL;
	u.filemode = filemode_of(repo);
	u.d = d;
	rc = build_undo(&u, &plan, &skipped);
	if (!rc && !plan.nchanges) {
		if (!check)
			aa_review_drop(file, d);
		rc = nothing_to_undo(repo, "every path is as it was before the landing", d);
	} else if (!rc && !check) {
		rc = aa_land(&s, &plan, d);
		if (!rc)
			aa_review_drop(file, d);
	}
	if (!rc)
		print_done(out, r, &plan, check);
	aa_session_close(&s);
	free(plan.changes);
	return rc;
}

int aa_undo(git_repository *repo, int check, FILE *out, aa_diags *d)
{
	aa_rv_record r;
	aa_buf file = AA_BUF_INIT;
	int found, rc;

	memset(&r, 0, sizeof(r));
	if (aa_review_record_path(repo, &file) < 0)
		return aa_fatal_oom(d, AA_NOPOS, NULL);
	found = aa_review_read(file.ptr, &r, d);
	if (found < 0)
		rc = AA_FATAL;
	else if (!found)
		rc = nothing_to_undo(repo, "no staged landing is recorded "
				     "(none yet, or it was undone)", d);
	else if (r.version < 3)
		rc = aa_error(d, AA_NOPOS, NULL,
			      "the review record was written by an earlier git ai-apply "
			      "and does not hold the index before the landing; "
			      "nothing undone (use 'git restore --staged --worktree' "
			      "on its paths)");
	else
		rc = undo_record(repo, file.ptr, &r, check, out, d);
	aa_review_record_free(&r);
	aa_buf_free(&file);
	return rc;
}
