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
#include "aiapply/plan.h"
#include "aiapply/land.h"
#include "aiapply/report.h"
#include "journal.h"

#define EXIT_REJECTED 1
#define EXIT_FATAL 128
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
	"usage: git ai-apply [--cached | --branch=<name> | --check] [--format=<name>] [--strict]\n"
	"                    [--base=<rev>] [-m <msg>] [--force] [--allow-delete] [--3way]\n"
	"                    [--stat | --json | --diff] [-q] [-C <dir>] [<file>...]\n"
	"   or: git ai-apply --recover [-C <dir>]\n"
	"\n"
	"    --cached           apply to the index only\n"
	"    --branch=<name>    commit the change on a new branch; index, work tree\n"
	"                       and HEAD stay untouched\n"
	"    --check            validate only; write nothing\n"
	"    --format=<name>    %s\n"
	"    --strict           enforce the unified diff contract exactly\n"
	"    --base=<rev>       base commit for --branch (default HEAD)\n"
	"    -m <msg>           commit message for --branch\n"
	"    --force            replace an existing branch\n"
	"    --allow-delete     confirm deletions under --strict\n"
	"    -3, --3way         write a conflicting merge with conflict markers and\n"
	"                       index stages 1-3 instead of refusing (exit status 1)\n"
	"    --stat, --diff, --json   report as diffstat, git diff or JSON\n"
	"    -q, --quiet        no summary\n"
	"    --recover          finish or undo a landing that was interrupted\n";

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

