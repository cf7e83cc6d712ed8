/*
 * What an elision looks like: a placeholder line ("// ... existing
 * code ...", "# ... rest of the file unchanged") standing for lines of
 * the original. Recognising one is a line classification parsers may
 * use (src/format/ marks the ops that carry elisions); resolving them
 * is the engines' (aa_edit_elide, aa_hunk_resolve_elisions in
 * src/edit/elide.c).
 */
#ifndef AIAPPLY_ELISION_H
#define AIAPPLY_ELISION_H

#include <stddef.h>

/* 1 when the line is an elision placeholder for a file at `path`. */
int aa_is_elision(const char *s, size_t len, const char *path);
/* 1 when one of the lines of s[0..len) is. */
int aa_has_elision(const char *s, size_t len, const char *path);

#endif
