/*
 * git ai-apply: the command line, as builtin/apply.c is git apply's:
 * the options (one table, parsed by src/cli/parse-options.c), the
 * output and the exit status. The library (src/workflow/) reads the
 * inputs, parses, plans and lands. The only place that exits.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <git2.h>

#include "aiapply.h"
#include "cli/parse-options.h"

#define EXIT_FATAL AA_APPLY_EXIT_FATAL
#define EXIT_USAGE 129

/*
 * What parsing the command line found: go on, print the usage (-h),
 * done (--git-completion-helper), or stop -- fatal as git's die() (128:
 * options that cannot go together), or a usage error as git's
 * usage_with_options() (129: an unknown option or a bad value, with the
 * usage).
 */
enum {
	ARGS_OK = 0,
	ARGS_HELP = 1,
	ARGS_DONE = 2,
	ARGS_FATAL = -1,
	ARGS_USAGE = -2
};

static const char synopsis[] =
	"usage: git ai-apply [--cached | --branch=<name> [--each] | --check] [--format=<name>]\n"
	"                    [--strict] [-p<n>] [--directory=<root>] [--base=<rev>] [-m <msg>]\n"
	"                    [--force] [--allow-delete] [--3way] [-p] [--stat] [--numstat]\n"
	"                    [--summary] [--diff] [--apply] [--json] [-q | -v] [-R]\n"
	"                    [--include=<pattern>] [--exclude=<pattern>] [-C <dir>] [<file>...]\n"
	"   or: git ai-apply --recover [-C <dir>]\n"
	"   or: git ai-apply --list [--json] [-C <dir>] [<pattern>]\n"
	"   or: git ai-apply --review [--json] [-C <dir>]\n"
	"   or: git ai-apply --undo [--check] [-q] [-C <dir>]\n"
	"   or: git ai-apply mcp [-C <dir>]\n";

typedef struct cli {
	aa_apply_opts o;      /* what the library is asked */
	aa_select_opts sel;   /* -p's questions: o.select points here */
	aa_report_opts report;
	const char **files;
	size_t nfiles;
	const char *chdir_to;
	int recover;          /* --recover */
	int each;             /* --each: one suggestion branch per input */
	int list;             /* --list [<pattern>] */
	int review;           /* --review */
	int undo;             /* --undo */
	int patch;            /* -p, --patch */
	int apply;            /* --apply: a report lands as well */
	int json;             /* --json */
	int verbose;          /* -v: each placement on standard error */
	aa_path_rule *rules;  /* --include, --exclude in order (argc of them) */
	size_t nrules;
	FILE *tty;            /* -p with the answer on standard input: /dev/tty */
	aa_color_when color_when; /* --color[=<when>], --no-color */
	aa_color color;       /* standard output's colors */
	aa_color err_color;   /* standard error's colors */
	aa_diags fatal;       /* what stops the run before it starts */
} cli;

/* ---- the options ---- */

/* The ids of the options, and of what conflicts may name besides. */
enum {
	OPT_CACHED, OPT_BRANCH, OPT_EACH, OPT_CHECK, OPT_FORMAT, OPT_STRICT,
	OPT_BASE, OPT_MESSAGE, OPT_FORCE, OPT_ALLOW_DELETE, OPT_3WAY,
	OPT_PATCH, OPT_STAT, OPT_NUMSTAT, OPT_SUMMARY, OPT_DIFF, OPT_APPLY,
	OPT_JSON, OPT_COLOR, OPT_QUIET, OPT_RECOVER, OPT_LIST, OPT_REVIEW,
	OPT_UNDO,
	OPT_CHDIR, OPT_HELP, OPT_VERSION, OPT_COMPLETION, OPT_STRIP, OPT_DIRECTORY,
	OPT_REVERSE, OPT_INCLUDE, OPT_EXCLUDE, OPT_VERBOSE,
	OPT_INPUT,   /* an input (a file, or a --list pattern) */
	OPT_INPUTS   /* more than one */
};

#define B(id) CLI_BIT(OPT_##id)
#define FIELD(f) CLI_STORE_INT, offsetof(cli, f), 1
#define FIELD_STR(f) CLI_STORE_STR, offsetof(cli, f), 0
#define SHOW_BIT(bit) CLI_STORE_BIT, offsetof(cli, report.show), bit
#define NO_FIELD CLI_STORE_NONE, 0, 0
#define LANDING (B(CACHED) | B(BRANCH) | B(CHECK))

static int set_format(cli_parser *p, const cli_option *opt, const char *arg,
		      int unset);
static int set_color(cli_parser *p, const cli_option *opt, const char *arg,
		     int unset);
static int show_help(cli_parser *p, const cli_option *opt, const char *arg,
		     int unset);
static int show_completion(cli_parser *p, const cli_option *opt,
			   const char *arg, int unset);
static int show_version(cli_parser *p, const cli_option *opt, const char *arg,
			int unset);
static int format_names(aa_buf *out);
static int set_strip(cli_parser *p, const cli_option *opt, const char *arg,
		     int unset);
static int add_rule(cli_parser *p, const cli_option *opt, const char *arg,
		    int unset);