/* Options that cannot go together: git's die() (128). */
static int die_fatal(const char *msg)
{
	fprintf(stderr, "fatal: %s\n", msg);
	return ARGS_FATAL;
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
		fprintf(stderr, "fatal: options '%s' and '%s' cannot be used together\n",
			mode_names[c->land.mode], name);
		return ARGS_FATAL;
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
		if (r < 0)
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

/* --no-<option>, as git's parse-options gives every boolean one. */
static int parse_negated(cli *c, const char *a)
{
	if (!strcmp(a, "--no-strict"))
		c->parse.strict = 0;
	else if (!strcmp(a, "--no-force"))
		c->land.force = 0;
	else if (!strcmp(a, "--no-allow-delete"))
		c->plan.allow_delete = 0;
	else if ((!strcmp(a, "--no-stat") && c->report.kind == AA_REPORT_STAT) ||
		 (!strcmp(a, "--no-json") && c->report.kind == AA_REPORT_JSON) ||
		 (!strcmp(a, "--no-diff") && c->report.kind == AA_REPORT_DIFF))
		c->report.kind = AA_REPORT_SUMMARY;
	else if (!strcmp(a, "--no-stat") || !strcmp(a, "--no-json") ||
		 !strcmp(a, "--no-diff"))
		; /* that report was not asked for: nothing to undo */
	else if (!strcmp(a, "--no-quiet"))
		c->report.quiet = 0;
	else if (!strcmp(a, "--no-3way"))
		c->plan.threeway = 0;
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
	else if (!strcmp(a, "--stat"))
		c->report.kind = AA_REPORT_STAT;
	else if (!strcmp(a, "--json"))
		c->report.kind = AA_REPORT_JSON;
	else if (!strcmp(a, "--diff"))
		c->report.kind = AA_REPORT_DIFF;
	else if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
		c->report.quiet = 1;
	else if (!strcmp(a, "--recover"))
		c->recover = 1;
	else
		return parse_negated(c, a);
	return 0;
}

static int parse_args(cli *c, int argc, char **argv)
{
	int i, only_files = 0;

	c->files = calloc((size_t)argc + 1, sizeof(*c->files));
	if (!c->files)
		return die_fatal("out of memory");
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
		return die_fatal("--recover takes no input and no landing option");
	if (c->land.mode != AA_LAND_BRANCH &&
	    (c->land.base || c->land.message || c->land.force))
		return die_fatal("--base, -m and --force need --branch");
	if (c->plan.threeway && c->land.mode == AA_LAND_BRANCH)
		return die_fatal("--3way cannot be used with --branch: a branch never commits a conflict");
	/* --check predicts the landing's exit status: a conflict is exit 1 */
	if (c->land.mode == AA_LAND_CHECK)
		c->plan.threeway = 0;
	if (c->parse.strict && c->parse.format != AA_FORMAT_AUTO &&
	    c->parse.format != AA_FORMAT_DIFF)
		return die_fatal("--strict is the unified diff contract; it takes --format=diff only");
	return ARGS_OK;
}

/* ---- inputs ---- */

typedef struct input_set {
	aa_input *v;
	char **bufs;
	char **dirs;
	size_t n;
} input_set;

static int read_stream(FILE *f, const char *name, aa_buf *out)
{
	char chunk[65536];
	struct stat st;
	size_t n;

	/* a file's size is known: one allocation of exactly that */
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size <= AA_MAX_INPUT_SIZE &&
	    aa_buf_grow(out, (size_t)st.st_size + 1) < 0) {
		fprintf(stderr, "fatal: %s: out of memory\n", name);
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (out->len + n > AA_MAX_INPUT_SIZE) {
			fprintf(stderr, "fatal: %s: input larger than %u bytes\n",
				name, AA_MAX_INPUT_SIZE);
			return -1;
		}
		if (aa_buf_put(out, chunk, n) < 0) {
			fprintf(stderr, "fatal: %s: out of memory\n", name);
			return -1;
		}
	}
	if (ferror(f)) {
		fprintf(stderr, "fatal: cannot read '%s': %s\n", name, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The input file's directory relative to the work tree root when the
 * file lies inside the work tree ("" at the top), else NULL.
 */
static char *dir_in_worktree(git_repository *repo, const char *file)
{
	const char *wd = git_repository_workdir(repo);
	char real_file[PATH_MAX], real_wd[PATH_MAX], *slash;
	size_t l;

	if (!wd || !realpath(file, real_file) || !realpath(wd, real_wd))
		return NULL;
	l = strlen(real_wd);
	if (strncmp(real_file, real_wd, l) || real_file[l] != '/')
		return NULL;
	slash = strrchr(real_file + l + 1, '/');
	if (!slash)
		return aa_strdup("");
	return aa_strndup(real_file + l + 1, (size_t)(slash - (real_file + l + 1)));
}

static int read_inputs(const cli *c, git_repository *repo, input_set *in)
{
	static const char *stdin_only[] = { "-" };
	const char **files = c->nfiles ? c->files : stdin_only;
	size_t n = c->nfiles ? c->nfiles : 1, i;

	in->v = calloc(n, sizeof(*in->v));
	in->bufs = calloc(n, sizeof(*in->bufs));
	in->dirs = calloc(n, sizeof(*in->dirs));
	if (!in->v || !in->bufs || !in->dirs)
		return -1;
	for (i = 0; i < n; i++) {
		aa_buf b = AA_BUF_INIT;
		int is_stdin = !strcmp(files[i], "-");
		FILE *f = is_stdin ? stdin : fopen(files[i], "rb");
		int r;

		if (!f) {
			fprintf(stderr, "fatal: cannot open '%s': %s\n", files[i],
				strerror(errno));
			return -1;
		}
		r = read_stream(f, files[i], &b);
		if (!is_stdin)
			fclose(f);
		in->n++;
		in->v[i].len = b.len;
		in->bufs[i] = aa_buf_detach(&b);
		if (r < 0)
			return -1;
		in->v[i].name = is_stdin ? "<stdin>" : files[i];
		in->v[i].data = in->bufs[i];
		if (!is_stdin)
			in->dirs[i] = dir_in_worktree(repo, files[i]);
		in->v[i].dir_in_worktree = in->dirs[i];
	}
	return 0;
}

static void free_inputs(input_set *in)
{
	size_t i;

	for (i = 0; i < in->n; i++) {
		free(in->bufs[i]);
		free(in->dirs[i]);
	}
	free(in->v);
	free(in->bufs);
	free(in->dirs);
}

/* Parses every input into one change set; 0, or -1 when rejected. */
static int parse_inputs(const cli *c, const input_set *in, aa_changeset *cs,
			aa_diags *d)
{
	size_t i;
	int r = 0;

	for (i = 0; i < in->n; i++) {
		size_t before = cs->n;
		int blocks = aa_parse_input(&in->v[i], &c->parse, cs, d);

		if (blocks < 0)
			r = -1;
		else if (blocks == 0 && cs->n == before)
			r = aa_error(d, (aa_pos){ in->v[i].name, 0 }, NULL,
				     "no change found in the input (no diff, file block or patch document)");
	}
	return r;
}

/* ---- --strict deletions: ask on a terminal ---- */

static int confirm_deletions(cli *c, const aa_changeset *cs)
{
	FILE *tty;
	size_t i;
	int yes = 1;

	if (c->plan.allow_delete || !c->parse.strict)
		return 0;
	for (i = 0; i < cs->n && cs->ops[i].kind != AA_OP_DELETE; i++)
		;
	if (i == cs->n || !isatty(STDERR_FILENO) || !(tty = fopen("/dev/tty", "r+")))
		return 0;
	for (i = 0; i < cs->n && yes; i++) {
		char answer[16] = "";

		if (cs->ops[i].kind != AA_OP_DELETE)
			continue;
		fprintf(tty, "Delete %s? [y/N] ", aa_qpath(cs->ops[i].path));
		fflush(tty);
		yes = fgets(answer, sizeof(answer), tty) &&
		      (answer[0] == 'y' || answer[0] == 'Y');
	}
	fclose(tty);
	c->plan.allow_delete = yes;
	return 0;
}

/* ---- main ---- */

static const char *mode_name(aa_land_mode m)
{
	static const char *names[] = { "index", "cached", "branch", "check" };

	return names[m];
}

/* "dir/" (libgit2's form of a work tree) names the directory "dir". */
static int same_dir(const char *slashed, const char *dir)
{
	size_t n = strlen(dir);

	return slashed && !strncmp(slashed, dir, n) &&
	       (!strcmp(slashed + n, "/") || !slashed[n]);
}

/*
 * libgit2 1.5 honours GIT_DIR and the other variables but refuses
 * GIT_WORK_TREE ("unimplemented"): take it out of the environment and set
 * the work tree ourselves, relative to the current directory as git does.
 */
static int open_from_env(git_repository **repo)
{
	const char *wt = getenv("GIT_WORK_TREE");
	char *saved = wt ? strdup(wt) : NULL;
	int r;

	if (wt && !saved)
		return -1;
	if (saved)
		unsetenv("GIT_WORK_TREE");
	r = git_repository_open_ext(repo, NULL, GIT_REPOSITORY_OPEN_FROM_ENV, NULL);
	if (!r && saved) {
		char *abs = realpath(saved, NULL);

		/* libgit2 1.5 leaks when set_workdir() is given the same dir */
		r = !abs ? -1 : same_dir(git_repository_workdir(*repo), abs) ? 0 :
		    git_repository_set_workdir(*repo, abs, 0);
		if (!abs)
			git_error_set_str(GIT_ERROR_OS, "GIT_WORK_TREE: no such directory");
		free(abs);
		if (r < 0) {
			git_repository_free(*repo);
			*repo = NULL;
		}
	}
	if (saved)
		setenv("GIT_WORK_TREE", saved, 1);
	free(saved);
	return r;
}

static int open_repository(const cli *c, git_repository **repo)
{
	if (c->chdir_to && chdir(c->chdir_to) < 0) {
		fprintf(stderr, "fatal: cannot change to '%s': %s\n", c->chdir_to,
			strerror(errno));
		return -1;
	}
	if (open_from_env(repo) < 0) {
		const git_error *e = git_error_last();

		fprintf(stderr, "fatal: not a git repository (or any of the parent directories)%s%s\n",
			e && e->message ? ": " : "", e && e->message ? e->message : "");
		return -1;
	}
	if (c->land.mode == AA_LAND_INDEX && git_repository_is_bare(*repo)) {
		fprintf(stderr, "fatal: this operation must be run in a work tree (use --cached or --branch)\n");
		return -1;
	}
	return 0;
}

static int finish(const cli *c, aa_session *s, const aa_plan *plan,
		  const aa_diags *d, aa_outcome outcome)
{
	aa_report_diags(stderr, d);
	aa_report(stdout, s, plan, d, outcome, &c->report);
	switch (outcome) {
	case AA_OUT_REJECTED:
	case AA_OUT_CONFLICTED: /* as git apply --3way: written, exit 1 */
		return EXIT_REJECTED;
	case AA_OUT_FATAL:
		return EXIT_FATAL;
	default:
		return 0;
	}
}

static int run(cli *c, git_repository *repo)
{
	input_set in = { 0 };
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_diags d = AA_DIAGS_INIT;
	aa_plan plan = AA_PLAN_INIT;
	aa_session s;
	int opened = 0, code, r;
	aa_outcome outcome = AA_OUT_REJECTED;

	memset(&s, 0, sizeof(s));
	c->land.check_worktree = c->land.mode != AA_LAND_BRANCH &&
				 git_repository_workdir(repo) != NULL;
	if (read_inputs(c, repo, &in) < 0) {
		free_inputs(&in);
		return EXIT_FATAL;
	}
	r = aa_session_open(&s, repo, &c->land, &d);
	opened = 1;
	if (r < 0) {
		outcome = r == AA_FATAL ? AA_OUT_FATAL : AA_OUT_REJECTED;
		goto done;
	}
	if (parse_inputs(c, &in, &cs, &d) < 0)
		goto done;
	confirm_deletions(c, &cs);
	if (aa_plan_build(&plan, &cs, &s.snap, &c->plan, &d) < 0) {
		if (plan.fatal) /* the repository, not the answer */
			outcome = AA_OUT_FATAL;
		goto done;
	}
	if (!plan.nchanges) {
		outcome = AA_OUT_ALREADY_APPLIED;
		goto done;
	}
	r = aa_land(&s, &plan, &d);
	if (r < 0)
		outcome = r == AA_FATAL ? AA_OUT_FATAL : AA_OUT_REJECTED;
	else if (c->land.mode == AA_LAND_CHECK)
		outcome = AA_OUT_CHECKED;
	else
		outcome = aa_plan_conflicts(&plan) ? AA_OUT_CONFLICTED : AA_OUT_APPLIED;
done:
	code = finish(c, opened ? &s : NULL, &plan, &d, outcome);
	aa_plan_free(&plan);
	if (opened)
		aa_session_close(&s);
	aa_changeset_free(&cs);
	aa_diags_free(&d);
	free_inputs(&in);
	return code;
}

/* --recover: finish or undo what a killed run left. */
static int run_recover(git_repository *repo)
{
	aa_diags d = AA_DIAGS_INIT;
	int r = aa_recover(repo, &d);

	aa_report_diags(stderr, &d);
	aa_diags_free(&d);
	if (r == 1)
		puts("nothing to recover");
	return r < 0 ? EXIT_FATAL : 0;
}

/*
 * A signal that ends us removes the index lock we hold (and a journal
 * that records no change yet), then ends us as it would have. The
 * landing's critical section holds these signals back (src/journal.c).
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
	r = parse_args(&c, argc, argv);
	if (r != ARGS_OK) {
		free(c.files);
		/* git: -h and usage errors exit 129, die() 128 */
		return r == ARGS_FATAL ? EXIT_FATAL : EXIT_USAGE;
	}
	c.report.mode = mode_name(c.land.mode);
	c.report.branch = c.land.branch;
	/* Loads no CA bundle: see src/cmd/no-ca-bundle.c. */
	git_libgit2_init();
	/*
	 * libgit2 re-hashes every object it reads; git does not (fsck does
	 * that). On a large file it is a fifth of the whole run.
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	install_cleanup();
	if (open_repository(&c, &repo) < 0)
		code = EXIT_FATAL;
	else if (c.recover)
		code = run_recover(repo);
	else
		code = run(&c, repo);
	git_repository_free(repo);
	git_libgit2_shutdown();
	free(c.files);
	return code;
}
