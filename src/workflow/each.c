/*
 * --each: many suggestions in one pass (Documentation/workflows.md,
 * "--each in one pass"). The repository and the
 * base are read once; every suggestion gets its own lander on that base
 * and is planned and built in memory; the objects of every suggestion
 * that built go to disk in one pack; then each suggestion's branch and
 * note refs are updated in a transaction of their own. Each suggestion
 * stays all or nothing: one that fails leaves no ref, note or loose
 * object, and the others land.
 */
#include <stdlib.h>
#include <string.h>

#include "workflow/apply_internal.h"
#include "util/util.h"

/*
 * One suggestion: input `file` (its index in the inputs), or one
 * alternative of it (1-based; 0: the whole answer) out of `of`.
 */
typedef struct suggestion {
	size_t file;
	size_t alternative, of;
} suggestion;

/*
 * Suggestion sg's options: its answer and its branch, <branch>-<n> for
 * the n-th input, <branch>-<n>.<k> for its k-th alternative.
 */
static int suggestion_opts(const aa_apply_opts *o, const suggestion *sg,
			   aa_apply_opts *one, aa_buf *branch)
{
	aa_apply_opts_one_input(o, sg->file, one);
	one->alternative = sg->alternative;
	one->alternatives = sg->of;
	aa_buf_clear(branch);
	if (aa_buf_printf(branch, "%s-%zu", o->land.branch, sg->file + 1) < 0 ||
	    (sg->alternative &&
	     aa_buf_printf(branch, ".%zu", sg->alternative) < 0))
		return -1;
	one->land.branch = branch->ptr;
	return 0;
}

/* Every error of `from` into `to` (the base's failure, said per suggestion). */
static void copy_errors(aa_diags *to, const aa_diags *from)
{
	size_t i;

	for (i = 0; i < from->n; i++)
		if (from->v[i].level == AA_DIAG_ERROR)
			aa_error(to, (aa_pos){ from->v[i].input, from->v[i].line },
				 from->v[i].path, "%s", from->v[i].msg);
}

/*
 * Plans and builds suggestion i on the base; keeps its lander in
 * ready[] when it is to land. A base that did not open fails it with
 * the base's error.
 */
static void build_one(git_repository *repo, aa_each_result *res,
		      const aa_apply_opts *o, const suggestion *sg, size_t i,
		      size_t *ready, size_t *nready)
{
	aa_apply_result *one = &res->v[i];
	aa_apply_opts oi;
	int r;

	aa_apply_result_init(one);
	if (suggestion_opts(o, sg, &oi, &res->branches[i]) < 0) {
		one->outcome = AA_OUT_FATAL;
		aa_oom(&one->diags, AA_NOPOS, NULL);
		return;
	}
	if (!res->base_opened) {
		one->outcome = res->base_outcome;
		copy_errors(&one->diags, &res->base_diags);
		return;
	}
	if (aa_apply_plan_one(repo, &res->base, &oi, one) < 0)
		return;
	r = aa_land_prepare(&one->session, &one->plan, &one->diags);
	if (r < 0)
		aa_apply_landed(one, r);
	else
		ready[(*nready)++] = i;
}

/*
 * The objects of every suggestion in ready[] in one write, then each
 * one's refs; when the write fails, every one of them fails with it.
 */
static void land_ready(aa_each_result *res, const size_t *ready, size_t n)
{
	aa_session **landers = calloc(n ? n : 1, sizeof(*landers));
	aa_diags why = AA_DIAGS_INIT;
	size_t k;
	int r;

	if (!landers)
		r = aa_oom(&why, AA_NOPOS, NULL);
	for (k = 0; landers && k < n; k++)
		landers[k] = &res->v[ready[k]].session;
	if (landers)
		r = aa_land_persist(landers, n, &why);
	for (k = 0; k < n; k++) {
		aa_apply_result *one = &res->v[ready[k]];

		if (r < 0) {
			copy_errors(&one->diags, &why);
			one->outcome = AA_OUT_FATAL;
		} else {
			aa_apply_landed(one, aa_land_finish(&one->session,
							    &one->diags));
		}
	}
	/* the pack's keep and the journal go once every ref is written */
	if (aa_land_done(&res->base, &res->diags) < 0)
		res->done_failed = 1;
	aa_diags_free(&why);
	free(landers);
}

static int open_base(git_repository *repo, const aa_apply_opts *o,
		     aa_each_result *res)
{
	int r;

	res->land = o->land;
	r = aa_base_open(&res->base, repo, &res->land, &res->base_diags);
	res->base_opened = r == 0;
	if (r < 0) {
		res->base_outcome = r == AA_FATAL ? AA_OUT_FATAL : AA_OUT_REJECTED;
		aa_base_close(&res->base);
	}
	return r;
}