static int set_verbosity(cli_parser *p, const cli_option *opt,
			 const char *arg, int unset);

/* What a preview, -v, --json cannot go with: what prints no landing. */
#define NO_LANDING_REPORT (B(RECOVER) | B(LIST) | B(REVIEW))

/*
 * Every option, in the order of the usage's help lines. The conflicts
 * here are the command line's own (modes the library never sees); the
 * rules between the library's options are aa_apply_opts_check()'s.
 */
static const cli_option options[] = {
	{ OPT_CACHED, 0, "cached", CLI_FLAG, NO_FIELD, .cmdmode = AA_LAND_CACHED,
	  .help = "apply to the index only" },
	{ OPT_BRANCH, 0, "branch", CLI_VALUE, FIELD_STR(o.land.branch),
	  .cmdmode = AA_LAND_BRANCH, .argh = "<name>",
	  .missing = "a branch name", .flags = CLI_NONEMPTY,
	  .help = "commit the change on a new branch; index, work tree\n"
		  "and HEAD stay untouched" },
	{ OPT_EACH, 0, "each", CLI_NEGFLAG, FIELD(each),
	  .help = "with --branch: each input on its own branch\n"
		  "<name>-1, <name>-2, ... from the same base" },
	{ OPT_CHECK, 0, "check", CLI_FLAG, NO_FIELD, .cmdmode = AA_LAND_CHECK,
	  .help = "validate only; write nothing" },
	{ OPT_FORMAT, 0, "format", CLI_VALUE, NO_FIELD, .argh = "<name>",
	  .fn = set_format, .help_fn = format_names },
	{ OPT_STRICT, 0, "strict", CLI_NEGFLAG, FIELD(o.parse.strict),
	  .help = "enforce the unified diff contract exactly" },
	{ OPT_STRIP, 0, "strip", CLI_VALUE, NO_FIELD, .argh = "<n>",
	  .missing = "a number", .flags = CLI_NONEMPTY, .fn = set_strip,
	  .help = "a diff's names lose <n> leading components\n"
		  "(-p<n>, digits attached; -p alone is --patch)" },
	{ OPT_STRIP, 'p', NULL, CLI_VALUE, NO_FIELD, .argh = "<n>",
	  .flags = CLI_ATTACHED, .fn = set_strip },
	{ OPT_DIRECTORY, 0, "directory", CLI_VALUE, FIELD_STR(o.parse.directory),
	  .argh = "<root>", .missing = "a directory", .flags = CLI_NONEMPTY,
	  .help = "prepend <root> to every path of a diff" },
	{ OPT_INCLUDE, 0, "include", CLI_VALUE, NO_FIELD, .argh = "<pattern>",
	  .missing = "a pattern", .fn = add_rule,
	  .help = "apply only the changes to paths matching <pattern>\n"
		  "(git apply's; any format)",
	  .conflicts = NO_LANDING_REPORT },
	{ OPT_EXCLUDE, 0, "exclude", CLI_VALUE, NO_FIELD, .argh = "<pattern>",
	  .missing = "a pattern", .fn = add_rule,
	  .help = "leave out the changes to paths matching <pattern>",
	  .conflicts = NO_LANDING_REPORT },
	{ OPT_REVERSE, 'R', "reverse", CLI_NEGFLAG, FIELD(o.parse.reverse),
	  .help = "land the answer backwards (undo what it changes)",
	  .conflicts = NO_LANDING_REPORT },
	{ OPT_BASE, 0, "base", CLI_VALUE, FIELD_STR(o.land.base), .argh = "<rev>",
	  .missing = "a revision",
	  .help = "base commit for --branch (default HEAD)" },
	{ OPT_MESSAGE, 'm', NULL, CLI_VALUE, FIELD_STR(o.land.message),
	  .argh = "<msg>", .missing = "a message", .flags = CLI_NONEMPTY,
	  .help = "commit message for --branch" },
	{ OPT_MESSAGE, 0, "message", CLI_VALUE, FIELD_STR(o.land.message),
	  .argh = "<msg>", .missing = "a message", .flags = CLI_NONEMPTY },
	{ OPT_FORCE, 0, "force", CLI_NEGFLAG, FIELD(o.land.force),
	  .help = "replace an existing branch" },
	{ OPT_FORCE, 'f', NULL, CLI_NEGFLAG, FIELD(o.land.force), .help = NULL },
	{ OPT_ALLOW_DELETE, 0, "allow-delete", CLI_NEGFLAG,
	  FIELD(o.plan.allow_delete),
	  .help = "confirm deletions under --strict" },
	{ OPT_3WAY, '3', "3way", CLI_NEGFLAG, FIELD(o.plan.threeway),
	  .help = "write a conflicting merge with conflict markers and\n"
		  "index stages 1-3 instead of refusing (exit status 1)" },
	/* with --check, --each and --3way: the library's rule */
	{ OPT_PATCH, 'p', "patch", CLI_NEGFLAG, FIELD(patch),
	  .help = "choose the hunks to land, as git add -p (answers\n"
		  "on standard input, or the terminal when the answer\n"
		  "comes on standard input)",
	  .conflicts = B(JSON) | B(RECOVER) | B(LIST) | B(REVIEW),
	  .conflict_msg = "--patch cannot be used with --check, --each, --3way, --json, --recover, --list or --review" },
	{ OPT_STAT, 0, "stat", CLI_NEGFLAG, SHOW_BIT(AA_SHOW_STAT),
	  .help = "preview: a diffstat of what would land (git apply's)",
	  .conflicts = NO_LANDING_REPORT },
	{ OPT_NUMSTAT, 0, "numstat", CLI_NEGFLAG, SHOW_BIT(AA_SHOW_NUMSTAT),
	  .help = "preview: added, removed and path, tab-separated",
	  .conflicts = NO_LANDING_REPORT },
	{ OPT_SUMMARY, 0, "summary", CLI_NEGFLAG, SHOW_BIT(AA_SHOW_SUMMARY),
	  .help = "preview: creations, deletions, renames, mode changes",
	  .conflicts = NO_LANDING_REPORT },
	{ OPT_DIFF, 0, "diff", CLI_NEGFLAG, SHOW_BIT(AA_SHOW_DIFF),
	  .help = "preview: the change as a git diff",
	  .conflicts = NO_LANDING_REPORT },
	{ OPT_APPLY, 0, "apply", CLI_NEGFLAG, FIELD(apply),
	  .help = "with a preview option: land as well, and report",
	  .conflicts = B(CHECK) },
	{ OPT_JSON, 0, "json", CLI_NEGFLAG, FIELD(json),
	  .help = "report the landing (or --check) in JSON",
	  .conflicts = B(STAT) | B(NUMSTAT) | B(SUMMARY) | B(DIFF) },
	{ OPT_COLOR, 0, "color", CLI_OPTVALUE, NO_FIELD, .argh = "<when>",
	  .fn = set_color, .help = "color the output: always, never or auto" },
	{ OPT_QUIET, 'q', "quiet", CLI_NEGFLAG, NO_FIELD, .fn = set_verbosity,
	  .help = "no summary (the last of -q and -v counts)" },
	{ OPT_VERBOSE, 'v', "verbose", CLI_NEGFLAG, NO_FIELD, .fn = set_verbosity,
	  .help = "each placement on standard error: file, input line,\n"
		  "where it landed and how (exact, offset, whitespace, ...)",
	  .conflicts = NO_LANDING_REPORT },
	{ OPT_RECOVER, 0, "recover", CLI_FLAG, FIELD(recover),
	  .help = "finish or undo a landing that was interrupted",
	  .conflicts = B(INPUT) | LANDING,
	  .conflict_msg = "--recover takes no input and no landing option" },
	{ OPT_LIST, 0, "list", CLI_FLAG, FIELD(list),
	  .help = "the suggestion branches, whether each merges into HEAD",
	  .conflicts = B(INPUTS) | LANDING | B(EACH) | B(RECOVER),
	  .conflict_msg = "--list takes one pattern at most and no landing option" },
	{ OPT_REVIEW, 0, "review", CLI_NEGFLAG, FIELD(review),
	  .help = "the staged AI change, tolerant placements marked",
	  .conflicts = B(INPUT) | LANDING | B(EACH) | B(RECOVER) | B(LIST),
	  .conflict_msg = "--review takes no input and no landing option" },
	{ OPT_UNDO, 0, "undo", CLI_FLAG, FIELD(undo),
	  .help = "put back what the last staged landing changed\n"
		  "(with --check: say what, write nothing)",
	  .conflicts = B(INPUT) | B(CACHED) | B(BRANCH) | B(EACH) | B(RECOVER) |
		       B(LIST) | B(REVIEW) | B(PATCH) | B(3WAY) | B(JSON) |
		       B(STAT) | B(NUMSTAT) | B(SUMMARY) | B(DIFF) | B(APPLY) |
		       B(FORMAT) | B(STRICT) | B(STRIP) | B(DIRECTORY) | B(BASE) |
		       B(MESSAGE) | B(FORCE) | B(ALLOW_DELETE),
	  .conflict_msg = "--undo takes no input and no option but --check and -q" },
	{ OPT_CHDIR, 'C', NULL, CLI_VALUE, FIELD_STR(chdir_to), .argh = "<dir>",
	  .missing = "a directory" },
	{ OPT_HELP, 'h', "help", CLI_FLAG, NO_FIELD, .fn = show_help },
	{ OPT_VERSION, 0, "version", CLI_FLAG, NO_FIELD, .fn = show_version },
	{ OPT_COMPLETION, 0, "git-completion-helper", CLI_FLAG, NO_FIELD,
	  .fn = show_completion, .flags = CLI_NOCOMPLETE },
};

