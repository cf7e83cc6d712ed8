/*
 * The review record and --review (include/aiapply/review.h).
 *
 * The record is a text file, one item a line, fields split by tabs, the
 * path always last so that it may hold anything but a newline:
 *   ai-apply-review 3
 *   landing index|cached
 *   head <HEAD's commit hex at the landing, 40 zeros when unborn>
 *   answer <blob hex> <name>
 *   assisted <the Assisted-by trailer's value>
 *   path <staged blob hex, 40 zeros when deleted or conflicted> <path>
 *   before <mode> <blob> <landed mode> <path>
 *   conflict <stage 3 blob> <work tree blob, with markers> <path>
 *   worktree <mode> <blob> <path>
 *   edit <line> <offset> <rung> <re-indent> <path>
 *   warning <first line of the message> <path>
 * <re-indent> is "none", "mapped" or "<kind>:<by>" (aa_reindent_name(),
 * e.g. "deeper:4", "tabs:8"). Modes are octal, 0 (and 40 zeros) for
 * absent. "before" is the index entry before the landing and the mode
 * it left (for --undo); "conflict" marks a path --3way left with stages
 * 1-3; "worktree" (--cached only) is the work tree file as it was at
 * the landing, which a --cached landing does not write. Version 1 had
 * no "assisted" line and no <re-indent> field, version 2 none of the
 * version 3 lines; both are still read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>
#include <git2.h>

#include "aiapply/review.h"
#include "land/worktree.h"
#include "report/report.h"
#include "workflow/apply_internal.h"
#include "workflow/review_record.h"
#include "util/util.h"

#define RECORD_NAME "ai-apply/review"
#define ZERO_HEX AA_RV_ZERO_HEX
/* the answer blob's hex digits the trailer shows (as --review does) */
#define TRAILER_HEX 12

/* ---- the Assisted-by trailer ---- */

void aa_formats_used(const aa_changeset *cs, aa_buf *out)
{
	size_t i, j, n = 0;

	for (i = 0; i < cs->n; i++) {
		const char *f = cs->ops[i].format;

		if (!f)
			continue;
		for (j = 0; j < i && !(cs->ops[j].format &&
				       !strcmp(cs->ops[j].format, f)); j++)
			;
		if (j < i)
			continue;
		aa_buf_printf(out, "%s%s", n++ ? ", " : "", f);
	}
}

int aa_assisted_by(const aa_apply_inputs *in, const aa_changeset *cs,
		   aa_buf *out)
{
	size_t i;

	aa_buf_puts(out, "git-ai-apply (");
	aa_formats_used(cs, out);
	aa_buf_printf(out, ", answer%s", in->n == 1 ? "" : "s");
	for (i = 0; i < in->n; i++) {
		char hex[41];
		git_oid id;

		if (git_odb_hash(&id, in->v[i].data, in->v[i].len, GIT_OBJECT_BLOB) < 0)
			return -1;
		git_oid_tostr(hex, TRAILER_HEX + 1, &id);
		aa_buf_printf(out, " %s", hex);
	}
	aa_buf_putc(out, ')');
	return aa_buf_oom(out) ? -1 : 0;
}

/* A trailer key as git-interpret-trailers takes one: letters, digits, '-'. */
static int is_trailer_key(const char *k)
{
	size_t i;

	for (i = 0; k[i]; i++)
		if (!(k[i] == '-' || (k[i] >= '0' && k[i] <= '9') ||
		      ((k[i] | 0x20) >= 'a' && (k[i] | 0x20) <= 'z')))
			return 0;
	return i > 0 && k[0] != '-';
}

int aa_trailer_key(git_repository *repo, aa_buf *key, aa_diags *d)
{
	git_config *cfg = NULL;
	git_buf v = { NULL, 0, 0 };
	int r = 1;

	aa_buf_clear(key);
	if (git_repository_config_snapshot(&cfg, repo) == 0 &&
	    git_config_get_string_buf(&v, cfg, "ai-apply.trailer") == 0)
		aa_buf_puts(key, v.ptr);
	else
		aa_buf_puts(key, AA_TRAILER_KEY);
	git_error_clear();
	git_buf_dispose(&v);
	git_config_free(cfg);
	if (aa_buf_oom(key))
		return aa_oom(d, AA_NOPOS, NULL);
	if (!strcmp(key->ptr, "off"))
		r = 0;
	else if (!is_trailer_key(key->ptr))
		r = aa_error(d, AA_NOPOS, NULL,
			     "ai-apply.trailer is '%s': a trailer key (letters, digits and '-') or 'off'",
			     key->ptr);
	return r;
}

/* ---- writing ---- */

int aa_review_record_path(git_repository *repo, aa_buf *path)
{
	aa_buf_clear(path);
	aa_buf_printf(path, "%s%s", git_repository_path(repo), RECORD_NAME);
	return aa_buf_oom(path) ? -1 : 0;
}

/* The blob the index holds at path now, as hex; zeros when none. */
static void index_blob_hex(git_index *ix, const char *path, char hex[41])
{
	const git_index_entry *e = ix ? git_index_get_bypath(ix, path, 0) : NULL;

	if (e)
		git_oid_tostr(hex, 41, &e->id);
	else
		strcpy(hex, ZERO_HEX);
}

static void put_answers(const aa_apply_inputs *in, aa_buf *out)
{
	size_t i;

	for (i = 0; i < in->n; i++) {
		char hex[41];
		git_oid id;

		if (git_odb_hash(&id, in->v[i].data, in->v[i].len, GIT_OBJECT_BLOB) < 0)
			continue;
		git_oid_tostr(hex, sizeof(hex), &id);
		aa_buf_printf(out, "answer\t%s\t%s\n", hex, in->v[i].name);
	}
}

