/* STUB: to be replaced by the real implementation. */
#include <stdlib.h>
#include <string.h>
#include "aiapply/common.h"
#include "aiapply/changeset.h"
#include "aiapply/text.h"
#include "aiapply/edit.h"
#include "aiapply/format.h"
#include "aiapply/path.h"
int aa_text_decode(aa_text *t, const char *buf, size_t len, const char **why) { (void)t; (void)buf; (void)len; *why = "stub"; return -1; }
int aa_text_encode(const aa_text *t, aa_buf *out) { (void)t; (void)out; return -1; }
void aa_text_free(aa_text *t) { (void)t; }
int aa_text_splice(aa_text *t, size_t at, size_t del, const aa_line *ins, size_t nins) { (void)t; (void)at; (void)del; (void)ins; (void)nins; return -1; }
const char *aa_text_store(aa_text *t, const char *s, size_t len) { (void)t; (void)s; (void)len; return NULL; }
int aa_text_has_final_newline(const aa_text *t) { (void)t; return 1; }
int aa_bytes_look_binary(const char *buf, size_t len) { return memchr(buf, 0, len < 8000 ? len : 8000) != NULL; }
const char *aa_enc_name(aa_enc e) { (void)e; return "utf-8"; }
