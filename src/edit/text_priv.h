/*
 * Text model extras not (yet) in src/edit/text.h.
 */
#ifndef AIAPPLY_TEXT_PRIV_H
#define AIAPPLY_TEXT_PRIV_H

#include "edit/text.h"

/*
 * aa_text_encode() with a reason on failure: "out of memory", or, for a
 * UTF-16 text, a line that is not valid UTF-8 (an edit brought in bytes
 * that UTF-16 cannot represent). Appends to out.
 */
int aa_text_encode_why(const aa_text *t, aa_buf *out, const char **why);

/*
 * Whether aa_text_encode(t) would give exactly buf[0..len), without
 * building it: 1 same, 0 not; -1 for UTF-16 (encode and compare).
 */
int aa_text_same_bytes(const aa_text *t, const char *buf, size_t len);

#endif
