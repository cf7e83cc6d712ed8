/*
 * The pipeline as one call: read the inputs, open the base, parse, plan
 * and land (include/aiapply/apply.h). Every failure, from an unreadable
 * input to a held lock, is a diagnostic, so a caller (the command line's
 * --json) always has a report to print.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <git2.h>

#include "aiapply/apply.h"
#include "format/alternatives.h"
#include "land/support.h"
#include "report/report.h"
#include "report/verbose.h"
#include "workflow/apply_internal.h"
#include "util/util.h"

/* ---- inputs ---- */

static int read_stream(FILE *f, const char *name, aa_buf *out, aa_diags *d)
{
	char chunk[65536];
	struct stat st;
	size_t n;
	aa_pos pos = { name, 0 };

	/* a file's size is known: one allocation of exactly that */
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size <= AA_MAX_INPUT_SIZE &&
	    aa_buf_grow(out, (size_t)st.st_size + 1) < 0)
		return aa_oom(d, pos, NULL);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (out->len + n > AA_MAX_INPUT_SIZE)
			return aa_error(d, pos, NULL, "input larger than %u bytes",
					AA_MAX_INPUT_SIZE);
		if (aa_buf_put(out, chunk, n) < 0)
			return aa_oom(d, pos, NULL);
		/*
		 * A terminal's Ctrl-D ends one read, not the stream: reading
		 * on after a short read at its end would wait for a second.
		 */
		if (n < sizeof(chunk) && feof(f))
			break;
	}
	if (ferror(f))
		return aa_error(d, AA_NOPOS, NULL,
				"cannot read %s: %s", aa_qtext(name, strlen(name), 200),
				strerror(errno));
	return 0;
}

/*
 * 1 when real (a realpath()) lies under the directory dir (no trailing
 * slash); *l its length.
 */
static int real_under(const char *real, const char *dir, size_t *l)
{
	*l = strlen(dir);
	while (*l > 1 && dir[*l - 1] == '/')
		(*l)--;
	return !strncmp(real, dir, *l) && real[*l] == '/';
}

/*
 * realpath(wd) into real: a readlink() a component, asked again for
 * every input (--each reads each twice) unless the directory is still
 * the one resolved last (same device and inode), kept per thread.
 */
static int real_worktree(const char *wd, char *real)
{
	static _Thread_local struct {
		char wd[PATH_MAX], real[PATH_MAX];
		dev_t dev;
		ino_t ino;
	} last;
	struct stat st;

	if (stat(wd, &st) < 0)
		return 0;
	if (!strcmp(last.wd, wd) && last.dev == st.st_dev && last.ino == st.st_ino) {
		memcpy(real, last.real, sizeof(last.real));
		return 1;
	}
	if (!realpath(wd, real))
		return 0;
	if (strlen(wd) < sizeof(last.wd)) {
		memcpy(last.wd, wd, strlen(wd) + 1);
		memcpy(last.real, real, sizeof(last.real));
		last.dev = st.st_dev;
		last.ino = st.st_ino;
	}
	return 1;
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

	if (!wd || !realpath(file, real_file) || !real_worktree(wd, real_wd) ||
	    !real_under(real_file, real_wd, &l))
		return NULL;
	slash = strrchr(real_file + l + 1, '/');
	if (!slash)
		return aa_strdup("");
	return aa_strndup(real_file + l + 1, (size_t)(slash - (real_file + l + 1)));
}

/* Reads one input into in->v[in->n]; -1 with the error in d. */
static int read_one_input(git_repository *repo, const char *file,
			  aa_apply_inputs *in, aa_diags *d)
{
	aa_buf b = AA_BUF_INIT;
	int is_stdin = !strcmp(file, "-");
	FILE *f = is_stdin ? stdin : fopen(file, "rb");
	size_t i = in->n;
	int r;

	if (!f)
		/* the name in the message, as "cannot open 'x'" always said */
		return aa_error(d, AA_NOPOS, NULL, "cannot open '%s': %s",
				aa_qpath(file), strerror(errno));
	r = read_stream(f, is_stdin ? "<stdin>" : file, &b, d);
	if (!is_stdin)
		fclose(f);
	in->n++;
	in->v[i].len = b.len;
	in->bufs[i] = aa_buf_detach(&b);
	if (r < 0)
		return -1;
	in->v[i].name = is_stdin ? "<stdin>" : file;
	in->v[i].data = in->bufs[i];
	if (!is_stdin)
		in->dirs[i] = dir_in_worktree(repo, file);
	in->v[i].dir_in_worktree = in->dirs[i];
	return 0;
}

