/*
 * The rules between a run's options that the library owns: what
 * aa_apply() and aa_apply_each() refuse before they read anything, so
 * that a program embedding the library gets the refusals the command
 * line gives, in the same words. The command line calls these too
 * (src/cli/cli.c), after its own rules between options the library
 * never sees (--json, the previews, --recover, --list, --review).
 */
#include <stdio.h>
#include <string.h>

#include "aiapply/apply.h"
#include "change/limit.h"
#include "change/reverse.h"
#include "workflow/apply_internal.h"
#include "util/util.h"

/* Said for -p with an option that lands nothing, several times or a conflict. */
static const char patch_conflict[] =
	"--patch cannot be used with --check, --each, --3way, --json, --recover, --list or --review";

/* -p asks on select->in: the answer cannot come from there too. */
static int answer_on_question_stream(const aa_apply_opts *o)
{
	size_t i;

	if (o->select->in != stdin || o->ntexts)
		return 0;
	if (!o->nfiles)
		return 1;
	for (i = 0; i < o->nfiles; i++)
		if (!strcmp(o->files[i], "-"))
			return 1;
	return 0;
}

/*
 * -p lands what is chosen, once: never with --check (lands nothing),
 * --3way (lands a conflict, which has no hunk to choose) or --each (lands
 * several times); and its questions are read from standard input, so
 * the answer must come from a file.
 */
static void check_select(const aa_apply_opts *o, int each, aa_diags *d)
{
	if (!o->select)
		return;
	if (o->land.mode == AA_LAND_CHECK || o->plan.threeway || each)
		aa_error(d, AA_NOPOS, NULL, "%s", patch_conflict);
	if (answer_on_question_stream(o))
		aa_error(d, AA_NOPOS, NULL,
			 "--patch reads its answers from standard input: give the AI's answer as a file, not on standard input");
}

/* --include/--exclude: every rule has its pattern (the command line's always do). */
static void check_rules(const aa_apply_opts *o, aa_diags *d)
{
	size_t i;

	if (o->parse.nrules && !o->parse.rules) {
		aa_error(d, AA_NOPOS, NULL, "--include and --exclude: %zu rules and no array",
			 o->parse.nrules);
		return;
	}
	for (i = 0; i < o->parse.nrules; i++)
		if (!o->parse.rules[i].pattern) {
			aa_error(d, AA_NOPOS, NULL, "option '--%s' needs a pattern",
				 o->parse.rules[i].include ? "include" : "exclude");
			return;
		}
}

/*
 * The caller's provenance: trailer lines "Key: value\n", the key git's
 * (letters, digits, '-'), so nothing can end the trailer block early or
 * forge a line of the message.
 */
static void check_extra_trailers(const aa_apply_opts *o, aa_diags *d)
{
	const char *s = o->extra_trailers, *eol;

	for (; s && *s; s = eol + 1) {
		const char *k = s;

		if (!(eol = strchr(s, '\n'))) {
			aa_error(d, AA_NOPOS, NULL, "a trailer line does not end in a newline");
			return;
		}
		while (k < eol && ((*k >= 'A' && *k <= 'Z') || (*k >= 'a' && *k <= 'z') ||
				   (*k >= '0' && *k <= '9') || *k == '-'))
			k++;
		if (k == s || k + 1 >= eol || k[0] != ':' || k[1] != ' ') {
			aa_error(d, AA_NOPOS, NULL, "%s is no trailer line (Key: value)",
				 aa_qtext(s, (size_t)(eol - s), 200));
			return;
		}
		for (; k < eol; k++)
			if ((unsigned char)*k < 0x20 || *k == 0x7f) {
				aa_error(d, AA_NOPOS, NULL,
					 "a trailer line holds a control character");
				return;
			}
	}
}

/* The rules of both calls, in the order the command line has said them. */
static int check(const aa_apply_opts *o, int each, aa_diags *d)
{
	size_t before = d->nerrors;

	if (o->land.mode != AA_LAND_BRANCH &&
	    (o->land.base || o->land.message || o->land.force))
		aa_error(d, AA_NOPOS, NULL, "--base, -m and --force need --branch");
	if (each && o->land.mode != AA_LAND_BRANCH)
		aa_error(d, AA_NOPOS, NULL,
			 "--each needs --branch: each input lands on its own branch");
	if (o->plan.threeway && o->land.mode == AA_LAND_BRANCH)
		aa_error(d, AA_NOPOS, NULL,
			 "--3way cannot be used with --branch: a branch never commits a conflict");
	check_select(o, each, d);
	check_rules(o, d);
	check_extra_trailers(o, d);
	if (o->parse.strict && o->parse.format != AA_FORMAT_AUTO &&
	    o->parse.format != AA_FORMAT_DIFF)
		aa_error(d, AA_NOPOS, NULL,
			 "--strict is the unified diff contract; it takes --format=diff only");
	return d->nerrors > before ? AA_FATAL : AA_OK;
}

int aa_apply_opts_check(const aa_apply_opts *o, aa_diags *d)
{
	return check(o, 0, d);
}

int aa_apply_each_opts_check(const aa_apply_opts *o, aa_diags *d)
{
	return check(o, 1, d);
}

/* ---- the change set as the options shape it ---- */

int aa_apply_shape_changes(const aa_apply_opts *o, aa_changeset *cs,
			   aa_diags *d)
{
	size_t n = cs->n;
	long out = aa_changeset_limit(cs, o->parse.rules, o->parse.nrules,
				      o->parse.reverse);

	if (out < 0)
		return aa_oom(d, AA_NOPOS, NULL);
	if (n && (size_t)out == n)
		aa_note(d, AA_NOPOS, NULL,
			"every change of the answer is excluded by --include/--exclude; nothing to apply");
	if (o->parse.reverse && cs->n && aa_changeset_reverse(cs, d) < 0)
		return -1;
	return 0;
}
