/*
 * The pure measures behind path resolution and the no-silent-loss rules
 * (see resolve.h). Lines are compared trimmed, through XXH3 hashes in
 * sorted arrays: O(n log n) in the two files' sizes.
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "plan/resolve.h"
#include "util/util.h"

static int is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '$' ||
	       (unsigned char)c >= 0x80;
}

size_t aa_path_common_tail(const char *a, const char *b)
{
	size_t i = strlen(a), j = strlen(b), n = 0;

	while (i && j) {
		size_t ci = i, cj = j;

		while (ci && a[ci - 1] != '/')
			ci--;
		while (cj && b[cj - 1] != '/')
			cj--;
		if (i - ci != j - cj || memcmp(a + ci, b + cj, i - ci))
			break;
		n++;
		if (!ci || !cj)
			break;
		i = ci - 1;
		j = cj - 1;
	}
	return n;
}

/* ---- whole-file confirmation ---- */

/* The next line of s[*off..n) trimmed: 1 with [*a, *z), 0 at the end. */
static int next_line(const char *s, size_t n, size_t *off, size_t *a,
		     size_t *z)
{
	const char *nl;
	size_t end;

	if (*off >= n)
		return 0;
	nl = memchr(s + *off, '\n', n - *off);
	end = nl ? (size_t)(nl - s) : n;
	*a = *off;
	*z = end;
	*off = nl ? end + 1 : n;
	while (*a < *z && aa_is_hspace(s[*a]))
		(*a)++;
	while (*z > *a && aa_is_hspace(s[*z - 1]))
		(*z)--;
	return 1;
}

/* A line that says something: 5 bytes or more, a letter or a digit. */
static int meaningful(const char *s, size_t len)
{
	size_t i;

	if (len < 5)
		return 0;
	for (i = 0; i < len; i++)
		if ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9'))
			return 1;
	return 0;
}

typedef struct hashes {
	XXH64_hash_t *v;
	size_t n;
} hashes;

static int cmp_hash(const void *a, const void *b)
{
	XXH64_hash_t x = *(const XXH64_hash_t *)a, y = *(const XXH64_hash_t *)b;

	return x < y ? -1 : x > y;
}

/* The hashes of the meaningful lines of s, sorted; -1 when out of memory. */
static int line_hashes(const char *s, size_t n, hashes *h)
{
	size_t off = 0, a, z, cap = 0;

	h->v = NULL;
	h->n = 0;
	while (next_line(s, n, &off, &a, &z)) {
		if (!meaningful(s + a, z - a))
			continue;
		if (AA_GROW(h->v, h->n, cap) < 0) {
			free(h->v);
			return -1;
		}
		h->v[h->n++] = XXH3_64bits(s + a, z - a);
	}
	if (h->n)
		qsort(h->v, h->n, sizeof(*h->v), cmp_hash);
	return 0;
}

/* How many entries of `of` (with repeats) are in the sorted set `in`. */
static size_t shared(const hashes *of, const hashes *in)
{
	size_t i, k = 0;

	for (i = 0; i < of->n; i++)
		k += in->n && bsearch(&of->v[i], in->v, in->n, sizeof(*in->v),
				      cmp_hash) != NULL;
	return k;
}

int aa_lines_confirm(const char *block, size_t block_len, const char *file,
		     size_t file_len)
{
	hashes b, f;
	size_t in_file, in_block;
	int r;

	if (line_hashes(block, block_len, &b) < 0)
		return -1;
	if (line_hashes(file, file_len, &f) < 0) {
		free(b.v);
		return -1;
	}
	in_file = shared(&b, &f);
	in_block = shared(&f, &b);
	r = in_file >= 3 && in_block >= 3 &&
	    (in_file * 2 > b.n || in_block * 2 > f.n);
	free(b.v);
	free(f.v);
	return r;
}

/* ---- top-level definitions ---- */

static int word_is(const char *s, size_t len, const char *const *words,
		   size_t nwords)
{
	size_t i;

	for (i = 0; i < nwords; i++)
		if (strlen(words[i]) == len && !memcmp(s, words[i], len))
			return 1;
	return 0;
}

/* The identifier-like word at s[*i]; its length (0: none). */
static size_t word_at(const char *s, size_t len, size_t i)
{
	size_t j = i;

	while (j < len && is_ident(s[j]))
		j++;
	return j - i;
}

static size_t skip_blanks(const char *s, size_t len, size_t i)
{
	while (i < len && aa_is_hspace(s[i]))
		i++;
	return i;
}