/*
 * An answer given as text (aa_text_input): copied, so the input owns
 * its bytes as a file's do, and limited as a file is. It lies in no
 * directory of the work tree.
 */
static int take_text_input(const aa_text_input *t, aa_apply_inputs *in,
			   aa_diags *d)
{
	const char *name = t->name && *t->name ? t->name : "answer";
	size_t i = in->n;

	if (t->len > AA_MAX_INPUT_SIZE)
		return aa_error(d, (aa_pos){ name, 0 }, NULL,
				"input larger than %u bytes", AA_MAX_INPUT_SIZE);
	if (t->len && !t->text)
		return aa_error(d, (aa_pos){ name, 0 }, NULL,
				"the answer's text is missing");
	if (!(in->bufs[i] = malloc(t->len + 1)))
		return aa_oom(d, (aa_pos){ name, 0 }, NULL);
	if (t->len)
		memcpy(in->bufs[i], t->text, t->len);
	in->bufs[i][t->len] = '\0';
	in->n++;
	in->v[i].name = name;
	in->v[i].data = in->bufs[i];
	in->v[i].len = t->len;
	return 0;
}

static int read_inputs(const aa_apply_opts *o, git_repository *repo,
		       aa_apply_inputs *in, aa_diags *d)
{
	static const char *const stdin_only[] = { "-" };
	const char *const *files = o->nfiles ? o->files : stdin_only;
	size_t n = o->ntexts ? o->ntexts : o->nfiles ? o->nfiles : 1, i;

	in->v = calloc(n, sizeof(*in->v));
	in->bufs = calloc(n, sizeof(*in->bufs));
	in->dirs = calloc(n, sizeof(*in->dirs));
	if (!in->v || !in->bufs || !in->dirs)
		return aa_oom(d, AA_NOPOS, NULL);
	for (i = 0; i < n; i++)
		if ((o->ntexts ? take_text_input(&o->texts[i], in, d) :
		     read_one_input(repo, files[i], in, d)) < 0)
			return -1;
	return 0;
}

size_t aa_apply_ninputs(const aa_apply_opts *o)
{
	return o->ntexts ? o->ntexts : o->nfiles;
}

void aa_apply_opts_one_input(const aa_apply_opts *o, size_t i,
			     aa_apply_opts *one)
{
	*one = *o;
	if (o->ntexts) {
		one->texts = &o->texts[i];
		one->ntexts = 1;
	} else {
		one->files = &o->files[i];
		one->nfiles = 1;
	}
}

static void free_inputs(aa_apply_inputs *in)
{
	size_t i;

	for (i = 0; i < in->n; i++) {
		free(in->bufs[i]);
		free(in->dirs[i]);
	}
	free(in->v);
	free(in->bufs);
	free(in->dirs);
	memset(in, 0, sizeof(*in));
}

/* Parses every input into one change set; 0, or -1 when rejected. */
static int parse_inputs(const aa_apply_opts *o, const aa_apply_inputs *in,
			aa_changeset *cs, aa_diags *d)
{
	size_t i;
	int r = 0;

	for (i = 0; i < in->n; i++) {
		size_t before = cs->n;
		int blocks = aa_parse_input(&in->v[i], &o->parse, cs, d);

		if (blocks < 0)
			r = -1;
		else if (blocks == 0 && cs->n == before)
			r = aa_error(d, (aa_pos){ in->v[i].name, 0 }, NULL,
				     "no change found in the input (no diff, file block or patch document)");
	}
	return r;
}

/* ---- the repository ---- */

/* "dir/" (libgit2's form of a work tree) names the directory "dir". */
static int same_dir(const char *slashed, const char *dir)
{
	size_t n = strlen(dir);

	return slashed && !strncmp(slashed, dir, n) &&
	       (!strcmp(slashed + n, "/") || !slashed[n]);
}

