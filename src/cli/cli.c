/*
 * git ai-apply: the command line. Reads the inputs, parses them into one
 * change set, plans it over the base and lands it (or only checks it).
 * The only place that exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <git2.h>

#include "aiapply.h"

#define EXIT_FATAL AA_APPLY_EXIT_FATAL
#define EXIT_USAGE 129

/*
 * What parsing the command line found: go on, print the usage (-h), or
 * stop -- fatal as git's die() (128: options that cannot go together),
 * or a usage error as git's usage_with_options() (129: an unknown option
 * or a bad value, with the usage).
 */
enum {
	ARGS_OK = 0,
	ARGS_HELP = 1,
	ARGS_FATAL = -1,
	ARGS_USAGE = -2
};

static const char usage_text[] =
	"usage: git ai-apply [--cached | --branch=<name> [--each] | --check] [--format=<name>]\n"
	"                    [--strict] [--base=<rev>] [-m <msg>] [--force] [--allow-delete]\n"
	"                    [--3way] [-p] [--stat] [--numstat] [--summary] [--diff] [--apply]\n"
	"                    [--json] [-q] [-C <dir>] [<file>...]\n"
	"   or: git ai-apply --recover [-C <dir>]\n"
	"   or: git ai-apply --list [--json] [-C <dir>] [<pattern>]\n"
	"   or: git ai-apply --review [--json] [-C <dir>]\n"
	"\n"
	"    --cached           apply to the index only\n"
	"    --branch=<name>    commit the change on a new branch; index, work tree\n"
	"                       and HEAD stay untouched\n"
	"    --each             with --branch: each input on its own branch\n"
	"                       <name>-1, <name>-2, ... from the same base\n"
	"    --check            validate only; write nothing\n"
	"    --format=<name>    %s\n"
	"    --strict           enforce the unified diff contract exactly\n"
	"    --base=<rev>       base commit for --branch (default HEAD)\n"
	"    -m <msg>           commit message for --branch\n"
	"    --force            replace an existing branch\n"
	"    --allow-delete     confirm deletions under --strict\n"
	"    -3, --3way         write a conflicting merge with conflict markers and\n"
	"                       index stages 1-3 instead of refusing (exit status 1)\n"
	"    -p, --patch        choose the hunks to land, as git add -p (answers\n"
	"                       on standard input; the answer given as a file)\n"
	"    --stat             preview: a diffstat of what would land (git apply's)\n"
	"    --numstat          preview: added, removed and path, tab-separated\n"
	"    --summary          preview: creations, deletions, renames, mode changes\n"
	"    --diff             preview: the change as a git diff\n"
	"    --apply            with a preview option: land as well, and report\n"
	"    --json             report the landing (or --check) in JSON\n"
	"    --color[=<when>]   color the output: always, never or auto\n"
	"    -q, --quiet        no summary\n"
	"    --recover          finish or undo a landing that was interrupted\n"
	"    --list             the suggestion branches, whether each merges into HEAD\n"
	"    --review           the staged AI change, tolerant placements marked\n";

/*
 * The usage text with the format names of the registry, wrapped under
 * the option's description column.
 */
static void print_usage(FILE *f)
{
	aa_buf names = AA_BUF_INIT, wrapped = AA_BUF_INIT;
	const char *p, *sp;
	size_t col = 23;

	if (aa_format_list(&names, ", ") < 0 || !names.ptr) {
		fprintf(f, usage_text, "(out of memory)");
		aa_buf_free(&names);
		return;
	}
	for (p = names.ptr; *p; p = *sp ? sp + 1 : sp) {
		size_t w;

		sp = strchr(p, ' ');
		if (!sp)
			sp = p + strlen(p);
		w = (size_t)(sp - p);
		if (col + w > 78 && col > 23) {
			aa_buf_puts(&wrapped, "\n                       ");
			col = 23;
		} else if (col > 23) {
			aa_buf_putc(&wrapped, ' ');
			col++;
		}
		aa_buf_put(&wrapped, p, w);
		col += w;
	}
	fprintf(f, usage_text, wrapped.ptr ? wrapped.ptr : "");
	aa_buf_free(&wrapped);
	aa_buf_free(&names);
}

