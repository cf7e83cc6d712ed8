/*
 * --3way and git's rerere (rerere.h).
 */
#include <string.h>
#include <sys/stat.h>
#include <git2.h>

#include "land/rerere.h"
#include "land/run.h"
#include "plan/plan.h"
#include "util/util.h"

/* git's is_rerere_enabled(): the config, else whether rr-cache exists. */
static int rerere_enabled(git_repository *repo)
{
	git_config *cfg = NULL;
	aa_buf dir = AA_BUF_INIT;
	struct stat st;
	int on = -1, r;

	if (git_repository_config_snapshot(&cfg, repo) == 0) {
		if (git_config_get_bool(&on, cfg, "rerere.enabled") < 0)
			on = -1;
		git_config_free(cfg);
	}
	git_error_clear();
	if (on >= 0)
		return on;
	if (aa_buf_printf(&dir, "%srr-cache", git_repository_commondir(repo)) < 0)
		return 0;
	r = stat(dir.ptr, &st) == 0 && S_ISDIR(st.st_mode);
	aa_buf_free(&dir);
	return r;
}

/* Each line of git's output as a note on its own. */
static void pass_on(aa_diags *d, const aa_buf *said)
{
	const char *p = said->ptr, *end = p ? p + said->len : NULL;

	while (p && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n)
			aa_note(d, AA_NOPOS, NULL, "git rerere: %.*s", (int)n, p);
		p += n + 1;
	}
}

void aa_rerere_after_landing(aa_session *s, const aa_plan *plan, aa_diags *d)
{
	static const char *const args[] = { "rerere", NULL };
	aa_buf out = AA_BUF_INIT, err = AA_BUF_INIT;
	int rc;

	if (s->opts->mode != AA_LAND_INDEX || !aa_plan_conflicts(plan) ||
	    !git_repository_workdir(s->repo) || !rerere_enabled(s->repo))
		return;
	if (s->opts->no_external_commands) {
		aa_note(d, AA_NOPOS, NULL,
			"rerere is enabled, but running external commands is turned "
			"off (no_external_commands): no recorded resolution was "
			"replayed; run git rerere");
		return;
	}
	rc = aa_run_git(s->repo, args, NULL, NULL, 0, &out, &err);
	if (rc != 0)
		aa_warn(d, AA_NOPOS, NULL,
			"git rerere failed%s%.*s; the conflicts stay as written",
			err.len ? ": " : "",
			(int)strcspn(err.ptr ? err.ptr : "", "\n"),
			err.ptr ? err.ptr : "");
	else {
		pass_on(d, &out);
		pass_on(d, &err);
	}
	aa_buf_free(&out);
	aa_buf_free(&err);
}
