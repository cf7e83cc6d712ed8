/*
 * Text model: decode a file once into lines, edit lines, encode back.
 *
 * Line bytes live in chunks owned by the text: one chunk holds the whole
 * decoded file, later chunks hold bytes stored by splices. Chunks never
 * move once allocated, so a line's pointer stays valid until the text is
 * freed. Decoding then encoding any input that decodes gives back the
 * identical bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "edit/text.h"
#include "edit/text_priv.h"
#include "util/util.h"

/* Storage that lines point into; `data` never moves once allocated. */
struct aa_text_chunk {
	aa_text_chunk *next;
	size_t len, cap;
	char data[];
};

#define STORE_CHUNK_SIZE (64u * 1024)

static const char *const WHY_OOM = "out of memory";
static const char *const WHY_UTF16 = "invalid UTF-16";
static const char *const WHY_TOO_LARGE = "file too large for a text edit";

/* ---- storage ---------------------------------------------------------- */

static aa_text_chunk *chunk_new(size_t cap)
{
	aa_text_chunk *c;

	if (cap > SIZE_MAX - sizeof(*c) - 1)
		return NULL;
	c = malloc(sizeof(*c) + cap + 1);
	if (!c)
		return NULL;
	c->next = NULL;
	c->len = 0;
	c->cap = cap;
	return c;
}

/* Links c in front, so the store chunk with spare room is the head. */
static void chunk_push(aa_text *t, aa_text_chunk *c)
{
	c->next = t->chunks;
	t->chunks = c;
}

const char *aa_text_store(aa_text *t, const char *s, size_t len)
{
	aa_text_chunk *c = t->chunks;
	char *dst;

	if (!len)
		return "";
	if (!c || c->cap - c->len < len) {
		c = chunk_new(len > STORE_CHUNK_SIZE ? len : STORE_CHUNK_SIZE);
		if (!c)
			return NULL;
		/*
		 * A big store gets its own chunk behind the head, so the
		 * head's spare room stays usable for small stores.
		 */
		if (len > STORE_CHUNK_SIZE && t->chunks) {
			c->next = t->chunks->next;
			t->chunks->next = c;
		} else {
			chunk_push(t, c);
		}
	}
	dst = c->data + c->len;
	memcpy(dst, s, len);
	c->len += len;
	return dst;
}

static void chunks_free(aa_text_chunk *c)
{
	while (c) {
		aa_text_chunk *next = c->next;

		free(c);
		c = next;
	}
}

void aa_text_free(aa_text *t)
{
	aa_text empty = AA_TEXT_INIT;

	if (!t)
		return;
	chunks_free(t->chunks);
	free(t->lines);
	*t = empty;
}

/* ---- UTF-16 -> UTF-8 -------------------------------------------------- */

static unsigned utf16_unit(const unsigned char *p, int big_endian)
{
	return big_endian ? (unsigned)p[0] << 8 | p[1]
			  : (unsigned)p[1] << 8 | p[0];
}