/* The trailer's value for the contrib prepare-commit-msg hook. */
static void put_assisted(const aa_apply_result *res, aa_buf *out)
{
	aa_buf v = AA_BUF_INIT;

	if (aa_assisted_by(&res->inputs, &res->cs, &v) == 0 && !strchr(v.ptr, '\n'))
		aa_buf_printf(out, "assisted\t%s\n", v.ptr);
	aa_buf_free(&v);
}

/* "none", "mapped", "deeper:4": the re-indent field of an edit line. */
static void put_reindent(const aa_landing *l, aa_buf *out)
{
	aa_buf_puts(out, aa_reindent_name(l->reindent));
	if (l->reindent_by)
		aa_buf_printf(out, ":%ld", l->reindent_by);
}

/* " <mode> <blob>" of one side; " 0 <zeros>" when absent. */
static void put_side(aa_buf *out, unsigned mode, const git_oid *id)
{
	char hex[41];

	if (!mode || !id) {
		aa_buf_printf(out, "\t0\t%s", ZERO_HEX);
		return;
	}
	git_oid_tostr(hex, sizeof(hex), id);
	aa_buf_printf(out, "\t%o\t%s", mode, hex);
}

/*
 * The entry before the landing and the mode after it; for a conflict
 * the stage 3 blob and the work tree's content (with its markers).
 */
static void put_states(const aa_change *c, git_index *ix, aa_buf *out)
{
	const git_index_entry *e = ix ? git_index_get_bypath(ix, c->path, 0) : NULL;
	const git_index_entry *theirs;
	git_oid before, markers;
	char hex[41], mhex[41];

	git_oid_fromraw(&before, c->base_oid.id);
	aa_buf_puts(out, "before");
	put_side(out, c->base_exists ? c->base_mode : 0, &before);
	aa_buf_printf(out, "\t%o\t%s\n", e ? e->mode : c->conflict ? c->mode : 0,
		      c->path);
	if (!c->conflict || !ix ||
	    !(theirs = git_index_get_bypath(ix, c->path, 3)) ||
	    git_odb_hash(&markers, c->data ? c->data : "", c->len,
			 GIT_OBJECT_BLOB) < 0)
		return;
	git_oid_tostr(hex, sizeof(hex), &theirs->id);
	git_oid_tostr(mhex, sizeof(mhex), &markers);
	aa_buf_printf(out, "conflict\t%s\t%s\t%s\n", hex, mhex, c->path);
}

/*
 * --cached: the work tree file as it is now (the landing left it), as
 * git would add it; mode 0 when absent. Nothing when it cannot tell
 * (a directory, beyond a link, no work tree).
 */
static void put_worktree(git_repository *repo, const aa_change *c,
			 aa_buf *out)
{
	unsigned mode;
	git_oid id;

	if (!git_repository_workdir(repo) ||
	    aa_worktree_probe(repo, c->path, &id, &mode) < 0)
		return;
	aa_buf_puts(out, "worktree");
	put_side(out, mode, &id);
	aa_buf_printf(out, "\t%s\n", c->path);
}

static void put_change(git_repository *repo, const aa_change *c,
		       git_index *ix, int cached, aa_buf *out)
{
	char hex[41];
	size_t j;

	index_blob_hex(ix, c->path, hex);
	aa_buf_printf(out, "path\t%s\t%s\n", hex, c->path);
	put_states(c, ix, out);
	if (cached)
		put_worktree(repo, c, out);
	for (j = 0; j < c->nlandings; j++) {
		aa_buf_printf(out, "edit\t%ld\t%ld\t%s\t", c->landings[j].line,
			      c->landings[j].offset, aa_how_name(c->landings[j].how));
		put_reindent(&c->landings[j], out);
		aa_buf_printf(out, "\t%s\n", c->path);
	}
}

/* "head <commit>": HEAD at the landing, zeros when unborn. */
static void put_head(git_repository *repo, aa_buf *out)
{
	char hex[41] = ZERO_HEX;
	git_oid id;

	if (git_reference_name_to_id(&id, repo, "HEAD") == 0)
		git_oid_tostr(hex, sizeof(hex), &id);
	git_error_clear();
	aa_buf_printf(out, "head\t%s\n", hex);
}

static void put_warnings(const aa_diags *d, aa_buf *out)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		const aa_diag *w = &d->v[i];
		const char *nl;

		if (w->level != AA_DIAG_WARNING || !w->path || strchr(w->path, '\n'))
			continue;
		nl = strchr(w->msg, '\n');
		aa_buf_printf(out, "warning\t%.*s\t%s\n",
			      (int)(nl ? (size_t)(nl - w->msg) : strlen(w->msg)),
			      w->msg, w->path);
	}
}

/* Writes out to the record through a temporary file and a rename. */
static int write_record(git_repository *repo, const aa_buf *text, aa_diags *d)
{
	aa_buf path = AA_BUF_INIT, tmp = AA_BUF_INIT;
	FILE *f = NULL;
	int r = -1;

	if (aa_review_record_path(repo, &path) < 0 ||
	    aa_buf_printf(&tmp, "%s.tmp", path.ptr) < 0)
		goto out;
	*strrchr(tmp.ptr, '/') = '\0';
	if (mkdir(tmp.ptr, 0777) < 0 && errno != EEXIST)
		goto out;
	tmp.ptr[strlen(tmp.ptr)] = '/';
	f = fopen(tmp.ptr, "wb");
	if (!f)
		goto out;
	if (fwrite(text->ptr, 1, text->len, f) != text->len)
		goto out;
	if (fclose(f) < 0) {
		f = NULL;
		goto out;
	}
	f = NULL;
	r = rename(tmp.ptr, path.ptr);
out:
	if (r < 0)
		aa_warn(d, AA_NOPOS, NULL,
			"cannot write the review record %s: %s",
			path.ptr ? aa_qpath(path.ptr) : RECORD_NAME, strerror(errno));
	if (f)
		fclose(f);
	if (r < 0 && tmp.ptr)
		unlink(tmp.ptr);
	aa_buf_free(&path);
	aa_buf_free(&tmp);
	return r;
}

