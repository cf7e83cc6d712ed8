/*
 * git -c: the command line's settings as a read-only, in-memory
 * configuration backend at libgit2's highest level (include/aiapply/config.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>
#include <git2/sys/config.h>

#include "aiapply/config.h"
#include "land/support.h"
#include "util/util.h"

void aa_config_params_free(aa_config_params *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->v[i].name);
		free(p->v[i].value);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
}

/*
 * "Section.Sub.Name" -> "section.Sub.name": git compares the section
 * and the variable name without case, the subsection with it. NULL
 * when there is no section or no name.
 */
static char *normalized_name(const char *s, size_t len)
{
	const char *first = memchr(s, '.', len), *last = NULL;
	char *out;
	size_t i;

	for (i = len; i-- > 0;)
		if (s[i] == '.') {
			last = s + i;
			break;
		}
	if (!first || first == s || !last || last + 1 == s + len)
		return NULL;
	if (!(out = aa_strndup(s, len)))
		return NULL;
	for (i = 0; i < len; i++)
		if (s + i < first || s + i > last)
			out[i] = (char)tolower((unsigned char)out[i]);
	return out;
}

static int params_add(aa_config_params *p, const char *name, size_t nlen,
		      const char *value, size_t vlen, int has_value)
{
	aa_config_param *e;

	if (AA_GROW(p->v, p->n, p->cap) < 0)
		return -1;
	e = &p->v[p->n];
	e->name = normalized_name(name, nlen);
	e->value = has_value ? aa_strndup(value, vlen) : NULL;
	if (!e->name || (has_value && !e->value)) {
		free(e->name);
		free(e->value);
		return -1;
	}
	p->n++;
	return 0;
}

/*
 * One shell-quoted word at *s (git's sq_quote: '...' with ' written as
 * '\'' and ! as '\!'), stopping at a blank or an unquoted '='. Appends
 * it to w. -1 when a quote is not closed.
 */
static int sq_word(const char **s, aa_buf *w)
{
	const char *p = *s;

	while (*p && *p != ' ' && *p != '=') {
		if (*p == '\'') {
			const char *end = strchr(p + 1, '\'');

			if (!end)
				return -1;
			aa_buf_put(w, p + 1, (size_t)(end - p - 1));
			p = end + 1;
		} else if (*p == '\\' && p[1]) {
			aa_buf_putc(w, p[1]);
			p += 2;
		} else {
			aa_buf_putc(w, *p++);
		}
	}
	*s = p;
	return 0;
}

/* One item: 'name=value', 'name', or 'name'='value' (git >= 2.31). */
static int parse_item(aa_config_params *p, const char **s, const char **why)
{
	aa_buf w = AA_BUF_INIT, v = AA_BUF_INIT;
	const char *eq;
	int r = -1;

	*why = "unterminated quote in GIT_CONFIG_PARAMETERS";
	if (sq_word(s, &w) < 0)
		goto out;
	if (**s == '=') {
		(*s)++;
		if (sq_word(s, &v) < 0)
			goto out;
		*why = "bogus config parameter in GIT_CONFIG_PARAMETERS";
		r = aa_buf_oom(&w) || aa_buf_oom(&v) ? -1 :
		    params_add(p, w.ptr ? w.ptr : "", w.len,
			       v.ptr ? v.ptr : "", v.len, 1);
		goto out;
	}
	*why = "bogus config parameter in GIT_CONFIG_PARAMETERS";
	if (aa_buf_oom(&w) || !w.ptr)
		goto out;
	eq = memchr(w.ptr, '=', w.len);
	r = eq ? params_add(p, w.ptr, (size_t)(eq - w.ptr), eq + 1,
			    w.len - (size_t)(eq - w.ptr) - 1, 1)
	       : params_add(p, w.ptr, w.len, NULL, 0, 0);
out:
	aa_buf_free(&w);
	aa_buf_free(&v);
	return r;
}

