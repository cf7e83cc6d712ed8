/*
 * The binary engine: the bytes a "GIT binary patch" hunk makes of a
 * pre-image (Documentation/format-diff.md, "Binary patches"). A literal
 * hunk is the result itself; a delta hunk is git's delta format
 * (patch-delta.c): the source size and the result size as base-128
 * varints (low bits first), then opcodes until the end, each either a
 * copy from the source (high bit set: bits 0-3 say which offset bytes
 * follow, bits 4-6 which size bytes, low byte first; size 0 means
 * 0x10000) or an insert of the next 1-127 bytes (the opcode is their
 * count; opcode 0 is reserved). The delta is untrusted input: every
 * size and offset is checked before any byte is read or written.
 * Object ids are the planner's business (src/plan/plan_binary.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "edit/edit.h"
#include "util/util.h"

/* The smallest delta: two one-byte sizes and one opcode with a byte. */
#define DELTA_SIZE_MIN 4
/* What a delta's stated size may reserve before a byte is made. */
#define PREALLOC_MAX (4u << 20)

int aa_delta_varint(const unsigned char **p, const unsigned char *end,
		      size_t *out)
{
	size_t v = 0;
	unsigned shift = 0;
	unsigned char c;

	do {
		if (*p >= end || shift > 56)
			return -1;
		c = *(*p)++;
		v |= (size_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	*out = v;
	return 0;
}

int aa_delta_copy_args(const unsigned char **p, const unsigned char *end,
		     unsigned char cmd, size_t *off, size_t *size)
{
	int bit;

	*off = *size = 0;
	for (bit = 0; bit < 7; bit++) {
		if (!(cmd & (1u << bit)))
			continue;
		if (*p >= end)
			return -1;
		if (bit < 4)
			*off |= (size_t)*(*p)++ << (8 * bit);
		else
			*size |= (size_t)*(*p)++ << (8 * (bit - 4));
	}
	if (!*size)
		*size = 0x10000;
	return 0;
}

int aa_delta_apply(const unsigned char *src, size_t srclen,
		   const unsigned char *delta, size_t dlen, size_t max,
		   aa_buf *out, const char **why)
{
	const unsigned char *p = delta, *end = delta + dlen;
	size_t want, left;

	if (dlen < DELTA_SIZE_MIN || aa_delta_varint(&p, end, &want) < 0 ||
	    aa_delta_varint(&p, end, &left) < 0)
		return *why = "the delta is cut short", -1;
	if (want != srclen)
		return *why = "the delta is for a source of another size", -1;
	if (left > max)
		return *why = "the delta's result is too large", -1;
	/* room for the stated size, but not more than a few MiB ahead of need */
	if (aa_buf_grow(out, left < PREALLOC_MAX ? left : PREALLOC_MAX) < 0)
		return *why = "out of memory", -1;
	while (p < end) {
		unsigned char cmd = *p++;
		size_t off, size;

		if (cmd & 0x80) {
			if (aa_delta_copy_args(&p, end, cmd, &off, &size) < 0)
				return *why = "a copy opcode is cut short", -1;
			if (off > srclen || size > srclen - off)
				return *why = "a copy reaches past the source's end", -1;
			if (size > left)
				return *why = "the delta makes more than its stated size", -1;
			aa_buf_put(out, (const char *)src + off, size);
		} else if (cmd) {
			size = cmd;
			if (size > (size_t)(end - p))
				return *why = "an insert opcode is cut short", -1;
			if (size > left)
				return *why = "the delta makes more than its stated size", -1;
			aa_buf_put(out, (const char *)p, size);
			p += size;
		} else {
			return *why = "the delta has the reserved opcode 0", -1;
		}
		left -= size;
	}
	if (left)
		return *why = "the delta makes fewer bytes than its stated size", -1;
	return aa_buf_oom(out) ? (*why = "out of memory", -1) : 0;
}

int aa_edit_binary(const char *pre, size_t prelen, const aa_op *op,
		   aa_edit_ctx *cx, aa_buf *out)
{
	const aa_binhunk *h = &op->bin[0];
	const char *why = NULL;

	if (op->edit_kind != AA_EDIT_BINARY || !op->nbin)
		return aa_error(cx->diags, op->pos, cx->path,
				"the binary patch has no data");
	if (h->method == AA_BIN_LITERAL) {
		if (aa_buf_put(out, (const char *)h->data, h->len) < 0)
			return aa_oom(cx->diags, h->pos, cx->path);
	} else if (aa_delta_apply((const unsigned char *)pre, prelen, h->data,
				  h->len, AA_MAX_INPUT_SIZE, out, &why) < 0) {
		return aa_error(cx->diags, h->pos, cx->path,
				"binary patch does not apply: %s", why);
	}
	cx->applied++;
	return 0;
}