void aa_review_record(git_repository *repo, aa_apply_result *res)
{
	aa_buf text = AA_BUF_INIT;
	/* the session's index is the one just landed, as written */
	git_index *ix = res->session.index;
	int cached = res->land.mode == AA_LAND_CACHED;
	size_t i;

	aa_buf_puts(&text, "ai-apply-review 3\n");
	aa_buf_printf(&text, "landing\t%s\n", cached ? "cached" : "index");
	put_head(repo, &text);
	put_answers(&res->inputs, &text);
	put_assisted(res, &text);
	for (i = 0; i < res->plan.nchanges; i++)
		if (!strchr(res->plan.changes[i].path, '\n'))
			put_change(repo, &res->plan.changes[i], ix, cached, &text);
	put_warnings(&res->diags, &text);
	if (aa_buf_oom(&text))
		aa_warn(&res->diags, AA_NOPOS, NULL,
			"cannot write the review record: out of memory");
	else
		write_record(repo, &text, &res->diags);
	aa_buf_free(&text);
}

/* ---- reading ---- */

typedef aa_rv_edit rv_edit;
typedef aa_rv_file rv_file;
typedef aa_rv_record rv_record;

void aa_review_record_free(rv_record *r)
{
	size_t i, j;

	for (i = 0; i < r->nfiles; i++) {
		for (j = 0; j < r->files[i].nedits; j++)
			free(r->files[i].edits[j].how);
		free(r->files[i].edits);
		free(r->files[i].path);
	}
	for (i = 0; i < r->nanswers; i++)
		free(r->answers[i]);
	for (i = 0; i < r->nwarnings; i++)
		free(r->warnings[i]);
	free(r->files);
	free(r->assisted);
	free(r->answers);
	free(r->warnings);
	memset(r, 0, sizeof(*r));
}

static int push_str(char ***v, size_t *n, const char *s)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv)
		return -1;
	*v = nv;
	return (nv[*n] = aa_strdup(s)) ? (int)(++*n, 0) : -1;
}

static rv_file *find_file(rv_record *r, const char *path)
{
	size_t i;

	for (i = 0; i < r->nfiles; i++)
		if (!strcmp(r->files[i].path, path))
			return &r->files[i];
	return NULL;
}

static int parse_path_line(rv_record *r, char *rest)
{
	char *tab = strchr(rest, '\t');
	rv_file *nf;

	if (!tab || tab - rest != 40)
		return -1;
	nf = realloc(r->files, (r->nfiles + 1) * sizeof(*nf));
	if (!nf)
		return -1;
	r->files = nf;
	memset(&nf[r->nfiles], 0, sizeof(*nf));
	memcpy(nf[r->nfiles].staged, rest, 40);
	if (!(nf[r->nfiles].path = aa_strdup(tab + 1)))
		return -1;
	r->nfiles++;
	return 0;
}

/*
 * The next tab-ended field of *p (at most cap - 1 bytes) into buf,
 * *p moved past its tab: 0, or -1 when there is none.
 */
static int next_field(char **p, char *buf, size_t cap)
{
	char *tab = strchr(*p, '\t');
	size_t n;

	if (!tab || (n = (size_t)(tab - *p)) >= cap)
		return -1;
	memcpy(buf, *p, n);
	buf[n] = '\0';
	*p = tab + 1;
	return 0;
}

/* "none", "mapped", "deeper:4" (version 2's edit lines). */
static int parse_reindent(const char *s, rv_edit *e)
{
	char name[32], *colon, *end;

	e->reindent_by = 0;
	if (strlen(s) >= sizeof(name))
		return -1;
	strcpy(name, s);
	if ((colon = strchr(name, ':'))) {
		*colon = '\0';
		e->reindent_by = strtol(colon + 1, &end, 10);
		if (end == colon + 1 || *end || e->reindent_by <= 0)
			return -1;
	}
	return aa_reindent_parse(name, &e->reindent);
}

static int parse_edit_line(rv_record *r, char *rest)
{
	char how[32], reindent[32] = "none", *p, *end;
	rv_edit e;
	rv_file *f;
	rv_edit *ne;

	memset(&e, 0, sizeof(e));
	e.line = strtol(rest, &end, 10);
	if (end == rest || *end != '\t')
		return -1;
	p = end + 1;
	e.offset = strtol(p, &end, 10);
	if (end == p || *end != '\t')
		return -1;
	p = end + 1;
	if (next_field(&p, how, sizeof(how)) < 0 ||
	    (r->version >= 2 && next_field(&p, reindent, sizeof(reindent)) < 0) ||
	    parse_reindent(reindent, &e) < 0 || !(f = find_file(r, p)))
		return -1;
	ne = realloc(f->edits, (f->nedits + 1) * sizeof(*ne));
	if (!ne)
		return -1;
	f->edits = ne;
	e.tolerant = aa_how_name_is_tolerant(how);
	if (!(e.how = aa_strdup(how)))
		return -1;
	ne[f->nedits++] = e;
	return 0;
}

/* "<mode>\t<hex>\t": one side of a version 3 line; *p moved past it. */
static int parse_side(char **p, unsigned *mode, char hex[41])
{
	char m[16], *end;
	unsigned long v;

	if (next_field(p, m, sizeof(m)) < 0 || next_field(p, hex, 41) < 0 ||
	    strlen(hex) != 40)
		return -1;
	v = strtoul(m, &end, 8);
	if (end == m || *end || v > 0177777)
		return -1;
	*mode = (unsigned)v;
	return 0;
}

