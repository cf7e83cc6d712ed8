/*
 * The revision the answer was written against (libgit2 side).
 *
 * Candidates, newest first: the blob a diff's "index <old>..<new>" line
 * names, when the object exists (as git apply --3way); then the path's
 * history from the base commit backwards along first parents, one
 * version per blob id the path took. Each commit costs one tree lookup
 * by path: no diff of whole trees, no checkout, nothing O(repository).
 * The search is bounded in commits walked, versions offered and time.
 *
 * The merge is git_merge_file over the three buffers; nothing is
 * checked out and nothing written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "plan/history.h"
#include "plan/history_pack.h"
#include "util/util.h"

#define CONFLICT_LINES_SHOWN 4
#define QUOTE_MAX 100

typedef struct search {
	const aa_history_repo *s;
	const char *path;
	aa_version_fn fn;
	void *payload;
	git_oid *seen;           /* blob ids already offered */
	size_t nseen, capseen;
	size_t max_commits, max_versions;
	size_t offered;          /* versions handed to fn */
	long max_msec;
	struct timespec start;
	int stopped;             /* fn said stop */
	char *bound;             /* the bound that ended the search */
	aa_hpack *packs;         /* each version made once (history_pack.h) */
	const aa_version_filter *filter; /* versions fn need not see */
	int walk_packs;          /* commits and trees read from the packs */
} search;

static long elapsed_msec(const search *se)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)(now.tv_sec - se->start.tv_sec) * 1000 +
	       (now.tv_nsec - se->start.tv_nsec) / 1000000;
}

/* A bound from the environment (for tests), else the default. */
static size_t env_bound(const char *name, size_t dflt)
{
	const char *v = getenv(name);
	char *end;
	unsigned long n;

	if (!v || !*v)
		return dflt;
	n = strtoul(v, &end, 10);
	return *end ? dflt : (size_t)n;
}

static int was_seen(const search *se, const git_oid *id)
{
	size_t i;

	for (i = 0; i < se->nseen; i++)
		if (git_oid_equal(&se->seen[i], id))
			return 1;
	return 0;
}

static int remember(search *se, const git_oid *id)
{
	if (AA_GROW(se->seen, se->nseen, se->capseen) < 0)
		return -1;
	git_oid_cpy(&se->seen[se->nseen++], id);
	return 0;
}

static void set_bound(search *se, const char *fmt, unsigned long n)
{
	char msg[160];

	snprintf(msg, sizeof(msg), fmt, n);
	free(se->bound);
	se->bound = aa_strdup(msg);
}

/*
 * Offers one blob (once per id): 0 go on, 1 stop, -1 error. Its bytes
 * come from the packs as this search made them, else from libgit2. A
 * version the pack reader shows to lack a needle of the filter is
 * counted and passed over unmade, as fn would pass it over.
 */
static int offer(search *se, const git_oid *id, const char *label)
{
	git_blob *blob = NULL;
	const char *data;
	size_t len;
	int r, held = -1;

	if (was_seen(se, id))
		return 0;
	if (se->offered >= se->max_versions) {
		set_bound(se, "the history search stopped after %lu versions of the file (its bound)",
			  (unsigned long)se->max_versions);
		return 1;
	}
	if (remember(se, id) < 0)
		return -1;
	if (se->filter && (held = aa_hpack_holds(se->packs, id, se->filter)) == 0) {
		se->offered++;
		return 0;
	}
	if (se->filter && se->filter->held)
		*se->filter->held = held == 1;
	if (aa_hpack_read(se->packs, id, &data, &len) != 0) {
		if (git_blob_lookup(&blob, se->s->repo, id) < 0)
			return -1;
		data = git_blob_rawcontent(blob) ? git_blob_rawcontent(blob) : "";
		len = (size_t)git_blob_rawsize(blob);
	}
	se->offered++;
	r = se->fn(label, data, len, se->payload);
	git_blob_free(blob);
	if (r)
		se->stopped = 1;
	return r ? 1 : 0;
}

/* The hint: a full or unique abbreviated id of an existing blob. */
static int offer_hint(search *se, const char *hint)
{
	size_t len = strlen(hint);
	git_oid shortid, id;
	git_odb *odb;
	git_object_t type;
	size_t size;
	char label[96];
	int r;

	if (git_oid_fromstrn(&shortid, hint, len) < 0 ||
	    git_repository_odb(&odb, se->s->repo) < 0)
		return 0;
	r = git_odb_exists_prefix(&id, odb, &shortid, len);
	if (!r)
		r = git_odb_read_header(&size, &type, odb, &id);
	git_odb_free(odb);
	if (r < 0 || type != GIT_OBJECT_BLOB)
		return 0; /* absent, ambiguous or not a blob: no hint */
	snprintf(label, sizeof(label), "blob %.7s (the diff's index line)",
		 git_oid_tostr_s(&id));
	return offer(se, &id, label);
}

