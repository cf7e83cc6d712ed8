/*
 * The on-disk index read in O(touched) (Documentation/landing.md, "Index
 * access in O(touched)"): the file is mapped, walked once to keep where
 * every 32nd entry starts (v2/v3 read in place, without allocation; v4
 * with the full path before it, the prefix compression's restart
 * points), and a path is found by binary search over those restart
 * points and at most 32 steps. The
 * SHA-1 trailer is not checked, as git does not on read.
 *
 * Entries come out as libgit2's git_index_entry so that the readers of an
 * index (the snapshot, the sparse check) take either.
 */
#ifndef AA_LAND_INDEX_READ_H
#define AA_LAND_INDEX_READ_H

#include <stddef.h>
#include <git2.h>

typedef struct aa_ixread aa_ixread;

/*
 * Maps the index at `path` (a missing file is an empty index). 0, or -1
 * with the reason in why[] (for "unsupported mandatory extension: 'x'"
 * libgit2's own words, which aa_unsupported_explain explains).
 */
int aa_ixread_open(aa_ixread **out, const char *path, char *why, size_t whylen);
void aa_ixread_close(aa_ixread *r);

size_t aa_ixread_count(const aa_ixread *r);
unsigned aa_ixread_version(const aa_ixread *r);
/* An entry of stage 1-3 exists. */
int aa_ixread_has_conflicts(const aa_ixread *r);
/* For the writer (index_write.c): the mapped file, where its entries end,
 * how many entries have extended flags, the file's mtime when opened. */
const unsigned char *aa_ixread_bytes(const aa_ixread *r, size_t *size);
size_t aa_ixread_entries_end(const aa_ixread *r);
size_t aa_ixread_extended(const aa_ixread *r);
void aa_ixread_mtime(const aa_ixread *r, long long *sec, long *nsec);
/* The trailer (the index's checksum, git_index_checksum's); zero when empty. */
const git_oid *aa_ixread_checksum(const aa_ixread *r);

/*
 * The entry of `path` at `stage`: 1 found (out->path lives as long as
 * the reader), 0 none.
 */
int aa_ixread_get(aa_ixread *r, const char *path, int stage,
		  git_index_entry *out);

/* Walks the entries in order from the first whose path is >= a prefix. */
typedef struct aa_ixiter {
	aa_ixread *r;
	size_t pos;      /* the next entry's number */
	size_t off;      /* ... and its offset in the file */
	char *path;      /* v4: the previous entry's path */
	size_t len, cap;
	int pending;     /* cur is the next entry (after a seek) */
	git_index_entry cur;
} aa_ixiter;

/* `prefix` NULL or "": from the first entry. -1 out of memory. */
int aa_ixiter_start(aa_ixiter *it, aa_ixread *r, const char *prefix);
/*
 * 1 with the next entry in *out (out->path valid until the next call),
 * 0 at the end.
 */
int aa_ixiter_next(aa_ixiter *it, git_index_entry *out);
void aa_ixiter_free(aa_ixiter *it);

/*
 * The session's index, whichever holds it: libgit2's (default mode,
 * --cached) or the reader (--check). aa_index_get: 1 with the entry of
 * `path` at `stage`, 0 none. aa_index_present: the base is an index.
 */
struct aa_session;
int aa_index_get(const struct aa_session *s, const char *path, int stage,
		 git_index_entry *out);
int aa_index_present(const struct aa_session *s);
/*
 * --check reads .gitattributes from the index through libgit2, which
 * would load the whole index for it: the repository is given an
 * in-memory index instead (base->attr_index), into which this copies the
 * .gitattributes of each directory of `path` before its attributes are
 * asked. 0, or -1 (libgit2's error).
 */
int aa_index_attrs_for(struct aa_session *s, const char *path);

#endif
