/* libgit2's last error, for messages (util.h). */
#include <git2.h>

#include "util/util.h"

const char *aa_git_error(const char *fallback)
{
	const git_error *e = git_error_last();

	return e && e->message && *e->message ? e->message : fallback;
}

int aa_git_fail(aa_diags *d, const char *what)
{
	return aa_fatal(d, AA_NOPOS, NULL, "%s: %s", what,
			aa_git_error("unknown error"));
}
