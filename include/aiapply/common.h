/*
 * Shared building blocks of libaiapply: growable buffers, input
 * positions, diagnostics and the size limits every stage enforces.
 *
 * Ownership: aa_buf and aa_diags are the caller's structs (declared with
 * AA_BUF_INIT / AA_DIAGS_INIT); the library fills them, and
 * aa_buf_free(&b) / aa_diags_free(&d) release what they hold and leave
 * them empty. aa_buf_detach() and aa_strdup() hand over memory the
 * caller frees with free(). The aa_q*() quoting helpers return strings
 * the library keeps (a small ring of buffers): never freed.
 */
#ifndef AIAPPLY_COMMON_H
#define AIAPPLY_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

/* Limits: every size has one (Documentation/safety.md, "Limits"). */
#define AA_MAX_INPUT_SIZE   (256u * 1024 * 1024) /* one input file */
#define AA_MAX_TEXT_SIZE    (64u * 1024 * 1024)  /* a file we edit as text */
#define AA_MAX_LINE_LENGTH  (1024u * 1024)       /* one line of input or text */
#define AA_MAX_NEST_DEPTH   64                   /* JSON / YAML nesting */
#define AA_MAX_PATH_LENGTH  4096
#define AA_MAX_OPS          1000000

/*
 * What every fallible function returns: 0, -1 when the input is refused
 * (the change set is rejected, exit 1), -2 when the environment failed
 * (an I/O error, a held lock: git's die(), exit 128). Messages are in the
 * diagnostics list either way.
 */
enum {
	AA_OK = 0,
	AA_REJECTED = -1,
	AA_FATAL = -2
};

/*
 * A growable byte buffer; ptr is always NUL-terminated once allocated.
 * It remembers running out of memory (as libgit2's git_str does): after
 * a failed append every later one fails too, so a caller that builds a
 * message from many appends checks aa_buf_oom() once, at the end.
 */
typedef struct aa_buf {
	char *ptr;
	size_t len;
	size_t cap;
	int oom;
} aa_buf;

#define AA_BUF_INIT { NULL, 0, 0, 0 }

static inline int aa_buf_oom(const aa_buf *b)
{
	return b->oom;
}

int aa_buf_grow(aa_buf *b, size_t extra);
int aa_buf_put(aa_buf *b, const void *data, size_t len);
int aa_buf_puts(aa_buf *b, const char *s);
int aa_buf_putc(aa_buf *b, char c);
int aa_buf_printf(aa_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int aa_buf_vprintf(aa_buf *b, const char *fmt, va_list ap);
void aa_buf_clear(aa_buf *b);
void aa_buf_free(aa_buf *b);
/*
 * Quoting of input text and paths in messages: the one place that
 * decides what reaches a terminal. git's quote_c_style: '"' and '\\'
 * escaped, \a \b \t \n \v \f \r, other control bytes and DEL as octal
 * \ooo. Bytes >= 0x80: with AA_QUOTE_HIGH (paths: git's default
 * core.quotePath=true) all as octal; without it (text) valid UTF-8 is
 * kept except the C1 controls U+0080..U+009F, and bytes that are not
 * UTF-8 become octal. The result is in double quotes when something was
 * escaped or with AA_QUOTE_ALWAYS. Input is cut after `max` bytes (on a
 * UTF-8 character boundary) with "..." inside the quotes.
 */
#define AA_QUOTE_HIGH   1u
#define AA_QUOTE_ALWAYS 2u
int aa_buf_quote(aa_buf *b, const char *s, size_t len, unsigned flags,
		 size_t max);
/* True when aa_buf_quote would escape something in s[0..len). */
int aa_quote_needed(const char *s, size_t len, unsigned flags);
/* Text in double quotes: aa_buf_quote(b, s, len, AA_QUOTE_ALWAYS, max). */
int aa_buf_put_quoted(aa_buf *b, const char *s, size_t len, size_t max);
/*
 * For a message's arguments: a path as git prints it (quoted only when
 * it must be, high bytes as octal), and input text always in quotes, cut
 * at `max` bytes. The strings live in a small ring of per-thread buffers:
 * valid until eight more calls; "?" when out of memory.
 */
#define AA_QUOTE_PATH_MAX 1024
const char *aa_qpath(const char *path);
const char *aa_qpathn(const char *s, size_t len);
/*
 * core.quotePath for every path aa_qpath*() quotes, process-wide: 1 (git's
 * default) quotes bytes >= 0x80 as octal, 0 shows valid UTF-8 as it is
 * (control bytes and bytes that are not UTF-8 stay escaped). The command
 * line sets it from the repository's configuration (aa_config_quote_path).
 */
void aa_quote_path_set(int high);
/*
 * A path as git apply --summary names it whatever core.quotePath says:
 * its UTF-8 as it is (the control bytes still escaped, for the terminal).
 */
const char *aa_qname(const char *path);
/* prefix and path quoted as one name, as git's diff headers: "a/caf\303\251" */
const char *aa_qpathp(const char *prefix, const char *path);
const char *aa_qtext(const char *s, size_t len, size_t max);
/* Hands the allocation to the caller (never NULL: "" when empty). */
char *aa_buf_detach(aa_buf *b);

/* Small allocation helpers: NULL only on out-of-memory. */
char *aa_strndup(const char *s, size_t n);
char *aa_strdup(const char *s);

/*
 * Where something came from: input name (a file name or "<stdin>"), and
 * the 1-based line in it (0 = unknown). The name is not owned.
 */
typedef struct aa_pos {
	const char *input;
	long line;
} aa_pos;

typedef enum aa_diag_level {
	AA_DIAG_ERROR,
	AA_DIAG_WARNING,
	AA_DIAG_NOTE
} aa_diag_level;

typedef struct aa_diag {
	aa_diag_level level;
	char *path;   /* the repository path concerned, or NULL */
	char *input;  /* input name, or NULL */
	long line;    /* input line, 0 = none */
	char *msg;    /* the reason; may span several lines (details) */
} aa_diag;

typedef struct aa_diags {
	aa_diag *v;
	size_t n, cap;
	size_t nerrors;
} aa_diags;

#define AA_DIAGS_INIT { NULL, 0, 0, 0 }

/*
 * Records a diagnostic. aa_error() always returns -1 so a failing path
 * can say `return aa_error(d, pos, path, "...")`.
 */
int aa_error(aa_diags *d, aa_pos pos, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void aa_warn(aa_diags *d, aa_pos pos, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void aa_note(aa_diags *d, aa_pos pos, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* "out of memory" at pos: the one message for it. Returns -1. */
int aa_oom(aa_diags *d, aa_pos pos, const char *path);
/*
 * An error whose message was built in `msg`: "out of memory" instead
 * when building it ran out (aa_buf_oom). Returns -1.
 */
int aa_error_buf(aa_diags *d, aa_pos pos, const char *path, const aa_buf *msg);
void aa_diag_addv(aa_diags *d, aa_diag_level level, aa_pos pos,
		  const char *path, const char *fmt, va_list ap);
/* "error: <path>: <input>:<line>: <msg>" */
int aa_diag_format(const aa_diag *dg, aa_buf *out);
void aa_diags_free(aa_diags *d);

#endif