/* The commit to start from: --base (the session's), else HEAD; NULL if none. */
static git_commit *start_commit(const aa_history_repo *s)
{
	git_commit *c = NULL;
	git_object *obj = NULL;

	if (s->base_commit) {
		git_commit_dup(&c, s->base_commit);
		return c;
	}
	if (s->no_head)
		return NULL; /* unborn HEAD */
	if (git_revparse_single(&obj, s->repo, "HEAD") < 0)
		return NULL;
	if (git_object_peel((git_object **)&c, obj, GIT_OBJECT_COMMIT) < 0)
		c = NULL;
	git_object_free(obj);
	return c;
}

/* What the walk needs of a commit. */
typedef struct commit_parts {
	git_oid tree, parent;     /* parent: the first */
	unsigned nparents;
} commit_parts;

/* A commit's tree and first parent as libgit2 reads them: 0, or -1. */
static int parts_git(search *se, const git_oid *id, commit_parts *cp)
{
	git_commit *c;

	if (git_commit_lookup(&c, se->s->repo, id) < 0)
		return -1;
	git_oid_cpy(&cp->tree, git_commit_tree_id(c));
	cp->nparents = git_commit_parentcount(c);
	if (cp->nparents)
		git_oid_cpy(&cp->parent, git_commit_parent_id(c, 0));
	git_commit_free(c);
	return 0;
}

/* "<word> <40 hex digits>\n" at *p (below end): 1 read (p moves on), 0 not. */
static int header_id(const char **p, const char *end, const char *word, git_oid *id)
{
	size_t w = strlen(word);

	if ((size_t)(end - *p) < w + 42 || memcmp(*p, word, w) || (*p)[w] != ' ' ||
	    (*p)[w + 41] != '\n' || git_oid_fromstrn(id, *p + w + 1, 40) < 0)
		return 0;
	*p += w + 42;
	return 1;
}

/*
 * A commit's parts from the packs when the history reader has it (its
 * "tree" line, then its "parent" lines), else from libgit2. Not in a
 * shallow or grafted repository (walk_from_packs): libgit2 reads those
 * parents from elsewhere.
 */
static int commit_parts_of(search *se, const git_oid *id, commit_parts *cp)
{
	const char *data, *p, *end;
	size_t len;
	git_oid parent;
	int type;

	if (!se->walk_packs || aa_hpack_object(se->packs, id, &type, &data, &len) != 0 ||
	    type != GIT_OBJECT_COMMIT)
		return parts_git(se, id, cp);
	p = data;
	end = data + len;
	if (!header_id(&p, end, "tree", &cp->tree))
		return parts_git(se, id, cp);
	cp->nparents = 0;
	while (header_id(&p, end, "parent", &parent))
		if (!cp->nparents++)
			git_oid_cpy(&cp->parent, &parent);
	return 0;
}

/* The path's blob id under a tree, by libgit2: 0 found, 1 absent (or not a file), -1 error. */
static int blob_under_git(search *se, const git_oid *tree_id, const char *path,
			  git_oid *id)
{
	git_tree *tree;
	git_tree_entry *e = NULL;
	int r;

	if (git_tree_lookup(&tree, se->s->repo, tree_id) < 0)
		return -1;
	r = git_tree_entry_bypath(&e, tree, path);
	git_tree_free(tree);
	if (r == GIT_ENOTFOUND)
		return 1;
	if (r < 0)
		return -1;
	r = git_tree_entry_type(e) == GIT_OBJECT_BLOB ? 0 : 1;
	if (!r)
		git_oid_cpy(id, git_tree_entry_id(e));
	git_tree_entry_free(e);
	return r;
}

/*
 * The entry `name` (len bytes) of a tree's bytes: 1 found (*mode, *id),
 * 0 not there, -1 the tree does not parse.
 */
