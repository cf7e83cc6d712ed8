/*
 * The small helpers every stage uses, in one place (as git's
 * git-compat-util.h and libgit2's src/util): array growth, character
 * classes and trimming, writing a whole buffer, a JSON token scanner,
 * libgit2's last error, and the "no position" and fatal-error
 * shorthands of the diagnostics. See Documentation/architecture.md,
 * "The util layer".
 */
#ifndef AIAPPLY_UTIL_H
#define AIAPPLY_UTIL_H

#include <stddef.h>
#include <string.h>

#include "aiapply/common.h"

/* ---- diagnostics ---- */

/* No input position: a message about the repository, not the answer. */
#define AA_NOPOS ((aa_pos){ NULL, 0 })

/*
 * An error of the environment (an I/O error, a held lock): records the
 * message as aa_error() does and returns AA_FATAL, so a failing path
 * says `return aa_fatal(d, AA_NOPOS, path, "...")`.
 */
int aa_fatal(aa_diags *d, aa_pos pos, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* "out of memory" (aa_oom) as a fatal error: returns AA_FATAL. */
int aa_fatal_oom(aa_diags *d, aa_pos pos, const char *path);

/*
 * libgit2's reason for its last failure: its message when it set one
 * (not empty), else `fallback` (which may be NULL).
 */
const char *aa_git_error(const char *fallback);
/* "<what>: <libgit2's reason or 'unknown error'>", no position: AA_FATAL. */
int aa_git_fail(aa_diags *d, const char *what);

/* ---- growing arrays ---- */

/*
 * Makes the array *arrayp (the address of a pointer to items of `size`
 * bytes) hold at least `need` items, doubling *cap; the first
 * allocation is `need` items (a count known in advance), at least 8.
 * 0, or -1 when out of memory or on overflow, with the array and *cap
 * unchanged.
 */
int aa_array_grow(void *arrayp, size_t *cap, size_t need, size_t size);
/* Room for one more item: v has n items and cap slots. */
#define AA_GROW(v, n, cap) \
	((n) < (cap) ? 0 : aa_array_grow(&(v), &(cap), (n) + 1, sizeof(*(v))))

/* ---- character classes ---- */

/* ' ' and '\t': C's isblank(), the blanks of git and of JSON. */
static inline int aa_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* ' ', '\t' and '\r': the blanks of a line that may end in CRLF. */
static inline int aa_is_blank_cr(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* C's isspace() but for '\n': every blank a single line can hold. */
static inline int aa_is_hspace(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* ' ', '\t', '\n' and '\r': JSON's white space, and git's. */
static inline int aa_is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* ASCII lower case; other bytes as they are. */
static inline char aa_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* The length of the blanks (aa_is_blank) that start s[0..len). */
static inline size_t aa_indent_of(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && aa_is_blank(s[i]))
		i++;
	return i;
}

/* One of the classes above. */
typedef int aa_char_class(char c);

/* The first i' >= i in s[0..len) that is not in the class (len if none). */
static inline size_t aa_skip(const char *s, size_t len, size_t i,
			     aa_char_class *in)
{
	while (i < len && in(s[i]))
		i++;
	return i;
}

/* The length of s[0..len) without the class's bytes at its end. */
static inline size_t aa_rtrim(const char *s, size_t len, aa_char_class *in)
{
	while (len && in(s[len - 1]))
		len--;
	return len;
}

/* Drops the class's bytes at both ends of s[*a, *z). */
static inline void aa_trim(const char *s, size_t *a, size_t *z,
			   aa_char_class *in)
{
	*a = aa_skip(s, *z, *a, in);
	*z = *a + aa_rtrim(s + *a, *z - *a, in);
}

/* s[0..len) starts with the string prefix. */
static inline int aa_starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

/*
 * ASCII case-insensitive: s[0..len) starts with / holds `prefix` /
 * `needle`, which are given in lower case.
 */
int aa_ci_starts_with(const char *s, size_t len, const char *prefix);
int aa_ci_contains(const char *s, size_t len, const char *needle);

/* ---- files ---- */

/*
 * Reads fd to its end into out, again after EINTR. 0, or -1 (errno;
 * ENOMEM when out ran out of memory).
 */
int aa_read_all(int fd, aa_buf *out);
/* Writes all of p[0..len) to fd, again after EINTR. 0, or -1 (errno). */
int aa_write_all(int fd, const void *p, size_t len);
/*
 * How a file or directory is made durable (git's core.fsyncMethod; which
 * files, and how, is src/land/fsync.h's to say): not at all, written out
 * to the disk without flushing its cache (sync_file_range(2), git's
 * "writeout-only"; where there is none, or it fails, fsync), or fsync(2).
 */
typedef enum aa_sync {
	AA_SYNC_NONE = 0,
	AA_SYNC_FULL = 1,
	AA_SYNC_WRITEOUT = 2
} aa_sync;

/* fd made durable as `how` says (again after EINTR). 0 or -1 (errno). */
int aa_sync_fd(int fd, aa_sync how);
/*
 * The directory `dir` made durable as `how` says, so that the entries
 * renamed or created in it are on disk (the one way every writer here
 * makes a rename durable). 0 or -1 (errno set).
 */
int aa_sync_dir(const char *dir, aa_sync how);
/* The same for the directory holding `path`. */
int aa_sync_dir_of(const char *path, aa_sync how);
/* aa_sync_dir(dir, AA_SYNC_FULL), aa_sync_dir_of(path, AA_SYNC_FULL). */
int aa_fsync_dir(const char *dir);
int aa_fsync_dir_of(const char *path);
/*
 * Ends writing a file whole under a temporary name: data[0..len) to fd
 * (open on tmp), made durable as `how` says, closed, tmp renamed to path,
 * and path's directory made durable the same way. On failure (and when
 * fd < 0, an open that failed) fd is closed and tmp removed, errno kept:
 * -1.
 */
int aa_replace_file(int fd, const char *tmp, const void *data, size_t len,
		    const char *path, aa_sync how);

/* ---- JSON tokens (for recognising a document, not parsing it) ---- */

/* The first offset >= i in s[0..n) that is not JSON white space. */
static inline size_t aa_json_skip_ws(const char *s, size_t n, size_t i)
{
	return aa_skip(s, n, i, aa_is_ws);
}

/* Past the JSON string starting at s[i] == '"'; n when unterminated. */
size_t aa_json_string_end(const char *s, size_t n, size_t i);

/* ---- binary patch data (base85.c) ---- */

/*
 * git's base85: decodes `len` bytes into out from in[0..inlen), five
 * characters for each four bytes (the last group gives fewer). 0, or
 * -1 when in is too short or holds a character or group that is not
 * base85.
 */
int aa_base85_decode(unsigned char *out, size_t len, const char *in,
		     size_t inlen);
/*
 * zlib: inflates in[0..inlen) into a new buffer *out (the caller frees)
 * of exactly outlen bytes: 0, or -1 with *why saying what was wrong
 * (not deflate, shorter or longer than outlen, cut short).
 */
int aa_inflate_exact(const unsigned char *in, size_t inlen, size_t outlen,
		     unsigned char **out, const char **why);

#endif
