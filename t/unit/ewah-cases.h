/*
 * The bitmaps of t/unit/test-ewah.c, shared with the program that had
 * git's own EWAH code serialize them (contrib/ewah-fixtures/gen.c, which
 * wrote t/unit/ewah-fixture.h). Each case is a list of increasing bit
 * positions made by ewah_case().
 */
#ifndef EWAH_CASES_H
#define EWAH_CASES_H

#include <stdint.h>
#include <stdlib.h>

typedef struct ewah_case_def {
	const char *name;
	uint64_t nbits;      /* positions drawn below this */
	unsigned permille;   /* chance of each position, per thousand */
	uint64_t seed;       /* 0: the explicit list below */
	const uint64_t *list;
	size_t nlist;
} ewah_case_def;

static const uint64_t ewah_l_one0[] = { 0 };
static const uint64_t ewah_l_one63[] = { 63 };
static const uint64_t ewah_l_one64[] = { 64 };
static const uint64_t ewah_l_gap[] = { 5, 100000, 100001, 100063, 6400000 };
static const uint64_t ewah_l_edges[] = { 62, 63, 64, 127, 128, 191, 192, 255 };

#define EWAH_LIST(n, l) { n, 0, 0, 0, l, sizeof(l) / sizeof(l[0]) }
#define EWAH_RAND(n, bits, pm, seed) { n, bits, pm, seed, NULL, 0 }

static const ewah_case_def ewah_cases[] = {
	{ "empty", 0, 0, 0, NULL, 0 },
	EWAH_LIST("bit 0", ewah_l_one0),
	EWAH_LIST("bit 63", ewah_l_one63),
	EWAH_LIST("bit 64", ewah_l_one64),
	EWAH_LIST("sparse with gaps", ewah_l_gap),
	EWAH_LIST("word edges", ewah_l_edges),
	EWAH_RAND("all of 64", 64, 1000, 1),
	EWAH_RAND("all of 200", 200, 1000, 2),
	EWAH_RAND("all of 6400", 6400, 1000, 3),
	EWAH_RAND("1 in 1000 of 100000", 100000, 1, 4),
	EWAH_RAND("1 in 100 of 20000", 20000, 10, 5),
	EWAH_RAND("half of 5000", 5000, 500, 6),
	EWAH_RAND("999 in 1000 of 20000", 20000, 999, 7),
	EWAH_RAND("997 in 1000 of 40000", 40000, 997, 8),
	EWAH_RAND("1 in 30 of 30000", 30000, 33, 9),
};

#define EWAH_NCASES (sizeof(ewah_cases) / sizeof(ewah_cases[0]))

static uint64_t ewah_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* The case's positions, increasing: *n of them (malloc'd, NULL when none). */
static uint64_t *ewah_case(const ewah_case_def *c, size_t *n)
{
	uint64_t *v = NULL, s = c->seed, i;
	size_t cap = 0;

	*n = 0;
	if (!c->seed) {
		if (!c->nlist)
			return NULL;
		v = malloc(c->nlist * sizeof(*v));
		if (v)
			for (*n = 0; *n < c->nlist; (*n)++)
				v[*n] = c->list[*n];
		return v;
	}
	for (i = 0; i < c->nbits; i++) {
		if (ewah_rand(&s) % 1000 >= c->permille)
			continue;
		if (*n == cap) {
			uint64_t *p = realloc(v, (cap = cap ? cap * 2 : 64) * sizeof(*v));

			if (!p) {
				free(v);
				*n = 0;
				return NULL;
			}
			v = p;
		}
		v[(*n)++] = i;
	}
	return v;
}

#endif
