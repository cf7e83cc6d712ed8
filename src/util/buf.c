/* Growable byte buffers and small string helpers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aiapply/common.h"

int aa_buf_grow(aa_buf *b, size_t extra)
{
	size_t need, cap;
	char *p;

	if (b->oom)
		return -1;
	if (extra > SIZE_MAX - b->len - 1) {
		b->oom = 1;
		return -1;
	}
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	/* the first allocation is what was asked for (a file's known size) */
	cap = b->cap ? b->cap : need > 64 ? need : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	p = realloc(b->ptr, cap);
	if (!p) {
		b->oom = 1;
		return -1;
	}
	b->ptr = p;
	b->cap = cap;
	return 0;
}

int aa_buf_put(aa_buf *b, const void *data, size_t len)
{
	if (aa_buf_grow(b, len) < 0)
		return -1;
	if (len)
		memcpy(b->ptr + b->len, data, len);
	b->len += len;
	b->ptr[b->len] = '\0';
	return 0;
}

int aa_buf_puts(aa_buf *b, const char *s)
{
	return aa_buf_put(b, s, strlen(s));
}

int aa_buf_putc(aa_buf *b, char c)
{
	return aa_buf_put(b, &c, 1);
}

int aa_buf_vprintf(aa_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0 || aa_buf_grow(b, (size_t)n) < 0)
		return -1;
	vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int aa_buf_printf(aa_buf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = aa_buf_vprintf(b, fmt, ap);
	va_end(ap);
	return r;
}

void aa_buf_clear(aa_buf *b)
{
	b->len = 0;
	b->oom = 0;
	if (b->ptr)
		b->ptr[0] = '\0';
}

void aa_buf_free(aa_buf *b)
{
	free(b->ptr);
	b->ptr = NULL;
	b->len = b->cap = 0;
	b->oom = 0;
}

char *aa_buf_detach(aa_buf *b)
{
	char *p = b->ptr;

	if (!p)
		p = calloc(1, 1);
	else if (b->cap - b->len > 4096) {
		/* a buffer that is kept gives its doubling slack back */
		char *q = realloc(p, b->len + 1);

		if (q)
			p = q;
	}
	b->ptr = NULL;
	b->len = b->cap = 0;
	return p;
}

char *aa_strndup(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (!p)
		return NULL;
	if (n)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *aa_strdup(const char *s)
{
	return aa_strndup(s, strlen(s));
}

/* ---- quoting for messages (see common.h) ---- */

/*
 * Length of the UTF-8 character at s[0..n) that text may show as it is:
 * well formed, shortest form, not a surrogate, not a C1 control. 0 when
 * the byte s[0] (>= 0x80) must be escaped.
 */
static size_t printable_utf8(const unsigned char *s, size_t n)
{
	size_t k, i;
	uint32_t cp;

	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		k = 2, cp = s[0] & 0x1F;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		k = 3, cp = s[0] & 0x0F;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		k = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (k > n)
		return 0;
	for (i = 1; i < k; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF) || (cp >= 0x80 && cp <= 0x9F))
		return 0;
	return k;
}

/* git's one-letter escapes, or 0. */
static char c_escape(unsigned char c)
{
	static const char from[] = "\a\b\t\n\v\f\r\"\\", to[] = "abtnvfr\"\\";
	const char *p = c ? strchr(from, c) : NULL;

	return p ? to[p - from] : 0;
}

/*
 * What to write for s[i]: *plain bytes as they are (a character), or 0
 * and the byte must be escaped.
 */
static size_t quote_step(const char *s, size_t n, size_t i, unsigned flags)
{
	unsigned char c = (unsigned char)s[i];

	if (c < 0x20 || c == 0x7f || c == '"' || c == '\\')
		return 0;
	if (c < 0x80)
		return 1;
	if (flags & AA_QUOTE_HIGH)
		return 0;
	return printable_utf8((const unsigned char *)s + i, n - i);
}

/* The number of bytes to show: at most max, not inside a UTF-8 character. */
static size_t quote_cut(const char *s, size_t len, size_t max)
{
	size_t n = len > max ? max : len;

	while (n < len && n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	return n;
}

int aa_quote_needed(const char *s, size_t len, unsigned flags)
{
	size_t i = 0, k;

	while (i < len) {
		if (!(k = quote_step(s, len, i, flags)))
			return 1;
		i += k;
	}
	return 0;
}

int aa_buf_quote(aa_buf *b, const char *s, size_t len, unsigned flags,
		 size_t max)
{
	size_t n = quote_cut(s, len, max), i = 0, k;
	int quoted = (flags & AA_QUOTE_ALWAYS) || n < len ||
		     aa_quote_needed(s, n, flags);
	int r = quoted ? aa_buf_putc(b, '"') : 0;

	while (i < n && !r) {
		unsigned char c = (unsigned char)s[i];
		char e;

		if ((k = quote_step(s, n, i, flags)) != 0) {
			r = aa_buf_put(b, s + i, k);
			i += k;
			continue;
		}
		e = c_escape(c);
		r = e ? aa_buf_printf(b, "\\%c", e)
		      : aa_buf_printf(b, "\\%03o", (unsigned)c);
		i++;
	}
	if (!r && n < len)
		r = aa_buf_puts(b, "...");
	if (!r && quoted)
		r = aa_buf_putc(b, '"');
	return r ? -1 : 0;
}

int aa_buf_put_quoted(aa_buf *b, const char *s, size_t len, size_t max)
{
	return aa_buf_quote(b, s, len, AA_QUOTE_ALWAYS, max);
}

/* The ring of buffers behind aa_qpath() and aa_qtext(). */
#define QUOTE_RING 8

static const char *ring_quote(const char *s, size_t len, unsigned flags,
			      size_t max)
{
	static _Thread_local aa_buf ring[QUOTE_RING];
	static _Thread_local unsigned at;
	aa_buf *b = &ring[at++ % QUOTE_RING];

	aa_buf_clear(b);
	if (!s || aa_buf_quote(b, s, len, flags, max) < 0)
		return "?";
	return b->ptr ? b->ptr : "";
}

/*
 * core.quotePath (git's default true): a path's bytes >= 0x80 as octal.
 * false shows its UTF-8 as it is; control bytes stay escaped either way.
 */
static int quote_path_high = 1;

void aa_quote_path_set(int high)
{
	quote_path_high = high != 0;
}

const char *aa_qpathn(const char *s, size_t len)
{
	return ring_quote(s, len, quote_path_high ? AA_QUOTE_HIGH : 0,
			  AA_QUOTE_PATH_MAX);
}

const char *aa_qpath(const char *path)
{
	return aa_qpathn(path, path ? strlen(path) : 0);
}

const char *aa_qname(const char *path)
{
	return ring_quote(path, path ? strlen(path) : 0, 0, AA_QUOTE_PATH_MAX);
}

const char *aa_qpathp(const char *prefix, const char *path)
{
	aa_buf b = AA_BUF_INIT;
	const char *q;

	if (aa_buf_puts(&b, prefix) < 0 || aa_buf_puts(&b, path ? path : "") < 0) {
		aa_buf_free(&b);
		return "?";
	}
	q = aa_qpathn(b.ptr, b.len);
	aa_buf_free(&b);
	return q;
}

const char *aa_qtext(const char *s, size_t len, size_t max)
{
	return ring_quote(s, len, AA_QUOTE_ALWAYS, max);
}
