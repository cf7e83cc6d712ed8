/*
 * Attribute answers of one base (attrs.c; Documentation/landing.md,
 * "Attribute answers, once a base"). libgit2 answers every attribute
 * question from scratch: the path's directory resolved through
 * realpath() (a readlink a component), then a stat or an access per
 * attribute file that could apply (system, global, info/attributes, a
 * .gitattributes a directory). A run asks about the same few paths
 * several times (the filter driver, binary, the work-tree read) and,
 * under --each and --predictions, about the paths of every suggestion.
 *
 * Here each answer is libgit2's own, asked once per base and path and
 * kept for the base's lifetime; and when no attribute file can apply to
 * the path at all (none of the global ones exists, and no directory of
 * the path holds a .gitattributes in a source the question reads),
 * every attribute is unspecified without asking. Exactness: the files
 * the answers come from cannot change while a base is open, but for
 * the landing's own writes; a landing that writes a .gitattributes
 * stops using the kept answers first (aa_attrs_direct).
 */
#ifndef AA_LAND_ATTRS_H
#define AA_LAND_ATTRS_H

#include "land/session.h"

/*
 * git_attr_get_many_ext(values, s->repo, ao, path, n, names), answered
 * from the base's memory where it can be. The strings in values[] stay
 * valid until the base is closed. 0, or -1 (libgit2's error).
 */
int aa_attrs_get(aa_session *s, const git_attr_options *ao, const char *path,
		 size_t n, const char **names, const char **values);

/*
 * 1 when no conversion applies to `path` between the work tree and the
 * object database as libgit2's filter list decides it (core.autocrlf
 * false or unset, and crlf, eol, text, ident, filter and
 * working-tree-encoding all unspecified); 0 when one may (the caller
 * asks libgit2 the exact question), -1 on error.
 */
int aa_attrs_plain(aa_session *s, const char *path);

/*
 * The lander's answers from libgit2 from now on, uncached: called
 * before a landing writes a .gitattributes into the work tree or the
 * index, which would change the answers of the paths under it.
 */
void aa_attrs_direct(aa_session *s);

/*
 * 1 when an attribute file outside the tree may apply: info/attributes,
 * core.attributesFile (set at all) or the global (XDG) attributes file,
 * and with_system the system gitattributes, where libgit2 looks for
 * them (or when that cannot be told).
 */
int aa_attrs_global_files(git_repository *repo, int with_system);

/* 1 when one of libgit2's search-path directories for `level` holds `name`. */
int aa_attrs_search_path_has(int level, const char *name);

/* 1 when `path` names a .gitattributes file. */
int aa_attrs_is_file(const char *path);

void aa_attrs_free(struct aa_attrs *a);

#endif
