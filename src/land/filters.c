/*
 * Filter drivers (filters.h), run through git:
 *   smudge: git cat-file --filters --path=<path> <blob>
 *   clean:  git hash-object -w --stdin --path=<path>, with
 *           GIT_OBJECT_DIRECTORY a temporary directory and the
 *           repository's objects as its alternate: git writes the
 *           cleaned blob there (or nothing when the repository has it),
 *           never in .git/objects
 *   hash:   git hash-object -- <path> (writes nothing)
 * git's own code runs the driver: its .process protocol, its %f, its
 * filter.<name>.required, the ident and eol conversions after it.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "land/filters.h"
#include "land/attrs.h"
#include "land/index_read.h"
#include "land/promisor.h"
#include "land/run.h"

/* "filter.<name>.clean", ".smudge" or ".process" (names come lower-cased). */
static int is_driver_key(const char *k)
{
	const char *dot = strrchr(k, '.');

	return !strncmp(k, "filter.", 7) && dot && dot > k + 6 &&
	       (!strcmp(dot, ".clean") || !strcmp(dot, ".smudge") ||
		!strcmp(dot, ".process"));
}

/*
 * 1 when the configuration names any filter driver, asked once a base
 * (its landers share the answer; a stand-in session without a base
 * asks each time). The entries are walked by hand:
 * libgit2 1.5's regular expressions leak on every name that does not
 * match (git_regexp_match).
 */
static int any_driver(aa_session *s)
{
	git_config *cfg = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *e;
	int own = 0, *drivers = s->base ? &s->base->drivers : &own;

	if (*drivers)
		return *drivers == 2;
	*drivers = 1;
	if (git_repository_config_snapshot(&cfg, s->repo) == 0 &&
	    git_config_iterator_new(&it, cfg) == 0)
		while (*drivers == 1 && git_config_next(&e, it) == 0)
			if (is_driver_key(e->name))
				*drivers = 2;
	git_config_iterator_free(it);
	git_config_free(cfg);
	git_error_clear();
	return *drivers == 2;
}

/* 1 when filter.<name>.<what> is set (to a non-empty command). */
static int driver_has(git_config *cfg, const char *name, const char *what)
{
	aa_buf key = AA_BUF_INIT;
	git_buf v = GIT_BUF_INIT;
	int r = aa_buf_printf(&key, "filter.%s.%s", name, what) == 0 &&
		git_config_get_string_buf(&v, cfg, key.ptr) == 0 && v.size;

	git_buf_dispose(&v);
	aa_buf_free(&key);
	return r;
}

int aa_filter_driver(aa_session *s, const char *path, aa_buf *name)
{
	git_attr_options ao;
	git_config *cfg = NULL;
	const char *filter = "filter", *value = NULL;
	int r = 0;

	if (!any_driver(s))
		return 0;
	memset(&ao, 0, sizeof(ao));
	ao.version = GIT_ATTR_OPTIONS_VERSION;
	if (s->opts->mode == AA_LAND_BRANCH && s->base_commit) {
		ao.flags = 3 | GIT_ATTR_CHECK_INCLUDE_COMMIT;
		git_oid_cpy(&ao.attr_commit_id, git_commit_id(s->base_commit));
	} else {
		ao.flags = GIT_ATTR_CHECK_FILE_THEN_INDEX;
	}
	if (aa_attrs_get(s, &ao, path, 1, &filter, &value) < 0 ||
	    git_attr_value(value) != GIT_ATTR_VALUE_STRING) {
		git_error_clear();
		return 0;
	}
	if (git_repository_config_snapshot(&cfg, s->repo) == 0)
		r = driver_has(cfg, value, "clean") || driver_has(cfg, value, "smudge") ||
		    driver_has(cfg, value, "process");
	if (r && name) {
		aa_buf_clear(name);
		if (aa_buf_puts(name, value) < 0)
			r = -1;
	}
	git_config_free(cfg);
	git_error_clear();
	return r;
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	return (flag == FTW_DP ? rmdir(p) : unlink(p)) < 0 ? 0 : 0;
}