/* before <mode> <blob> <landed mode> <path> */
static int parse_before_line(rv_record *r, char *rest)
{
	char m[16], *end;
	unsigned mode;
	char hex[41];
	unsigned long landed;
	rv_file *f;

	if (parse_side(&rest, &mode, hex) < 0 || next_field(&rest, m, sizeof(m)) < 0)
		return -1;
	landed = strtoul(m, &end, 8);
	if (end == m || *end || landed > 0177777 || !(f = find_file(r, rest)))
		return -1;
	f->has_before = 1;
	f->before_mode = mode;
	memcpy(f->before, hex, 41);
	f->landed_mode = (unsigned)landed;
	return 0;
}

/* conflict <stage 3 blob> <markers blob> <path> */
static int parse_conflict_line(rv_record *r, char *rest)
{
	char theirs[41], markers[41];
	rv_file *f;

	if (next_field(&rest, theirs, sizeof(theirs)) < 0 || strlen(theirs) != 40 ||
	    next_field(&rest, markers, sizeof(markers)) < 0 ||
	    strlen(markers) != 40 || !(f = find_file(r, rest)))
		return -1;
	f->conflict = 1;
	memcpy(f->theirs, theirs, 41);
	memcpy(f->markers, markers, 41);
	return 0;
}

/* worktree <mode> <blob> <path> */
static int parse_worktree_line(rv_record *r, char *rest)
{
	unsigned mode;
	char hex[41];
	rv_file *f;

	if (parse_side(&rest, &mode, hex) < 0 || !(f = find_file(r, rest)))
		return -1;
	f->has_worktree = 1;
	f->wt_mode = mode;
	memcpy(f->wt, hex, 41);
	return 0;
}

/* The lines version 3 added. 1: not one of them. */
static int parse_v3_line(rv_record *r, char *line)
{
	if (!strcmp(line, "landing\tindex") || !strcmp(line, "landing\tcached")) {
		r->cached = line[8] == 'c';
		return 0;
	}
	if (!strncmp(line, "head\t", 5) && strlen(line + 5) == 40) {
		memcpy(r->head, line + 5, 41);
		r->has_head = 1;
		return 0;
	}
	if (!strncmp(line, "before\t", 7))
		return parse_before_line(r, line + 7);
	if (!strncmp(line, "conflict\t", 9))
		return parse_conflict_line(r, line + 9);
	if (!strncmp(line, "worktree\t", 9))
		return parse_worktree_line(r, line + 9);
	return 1;
}

static int parse_line(rv_record *r, char *line)
{
	int v3 = r->version >= 3 ? parse_v3_line(r, line) : 1;

	if (v3 <= 0)
		return v3;
	if (!strncmp(line, "answer\t", 7))
		return push_str(&r->answers, &r->nanswers, line + 7);
	if (!strncmp(line, "warning\t", 8))
		return push_str(&r->warnings, &r->nwarnings, line + 8);
	if (!strncmp(line, "path\t", 5))
		return parse_path_line(r, line + 5);
	if (!strncmp(line, "edit\t", 5))
		return parse_edit_line(r, line + 5);
	if (!strncmp(line, "assisted\t", 9) && !r->assisted)
		return (r->assisted = aa_strdup(line + 9)) ? 0 : -1;
	return -1;
}

int aa_review_read(const char *file, rv_record *r, aa_diags *d)
{
	FILE *f = fopen(file, "rb");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	long no = 0;
	int bad = 0;

	if (!f)
		return errno == ENOENT ? 0 :
		       aa_error(d, AA_NOPOS, NULL, "cannot read %s: %s",
				aa_qpath(file), strerror(errno));
	while (!bad && (n = getline(&line, &cap, f)) >= 0) {
		if (n && line[n - 1] == '\n')
			line[n - 1] = '\0';
		no++;
		if (no == 1) {
			r->version = !strcmp(line, "ai-apply-review 1") ? 1 :
				     !strcmp(line, "ai-apply-review 2") ? 2 :
				     !strcmp(line, "ai-apply-review 3") ? 3 : 0;
			bad = !r->version;
		} else {
			bad = parse_line(r, line) < 0;
		}
	}
	free(line);
	fclose(f);
	if (bad)
		return aa_error(d, (aa_pos){ file, no }, NULL,
				"the review record is damaged (remove it to start over)");
	return 1;
}

/* ---- the state of each recorded path now ---- */

/* The blob HEAD's tree has at path, as hex; zeros when none. */
static void head_blob_hex(git_tree *head, const char *path, char hex[41])
{
	git_tree_entry *e = NULL;

	if (head && !git_tree_entry_bypath(&e, head, path)) {
		git_oid_tostr(hex, 41, git_tree_entry_id(e));
		git_tree_entry_free(e);
	} else {
		git_error_clear();
		strcpy(hex, ZERO_HEX);
	}
}

/* core.filemode (default true): without it the executable bit is noise. */
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

/*
 * Whether the work tree file at path is not (mode, hex) as git would
 * add it (mode 0: absent). A path it cannot read (a directory, beyond
 * a link) differs.
 */
int aa_review_worktree_differs(git_repository *repo, const char *path,
			       unsigned mode, const char *hex, int filemode)
{
	char now[41];
	unsigned m;
	git_oid id;

	if (aa_worktree_probe(repo, path, &id, &m) < 0)
		return 1;
	if (!filemode && m == AA_MODE_EXEC)
		m = AA_MODE_FILE;
	if (!filemode && mode == AA_MODE_EXEC)
		mode = AA_MODE_FILE;
	if (!m || !mode)
		return m != mode;
	git_oid_tostr(now, sizeof(now), &id);
	return m != mode || strcmp(now, hex) != 0;
}

