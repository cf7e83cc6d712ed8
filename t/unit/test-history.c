/*
 * The planner's way with stale hunks, over a fake snapshot: exact on the
 * current content first, then the revision the answer was written
 * against (history + merge), then the ladder. And the conflict text.
 */
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"
#include "plan/plan.h"
#include "plan/history.h"
#include "plan/history_merge.h"

/* ---- the fake repository: one file, its current bytes and versions ---- */

typedef struct fake_version {
	const char *label;
	const char *data;
} fake_version;

static struct {
	const char *current;
	const fake_version *versions;
	size_t nversions;
	const char *bound;       /* what the history reports as its bound */
	/* merge3: what it returns, and what it was given */
	int merge_rc;
	const char *merge_out;   /* NULL: a fake merge (see fake_merge3) */
	int history_calls, merge_calls;
	char hint[64];
	char *base_seen, *ours_seen, *theirs_seen;
} fk;

static void fake_reset(void)
{
	free(fk.base_seen);
	free(fk.ours_seen);
	free(fk.theirs_seen);
	memset(&fk, 0, sizeof(fk));
}

static int fake_lookup(void *ctx, const char *path, uint32_t *mode, aa_oid *oid)
{
	(void)ctx;
	if (strcmp(path, "f.txt"))
		return 1;
	*mode = AA_MODE_FILE;
	memset(oid, 0, sizeof(*oid));
	oid->id[0] = 1;
	return 0;
}

static int fake_read(void *ctx, const aa_oid *oid, aa_buf *out)
{
	(void)ctx;
	(void)oid;
	return aa_buf_puts(out, fk.current);
}

static int fake_each_under(void *ctx, const char *dir, aa_each_fn fn, void *p)
{
	(void)ctx;
	(void)dir;
	(void)fn;
	(void)p;
	return 0;
}

static int fake_history(void *ctx, const char *path, const char *hint,
			const aa_oid *current, const aa_version_filter *filter,
			aa_version_fn fn, void *payload, char **bound)
{
	size_t i;

	(void)ctx;
	(void)current;
	(void)filter;
	assert_string_equal(path, "f.txt");
	fk.history_calls++;
	snprintf(fk.hint, sizeof(fk.hint), "%s", hint ? hint : "(none)");
	for (i = 0; i < fk.nversions; i++)
		if (fn(fk.versions[i].label, fk.versions[i].data,
		       strlen(fk.versions[i].data), payload))
			return 0;
	*bound = fk.bound ? aa_strdup(fk.bound) : NULL;
	return 0;
}

/*
 * The fake merge: when ours is base plus lines appended at the end, the
 * result is theirs with those lines appended (enough for these tests);
 * else the canned answer.
 */
static int fake_merge3(void *ctx, const char *path, const char *label,
		       const char *base, size_t blen, const char *ours,
		       size_t olen, const char *theirs, size_t tlen, aa_buf *out)
{
	(void)ctx;
	(void)path;
	(void)label;
	fk.merge_calls++;
	fk.base_seen = aa_strndup(base, blen);
	fk.ours_seen = aa_strndup(ours, olen);
	fk.theirs_seen = aa_strndup(theirs, tlen);
	if (fk.merge_out) {
		aa_buf_puts(out, fk.merge_out);
		return fk.merge_rc;
	}
	if (olen < blen || memcmp(ours, base, blen))
		return -1;
	aa_buf_put(out, theirs, tlen);
	aa_buf_put(out, ours + blen, olen - blen);
	return 0;
}

static const aa_snapshot fake = {
	.lookup = fake_lookup, .read = fake_read,
	.each_under = fake_each_under,
	.history = fake_history, .merge3 = fake_merge3
};

/* ---- runs ---- */

typedef struct run {
	aa_changeset cs;
	aa_plan plan;
	aa_diags d;
	int r;
} run;

static const aa_pos pos = { "answer", 1 };