/*
 * The cleaned blob `id` git wrote into `tmp` (or, when the repository
 * had it, found there): its bytes into *out and into the lander's
 * memory (the caller remembers it as a new object).
 */
static int take_blob(aa_session *s, const char *tmp, const git_oid *id,
		     aa_buf *out, aa_buf *why)
{
	git_odb *odb = NULL;
	git_odb_object *o = NULL;
	git_oid again;
	int r = -1;

	if (git_odb_open(&odb, tmp) == 0 && git_odb_read(&o, odb, id) < 0)
		o = NULL;
	git_odb_free(odb);
	odb = NULL;
	if (!o && git_repository_odb(&odb, s->repo) == 0 && git_odb_read(&o, odb, id) < 0)
		o = NULL;
	git_odb_free(odb);
	if (!o) {
		aa_buf_printf(why, "the clean filter's blob %s cannot be read", git_oid_tostr_s(id));
		git_error_clear();
		return -1;
	}
	if (aa_buf_put(out, git_odb_object_data(o), git_odb_object_size(o)) == 0 &&
	    git_blob_create_from_buffer(&again, s->repo, out->ptr ? out->ptr : "", out->len) == 0 &&
	    git_oid_equal(&again, id))
		r = 0;
	else
		aa_buf_printf(why, "cannot keep the clean filter's blob: %s", aa_git_error("out of memory"));
	git_odb_object_free(o);
	return r;
}

static int parse_id(const aa_buf *hex, git_oid *id)
{
	return hex->len < GIT_OID_HEXSZ || git_oid_fromstrn(id, hex->ptr, GIT_OID_HEXSZ) < 0 ? -1 : 0;
}

static int run_clean(aa_session *s, const char *path, const char *data,
		     size_t len, git_oid *id, aa_buf *out, aa_buf *why,
		     aa_buf *err)
{
	char tmp[] = "/tmp/ai-apply-clean-XXXXXX";
	aa_buf objdir = AA_BUF_INIT, alt = AA_BUF_INIT, arg = AA_BUF_INIT, hex = AA_BUF_INIT;
	const char *old_alt = getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES");
	const char *env[3];
	int r = -1;

	if (!mkdtemp(tmp))
		return aa_buf_printf(why, "cannot make a temporary object directory"), -1;
	if (aa_buf_printf(&objdir, "GIT_OBJECT_DIRECTORY=%s", tmp) == 0 &&
	    aa_buf_printf(&alt, "GIT_ALTERNATE_OBJECT_DIRECTORIES=%sobjects%s%s",
			  git_repository_commondir(s->repo), old_alt && *old_alt ? ":" : "",
			  old_alt ? old_alt : "") == 0 &&
	    aa_buf_printf(&arg, "--path=%s", path) == 0) {
		const char *args[] = { "hash-object", "-w", "--stdin", arg.ptr, NULL };

		env[0] = objdir.ptr;
		env[1] = alt.ptr;
		env[2] = NULL;
		r = aa_run_git(s->repo, args, env, data, len, &hex, err);
		if (r == 0 && parse_id(&hex, id) == 0)
			r = take_blob(s, tmp, id, out, why);
		else
			r = -1;
	}
	nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	aa_buf_free(&objdir);
	aa_buf_free(&alt);
	aa_buf_free(&arg);
	aa_buf_free(&hex);
	return r;
}

