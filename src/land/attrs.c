/*
 * Attribute answers of one base (attrs.h). Two tables: the answers
 * (a question and a path -> libgit2's values, copied), and what the
 * work tree says of a directory or a path (a symbolic link; a
 * .gitattributes in it), each asked of the file system once.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "land/attrs.h"
#include "land/index_read.h"
#include "util/util.h"

/* ---- a small string table (open addressing) ---- */

typedef struct slot {
	char *key;         /* NULL: free */
	uint32_t hash;
	int bits;          /* the work tree's facts (WT_*) */
	size_t n;          /* an answer: n values */
	const char **vals;
} slot;

typedef struct table {
	slot *v;
	size_t cap, n;     /* cap a power of two, or 0 */
} table;

#define WT_LINK  1     /* the path is a symbolic link */
#define WT_ATTRS 2     /* the directory holds a .gitattributes (or cannot tell) */
#define WT_DIR_KNOWN 4 /* WT_ATTRS asked */

struct aa_attrs {
	table answers;
	table paths;       /* work-tree facts per path ("" the top) */
	int globals[2];    /* [no system file]: 0 unknown, 1 none apply, 2 some may */
	int wd_plain;      /* 0 unknown, 1 realpath(work tree) is itself, 2 not */
	int autocrlf;      /* 0 unknown, 1 false or unset, 2 anything else */
	git_oid tree_of;   /* the commit whose tree is kept (commit source) */
	git_tree *tree;
};