/* The work tree file is not the index's stage 0 entry (none: absent). */
static int differs_from_index(git_repository *repo, git_index *ix,
			      const char *path, int filemode)
{
	const git_index_entry *e = git_index_get_bypath(ix, path, 0);
	char hex[41] = ZERO_HEX;

	if (e)
		git_oid_tostr(hex, sizeof(hex), &e->id);
	return aa_review_worktree_differs(repo, path, e ? e->mode : 0, hex,
					  filemode);
}

/*
 * Whether the work tree changed since the landing and the change is not
 * staged: it is neither what the landing left there (what a default
 * landing wrote, the markers of a conflict; the file as a --cached
 * landing found it, which it does not write) nor the index's entry now
 * (a change since that was staged is the index's: "changed in the
 * index"). Version 1 and 2 records: the work tree against the index.
 */
static int worktree_changed(git_repository *repo, git_index *ix,
			    const rv_record *r, const rv_file *f, int filemode)
{
	unsigned int st = 0;
	int changed = 0;

	if (!git_repository_workdir(repo))
		return 0;
	if (r->version >= 3 && r->cached)
		return f->has_worktree &&
		       aa_review_worktree_differs(repo, f->path, f->wt_mode,
						  f->wt, filemode) &&
		       differs_from_index(repo, ix, f->path, filemode);
	if (r->version >= 3 && f->has_before)
		return aa_review_worktree_differs(repo, f->path, f->landed_mode,
						  f->conflict ? f->markers : f->staged,
						  filemode) &&
		       differs_from_index(repo, ix, f->path, filemode);
	if (!git_status_file(&st, repo, f->path))
		changed = (st & (GIT_STATUS_WT_MODIFIED | GIT_STATUS_WT_DELETED |
				 GIT_STATUS_WT_TYPECHANGE)) != 0;
	git_error_clear();
	return changed;
}

/* --3way's conflict is still there: no stage 0, stage 3 the recorded blob. */
static int conflict_still(git_index *ix, const rv_file *f)
{
	const git_index_entry *theirs;
	char hex[41];

	if (!f->conflict || git_index_get_bypath(ix, f->path, 0) ||
	    !(theirs = git_index_get_bypath(ix, f->path, 3)))
		return 0;
	git_oid_tostr(hex, sizeof(hex), &theirs->id);
	return !strcmp(hex, f->theirs);
}

/*
 * in_index: the index still holds the staged blob and HEAD does not
 * (committed, reset and restaged all end it), or still the conflict
 * --3way left. Returns how many have it.
 */
static size_t compare_with_index(git_repository *repo, git_index *ix,
				 git_tree *head, rv_record *r)
{
	int filemode = filemode_of(repo);
	size_t i, n = 0;

	for (i = 0; i < r->nfiles; i++) {
		rv_file *f = &r->files[i];
		char in_head[41];

		index_blob_hex(ix, f->path, f->now);
		head_blob_hex(head, f->path, in_head);
		f->conflict_now = conflict_still(ix, f);
		f->in_index = f->conflict_now ||
			      (!f->conflict && !strcmp(f->now, f->staged) &&
			       strcmp(in_head, f->staged) != 0);
		n += f->in_index;
		f->worktree_changed = worktree_changed(repo, ix, r, f, filemode);
	}
	return n;
}

static size_t tolerant_count(const rv_file *f)
{
	size_t i, n = 0;

	for (i = 0; i < f->nedits; i++)
		n += f->edits[i].tolerant;
	return n;
}

/* ---- the diff, HEAD's tree to the index, restricted to the record ---- */

typedef struct rv_print {
	rv_record *r;
	aa_buf *out;
	const rv_file *file;  /* the delta's recorded file */
	int mark;             /* this hunk holds a tolerant placement */
	int margin;           /* 0 (--json): the plain patch */
	const aa_color *color; /* NULL (--json) or off: plain */
	git_repository *repo;
	aa_diff_colors dc;    /* the delta's colors */
} rv_print;

/* The margin of a line: "! " by a tolerant placement (in tolerant), or "  ". */
static void put_margin(rv_print *p, int mark)
{
	if (!p->margin)
		return;
	if (!mark) {
		aa_buf_puts(p->out, "  ");
		return;
	}
	aa_buf_printf(p->out, "%s!%s ", aa_color_get(p->color, AA_COLOR_TOLERANT),
		      aa_color_get(p->color, AA_COLOR_RESET));
}

/*
 * The tolerant edits whose line falls in the hunk's old range (the line
 * before the edit: close to HEAD's, as other edits may shift it), each
 * a margin note in tolerant.
 */
static void hunk_placements(const rv_file *f, const git_diff_hunk *h,
			    const aa_color *c, aa_buf *out)
{
	long lo = h->old_start, hi = h->old_start + (h->old_lines ? h->old_lines : 1);
	const char *set = aa_color_get(c, AA_COLOR_TOLERANT),
		   *reset = aa_color_get(c, AA_COLOR_RESET);
	size_t i;

	for (i = 0; f && i < f->nedits; i++) {
		const rv_edit *e = &f->edits[i];

		/* no line (a merge places the whole file): every hunk */
		if (e->tolerant && !e->line)
			aa_buf_printf(out, "%s!   ^ %s placement", set, e->how);
		else if (e->tolerant && e->line >= lo && e->line < hi)
			aa_buf_printf(out, "%s!   ^ %s placement at line %ld (offset %+ld)",
				      set, e->how, e->line, e->offset);
		else
			continue;
		if (e->reindent != AA_REINDENT_NONE) {
			aa_buf_puts(out, "; added lines ");
			aa_reindent_describe(e->reindent, e->reindent_by, out);
		}
		aa_buf_printf(out, "%s\n", reset);
	}
}