static size_t put_utf8(char *dst, uint32_t cp)
{
	unsigned char *d = (unsigned char *)dst;

	if (cp < 0x80) {
		d[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		d[0] = (unsigned char)(0xc0 | cp >> 6);
		d[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		d[0] = (unsigned char)(0xe0 | cp >> 12);
		d[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		d[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	d[0] = (unsigned char)(0xf0 | cp >> 18);
	d[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
	d[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
	d[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * Decodes UTF-16 code units (after the BOM) into c. Every 2-byte unit
 * gives at most 3 UTF-8 bytes, so c->cap >= len / 2 * 3 suffices.
 */
static int utf16_to_utf8(aa_text_chunk *c, const unsigned char *p, size_t len,
			 int big_endian)
{
	size_t i = 0;

	if (len % 2)
		return -1;
	while (i < len) {
		uint32_t cp = utf16_unit(p + i, big_endian);

		i += 2;
		if (cp >= 0xdc00 && cp <= 0xdfff)
			return -1; /* low surrogate without a high one */
		if (cp >= 0xd800 && cp <= 0xdbff) {
			uint32_t lo;

			if (i >= len)
				return -1;
			lo = utf16_unit(p + i, big_endian);
			if (lo < 0xdc00 || lo > 0xdfff)
				return -1;
			i += 2;
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		}
		c->len += put_utf8(c->data + c->len, cp);
	}
	return 0;
}

/* ---- decoding --------------------------------------------------------- */

static aa_enc detect_encoding(const unsigned char *p, size_t len,
			      size_t *bom_len)
{
	if (len >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) {
		*bom_len = 3;
		return AA_ENC_UTF8_BOM;
	}
	if (len >= 2 && p[0] == 0xff && p[1] == 0xfe) {
		*bom_len = 2;
		return AA_ENC_UTF16LE;
	}
	if (len >= 2 && p[0] == 0xfe && p[1] == 0xff) {
		*bom_len = 2;
		return AA_ENC_UTF16BE;
	}
	*bom_len = 0;
	return AA_ENC_UTF8;
}

/* Copies (UTF-8) or converts (UTF-16) the content after the BOM. */
static aa_text_chunk *decode_content(aa_enc enc, const unsigned char *p,
				     size_t len, const char **why)
{
	int utf16 = enc == AA_ENC_UTF16LE || enc == AA_ENC_UTF16BE;
	aa_text_chunk *c = chunk_new(utf16 ? len / 2 * 3 : len);

	if (!c) {
		*why = WHY_OOM;
		return NULL;
	}
	if (!utf16) {
		if (len)
			memcpy(c->data, p, len);
		c->len = len;
	} else if (utf16_to_utf8(c, p, len, enc == AA_ENC_UTF16BE) < 0) {
		free(c);
		*why = WHY_UTF16;
		return NULL;
	}
	return c;
}

static int lines_reserve(aa_text *t, size_t extra)
{
	if (extra > SIZE_MAX / sizeof(aa_line) - t->n)
		return -1;
	return aa_array_grow(&t->lines, &t->cap, t->n + extra, sizeof(aa_line));
}

/*
 * The end of the line at s: the next '\n' or '\r', or end. *nl caches
 * the next '\n' (memchr is vectorised, and most files have no lone
 * '\r'), so a file of '\r' endings only is still read once.
 */
static const char *find_eol(const char *s, const char *end, const char **nl)
{
	const char *cr;

	if (!*nl || *nl < s) {
		*nl = memchr(s, '\n', (size_t)(end - s));
		if (!*nl)
			*nl = end;
	}
	cr = memchr(s, '\r', (size_t)(*nl - s));
	return cr ? cr : *nl;
}

/* Splits [s, end) into t->lines, each with its own terminator. */
/* Lines ending in '\n', plus one: the array's size for most files. */
static size_t count_lines(const char *s, const char *end)
{
	size_t n = 1;

	while ((s = memchr(s, '\n', (size_t)(end - s))) != NULL) {
		n++;
		s++;
	}
	return n;
}

static int split_lines(aa_text *t, const char *s, const char *end)
{
	const char *nl = NULL;

	if (s < end && lines_reserve(t, count_lines(s, end)) < 0)
		return -1;

	while (s < end) {
		const char *e = find_eol(s, end, &nl);
		aa_line *l;

		if (t->n == t->cap && lines_reserve(t, 1) < 0)
			return -1;
		l = &t->lines[t->n++];
		l->s = s;
		l->len = (size_t)(e - s);
		if (e == end) {
			l->eol = AA_EOL_NONE;
			s = e;
		} else if (*e == '\n') {
			l->eol = AA_EOL_LF;
			s = e + 1;
		} else if (e + 1 < end && e[1] == '\n') {
			l->eol = AA_EOL_CRLF;
			s = e + 2;
		} else {
			l->eol = AA_EOL_CR;
			s = e + 1;
		}
	}
	return 0;
}

/* The most frequent terminator; ties go to LF, then CRLF, then CR. */
static aa_eol dominant_eol(const aa_text *t)
{
	size_t count[4] = { 0, 0, 0, 0 };
	size_t i;
	aa_eol best = AA_EOL_LF;

	for (i = 0; i < t->n; i++)
		count[t->lines[i].eol]++;
	if (count[AA_EOL_CRLF] > count[best])
		best = AA_EOL_CRLF;
	if (count[AA_EOL_CR] > count[best])
		best = AA_EOL_CR;
	return best;
}

static int decode(aa_text *t, const char *buf, size_t len, const char **why,
		  int borrow)
{
	aa_text empty = AA_TEXT_INIT;
	const unsigned char *p = (const unsigned char *)buf;
	aa_text_chunk *c;
	const char *from;
	size_t bom;
	const char *ignored;

	if (!why)
		why = &ignored;
	*t = empty;
	if (len > AA_MAX_TEXT_SIZE) {
		*why = WHY_TOO_LARGE;
		return -1;
	}
	if (!buf)
		len = 0;
	t->enc = detect_encoding(p, len, &bom);
	if (borrow && (t->enc == AA_ENC_UTF8 || t->enc == AA_ENC_UTF8_BOM)) {
		from = buf ? buf + bom : "";
		len -= bom;
	} else {
		c = decode_content(t->enc, p + bom, len - bom, why);
		if (!c) {
			*t = empty;
			return -1;
		}
		/* Frees the content chunk too if the split fails. */
		chunk_push(t, c);
		from = c->data;
		len = c->len;
	}
	if (split_lines(t, from, from + len) < 0) {
		aa_text_free(t);
		*why = WHY_OOM;
		return -1;
	}
	t->dominant = dominant_eol(t);
	return 0;
}

int aa_text_decode(aa_text *t, const char *buf, size_t len, const char **why)
{
	return decode(t, buf, len, why, 0);
}

int aa_text_decode_borrowed(aa_text *t, const char *buf, size_t len,
			    const char **why)
{
	return decode(t, buf, len, why, 1);
}

/* ---- encoding --------------------------------------------------------- */

static const char *eol_bytes(aa_eol e, size_t *len)
{
	switch (e) {
	case AA_EOL_LF:
		*len = 1;
		return "\n";
	case AA_EOL_CRLF:
		*len = 2;
		return "\r\n";
	case AA_EOL_CR:
		*len = 1;
		return "\r";
	case AA_EOL_NONE:
		break;
	}
	*len = 0;
	return "";
}

/*
 * Reads one strict UTF-8 sequence at s (n bytes available): no overlong
 * forms, no surrogates, nothing above U+10FFFF. Returns its length, or 0
 * when the bytes there are not valid UTF-8.
 */
static size_t get_utf8(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t need, i;
	uint32_t v, min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 2; v = s[0] & 0x1f; min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 3; v = s[0] & 0x0f; min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 4; v = s[0] & 0x07; min = 0x10000;
	} else {
		return 0;
	}
	if (n < need)
		return 0;
	for (i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return need;
}

static int put_utf16_unit(aa_buf *out, unsigned u, int big_endian)
{
	char b[2];

	b[big_endian ? 0 : 1] = (char)(u >> 8);
	b[big_endian ? 1 : 0] = (char)(u & 0xff);
	return aa_buf_put(out, b, 2);
}

static int put_utf16(aa_buf *out, const char *s, size_t len, int big_endian,
		     const char **why)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	if (aa_buf_grow(out, len * 2) < 0)
		goto oom;
	while (i < len) {
		uint32_t cp;
		size_t k = get_utf8(p + i, len - i, &cp);
		int r;

		if (!k) {
			*why = "text is not valid UTF-8; cannot encode it as UTF-16";
			return -1;
		}
		i += k;
		if (cp < 0x10000) {
			r = put_utf16_unit(out, cp, big_endian);
		} else {
			cp -= 0x10000;
			r = put_utf16_unit(out, 0xd800 | cp >> 10, big_endian);
			if (!r)
				r = put_utf16_unit(out, 0xdc00 | (cp & 0x3ff),
						   big_endian);
		}
		if (r < 0)
			goto oom;
	}
	return 0;
oom:
	*why = WHY_OOM;
	return -1;
}

/* Appends s in t's encoding (BOM excluded). */
static int put_encoded(aa_buf *out, aa_enc enc, const char *s, size_t len,
		       const char **why)
{
	if (enc == AA_ENC_UTF16LE || enc == AA_ENC_UTF16BE)
		return put_utf16(out, s, len, enc == AA_ENC_UTF16BE, why);
	if (aa_buf_put(out, s, len) < 0) {
		*why = WHY_OOM;
		return -1;
	}
	return 0;
}

static int put_bom(aa_buf *out, aa_enc enc, const char **why)
{
	const char *bom = "";
	size_t len = 0;

	switch (enc) {
	case AA_ENC_UTF8_BOM:
		bom = "\xef\xbb\xbf";
		len = 3;
		break;
	case AA_ENC_UTF16LE:
		bom = "\xff\xfe";
		len = 2;
		break;
	case AA_ENC_UTF16BE:
		bom = "\xfe\xff";
		len = 2;
		break;
	case AA_ENC_UTF8:
		break;
	}
	if (aa_buf_put(out, bom, len) < 0) {
		*why = WHY_OOM;
		return -1;
	}
	return 0;
}

int aa_text_encode_why(const aa_text *t, aa_buf *out, const char **why)
{
	size_t i, total = 0;
	const char *ignored;

	if (!why)
		why = &ignored;
	/* the exact size for UTF-8 (UTF-16 grows as it goes) */
	for (i = 0; i < t->n; i++)
		total += t->lines[i].len + (t->lines[i].eol == AA_EOL_CRLF ? 2 :
					    t->lines[i].eol != AA_EOL_NONE);
	if (aa_buf_grow(out, total + 3) < 0) {
		*why = WHY_OOM;
		return -1;
	}
	if (put_bom(out, t->enc, why) < 0)
		return -1;
	for (i = 0; i < t->n; i++) {
		const aa_line *l = &t->lines[i];
		size_t elen;
		const char *e = eol_bytes(l->eol, &elen);

		if (put_encoded(out, t->enc, l->s, l->len, why) < 0 ||
		    put_encoded(out, t->enc, e, elen, why) < 0)
			return -1;
	}
	return 0;
}

/* The UTF-8 bytes of t (its BOM, each line and terminator) start buf at *off. */
static int utf8_part_same(const char *buf, size_t len, size_t *off,
			  const char *s, size_t n)
{
	if (n > len - *off || (s != buf + *off && memcmp(s, buf + *off, n)))
		return 0;
	*off += n;
	return 1;
}

int aa_text_same_bytes(const aa_text *t, const char *buf, size_t len)
{
	size_t i, off = 0;

	if (t->enc == AA_ENC_UTF16LE || t->enc == AA_ENC_UTF16BE)
		return -1;
	if (t->enc == AA_ENC_UTF8_BOM &&
	    !utf8_part_same(buf, len, &off, "\xef\xbb\xbf", 3))
		return 0;
	for (i = 0; i < t->n; i++) {
		const aa_line *l = &t->lines[i];
		size_t elen;
		const char *e = eol_bytes(l->eol, &elen);

		/* a line still in place points at its own bytes: no compare */
		if (!utf8_part_same(buf, len, &off, l->s, l->len) ||
		    !utf8_part_same(buf, len, &off, e, elen))
			return 0;
	}
	return off == len;
}

int aa_text_encode(const aa_text *t, aa_buf *out)
{
	const char *why;

	return aa_text_encode_why(t, out, &why);
}

/* ---- editing ---------------------------------------------------------- */

static int eol_valid(aa_eol e)
{
	return e == AA_EOL_NONE || e == AA_EOL_LF || e == AA_EOL_CRLF ||
	       e == AA_EOL_CR;
}

/*
 * Copies ins into the text's storage as a new array first: ins may point
 * into t->lines itself, which the splice is about to move.
 */
static aa_line *copy_lines_in(aa_text *t, const aa_line *ins, size_t nins)
{
	aa_line *v;
	size_t i;

	if (nins > SIZE_MAX / sizeof(*v))
		return NULL;
	v = malloc(nins ? nins * sizeof(*v) : 1);
	if (!v)
		return NULL;
	for (i = 0; i < nins; i++) {
		if (!eol_valid(ins[i].eol) || (!ins[i].s && ins[i].len) ||
		    !(v[i].s = aa_text_store(t, ins[i].s, ins[i].len))) {
			free(v);
			return NULL;
		}
		v[i].len = ins[i].len;
		v[i].eol = ins[i].eol;
	}
	return v;
}

int aa_text_splice(aa_text *t, size_t at, size_t del,
		   const aa_line *ins, size_t nins)
{
	aa_line *copy;

	if (at > t->n || del > t->n - at || (nins && !ins))
		return -1;
	copy = copy_lines_in(t, ins, nins);
	if (!copy)
		return -1;
	if (nins > del && lines_reserve(t, nins - del) < 0) {
		free(copy);
		return -1;
	}
	if (nins != del && t->n - at - del)
		memmove(t->lines + at + nins, t->lines + at + del,
			(t->n - at - del) * sizeof(aa_line));
	if (nins)
		memcpy(t->lines + at, copy, nins * sizeof(aa_line));
	t->n = t->n - del + nins;
	free(copy);
	return 0;
}

/* ---- queries ---------------------------------------------------------- */

aa_eol aa_line_own_eol(const char *s, size_t *len, aa_eol dflt)
{
	if (*len && s[*len - 1] == '\r') {
		(*len)--;
		return AA_EOL_CRLF;
	}
	return dflt;
}

int aa_text_has_final_newline(const aa_text *t)
{
	return t->n == 0 || t->lines[t->n - 1].eol != AA_EOL_NONE;
}

int aa_bytes_look_binary(const char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)buf;

	if (!buf || !len)
		return 0;
	if (len >= 2 && ((p[0] == 0xff && p[1] == 0xfe) ||
			 (p[0] == 0xfe && p[1] == 0xff)))
		return 0;
	return memchr(buf, 0, len < 8000 ? len : 8000) != NULL;
}

const char *aa_enc_name(aa_enc e)
{
	switch (e) {
	case AA_ENC_UTF8:
		return "utf-8";
	case AA_ENC_UTF8_BOM:
		return "utf-8-bom";
	case AA_ENC_UTF16LE:
		return "utf-16le";
	case AA_ENC_UTF16BE:
		return "utf-16be";
	}
	return "unknown";
}