static int tree_entry(const char *data, size_t len, const char *name, size_t nlen,
		      unsigned *mode, git_oid *id)
{
	const char *p = data, *end = data + len;

	while (p < end) {
		const char *sp = memchr(p, ' ', (size_t)(end - p)), *nul;
		unsigned m = 0;

		if (!sp || sp == p)
			return -1;
		for (; p < sp; p++) {
			if (*p < '0' || *p > '7' || m > 0777777)
				return -1;
			m = m * 8 + (unsigned)(*p - '0');
		}
		p = sp + 1;
		nul = memchr(p, '\0', (size_t)(end - p));
		if (!nul || nul == p || (size_t)(end - nul) < 21)
			return -1;
		if ((size_t)(nul - p) == nlen && !memcmp(p, name, nlen)) {
			*mode = m;
			memcpy(id->id, nul + 1, 20);
			return 1;
		}
		p = nul + 21;
	}
	return 0;
}

/*
 * The path's blob id under a tree: 0 found, 1 absent (or not a file),
 * -1 error. Trees come from the packs while the history reader has
 * them, else libgit2 reads the rest of the path.
 */
static int blob_under(search *se, const git_oid *tree_id, git_oid *id)
{
	const char *path = se->path, *data;
	git_oid tree = *tree_id;
	size_t len;
	int type;

	for (;;) {
		const char *slash = strchr(path, '/');
		size_t nlen = slash ? (size_t)(slash - path) : strlen(path);
		unsigned mode;
		int r;

		if (!se->walk_packs || aa_hpack_object(se->packs, &tree, &type, &data, &len) != 0 ||
		    type != GIT_OBJECT_TREE)
			return blob_under_git(se, &tree, path, id);
		r = tree_entry(data, len, path, nlen, &mode, id);
		if (r < 0)
			return blob_under_git(se, &tree, path, id);
		if (!r)
			return 1;
		if (!slash)
			return (mode & 0170000) == 0040000 || (mode & 0170000) == 0160000 ? 1 : 0;
		if ((mode & 0170000) != 0040000)
			return 1;
		tree = *id;
		path = slash + 1;
	}
}

/*
 * Whether the walk may read commits and trees from the packs itself:
 * not when a shallow file or grafts change what a commit's parents
 * are (libgit2 applies them), and not for a path libgit2 would read
 * in another way (empty components).
 */
static int walk_from_packs(const search *se)
{
	const char *dir = git_repository_commondir(se->s->repo);
	const char *files[] = { "shallow", "info/grafts" };
	aa_buf p = AA_BUF_INIT;
	size_t i;
	int ok = se->packs && dir && *se->path && se->path[0] != '/' &&
		 !strstr(se->path, "//") && se->path[strlen(se->path) - 1] != '/';

	for (i = 0; ok && i < sizeof(files) / sizeof(*files); i++) {
		aa_buf_clear(&p);
		ok = aa_buf_printf(&p, "%s%s", dir, files[i]) == 0 && access(p.ptr, F_OK) != 0;
	}
	aa_buf_free(&p);
	return ok;
}

/*
 * First parents from the start commit: a version is offered where the
 * path's blob id differs from the newer commit's (its newest commit).
 */
static int walk(search *se)
{
	git_commit *start = start_commit(se->s);
	commit_parts cp;
	git_oid cid, prev, id;
	size_t visited = 0;
	int have_prev = 0, r;

	if (!start)
		return 0;
	git_oid_cpy(&cid, git_commit_id(start));
	git_commit_free(start);
	se->walk_packs = walk_from_packs(se);
	r = commit_parts_of(se, &cid, &cp);
	while (!r) {
		if (visited++ >= se->max_commits) {
			set_bound(se, "the history search stopped after %lu commits (its bound)",
				  (unsigned long)se->max_commits);
			break;
		}
		if ((visited & 15) == 0 && elapsed_msec(se) > se->max_msec) {
			set_bound(se, "the history search stopped after %lu ms (its time bound)",
				  (unsigned long)se->max_msec);
			break;
		}
		r = blob_under(se, &cp.tree, &id);
		if (r == 0 && (!have_prev || !git_oid_equal(&prev, &id))) {
			char label[32];

			snprintf(label, sizeof(label), "commit %.7s", git_oid_tostr_s(&cid));
			git_oid_cpy(&prev, &id);
			have_prev = 1;
			r = offer(se, &id, label);
		} else if (r == 1) {
			have_prev = 0; /* absent here: older versions may differ */
			r = 0;
		}
		if (r || cp.nparents == 0)
			break;
		git_oid_cpy(&cid, &cp.parent);
		r = commit_parts_of(se, &cid, &cp) < 0 ? -1 : 0;
	}
	return r < 0 ? -1 : 0;
}