int aa_config_parse_parameters(aa_config_params *p, const char *text,
			       const char **why)
{
	const char *s = text;

	while (s && *s) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		if (parse_item(p, &s, why) < 0)
			return -1;
	}
	return 0;
}

/* GIT_CONFIG_COUNT's settings, as git's git_config_from_parameters. */
static int parse_count(aa_config_params *p, const char **why)
{
	const char *env = getenv("GIT_CONFIG_COUNT");
	char *end, key[64];
	unsigned long n, i;

	if (!env || !*env)
		return 0;
	n = strtoul(env, &end, 10);
	if (*end || n > 100000) {
		*why = "bogus count in GIT_CONFIG_COUNT";
		return -1;
	}
	for (i = 0; i < n; i++) {
		const char *k, *v;

		snprintf(key, sizeof(key), "GIT_CONFIG_KEY_%lu", i);
		k = getenv(key);
		snprintf(key, sizeof(key), "GIT_CONFIG_VALUE_%lu", i);
		v = getenv(key);
		if (!k || !*k || !v) {
			*why = "missing GIT_CONFIG_KEY_<n> or GIT_CONFIG_VALUE_<n>";
			return -1;
		}
		if (params_add(p, k, strlen(k), v, strlen(v), 1) < 0) {
			*why = "bogus config key in GIT_CONFIG_KEY_<n>";
			return -1;
		}
	}
	return 0;
}

/* ---- the backend ---- */

typedef struct mem_backend {
	git_config_backend parent;
	aa_config_params params;  /* owned */
	git_config_entry *entries;
	git_config_level_t level;
} mem_backend;

typedef struct mem_iter {
	git_config_iterator parent;
	size_t next;
} mem_iter;

static int mem_open(git_config_backend *b, git_config_level_t level,
		    const git_repository *repo)
{
	mem_backend *m = (mem_backend *)b;
	size_t i;

	(void)repo;
	m->level = level;
	for (i = 0; i < m->params.n; i++)
		m->entries[i].level = level;
	return 0;
}

/* libgit2 frees every entry it gets; ours live as long as the backend. */
static void mem_entry_keep(git_config_entry *e)
{
	(void)e;
}

/* The last value wins, as in a file. */
static int mem_get(git_config_backend *b, const char *key,
		   git_config_entry **out)
{
	mem_backend *m = (mem_backend *)b;
	size_t i;

	for (i = m->params.n; i-- > 0;)
		if (!strcmp(m->entries[i].name, key)) {
			*out = &m->entries[i];
			return 0;
		}
	return GIT_ENOTFOUND;
}

static int mem_readonly(git_config_backend *b, const char *k, const char *v)
{
	(void)b;
	(void)k;
	(void)v;
	git_error_set_str(GIT_ERROR_CONFIG, "the command line's configuration is read-only");
	return -1;
}

static int mem_readonly_multi(git_config_backend *b, const char *k,
			      const char *re, const char *v)
{
	(void)re;
	return mem_readonly(b, k, v);
}

static int mem_del(git_config_backend *b, const char *k)
{
	return mem_readonly(b, k, NULL);
}

static int mem_del_multi(git_config_backend *b, const char *k, const char *re)
{
	(void)re;
	return mem_readonly(b, k, NULL);
}

static int mem_iter_next(git_config_entry **e, git_config_iterator *it)
{
	mem_iter *mi = (mem_iter *)it;
	mem_backend *m = (mem_backend *)it->backend;

	if (mi->next >= m->params.n)
		return GIT_ITEROVER;
	*e = &m->entries[mi->next++];
	return 0;
}

static void mem_iter_free(git_config_iterator *it)
{
	free(it);
}

static int mem_iterator(git_config_iterator **out, git_config_backend *b)
{
	mem_iter *it = calloc(1, sizeof(*it));

	if (!it)
		return -1;
	it->parent.backend = b;
	it->parent.next = mem_iter_next;
	it->parent.free = mem_iter_free;
	*out = &it->parent;
	return 0;
}