#define NOPTS (sizeof(options) / sizeof(options[0]))

/* The format names of the registry: --format's help line. */
static int format_names(aa_buf *out)
{
	return aa_format_list(out, ", ");
}

static void print_usage(FILE *f)
{
	aa_buf u = AA_BUF_INIT;

	cli_usage(&u, synopsis, options, NOPTS);
	if (u.ptr)
		fputs(u.ptr, f);
	aa_buf_free(&u);
}

/* "unknown format 'x' (auto, companion, ...)": a bad value (129). */
static int set_format(cli_parser *p, const cli_option *opt, const char *arg,
		      int unset)
{
	cli *c = p->target;
	int f = aa_format_from_name(arg);
	aa_buf names = AA_BUF_INIT;

	(void)opt;
	(void)unset;
	if (f >= 0) {
		c->o.parse.format = (aa_format)f;
		return CLI_OK;
	}
	aa_format_list(&names, ", ");
	aa_buf_clear(&p->err);
	aa_buf_printf(&p->err, "unknown format %s (%s)",
		      aa_qtext(arg, strlen(arg), 200), names.ptr ? names.ptr : "");
	aa_buf_free(&names);
	return CLI_USAGE;
}

/* --strip=<n>, -p<n>: n is digits only, as git's -p<n>. */
static int set_strip(cli_parser *p, const cli_option *opt, const char *arg,
		     int unset)
{
	cli *c = p->target;
	const char *s = arg;
	long n = 0;

	(void)opt;
	(void)unset;
	for (; *s >= '0' && *s <= '9' && n <= 100000; s++)
		n = n * 10 + (*s - '0');
	if (s == arg || *s || n > 100000) {
		aa_buf_clear(&p->err);
		aa_buf_printf(&p->err, "option '%s' expects a number of leading "
			      "components (not %s)", cli_option_name(p, opt),
			      aa_qtext(arg, strlen(arg), 200));
		return CLI_USAGE;
	}
	c->o.parse.strip_given = 1;
	c->o.parse.strip = (int)n;
	return CLI_OK;
}