/* An edit of f.txt by one hunk: lines "<kind><text>", NULL-terminated. */
static aa_op *hunk_op(run *t, long old_start, const char *const *lines)
{
	aa_op *op = aa_changeset_add(&t->cs, AA_OP_EDIT, pos);
	aa_hunk *h;
	size_t i;

	op->path = aa_strdup("f.txt");
	op->edit_kind = AA_EDIT_HUNKS;
	h = aa_op_add_hunk(op, (aa_pos){ "answer", 3 });
	h->has_hint = old_start > 0;
	for (i = 0; lines[i]; i++) {
		aa_hunk_add_line(h, lines[i][0], lines[i] + 1, strlen(lines[i] + 1));
		h->old_count += lines[i][0] != '+';
		h->new_count += lines[i][0] != '-';
	}
	h->old_start = old_start;
	h->new_start = old_start;
	return op;
}

static void plan(run *t)
{
	t->r = aa_plan_build(&t->plan, &t->cs, &fake, NULL, &t->d);
}

static void done(run *t)
{
	aa_plan_free(&t->plan);
	aa_changeset_free(&t->cs);
	aa_diags_free(&t->d);
	fake_reset();
}

static int has_diag(const run *t, aa_diag_level level, const char *needle)
{
	size_t i;

	for (i = 0; i < t->d.n; i++)
		if (t->d.v[i].level == level && strstr(t->d.v[i].msg, needle))
			return 1;
	return 0;
}

static void assert_result(const run *t, const char *expect)
{
	assert_int_equal(t->r, 0);
	assert_int_equal(t->plan.nchanges, 1);
	assert_int_equal(t->plan.changes[0].len, strlen(expect));
	assert_memory_equal(t->plan.changes[0].data, expect, strlen(expect));
}

/* The answer: b -> B, written when the file was "a b c d e". */
static const char *const b_to_B[] = { " a", "-b", "+B", " c", NULL };
static const char v_old[] = "a\nb\nc\nd\ne\n";

/* Applies exactly to the current content: no history, no merge. */
static void test_fresh_costs_nothing(void **state)
{
	static const fake_version vs[] = { { "commit 1", v_old } };
	run t = { 0 };

	(void)state;
	fk.current = "a\nb\nc\nd\ne\nf\n";
	fk.versions = vs;
	fk.nversions = 1;
	hunk_op(&t, 1, b_to_B);
	plan(&t);
	assert_result(&t, "a\nB\nc\nd\ne\nf\n");
	assert_int_equal(fk.history_calls, 0);
	assert_int_equal(fk.merge_calls, 0);
	done(&t);
}

/* Stale: the newest version that takes the hunk is merged from. */
static void test_stale_merges_from_version(void **state)
{
	static const fake_version vs[] = {
		{ "commit cur", "A\nb\nc\nd\ne\n" },  /* identical: skipped */
		{ "commit 2", "x\nb\nc\nd\ne\n" },    /* does not take it */
		{ "commit 1", v_old },
		{ "commit 0", v_old },
	};
	run t = { 0 };

	(void)state;
	fk.current = "A\nb\nc\nd\ne\n";
	fk.versions = vs;
	fk.nversions = 4;
	fk.merge_out = "A\nB\nc\nd\ne\n";
	hunk_op(&t, 1, b_to_B);
	plan(&t);
	assert_result(&t, "A\nB\nc\nd\ne\n");
	assert_int_equal(fk.merge_calls, 1);
	assert_string_equal(fk.base_seen, v_old);
	assert_string_equal(fk.ours_seen, "A\nb\nc\nd\ne\n");
	assert_string_equal(fk.theirs_seen, "a\nB\nc\nd\ne\n");
	assert_string_equal(fk.hint, "(none)");
	assert_true(has_diag(&t, AA_DIAG_NOTE, "hunks applied to commit 1"));
	assert_int_equal(t.plan.changes[0].nlandings, 1);
	assert_int_equal(t.plan.changes[0].landings[0].how, AA_HOW_MERGED);
	assert_false(has_diag(&t, AA_DIAG_WARNING, "rung"));
	done(&t);
}

