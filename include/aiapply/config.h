/*
 * git's command-line configuration: `git -c <name>=<value> ai-apply`
 * hands its settings to the command in GIT_CONFIG_PARAMETERS (and
 * `GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_<n>` / `GIT_CONFIG_VALUE_<n>`),
 * which libgit2 does not read. They are put in front of the
 * repository's configuration, above every file, as git does.
 *
 * Ownership: aa_config_params is the caller's struct (AA_CONFIG_PARAMS_INIT);
 * aa_config_params_free(&p) releases the settings it holds. The settings
 * added to a repository live as long as the repository (the caller's).
 */
#ifndef AIAPPLY_CONFIG_H
#define AIAPPLY_CONFIG_H

#include <git2.h>
#include "aiapply/common.h"

/* One setting: the name normalised as git does, the value (NULL: none). */
typedef struct aa_config_param {
	char *name;
	char *value;
} aa_config_param;

typedef struct aa_config_params {
	aa_config_param *v;
	size_t n, cap;
} aa_config_params;

#define AA_CONFIG_PARAMS_INIT { NULL, 0, 0 }

/*
 * Parses GIT_CONFIG_PARAMETERS' text (shell-quoted 'name=value' or
 * 'name'='value' items, as git writes them) onto p. Returns 0, or -1
 * with *why set (a static reason) when the text is malformed or a name
 * has no section.
 */
int aa_config_parse_parameters(aa_config_params *p, const char *text,
			       const char **why);
void aa_config_params_free(aa_config_params *p);

/*
 * Reads the environment (GIT_CONFIG_COUNT's settings, then
 * GIT_CONFIG_PARAMETERS', as git) and adds them to repo's configuration
 * at the highest level. Nothing to add: nothing done. Returns AA_OK, or
 * AA_FATAL with the error in d.
 */
int aa_config_add_command_line(git_repository *repo, aa_diags *d);

/*
 * Reads core.quotePath from repo's configuration (true when unset or
 * unreadable, as git) and sets the quoting of paths with
 * aa_quote_path_set(): every report and message after it follows.
 */
void aa_config_quote_path(git_repository *repo);

#endif
