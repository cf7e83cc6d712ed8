/* Growable byte buffers and small string helpers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aiapply/common.h"

int aa_buf_grow(aa_buf *b, size_t extra)
{
	size_t need, cap;
	char *p;

	if (extra > SIZE_MAX - b->len - 1)
		return -1;
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	/* the first allocation is what was asked for (a file's known size) */
	cap = b->cap ? b->cap : need > 64 ? need : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	p = realloc(b->ptr, cap);
	if (!p)
		return -1;
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
	if (b->ptr)
		b->ptr[0] = '\0';
}

void aa_buf_free(aa_buf *b)
{
	free(b->ptr);
	b->ptr = NULL;
	b->len = b->cap = 0;
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

int aa_buf_put_quoted(aa_buf *b, const char *s, size_t len, size_t max)
{
	size_t i, n = len > max ? max : len;
	int r = 0;

	while (n < len && n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;  /* do not cut a UTF-8 character */
	r |= aa_buf_putc(b, '"');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			r |= aa_buf_printf(b, "\\%c", c);
		else if (c == '\t')
			r |= aa_buf_puts(b, "\\t");
		else if (c < 0x20 || c == 0x7f)
			r |= aa_buf_printf(b, "\\x%02x", c);
		else
			r |= aa_buf_putc(b, (char)c);
	}
	r |= aa_buf_puts(b, n < len ? "...\"" : "\"");
	return r ? -1 : 0;
}
