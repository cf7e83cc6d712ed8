/*
 * -v, --verbose: every placement of the run on standard error, one line
 * each, framed as git apply -v frames a patch ("Checking patch x...",
 * "Applied patch x cleanly."). Read from the plan (the landings that
 * --json's "edits" and --review show), so it says what was decided,
 * not a second account of it (Documentation/output.md, "-v").
 */
#include <stdio.h>
#include <string.h>

#include "report/verbose.h"
#include "util/util.h"

/* "a.txt: answer.md:12: at line 40 (offset +3): whitespace, indented ..." */
static void print_landing(FILE *err, const aa_change *c, const aa_landing *l)
{
	aa_buf b = AA_BUF_INIT;

	aa_buf_printf(&b, "%s: ", aa_qpath(c->path));
	if (l->pos.input && l->pos.line > 0)
		aa_buf_printf(&b, "%s:%ld: ", aa_qpath(l->pos.input), l->pos.line);
	if (l->how == AA_HOW_ALREADY_APPLIED)
		aa_buf_puts(&b, "already applied");
	else
		aa_buf_puts(&b, "placed");
	if (l->line > 0)
		aa_buf_printf(&b, " at line %ld", l->line);
	if (l->offset)
		aa_buf_printf(&b, " (offset %+ld line%s)", l->offset,
			      l->offset == 1 || l->offset == -1 ? "" : "s");
	aa_buf_printf(&b, ": %s", aa_how_name(l->how));
	if (l->reindent != AA_REINDENT_NONE) {
		aa_buf_puts(&b, ", ");
		aa_reindent_describe(l->reindent, l->reindent_by, &b);
	}
	/* the one list of tolerant placements, as -p and --review mark them */
	if (aa_how_is_tolerant(l->how))
		aa_buf_puts(&b, " (tolerant)");
	if (!aa_buf_oom(&b))
		fprintf(err, "%s\n", b.ptr);
	aa_buf_free(&b);
}

/* git's name of a patch: "a.txt", or "old => new" for a rename or copy. */
static const char *patch_name(const aa_change *c, aa_buf *b)
{
	aa_buf_clear(b);
	if (c->renamed_from)
		aa_buf_printf(b, "%s => ", aa_qpath(c->renamed_from));
	aa_buf_puts(b, aa_qpath(c->path));
	return b->ptr && !aa_buf_oom(b) ? b->ptr : "?";
}

static void print_change(FILE *err, const aa_change *c, aa_outcome outcome)
{
	aa_buf name = AA_BUF_INIT;
	size_t i;

	fprintf(err, "Checking patch %s...\n", patch_name(c, &name));
	for (i = 0; i < c->nlandings; i++)
		print_landing(err, c, &c->landings[i]);
	if (c->conflict && outcome == AA_OUT_CONFLICTED)
		fprintf(err, "Applied patch %s with conflicts.\n", patch_name(c, &name));
	else if (outcome == AA_OUT_APPLIED || outcome == AA_OUT_CONFLICTED)
		fprintf(err, "Applied patch %s cleanly.\n", patch_name(c, &name));
	aa_buf_free(&name);
}

/* The old path of a rename: said with its new one ("a => b"), not apart. */
static int rename_source(const aa_plan *plan, const aa_change *c)
{
	size_t i;

	if (c->exists)
		return 0;
	for (i = 0; i < plan->nchanges; i++)
		if (plan->changes[i].renamed_from && !plan->changes[i].copied &&
		    !strcmp(plan->changes[i].renamed_from, c->path))
			return 1;
	return 0;
}

int aa_report_verbose(FILE *err, const aa_plan *plan, aa_outcome outcome)
{
	size_t i;

	for (i = 0; plan && i < plan->nchanges; i++)
		if (!rename_source(plan, &plan->changes[i]))
			print_change(err, &plan->changes[i], outcome);
	return 0;
}
