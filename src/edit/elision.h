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

/*
 * How a line reads as a placeholder for a file at `path`: not at all,
 * by its words only ("// rest of the code unchanged": ordinary comments
 * say that too, so resolution keeps such a line as content when it
 * stands for no lines of the original), or with an ellipsis ("...",
 * U+2026: always a placeholder).
 */
enum { AA_ELISION_NONE, AA_ELISION_WORDS, AA_ELISION_ELLIPSIS };
int aa_elision_kind(const char *s, size_t len, const char *path);
/* 1 when the line reads as an elision placeholder (either kind). */
int aa_is_elision(const char *s, size_t len, const char *path);
/* 1 when one of the lines of s[0..len) is. */
int aa_has_elision(const char *s, size_t len, const char *path);

#endif
