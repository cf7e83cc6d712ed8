/*
 * The planner's directory index (see plan_dirs.h): a hash of directory
 * prefixes, each with its counts and the overlay files added under it.
 * An update walks the path's leading directories, so N operations cost
 * O(N * depth).
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "aiapply/common.h"
#include "plan/plan_dirs.h"
#include "util/util.h"

#define NO_ENTRY ((size_t)-1)

static size_t dir_hash(const char *dir, size_t len)
{
	return (size_t)XXH3_64bits(dir, len);
}

/* The slot holding `dir` (len bytes), or the empty slot where it goes. */
static size_t slot_of(const aa_dir_index *ix, const char *dir, size_t len)
{
	size_t mask = ix->tablecap - 1, h = dir_hash(dir, len) & mask;

	for (; ix->table[h] != NO_ENTRY; h = (h + 1) & mask) {
		const char *e = ix->v[ix->table[h]].dir;

		if (!strncmp(e, dir, len) && e[len] == '\0')
			break;
	}
	return h;
}

static int table_grow(aa_dir_index *ix)
{
	size_t cap = ix->tablecap ? ix->tablecap * 2 : 64, i;
	size_t *t = malloc(cap * sizeof(*t));

	if (!t)
		return -1;
	for (i = 0; i < cap; i++)
		t[i] = NO_ENTRY;
	free(ix->table);
	ix->table = t;
	ix->tablecap = cap;
	for (i = 0; i < ix->n; i++)
		t[slot_of(ix, ix->v[i].dir, strlen(ix->v[i].dir))] = i;
	return 0;
}

aa_dir_entry *aa_dir_index_find(const aa_dir_index *ix, const char *dir)
{
	size_t h;

	if (!ix->tablecap)
		return NULL;
	h = slot_of(ix, dir, strlen(dir));
	return ix->table[h] == NO_ENTRY ? NULL : &ix->v[ix->table[h]];
}

aa_dir_entry *aa_dir_index_get(aa_dir_index *ix, const char *dir, size_t len)
{
	aa_dir_entry *e;
	size_t h;

	if ((ix->n + 1) * 2 > ix->tablecap && table_grow(ix) < 0)
		return NULL;
	h = slot_of(ix, dir, len);
	if (ix->table[h] != NO_ENTRY)
		return &ix->v[ix->table[h]];
	if (AA_GROW(ix->v, ix->n, ix->cap) < 0)
		return NULL;
	e = &ix->v[ix->n];
	memset(e, 0, sizeof(*e));
	e->base_count = -1;
	if (!(e->dir = aa_strndup(dir, len)))
		return NULL;
	ix->table[h] = ix->n++;
	return e;
}

static int entry_list(aa_dir_entry *e, size_t node)
{
	if (AA_GROW(e->listed, e->nlisted, e->caplisted) < 0)
		return -1;
	e->listed[e->nlisted++] = node;
	return 0;
}

int aa_dir_index_update(aa_dir_index *ix, const char *path, int added,
			int removed, int list, size_t node)
{
	const char *slash;

	for (slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
		aa_dir_entry *e = aa_dir_index_get(ix, path, (size_t)(slash - path));

		if (!e)
			return -1;
		e->added += (size_t)(long)added;     /* wraps back, never below 0 */
		e->removed += (size_t)(long)removed;
		if (list && entry_list(e, node) < 0)
			return -1;
	}
	return 0;
}

void aa_dir_index_free(aa_dir_index *ix)
{
	size_t i;

	for (i = 0; i < ix->n; i++) {
		free(ix->v[i].dir);
		free(ix->v[i].listed);
	}
	free(ix->v);
	free(ix->table);
	memset(ix, 0, sizeof(*ix));
}
