/* Paths next to code: a label line or a fence's info string (label.c). */
#ifndef AA_FORMAT_LABEL_H
#define AA_FORMAT_LABEL_H

#include <stddef.h>

/*
 * The path a label line names (`path/x.py`, `**x.py**`, `` `x.py` ``,
 * `File: x.py`, `### x.py`): 1 with it in *path (pointing into s), else
 * 0 (prose, or not a valid repository path).
 */
int aa_label_path(const char *s, size_t len, const char **path,
		  size_t *path_len);
/* The path in a fence's info string (`x.py`, `python:x.py`, `title="x.py"`). */
int aa_info_path(const char *s, size_t len, const char **path,
		 size_t *path_len);

#endif