/*
 * --include=<pattern>, --exclude=<pattern>: one more rule, in the order
 * given (the first that matches a path decides, as git apply's).
 */
static int add_rule(cli_parser *p, const cli_option *opt, const char *arg,
		    int unset)
{
	cli *c = p->target;

	(void)unset;
	c->rules[c->nrules].pattern = arg;
	c->rules[c->nrules].include = opt->id == OPT_INCLUDE;
	c->nrules++;
	return CLI_OK;
}

/*
 * -q and -v set one verbosity, the last given counts (git apply -v -q
 * is quiet, -q -v verbose); --no-quiet and --no-verbose take back their
 * own option only.
 */
static int set_verbosity(cli_parser *p, const cli_option *opt,
			 const char *arg, int unset)
{
	cli *c = p->target;
	int quiet = opt->id == OPT_QUIET;

	(void)arg;
	if (unset) {
		if (quiet)
			c->report.quiet = 0;
		else
			c->verbose = 0;
		return CLI_OK;
	}
	c->report.quiet = quiet;
	c->verbose = !quiet;
	return CLI_OK;
}

/* --color: always; --color=<when>; --no-color: never. */
static int set_color(cli_parser *p, const cli_option *opt, const char *arg,
		     int unset)
{
	cli *c = p->target;

	(void)opt;
	if (unset)
		c->color_when = AA_COLOR_NEVER;
	else if (!arg)
		c->color_when = AA_COLOR_ALWAYS;
	else if (aa_color_parse_when(arg, &c->color_when) < 0) {
		aa_buf_clear(&p->err);
		aa_buf_printf(&p->err, "option `color' expects \"always\", \"auto\", or \"never\" (not '%s')",
			      arg);
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* -h, --help: the usage on standard output (exit 129, as git). */
static int show_help(cli_parser *p, const cli_option *opt, const char *arg,
		     int unset)
{
	(void)p;
	(void)opt;
	(void)arg;
	(void)unset;
	print_usage(stdout);
	return CLI_HELP;
}

/* The Makefile's AA_VERSION (git describe), given to this file alone. */
#ifndef AA_VERSION
#define AA_VERSION "unknown"
#endif

/* --version: "git ai-apply version <v>" on standard output, exit 0 (git's). */
static int show_version(cli_parser *p, const cli_option *opt, const char *arg,
			int unset)
{
	(void)p;
	(void)opt;
	(void)arg;
	(void)unset;
	printf("git ai-apply version %s\n", AA_VERSION);
	return CLI_DONE;
}

/* --git-completion-helper: what bash's __gitcomp_builtin offers. */
static int show_completion(cli_parser *p, const cli_option *opt,
			   const char *arg, int unset)
{
	aa_buf list = AA_BUF_INIT;

	(void)p;
	(void)opt;
	(void)arg;
	(void)unset;
	cli_completion_list(&list, options, NOPTS);
	if (list.ptr)
		fputs(list.ptr, stdout);
	aa_buf_free(&list);
	return CLI_DONE;
}

/* ---- after the options: the rules between them ---- */

/* The library's rules (aa_apply_opts_check), said as the command line's. */
static void check_library_rules(cli *c, cli_parser *p)
{
	aa_diags d = AA_DIAGS_INIT;
	size_t i;

	if (c->each)
		aa_apply_each_opts_check(&c->o, &d);
	else
		aa_apply_opts_check(&c->o, &d);
	for (i = 0; i < d.n; i++)
		if (d.v[i].level == AA_DIAG_ERROR)
			cli_fatal(p, d.v[i].msg);
	aa_diags_free(&d);
}

/*
 * Reports as previews, as git apply --stat: --stat, --numstat, --summary
 * and --diff alone land nothing; they run the --check path (the index is
 * the base, nothing is written, not even objects) and print what would
 * land. --apply lands as well, in the mode chosen. --json is the
 * report of a landing, not a preview, and goes with none of them (the
 * table says so).
 */
static void check_preview(cli *c, cli_parser *p)
{
	if (!c->report.show || c->apply || c->fatal.nerrors ||
	    c->recover || c->list || c->review || c->undo)
		return;
	if (c->o.land.mode == AA_LAND_BRANCH)
		cli_fatal(p, "a preview (--stat, --numstat, --summary or --diff without --apply) cannot be used with --branch, as --check cannot: add --apply to land it");
	else if (c->patch)
		cli_fatal(p, "--patch lands what is chosen: add --apply to a --stat, --numstat, --summary or --diff report");
	else
		c->o.land.mode = AA_LAND_CHECK;
}

/* The answer is read from standard input: no file, or "-". */
static int answer_on_stdin(const cli *c)
{
	size_t i;

	for (i = 0; i < c->nfiles; i++)
		if (!strcmp(c->files[i], "-"))
			return 1;
	return !c->nfiles;
}

/*
 * -p with the answer on standard input: the keys come from the
 * terminal, as git add -p's editor and pager do, when there is one
 * (/dev/tty opens); else standard input, which the library refuses
 * (aa_apply_opts_check: "--patch reads its answers from standard input").
 */
static FILE *open_tty(cli *c)
{
	c->tty = fopen("/dev/tty", "r");
	return c->tty ? c->tty : stdin;
}

/*
 * What the options ask, once all are read: the conflicts of the table,
 * the library's rules, the previews; then the library's options.
 */
static void finish_args(cli *c, cli_parser *p)
{
	c->o.land.mode = (aa_land_mode)p->cmdmode;
	c->o.files = c->files;
	c->o.nfiles = c->nfiles;
	c->report.kind = c->json ? AA_REPORT_JSON : AA_REPORT_SUMMARY;
	c->o.parse.rules = c->rules;
	c->o.parse.nrules = c->nrules;
	if (c->patch) {
		/* -p asks on standard input: its answers, one a line */
		c->sel.in = answer_on_stdin(c) ? open_tty(c) : stdin;
		c->sel.out = stdout;
		c->sel.color = &c->color;
		c->o.select = &c->sel;
	}
	if (c->nfiles)
		p->given |= B(INPUT);
	if (c->nfiles > 1)
		p->given |= B(INPUTS);
	cli_check_conflicts(p);
	check_library_rules(c, p);
	check_preview(c, p);
	/* --check predicts the landing's exit status: a conflict is exit 1 */
	if (c->o.land.mode == AA_LAND_CHECK)
		c->o.plan.threeway = 0;
	c->sel.mode = c->o.land.mode;
}

/* A usage error: the error, a blank line, the usage (129). */
static int die_usage(const cli_parser *p)
{
	fprintf(stderr, "error: %s\n\n", p->err.ptr ? p->err.ptr : "out of memory");
	print_usage(stderr);
	return ARGS_USAGE;
}

static int parse_args(cli *c, int argc, char **argv)
{
	cli_parser p = { options, NOPTS, c, 0, 0, NULL, AA_BUF_INIT, &c->fatal };
	int i, r = CLI_OK, only_files = 0;

	c->files = calloc((size_t)argc + 1, sizeof(*c->files));
	c->rules = calloc((size_t)argc + 1, sizeof(*c->rules));
	if (!c->files || !c->rules) {
		fputs("fatal: out of memory\n", stderr);
		return ARGS_FATAL;
	}
	for (i = 1; i < argc && r == CLI_OK; i++) {
		const char *a = argv[i];

		if (only_files || a[0] != '-' || !strcmp(a, "-"))
			c->files[c->nfiles++] = a;
		else if (!strcmp(a, "--"))
			only_files = 1;
		else
			r = cli_parse_option(&p, argc, argv, &i);
	}
	if (r == CLI_OK)
		finish_args(c, &p);
	else if (r == CLI_USAGE)
		die_usage(&p);
	cli_parser_free(&p);
	return r == CLI_HELP ? ARGS_HELP : r == CLI_DONE ? ARGS_DONE :
	       r == CLI_USAGE ? ARGS_USAGE :
	       c->fatal.nerrors ? ARGS_FATAL : ARGS_OK;
}

/* ---- --strict deletions: ask on a terminal ---- */

static int confirm_deletions(const char *const *paths, size_t n,
			     void *payload)
{
	FILE *tty;
	size_t i;
	int yes = 1;

	(void)payload;
	if (!isatty(STDERR_FILENO) || !(tty = fopen("/dev/tty", "r+")))
		return 0;
	for (i = 0; i < n && yes; i++) {
		char answer[16] = "";

		fprintf(tty, "Delete %s? [y/N] ", aa_qpath(paths[i]));
		fflush(tty);
		yes = fgets(answer, sizeof(answer), tty) &&
		      (answer[0] == 'y' || answer[0] == 'Y');
	}
	fclose(tty);
	return yes;
}

/* ---- main ---- */

/*
 * The answer comes from standard input and that is a terminal: say how
 * to paste it and end it, on standard error, before waiting for it
 * (git commit says "Waiting for your editor" the same way). Nothing
 * with -q, nor when standard input is a file or a pipe.
 */
static void hint_stdin(const cli *c)
{
	size_t i;
	int from_stdin = !c->nfiles;

	for (i = 0; i < c->nfiles; i++)
		from_stdin |= !strcmp(c->files[i], "-");
	if (from_stdin && !c->report.quiet && isatty(STDIN_FILENO))
		fputs("reading the answer from standard input: paste it, then "
		      "press Ctrl-D on an empty line\n", stderr);
}

static const char *mode_name(aa_land_mode m)
{
	static const char *names[] = { "index", "cached", "branch", "check" };

	return names[m];
}

/*
 * A run that stopped before it started (options, repository, inputs):
 * each error as git's die() says it, and with --json the report too.
 */
static int print_stopped(const cli *c, const aa_diags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		aa_buf line = AA_BUF_INIT;

		if (d->v[i].level != AA_DIAG_ERROR)
			continue;
		if (aa_diag_format(&d->v[i], &line) == 0 && line.ptr)
			fprintf(stderr, "fatal: %s\n", line.ptr + strlen("error: "));
		aa_buf_free(&line);
	}
	if (c->report.kind == AA_REPORT_JSON)
		aa_report_stopped(stdout, d, &c->report);
	return EXIT_FATAL;
}

static int run(cli *c, git_repository *repo)
{
	aa_apply_result *res;
	int code;

	c->o.confirm_deletions = confirm_deletions;
	aa_apply(repo, &c->o, &res);
	if (aa_apply_result_stopped(res)) {
		code = print_stopped(c, aa_apply_result_diags(res));
	} else {
		if (c->verbose)
			aa_report_result_verbose(stderr, res);
		aa_report_diags_color(stderr, aa_apply_result_diags(res),
				      &c->err_color);
		aa_report_result(stdout, res, &c->report);
		code = aa_apply_exit_code(aa_apply_result_outcome(res));
	}
	aa_apply_result_free(res);
	return code;
}

/* ---- --each: one suggestion branch per input ---- */

/* One suggestion's messages and report (--json: an array element). */
static void print_suggestion(const cli *c, aa_apply_result *one,
			     const char *branch, size_t nth)
{
	aa_report_opts report = c->report;

	report.branch = branch;
	if (c->verbose)
		aa_report_result_verbose(stderr, one);
	report.next = NULL; /* one closing line for the set */
	aa_report_diags_color(stderr, aa_apply_result_diags(one), &c->err_color);
	if (report.kind == AA_REPORT_JSON && nth)
		fputs(",\n", stdout);
	aa_report_result(stdout, one, &report);
}

/* The branches of the suggestions that landed, in out; their count. */
static size_t landed_branches(aa_each_result *res, size_t n, const char **out)
{
	size_t i, k = 0;

	for (i = 0; out && i < n; i++)
		if (aa_apply_result_outcome(aa_each_result_get(res, i)) ==
		    AA_OUT_APPLIED)
			out[k++] = aa_each_result_branch(res, i);
	return k;
}

/*
 * --each (src/workflow/each.c lands them): input i on <branch>-<i>. Exit 0 when
 * every one landed, else the worst status (128 over 1). --json:
 * {"suggestions": [report, ...], "landed": n, "failed": n, "written",
 * "next"}; else one closing line for the set on standard error.
 */
static int run_each(cli *c, git_repository *repo)
{
	aa_each_result *res;
	size_t i, n, failed, nlanded;
	const char **landed;
	int code;

	code = aa_apply_each(repo, &c->o, &res);
	n = aa_each_result_count(res);
	failed = aa_each_result_failed(res);
	if (!n) {
		code = print_stopped(c, aa_each_result_diags(res));
		aa_each_result_free(res);
		return code;
	}
	if (c->report.kind == AA_REPORT_JSON)
		fputs("{\n\"suggestions\": [\n", stdout);
	for (i = 0; i < n; i++)
		print_suggestion(c, aa_each_result_get(res, i),
				 aa_each_result_branch(res, i), i);
	aa_report_diags_color(stderr, aa_each_result_diags(res), &c->err_color);
	/* out of memory: the set's closing line names no branch */
	landed = calloc(n, sizeof(*landed));
	nlanded = landed_branches(res, n, landed);
	if (c->report.kind == AA_REPORT_JSON) {
		printf("],\n\"landed\": %zu,\n\"failed\": %zu,\n",
		       n - failed, failed);
		aa_report_each_next_json(stdout, landed, nlanded);
		fputs("\n}\n", stdout);
	} else if (failed && !c->report.quiet && failed == n)
		fprintf(stderr, n == 1 ? "the suggestion failed\n" :
			"all %zu suggestions failed\n", n);
	else if (failed && !c->report.quiet)
		fprintf(stderr, "%zu of %zu suggestions failed; the others landed\n",
			failed, n);
	if (c->report.kind != AA_REPORT_JSON && c->report.next) {
		fflush(stdout);
		aa_report_each_next(c->report.next, landed, nlanded,
				    c->report.no_advice);
	}
	free(landed);
	aa_each_result_free(res);
	return code;
}

/* --list [<pattern>]: the suggestion branches; 128 when one cannot be read. */
static int run_list(cli *c, git_repository *repo)
{
	aa_suggestion *v = NULL;
	aa_diags d = AA_DIAGS_INIT;
	size_t n = 0;
	int r = aa_list_suggestions(repo, c->nfiles ? c->files[0] : NULL, &v,
				    &n, &d);

	aa_report_diags_color(stderr, &d, &c->err_color);
	aa_report_suggestions(stdout, v, n, &d,
			      c->report.kind == AA_REPORT_JSON);
	aa_suggestions_free(v, n);
	aa_diags_free(&d);
	return r < 0 ? EXIT_FATAL : 0;
}

/* --review: the staged AI change; 128 when it cannot be shown. */
static int run_review(cli *c, git_repository *repo)
{
	aa_diags d = AA_DIAGS_INIT;
	int r = aa_review_show(repo, stdout, c->report.kind == AA_REPORT_JSON,
			       &c->color, &d);

	aa_report_diags_color(stderr, &d, &c->err_color);
	aa_diags_free(&d);
	return r < 0 ? EXIT_FATAL : 0;
}

/* --undo [--check]: 0 undone, 1 refused or nothing to undo, 128 fatal. */
static int run_undo(cli *c, git_repository *repo)
{
	aa_diags d = AA_DIAGS_INIT;
	int r = aa_undo(repo, c->o.land.mode == AA_LAND_CHECK,
			c->report.quiet ? NULL : stdout, &d);

	aa_report_diags_color(stderr, &d, &c->err_color);
	aa_diags_free(&d);
	return r == AA_FATAL ? EXIT_FATAL : r ? 1 : 0;
}

/* -C, then the repository; 0, or -1 with the error in c->fatal. */
static int open_repository(cli *c, git_repository **repo)
{
	if (c->chdir_to && chdir(c->chdir_to) < 0)
		return aa_error(&c->fatal, (aa_pos){ NULL, 0 }, NULL,
				"cannot change to '%s': %s", c->chdir_to,
				strerror(errno));
	/* --list reads refs only: a bare repository will do (--undo: the
	 * recorded landing's mode decides) */
	if (aa_apply_open_repository(repo, c->list ? AA_LAND_BRANCH :
				     c->undo ? AA_LAND_CHECK :
				     c->o.land.mode, &c->fatal) < 0)
		return -1;
	/* git -c <name>=<value>: libgit2 does not read them itself */
	return aa_config_add_command_line(*repo, &c->fatal) < 0 ? -1 : 0;
}

/*
 * The closing line of a run (what was written, the next step) goes to
 * standard error, as git's advice does; -q says none of it, and
 * advice.aiApplyNextStep=false keeps what was written and drops the
 * next step (git's advice.* convention).
 */
static void set_closing_line(cli *c, git_repository *repo)
{
	git_config *cfg = NULL;
	int on = 1;

	c->report.next = c->report.quiet ? NULL : stderr;
	if (git_repository_config_snapshot(&cfg, repo) == 0 &&
	    git_config_get_bool(&on, cfg, "advice.aiApplyNextStep") < 0)
		on = 1;
	git_config_free(cfg);
	git_error_clear();
	c->report.no_advice = !on;
}

/*
 * Every run first settles the suggestion refs of --branch/--each runs
 * that were killed (aa_apply_recover_refs): their locks, both refs or
 * neither, their pack's keep. Said on standard error; a failure is
 * fatal for --recover only (the run's own ref update then meets it).
 */
static int refs_recovered;

static int recover_refs(cli *c, git_repository *repo)
{
	aa_diags d = AA_DIAGS_INIT;
	int r = aa_apply_recover_refs(repo, &d);

	aa_report_diags_color(stderr, &d, &c->err_color);
	aa_diags_free(&d);
	refs_recovered = r > 0;
	return r < 0 ? -1 : 0;
}

/* --recover: finish or undo what a killed run left. */
static int run_recover(git_repository *repo, const aa_color *err_color)
{
	aa_diags d = AA_DIAGS_INIT;
	int r = aa_apply_recover(repo, &d);

	aa_report_diags_color(stderr, &d, err_color);
	aa_diags_free(&d);
	if (r == 1 && !refs_recovered)
		puts("nothing to recover");
	return r < 0 ? EXIT_FATAL : 0;
}

/*
 * A signal that ends us removes the index lock we hold (and a journal
 * that records no change yet), then ends us as it would have. The
 * landing's critical section holds these signals back (src/land/journal.c).
 */
static void on_fatal_signal(int sig)
{
	aa_apply_emergency_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_cleanup(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	/* a file size limit is then a write error (EFBIG), not a silent death */
	signal(SIGXFSZ, SIG_IGN);
	atexit(aa_apply_emergency_cleanup);
}

/* ---- mcp: the MCP server (src/mcp/) ---- */

/*
 * "git ai-apply mcp [-C <dir>]" (or "-C <dir> mcp"): the index of the
 * word mcp, or 0 when the command line is not the server's. An answer
 * file named mcp is given as ./mcp or after --.
 */
static int mcp_word(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "mcp"))
		return 1;
	if (argc >= 4 && !strcmp(argv[1], "-C") && !strcmp(argv[3], "mcp"))
		return 3;
	return 0;
}