int aa_history_versions(void *ctx, const char *path, const char *hint,
			const aa_oid *current, const aa_version_filter *filter,
			aa_version_fn fn, void *payload, char **bound)
{
	search se;
	int r = 0;

	memset(&se, 0, sizeof(se));
	if (current) {
		/* seen already: the planner has it */
		git_oid id;

		memset(&id, 0, sizeof(id));
		memcpy(id.id, current->id, sizeof(current->id));
		if (remember(&se, &id) < 0)
			return -1;
	}
	se.s = ctx;
	se.path = path;
	se.fn = fn;
	se.payload = payload;
	se.filter = filter && filter->n ? filter : NULL;
	se.max_commits = env_bound("AIAPPLY_HISTORY_MAX_COMMITS", AA_HISTORY_MAX_COMMITS);
	se.max_versions = env_bound("AIAPPLY_HISTORY_MAX_VERSIONS", AA_HISTORY_MAX_VERSIONS);
	se.max_msec = (long)env_bound("AIAPPLY_HISTORY_MAX_MSEC", AA_HISTORY_MAX_MSEC);
	clock_gettime(CLOCK_MONOTONIC, &se.start);
	se.packs = aa_hpack_open(se.s->repo);
	if (hint && *hint)
		r = offer_hint(&se, hint);
	if (r == 0 && !(filter && filter->hint_only))
		r = walk(&se);
	aa_hpack_close(se.packs);
	free(se.seen);
	*bound = se.bound;
	return r < 0 ? -1 : 0;
}

/* ---- the merge ---- */

static void set_input(git_merge_file_input *in, const char *path,
		      const char *data, size_t len)
{
	git_merge_file_input_init(in, GIT_MERGE_FILE_INPUT_VERSION);
	in->ptr = data;
	in->size = len;
	in->path = path;
	in->mode = 0100644;
}

/* The three sides of a merge of one path, as git_merge_file takes them. */
typedef struct merge_sides {
	const char *path;
	const char *base, *ours, *theirs;
	size_t base_len, ours_len, theirs_len;
} merge_sides;

/* git_merge_file over buffers, with these labels and style flags. */
static int merge_buffers(const merge_sides *m, const char *base_label,
			 const char *our_label, const char *their_label,
			 unsigned flags, git_merge_file_result *res)
{
	git_merge_file_input in_base, in_ours, in_theirs;
	git_merge_file_options mo;

	set_input(&in_base, m->path, m->base, m->base_len);
	set_input(&in_ours, m->path, m->ours, m->ours_len);
	set_input(&in_theirs, m->path, m->theirs, m->theirs_len);
	git_merge_file_options_init(&mo, GIT_MERGE_FILE_OPTIONS_VERSION);
	mo.ancestor_label = base_label;
	mo.our_label = our_label;
	mo.their_label = their_label;
	mo.flags = flags;
	memset(res, 0, sizeof(*res));
	return git_merge_file(res, &in_base, &in_ours, &in_theirs, &mo);
}

int aa_history_merge3(void *ctx, const char *path, const char *base_label,
		      const char *base, size_t base_len,
		      const char *ours, size_t ours_len,
		      const char *theirs, size_t theirs_len, aa_buf *out)
{
	merge_sides m = { path, base, ours, theirs, base_len, ours_len, theirs_len };
	git_merge_file_result res;
	int r;

	(void)ctx;
	if (merge_buffers(&m, base_label, "current", "answer", 0, &res) < 0)
		return -1;
	aa_buf_clear(out);
	if (res.automergeable)
		r = aa_buf_put(out, res.ptr ? res.ptr : "", res.len) < 0 ? -1 : 0;
	else
		r = aa_history_describe_conflict(res.ptr ? res.ptr : "", res.len, out) < 0 ? -1 : 1;
	git_merge_file_result_free(&res);
	return r;
}

/*
 * merge.conflictStyle as git apply --3way honours it: "diff3" and
 * "zdiff3" add the ancestor's lines under "||||||| base".
 */
static unsigned conflict_style(const aa_history_repo *s)
{
	git_config *cfg = NULL;
	git_buf v = GIT_BUF_INIT;
	unsigned style = GIT_MERGE_FILE_STYLE_MERGE;

	if (!s || !s->repo || git_repository_config_snapshot(&cfg, s->repo) < 0)
		return style;
	if (git_config_get_string_buf(&v, cfg, "merge.conflictstyle") == 0) {
		if (!strcmp(v.ptr, "diff3"))
			style = GIT_MERGE_FILE_STYLE_DIFF3;
		else if (!strcmp(v.ptr, "zdiff3"))
			style = GIT_MERGE_FILE_STYLE_ZDIFF3;
	}
	git_buf_dispose(&v);
	git_config_free(cfg);
	return style;
}