typedef struct cli {
	aa_land_opts land;
	aa_parse_opts parse;
	aa_plan_opts plan;
	aa_report_opts report;
	const char **files;
	size_t nfiles;
	const char *chdir_to;
	int recover;          /* --recover */
	int each;             /* --each: one suggestion branch per input */
	int list;             /* --list [<pattern>] */
	int review;           /* --review */
	int patch;            /* -p, --patch */
	int apply;            /* --apply: a report lands as well */
	aa_color_when color_when; /* --color[=<when>], --no-color */
	aa_color color;       /* standard output's colors */
	aa_color err_color;   /* standard error's colors */
	aa_diags fatal;       /* what stops the run before it starts */
} cli;

/* An unknown option or a bad value: the error, then the usage (129). */
static int die_usage(const char *fmt, const char *arg)
{
	fputs("error: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n\n", stderr);
	print_usage(stderr);
	return ARGS_USAGE;
}

/*
 * Options that cannot go together: git's die() (128). Recorded, not
 * printed: parsing goes on so that a --json later on the line still
 * gets its report (print_stopped).
 */
static int die_fatal(cli *c, const char *msg)
{
	aa_error(&c->fatal, (aa_pos){ NULL, 0 }, NULL, "%s", msg);
	return 0;
}

/*
 * "unknown format 'x' (auto, companion, ...)": a bad value (129), with
 * the registry's names.
 */
static int die_unknown_format(const char *name)
{
	aa_buf names = AA_BUF_INIT;

	aa_format_list(&names, ", ");
	fprintf(stderr, "error: unknown format %s (%s)\n\n",
		aa_qtext(name, strlen(name), 200), names.ptr ? names.ptr : "");
	print_usage(stderr);
	aa_buf_free(&names);
	return ARGS_USAGE;
}

/* Matches "--name=value" or "--name value"; advances *i for the latter. */
static int opt_value(int argc, char **argv, int *i, const char *name,
		     const char **value)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n))
		return 0;
	if (argv[*i][n] == '=') {
		*value = argv[*i] + n + 1;
		return 1;
	}
	if (argv[*i][n] != '\0')
		return 0;
	if (*i + 1 >= argc)
		return -1;
	*value = argv[++*i];
	return 1;
}

static int set_mode(cli *c, aa_land_mode mode, const char *name)
{
	static const char *mode_names[] = { NULL, "--cached", "--branch", "--check" };

	if (c->land.mode != AA_LAND_INDEX && c->land.mode != mode) {
		aa_error(&c->fatal, (aa_pos){ NULL, 0 }, NULL,
			 "options '%s' and '%s' cannot be used together",
			 mode_names[c->land.mode], name);
		return 0;
	}
	c->land.mode = mode;
	return 0;
}

static int parse_value_opt(cli *c, int argc, char **argv, int *i)
{
	const char *v = NULL;
	int r;

	if ((r = opt_value(argc, argv, i, "--branch", &v)) != 0) {
		if (r < 0 || !*v)
			return die_usage("option '%s' needs a branch name", "--branch");
		c->land.branch = v;
		return set_mode(c, AA_LAND_BRANCH, "--branch");
	}
	if ((r = opt_value(argc, argv, i, "--format", &v)) != 0) {
		int f = r < 0 ? -1 : aa_format_from_name(v);

		if (f < 0)
			return die_unknown_format(r < 0 ? "" : v);
		c->parse.format = (aa_format)f;
		return 0;
	}
	if ((r = opt_value(argc, argv, i, "--base", &v)) != 0) {
		if (r < 0)
			return die_usage("option '%s' needs a revision", "--base");
		c->land.base = v;
		return 0;
	}
	if ((r = opt_value(argc, argv, i, "--message", &v)) != 0 ||
	    (r = opt_value(argc, argv, i, "-m", &v)) != 0) {
		/* as git commit: an empty message is no message */
		if (r < 0 || !*v)
			return die_usage("option '%s' needs a message", "-m");
		c->land.message = v;
		return 0;
	}
	if ((r = opt_value(argc, argv, i, "-C", &v)) != 0) {
		if (r < 0)
			return die_usage("option '%s' needs a directory", "-C");
		c->chdir_to = v;
		return 0;
	}
	return die_usage("unknown option '%s'", argv[*i]);
}

