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
/*
 * The path a sentence before a fence names, "Update `setup.py` as
 * follows:" (a line ending with ':' holding one code span, a path; at
 * most AA_LABEL_SENTENCE_MAX bytes): 1 with it in *path, else 0. Weaker
 * than a label: the block after it may be a part of the file, so a
 * whole-file block named this way must keep most of the file
 * (aa_op.label_in_prose).
 */
#define AA_LABEL_SENTENCE_MAX 200
int aa_label_sentence_path(const char *s, size_t len, const char **path,
			   size_t *path_len);
/* The path in a fence's info string (`x.py`, `python:x.py`, `title="x.py"`). */
int aa_info_path(const char *s, size_t len, const char **path,
		 size_t *path_len);

#endif