/* The server's own options: -C <dir> (before or after mcp), -h. */
static int mcp_args(int argc, char **argv, int word, const char **dir)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (i == word)
			continue;
		if (!strcmp(argv[i], "-C") && i + 1 < argc)
			*dir = argv[++i];
		else if (!strncmp(argv[i], "-C", 2) && argv[i][2])
			*dir = argv[i] + 2;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs("usage: git ai-apply mcp [-C <dir>]\n", stdout);
			return ARGS_HELP;
		} else {
			fprintf(stderr, "error: unknown argument '%s'\n\n"
				"usage: git ai-apply mcp [-C <dir>]\n", argv[i]);
			return ARGS_USAGE;
		}
	}
	return ARGS_OK;
}

/*
 * The server: standard input and output carry the protocol and nothing
 * else; our own messages go to standard error. A client that goes away
 * is a write error, not SIGPIPE's death.
 */
static int run_mcp(int argc, char **argv, int word)
{
	aa_mcp_opts mo = { NULL, AA_VERSION, stderr };
	aa_diags d = AA_DIAGS_INIT;
	const char *dir = NULL;
	int code = mcp_args(argc, argv, word, &dir);

	if (code != ARGS_OK)
		return EXIT_USAGE;
	git_libgit2_init();
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE,
			 (size_t)1 << 20);
	install_cleanup();
	signal(SIGPIPE, SIG_IGN);
	if (dir && chdir(dir) < 0)
		aa_error(&d, (aa_pos){ NULL, 0 }, NULL, "cannot change to '%s': %s", dir,
			 strerror(errno));
	else if (aa_apply_open_repository(&mo.repo, AA_LAND_BRANCH, &d) == 0 &&
		 aa_config_add_command_line(mo.repo, &d) == 0)
		aa_config_quote_path(mo.repo);
	if (d.nerrors) {
		aa_report_diags(stderr, &d);
		code = EXIT_FATAL;
	} else
		code = aa_mcp_serve(stdin, stdout, &mo) < 0 ? EXIT_FATAL : 0;
	git_repository_free(mo.repo);
	git_libgit2_shutdown();
	aa_diags_free(&d);
	return code;
}