/* The AA_SHOW_* bit of "stat", "numstat", "summary", "diff"; else 0. */
static unsigned report_flag(const char *a)
{
	static const struct { const char *name; unsigned bit; } v[] = {
		{ "stat", AA_SHOW_STAT }, { "numstat", AA_SHOW_NUMSTAT },
		{ "summary", AA_SHOW_SUMMARY }, { "diff", AA_SHOW_DIFF },
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(a, v[i].name))
			return v[i].bit;
	return 0;
}

/* --no-<option>, as git's parse-options gives every boolean one. */
static int parse_negated(cli *c, const char *a)
{
	if (!strcmp(a, "--no-each"))
		c->each = 0;
	else if (!strcmp(a, "--no-review"))
		c->review = 0;
	else if (!strcmp(a, "--no-strict"))
		c->parse.strict = 0;
	else if (!strcmp(a, "--no-force"))
		c->land.force = 0;
	else if (!strcmp(a, "--no-allow-delete"))
		c->plan.allow_delete = 0;
	else if (!strcmp(a, "--no-json"))
		c->report.kind = AA_REPORT_SUMMARY;
	else if (!strncmp(a, "--no-", 5) && report_flag(a + 5))
		c->report.show &= ~report_flag(a + 5);
	else if (!strcmp(a, "--no-apply"))
		c->apply = 0;
	else if (!strcmp(a, "--no-quiet"))
		c->report.quiet = 0;
	else if (!strcmp(a, "--no-3way"))
		c->plan.threeway = 0;
	else if (!strcmp(a, "--no-patch"))
		c->patch = 0;
	else if (!strcmp(a, "--no-color"))
		c->color_when = AA_COLOR_NEVER;
	else
		return 1; /* not a flag */
	return 0;
}

static int parse_flag(cli *c, const char *a)
{
	if (!strcmp(a, "--cached"))
		return set_mode(c, AA_LAND_CACHED, a);
	if (!strcmp(a, "--check"))
		return set_mode(c, AA_LAND_CHECK, a);
	if (!strcmp(a, "--strict"))
		c->parse.strict = 1;
	else if (!strcmp(a, "--force") || !strcmp(a, "-f"))
		c->land.force = 1;
	else if (!strcmp(a, "--allow-delete"))
		c->plan.allow_delete = 1;
	else if (!strcmp(a, "--3way") || !strcmp(a, "-3"))
		c->plan.threeway = 1;
	else if (!strncmp(a, "--", 2) && report_flag(a + 2))
		c->report.show |= report_flag(a + 2);
	else if (!strcmp(a, "--apply"))
		c->apply = 1;
	else if (!strcmp(a, "--json"))
		c->report.kind = AA_REPORT_JSON;
	else if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
		c->report.quiet = 1;
	else if (!strcmp(a, "--recover"))
		c->recover = 1;
	else if (!strcmp(a, "--each"))
		c->each = 1;
	else if (!strcmp(a, "--list"))
		c->list = 1;
	else if (!strcmp(a, "--review"))
		c->review = 1;
	else if (!strcmp(a, "-p") || !strcmp(a, "--patch"))
		c->patch = 1;
	else if (!strcmp(a, "--color"))
		c->color_when = AA_COLOR_ALWAYS;
	else if (!strncmp(a, "--color=", 8)) {
		if (aa_color_parse_when(a + 8, &c->color_when) < 0)
			return die_usage("option `color' expects \"always\", \"auto\", or \"never\" (not '%s')",
					 a + 8);
	} else
		return parse_negated(c, a);
	return 0;
}

/*
 * -p asks its questions on standard input, so the answer must come from
 * a file; and it lands what is chosen, so it goes with no option that
 * lands nothing (--check), several times (--each), conflicts (--3way),
 * or speaks to a program (--json).
 */
static void check_patch(cli *c)
{
	size_t i;

	if (!c->patch)
		return;
	if (c->land.mode == AA_LAND_CHECK || c->each || c->plan.threeway ||
	    c->report.kind == AA_REPORT_JSON || c->recover || c->list || c->review)
		die_fatal(c, "--patch cannot be used with --check, --each, --3way, --json, --recover, --list or --review");
	for (i = 0; i < c->nfiles && strcmp(c->files[i], "-"); i++)
		;
	if (!c->nfiles || i < c->nfiles)
		die_fatal(c, "--patch reads its answers from standard input: give the AI's answer as a file, not on standard input");
}

