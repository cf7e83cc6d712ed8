/*
 * What an elision placeholder line looks like ("// ... existing code
 * ...", elide.c): a lexical rule, no engine. The parsers ask it to mark
 * content that must not land literally; resolving an elision is the
 * edit engine's (aa_edit_elide in edit/edit.h).
 */
#ifndef AA_EDIT_ELISION_H
#define AA_EDIT_ELISION_H

#include <stddef.h>

/* 1 when the line is an elision placeholder for a file at `path`. */
int aa_is_elision(const char *s, size_t len, const char *path);
/* 1 when one of the lines of s[0..len) is. */
int aa_has_elision(const char *s, size_t len, const char *path);

#endif
