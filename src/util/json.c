/*
 * The JSON token scanner the recognisers share (util.h): enough to walk
 * a document's strings and white space, not to parse it (format/aptix.c
 * parses, with cJSON).
 */
#include "util/util.h"

size_t aa_json_string_end(const char *s, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return n;
}