/*
 * Reports as previews, as git apply --stat: --stat, --numstat, --summary
 * and --diff alone land nothing; they run the --check path (the index is
 * the base, nothing is written, not even objects) and print what would
 * land. --apply lands as well, in the mode chosen. --json is the
 * report of a landing, not a preview, and goes with none of them.
 */
static void check_preview(cli *c)
{
	if (c->report.show && c->report.kind == AA_REPORT_JSON)
		die_fatal(c, "--json cannot be used with --stat, --numstat, --summary or --diff");
	if (c->apply && c->land.mode == AA_LAND_CHECK)
		die_fatal(c, "options '--check' and '--apply' cannot be used together");
	if (!c->report.show || c->apply || c->fatal.nerrors ||
	    c->recover || c->list || c->review)
		return;
	if (c->land.mode == AA_LAND_BRANCH)
		die_fatal(c, "a preview (--stat, --numstat, --summary or --diff without --apply) cannot be used with --branch, as --check cannot: add --apply to land it");
	else if (c->patch)
		die_fatal(c, "--patch lands what is chosen: add --apply to a --stat, --numstat, --summary or --diff report");
	else
		c->land.mode = AA_LAND_CHECK;
}

static int parse_args(cli *c, int argc, char **argv)
{
	int i, only_files = 0;

	c->files = calloc((size_t)argc + 1, sizeof(*c->files));
	if (!c->files) {
		fputs("fatal: out of memory\n", stderr);
		return ARGS_FATAL;
	}
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		int r;

		if (only_files || a[0] != '-' || !strcmp(a, "-")) {
			c->files[c->nfiles++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_files = 1;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			print_usage(stdout);
			return ARGS_HELP;
		}
		r = parse_flag(c, a);
		if (r < 0)
			return r;
		if (r > 0 && (r = parse_value_opt(c, argc, argv, &i)) < 0)
			return r;
	}
	if (c->recover && (c->nfiles || c->land.mode != AA_LAND_INDEX))
		die_fatal(c, "--recover takes no input and no landing option");
	if (c->land.mode != AA_LAND_BRANCH &&
	    (c->land.base || c->land.message || c->land.force))
		die_fatal(c, "--base, -m and --force need --branch");
	if (c->list && (c->nfiles > 1 || c->land.mode != AA_LAND_INDEX ||
			c->each || c->recover))
		die_fatal(c, "--list takes one pattern at most and no landing option");
	if (c->review && (c->nfiles || c->land.mode != AA_LAND_INDEX ||
			  c->each || c->recover || c->list))
		die_fatal(c, "--review takes no input and no landing option");
	if (c->each && c->land.mode != AA_LAND_BRANCH)
		die_fatal(c, "--each needs --branch: each input lands on its own branch");
	if (c->plan.threeway && c->land.mode == AA_LAND_BRANCH)
		die_fatal(c, "--3way cannot be used with --branch: a branch never commits a conflict");
	check_patch(c);
	check_preview(c);
	/* --check predicts the landing's exit status: a conflict is exit 1 */
	if (c->land.mode == AA_LAND_CHECK)
		c->plan.threeway = 0;
	if (c->parse.strict && c->parse.format != AA_FORMAT_AUTO &&
	    c->parse.format != AA_FORMAT_DIFF)
		die_fatal(c, "--strict is the unified diff contract; it takes --format=diff only");
	return c->fatal.nerrors ? ARGS_FATAL : ARGS_OK;
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

/* The library's options from the command line's. */
static void apply_opts_of(const cli *c, aa_apply_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->land = c->land;
	o->parse = c->parse;
	o->plan = c->plan;
	o->files = c->files;
	o->nfiles = c->nfiles;
}

static int run(cli *c, git_repository *repo)
{
	aa_select_opts sel;
	aa_apply_opts o;
	aa_apply_result *res;
	int code;

	apply_opts_of(c, &o);
	o.confirm_deletions = confirm_deletions;
	if (c->patch) {
		sel.in = stdin;
		sel.out = stdout;
		sel.color = &c->color;
		sel.mode = c->land.mode;
		o.select = &sel;
	}
	aa_apply(repo, &o, &res);
	if (aa_apply_result_stopped(res)) {
		code = print_stopped(c, aa_apply_result_diags(res));
	} else {
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
	aa_report_diags_color(stderr, aa_apply_result_diags(one), &c->err_color);
	if (report.kind == AA_REPORT_JSON && nth)
		fputs(",\n", stdout);
	aa_report_result(stdout, one, &report);
}

/*
 * --each (src/workflow/each.c lands them): input i on <branch>-<i>. Exit 0 when
 * every one landed, else the worst status (128 over 1). --json:
 * {"suggestions": [report, ...], "landed": n, "failed": n}.
 */
static int run_each(cli *c, git_repository *repo)
{
	aa_apply_opts o;
	aa_each_result *res;
	size_t i, n, failed;
	int code;

	apply_opts_of(c, &o);
	code = aa_apply_each(repo, &o, &res);
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
	if (c->report.kind == AA_REPORT_JSON)
		printf("],\n\"landed\": %zu,\n\"failed\": %zu\n}\n",
		       n - failed, failed);
	else if (failed && !c->report.quiet && failed == n)
		fprintf(stderr, n == 1 ? "the suggestion failed\n" :
			"all %zu suggestions failed\n", n);
	else if (failed && !c->report.quiet)
		fprintf(stderr, "%zu of %zu suggestions failed; the others landed\n",
			failed, n);
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

/* -C, then the repository; 0, or -1 with the error in c->fatal. */
static int open_repository(cli *c, git_repository **repo)
{
	if (c->chdir_to && chdir(c->chdir_to) < 0)
		return aa_error(&c->fatal, (aa_pos){ NULL, 0 }, NULL,
				"cannot change to '%s': %s", c->chdir_to,
				strerror(errno));
	/* --list reads refs only: a bare repository will do */
	if (aa_apply_open_repository(repo, c->list ? AA_LAND_CHECK :
				     c->land.mode, &c->fatal) < 0)
		return -1;
	/* git -c <name>=<value>: libgit2 does not read them itself */
	return aa_config_add_command_line(*repo, &c->fatal) < 0 ? -1 : 0;
}

/*
 * Every run first settles the suggestion refs of --branch/--each runs
 * that were killed (src/land/refjournal.h): their locks, both refs or
 * neither, their pack's keep. Said on standard error; a failure is
 * fatal for --recover only (the run's own ref update then meets it).
 */
static int refs_recovered;

static int recover_refs(cli *c, git_repository *repo)
{
	aa_diags d = AA_DIAGS_INIT;
	int r = aa_refs_recover(repo, &d);

	aa_report_diags_color(stderr, &d, &c->err_color);
	aa_diags_free(&d);
	refs_recovered = r > 0;
	return r < 0 ? -1 : 0;
}

/* --recover: finish or undo what a killed run left. */
static int run_recover(git_repository *repo, const aa_color *err_color)
{
	aa_diags d = AA_DIAGS_INIT;
	int r = aa_recover(repo, &d);

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
	aa_guard_emergency_cleanup();
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
	atexit(aa_guard_emergency_cleanup);
}

int main(int argc, char **argv)
{
	cli c;
	git_repository *repo = NULL;
	int code, r;

	memset(&c, 0, sizeof(c));
	c.color_when = AA_COLOR_UNSET;
	r = parse_args(&c, argc, argv);
	c.report.mode = mode_name(c.land.mode);
	c.report.branch = c.land.branch;
	if (r != ARGS_OK) {
		/* git: -h and usage errors exit 129, die() 128 */
		code = r == ARGS_FATAL ? print_stopped(&c, &c.fatal) : EXIT_USAGE;
		aa_diags_free(&c.fatal);
		free(c.files);
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
	aa_color_setup(&c.color, repo, c.color_when, STDOUT_FILENO);
	aa_color_setup(&c.err_color, repo, c.color_when, STDERR_FILENO);
	c.report.color = &c.color;
	if (recover_refs(&c, repo) < 0 && c.recover)
		code = EXIT_FATAL;
	else if (c.recover)
		code = run_recover(repo, &c.err_color);
	else if (c.each)
		code = run_each(&c, repo);
	else if (c.list)
		code = run_list(&c, repo);
	else if (c.review)
		code = run_review(&c, repo);
	else
		code = run(&c, repo);
out:
	git_repository_free(repo);
	git_libgit2_shutdown();
	aa_diags_free(&c.fatal);
	free(c.files);
	return code;
}