static uint32_t hash_of(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static slot *find(table *t, const char *key, size_t len, uint32_t h)
{
	size_t i;

	if (!t->cap)
		return NULL;
	for (i = h & (t->cap - 1); t->v[i].key; i = (i + 1) & (t->cap - 1))
		if (t->v[i].hash == h && !strncmp(t->v[i].key, key, len) &&
		    !t->v[i].key[len])
			return &t->v[i];
	return NULL;
}

static int grow(table *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64, i, k;
	slot *v = calloc(cap, sizeof(*v));

	if (!v)
		return -1;
	for (i = 0; i < t->cap; i++) {
		if (!t->v[i].key)
			continue;
		for (k = t->v[i].hash & (cap - 1); v[k].key; k = (k + 1) & (cap - 1))
			;
		v[k] = t->v[i];
	}
	free(t->v);
	t->v = v;
	t->cap = cap;
	return 0;
}

/* A new slot for key (not in the table); NULL when out of memory. */
static slot *add(table *t, const char *key, size_t len, uint32_t h)
{
	slot *e;
	size_t i;

	if ((t->n + 1) * 2 > t->cap && grow(t) < 0)
		return NULL;
	for (i = h & (t->cap - 1); t->v[i].key; i = (i + 1) & (t->cap - 1))
		;
	e = &t->v[i];
	if (!(e->key = aa_strndup(key, len)))
		return NULL;
	e->hash = h;
	t->n++;
	return e;
}

/* A value of libgit2's kept: its own static true/false/unset, else a copy. */
static int is_string(const char *v)
{
	return git_attr_value(v) == GIT_ATTR_VALUE_STRING;
}

static void table_free(table *t)
{
	size_t i, k;

	for (i = 0; i < t->cap; i++) {
		if (!t->v[i].key)
			continue;
		for (k = 0; t->v[i].vals && k < t->v[i].n; k++)
			if (is_string(t->v[i].vals[k]))
				free((char *)t->v[i].vals[k]);
		free(t->v[i].vals);
		free(t->v[i].key);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

void aa_attrs_free(struct aa_attrs *a)
{
	if (!a)
		return;
	table_free(&a->answers);
	table_free(&a->paths);
	git_tree_free(a->tree);
	free(a);
}

/* ---- the attribute files outside the tree ---- */

/* 1 when something exists at `dir`/`name` (or cannot be told). */
static int exists_in(const char *dir, const char *name)
{
	aa_buf full = AA_BUF_INIT;
	struct stat st;
	int r = 1;

	if (aa_buf_printf(&full, "%s%s%s", dir,
			  *dir && dir[strlen(dir) - 1] != '/' ? "/" : "", name) == 0)
		r = lstat(full.ptr, &st) == 0 || (errno != ENOENT && errno != ENOTDIR);
	aa_buf_free(&full);
	return r;
}

int aa_attrs_search_path_has(int level, const char *name)
{
	git_buf paths = GIT_BUF_INIT;
	const char *p, *end;
	int r;

	if (git_libgit2_opts(GIT_OPT_GET_SEARCH_PATH, level, &paths) < 0) {
		git_error_clear();
		return 1;
	}
	r = 0;
	for (p = paths.ptr; p && *p && !r; p = *end ? end + 1 : end) {
		aa_buf dir = AA_BUF_INIT;

		end = strchr(p, GIT_PATH_LIST_SEPARATOR);
		if (!end)
			end = p + strlen(p);
		if (end > p)
			r = aa_buf_put(&dir, p, (size_t)(end - p)) < 0 ||
			    exists_in(dir.ptr, name);
		aa_buf_free(&dir);
	}
	git_buf_dispose(&paths);
	git_error_clear();
	return r;
}

int aa_attrs_global_files(git_repository *repo, int with_system)
{
	git_buf info = GIT_BUF_INIT;
	git_config *cfg = NULL;
	git_buf v = GIT_BUF_INIT;
	int r = 1;

	if (git_repository_item_path(&info, repo, GIT_REPOSITORY_ITEM_INFO) == 0 &&
	    !exists_in(info.ptr, "attributes") &&
	    !(with_system && aa_attrs_search_path_has(GIT_CONFIG_LEVEL_SYSTEM, "gitattributes")) &&
	    git_repository_config_snapshot(&cfg, repo) == 0) {
		/* core.attributesFile: a file of its own, not worth expanding ~ for */
		if (git_config_get_string_buf(&v, cfg, "core.attributesfile") == 0)
			r = 1;
		else
			r = aa_attrs_search_path_has(GIT_CONFIG_LEVEL_XDG, "attributes");
	}
	git_buf_dispose(&v);
	git_buf_dispose(&info);
	git_config_free(cfg);
	git_error_clear();
	return r;
}

/* ---- where libgit2 would look, per path ---- */

/* The work tree's facts of `path` ("" the top): WT_* bits. */
static int wt_facts(struct aa_attrs *a, const char *wd, const char *path,
		    size_t len, int want_attrs)
{
	uint32_t h = hash_of(path, len);
	slot *e = find(&a->paths, path, len, h);
	aa_buf full = AA_BUF_INIT;
	struct stat st;

	if (!e) {
		if (!(e = add(&a->paths, path, len, h)))
			return WT_LINK | WT_ATTRS;
		if (len && aa_buf_printf(&full, "%s%.*s", wd, (int)len, path) == 0 &&
		    lstat(full.ptr, &st) == 0 && S_ISLNK(st.st_mode))
			e->bits |= WT_LINK;
		aa_buf_free(&full);
	}
	if (want_attrs && !(e->bits & WT_DIR_KNOWN)) {
		if (aa_buf_printf(&full, "%s%.*s", wd, (int)len, path) < 0 ||
		    exists_in(full.ptr, ".gitattributes"))
			e->bits |= WT_ATTRS;
		e->bits |= WT_DIR_KNOWN;
		aa_buf_free(&full);
	}
	return e->bits;
}

/*
 * The work tree resolves to itself (libgit2 walks up from the
 * realpath() of the path's directory and stops at the work tree only
 * when the one begins with the other).
 */
static int wd_plain(struct aa_attrs *a, const char *wd)
{
	char real[PATH_MAX];
	size_t n = strlen(wd);

	if (!a->wd_plain)
		a->wd_plain = realpath(wd, real) && n > 1 && wd[n - 1] == '/' &&
			      !strncmp(real, wd, n - 1) && !real[n - 1] ? 1 : 2;
	return a->wd_plain == 1;
}

/* 1 when the commit's tree holds `dir`/.gitattributes (or cannot tell). */
static int commit_has(aa_session *s, struct aa_attrs *a, const git_oid *commit,
		      const char *dir, size_t len)
{
	git_commit *c = NULL;
	git_tree_entry *e = NULL;
	aa_buf p = AA_BUF_INIT;
	int r;

	if (!a->tree || !git_oid_equal(&a->tree_of, commit)) {
		git_tree_free(a->tree);
		a->tree = NULL;
		if (git_commit_lookup(&c, s->repo, commit) < 0 ||
		    git_commit_tree(&a->tree, c) < 0) {
			git_commit_free(c);
			git_error_clear();
			return 1;
		}
		git_commit_free(c);
		git_oid_cpy(&a->tree_of, commit);
	}
	if (aa_buf_printf(&p, "%.*s%s.gitattributes", (int)len, dir, len ? "/" : "") < 0)
		return 1;
	r = git_tree_entry_bypath(&e, a->tree, p.ptr);
	git_tree_entry_free(e);
	aa_buf_free(&p);
	if (r == GIT_ENOTFOUND) {
		git_error_clear();
		return 0;
	}
	return 1;
}

/* 1 when the repository's index holds `dir`/.gitattributes, any stage. */
static int index_has(aa_session *s, const char *dir, size_t len)
{
	git_index *idx = NULL;
	aa_buf p = AA_BUF_INIT;
	size_t pos;
	int r = 1;

	if (git_repository_index(&idx, s->repo) < 0) {
		git_error_clear();
		return 0; /* none: libgit2 reads no index either */
	}
	if (aa_buf_printf(&p, "%.*s%s.gitattributes", (int)len, dir, len ? "/" : "") == 0)
		r = git_index_find(&pos, idx, p.ptr) == 0;
	git_error_clear();
	git_index_free(idx);
	aa_buf_free(&p);
	return r;
}

/* One directory ("" the top, else dir[0..len)) in every source ao reads. */
static int dir_has(aa_session *s, struct aa_attrs *a, const git_attr_options *ao,
		   const char *wd, const char *dir, size_t len)
{
	unsigned src = ao->flags & 3;

	if (wd && src <= GIT_ATTR_CHECK_INDEX_THEN_FILE &&
	    (wt_facts(a, wd, dir, len, 1) & WT_ATTRS))
		return 1;
	if (src <= GIT_ATTR_CHECK_INDEX_ONLY && index_has(s, dir, len))
		return 1;
	return (ao->flags & GIT_ATTR_CHECK_INCLUDE_COMMIT) &&
	       commit_has(s, a, &ao->attr_commit_id, dir, len);
}

/*
 * 1 when no attribute file can apply to `path` under ao (then every
 * attribute is unspecified), 0 when one may.
 */
static int none_apply(aa_session *s, struct aa_attrs *a,
		      const git_attr_options *ao, const char *path)
{
	const char *wd = git_repository_workdir(s->repo), *slash;
	int nosys = (ao->flags & GIT_ATTR_CHECK_NO_SYSTEM) != 0;

	if (ao->flags & GIT_ATTR_CHECK_INCLUDE_HEAD)
		return 0;
	if (!a->globals[nosys])
		a->globals[nosys] = aa_attrs_global_files(s->repo, !nosys) ? 2 : 1;
	if (a->globals[nosys] != 1)
		return 0;
	/* libgit2 takes the directory of the path's realpath() */
	if (wd && (!wd_plain(a, wd) || (wt_facts(a, wd, path, strlen(path), 0) & WT_LINK)))
		return 0;
	for (slash = strchr(path, '/'); wd && slash; slash = strchr(slash + 1, '/'))
		if (wt_facts(a, wd, path, (size_t)(slash - path), 0) & WT_LINK)
			return 0;
	if (dir_has(s, a, ao, wd, "", 0))
		return 0;
	for (slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/'))
		if (dir_has(s, a, ao, wd, path, (size_t)(slash - path)))
			return 0;
	return 1;
}

/* ---- the answers ---- */

static struct aa_attrs *memo(aa_session *s)
{
	if (s->attrs_direct || !s->base)
		return NULL;
	if (!s->base->attrs)
		s->base->attrs = calloc(1, sizeof(*s->base->attrs));
	return s->base->attrs;
}

/* The question's key: flags, commit, names, then the path. */
static int question_key(aa_buf *key, const git_attr_options *ao,
			const char *path, size_t n, const char **names)
{
	char hex[GIT_OID_HEXSZ + 1];
	size_t i;

	if (aa_buf_printf(key, "%x:%s", ao->flags,
			  ao->flags & GIT_ATTR_CHECK_INCLUDE_COMMIT ?
			  git_oid_tostr(hex, sizeof(hex), &ao->attr_commit_id) : "") < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (aa_buf_printf(key, ":%s", names[i]) < 0)
			return -1;
	return aa_buf_printf(key, "\n%s", path);
}

/*
 * Keeps values[] under e (the strings copied); all or nothing: e stays
 * without values (asked again next time) when memory runs out.
 */
static int keep(slot *e, size_t n, const char **values)
{
	const char **v = calloc(n ? n : 1, sizeof(*v));
	size_t i;

	for (i = 0; v && i < n; i++) {
		v[i] = is_string(values[i]) ? aa_strdup(values[i]) : values[i];
		if (is_string(values[i]) && !v[i]) {
			while (i--)
				if (is_string(v[i]))
					free((char *)v[i]);
			free(v);
			v = NULL;
		}
	}
	if (!v)
		return -1;
	e->vals = v;
	e->n = n;
	return 0;
}

static int ask(aa_session *s, const git_attr_options *ao, const char *path,
	       size_t n, const char **names, const char **values)
{
	return git_attr_get_many_ext(values, s->repo, (git_attr_options *)ao,
				     path, n, names) < 0 ? -1 : 0;
}

int aa_attrs_get(aa_session *s, const git_attr_options *ao, const char *path,
		 size_t n, const char **names, const char **values)
{
	struct aa_attrs *a = memo(s);
	aa_buf key = AA_BUF_INIT;
	uint32_t h;
	slot *e;
	size_t i;
	int r = 0;

	if (!a || question_key(&key, ao, path, n, names) < 0) {
		aa_buf_free(&key);
		return aa_index_attrs_for(s, path) < 0 ? -1 :
		       ask(s, ao, path, n, names, values);
	}
	h = hash_of(key.ptr, key.len);
	e = find(&a->answers, key.ptr, key.len, h);
	if (!e || !e->vals) {
		if (aa_index_attrs_for(s, path) < 0)
			r = -1;
		else if (none_apply(s, a, ao, path))
			memset(values, 0, n * sizeof(*values));
		else
			r = ask(s, ao, path, n, names, values);
		if (r == 0 && ((!e && !(e = add(&a->answers, key.ptr, key.len, h))) ||
			       keep(e, n, values) < 0))
			e = NULL; /* out of memory: the answer stands, not kept */
		else if (r < 0)
			e = NULL;
	}
	aa_buf_free(&key);
	for (i = 0; e && i < n; i++)
		values[i] = e->vals[i];
	return r;
}

/* core.autocrlf false or unset (libgit2's crlf filter then passes through). */
static int autocrlf_false(aa_session *s, struct aa_attrs *a)
{
	git_config *cfg = NULL;
	git_buf v = GIT_BUF_INIT;
	int b, r;

	if (a && a->autocrlf)
		return a->autocrlf == 1;
	if (git_repository_config_snapshot(&cfg, s->repo) < 0)
		r = 0;
	else if ((r = git_config_get_string_buf(&v, cfg, "core.autocrlf")) == GIT_ENOTFOUND)
		r = 1;
	else
		r = r == 0 && git_config_parse_bool(&b, v.ptr) == 0 && !b;
	git_buf_dispose(&v);
	git_config_free(cfg);
	git_error_clear();
	if (a)
		a->autocrlf = r ? 1 : 2;
	return r;
}

int aa_attrs_plain(aa_session *s, const char *path)
{
	/* what libgit2's crlf and ident filters, a driver and git's encoding read */
	static const char *names[] = { "crlf", "eol", "text", "ident", "filter",
				       "working-tree-encoding" };
	const size_t n = sizeof(names) / sizeof(names[0]);
	const char *values[sizeof(names) / sizeof(names[0])];
	git_attr_options ao;
	size_t i;

	if (!autocrlf_false(s, memo(s)))
		return 0;
	memset(&ao, 0, sizeof(ao));
	ao.version = GIT_ATTR_OPTIONS_VERSION;
	ao.flags = GIT_ATTR_CHECK_FILE_THEN_INDEX;
	if (aa_attrs_get(s, &ao, path, n, names, values) < 0) {
		git_error_clear();
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!GIT_ATTR_IS_UNSPECIFIED(values[i]))
			return 0;
	return 1;
}

void aa_attrs_direct(aa_session *s)
{
	s->attrs_direct = 1;
}

int aa_attrs_is_file(const char *path)
{
	const char *slash = strrchr(path, '/');

	return !strcmp(slash ? slash + 1 : path, ".gitattributes");
}