/* A file header spans several lines: each gets the blank margin. */
static void put_header(rv_print *p, const char *s, size_t len)
{
	while (len) {
		const char *nl = memchr(s, '\n', len);
		size_t n = nl ? (size_t)(nl - s) + 1 : len;

		put_margin(p, 0);
		aa_report_color_line(&p->dc, p->out, GIT_DIFF_LINE_FILE_HDR, s, n);
		s += n;
		len -= n;
	}
}

/* A side's blob, or NULL (none, or unreadable: no blank-at-eof check). */
static git_blob *side_blob(git_repository *repo, const git_diff_file *f)
{
	git_blob *b = NULL;

	if (!(f->flags & GIT_DIFF_FLAG_EXISTS) || git_oid_is_zero(&f->id))
		return NULL;
	if (git_blob_lookup(&b, repo, &f->id) < 0)
		git_error_clear();
	return b;
}

/* A new delta: its colors, from both sides' content when coloring. */
static void start_file(rv_print *p, const git_diff_delta *delta)
{
	git_blob *a, *b;

	p->file = find_file(p->r, delta->new_file.path ?
			    delta->new_file.path : delta->old_file.path);
	aa_report_color_file(&p->dc, p->color, NULL, 0, NULL, 0);
	if (!p->color || !p->color->on)
		return;
	a = side_blob(p->repo, &delta->old_file);
	b = side_blob(p->repo, &delta->new_file);
	/* a missing side is empty, as git's /dev/null */
	aa_report_color_file(&p->dc, p->color,
			     a ? git_blob_rawcontent(a) : "", a ? (size_t)git_blob_rawsize(a) : 0,
			     b ? git_blob_rawcontent(b) : "", b ? (size_t)git_blob_rawsize(b) : 0);
	git_blob_free(a);
	git_blob_free(b);
}

/* A "\\ No newline at end of file" line, which starts with the newline
 * the line before it lacks. */
static int lead_newline(const git_diff_line *l)
{
	return (l->origin == GIT_DIFF_LINE_CONTEXT_EOFNL ||
		l->origin == GIT_DIFF_LINE_ADD_EOFNL ||
		l->origin == GIT_DIFF_LINE_DEL_EOFNL) &&
	       l->content_len && l->content[0] == '\n';
}

static int print_line(const git_diff_delta *delta, const git_diff_hunk *hunk,
		      const git_diff_line *l, void *payload)
{
	rv_print *p = payload;

	if (l->origin == GIT_DIFF_LINE_FILE_HDR)
		start_file(p, delta);
	if (l->origin == GIT_DIFF_LINE_HUNK_HDR) {
		aa_buf marks = AA_BUF_INIT;

		hunk_placements(p->file, hunk, p->color, &marks);
		p->mark = marks.len > 0;
		put_margin(p, p->mark);
		aa_report_color_line(&p->dc, p->out, l->origin, l->content,
				     l->content_len);
		if (marks.ptr && p->margin)
			aa_buf_puts(p->out, marks.ptr);
		aa_buf_free(&marks);
		return 0;
	}
	if (l->origin == GIT_DIFF_LINE_FILE_HDR) {
		put_header(p, l->content, l->content_len);
		p->mark = 0;
		return 0;
	}
	if (lead_newline(l)) {
		/* "\n\\ No newline ...": the "\n" ends the line before the margin */
		aa_buf_putc(p->out, '\n');
		put_margin(p, p->mark);
		aa_report_color_line(&p->dc, p->out, l->origin, l->content + 1,
				     l->content_len - 1);
		return 0;
	}
	put_margin(p, p->mark);
	aa_report_color_line(&p->dc, p->out, l->origin, l->content, l->content_len);
	return 0;
}

/*
 * A conflict --3way left: stage 2 (the content before the landing) to
 * the work tree's content with its markers, as the landing wrote it.
 */
static int conflict_diff(rv_print *p, git_index *ix, const rv_file *f)
{
	const git_index_entry *ours = git_index_get_bypath(ix, f->path, 2);
	git_blob *a = NULL, *b = NULL;
	git_patch *patch = NULL;
	git_oid id;
	int r = -1;

	if (git_oid_fromstr(&id, f->markers) == 0 &&
	    git_blob_lookup(&b, p->repo, &id) == 0 &&
	    (!ours || git_blob_lookup(&a, p->repo, &ours->id) == 0) &&
	    git_patch_from_blobs(&patch, a, f->path, b, f->path, NULL) == 0)
		r = git_patch_print(patch, print_line, p);
	git_patch_free(patch);
	git_blob_free(a);
	git_blob_free(b);
	return r;
}

static int build_diff(git_repository *repo, git_index *ix, git_tree *head,
		      rv_record *r, const aa_color *color, int margin,
		      aa_buf *out, aa_diags *d)
{
	git_diff_options o;
	git_diff *diff = NULL;
	char **paths = calloc(r->nfiles ? r->nfiles : 1, sizeof(*paths));
	rv_print p = { r, out, NULL, 0, margin, margin ? color : NULL, repo,
		       { NULL, 0, 0, 0, 0 } };
	size_t i, n = 0;
	int rc = -1;

	if (!paths)
		return aa_oom(d, AA_NOPOS, NULL);
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	/* conflicts are shown apart: HEAD to the index says "deleted" */
	for (i = 0; i < r->nfiles; i++)
		if (!r->files[i].conflict_now)
			paths[n++] = r->files[i].path;
	o.pathspec.strings = paths;
	o.pathspec.count = n;
	o.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
	if (n && (git_diff_tree_to_index(&diff, repo, head, ix, &o) < 0 ||
		  git_diff_print(diff, GIT_DIFF_FORMAT_PATCH, print_line, &p) < 0))
		aa_error(d, AA_NOPOS, NULL, "cannot diff HEAD to the index: %s",
			 aa_git_error("unknown error"));
	else
		rc = 0;
	for (i = 0; !rc && i < r->nfiles; i++)
		if (r->files[i].conflict_now &&
		    conflict_diff(&p, ix, &r->files[i]) < 0)
			rc = aa_error(d, AA_NOPOS, r->files[i].path,
				      "cannot show the conflict: %s",
				      aa_git_error("unknown error"));
	git_diff_free(diff);
	free(paths);
	return rc;
}