/* A bare hunk: the version where it matches exactly once. */
static void test_bare_hunk_once(void **state)
{
	static const fake_version vs[] = {
		{ "commit twice", "a\nb\nc\nx\na\nb\nc\n" }, /* twice: not it */
		{ "commit 1", v_old },
	};
	run t = { 0 };

	(void)state;
	fk.current = "A\nb\nc\nd\ne\n";
	fk.versions = vs;
	fk.nversions = 2;
	fk.merge_out = "A\nB\nc\nd\ne\n";
	hunk_op(&t, 0, b_to_B);
	plan(&t);
	assert_result(&t, "A\nB\nc\nd\ne\n");
	assert_int_equal(fk.merge_calls, 1);
	assert_string_equal(fk.base_seen, v_old);
	assert_true(has_diag(&t, AA_DIAG_NOTE, "hunks applied to commit 1"));
	done(&t);
}

/* The index line's blob goes to the history as its hint. */
static void test_hint_passed(void **state)
{
	run t = { 0 };
	aa_op *op;

	(void)state;
	fk.current = "A\nb\nc\nd\ne\n";
	op = hunk_op(&t, 1, b_to_B);
	strcpy(op->base_blob, "1a2b3c4");
	plan(&t);
	assert_string_equal(fk.hint, "1a2b3c4");
	done(&t);
}

/* A conflict refuses the change set: nothing planned. */
static void test_conflict_refused(void **state)
{
	static const fake_version vs[] = { { "commit 1", v_old } };
	run t = { 0 };

	(void)state;
	fk.current = "A\nb\nc\nd\ne\n";
	fk.versions = vs;
	fk.nversions = 1;
	fk.merge_rc = 1;
	fk.merge_out = "conflict at line 1 of the current content";
	hunk_op(&t, 1, b_to_B);
	plan(&t);
	assert_int_equal(t.r, -1);
	assert_true(has_diag(&t, AA_DIAG_ERROR, "conflicts with the current content: conflict at line 1"));
	assert_true(has_diag(&t, AA_DIAG_ERROR, "commit 1"));
	done(&t);
}

/* ---- --3way: a conflict written, not refused ---- */

static const char markers[] =
	"a\n<<<<<<< ours\nA\n=======\nB\n>>>>>>> theirs\nc\nd\ne\n";

/* merge3_markers: the canned markers, a conflict; records its sides. */
static int fake_markers(void *ctx, const char *path, const char *base,
			size_t blen, const char *ours, size_t olen,
			const char *theirs, size_t tlen, aa_buf *out)
{
	(void)ctx;
	(void)path;
	assert_memory_equal(base, v_old, blen);
	assert_int_equal(olen, strlen(fk.current));
	assert_memory_equal(ours, fk.current, olen);
	assert_int_equal(tlen, strlen("a\nB\nc\nd\ne\n"));
	(void)theirs;
	return aa_buf_puts(out, markers) < 0 ? -1 : 1;
}

static const aa_snapshot fake3 = {
	.lookup = fake_lookup, .read = fake_read,
	.each_under = fake_each_under,
	.history = fake_history, .merge3 = fake_merge3,
	.merge3_markers = fake_markers
};

static void plan3(run *t, const aa_snapshot *sn)
{
	static const aa_plan_opts threeway = { .threeway = 1 };

	t->r = aa_plan_build(&t->plan, &t->cs, sn, &threeway, &t->d);
}

/* The stale version, a conflicting merge: what --3way sets up. */
static void stale_conflict(void)
{
	static const fake_version vs[] = { { "commit 1", v_old } };

	fk.current = "a\nA\nc\nd\ne\n";
	fk.versions = vs;
	fk.nversions = 1;
	fk.merge_rc = 1;
	fk.merge_out = "conflict at line 2 of the current content";
}