int aa_history_merge3_markers(void *ctx, const char *path,
			      const char *base, size_t base_len,
			      const char *ours, size_t ours_len,
			      const char *theirs, size_t theirs_len, aa_buf *out)
{
	merge_sides m = { path, base, ours, theirs, base_len, ours_len, theirs_len };
	git_merge_file_result res;
	int r;

	/* git apply --3way's labels, so that both write the same bytes */
	if (merge_buffers(&m, "base", "ours", "theirs", conflict_style(ctx), &res) < 0)
		return -1;
	aa_buf_clear(out);
	r = aa_buf_put(out, res.ptr ? res.ptr : "", res.len) < 0 ? -1 :
	    res.automergeable ? 0 : 1;
	git_merge_file_result_free(&res);
	return r;
}

/* ---- describing a conflict ---- */

typedef struct mline {
	const char *s;
	size_t len;
} mline;

static int next_line(const char *buf, size_t len, size_t *off, mline *l)
{
	const char *nl;

	if (*off >= len)
		return 0;
	l->s = buf + *off;
	nl = memchr(l->s, '\n', len - *off);
	l->len = nl ? (size_t)(nl - l->s) : len - *off;
	*off += l->len + (nl ? 1 : 0);
	if (l->len && l->s[l->len - 1] == '\r')
		l->len--;
	return 1;
}

static int is_marker(const mline *l, const char *m)
{
	size_t n = strlen(m);

	return l->len >= n && !memcmp(l->s, m, n);
}

/* Appends a side's lines (at most CONFLICT_LINES_SHOWN). */
static int put_side(aa_buf *out, const char *title, const mline *v, size_t n)
{
	size_t i;
	int r = aa_buf_printf(out, "\n  %s (%zu line%s):", title, n, n == 1 ? "" : "s");

	for (i = 0; !r && i < n && i < CONFLICT_LINES_SHOWN; i++) {
		r = aa_buf_puts(out, "\n    ");
		if (!r)
			r = aa_buf_put_quoted(out, v[i].s, v[i].len, QUOTE_MAX);
	}
	if (!r && n > CONFLICT_LINES_SHOWN)
		r = aa_buf_printf(out, "\n    ... (%zu more)", n - CONFLICT_LINES_SHOWN);
	return r;
}

int aa_history_describe_conflict(const char *merged, size_t len, aa_buf *out)
{
	mline l, ours[CONFLICT_LINES_SHOWN + 1], theirs[CONFLICT_LINES_SHOWN + 1];
	size_t off = 0, line = 0, at = 0, nours = 0, ntheirs = 0, nconf = 0;
	enum { OUTSIDE, OURS, BASE, THEIRS } st = OUTSIDE;
	int r;

	while (next_line(merged, len, &off, &l)) {
		if (st == OUTSIDE && is_marker(&l, "<<<<<<< current")) {
			if (!nconf++)
				at = line + 1;
			st = OURS;
		} else if (st == OURS && is_marker(&l, "||||||| ")) {
			st = BASE;
		} else if ((st == OURS || st == BASE) && is_marker(&l, "=======")) {
			st = THEIRS;
		} else if (st == THEIRS && is_marker(&l, ">>>>>>> answer")) {
			st = OUTSIDE;
		} else if (st == OUTSIDE) {
			line++;
		} else if (st == OURS) {
			line++;
			if (nconf == 1 && nours++ < CONFLICT_LINES_SHOWN + 1)
				ours[nours - 1] = l;
		} else if (st == THEIRS && nconf == 1) {
			if (ntheirs++ < CONFLICT_LINES_SHOWN + 1)
				theirs[ntheirs - 1] = l;
		}
	}
	r = aa_buf_printf(out, "conflict at line %zu of the current content", at);
	if (!r && nconf > 1)
		r = aa_buf_printf(out, " (and %zu more conflicting region%s)",
				  nconf - 1, nconf > 2 ? "s" : "");
	if (!r)
		r = put_side(out, "the current content has", ours, nours);
	if (!r)
		r = put_side(out, "the answer has", theirs, ntheirs);
	return r;
}