/* ---- output ---- */

/*
 * "a.txt: 2 edits, 1 tolerant (whitespace re-indented); changed in the
 * work tree since staging", the tolerant part in tolerant when there is one.
 */
static void file_summary(const rv_file *f, const aa_color *c, aa_buf *out)
{
	size_t i, nt = tolerant_count(f), k = 0;

	aa_buf_printf(out, "%s: %zu edit%s, %s%zu tolerant", aa_qpath(f->path),
		      f->nedits, f->nedits == 1 ? "" : "s",
		      nt ? aa_color_get(c, AA_COLOR_TOLERANT) : "", nt);
	for (i = 0; i < f->nedits; i++)
		if (f->edits[i].tolerant)
			aa_buf_printf(out, "%s%s%s", k++ ? ", " : " (", f->edits[i].how,
				      f->edits[i].reindent != AA_REINDENT_NONE ?
				      " re-indented" : "");
	aa_buf_puts(out, k ? ")" : "");
	aa_buf_puts(out, nt ? aa_color_get(c, AA_COLOR_RESET) : "");
	if (f->conflict_now)
		aa_buf_puts(out, "; conflict: stages 1, 2 and 3 in the index, "
			    "conflict markers in the work tree");
	else if (f->conflict)
		aa_buf_puts(out, strcmp(f->now, ZERO_HEX) ?
			    "; conflict resolved since staging" :
			    "; changed in the index since staging");
	else if (!f->in_index)
		aa_buf_puts(out, strcmp(f->now, f->staged) ?
			    "; changed in the index since staging" :
			    "; committed");
	if (f->worktree_changed)
		aa_buf_puts(out, "; changed in the work tree since staging");
	aa_buf_putc(out, '\n');
}

static void print_human(FILE *out, const rv_record *r, const aa_buf *diff,
			const aa_color *c)
{
	aa_buf s = AA_BUF_INIT;
	size_t i;

	for (i = 0; i < r->nanswers; i++) {
		const char *tab = strchr(r->answers[i], '\t');

		aa_buf_printf(&s, "answer %.*s %s\n", 12, r->answers[i],
			      tab ? tab + 1 : "");
	}
	for (i = 0; i < r->nfiles; i++)
		file_summary(&r->files[i], c, &s);
	for (i = 0; i < r->nwarnings; i++) {
		const char *tab = strchr(r->warnings[i], '\t');

		/* the keyword colored as the diagnostics color it */
		aa_buf_printf(&s, "%swarning%s: %s: %.*s\n",
			      aa_color_get(c, AA_COLOR_WARNING),
			      aa_color_get(c, AA_COLOR_RESET), tab ? tab + 1 : "",
			      (int)(tab ? (size_t)(tab - r->warnings[i]) :
				    strlen(r->warnings[i])), r->warnings[i]);
	}
	if (s.ptr)
		fputs(s.ptr, out);
	if (diff->ptr) {
		fputc('\n', out);
		fputs(diff->ptr, out);
	}
	aa_buf_free(&s);
}

static cJSON *json_file(const rv_file *f)
{
	cJSON *o = cJSON_CreateObject(), *edits = cJSON_CreateArray();
	size_t i;

	cJSON_AddStringToObject(o, "path", f->path);
	cJSON_AddStringToObject(o, "staged_blob", f->staged);
	cJSON_AddStringToObject(o, "index_blob", f->now);
	cJSON_AddBoolToObject(o, "staged", f->in_index);
	cJSON_AddBoolToObject(o, "changed_in_index", strcmp(f->now, f->staged) != 0);
	cJSON_AddBoolToObject(o, "changed_in_worktree", f->worktree_changed);
	cJSON_AddBoolToObject(o, "conflict", f->conflict_now);
	cJSON_AddNumberToObject(o, "tolerant", (double)tolerant_count(f));
	for (i = 0; i < f->nedits; i++) {
		cJSON *e = cJSON_CreateObject();

		cJSON_AddNumberToObject(e, "line", (double)f->edits[i].line);
		cJSON_AddNumberToObject(e, "offset", (double)f->edits[i].offset);
		cJSON_AddStringToObject(e, "how", f->edits[i].how);
		cJSON_AddBoolToObject(e, "tolerant", f->edits[i].tolerant);
		cJSON_AddStringToObject(e, "reindent", aa_reindent_name(f->edits[i].reindent));
		cJSON_AddNumberToObject(e, "reindent_by", (double)f->edits[i].reindent_by);
		cJSON_AddItemToArray(edits, e);
	}
	cJSON_AddItemToObject(o, "edits", edits);
	return o;
}

static cJSON *json_pairs(char *const *v, size_t n, const char *k1,
			 const char *k2)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject();
		const char *tab = strchr(v[i], '\t');
		char *first = aa_strndup(v[i], tab ? (size_t)(tab - v[i]) : strlen(v[i]));

		cJSON_AddStringToObject(o, k1, first ? first : "");
		cJSON_AddStringToObject(o, k2, tab ? tab + 1 : "");
		free(first);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

