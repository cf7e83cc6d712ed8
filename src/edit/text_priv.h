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

#endif