int main(int argc, char **argv)
{
	cli c;
	git_repository *repo = NULL;
	int code, r;

	if (mcp_word(argc, argv))
		return run_mcp(argc, argv, mcp_word(argc, argv));
	memset(&c, 0, sizeof(c));
	c.color_when = AA_COLOR_UNSET;
	r = parse_args(&c, argc, argv);
	c.report.mode = mode_name(c.o.land.mode);
	c.report.branch = c.o.land.branch;
	if (r != ARGS_OK) {
		/* git: -h and usage errors exit 129, die() 128 */
		code = r == ARGS_FATAL ? print_stopped(&c, &c.fatal) :
		       r == ARGS_DONE ? 0 : EXIT_USAGE;
		aa_diags_free(&c.fatal);
		free(c.files);
		free(c.rules);
		if (c.tty)
			fclose(c.tty);
		return code;
	}
	/* Loads no CA bundle: see src/cli/no-ca-bundle.c. */
	git_libgit2_init();
	/*
	 * libgit2 re-hashes every object it reads; git does not (fsck does
	 * that). On a large file it is a fifth of the whole run.
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	/*
	 * libgit2 caches no tree over 4 KiB: a root tree of 1,000 entries
	 * was read and parsed again at every lookup (each attribute lookup
	 * of --each's suggestions). Trees up to 1 MiB stay cached.
	 */
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE,
			 (size_t)1 << 20);
	install_cleanup();
	if (open_repository(&c, &repo) < 0) {
		code = print_stopped(&c, &c.fatal);
		goto out;
	}
	aa_config_quote_path(repo);
	aa_color_setup(&c.color, repo, c.color_when, STDOUT_FILENO);
	aa_color_setup(&c.err_color, repo, c.color_when, STDERR_FILENO);
	c.report.color = &c.color;
	set_closing_line(&c, repo);
	if (recover_refs(&c, repo) < 0 && c.recover)
		code = EXIT_FATAL;
	else if (c.recover)
		code = run_recover(repo, &c.err_color);
	else if (c.list)
		code = run_list(&c, repo);
	else if (c.review)
		code = run_review(&c, repo);
	else if (c.undo)
		code = run_undo(&c, repo);
	else {
		hint_stdin(&c);
		code = c.each ? run_each(&c, repo) : run(&c, repo);
	}
out:
	git_repository_free(repo);
	git_libgit2_shutdown();
	aa_diags_free(&c.fatal);
	free(c.files);
	free(c.rules);
	if (c.tty)
		fclose(c.tty);
	return code;
}
