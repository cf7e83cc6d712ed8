/* Growing arrays by doubling (util.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

int aa_array_grow(void *arrayp, size_t *cap, size_t need, size_t size)
{
	/* the first allocation is what was asked for (a known count), or 8 */
	size_t ncap = *cap ? *cap : need > 8 ? need : 8;
	void *v, *p;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -1;
		ncap *= 2;
	}
	if (ncap > SIZE_MAX / size)
		return -1;
	/* the caller's pointer is a T *: read and written as bytes */
	memcpy(&v, arrayp, sizeof(v));
	p = realloc(v, ncap * size);
	if (!p)
		return -1;
	memcpy(arrayp, &p, sizeof(p));
	*cap = ncap;
	return 0;
}