static void test_threeway_conflict_written(void **state)
{
	run t = { 0 };
	const aa_change *c;

	(void)state;
	stale_conflict();
	hunk_op(&t, 1, b_to_B);
	plan3(&t, &fake3);
	assert_result(&t, markers);
	c = &t.plan.changes[0];
	assert_true(c->conflict);
	assert_int_equal(c->stage_len[0], strlen(v_old));
	assert_memory_equal(c->stage[0], v_old, strlen(v_old));
	assert_int_equal(c->stage_len[1], strlen(fk.current));
	assert_memory_equal(c->stage[1], fk.current, strlen(fk.current));
	assert_int_equal(c->stage_len[2], strlen("a\nB\nc\nd\ne\n"));
	assert_memory_equal(c->stage[2], "a\nB\nc\nd\ne\n", c->stage_len[2]);
	assert_int_equal(c->stage_mode, AA_MODE_FILE);
	assert_int_equal(c->mode, AA_MODE_FILE);
	assert_int_equal(c->nregions, 1);
	assert_int_equal(c->regions[0].start, 2);
	assert_int_equal(c->regions[0].end, 6);
	assert_int_equal(c->landings[0].how, AA_HOW_MERGED);
	assert_true(has_diag(&t, AA_DIAG_WARNING, "applied with conflicts"));
	assert_int_equal(t.d.nerrors, 0);
	assert_int_equal(aa_plan_conflicts(&t.plan), 1);
	done(&t);
}

/* Without a way to write the markers, --3way still refuses. */
static void test_threeway_needs_markers(void **state)
{
	run t = { 0 };

	(void)state;
	stale_conflict();
	hunk_op(&t, 1, b_to_B);
	plan3(&t, &fake);
	assert_int_equal(t.r, -1);
	assert_true(has_diag(&t, AA_DIAG_ERROR, "conflicts with the current content"));
	done(&t);
}

/* Stage 3 takes the answer's new mode; stages 1 and 2 keep the old one. */
static void test_threeway_mode_change(void **state)
{
	run t = { 0 };
	aa_op *op;

	(void)state;
	stale_conflict();
	op = hunk_op(&t, 1, b_to_B);
	op->mode = 0100755;
	plan3(&t, &fake3);
	assert_int_equal(t.r, 0);
	assert_int_equal(t.plan.changes[0].stage_mode, AA_MODE_FILE);
	assert_int_equal(t.plan.changes[0].mode, AA_MODE_EXEC);
	done(&t);
}

/* A later operation on the conflicted path is refused. */
static void test_threeway_later_op_refused(void **state)
{
	static const char *const d_to_D[] = { " c", "-d", "+D", " e", NULL };
	run t = { 0 };

	(void)state;
	stale_conflict();
	hunk_op(&t, 1, b_to_B);
	hunk_op(&t, 3, d_to_D);
	plan3(&t, &fake3);
	assert_int_equal(t.r, -1);
	assert_true(has_diag(&t, AA_DIAG_ERROR, "left this path with conflicts"));
	done(&t);
}

/* A merge that changes nothing: skipped, with a note. */
static void test_already_upstream(void **state)
{
	static const fake_version vs[] = { { "commit 1", v_old } };
	run t = { 0 };

	(void)state;
	fk.current = "a\nB\nc\nd\ne\n";
	fk.versions = vs;
	fk.nversions = 1;
	fk.merge_out = "a\nB\nc\nd\ne\n";
	/* the ladder's "already applied" must not be what says so */
	hunk_op(&t, 1, (const char *const[]){ " a", "-b", "+B", " c", " d", NULL });
	plan(&t);
	assert_int_equal(t.r, 0);
	assert_int_equal(t.plan.nchanges, 0);
	assert_int_equal(t.plan.ops_skipped, 1);
	assert_int_equal(fk.merge_calls, 1);
	assert_true(has_diag(&t, AA_DIAG_NOTE, "already in the current content"));
	done(&t);
}

/* No version takes the hunk: the ladder, with its own warning. */
static void test_no_version_ladder(void **state)
{
	static const fake_version vs[] = { { "commit 1", "q\nr\n" } };
	run t = { 0 };

	(void)state;
	fk.current = "a \nb\nc\n";
	fk.versions = vs;
	fk.nversions = 1;
	fk.bound = "the history search stopped after 9 commits (its bound)";
	hunk_op(&t, 1, b_to_B);
	plan(&t);
	assert_result(&t, "a \nB\nc\n");
	assert_int_equal(fk.merge_calls, 0);
	assert_true(has_diag(&t, AA_DIAG_WARNING, "rung 3"));
	assert_true(has_diag(&t, AA_DIAG_NOTE, "stopped after 9 commits"));
	done(&t);
}