/* A bare repository with an index file (made by git read-tree). */
static int bare_has_index(git_repository *repo)
{
	aa_buf p = AA_BUF_INIT;
	struct stat st;
	int has;

	if (aa_buf_printf(&p, "%sindex", git_repository_path(repo)) < 0)
		return 0;
	has = p.ptr && stat(p.ptr, &st) == 0 && S_ISREG(st.st_mode);
	aa_buf_free(&p);
	return has;
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

int aa_apply_open_repository(git_repository **repo, aa_land_mode mode,
			     aa_diags *d)
{
	aa_pos none = { NULL, 0 };

	*repo = NULL;
	aa_worktree_config_prepare(); /* extensions.worktreeConfig (land/support.h) */
	if (open_from_env(repo) == 0 && aa_worktree_config_add(*repo) < 0) {
		git_repository_free(*repo);
		*repo = NULL;
	}
	if (!*repo) {
		const char *why = aa_git_error(NULL);
		aa_buf shape = AA_BUF_INIT;

		/* a repository libgit2 cannot read: say what and why (land/support.h) */
		if (aa_unsupported_explain(why, &shape) > 0)
			aa_error(d, none, NULL, "%s", shape.ptr);
		else
			aa_error(d, none, NULL, "not a git repository (or any of the parent directories)%s%s",
				 why ? ": " : "", why ? why : "");
		aa_buf_free(&shape);
		return AA_FATAL;
	}
	/*
	 * The default mode needs a work tree, --cached and --check an index:
	 * a bare repository has neither unless an index was made in it (git
	 * read-tree, GIT_INDEX_FILE's habit), and then --cached and --check
	 * use it as git apply --cached does. Fatal (128) before anything is
	 * read, as git's "must be run in a work tree" is.
	 */
	if (mode != AA_LAND_BRANCH && git_repository_is_bare(*repo) &&
	    (mode == AA_LAND_INDEX || !bare_has_index(*repo))) {
		git_repository_free(*repo);
		*repo = NULL;
		aa_error(d, none, NULL, "this is a bare repository: it has no "
			 "index or work tree; use --branch=<name>");
		return AA_FATAL;
	}
	return AA_OK;
}

/* ---- provenance: the trailers of a --branch commit ---- */

/* A placement git apply would not make: it needed this tool's tolerance. */
static size_t tolerant_placements(const aa_plan *plan)
{
	size_t i, j, n = 0;

	for (i = 0; i < plan->nchanges; i++)
		for (j = 0; j < plan->changes[i].nlandings; j++)
			n += aa_how_is_tolerant(plan->changes[i].landings[j].how);
	return n;
}

/* The input's file name without its directories (a trailer is one line). */
static const char *answer_name(const char *name)
{
	const char *slash = strrchr(name, '/');

	return aa_qpath(slash && slash[1] ? slash + 1 : name);
}

/*
 * AI-Answer and AI-Answer-Blob (the id the answer's text has as a blob)
 * for each input, then AI-Formats, AI-Tolerant-Placements and the
 * Assisted-by trailer the contrib prepare-commit-msg hook adds to a
 * commit of a staged answer (its key from ai-apply.trailer; "off": none).
 */
static int build_trailers(git_repository *repo, const aa_apply_inputs *in,
			  const aa_changeset *cs, const aa_plan *plan,
			  size_t alternative, size_t alternatives,
			  aa_buf *out, aa_diags *d)
{
	aa_buf key = AA_BUF_INIT;
	size_t i;
	int k;

	for (i = 0; i < in->n; i++) {
		char hex[GIT_OID_HEXSZ + 1];
		git_oid id;

		if (git_odb_hash(&id, in->v[i].data, in->v[i].len, GIT_OBJECT_BLOB) < 0)
			return aa_error(d, (aa_pos){ in->v[i].name, 0 }, NULL,
					"cannot hash the answer");
		git_oid_tostr(hex, sizeof(hex), &id);
		aa_buf_printf(out, "AI-Answer: %s\nAI-Answer-Blob: %s\n",
			      answer_name(in->v[i].name), hex);
	}
	if (alternative)
		aa_buf_printf(out, "AI-Alternative: %zu of %zu\n", alternative,
			      alternatives);
	aa_buf_puts(out, "AI-Formats: ");
	aa_formats_used(cs, out);
	aa_buf_printf(out, "\nAI-Tolerant-Placements: %zu\n",
		      tolerant_placements(plan));
	if ((k = aa_trailer_key(repo, &key, d)) < 0) {
		aa_buf_free(&key);
		return -1;
	}
	if (k)
		aa_buf_printf(out, "%s: ", key.ptr);
	if (k && aa_assisted_by(in, cs, out) < 0) {
		aa_buf_free(&key);
		return aa_error(d, AA_NOPOS, NULL,
				"cannot build the %s trailer", AA_TRAILER_KEY);
	}
	if (k)
		aa_buf_putc(out, '\n');
	aa_buf_free(&key);
	return aa_buf_oom(out) ? aa_oom(d, AA_NOPOS, NULL) : 0;
}

/*
 * The note: the answer itself when there is one (its blob is then the
 * AI-Answer-Blob); several, each under a line naming it.
 */
static int build_note(const aa_apply_inputs *in, aa_buf *out, aa_diags *d)
{
	size_t i;

	if (in->n == 1)
		aa_buf_put(out, in->v[0].data, in->v[0].len);
	for (i = 0; in->n > 1 && i < in->n; i++) {
		const aa_input *v = &in->v[i];

		aa_buf_printf(out, "%s--- AI-Answer: %s ---\n", i ? "\n" : "",
			      answer_name(v->name));
		aa_buf_put(out, v->data, v->len);
		if (v->len && v->data[v->len - 1] != '\n')
			aa_buf_putc(out, '\n');
	}
	if (!out->ptr)
		aa_buf_puts(out, "");
	return aa_buf_oom(out) ? aa_oom(d, AA_NOPOS, NULL) : 0;
}

/* ---- the pipeline ---- */

static aa_outcome outcome_of(int r)
{
	return r == AA_FATAL ? AA_OUT_FATAL : AA_OUT_REJECTED;
}

/*
 * --each on an answer holding alternatives: keeps the o->alternative-th
 * change set of the split in place of the whole. The split's note goes
 * with the first alternative only (each suggestion reports its own).
 */
static int take_alternative(const aa_apply_opts *o, aa_apply_result *res)
{
	aa_alternatives alt = AA_ALTERNATIVES_INIT;
	aa_diags note = AA_DIAGS_INIT;
	int k = aa_split_alternatives(&res->cs, &alt,
				      o->alternative == 1 ? &res->diags : &note);

	aa_diags_free(&note);
	if (k < 0)
		return -1;
	if ((size_t)k != o->alternatives || o->alternative > alt.n) {
		aa_alternatives_free(&alt);
		return aa_error(&res->diags, (aa_pos){ res->inputs.v[0].name, 0 },
				NULL, "the answer no longer splits into %zu alternatives",
				o->alternatives);
	}
	aa_changeset_free(&res->cs);
	res->cs = alt.sets[o->alternative - 1];
	memset(&alt.sets[o->alternative - 1], 0, sizeof(alt.sets[0]));
	aa_alternatives_free(&alt);
	return 0;
}

/*
 * Not --each: an answer that holds alternatives still lands as one
 * change set, in order, but says so and how to land each apart
 * (Documentation/workflows.md, "An answer's alternatives").
 */
static void say_alternatives(aa_apply_result *res)
{
	aa_alternatives alt = AA_ALTERNATIVES_INIT;
	aa_diags notes = AA_DIAGS_INIT;
	size_t i;

	if (res->inputs.n == 1 && aa_split_alternatives(&res->cs, &alt, &notes) >= 2) {
		for (i = 0; i < notes.n; i++)
			if (notes.v[i].level == AA_DIAG_NOTE)
				aa_note(&res->diags, (aa_pos){ notes.v[i].input,
					notes.v[i].line }, notes.v[i].path, "%s",
					notes.v[i].msg);
		aa_note(&res->diags, (aa_pos){ res->inputs.v[0].name, 0 }, NULL,
			"applied in order as one change set; --each --branch=<name> "
			"lands each alternative on a branch of its own");
	}
	aa_alternatives_free(&alt);
	aa_diags_free(&notes);
}

size_t aa_apply_count_alternatives(git_repository *repo,
				   const aa_apply_opts *o, size_t input,
				   aa_diags *d)
{
	aa_apply_opts one;
	aa_apply_inputs in = { NULL, NULL, NULL, 0 };
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_alternatives alt = AA_ALTERNATIVES_INIT;
	aa_diags quiet = AA_DIAGS_INIT;
	int k = 0;

	aa_apply_opts_one_input(o, input, &one);
	if (read_inputs(&one, repo, &in, &quiet) == 0 &&
	    parse_inputs(&one, &in, &cs, &quiet) == 0)
		k = aa_split_alternatives(&cs, &alt, d);
	aa_alternatives_free(&alt);
	aa_changeset_free(&cs);
	free_inputs(&in);
	aa_diags_free(&quiet);
	return k >= 2 ? (size_t)k : 1;
}

/* --branch: the commit's trailers and the note, for the lander. */
static int set_provenance(const aa_apply_opts *o, aa_apply_result *res)
{
	if (build_trailers(res->session.repo, &res->inputs, &res->cs, &res->plan,
			   o->alternative, o->alternatives, &res->trailers,
			   &res->diags) < 0 ||
	    build_note(&res->inputs, &res->note, &res->diags) < 0)
		return -1;
	/* the caller's own provenance (checked by aa_apply_opts_check) */
	if (o->extra_trailers && aa_buf_puts(&res->trailers, o->extra_trailers) < 0)
		return aa_oom(&res->diags, AA_NOPOS, NULL);
	res->land.trailers = res->trailers.ptr;
	res->land.note = res->note.ptr;
	res->land.note_len = res->note.len;
	return 0;
}

void aa_apply_result_init(aa_apply_result *res)
{
	memset(res, 0, sizeof(*res));
	res->plan = (aa_plan)AA_PLAN_INIT;
	res->cs = (aa_changeset)AA_CHANGESET_INIT;
}

/*
 * -p landing in the index: the questions take as long as the user does,
 * so they are asked over an unlocked view of the index, and the lock is
 * taken after the last answer (lock_after_asking).
 */
static int asks_before_locking(const aa_apply_opts *o, const aa_base *base)
{
	return o->select && !base && (o->land.mode == AA_LAND_INDEX ||
				      o->land.mode == AA_LAND_CACHED);
}

static int open_peek(git_repository *repo, aa_apply_result *res)
{
	res->peek_land = res->land;
	res->peek_land.mode = AA_LAND_CHECK; /* reads the index, no lock */
	res->peek_opened = 1;
	return aa_session_open(&res->peek, repo, &res->peek_land, &res->diags);
}

/*
 * Takes the index lock (the landing's session) and checks that the index
 * is the one the questions were asked about; if another command wrote it
 * meanwhile, nothing lands.
 */
static int lock_after_asking(git_repository *repo, aa_apply_result *res)
{
	const git_oid *seen, *now;
	int r = aa_session_open(&res->session, repo, &res->land, &res->diags);

	res->opened = 1;
	if (r < 0)
		return r;
	seen = aa_base_index_checksum(res->peek.base);
	now = aa_base_index_checksum(res->session.base);
	if (!seen || !now || !git_oid_equal(seen, now))
		return aa_error(&res->diags, AA_NOPOS, NULL,
				"the index changed while the questions were asked; "
				"nothing applied (run again)");
	return 0;
}

/*
 * The inputs read and parsed into res->cs: nothing here needs the
 * repository's lock. -1 when the run ends here, its outcome set: fatal
 * when an input cannot be read (res->stopped: the run never began),
 * rejected when it does not parse.
 */
static int read_and_parse(git_repository *repo, const aa_apply_opts *o,
			  aa_apply_result *res)
{
	res->outcome = AA_OUT_FATAL;
	if (read_inputs(o, repo, &res->inputs, &res->diags) < 0) {
		res->stopped = 1;
		return -1;
	}
	res->outcome = AA_OUT_REJECTED;
	if (parse_inputs(o, &res->inputs, &res->cs, &res->diags) < 0 ||
	    (o->alternative && take_alternative(o, res) < 0))
		return -1;
	if (!o->alternative && !o->alternatives)
		say_alternatives(res);
	/* --include/--exclude, then -R (src/workflow/apply_opts.c) */
	if (aa_apply_shape_changes(o, &res->cs, &res->diags) < 0)
		return -1;
	return 0;
}

/*
 * The lander: on `base` (--each), on a base of its own (its index lock
 * taken and recovery run), or -p's unlocked view of the index.
 */
static int open_landing(git_repository *repo, aa_base *base,
			const aa_apply_opts *o, aa_apply_result *res)
{
	if (asks_before_locking(o, base))
		return open_peek(repo, res);
	res->opened = 1;
	return base ? aa_lander_begin(&res->session, base, &res->land,
				      &res->diags)
		    : aa_session_open(&res->session, repo, &res->land,
				      &res->diags);
}

/*
 * --strict deleting files without --allow-delete: the caller's question
 * (a terminal prompt) over the paths deleted may allow it. -1 when out
 * of memory.
 */
static int confirm_deletions(const aa_apply_opts *o, aa_apply_result *res,
			     aa_plan_opts *popts)
{
	const char **paths = calloc(res->cs.n ? res->cs.n : 1, sizeof(*paths));
	size_t i, n = 0;

	if (!paths)
		return aa_oom(&res->diags, AA_NOPOS, NULL);
	for (i = 0; i < res->cs.n; i++)
		if (res->cs.ops[i].kind == AA_OP_DELETE)
			paths[n++] = res->cs.ops[i].path;
	if (n)
		popts->allow_delete = o->confirm_deletions(paths, n, o->payload) != 0;
	free(paths);
	return 0;
}

/*
 * Everything before the landing: the inputs, a lander (on `base`, or on
 * a base of its own when NULL), the change set, the plan and, for
 * --branch, the provenance. 0 to go on and land; -1 when the run ends
 * here, its outcome in res->outcome.
 */
int aa_apply_plan_one(git_repository *repo, aa_base *base,
		      const aa_apply_opts *o, aa_apply_result *res)
{
	aa_plan_opts popts = o->plan;
	char real_wd[PATH_MAX];
	int r;

	/* an answer's absolute paths are taken relative to the work tree */
	popts.worktree = git_repository_workdir(repo);
	if (popts.worktree && real_worktree(popts.worktree, real_wd))
		popts.worktree_real = real_wd;
	/* a stale answer's conflict points at --3way where it can land */
	popts.threeway_possible = o->land.mode == AA_LAND_BRANCH ? 0 :
				  o->land.mode == AA_LAND_CHECK ? 2 : 1;
	res->land = o->land;
	res->land.check_worktree = o->land.mode != AA_LAND_BRANCH &&
				   git_repository_workdir(repo) != NULL;
	/*
	 * Read and parse everything before the lock is taken or recovery
	 * runs, as git does: a malformed answer fails without ever locking,
	 * and no lock is held while a long input is read or a question about
	 * deletions waits for its answer.
	 */
	if (read_and_parse(repo, o, res) < 0)
		return -1;
	if (o->confirm_deletions && !popts.allow_delete && o->parse.strict &&
	    confirm_deletions(o, res, &popts) < 0)
		return res->outcome = AA_OUT_FATAL, -1;
	if (!res->cs.n) {
		/* every operation excluded: nothing to do (exit 0), as git apply */
		res->outcome = AA_OUT_CHECKED;
		return -1;
	}
	if ((r = open_landing(repo, base, o, res)) < 0)
		return res->outcome = outcome_of(r), -1;
	res->outcome = AA_OUT_REJECTED;
	if (aa_plan_build(&res->plan, &res->cs, res->peek_opened ?
			  &res->peek.snap : &res->session.snap, &popts,
			  &res->diags) < 0) {
		/* plan.fatal: the repository failed, not the answer */
		res->outcome = res->plan.fatal ? AA_OUT_FATAL : AA_OUT_REJECTED;
		return -1;
	}
	if (!res->plan.nchanges) {
		res->outcome = AA_OUT_ALREADY_APPLIED;
		return -1;
	}
	if (o->select) {
		r = aa_select(res->peek_opened ? &res->peek : &res->session,
			      &res->plan, o->select, &res->selection, &res->diags);
		if (r < 0) {
			res->outcome = outcome_of(r);
			return -1;
		}
		if (!res->plan.nchanges) {
			/* nothing selected: nothing written */
			res->outcome = AA_OUT_CHECKED;
			return -1;
		}
		if (res->peek_opened && (r = lock_after_asking(repo, res)) < 0) {
			res->outcome = outcome_of(r);
			return -1;
		}
	}
	if (o->land.mode == AA_LAND_BRANCH && set_provenance(o, res) < 0) {
		res->outcome = AA_OUT_FATAL;
		return -1;
	}
	res->outcome = AA_OUT_APPLIED;
	return 0;
}

/* The outcome of a landing that went through (r = 0) or not. */
aa_outcome aa_apply_landed(aa_apply_result *res, int r)
{
	aa_land_mode mode = res->land.mode;

	if (r < 0)
		return res->outcome = outcome_of(r);
	if (mode == AA_LAND_CHECK)
		return res->outcome = AA_OUT_CHECKED;
	/* a staged landing: the index is in place, record it for --review */
	if (mode == AA_LAND_INDEX || mode == AA_LAND_CACHED)
		aa_review_record(res->session.repo, res);
	return res->outcome = aa_plan_conflicts(&res->plan) ? AA_OUT_CONFLICTED
							 : AA_OUT_APPLIED;
}

aa_outcome aa_apply(git_repository *repo, const aa_apply_opts *o,
		    aa_apply_result **out)
{
	aa_apply_result *res = malloc(sizeof(*res));

	*out = res;
	if (!res)
		return AA_OUT_FATAL;
	aa_apply_result_init(res);
	/* options that cannot go together: nothing is tried, as git's die() */
	if (aa_apply_opts_check(o, &res->diags) < 0) {
		res->stopped = 1;
		return res->outcome = AA_OUT_FATAL;
	}
	if (aa_apply_plan_one(repo, NULL, o, res) < 0)
		return res->outcome;
	return aa_apply_landed(res, aa_land(&res->session, &res->plan,
					    &res->diags));
}

void aa_apply_result_clear(aa_apply_result *res)
{
	aa_plan_free(&res->plan);
	aa_selection_free(res->selection);
	res->selection = NULL;
	if (res->opened)
		aa_session_close(&res->session);
	if (res->peek_opened)
		aa_session_close(&res->peek);
	res->peek_opened = 0;
	aa_changeset_free(&res->cs);
	aa_diags_free(&res->diags);
	free_inputs(&res->inputs);
	aa_buf_free(&res->trailers);
	aa_buf_free(&res->note);
	res->opened = 0;
}

void aa_apply_result_free(aa_apply_result *res)
{
	if (!res)
		return;
	aa_apply_result_clear(res);
	free(res);
}

aa_session *aa_apply_result_session(aa_apply_result *res)
{
	return res->opened ? &res->session :
	       res->peek_opened ? &res->peek : NULL;
}

/* ---- the result's accessors: a NULL result ran out of memory ---- */

static aa_diag oom_diag = { AA_DIAG_ERROR, NULL, NULL, 0,
			    (char *)"out of memory" };
static const aa_diags oom_diags = { &oom_diag, 1, 1, 1 };

aa_outcome aa_apply_result_outcome(const aa_apply_result *res)
{
	return res ? res->outcome : AA_OUT_FATAL;
}

const aa_diags *aa_apply_result_diags(const aa_apply_result *res)
{
	return res ? &res->diags : &oom_diags;
}

int aa_apply_result_stopped(const aa_apply_result *res)
{
	return res ? res->stopped : 1;
}

size_t aa_apply_result_nfiles(const aa_apply_result *res)
{
	return res ? res->plan.nchanges : 0;
}

const char *aa_apply_result_file(const aa_apply_result *res, size_t i)
{
	return res && i < res->plan.nchanges ? res->plan.changes[i].path : NULL;
}

const git_oid *aa_apply_result_commit(const aa_apply_result *res)
{
	return res && res->opened && res->outcome == AA_OUT_APPLIED &&
	       res->land.mode == AA_LAND_BRANCH ? &res->session.commit : NULL;
}

/* ---- reports (the report stage reads a run through its session) ---- */

int aa_report_result(FILE *out, aa_apply_result *res, const aa_report_opts *o)
{
	if (!res)
		return aa_report_stopped(out, &oom_diags, o);
	return aa_report(out, aa_apply_result_session(res), &res->plan,
			 &res->diags, res->outcome, o);
}

int aa_report_result_verbose(FILE *err, aa_apply_result *res)
{
	return res ? aa_report_verbose(err, &res->plan, res->outcome) : 0;
}

int aa_report_stopped(FILE *out, const aa_diags *d, const aa_report_opts *o)
{
	return aa_report(out, NULL, NULL, d, AA_OUT_FATAL, o);
}

int aa_apply_exit_code(aa_outcome outcome)
{
	switch (outcome) {
	case AA_OUT_REJECTED:
	case AA_OUT_CONFLICTED: /* as git apply --3way: written, exit 1 */
		return AA_APPLY_EXIT_REJECTED;
	case AA_OUT_FATAL:
		return AA_APPLY_EXIT_FATAL;
	default:
		return 0;
	}
}