int aa_filter_run(aa_session *s, aa_filter_way way, const char *path,
		  const char *data, size_t len, git_oid *id, aa_buf *out,
		  aa_buf *why)
{
	aa_buf arg = AA_BUF_INIT, err = AA_BUF_INIT, hex = AA_BUF_INIT, name = AA_BUF_INIT;
	int r = -1;

	if (s->opts->no_external_commands) {
		aa_filter_driver(s, path, &name);
		aa_buf_printf(why, "has the filter driver '%s' (gitattributes filter=, filter.%s.*), "
			      "and running external commands is turned off (no_external_commands)",
			      name.ptr ? name.ptr : "?", name.ptr ? name.ptr : "?");
		aa_buf_free(&name);
		return -1;
	}
	if (way == AA_FILTER_SMUDGE) {
		const char *args[] = { "cat-file", "--filters", arg.ptr, NULL, NULL };
		char h[GIT_OID_HEXSZ + 1];

		if (aa_buf_printf(&arg, "--path=%s", path) == 0) {
			args[2] = arg.ptr;
			args[3] = git_oid_tostr(h, sizeof(h), id);
			r = aa_run_git(s->repo, args, NULL, NULL, 0, out, &err);
		}
	} else if (way == AA_FILTER_CLEAN) {
		r = run_clean(s, path, data, len, id, out, why, &err);
	} else {
		const char *args[] = { "hash-object", "--", path, NULL };

		r = aa_run_git(s->repo, args, NULL, NULL, 0, &hex, &err);
		if (r == 0 && parse_id(&hex, id) < 0)
			r = -1;
	}
	if (r != 0 && !why->len)
		aa_buf_printf(why, "the %s filter failed%s%.*s",
			      way == AA_FILTER_SMUDGE ? "smudge" : "clean",
			      err.len ? ": " : "", (int)strcspn(err.ptr ? err.ptr : "", "\n"),
			      err.ptr ? err.ptr : "");
	aa_buf_free(&arg);
	aa_buf_free(&err);
	aa_buf_free(&hex);
	return r ? -1 : 0;
}

/* Remembers smudged -> real. */
static int add_pair(aa_session *s, const git_oid *smudged, const git_oid *real)
{
	if (AA_GROW(s->smudged, s->nsmudged + 1, s->capsmudged) < 0)
		return -1;
	git_oid_cpy(&s->smudged[s->nsmudged], smudged);
	git_oid_cpy(&s->smudged[s->nsmudged + 1], real);
	s->nsmudged += 2;
	return 0;
}

int aa_filter_smudged(aa_session *s, const char *path, const git_oid *real,
		      git_oid *smudged, aa_buf *why)
{
	aa_buf out = AA_BUF_INIT;
	git_blob *blob = NULL;
	int same, r;

	git_oid_cpy(smudged, real);
	/* a partial clone's blob: fetched, or refused under --check */
	if (aa_promisor_ensure(s, real, path, why) < 0)
		return -1;
	r = aa_filter_run(s, AA_FILTER_SMUDGE, path, NULL, 0, (git_oid *)real, &out, why);
	if (r < 0 || git_blob_lookup(&blob, s->repo, real) < 0) {
		aa_buf_free(&out);
		return -1;
	}
	same = (size_t)git_blob_rawsize(blob) == out.len &&
	       !memcmp(git_blob_rawcontent(blob), out.ptr ? out.ptr : "", out.len);
	git_blob_free(blob);
	/* in the lander's memory only: never remembered, never persisted */
	if (!same && (git_blob_create_from_buffer(smudged, s->repo, out.ptr ? out.ptr : "",
						  out.len) < 0 ||
		      add_pair(s, smudged, real) < 0)) {
		aa_buf_printf(why, "cannot keep the smudged content: %s", aa_git_error("out of memory"));
		r = -1;
	}
	aa_buf_free(&out);
	return r;
}

void aa_filter_real(const aa_session *s, const git_oid *id, git_oid *real)
{
	size_t i;

	git_oid_cpy(real, id);
	for (i = 0; i < s->nsmudged; i += 2)
		if (git_oid_equal(&s->smudged[i], id)) {
			git_oid_cpy(real, &s->smudged[i + 1]);
			return;
		}
}