/* A numbered hunk that fits a version only far from its line: not that one. */
static void test_far_match_rejected(void **state)
{
	aa_buf far = AA_BUF_INIT;
	fake_version vs[1];
	run t = { 0 };
	int i;

	(void)state;
	for (i = 0; i < 80; i++)
		aa_buf_puts(&far, "pad\n");
	aa_buf_puts(&far, v_old);
	vs[0].label = "commit far";
	vs[0].data = far.ptr;
	fk.current = "A\nb\nc\nd\ne\n";
	fk.versions = vs;
	fk.nversions = 1;
	hunk_op(&t, 1, b_to_B);
	plan(&t);
	assert_int_equal(fk.merge_calls, 0);
	done(&t);
	aa_buf_free(&far);
}

/* --strict never asks the history. */
static void test_strict_no_history(void **state)
{
	static const fake_version vs[] = { { "commit 1", v_old } };
	run t = { 0 };
	aa_op *op;

	(void)state;
	fk.current = "A\nb\nc\nd\ne\n";
	fk.versions = vs;
	fk.nversions = 1;
	op = hunk_op(&t, 1, b_to_B);
	op->strict = 1;
	plan(&t);
	assert_int_equal(t.r, -1);
	assert_int_equal(fk.history_calls, 0);
	done(&t);
}

/* The text of a conflict: where, and a few lines of each side. */
static void test_describe_conflict(void **state)
{
	static const char merged[] =
		"one\ntwo\n"
		"<<<<<<< current\nmine 1\nmine 2\n=======\ntheirs 1\n>>>>>>> answer\n"
		"three\n"
		"<<<<<<< current\nx\n=======\ny\n>>>>>>> answer\n";
	aa_buf out = AA_BUF_INIT;

	(void)state;
	assert_int_equal(aa_history_describe_conflict(merged, strlen(merged), &out), 0);
	assert_non_null(strstr(out.ptr, "conflict at line 3 of the current content"));
	assert_non_null(strstr(out.ptr, "(and 1 more conflicting region)"));
	assert_non_null(strstr(out.ptr, "current content has (2 lines):\n    \"mine 1\"\n    \"mine 2\""));
	assert_non_null(strstr(out.ptr, "the answer has (1 line):\n    \"theirs 1\""));
	assert_null(strstr(out.ptr, "\"x\""));
	aa_buf_free(&out);
}

/* Long sides are cut; a truncated input does not crash. */
static void test_describe_conflict_long(void **state)
{
	aa_buf in = AA_BUF_INIT, out = AA_BUF_INIT;
	int i;

	(void)state;
	aa_buf_puts(&in, "<<<<<<< current\n");
	for (i = 0; i < 10; i++)
		aa_buf_printf(&in, "l%d\n", i);
	aa_buf_puts(&in, "=======\nt");
	assert_int_equal(aa_history_describe_conflict(in.ptr, in.len, &out), 0);
	assert_non_null(strstr(out.ptr, "(10 lines)"));
	assert_non_null(strstr(out.ptr, "... (6 more)"));
	assert_non_null(strstr(out.ptr, "the answer has (1 line):\n    \"t\""));
	aa_buf_free(&in);
	aa_buf_free(&out);
}


/* ---- the merge by windows ---- */

static size_t wmerge_calls, wmerge_max;

/* A merge for whole-line changes on one side only (enough here). */
static int simple_merge3(void *ctx, const char *path, const char *label,
			 const char *base, size_t blen, const char *ours,
			 size_t olen, const char *theirs, size_t tlen, aa_buf *out)
{
	(void)ctx;
	(void)path;
	(void)label;
	wmerge_calls++;
	if (blen > wmerge_max)
		wmerge_max = blen;
	if (olen == blen && !memcmp(ours, base, blen))
		return aa_buf_put(out, theirs, tlen);
	if ((tlen == blen && !memcmp(theirs, base, blen)) ||
	    (tlen == olen && !memcmp(theirs, ours, olen)))
		return aa_buf_put(out, ours, olen);
	aa_buf_puts(out, "conflict at line 1 of the current content");
	return 1;
}