static int mem_lock(git_config_backend *b)
{
	(void)b;
	return 0;
}

static int mem_unlock(git_config_backend *b, int success)
{
	(void)b;
	(void)success;
	return 0;
}

static void mem_free(git_config_backend *b)
{
	mem_backend *m = (mem_backend *)b;

	if (!m)
		return;
	aa_config_params_free(&m->params);
	free(m->entries);
	free(m);
}

static mem_backend *mem_new(const aa_config_params *from);

/* A snapshot: a copy (the settings are a few lines). */
static int mem_snapshot(git_config_backend **out, git_config_backend *b)
{
	mem_backend *m = mem_new(&((mem_backend *)b)->params);

	if (!m)
		return -1;
	m->parent.readonly = 1;
	*out = &m->parent;
	return 0;
}

static mem_backend *mem_new(const aa_config_params *from)
{
	mem_backend *m = calloc(1, sizeof(*m));
	size_t i;

	if (!m || git_config_init_backend(&m->parent, GIT_CONFIG_BACKEND_VERSION) < 0 ||
	    !(m->entries = calloc(from->n ? from->n : 1, sizeof(*m->entries)))) {
		free(m);
		return NULL;
	}
	for (i = 0; i < from->n; i++)
		if (params_add(&m->params, from->v[i].name, strlen(from->v[i].name),
			       from->v[i].value ? from->v[i].value : "",
			       from->v[i].value ? strlen(from->v[i].value) : 0,
			       from->v[i].value != NULL) < 0) {
			mem_free(&m->parent);
			return NULL;
		}
	for (i = 0; i < m->params.n; i++) {
		m->entries[i].name = m->params.v[i].name;
		m->entries[i].value = m->params.v[i].value;
		m->entries[i].free = mem_entry_keep;
	}
	m->parent.readonly = 1;
	m->parent.open = mem_open;
	m->parent.get = mem_get;
	m->parent.set = mem_readonly;
	m->parent.set_multivar = mem_readonly_multi;
	m->parent.del = mem_del;
	m->parent.del_multivar = mem_del_multi;
	m->parent.iterator = mem_iterator;
	m->parent.snapshot = mem_snapshot;
	m->parent.lock = mem_lock;
	m->parent.unlock = mem_unlock;
	m->parent.free = mem_free;
	return m;
}

int aa_config_add_command_line(git_repository *repo, aa_diags *d)
{
	aa_config_params p = AA_CONFIG_PARAMS_INIT;
	const char *why = NULL;
	git_config *cfg = NULL;
	mem_backend *m = NULL;
	int r = AA_OK;

	if (parse_count(&p, &why) < 0 ||
	    aa_config_parse_parameters(&p, getenv("GIT_CONFIG_PARAMETERS"), &why) < 0) {
		r = aa_error(d, AA_NOPOS, NULL, "%s", why);
		r = AA_FATAL;
		goto out;
	}
	if (!p.n)
		goto out;
	if (!(m = mem_new(&p))) {
		aa_oom(d, AA_NOPOS, NULL);
		r = AA_FATAL;
		goto out;
	}
	if (git_repository_config(&cfg, repo) < 0 ||
	    git_config_add_backend(cfg, &m->parent, AA_CONFIG_LEVEL_COMMAND, repo, 0) < 0) {
		mem_free(&m->parent);
		r = aa_git_fail(d, "cannot use the command line's configuration");
	}
out:
	git_config_free(cfg);
	aa_config_params_free(&p);
	return r;
}

void aa_config_quote_path(git_repository *repo)
{
	git_config *cfg = NULL;
	int on = 1;

	if (git_repository_config_snapshot(&cfg, repo) == 0 &&
	    git_config_get_bool(&on, cfg, "core.quotepath") < 0)
		on = 1;
	git_config_free(cfg);
	git_error_clear();
	aa_quote_path_set(on);
}