/* {"status": "staged"|"none"|"error", "answers", "files", "warnings", "diff", "errors"} */
static void print_json(FILE *out, const char *status, const rv_record *r,
		       const aa_buf *diff, const aa_diags *d)
{
	cJSON *o = cJSON_CreateObject(), *files = cJSON_CreateArray(),
	      *errors = cJSON_CreateArray();
	char *text;
	size_t i;

	cJSON_AddStringToObject(o, "status", status);
	cJSON_AddItemToObject(o, "answers", json_pairs(r->answers, r->nanswers,
						       "blob", "name"));
	if (r->assisted)
		cJSON_AddStringToObject(o, "assisted_by", r->assisted);
	else
		cJSON_AddNullToObject(o, "assisted_by");
	for (i = 0; i < r->nfiles; i++)
		cJSON_AddItemToArray(files, json_file(&r->files[i]));
	cJSON_AddItemToObject(o, "files", files);
	cJSON_AddItemToObject(o, "warnings", json_pairs(r->warnings, r->nwarnings,
							"message", "path"));
	cJSON_AddStringToObject(o, "diff", diff->ptr ? diff->ptr : "");
	for (i = 0; i < d->n; i++)
		if (d->v[i].level == AA_DIAG_ERROR) {
			/* as the other reports: {"message", "input", "line"} */
			cJSON *e = cJSON_CreateObject();

			cJSON_AddStringToObject(e, "message", d->v[i].msg);
			if (d->v[i].input)
				cJSON_AddStringToObject(e, "input", d->v[i].input);
			if (d->v[i].line)
				cJSON_AddNumberToObject(e, "line", (double)d->v[i].line);
			cJSON_AddItemToArray(errors, e);
		}
	cJSON_AddItemToObject(o, "errors", errors);
	text = cJSON_Print(o);
	if (text)
		fprintf(out, "%s\n", text);
	else
		fputs("{\"status\": \"error\", \"errors\": [\"out of memory\"]}\n", out);
	free(text);
	cJSON_Delete(o);
}

/* ---- --review ---- */

/*
 * Marks the record as looked at: ai-apply/review.seen holds the blob id
 * of the record shown, which the contrib pre-commit hook compares with
 * the record's (a new landing's record is then unseen). A failure is a
 * warning: the review was printed.
 */
static void mark_seen(const char *record, aa_diags *d)
{
	aa_buf seen = AA_BUF_INIT;
	char hex[41];
	git_oid id;
	FILE *f;
	int written;

	if (git_odb_hashfile(&id, record, GIT_OBJECT_BLOB) < 0 ||
	    aa_buf_printf(&seen, "%s.seen", record) < 0) {
		aa_warn(d, AA_NOPOS, NULL, "cannot mark %s as seen",
			aa_qpath(record));
		aa_buf_free(&seen);
		return;
	}
	git_oid_tostr(hex, sizeof(hex), &id);
	f = fopen(seen.ptr, "wb");
	written = f && fprintf(f, "%s\n", hex) > 0;
	if (f && fclose(f) < 0)
		written = 0;
	if (!written)
		aa_warn(d, AA_NOPOS, NULL, "cannot write %s: %s",
			aa_qpath(seen.ptr), strerror(errno));
	aa_buf_free(&seen);
}

void aa_review_drop(const char *file, aa_diags *d)
{
	aa_buf seen = AA_BUF_INIT;

	if (unlink(file) < 0 && errno != ENOENT)
		aa_warn(d, AA_NOPOS, NULL, "cannot remove %s: %s",
			aa_qpath(file), strerror(errno));
	if (aa_buf_printf(&seen, "%s.seen", file) == 0)
		unlink(seen.ptr);
	aa_buf_free(&seen);
}

static int open_state(git_repository *repo, git_index **ix, git_tree **head,
		      aa_diags *d)
{
	git_object *obj = NULL;

	if (git_repository_index(ix, repo) < 0 || git_index_read(*ix, 1) < 0)
		return aa_error(d, AA_NOPOS, NULL, "cannot read the index: %s",
				aa_git_error("unknown error"));
	/* an unborn HEAD: everything staged is new */
	if (git_revparse_single(&obj, repo, "HEAD^{tree}") < 0) {
		git_error_clear();
		*head = NULL;
		return 0;
	}
	*head = (git_tree *)obj;
	return 0;
}

int aa_review_show(git_repository *repo, FILE *out, int json,
		   const aa_color *color, aa_diags *d)
{
	rv_record r;
	aa_buf path = AA_BUF_INIT, diff = AA_BUF_INIT;
	git_index *ix = NULL;
	git_tree *head = NULL;
	int found, rc = -1;
	const char *status = "error";

	memset(&r, 0, sizeof(r));
	if (aa_review_record_path(repo, &path) < 0) {
		aa_oom(d, AA_NOPOS, NULL);
		goto out;
	}
	found = aa_review_read(path.ptr, &r, d);
	if (found < 0 || open_state(repo, &ix, &head, d) < 0)
		goto out;
	if (found && !compare_with_index(repo, ix, head, &r)) {
		/* committed, reset or restaged: nothing of it is staged now */
		aa_review_drop(path.ptr, d);
		found = 0;
	}
	if (!found) {
		aa_review_record_free(&r);
		status = "none";
		rc = 0;
		goto out;
	}
	if (build_diff(repo, ix, head, &r, color, !json, &diff, d) < 0)
		goto out;
	status = "staged";
	rc = 0;
	mark_seen(path.ptr, d);
out:
	if (json)
		print_json(out, status, &r, &diff, d);
	else if (rc == 0 && !strcmp(status, "none"))
		fputs("no staged AI change to review\n", out);
	else if (rc == 0)
		print_human(out, &r, &diff, color);
	aa_review_record_free(&r);
	git_tree_free(head);
	git_index_free(ix);
	aa_buf_free(&path);
	aa_buf_free(&diff);
	return rc;
}
