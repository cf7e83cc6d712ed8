/*
 * Unit-test helpers for labels (src/format/label.c): is the path a
 * label line or a fence's info string names exactly `want` (NULL: none)?
 */
#ifndef AA_LABEL_FIXTURE_H
#define AA_LABEL_FIXTURE_H

#include <string.h>

#include "format/label.h"

static inline int label_is(const char *line, const char *want)
{
	const char *p;
	size_t n;

	if (!aa_label_path(line, strlen(line), &p, &n))
		return want == NULL;
	return want && n == strlen(want) && !memcmp(p, want, n);
}

static inline int info_is(const char *info, const char *want)
{
	const char *p;
	size_t n;

	if (!aa_info_path(info, strlen(info), &p, &n))
		return want == NULL;
	return want && n == strlen(want) && !memcmp(p, want, n);
}

/* The path a sentence before a fence names (aa_label_sentence_path). */
static inline int sentence_is(const char *line, const char *want)
{
	const char *p;
	size_t n;

	if (!aa_label_sentence_path(line, strlen(line), &p, &n))
		return want == NULL;
	return want && n == strlen(want) && !memcmp(p, want, n);
}

#endif
