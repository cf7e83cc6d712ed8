/*
 * Repository shapes the libgit2 in use cannot read (support.h). libgit2
 * 1.5 refuses an index with a mandatory extension it does not know
 * ("unsupported mandatory extension: 'link'") and a repository whose
 * format names an extension it does not know ("unsupported extension
 * name extensions.objectformat"); git's own words for what each is,
 * and the command that gives a shape it reads, say more.
 */
#include <stdio.h>
#include <string.h>
#include <git2.h>

#include "land/support.h"

/* An index extension: its signature, what it is, what to do. */
static const struct {
	const char *sig, *what, *todo;
} index_exts[] = {
	{ "link", "a split index (core.splitIndex, git update-index --split-index)",
	  "run 'git update-index --no-split-index' (and 'git config core.splitIndex false' "
	  "if it is set) to use it here, or use --branch, which does not read the index" },
	{ "sdir", "a sparse index (index.sparse, git sparse-checkout --sparse-index)",
	  "run 'git sparse-checkout init --no-sparse-index' to use it here (the sparse "
	  "checkout stays), or use --branch, which does not read the index" },
};

static int explain_index_ext(const char *why, aa_buf *out)
{
	const char *p = strstr(why, "unsupported mandatory extension: '");
	char sig[5] = "";
	size_t i;

	if (!p)
		return 0;
	p += strlen("unsupported mandatory extension: '");
	snprintf(sig, sizeof(sig), "%.4s", p);
	for (i = 0; i < sizeof(index_exts) / sizeof(index_exts[0]); i++)
		if (!strcmp(sig, index_exts[i].sig))
			return aa_buf_printf(out,
				"the index is %s, which libgit2 %d.%d (the library git ai-apply is built on) cannot read; %s",
				index_exts[i].what, LIBGIT2_VER_MAJOR, LIBGIT2_VER_MINOR,
				index_exts[i].todo) < 0 ? -1 : 1;
	return aa_buf_printf(out,
		"the index has the extension '%s', which libgit2 %d.%d (the library git ai-apply is built on) cannot read; "
		"use --branch, which does not read the index", sig,
		LIBGIT2_VER_MAJOR, LIBGIT2_VER_MINOR) < 0 ? -1 : 1;
}

static int explain_repo_ext(const char *why, aa_buf *out)
{
	const char *p = strstr(why, "unsupported extension name extensions.");
	const char *name;
	size_t n;

	if (!p)
		return 0;
	name = p + strlen("unsupported extension name ");
	n = strcspn(name, " \t\n;,");
	if (n == strlen("extensions.objectformat") &&
	    !strncmp(name, "extensions.objectformat", n))
		return aa_buf_printf(out,
			"this repository uses another object format than SHA-1 (extensions.objectFormat, "
			"git init --object-format=sha256); libgit2 %d.%d, the library git ai-apply is built on, "
			"reads SHA-1 repositories only: use git apply here",
			LIBGIT2_VER_MAJOR, LIBGIT2_VER_MINOR) < 0 ? -1 : 1;
	return aa_buf_printf(out,
		"this repository uses the format extension %.*s, which libgit2 %d.%d "
		"(the library git ai-apply is built on) cannot read", (int)n, name,
		LIBGIT2_VER_MAJOR, LIBGIT2_VER_MINOR) < 0 ? -1 : 1;
}

int aa_unsupported_explain(const char *why, aa_buf *out)
{
	int r;

	if (!why)
		return 0;
	r = explain_index_ext(why, out);
	return r ? r : explain_repo_ext(why, out);
}

int aa_worktree_config_prepare(void)
{
	static const char *ext[] = { "worktreeconfig" };

	return git_libgit2_opts(GIT_OPT_SET_EXTENSIONS, ext, (size_t)1);
}

int aa_worktree_config_add(git_repository *repo)
{
	git_config *cfg = NULL;
	aa_buf path = AA_BUF_INIT;
	int on = 0, r = 0;

	if (git_repository_config(&cfg, repo) < 0)
		return -1;
	/* git reads config.worktree only with the extension on */
	if (git_config_get_bool(&on, cfg, "extensions.worktreeconfig") < 0)
		on = 0;
	git_error_clear();
	if (on && aa_buf_printf(&path, "%sconfig.worktree", git_repository_path(repo)) < 0)
		r = -1;
	else if (on && git_config_add_file_ondisk(cfg, path.ptr, AA_CONFIG_LEVEL_WORKTREE,
						  repo, 0) < 0 &&
		 git_error_last() && git_error_last()->klass != GIT_ERROR_OS)
		r = -1;
	aa_buf_free(&path);
	git_config_free(cfg);
	return r;
}
