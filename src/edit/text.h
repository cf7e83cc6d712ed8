/*
 * Text model: a file decoded once into lines (UTF-8 content, each line
 * with its own terminator), edited as lines, encoded back with the file's
 * own conventions (encoding, BOM, line endings, final newline).
 */
#ifndef AIAPPLY_TEXT_H
#define AIAPPLY_TEXT_H

#include "aiapply/common.h"

typedef enum aa_eol {
	AA_EOL_NONE = 0, /* last line without terminator */
	AA_EOL_LF,
	AA_EOL_CRLF,
	AA_EOL_CR
} aa_eol;

typedef enum aa_enc {
	AA_ENC_UTF8,      /* also ASCII and anything that is not UTF-16 */
	AA_ENC_UTF8_BOM,
	AA_ENC_UTF16LE,   /* with BOM */
	AA_ENC_UTF16BE    /* with BOM */
} aa_enc;

/*
 * One line: UTF-8 bytes without terminator (not NUL-terminated). 16
 * bytes: a text is at most AA_MAX_TEXT_SIZE, so a length fits 32 bits.
 */
typedef struct aa_line {
	const char *s;
	uint32_t len;
	aa_eol eol;
} aa_line;

typedef struct aa_text_chunk aa_text_chunk;

typedef struct aa_text {
	aa_enc enc;
	aa_eol dominant;       /* most frequent terminator; LF when none */
	aa_line *lines;
	size_t n, cap;
	aa_text_chunk *chunks; /* storage that line bytes point into */
} aa_text;

#define AA_TEXT_INIT { AA_ENC_UTF8, AA_EOL_LF, NULL, 0, 0, NULL }

/*
 * Decodes `len` bytes. Returns 0, or -1 with *why set to a static
 * reason (invalid UTF-16, too large, out of memory).
 */
int aa_text_decode(aa_text *t, const char *buf, size_t len, const char **why);
/*
 * The same without a copy of UTF-8 content: the lines point into buf,
 * which must outlive t and not change (UTF-16 is still converted). Saves
 * a file's size of memory on the edit of a large file.
 */
int aa_text_decode_borrowed(aa_text *t, const char *buf, size_t len,
			    const char **why);
/* Encodes back to bytes in t->enc with each line's terminator. */
int aa_text_encode(const aa_text *t, aa_buf *out);
void aa_text_free(aa_text *t);

/*
 * Replaces lines [at, at+del) with copies of `ins` (their bytes are
 * copied into the text's storage). Returns 0 or -1 (out of memory).
 */
int aa_text_splice(aa_text *t, size_t at, size_t del,
		   const aa_line *ins, size_t nins);
/* Copies bytes into the text's storage; the result lives as long as t. */
const char *aa_text_store(aa_text *t, const char *s, size_t len);

/*
 * A line read from an answer keeps a CR that stood before its LF (the
 * answer's line break is LF, so the CR is the line's own: a real diff of
 * a CRLF file). Such a line's text ends in '\r'; this cuts it off
 * (*len shrinks by one) and returns AA_EOL_CRLF, the ending the line
 * asks for. Otherwise it returns `dflt` and leaves *len alone.
 */
aa_eol aa_line_own_eol(const char *s, size_t *len, aa_eol dflt);

/* True when the file ends with a line terminator (or is empty). */
int aa_text_has_final_newline(const aa_text *t);
/* Binary as git sees it: a NUL in the first 8000 bytes, unless UTF-16 with BOM. */
int aa_bytes_look_binary(const char *buf, size_t len);
const char *aa_enc_name(aa_enc e);

#endif
