/* Branch names as git checks them (`git check-ref-format --branch`). */
#ifndef AIAPPLY_REFNAME_H
#define AIAPPLY_REFNAME_H

/*
 * Returns 0 when `refname` is a well-formed full reference name by
 * git's check_refname_format() with no flags (at least two components,
 * no pattern), else -1 with *why set to a static reason.
 */
int aa_refname_check(const char *refname, const char **why);

/*
 * Returns 0 when `name` is a branch name `git check-ref-format --branch`
 * accepts (taken literally: no @{-N} expansion), else -1 with *why set
 * to a static reason: a leading '-', "HEAD", or refs/heads/<name>
 * failing aa_refname_check().
 */
int aa_branch_name_check(const char *name, const char **why);

#endif