static const aa_snapshot merger = { .merge3 = simple_merge3 };

/* "line 1".."line n", with line k (1-based) replaced where asked. */
static void numbered(aa_buf *b, size_t n, const size_t *at,
		     const char *const *with, size_t nat)
{
	size_t i, k;

	for (i = 1; i <= n; i++) {
		const char *w = NULL;

		for (k = 0; k < nat; k++)
			if (at[k] == i)
				w = with[k];
		if (w)
			aa_buf_printf(b, "%s\n", w);
		else
			aa_buf_printf(b, "line %zu\n", i);
	}
}

/* Two hunks in a 3000-line file; upstream changed lines far from them. */
static void test_windows_merge_only_around_hunks(void **state)
{
	static const size_t up_at[] = { 10, 1500, 2990 };
	static const char *const up[] = { "up 10", "up 1500", "up 2990" };
	static const size_t th_at[] = { 500, 2000 };
	static const char *const th[] = { "answer 500", "answer 2000" };
	static const size_t all_at[] = { 10, 500, 1500, 2000, 2990 };
	static const char *const all[] = { "up 10", "answer 500", "up 1500",
					   "answer 2000", "up 2990" };
	/* hunks: 3 lines of context around the changed line */
	static const aa_merge_region rg[] = { { 1996, 7, 7 }, { 496, 7, 7 } };
	aa_buf base = AA_BUF_INIT, ours = AA_BUF_INIT, theirs = AA_BUF_INIT;
	aa_buf want = AA_BUF_INIT, out = AA_BUF_INIT;

	(void)state;
	numbered(&base, 3000, NULL, NULL, 0);
	numbered(&ours, 3000, up_at, up, 3);
	numbered(&theirs, 3000, th_at, th, 2);
	numbered(&want, 3000, all_at, all, 5);
	wmerge_calls = wmerge_max = 0;
	assert_int_equal(aa_merge_windowed(&merger, "f", "v", base.ptr, base.len,
					   ours.ptr, ours.len, theirs.ptr,
					   theirs.len, rg, 2, &out), 0);
	assert_int_equal(out.len, want.len);
	assert_memory_equal(out.ptr, want.ptr, want.len);
	assert_int_equal(wmerge_calls, 2);
	assert_true(wmerge_max < 2000);
	aa_buf_free(&base);
	aa_buf_free(&ours);
	aa_buf_free(&theirs);
	aa_buf_free(&want);
	aa_buf_free(&out);
}

/* Lines that repeat everywhere give no anchor: the whole file is merged. */
static void test_windows_fall_back_without_anchors(void **state)
{
	static const aa_merge_region rg[] = { { 1000, 1, 1 } };
	aa_buf base = AA_BUF_INIT, ours = AA_BUF_INIT, theirs = AA_BUF_INIT;
	aa_buf out = AA_BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < 3000; i++) {
		aa_buf_puts(&base, "same\n");
		aa_buf_puts(&ours, i == 5 ? "up\n" : "same\n");
		aa_buf_puts(&theirs, i == 1000 ? "answer\n" : "same\n");
	}
	wmerge_calls = wmerge_max = 0;
	/* the simple merge sees both sides changed: a conflict, on the whole file */
	assert_int_equal(aa_merge_windowed(&merger, "f", "v", base.ptr, base.len,
					   ours.ptr, ours.len, theirs.ptr,
					   theirs.len, rg, 1, &out), 1);
	assert_int_equal(wmerge_calls, 1);
	assert_int_equal(wmerge_max, base.len);
	aa_buf_free(&base);
	aa_buf_free(&ours);
	aa_buf_free(&theirs);
	aa_buf_free(&out);
}