/* The exit status of the run: 0 when all landed, else the worst. */
static int tally(aa_each_result *res)
{
	size_t i;
	int code = 0;

	for (i = 0; i < res->n; i++) {
		int c = aa_apply_exit_code(res->v[i].outcome);

		res->failed += c != 0;
		if (c > code)
			code = c;
	}
	return res->done_failed ? AA_APPLY_EXIT_FATAL : code;
}

static int add_suggestion(suggestion **v, size_t *n, size_t *cap,
			  size_t file, size_t alternative, size_t of)
{
	if (AA_GROW(*v, *n, *cap) < 0)
		return -1;
	(*v)[*n].file = file;
	(*v)[*n].alternative = alternative;
	(*v)[(*n)++].of = of;
	return 0;
}

/*
 * The suggestions of the inputs: one per input, or one per alternative
 * when an input splits (the split's note is said again by its first
 * alternative's own run). NULL when out of memory.
 */
static suggestion *list_suggestions(git_repository *repo,
				    const aa_apply_opts *o, size_t *n)
{
	suggestion *v = NULL;
	size_t i, k, cap = 0;
	int r = 0;

	*n = 0;
	for (i = 0; !r && i < aa_apply_ninputs(o); i++) {
		aa_diags notes = AA_DIAGS_INIT;
		size_t of = aa_apply_count_alternatives(repo, o, i, &notes);

		aa_diags_free(&notes);
		if (of < 2)
			r = add_suggestion(&v, n, &cap, i, 0, 0);
		for (k = 1; of >= 2 && !r && k <= of; k++)
			r = add_suggestion(&v, n, &cap, i, k, of);
	}
	if (r < 0) {
		free(v);
		return NULL;
	}
	return v;
}

static int apply_each(git_repository *repo, const aa_apply_opts *o,
		      aa_each_result *res)
{
	size_t i, n = 0, nready = 0, *ready;
	suggestion *sg;

	if (aa_apply_each_opts_check(o, &res->diags) < 0)
		return AA_APPLY_EXIT_FATAL;
	if (!aa_apply_ninputs(o))
		return aa_error(&res->diags, AA_NOPOS, NULL,
				"--each needs the answer files (standard input is one answer)"),
		       AA_APPLY_EXIT_FATAL;
	/* the pattern is a branch name itself: HEAD-1 is never asked for */
	if (aa_land_check_branch(o->land.branch, &res->diags) < 0)
		return AA_APPLY_EXIT_FATAL;
	if (!(sg = list_suggestions(repo, o, &n)))
		return aa_oom(&res->diags, AA_NOPOS, NULL),
		       AA_APPLY_EXIT_FATAL;
	res->v = calloc(n, sizeof(*res->v));
	res->branches = calloc(n, sizeof(*res->branches));
	ready = calloc(n, sizeof(*ready));
	if (!res->v || !res->branches || !ready) {
		free(ready);
		free(sg);
		return aa_oom(&res->diags, AA_NOPOS, NULL),
		       AA_APPLY_EXIT_FATAL;
	}
	res->n = n;
	open_base(repo, o, res);
	for (i = 0; i < res->n; i++)
		build_one(repo, res, o, &sg[i], i, ready, &nready);
	land_ready(res, ready, nready);
	free(ready);
	free(sg);
	return tally(res);
}

int aa_apply_each(git_repository *repo, const aa_apply_opts *o,
		  aa_each_result **out)
{
	aa_each_result *res = calloc(1, sizeof(*res));

	*out = res;
	return res ? apply_each(repo, o, res) : AA_APPLY_EXIT_FATAL;
}

void aa_each_result_free(aa_each_result *res)
{
	size_t i;

	if (!res)
		return;
	for (i = 0; i < res->n; i++) {
		aa_apply_result_clear(&res->v[i]);
		aa_buf_free(&res->branches[i]);
	}
	if (res->base_opened)
		aa_base_close(&res->base);
	free(res->v);
	free(res->branches);
	aa_diags_free(&res->base_diags);
	aa_diags_free(&res->diags);
	free(res);
}

size_t aa_each_result_count(const aa_each_result *res)
{
	return res ? res->n : 0;
}

aa_apply_result *aa_each_result_get(aa_each_result *res, size_t i)
{
	return res && i < res->n ? &res->v[i] : NULL;
}

const char *aa_each_result_branch(const aa_each_result *res, size_t i)
{
	return res && i < res->n ? res->branches[i].ptr : NULL;
}

size_t aa_each_result_failed(const aa_each_result *res)
{
	return res ? res->failed : 0;
}

const aa_diags *aa_each_result_diags(const aa_each_result *res)
{
	static aa_diag oom_diag = { AA_DIAG_ERROR, NULL, NULL, 0,
				    (char *)"out of memory" };
	static const aa_diags oom = { &oom_diag, 1, 1, 1 };

	return res ? &res->diags : &oom;
}
