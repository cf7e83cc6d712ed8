/*
 * The two decoders a "GIT binary patch" needs (Documentation/
 * format-diff.md, "Binary patches"): git's base85 (base85.c: the
 * alphabet 0-9 A-Z a-z !#$%&()*+-;<=>?@^_`{|}~, five characters for
 * four bytes, big-endian, the last group padded) and zlib's inflate to
 * exactly the size the patch states. Input is untrusted: every length
 * is checked, nothing is read or written out of bounds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util/util.h"

static const char en85[] =
	"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	"!#$%&()*+-;<=>?@^_`{|}~";

/* The value of one base85 character, or -1. */
static int de85(unsigned char c)
{
	const char *p = c ? strchr(en85, c) : NULL;

	return p ? (int)(p - en85) : -1;
}

int aa_base85_decode(unsigned char *out, size_t len, const char *in,
		     size_t inlen)
{
	size_t i = 0;

	if (inlen < (len + 3) / 4 * 5)
		return -1;
	while (len) {
		uint64_t acc = 0;
		size_t k, cnt;

		for (k = 0; k < 5; k++) {
			int d = de85((unsigned char)in[i++]);

			if (d < 0)
				return -1;
			acc = acc * 85 + (uint64_t)d;
		}
		if (acc > 0xffffffffu)
			return -1;
		cnt = len < 4 ? len : 4;
		for (k = 0; k < cnt; k++)
			*out++ = (unsigned char)(acc >> (24 - 8 * k));
		len -= cnt;
	}
	return 0;
}

int aa_inflate_exact(const unsigned char *in, size_t inlen, size_t outlen,
		     unsigned char **out, const char **why)
{
	z_stream z;
	unsigned char *buf;
	int st;

	*out = NULL;
	if (inlen > UINT_MAX || outlen >= UINT_MAX) {
		*why = "too large";
		return -1;
	}
	/* one byte of room more: a stream longer than stated shows in it */
	buf = malloc(outlen + 1);
	if (!buf) {
		*why = "out of memory";
		return -1;
	}
	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK) {
		free(buf);
		*why = "out of memory";
		return -1;
	}
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)inlen;
	z.next_out = buf;
	z.avail_out = (uInt)outlen + 1;
	st = inflate(&z, Z_FINISH);
	if (st == Z_STREAM_END && z.total_out == outlen) {
		inflateEnd(&z);
		*out = buf;
		return 0;
	}
	*why = z.total_out > outlen ? "the data inflates to more bytes than stated"
	       : st == Z_STREAM_END ? "the data inflates to fewer bytes than stated"
	       : st == Z_DATA_ERROR ? "the data is not zlib's deflate"
	       : "the deflated data is cut short";
	inflateEnd(&z);
	free(buf);
	return -1;
}