/* Regions at the very start and end (an insertion after the last line). */
static void test_windows_at_the_edges(void **state)
{
	static const size_t up_at[] = { 1500 };
	static const char *const up[] = { "up 1500" };
	static const aa_merge_region rg[] = { { 0, 2, 2 }, { 3000, 0, 1 } };
	aa_buf base = AA_BUF_INIT, ours = AA_BUF_INIT, theirs = AA_BUF_INIT;
	aa_buf want = AA_BUF_INIT, out = AA_BUF_INIT;

	(void)state;
	numbered(&base, 3000, NULL, NULL, 0);
	numbered(&ours, 3000, up_at, up, 1);
	aa_buf_puts(&theirs, "first\n");
	numbered(&theirs, 3000, NULL, NULL, 0);
	memmove(theirs.ptr + 6, theirs.ptr + 6 + strlen("line 1\n"),
		theirs.len - 6 - strlen("line 1\n"));
	theirs.len -= strlen("line 1\n");
	aa_buf_puts(&theirs, "appended\n");
	aa_buf_puts(&want, "first\n");
	numbered(&want, 3000, up_at, up, 1);
	memmove(want.ptr + 6, want.ptr + 6 + strlen("line 1\n"),
		want.len - 6 - strlen("line 1\n"));
	want.len -= strlen("line 1\n");
	aa_buf_puts(&want, "appended\n");
	wmerge_calls = wmerge_max = 0;
	assert_int_equal(aa_merge_windowed(&merger, "f", "v", base.ptr, base.len,
					   ours.ptr, ours.len, theirs.ptr,
					   theirs.len, rg, 2, &out), 0);
	assert_int_equal(out.len, want.len);
	assert_memory_equal(out.ptr, want.ptr, want.len);
	assert_int_equal(wmerge_calls, 2);
	aa_buf_free(&base);
	aa_buf_free(&ours);
	aa_buf_free(&theirs);
	aa_buf_free(&want);
	aa_buf_free(&out);
}

/* Regions that do not describe theirs: found out, the whole file merged. */
static void test_windows_checked(void **state)
{
	static const size_t th_at[] = { 500 };
	static const char *const th[] = { "answer 500" };
	static const aa_merge_region rg[] = { { 1200, 3, 3 } }; /* wrong place */
	aa_buf base = AA_BUF_INIT, theirs = AA_BUF_INIT, out = AA_BUF_INIT;

	(void)state;
	numbered(&base, 3000, NULL, NULL, 0);
	numbered(&theirs, 3000, th_at, th, 1);
	wmerge_calls = wmerge_max = 0;
	assert_int_equal(aa_merge_windowed(&merger, "f", "v", base.ptr, base.len,
					   base.ptr, base.len, theirs.ptr,
					   theirs.len, rg, 1, &out), 0);
	assert_int_equal(out.len, theirs.len);
	assert_memory_equal(out.ptr, theirs.ptr, theirs.len);
	assert_int_equal(wmerge_max, base.len);
	aa_buf_free(&base);
	aa_buf_free(&theirs);
	aa_buf_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fresh_costs_nothing),
		cmocka_unit_test(test_stale_merges_from_version),
		cmocka_unit_test(test_bare_hunk_once),
		cmocka_unit_test(test_hint_passed),
		cmocka_unit_test(test_conflict_refused),
		cmocka_unit_test(test_threeway_conflict_written),
		cmocka_unit_test(test_threeway_needs_markers),
		cmocka_unit_test(test_threeway_mode_change),
		cmocka_unit_test(test_threeway_later_op_refused),
		cmocka_unit_test(test_already_upstream),
		cmocka_unit_test(test_no_version_ladder),
		cmocka_unit_test(test_far_match_rejected),
		cmocka_unit_test(test_strict_no_history),
		cmocka_unit_test(test_describe_conflict),
		cmocka_unit_test(test_describe_conflict_long),
		cmocka_unit_test(test_windows_merge_only_around_hunks),
		cmocka_unit_test(test_windows_fall_back_without_anchors),
		cmocka_unit_test(test_windows_at_the_edges),
		cmocka_unit_test(test_windows_checked),
	};

	return AA_RUN_TESTS(tests);
}
