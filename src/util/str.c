/* ASCII string helpers (util.h). */
#include <string.h>

#include "util/util.h"

int aa_ci_starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix), i;

	if (len < n)
		return 0;
	for (i = 0; i < n; i++)
		if (aa_lower(s[i]) != prefix[i])
			return 0;
	return 1;
}

int aa_ci_contains(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	for (i = 0; n <= len && i <= len - n; i++)
		if (aa_ci_starts_with(s + i, len - i, needle))
			return 1;
	return 0;
}
