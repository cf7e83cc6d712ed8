/*
 * Partial clones (promisor.h). git's promisor-remote.c, as of 2.39:
 * the promisor remotes are every remote.<name>.promisor=true in the
 * configuration's order, extensions.partialClone's remote moved to the
 * end; each in turn gets
 *   git -c fetch.negotiationAlgorithm=noop fetch <remote> --no-tags
 *       --no-write-fetch-head --recurse-submodules=no --filter=blob:none
 *       --stdin
 * with the missing ids on standard input, until the objects are there.
 * The same command here (plus maintenance.auto=false: no background
 * repack while the landing holds the index lock), one blob at a time,
 * as git's lazy fetch of a single object.
 */
#include <stdio.h>
#include <string.h>

#include "land/promisor.h"
#include "land/run.h"

typedef struct remotes {
	aa_buf names;     /* each name followed by a NUL */
	size_t n;
	const char *last; /* extensions.partialclone, tried last */
} remotes;

static int add_name(remotes *r, const char *name, size_t len)
{
	if (aa_buf_put(&r->names, name, len) < 0 || aa_buf_putc(&r->names, '\0') < 0)
		return -1;
	r->n++;
	return 0;
}

static int promisor_cb(const git_config_entry *e, void *payload)
{
	remotes *r = payload;
	const char *name = e->name + strlen("remote.");
	size_t len, n = strlen(e->name);
	int on = 0;

	/* by hand: libgit2 1.5's regexps leak on each name they do not match */
	if (strncmp(e->name, "remote.", 7) || n < 7 + 10 ||
	    strcmp(e->name + n - 9, ".promisor"))
		return 0;
	len = strlen(name) - strlen(".promisor");
	if (git_config_parse_bool(&on, e->value) < 0 || !on)
		return 0;
	if (r->last && strlen(r->last) == len && !strncmp(r->last, name, len))
		return 0;
	return add_name(r, name, len);
}

/* The promisor remotes, in the order git tries them. */
static int promisor_remotes(git_repository *repo, remotes *r)
{
	git_config *cfg = NULL;
	git_buf pc = GIT_BUF_INIT;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	if (git_repository_config_snapshot(&cfg, repo) < 0)
		return -1;
	if (git_config_get_string_buf(&pc, cfg, "extensions.partialclone") == 0)
		r->last = pc.ptr;
	if (git_config_foreach(cfg, promisor_cb, r) < 0)
		ret = -1;
	if (!ret && r->last)
		ret = add_name(r, r->last, strlen(r->last));
	r->last = NULL;
	git_buf_dispose(&pc);
	git_config_free(cfg);
	git_error_clear();
	return ret;
}

static int fetch_from(aa_session *s, const char *remote, const char *hex,
		      aa_buf *err)
{
	const char *args[] = { "-c", "fetch.negotiationAlgorithm=noop",
			       "-c", "maintenance.auto=false", "fetch", remote,
			       "--no-tags", "--no-write-fetch-head",
			       "--recurse-submodules=no", "--filter=blob:none",
			       "--stdin", NULL };
	char line[GIT_OID_HEXSZ + 2];

	snprintf(line, sizeof(line), "%s\n", hex);
	aa_buf_clear(err);
	return aa_run_git(s->repo, args, NULL, line, strlen(line), NULL, err);
}

int aa_promisor_ensure(aa_session *s, const git_oid *id, const char *path,
		       aa_buf *why)
{
	char hex[GIT_OID_HEXSZ + 1];
	aa_buf err = AA_BUF_INIT;
	remotes r;
	const char *name;
	git_odb *odb = NULL;
	size_t i;
	int have = 0;

	if (git_repository_odb(&odb, s->repo) == 0)
		have = git_odb_exists(odb, id);
	if (have) {
		git_odb_free(odb);
		return 0;
	}
	git_oid_tostr(hex, sizeof(hex), id);
	if (promisor_remotes(s->repo, &r) < 0 || !r.n) {
		aa_buf_free(&r.names);
		git_odb_free(odb);
		return aa_buf_printf(why, "object %s is missing from the repository", hex), -1;
	}
	name = r.names.ptr;
	if (s->opts->mode == AA_LAND_CHECK || s->opts->no_external_commands) {
		aa_buf_printf(why,
			"blob %s is not in this partial clone, and %s; fetch it first: "
			"git -c fetch.negotiationAlgorithm=noop fetch %s --no-tags --no-write-fetch-head "
			"--recurse-submodules=no --filter=blob:none %s",
			hex, s->opts->mode == AA_LAND_CHECK ?
			"--check fetches nothing (it writes no object)" :
			"running git is turned off (no_external_commands)", name, hex);
		aa_buf_free(&r.names);
		git_odb_free(odb);
		return -1;
	}
	for (i = 0; i < r.n && !have; i++, name += strlen(name) + 1) {
		int rc = fetch_from(s, name, hex, &err);

		size_t len;
		git_object_t type;

		/* a header read rescans the packs on a miss: the fetched one is seen */
		have = rc == 0 && git_odb_read_header(&len, &type, odb, id) == 0;
	}
	if (!have)
		aa_buf_printf(why, "blob %s is not in this partial clone and fetching it from %s failed%s%.*s",
			      hex, r.n == 1 ? r.names.ptr : "its promisor remotes",
			      err.len ? ": " : "", (int)strcspn(err.ptr ? err.ptr : "", "\n"),
			      err.ptr ? err.ptr : "");
	(void)path;
	aa_buf_free(&err);
	aa_buf_free(&r.names);
	git_odb_free(odb);
	return have ? 0 : -1;
}