/* "name(" with two words or more before it, not ending in ';'. */
static size_t c_like_head(const char *s, size_t len, const char **name)
{
	static const char *const control[] = {
		"if", "for", "while", "switch", "return", "else", "do",
		"case", "sizeof", "goto",
	};
	const char *paren = memchr(s, '(', len);
	size_t i, words = 0, last = 0, lastlen = 0, z = len;

	while (z && aa_is_hspace(s[z - 1]))
		z--;
	if (!paren || !z || s[z - 1] == ';' || s[z - 1] == ',')
		return 0;
	for (i = 0; s + i < paren;) {
		size_t w = word_at(s, len, i);

		if (w) {
			if (word_is(s + i, w, control,
				    sizeof(control) / sizeof(*control)))
				return 0;
			words++;
			last = i;
			lastlen = w;
			i += w;
		} else if (aa_is_hspace(s[i]) || s[i] == '*' || s[i] == '&') {
			i++;
		} else {
			return 0;
		}
	}
	if (words < 2 || last + lastlen != (size_t)(paren - s))
		return 0;
	*name = s + last;
	return lastlen;
}

size_t aa_definition_name(const char *s, size_t len, const char **name)
{
	static const char *const modifiers[] = {
		"export", "default", "pub", "async", "static", "public",
		"private", "protected", "abstract", "final", "inline", "extern",
		"unsafe", "virtual", "sealed", "open", "data", "override",
	};
	static const char *const keywords[] = {
		"def", "class", "function", "fn", "func", "struct", "enum",
		"union", "interface", "trait", "impl", "type", "module",
		"namespace", "record", "object", "macro", "defmodule", "defn",
		"sub", "proc",
	};
	size_t i = 0, w;

	if (!len || aa_is_hspace(s[0]) || !is_ident(s[0]))
		return 0;
	for (;;) {
		w = word_at(s, len, i);
		if (!w)
			return 0;
		if (!word_is(s + i, w, modifiers,
			     sizeof(modifiers) / sizeof(*modifiers)))
			break;
		i += w;
		if (i < len && s[i] == '(') { /* pub(crate) */
			const char *close = memchr(s + i, ')', len - i);

			if (!close)
				return 0;
			i = (size_t)(close - s) + 1;
		}
		i = skip_blanks(s, len, i);
	}
	if (!word_is(s + i, w, keywords, sizeof(keywords) / sizeof(*keywords)))
		return c_like_head(s, len, name);
	i = skip_blanks(s, len, i + w);
	if (i < len && s[i] == '(') { /* Go: func (r *T) Name( */
		const char *close = memchr(s + i, ')', len - i);

		if (!close)
			return 0;
		i = skip_blanks(s, len, (size_t)(close - s) + 1);
	}
	while (i < len && s[i] == '*') /* function* gen() */
		i = skip_blanks(s, len, i + 1);
	w = word_at(s, len, i);
	if (!w)
		return 0;
	*name = s + i;
	return w;
}

typedef struct defs {
	const char **name;
	size_t *len;
	size_t n, cap;
} defs;

static int defs_add(defs *d, const char *name, size_t len)
{
	size_t cap = d->cap;

	/* two arrays, one capacity: the second grows as the first did */
	if (AA_GROW(d->name, d->n, cap) < 0 || AA_GROW(d->len, d->n, d->cap) < 0)
		return -1;
	d->name[d->n] = name;
	d->len[d->n++] = len;
	return 0;
}

static int defs_has(const defs *d, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->len[i] == len && !memcmp(d->name[i], name, len))
			return 1;
	return 0;
}

/* Every top-level definition name of s (untrimmed lines). */
static int collect_defs(const char *s, size_t n, defs *d)
{
	size_t off = 0;

	while (off < n) {
		const char *nl = memchr(s + off, '\n', n - off), *name;
		size_t end = nl ? (size_t)(nl - s) : n, w;

		w = aa_definition_name(s + off, end - off, &name);
		if (w && !defs_has(d, name, w) && defs_add(d, name, w) < 0)
			return -1;
		off = nl ? end + 1 : n;
	}
	return 0;
}

int aa_removed_definitions(const char *old, size_t old_len, const char *new_,
			   size_t new_len, size_t max, aa_buf *out,
			   size_t *count)
{
	defs o = { 0 }, nw = { 0 };
	size_t i;
	int r = -1;

	*count = 0;
	if (collect_defs(old, old_len, &o) < 0 ||
	    collect_defs(new_, new_len, &nw) < 0)
		goto done;
	for (i = 0; i < o.n; i++) {
		if (defs_has(&nw, o.name[i], o.len[i]))
			continue;
		if (*count < max)
			aa_buf_printf(out, "%s%.*s", *count ? ", " : "",
				      (int)o.len[i], o.name[i]);
		else if (*count == max)
			aa_buf_puts(out, ", ...");
		(*count)++;
	}
	r = aa_buf_oom(out) ? -1 : 0;
done:
	free(o.name);
	free(o.len);
	free(nw.name);
	free(nw.len);
	return r;
}
