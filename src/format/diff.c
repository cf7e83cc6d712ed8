/*
 * The diff format: git diffs and plain unified diffs, found anywhere in
 * a block (prose, code fences, many files), parsed into operations.
 * With --strict the block must be exactly one seed-004 unified diff.
 *
 * Lines and hunks are read by diff_hunk.c; this file handles the file
 * headers, the names, the operations and the strict contract.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aiapply/common.h"
#include "change/changeset.h"
#include "format/format.h"
#include "change/path.h"
#include "format/diff_int.h"
#include "format/lines.h"
#include "util/util.h"


/* A file name from the diff: any bytes (a quoted name may hold NUL). */
typedef struct dname {
	char *s;
	size_t len;
} dname;

typedef enum fkind { F_EDIT, F_CREATE, F_DELETE, F_RENAME, F_COPY } fkind;

/* One file's diff while it is read. */
typedef struct fdiff {
	aa_pos pos;               /* its first header line */
	dname git_old, git_new;   /* from "diff --git" (prefixes stripped) */
	dname old_name, new_name; /* from "---" / "+++" (prefixes stripped) */
	int have_names, old_null, new_null;
	int old_epoch, new_epoch; /* that side is dated at the epoch (diff -N) */
	dname pfx_old, pfx_new;   /* "i/", "w/": the git line's own prefixes */
	int git;                  /* started with "diff --git" */
	int whole;                /* -p<n>: the git line's names kept whole */
	dname from, to;           /* rename/copy from/to */
	int rename, copy, new_file, deleted;
	uint32_t old_mode, new_mode, file_mode;
	char old_blob[41];        /* "index <old>..<new>": <old>, or "" */
	int has_similarity;       /* "similarity index N%" was read: N */
	unsigned similarity;
	char idx_old[41], idx_new[41]; /* both ids as written ("" if none) */
	int full_index;           /* both are full ids (a binary patch needs it) */
	/*
	 * A binary change: BIN_PATCH ("GIT binary patch", its hunks in
	 * bin) or BIN_DIFFER ("Binary files ... differ": no data), read at
	 * the line binary_pos.
	 */
	enum { BIN_NONE, BIN_PATCH, BIN_DIFFER } binary;
	aa_pos binary_pos;
	aa_binhunk bin[2];
	size_t nbin;
	/* resolved */
	fkind kind;
	dname path, dest;
	dname other;              /* a plain diff's other name (edit_name) */
	aa_op c;                  /* holds the hunks until they move to an op */
} fdiff;

typedef struct run {
	aa_dparser P;
	int nfiles;
	int have_pending;         /* --strict: the one file, kept for the end */
	fdiff pending;
	/*
	 * Offset -> input line, for what is found by offset (a NUL, the
	 * end); the cursor (diff_hunk.c) carries its line along instead.
	 */
	aa_linemap lines;
} run;

/* ---- names ---------------------------------------------------------- */

static void dname_free(dname *n)
{
	free(n->s);
	n->s = NULL;
	n->len = 0;
}

static int dname_set(dname *n, const char *s, size_t len)
{
	char *c = aa_strndup(s, len);

	if (!c)
		return -1;
	free(n->s);
	n->s = c;
	n->len = len;
	return 0;
}

static int dname_eq(const dname *a, const char *s, size_t len)
{
	return a->len == len && (!len || !memcmp(a->s, s, len));
}

/* Drops a prefix ("a/", "b/", "./", "i/"): 1 when it was there. */
static int strip_prefix(dname *n, const char *prefix)
{
	size_t k = strlen(prefix);

	if (n->len > k && !memcmp(n->s, prefix, k)) {
		memmove(n->s, n->s + k, n->len - k + 1);
		n->len -= k;
		return 1;
	}
	return 0;
}

/* The length of "X/" when n starts with a component X, else 0. */
static size_t top_len(const dname *n)
{
	const char *sl = n->len ? memchr(n->s, '/', n->len) : NULL;
	size_t k = sl ? (size_t)(sl - n->s) : 0;

	if (!k || memchr(n->s, 0, k) || (k == 1 && n->s[0] == '.') ||
	    (k == 2 && !memcmp(n->s, "..", 2)))
		return 0;
	return k + 1;
}

/*
 * Names "X/rest" and "Y/rest" with X != Y: the first components are
 * the two sides' prefixes, as git's -p1 drops any first component
 * (diff.mnemonicPrefix's "i/" "w/", "diff -ru linux-vanilla linux").
 * Drops them and keeps them in px / py (when not NULL). 1 when it did.
 */
static int strip_differing_tops(dname *x, dname *y, dname *px, dname *py)
{
	size_t kx = top_len(x), ky = top_len(y);

	if (!kx || !ky || x->len - kx != y->len - ky || x->len == kx ||
	    (kx == ky && !memcmp(x->s, y->s, kx)) ||
	    memcmp(x->s + kx, y->s + ky, x->len - kx))
		return 0;
	if (px && (dname_set(px, x->s, kx) < 0 || dname_set(py, y->s, ky) < 0))
		return -1;
	memmove(x->s, x->s + kx, x->len - kx + 1);
	x->len -= kx;
	memmove(y->s, y->s + ky, y->len - ky + 1);
	y->len -= ky;
	return 1;
}

/*
 * -p<n>: drops n leading components, each up to a '/' (a run of
 * slashes is one separator), as git apply's -p<n>. -1 when the name
 * has fewer than n slashes.
 */
static int strip_components(dname *x, int n)
{
	size_t i = 0;

	for (; n > 0; n--) {
		const char *sl = i < x->len ? memchr(x->s + i, '/', x->len - i) : NULL;

		if (!sl)
			return -1;
		for (i = (size_t)(sl - x->s); i < x->len && x->s[i] == '/'; i++)
			;
	}
	memmove(x->s, x->s + i, x->len - i + 1);
	x->len -= i;
	return 0;
}

/*
 * A diagnostic whose path is a name from the diff: the diag quotes it
 * (aa_diag_format). A name holding NUL is no C string: it is quoted
 * into the message instead.
 */
static int name_diag(aa_dparser *P, aa_diag_level lv, aa_pos pos,
		     const char *s, size_t len, const char *msg)
{
	char *raw = s && !memchr(s, 0, len) ? aa_strndup(s, len) : NULL;

	if (lv == AA_DIAG_WARNING)
		aa_warn(P->d, pos, raw, "%s%s%s", raw || !s ? "" : aa_qpathn(s, len),
			raw || !s ? "" : ": ", msg);
	else
		aa_error(P->d, pos, raw, "%s%s%s", raw || !s ? "" : aa_qpathn(s, len),
			 raw || !s ? "" : ": ", msg);
	free(raw);
	return -1;
}

/* strip_components for -p<n>, naming line l when the name is too short. */
static int strip_at(aa_dparser *P, const aa_dline *l, dname *x, int n)
{
	char msg[192];

	if (strip_components(x, n) == 0)
		return 0;
	/* git's words ("removing N leading pathname components") in ours */
	snprintf(msg, sizeof(msg), "the name has too few components for -p%d%s: "
		 "removing %d leading pathname component%s leaves no name",
		 P->o->strip, n == P->o->strip ? "" :
		 " (a rename or copy line loses one less, as in git)",
		 n, n == 1 ? "" : "s");
	return name_diag(P, AA_DIAG_ERROR, aa_diff_pos(P, l->lineno), x->s,
			 x->len, msg);
}

static int octal_escape(const char *s, size_t len, size_t *i, aa_buf *out)
{
	unsigned v = (unsigned)(s[*i - 1] - '0');
	int k;

	for (k = 0; k < 2 && *i < len && s[*i] >= '0' && s[*i] <= '7'; k++)
		v = v * 8 + (unsigned)(s[(*i)++] - '0');
	if (v > 255)
		return -1;
	return aa_buf_putc(out, (char)v);
}

/*
 * Decodes the C-style quoted name at s[0] == '"' (git's quoting: \a \b
 * \f \n \r \t \v \" \\ and octal \ooo). *used = bytes up to and with
 * the closing quote. 0, or -1 when malformed or out of memory.
 */
static int unquote(const char *s, size_t len, size_t *used, aa_buf *out)
{
	static const char from[] = "abfnrtv\"\\", to[] = "\a\b\f\n\r\t\v\"\\";
	size_t i = 1;

	while (i < len) {
		char c = s[i++];
		const char *e;

		if (c == '"') {
			*used = i;
			return 0;
		}
		if (c != '\\') {
			if (aa_buf_putc(out, c) < 0)
				return -1;
			continue;
		}
		if (i >= len)
			return -1;
		c = s[i++];
		if (c >= '0' && c <= '7') {
			if (octal_escape(s, len, &i, out) < 0)
				return -1;
		} else if (c && (e = strchr(from, c))) {
			if (aa_buf_putc(out, to[e - from]) < 0)
				return -1;
		} else {
			return -1;
		}
	}
	return -1;
}

static int is_blank_line(const aa_dline *l)
{
	size_t i;

	for (i = 0; i < l->len; i++)
		if (l->s[i] != ' ' && l->s[i] != '\t')
			return 0;
	return 1;
}

/* ---- --strict path classes (Documentation/format-diff.md) -------- */

static int has_dotdot(const char *s, size_t len)
{
	size_t i = 0, start;

	while (i <= len) {
		start = i;
		while (i < len && s[i] != '/' && s[i] != '\\')
			i++;
		if (i - start == 2 && s[start] == '.' && s[start + 1] == '.')
			return 1;
		i++;
	}
	return 0;
}

/* The seed's words for an absolute, network or traversing path, or NULL. */
static const char *strict_path_reason(const char *s, size_t len)
{
	if (!len)
		return NULL;
	if (s[0] == '/' || s[0] == '\\' ||
	    (s[0] == '~' && (len == 1 || s[1] == '/')) ||
	    (len >= 2 && s[1] == ':' &&
	     ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'))))
		return "Path outside project root";
	if (has_dotdot(s, len))
		return "Path traversal detected";
	return NULL;
}

static int path_error(aa_dparser *P, aa_pos pos, const char *s, size_t len,
		      const char *fmt, const char *why)
{
	aa_buf m = AA_BUF_INIT;

	aa_buf_printf(&m, fmt, why);
	name_diag(P, AA_DIAG_ERROR, pos, s, len,
		  !aa_buf_oom(&m) && m.ptr ? m.ptr : "invalid path");
	aa_buf_free(&m);
	return -1;
}

/*
 * An absolute name ("--- /home/u/repo/x.c"): the planner takes it
 * relative to the work tree or refuses it, as in every format.
 */
static int absolute_ok(const dname *n)
{
	const char *s, *why;
	size_t len;

	return n->len > 1 && n->s[0] == '/' &&
	       aa_path_answer(n->s, n->len, &s, &len, &why) == 0;
}

static int check_path(aa_dparser *P, aa_pos pos, const dname *n)
{
	const char *why;

	if (P->o->strict && (why = strict_path_reason(n->s, n->len)))
		return path_error(P, pos, n->s, n->len, "%s", why);
	if (aa_path_check(n->s, n->len, &why) < 0 &&
	    !(!P->o->strict && absolute_ok(n)))
		return path_error(P, pos, n->s, n->len,
				  P->o->strict ? "Path rejected: %s"
					       : "invalid path: %s", why);
	return 0;
}

/* ---- "---" / "+++" lines -------------------------------------------- */

/* --strict: "--- a/<p>"; an absolute or traversing name says so first. */
static int strict_prefix_error(aa_dparser *P, const aa_dline *l,
			       const char *s, size_t len, const char *prefix)
{
	aa_pos pos = aa_diff_pos(P, l->lineno);
	const char *why = strict_path_reason(s, len);

	if (why)
		return path_error(P, pos, s, len, "%s", why);
	return aa_error(P->d, pos, NULL,
			INVALID "header must be '%.3s %s<path>' or '%.3s /dev/null'",
			l->s, prefix, l->s);
}

/* Quoted: the name, then maybe a timestamp (*epoch as above). */
static int quoted_header_name(aa_dparser *P, const aa_dline *l,
			      const char *s, size_t len, aa_buf *out, int *epoch)
{
	size_t used = 0, sep = 0, stamp;

	if (unquote(s, len, &used, out) < 0)
		return aa_error(P->d, aa_diff_pos(P, l->lineno), NULL,
				"malformed quoted file name");
	if (P->o->strict && used < len)
		return aa_error(P->d, aa_diff_pos(P, l->lineno), NULL,
				INVALID "text after the file name");
	stamp = aa_diff_stamp_len(s + used, len - used, &sep);
	if (stamp && stamp == len - used)
		*epoch = aa_diff_stamp_is_epoch(s + used + sep, stamp - sep);
	return 0;
}

/*
 * Unquoted: up to the timestamp (TABs before it are the name's), after
 * a TAB or a run of spaces as git's find_name_traditional reads it
 * (diff_stamp.c), or else up to a TAB; trailing blanks dropped. *epoch: the stamp is the epoch.
 */
static int plain_header_name(aa_dparser *P, const aa_dline *l,
			     const char *s, size_t len, aa_buf *out, int *epoch)
{
	size_t sep = 0, stamp = aa_diff_stamp_len(s, len, &sep);
	const char *tab;

	if (P->o->strict && (stamp || memchr(s, '\t', len)))
		return aa_error(P->d, aa_diff_pos(P, l->lineno), NULL,
				INVALID "timestamps are not allowed in file headers");
	if (stamp) {
		*epoch = aa_diff_stamp_is_epoch(s + len - stamp + sep, stamp - sep);
		len -= stamp;
	}
	/* with a stamp the name is all before it, TABs too (git's
	 * find_name_traditional); without one it ends at the first TAB */
	tab = stamp ? NULL : memchr(s, '\t', len);
	if (tab)
		len = (size_t)(tab - s);
	while (!P->o->strict && len && s[len - 1] == ' ')
		len--;
	if (aa_buf_put(out, s, len) < 0)
		return aa_error(P->d, aa_diff_pos(P, l->lineno), NULL,
				"out of memory");
	return 0;
}

/*
 * git's is_dev_null: "/dev/null" then a blank or the end of the line,
 * whatever follows ("+++ /dev/null (nonexistent)", Subversion's
 * pasted with spaces). 1 when so, -1 when "/dev/null" runs straight
 * into more text ("/dev/null+++ b/x", two header lines run together),
 * which git reads as a file name, else 0.
 */
static int dev_null_side(const char *s, size_t len)
{
	if (len < 9 || memcmp(s, "/dev/null", 9))
		return 0;
	if (len == 9 || aa_is_blank(s[9]))
		return 1;
	return -1;
}

static int dev_null_run_on(aa_dparser *P, const aa_dline *l)
{
	return aa_error(P->d, aa_diff_pos(P, l->lineno), NULL,
			"'%.3s' names %s: /dev/null runs into other text, "
			"which git apply reads as a file name (two header "
			"lines run together?); write /dev/null alone or the "
			"file's name", l->s, aa_qtext(l->s + 4, l->len - 4, 80));
}

/*
 * A quoted name with fewer components than -p<n> strips (git's
 * find_name_gnu gives up on `"a/"sub/file1` under -p2): git reads the
 * line again as an unquoted name, quotes and all (find_name_common).
 */
static int quoted_too_short(const aa_dparser *P, const aa_buf *b)
{
	dname tmp = { NULL, 0 };
	int r;

	if (!P->o->strip_given || !P->o->strip || !b->ptr)
		return 0;
	if (dname_set(&tmp, b->ptr, b->len) < 0)
		return 0;
	r = strip_components(&tmp, P->o->strip) < 0;
	dname_free(&tmp);
	return r;
}

/*
 * "--- NAME[\tTIME]" or "+++ ...": sets *name (prefix stripped) or
 * *null, and *epoch when TIME is the epoch.
 */
static int header_name(aa_dparser *P, const aa_dline *l, const char *prefix,
		       dname *name, int *null, int *epoch, int *stripped)
{
	const char *s = l->s + 4;
	size_t len = l->len - 4;
	aa_buf b = AA_BUF_INIT;
	int quoted = len && s[0] == '"';
	int dev_null = P->o->strict ? 0 : dev_null_side(s, len);
	int r;

	if (dev_null < 0)
		return dev_null_run_on(P, l);
	if (dev_null) {
		*null = 1;
		return 0;
	}
	r = quoted ? quoted_header_name(P, l, s, len, &b, epoch)
		   : plain_header_name(P, l, s, len, &b, epoch);
	if (!r && quoted && !P->o->strict && quoted_too_short(P, &b)) {
		aa_buf_clear(&b);
		quoted = 0;
		r = plain_header_name(P, l, s, len, &b, epoch);
	}
	if (!r && !quoted && b.len == 9 && !memcmp(b.ptr, "/dev/null", 9)) {
		*null = 1;
	} else if (!r) {
		if (P->o->strict && (b.len <= 2 || memcmp(b.ptr, prefix, 2)))
			r = strict_prefix_error(P, l, b.ptr ? b.ptr : "", b.len,
						prefix);
		else if (dname_set(name, b.ptr ? b.ptr : "", b.len) < 0)
			r = aa_error(P->d, aa_diff_pos(P, l->lineno), NULL,
				     "out of memory");
		else if (P->o->strip_given)
			r = strip_at(P, l, name, P->o->strip);
		else if ((*stripped = strip_prefix(name, prefix)) == 0)
			/* "--- ./x" (diff -u of relative names): git apply's -p1 */
			*stripped = strip_prefix(name, "./");
	}
	aa_buf_free(&b);
	return r;
}

static int strict_names(aa_dparser *P, const fdiff *f, const aa_dline *l)
{
	aa_pos pos = aa_diff_pos(P, l->lineno);

	if (f->old_null && f->new_null)
		return aa_error(P->d, pos, NULL,
				INVALID "both sides are /dev/null");
	if (!f->old_null && !f->new_null &&
	    !dname_eq(&f->old_name, f->new_name.s, f->new_name.len))
		return aa_error(P->d, pos, NULL,
				INVALID "old and new paths differ "
				"(file rename is not supported)");
	return 0;
}

/* ---- the names of a git diff agree (git's gitdiff_verify_name) ---- */

/*
 * The name the other header lines give one side of a git diff, which
 * its "---" or "+++" line must repeat: "rename/copy from/to", else the
 * "diff --git" line's name when both its halves name the same file
 * (git's def_name). NULL when they give none. *from says which line.
 */
static const dname *git_known_name(const fdiff *f, int new_side,
				   const char **from)
{
	const dname *n = NULL;

	if (f->rename || f->copy) {
		n = new_side ? &f->to : &f->from;
		*from = f->rename ? (new_side ? "rename to" : "rename from")
				  : (new_side ? "copy to" : "copy from");
	} else if (f->git_old.len &&
		   dname_eq(&f->git_old, f->git_new.s, f->git_new.len)) {
		n = &f->git_old;
		*from = "diff --git";
	}
	return n && n->len ? n : NULL;
}

/*
 * "inconsistent new filename": the line names `got` (NULL: /dev/null)
 * where the `from` line named `known` (NULL: where it said the file
 * is there).
 */
static int inconsistent_name(aa_dparser *P, const aa_dline *l, int new_side,
			     const dname *got, const dname *known,
			     const char *from)
{
	const char *which = new_side ? "new" : "old", *hdr = new_side ? "+++" : "---";
	aa_buf m = AA_BUF_INIT;

	if (got)
		aa_buf_printf(&m, "inconsistent %s filename: the '%s' line names "
			      "%s, the '%s' line %s", which, hdr,
			      aa_qpathn(got->s, got->len), from,
			      aa_qpathn(known->s, known->len));
	else
		aa_buf_printf(&m, "inconsistent %s filename: the '%s' line says "
			      "/dev/null, but the diff has a '%s' line", which,
			      hdr, from);
	name_diag(P, AA_DIAG_ERROR, aa_diff_pos(P, l->lineno), NULL, 0,
		  !aa_buf_oom(&m) && m.ptr ? m.ptr : "inconsistent filename");
	aa_buf_free(&m);
	return -1;
}

/* The header line that says a side of a git diff is there (see below). */
static const char *exists_because(const fdiff *f, int new_side)
{
	if (f->rename)
		return new_side ? "rename to" : "rename from";
	if (f->copy)
		return new_side ? "copy to" : "copy from";
	return new_side ? "new file mode" : "deleted file mode";
}

/*
 * One side's "---" or "+++" line against the git headers before it: a
 * side the diff creates or deletes is /dev/null; a side the headers
 * name carries that name (a file deleted, renamed or copied is never
 * /dev/null on its old side, a created one on its new side).
 */
static int verify_git_side(aa_dparser *P, const fdiff *f, const aa_dline *l,
			   int new_side)
{
	int absent = new_side ? f->deleted : f->new_file;
	int exists = f->rename || f->copy || (new_side ? f->new_file : f->deleted);
	int null = new_side ? f->new_null : f->old_null;
	const dname *got = new_side ? &f->new_name : &f->old_name;
	const char *from = "diff --git";
	const dname *known = git_known_name(f, new_side, &from);

	if (absent && !null)
		return name_diag(P, AA_DIAG_ERROR, aa_diff_pos(P, l->lineno),
				 got->s, got->len, new_side
				 ? "expected /dev/null on the '+++' line: the diff "
				   "deletes the file ('deleted file mode')"
				 : "expected /dev/null on the '---' line: the diff "
				   "creates the file ('new file mode')");
	if (null && exists && !absent)
		return inconsistent_name(P, l, new_side, NULL, NULL,
					 exists_because(f, new_side));
	if (!null && known && !dname_eq(known, got->s, got->len))
		return inconsistent_name(P, l, new_side, got, known, from);
	return 0;
}

/*
 * A traditional diff: GNU diff -N dates the absent side at the epoch
 * (git's has_epoch_timestamp); /dev/null on either side comes first.
 */
static void epoch_means_absent(fdiff *f)
{
	if (f->old_null || f->new_null)
		return;
	if (f->old_epoch)
		f->old_null = 1;
	else if (f->new_epoch)
		f->new_null = 1;
}

/* The current line is "--- ": reads it and the "+++ " line after it. */
static int read_names(aa_dparser *P, fdiff *f)
{
	/* the git line's own prefixes; a rename's names are whole paths */
	int own = f->pfx_old.len && !f->rename && !f->copy;
	const char *po = own ? f->pfx_old.s : "a/";
	const char *pn = own ? f->pfx_new.s : "b/";
	int so = 0, sn = 0;
	aa_dline l1, l2;

	aa_diff_peek(P, 0, &l1);
	if (!aa_diff_peek(P, 1, &l2) || !aa_diff_starts(&l2, "+++ "))
		return aa_error(P->d, aa_diff_pos(P, l1.lineno), NULL, "%s%s",
				P->o->strict ? INVALID : f->git ? LACKS_NAME : "",
				"'--- ' header without '+++ ' header");
	if (aa_diff_take(P, &l1) < 0 || aa_diff_take(P, &l2) < 0 ||
	    header_name(P, &l1, po, &f->old_name, &f->old_null,
			&f->old_epoch, &so) < 0 ||
	    header_name(P, &l2, pn, &f->new_name, &f->new_null,
			&f->new_epoch, &sn) < 0)
		return -1;
	f->have_names = 1;
	if (!f->git && !so && !sn && !f->old_null && !f->new_null &&
	    !P->o->strict && !P->o->strip_given)
		strip_differing_tops(&f->old_name, &f->new_name, NULL, NULL);
	/* (for one file named by its block the names are not used) */
	if (f->git && !P->only_path)
		return verify_git_side(P, f, &l1, 0) < 0 ||
		       verify_git_side(P, f, &l2, 1) < 0 ? -1 : 0;
	epoch_means_absent(f);
	return P->o->strict ? strict_names(P, f, &l1) : 0;
}

/* ---- "diff --git" line and extended headers ------------------------ */

static int set_git_names(fdiff *f, const char *a, size_t alen,
			 const char *b, size_t blen)
{
	if (dname_set(&f->git_old, a, alen) < 0 ||
	    dname_set(&f->git_new, b, blen) < 0)
		return -1;
	if (f->whole)
		return 0;
	if (strip_prefix(&f->git_old, "a/") + strip_prefix(&f->git_new, "b/"))
		return 0;
	return strip_differing_tops(&f->git_old, &f->git_new, &f->pfx_old,
				    &f->pfx_new) < 0 ? -1 : 0;
}

/*
 * "a/x b/x" with no quotes: split in the middle when both halves name
 * the same file (names may hold spaces), else at " b/", else at the only
 * space. The names stay empty when it cannot tell.
 */
static int split_unquoted(fdiff *f, const char *s, size_t len)
{
	size_t half = len / 2, i;
	const char *sp;

	if (len % 2 == 1 && s[half] == ' ') {
		const char *a = s, *b = s + half + 1;
		size_t n = half;

		if (n > 2 && !memcmp(a, "a/", 2) && !memcmp(b, "b/", 2))
			a += 2, b += 2, n -= 2;
		if (!memcmp(a, b, n))
			return set_git_names(f, s, half, s + half + 1, half);
	}
	for (i = 1; i + 3 <= len; i++)
		if (!memcmp(s + i, " b/", 3))
			return set_git_names(f, s, i, s + i + 1, len - i - 1);
	sp = memchr(s, ' ', len);
	if (sp && !memchr(sp + 1, ' ', len - (size_t)(sp - s) - 1))
		return set_git_names(f, s, (size_t)(sp - s), sp + 1,
				     len - (size_t)(sp - s) - 1);
	return 0;
}

/* The first ' "' (a quoted second name after an unquoted first), or NULL. */
static const char *find_space_quote(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i++)
		if (s[i] == ' ' && s[i + 1] == '"')
			return s + i;
	return NULL;
}

/* One side of "diff --git": quoted, or the rest of the line. */
static int git_side(const char *s, size_t len, size_t *used, aa_buf *out)
{
	if (len && s[0] == '"')
		return unquote(s, len, used, out);
	*used = len;
	return aa_buf_put(out, s, len);
}

static int parse_git_line(fdiff *f, const aa_dline *l)
{
	const char *s = l->s + 11; /* "diff --git " */
	size_t len = l->len - 11, used = 0, u2 = 0;
	aa_buf a = AA_BUF_INIT, b = AA_BUF_INIT;
	const char *q;
	int r = 0;

	if (len && s[0] == '"') {
		if (!unquote(s, len, &used, &a) && used < len && s[used] == ' ' &&
		    !git_side(s + used + 1, len - used - 1, &u2, &b))
			r = set_git_names(f, a.ptr, a.len, b.ptr ? b.ptr : "", b.len);
	} else if ((q = find_space_quote(s, len)) != NULL) {
		if (!git_side(q + 1, len - (size_t)(q + 1 - s), &u2, &b))
			r = set_git_names(f, s, (size_t)(q - s), b.ptr ? b.ptr : "",
					  b.len);
	} else {
		r = split_unquoted(f, s, len);
	}
	aa_buf_free(&a);
	aa_buf_free(&b);
	return r;
}

static int parse_mode(aa_dparser *P, const aa_dline *l, size_t skip,
		      uint32_t *mode)
{
	const char *s = l->s + skip, *end = l->s + l->len;
	uint32_t v = 0;
	int n = 0;

	end = s + aa_rtrim(s, (size_t)(end - s), aa_is_blank);
	for (; s < end && *s >= '0' && *s <= '7' && n < 7; s++, n++)
		v = v * 8 + (uint32_t)(*s - '0');
	if (!n || s != end || !v)
		return aa_error(P->d, aa_diff_pos(P, l->lineno), NULL,
				"invalid mode in %s", aa_qtext(l->s, l->len, 80));
	*mode = v;
	return 0;
}

/* "rename from P" and the like: P is quoted or the rest of the line. */
static int parse_ext_name(aa_dparser *P, const aa_dline *l, size_t skip,
			  dname *n)
{
	aa_buf b = AA_BUF_INIT;
	size_t used;
	int r = git_side(l->s + skip, l->len - skip, &used, &b);

	if (!r && dname_set(n, b.ptr ? b.ptr : "", b.len) < 0)
		r = -1;
	aa_buf_free(&b);
	if (r < 0)
		return aa_error(P->d, aa_diff_pos(P, l->lineno), NULL,
				"malformed file name in %s", aa_qtext(l->s, l->len, 80));
	return 0;
}

static const char *any_name(const fdiff *f)
{
	if (f->git_new.len)
		return f->git_new.s;
	if (f->git_old.len)
		return f->git_old.s;
	return NULL;
}

/*
 * "Binary files a/x and b/x differ" with no git header: no index line,
 * so no way to find the content (git: "without full index line").
 */
static int binary_error(aa_dparser *P, long lineno, const char *name)
{
	return name_diag(P, AA_DIAG_ERROR, aa_diff_pos(P, lineno), name,
			 name ? strlen(name) : 0,
			 P->o->strict ? "forbidden construct: Binary diff markers"
				      : "cannot apply binary patch without full index line: "
					"the diff says only that the binary file differs, and "
					"names neither its content nor its blob; ask for a patch "
					"made with git diff --binary");
}

static int is_binary_marker(const aa_dline *l)
{
	return aa_diff_starts(l, "GIT binary patch") ||
	       aa_diff_starts(l, "Binary files ");
}

/*
 * "index <old>..<new>[ <mode>]": keeps <old> (4 to 40 hex digits, not
 * all zeros) for the planner, which looks it up as the version the diff
 * was made against; answers invent ids, so a bad one is just ignored.
 */
static void parse_index_line(const aa_dline *l, size_t skip, fdiff *f)
{
	size_t i = skip, n = 0, zeros = 0;

	while (i + n < l->len && n < 41 && strchr("0123456789abcdef", l->s[i + n]) &&
	       l->s[i + n])
		zeros += l->s[i + n++] == '0';
	if (n < 4 || n > 40 || zeros == n || i + n + 1 >= l->len ||
	    l->s[i + n] != '.' || l->s[i + n + 1] != '.')
		return;
	memcpy(f->old_blob, l->s + i, n);
	f->old_blob[n] = '\0';
}

/* "index <old>..<new>": the hint above, and both ids for a binary patch. */
static void read_index_line(const aa_dline *l, size_t skip, fdiff *f)
{
	parse_index_line(l, skip, f);
	f->full_index = aa_diff_index_ids(l->s + skip, l->len - skip,
					  f->idx_old, f->idx_new);
}

/* "Binary files x and y differ" / "Files x and y differ" (git's binhdr). */
static int is_differ_line(const aa_dline *l)
{
	return (aa_diff_starts(l, "Binary files ") || aa_diff_starts(l, "Files ")) &&
	       l->len >= 7 && !memcmp(l->s + l->len - 7, " differ", 7);
}

/*
 * After a git diff's headers: the binary change that may follow them.
 * 0 (none, or read), -1 on error.
 */
static int read_binary_part(aa_dparser *P, fdiff *f)
{
	aa_dline l;

	if (!aa_diff_peek(P, 0, &l))
		return 0;
	if (aa_diff_starts(&l, "GIT binary patch") &&
	    aa_rtrim(l.s, l.len, aa_is_blank) == 16) {
		f->binary = BIN_PATCH;
		f->binary_pos = aa_diff_pos(P, l.lineno);
		return aa_diff_read_binary(P, any_name(f), f->bin, &f->nbin);
	}
	if (is_differ_line(&l)) {
		f->binary = BIN_DIFFER;
		f->binary_pos = aa_diff_pos(P, l.lineno);
		return aa_diff_take(P, &l);
	}
	return 0;
}

/*
 * "index <old>..<new> <mode>": the mode of a file the diff does not
 * change the mode of; git apply takes it as the old mode the patch
 * expects (gitdiff_index() -> gitdiff_oldmode()), so a diff that says
 * 120000 there edits a symbolic link's target. A line without a valid
 * mode is only a hint and says nothing.
 */
static void index_line_mode(const aa_dline *l, size_t skip, fdiff *f)
{
	const char *sp = memchr(l->s + skip, ' ', l->len - skip);
	const char *s, *end = l->s + l->len;
	uint32_t v = 0;
	int n = 0;

	if (!sp || f->old_mode)
		return;
	end = sp + 1 + aa_rtrim(sp + 1, (size_t)(end - sp - 1), aa_is_blank);
	for (s = sp + 1; s < end && *s >= '0' && *s <= '7' && n < 7; s++, n++)
		v = v * 8 + (uint32_t)(*s - '0');
	if (n && s == end && v)
		f->old_mode = v;
}

/*
 * The git extended header lines, one row each, as git's apply.c reads
 * them: a line starting with `prefix` is one of them, and the rest of
 * it (from `skip`, the prefix's length) is read as the row's kind says,
 * into the fdiff member at `field`; `flag`, when there is one, is the
 * int member set to 1.
 */
typedef enum ext_kind {
	EXT_MODE,     /* an octal mode into a uint32_t */
	EXT_NAME,     /* a file name into a dname */
	EXT_INDEX,    /* "index": a hint (parse_index_line); binary patches check it */
	EXT_SCORE,    /* "similarity index N%": the score the reports print */
	EXT_IGNORED   /* "dissimilarity index" says nothing the names and hunks do not */
} ext_kind;

#define NO_FLAG SIZE_MAX
#define AT(member) offsetof(fdiff, member)
#define EXT_ROW(prefix, kind, field, flag) \
	{ prefix, sizeof(prefix) - 1, kind, field, flag }

static const struct ext_row {
	const char *prefix;
	size_t skip;
	ext_kind kind;
	size_t field, flag;
} ext_rows[] = {
	EXT_ROW("old mode ", EXT_MODE, AT(old_mode), NO_FLAG),
	EXT_ROW("new mode ", EXT_MODE, AT(new_mode), NO_FLAG),
	EXT_ROW("deleted file mode ", EXT_MODE, AT(old_mode), AT(deleted)),
	EXT_ROW("new file mode ", EXT_MODE, AT(file_mode), AT(new_file)),
	EXT_ROW("copy from ", EXT_NAME, AT(from), AT(copy)),
	EXT_ROW("copy to ", EXT_NAME, AT(to), AT(copy)),
	/* "rename old"/"rename new" are git's older spelling of from/to */
	EXT_ROW("rename old ", EXT_NAME, AT(from), AT(rename)),
	EXT_ROW("rename new ", EXT_NAME, AT(to), AT(rename)),
	EXT_ROW("rename from ", EXT_NAME, AT(from), AT(rename)),
	EXT_ROW("rename to ", EXT_NAME, AT(to), AT(rename)),
	EXT_ROW("similarity index ", EXT_SCORE, 0, NO_FLAG),
	EXT_ROW("dissimilarity index ", EXT_IGNORED, 0, NO_FLAG),
	EXT_ROW("index ", EXT_INDEX, 0, NO_FLAG),
};

/* "similarity index N%" (N up to 100); anything else says nothing. */
static void read_score(const aa_dline *l, size_t skip, fdiff *f)
{
	unsigned v = 0;
	size_t i = skip;

	while (i < l->len && l->s[i] >= '0' && l->s[i] <= '9' && v <= 100)
		v = v * 10 + (unsigned)(l->s[i++] - '0');
	if (i == skip || v > 100 || i >= l->len || l->s[i] != '%')
		return;
	f->has_similarity = 1;
	f->similarity = v;
}

/* Reads the rest of line l as row says; 0 or -1 with an error. */
static int ext_read(aa_dparser *P, const aa_dline *l,
		    const struct ext_row *row, fdiff *f)
{
	char *at = (char *)f;

	if (row->flag != NO_FLAG)
		*(int *)(at + row->flag) = 1;
	switch (row->kind) {
	case EXT_MODE:
		return parse_mode(P, l, row->skip, (uint32_t *)(at + row->field));
	case EXT_NAME:
		/* git strips one component less from rename/copy names */
		return parse_ext_name(P, l, row->skip, (dname *)(at + row->field)) < 0 ||
		       (P->o->strip_given && P->o->strip > 1 &&
			strip_at(P, l, (dname *)(at + row->field), P->o->strip - 1) < 0)
		       ? -1 : 0;
	case EXT_INDEX:
		read_index_line(l, row->skip, f);
		index_line_mode(l, row->skip, f);
		return 0;
	case EXT_SCORE:
		read_score(l, row->skip, f);
		return 0;
	default:
		return 0;
	}
}

/* One extended header line: 1 when it was one, 0 when not, -1 on error. */
static int ext_header(aa_dparser *P, const aa_dline *l, fdiff *f)
{
	size_t i;

	for (i = 0; i < sizeof(ext_rows) / sizeof(ext_rows[0]); i++)
		if (aa_diff_starts(l, ext_rows[i].prefix))
			return ext_read(P, l, &ext_rows[i], f) < 0 ? -1 : 1;
	return 0;
}

static int read_git_headers(aa_dparser *P, fdiff *f)
{
	aa_dline l;
	int r = 0;

	aa_diff_peek(P, 0, &l);
	if (aa_diff_take(P, &l) < 0)
		return -1;
	f->git = 1;
	f->whole = P->o->strip_given;
	if (parse_git_line(f, &l) < 0)
		return aa_error(P->d, f->pos, NULL, "out of memory");
	if (f->whole && f->git_old.len &&
	    (strip_at(P, &l, &f->git_old, P->o->strip) < 0 ||
	     strip_at(P, &l, &f->git_new, P->o->strip) < 0))
		return -1;
	while (aa_diff_peek(P, 0, &l)) {
		r = ext_header(P, &l, f);
		if (r <= 0)
			break;
		if (aa_diff_take(P, &l) < 0)
			return -1;
	}
	if (r < 0)
		return -1;
	if (aa_diff_peek(P, 0, &l) && aa_diff_starts(&l, "--- ") &&
	    read_names(P, f) < 0)
		return -1;
	if (aa_diff_peek(P, 0, &l) && aa_diff_starts(&l, "+++ "))
		return aa_error(P->d, aa_diff_pos(P, l.lineno), NULL, "%s%s",
				P->o->strict ? INVALID : LACKS_NAME,
				"'+++ ' header without '--- ' header");
	return read_binary_part(P, f);
}

/* ---- resolving the names into one kind of change ------------------- */

static int dname_copy(dname *to, const dname *from)
{
	return dname_set(to, from->s ? from->s : "", from->len);
}

static int use_only_path(aa_dparser *P, fdiff *f, const dname *named)
{
	size_t n = strlen(P->only_path);

	if (named->len && !dname_eq(named, P->only_path, n))
		aa_warn(P->d, f->pos, P->only_path,
			"the diff header names %s; using %s",
			aa_qpathn(named->s, named->len), aa_qpath(P->only_path));
	return dname_set(&f->path, P->only_path, n);
}

static int resolve_move(aa_dparser *P, fdiff *f)
{
	if (!f->from.len || !f->to.len)
		return aa_error(P->d, f->pos, NULL,
				"%s needs both 'from' and 'to' lines",
				f->rename ? "rename" : "copy");
	if (f->rename && f->copy)
		return aa_error(P->d, f->pos, NULL,
				"a diff cannot both rename and copy");
	if (f->new_file || f->deleted)
		return aa_error(P->d, f->pos, NULL,
				"a rename or copy cannot create or delete the file");
	if (P->only_path)
		return aa_error(P->d, f->pos, P->only_path,
				"renames and copies are not allowed in a diff for one file");
	f->kind = f->rename ? F_RENAME : F_COPY;
	if (dname_copy(&f->path, &f->from) < 0 || dname_copy(&f->dest, &f->to) < 0)
		return aa_error(P->d, f->pos, NULL, "out of memory");
	return 0;
}

/*
 * An edit whose "---" and "+++" name different files: the new name,
 * unless it is the old one with something tacked on ("x" / "x.new"),
 * git's rule for a traditional diff; a warning names the one used. A
 * plain diff keeps the other name in f->other: where the one used names
 * no file and the other does, the planner edits that one (GNU patch
 * edits the file that exists; the parser cannot see the tree).
 */
static const dname *edit_name(aa_dparser *P, fdiff *f,
			      const dname *o, const dname *n)
{
	int use_old = !f->git && o->len < n->len && !memcmp(n->s, o->s, o->len);
	const dname *used = use_old ? o : n, *other = use_old ? n : o;
	aa_buf m = AA_BUF_INIT;

	if (!f->git && dname_copy(&f->other, other) < 0)
		return NULL;
	aa_buf_printf(&m, "the %s name %s differs from the %s name; using the "
		      "%s name%s", use_old ? "new" : "old",
		      aa_qpathn(other->s, other->len), use_old ? "old" : "new",
		      use_old ? "old" : "new", f->git ? "" :
		      " (the other where only it names a file)");
	name_diag(P, AA_DIAG_WARNING, f->pos, used->s, used->len,
		  !aa_buf_oom(&m) && m.ptr ? m.ptr :
		  "the old name differs from the new name");
	aa_buf_free(&m);
	return used;
}

/*
 * A git diff whose old and new names differ with no rename or copy
 * line ("diff --git a/pre b/post", "--- a/pre", "+++ b/post", as git
 * diff --no-index writes): git apply takes the old file, applies the
 * hunks and writes the new path, removing the old one
 * (write_out_one_result(): "rename or modification boils down to the
 * same thing") -- a rename with edits, which is what it becomes here.
 * Unlike git, the rename refuses a new path that exists (git overwrites
 * it unchecked): Documentation/format-diff.md, "Differences from git
 * apply".
 */
static int implicit_rename(aa_dparser *P, fdiff *f, const dname *o,
			   const dname *n)
{
	f->kind = F_RENAME;
	if (dname_copy(&f->path, o) < 0 || dname_copy(&f->dest, n) < 0)
		return aa_error(P->d, f->pos, NULL, "out of memory");
	aa_note(P->d, f->pos, f->dest.s, "the old name %s differs from the new "
		"name and no rename line says so: as git apply does, the file "
		"moves to the new name with the hunks applied",
		aa_qpathn(o->s, o->len));
	return 0;
}

static int resolve(aa_dparser *P, fdiff *f)
{
	int creation = f->new_file || f->old_null;
	int deletion = f->deleted || f->new_null;
	const dname *o = f->have_names && !f->old_null ? &f->old_name : &f->git_old;
	const dname *n = f->have_names && !f->new_null ? &f->new_name : &f->git_new;
	const dname *named;

	if (f->rename || f->copy)
		return resolve_move(P, f);
	if (creation && deletion)
		return aa_error(P->d, f->pos, NULL,
				"the diff both creates and deletes the file");
	f->kind = creation ? F_CREATE : deletion ? F_DELETE : F_EDIT;
	named = creation ? n : deletion ? o : n->len ? n : o;
	if (f->kind == F_EDIT && f->git && f->have_names && o->len && n->len &&
	    !P->only_path &&
	    !dname_eq(o, n->s, n->len))
		return implicit_rename(P, f, o, n);
	if (f->kind == F_EDIT && o->len && n->len && !P->only_path &&
	    !dname_eq(o, n->s, n->len))
		if (!(named = edit_name(P, f, o, n)))
			return aa_error(P->d, f->pos, NULL, "out of memory");
	if (P->only_path) {
		if (use_only_path(P, f, named) < 0)
			return aa_error(P->d, f->pos, NULL, "out of memory");
		return 0;
	}
	if (!named->len)
		return aa_error(P->d, f->pos, NULL,
				"cannot tell which file this diff is for");
	if (dname_copy(&f->path, named) < 0)
		return aa_error(P->d, f->pos, NULL, "out of memory");
	return 0;
}

/* --directory=<root>: root/name (a root's trailing slashes are one). */
static int add_root(const char *root, dname *n)
{
	size_t k = strlen(root);
	aa_buf b = AA_BUF_INIT;
	int r;

	while (k > 1 && root[k - 1] == '/')
		k--;
	if (!n->s)
		return 0;
	aa_buf_put(&b, root, k);
	if (root[k - 1] != '/')
		aa_buf_putc(&b, '/');
	aa_buf_put(&b, n->s, n->len);
	r = aa_buf_oom(&b) ? -1 : dname_set(n, b.ptr, b.len);
	aa_buf_free(&b);
	return r;
}

/* The names of a diff under --directory=<root> (not a block's one path). */
static int add_roots(aa_dparser *P, fdiff *f)
{
	const char *root = P->o->directory;

	if (!root || !*root || P->only_path)
		return 0;
	if (add_root(root, &f->path) < 0 || add_root(root, &f->dest) < 0 ||
	    add_root(root, &f->other) < 0)
		return aa_error(P->d, f->pos, NULL, "out of memory");
	return 0;
}

static int resolve_and_check(aa_dparser *P, fdiff *f)
{
	if (resolve(P, f) < 0 || add_roots(P, f) < 0 ||
	    check_path(P, f->pos, &f->path) < 0)
		return -1;
	if (f->dest.s && check_path(P, f->pos, &f->dest) < 0)
		return -1;
	return 0;
}

/* ---- operations ---------------------------------------------------- */

static aa_op *new_op(aa_dparser *P, const fdiff *f, aa_op_kind kind,
		     const dname *path)
{
	aa_op *op = aa_changeset_add(P->cs, kind, f->pos);

	if (!op) {
		aa_error(P->d, f->pos, NULL,
			 "too many operations (limit %d) or out of memory",
			 AA_MAX_OPS);
		return NULL;
	}
	op->format = "diff";
	op->strict = P->o->strict;
	op->diff_names = 1;
	op->path = aa_strdup(path->s);
	if (!op->path) {
		aa_error(P->d, f->pos, NULL, "out of memory");
		return NULL;
	}
	return op;
}

/* A binary change's ids and hunks, moved to the op (see aa_op). */
static void move_binary(aa_op *op, fdiff *f)
{
	op->edit_kind = AA_EDIT_BINARY;
	memcpy(op->base_blob, f->idx_old, sizeof(op->base_blob));
	memcpy(op->new_blob, f->idx_new, sizeof(op->new_blob));
	memcpy(op->bin, f->bin, sizeof(op->bin));
	op->nbin = f->nbin;
	op->bin_pos = f->binary_pos;
	memset(f->bin, 0, sizeof(f->bin));
	f->nbin = 0;
}

static void move_hunks(aa_op *op, fdiff *f)
{
	if (f->binary) {
		move_binary(op, f);
		return;
	}
	op->hunks = f->c.hunks;
	op->nhunks = f->c.nhunks;
	op->edit_kind = op->nhunks ? AA_EDIT_HUNKS : AA_EDIT_NONE;
	f->c.hunks = NULL;
	f->c.nhunks = 0;
}

/* Every line of every hunk is one of `kinds`, else the hunk's position. */
static const aa_hunk *hunk_with_other_lines(const fdiff *f, const char *kinds)
{
	size_t i, j;

	for (i = 0; i < f->c.nhunks; i++)
		for (j = 0; j < f->c.hunks[i].nlines; j++)
			if (!strchr(kinds, f->c.hunks[i].lines[j].kind))
				return &f->c.hunks[i];
	return NULL;
}

static int new_file_content(const fdiff *f, aa_buf *out)
{
	size_t i, j;

	for (i = 0; i < f->c.nhunks; i++)
		for (j = 0; j < f->c.hunks[i].nlines; j++) {
			const aa_hline *hl = &f->c.hunks[i].lines[j];

			if (aa_buf_put(out, hl->text, hl->len) < 0 ||
			    aa_buf_putc(out, '\n') < 0)
				return -1;
		}
	if (f->c.nhunks && f->c.hunks[f->c.nhunks - 1].new_no_eol && out->len)
		out->ptr[--out->len] = '\0';
	return 0;
}

/* A binary creation: its content comes from the patch when planned. */
static int emit_binary_create(aa_dparser *P, fdiff *f)
{
	aa_op *op = new_op(P, f, AA_OP_WRITE, &f->path);

	if (!op)
		return -1;
	op->exist = AA_EXIST_NEW;
	op->mode = f->file_mode ? f->file_mode : f->new_mode;
	move_binary(op, f);
	return 0;
}

static int emit_create(aa_dparser *P, fdiff *f)
{
	const aa_hunk *bad = hunk_with_other_lines(f, "+");
	aa_buf content = AA_BUF_INIT;
	aa_op *op;

	if (f->binary)
		return emit_binary_create(P, f);
	if (bad)
		return aa_error(P->d, bad->pos, f->path.s,
				"a new file's diff may only add lines "
				"(it has context or removed lines)");
	if (new_file_content(f, &content) < 0) {
		aa_buf_free(&content);
		return aa_error(P->d, f->pos, f->path.s, "out of memory");
	}
	op = new_op(P, f, AA_OP_WRITE, &f->path);
	if (!op) {
		aa_buf_free(&content);
		return -1;
	}
	op->exist = AA_EXIST_NEW;
	op->mode = f->file_mode ? f->file_mode : f->new_mode;
	op->content_len = content.len;
	op->content = aa_buf_detach(&content);
	return 0;
}

static int emit_delete(aa_dparser *P, fdiff *f)
{
	const aa_hunk *bad = hunk_with_other_lines(f, "-");
	aa_op *op;

	if (bad)
		return aa_error(P->d, bad->pos, f->path.s,
				"a deletion may only remove lines "
				"(it has context or added lines)");
	op = new_op(P, f, AA_OP_DELETE, &f->path);
	if (!op)
		return -1;
	op->old_mode = f->old_mode;
	/* "index <blob>..0": -R tells an empty file's deletion by it */
	memcpy(op->base_blob, f->old_blob, sizeof(op->base_blob));
	move_hunks(op, f);
	return 0;
}

static int emit_edit(aa_dparser *P, fdiff *f, const dname *path)
{
	aa_op *op = new_op(P, f, AA_OP_EDIT, path);

	if (!op)
		return -1;
	op->mode = f->new_mode;
	op->old_mode = f->old_mode;
	memcpy(op->base_blob, f->old_blob, sizeof(op->base_blob));
	if (f->other.s && path == &f->path &&
	    !(op->other_name = aa_strdup(f->other.s)))
		return aa_error(P->d, f->pos, NULL, "out of memory");
	move_hunks(op, f);
	return 0;
}

static int emit_move(aa_dparser *P, fdiff *f)
{
	aa_op *op = new_op(P, f, f->kind == F_RENAME ? AA_OP_RENAME : AA_OP_COPY,
			   &f->path);

	if (!op)
		return -1;
	op->to = aa_strdup(f->dest.s);
	if (!op->to)
		return aa_error(P->d, f->pos, NULL, "out of memory");
	op->has_similarity = f->has_similarity;
	op->similarity = f->similarity;
	if (f->c.nhunks || f->new_mode || f->binary)
		return emit_edit(P, f, &f->dest);
	return 0;
}

/*
 * A binary change needs both full ids, as git apply does: the pre-image
 * is checked by one and the result by the other.
 */
static int check_binary(aa_dparser *P, const fdiff *f)
{
	const dname *n = f->dest.s ? &f->dest : &f->path;

	if (f->full_index)
		return 0;
	return name_diag(P, AA_DIAG_ERROR, f->binary_pos, n->s, n->len,
			 f->idx_old[0] ? "cannot apply binary patch without full index "
			 "line: the 'index' line abbreviates the ids (a binary patch "
			 "needs both full ids: git diff --binary --full-index)"
			 : "cannot apply binary patch without full index line: the "
			 "diff has no 'index <old>..<new>' line with both full ids");
}

static int emit(aa_dparser *P, fdiff *f)
{
	/* a preview reports a binary patch from the patch alone (git apply --stat) */
	if (f->binary && !P->o->preview && check_binary(P, f) < 0)
		return -1;
	switch (f->kind) {
	case F_CREATE:
		return emit_create(P, f);
	case F_DELETE:
		return emit_delete(P, f);
	case F_RENAME:
	case F_COPY:
		return emit_move(P, f);
	case F_EDIT:
		break;
	}
	if (!f->c.nhunks && !f->new_mode && !f->binary)
		return aa_error(P->d, f->pos, f->path.s,
				"the diff changes nothing (no hunk, no mode change)");
	return emit_edit(P, f, &f->path);
}

static void fdiff_free(fdiff *f)
{
	dname_free(&f->git_old);
	dname_free(&f->git_new);
	dname_free(&f->old_name);
	dname_free(&f->new_name);
	dname_free(&f->from);
	dname_free(&f->to);
	dname_free(&f->pfx_old);
	dname_free(&f->pfx_new);
	dname_free(&f->path);
	dname_free(&f->dest);
	dname_free(&f->other);
	aa_op_free(&f->c);
	free(f->bin[0].data);
	free(f->bin[1].data);
	memset(f, 0, sizeof(*f));
}

/* ---- one file diff ------------------------------------------------- */

typedef enum fstart { START_GIT, START_PLAIN, START_BARE } fstart;

/*
 * A git diff that changes more than content (git's metadata_changes):
 * it needs no hunk, with or without a "---" / "+++" pair (git diff
 * writes the pair for a deleted empty file; a rename's pair may repeat
 * the names).
 */
static int git_metadata_change(const fdiff *f)
{
	return f->git && (f->rename || f->copy || f->new_file || f->deleted ||
			  (f->old_mode && f->new_mode && f->old_mode != f->new_mode));
}

static int read_hunks(aa_dparser *P, fdiff *f, fstart how)
{
	aa_dline l;

	if (!aa_diff_peek(P, 0, &l) || !aa_diff_is_hunk_header(P, &l)) {
		if (how == START_GIT &&
		    (!f->have_names || (!P->o->strict && git_metadata_change(f))))
			return 0;
		return aa_error(P->d, f->pos, NULL,
				P->o->strict ? INVALID "no hunk after the file header"
					     : "no hunk after the '---' / '+++' header");
	}
	do {
		if (aa_diff_read_hunk(P, &f->c) < 0)
			return -1;
	} while (aa_diff_next_hunk(P));
	return 0;
}

static int read_headers(aa_dparser *P, fdiff *f, fstart how)
{
	switch (how) {
	case START_GIT:
		return read_git_headers(P, f);
	case START_PLAIN:
		return read_names(P, f);
	case START_BARE:
		break;
	}
	return 0;
}

/*
 * Reads one file's diff starting at the current line. Outside --strict
 * its paths are checked before its hunks are read and its operations
 * are emitted at once; under --strict it waits in R->pending until the
 * whole block passed the format checks (the order of
 * Documentation/format-diff.md, "--strict": format, then paths).
 */
static int file_diff(run *R, const aa_dline *start, fstart how)
{
	aa_dparser *P = &R->P;
	fdiff local, *f = P->o->strict ? &R->pending : &local;
	int r;

	if (P->o->strict && R->nfiles)
		return aa_error(P->d, aa_diff_pos(P, start->lineno), NULL,
				"Multiple files in single diff");
	memset(f, 0, sizeof(*f));
	f->pos = aa_diff_pos(P, start->lineno);
	r = read_headers(P, f, how);
	if (!r && !P->o->strict)
		r = resolve_and_check(P, f);
	if (!r && !f->binary)
		r = read_hunks(P, f, how);
	R->nfiles++;
	if (P->o->strict) {
		R->have_pending = !r;
		return r;
	}
	if (!r)
		r = emit(P, f);
	fdiff_free(f);
	return r;
}

/* ---- the block ----------------------------------------------------- */

/* A Markdown fence line; inside an indented fence, lines lose that indent. */
static int track_fence(aa_dparser *P, const aa_dline *l)
{
	size_t ind = 0, run = 0, i;
	char c;

	while (ind < l->len && l->s[ind] == ' ')
		ind++;
	if (ind == l->len || (l->s[ind] != '`' && l->s[ind] != '~'))
		return 0;
	c = l->s[ind];
	while (ind + run < l->len && l->s[ind + run] == c)
		run++;
	if (run < 3)
		return 0;
	if (!P->fence_ch) {
		P->fence_ch = c;
		P->fence_len = run;
		P->strip = ind;
		return 1;
	}
	if (c != P->fence_ch || run < P->fence_len)
		return 0;
	for (i = ind + run; i < l->len; i++)
		if (l->s[i] != ' ' && l->s[i] != '\t')
			return 0;
	P->fence_ch = 0;
	P->fence_len = 0;
	P->strip = 0;
	return 1;
}

static int is_context_diff(const aa_dparser *P, const aa_dline *l)
{
	aa_dline n;

	if (!aa_diff_peek(P, 1, &n))
		return 0;
	if (aa_diff_starts(l, "*** ") && aa_diff_starts(&n, "--- "))
		return 1;
	return aa_diff_starts(l, "***************") && aa_diff_starts(&n, "*** ");
}

static int is_combined(const aa_dline *l)
{
	return aa_diff_starts(l, "diff --cc ") ||
	       aa_diff_starts(l, "diff --combined ") || aa_diff_starts(l, "@@@");
}

/* "Binary files a/x and b/x differ" outside a git header: name x. */
static int loose_binary_error(aa_dparser *P, const aa_dline *l)
{
	const char *s = l->s + 13, *end = l->s + l->len, *p;
	char *name = NULL;
	int r;

	for (p = s; p + 5 <= end; p++)
		if (!memcmp(p, " and ", 5))
			break;
	if (aa_diff_starts(l, "Binary files ") && p + 5 <= end) {
		if (p - s > 2 && !memcmp(s, "a/", 2))
			s += 2;
		name = aa_strndup(s, (size_t)(p - s));
	}
	r = binary_error(P, l->lineno, name);
	free(name);
	return r;
}

static int strict_stray_line(aa_dparser *P, const aa_dline *l)
{
	const char *what = "text outside the diff";

	if (aa_diff_starts(l, "--- "))
		what = "'--- ' header without '+++ ' header";
	else if (aa_diff_starts(l, "+++ "))
		what = "'+++ ' header without '--- ' header";
	else if (aa_diff_starts(l, "@@"))
		what = "hunk without '--- a/<path>' / '+++ b/<path>' header";
	return aa_error(P->d, aa_diff_pos(P, l->lineno), NULL, INVALID "%s", what);
}

/* Handles the line at the top level (outside any file diff). */
static int top_line(run *R, const aa_dline *l)
{
	aa_dparser *P = &R->P;
	aa_dline n;

	if (aa_diff_starts(l, "diff --git "))
		return file_diff(R, l, START_GIT);
	if (is_combined(l))
		return aa_error(P->d, aa_diff_pos(P, l->lineno), NULL,
				"combined diffs (diff --cc, @@@) are not supported");
	if (is_context_diff(P, l))
		return aa_error(P->d, aa_diff_pos(P, l->lineno), NULL,
				"context diffs (*** / ---) are not supported; "
				"use a unified diff");
	if (aa_diff_starts(l, "--- ") && aa_diff_peek(P, 1, &n) &&
	    aa_diff_starts(&n, "+++ "))
		return file_diff(R, l, START_PLAIN);
	if (aa_diff_is_hunk_header(P, l) && P->only_path && !P->o->strict)
		return file_diff(R, l, START_BARE);
	if (P->o->strict && !is_blank_line(l))
		return strict_stray_line(P, l);
	if (aa_diff_is_hunk_header(P, l))
		return aa_error(P->d, aa_diff_pos(P, l->lineno), NULL,
				"hunk without a file header "
				"('--- a/<path>' and '+++ b/<path>')");
	if (is_binary_marker(l))
		return loose_binary_error(P, l);
	if (!P->o->strict)
		track_fence(P, l);
	aa_diff_advance(P, l);
	return 0;
}

static int scan(run *R)
{
	aa_dline l;

	while (aa_diff_peek(&R->P, 0, &l))
		if (top_line(R, &l) < 0)
			return -1;
	return 0;
}

/* ---- --strict: forbidden constructs (Documentation/format-diff.md) - */

static const char *forbidden_in_line(const aa_dline *l)
{
	static const char *const git[] = {
		"diff --git", "index ", "new file mode", "deleted file mode",
		"old mode ", "new mode ", "similarity index", "dissimilarity index",
		"rename from", "rename to", "copy from", "copy to",
	};
	size_t i;

	if (aa_diff_starts(l, "`") || aa_diff_starts(l, "~~~"))
		return "Markdown code fences (``` or `)";
	for (i = 0; i + 1 < l->len; i++)
		if (l->s[i] == '\x1b' && l->s[i + 1] == '[')
			return "ANSI color codes";
	for (i = 0; i < sizeof(git) / sizeof(*git); i++)
		if (aa_diff_starts(l, git[i]))
			return "Git-specific headers (diff --git)";
	if (is_binary_marker(l))
		return "Binary diff markers";
	if (is_combined(l))
		return "Combined diff format";
	if (aa_diff_starts(l, "*** ") || aa_diff_starts(l, "***************"))
		return "Context diff format (*** / ---)";
	return NULL;
}

static int strict_forbidden(run *R)
{
	aa_dparser *P = &R->P;
	const char *nul = memchr(P->b->data, '\0', P->b->len);
	aa_dparser q = *P;
	const char *why;
	aa_dline l;

	if (nul)
		return aa_error(P->d, aa_diff_pos(P, aa_linemap_line(&R->lines,
					(size_t)(nul - P->b->data))),
				NULL, "forbidden construct: NUL bytes");
	while (aa_diff_peek(&q, 0, &l)) {
		if ((why = forbidden_in_line(&l)))
			return aa_error(P->d, aa_diff_pos(P, l.lineno), NULL,
					"forbidden construct: %s", why);
		aa_diff_advance(&q, &l);
	}
	return 0;
}

/* After the whole block passed the format checks: paths, then the ops. */
static int strict_finish(run *R)
{
	aa_dparser *P = &R->P;
	const aa_block *b = P->b;
	long last = aa_linemap_line(&R->lines, b->len ? b->len - 1 : 0);

	if (!R->nfiles)
		return aa_error(P->d, aa_diff_pos(P, P->first_line), NULL,
				INVALID "no '--- a/<path>' / '+++ b/<path>' header");
	if (!b->len || b->data[b->len - 1] != '\n')
		return aa_error(P->d, aa_diff_pos(P, last), NULL,
				"Missing trailing newline");
	if (resolve_and_check(P, &R->pending) < 0)
		return -1;
	return emit(P, &R->pending);
}

static int parse_block(run *R)
{
	aa_dparser *P = &R->P;
	const char *why, *s;
	size_t len;

	if (P->only_path &&
	    aa_path_answer(P->only_path, strlen(P->only_path), &s, &len, &why) < 0)
		return path_error(P, aa_diff_pos(P, P->first_line), P->only_path,
				  strlen(P->only_path), "invalid path: %s", why);
	if (P->o->strict && strict_forbidden(R) < 0)
		return -1;
	if (scan(R) < 0)
		return -1;
	return P->o->strict ? strict_finish(R) : 0;
}

int aa_parse_diff(const aa_block *b, const aa_parse_opts *o,
		  const char *only_path, aa_changeset *cs, aa_diags *d)
{
	static const aa_parse_opts defaults = { .format = AA_FORMAT_DIFF, .strict = 0 };
	size_t n0 = cs->n, i;
	run R;
	int r;

	memset(&R, 0, sizeof(R));
	R.P.b = b;
	R.P.o = o ? o : &defaults;
	R.P.only_path = only_path;
	R.P.cs = cs;
	R.P.d = d;
	R.P.lineno = b->line > 0 ? b->line : 1;
	R.P.first_line = R.P.lineno;
	aa_linemap_init(&R.lines, b->data, b->len, R.P.first_line);
	r = parse_block(&R);
	aa_linemap_free(&R.lines);
	fdiff_free(&R.pending);
	if (r < 0) {
		aa_changeset_truncate(cs, n0);
		return -1;
	}
	/*
	 * A diff block is one change, named by its first operation; not a
	 * diff inside another format's block for one path (only_path).
	 */
	for (i = n0; i < cs->n && !only_path; i++)
		cs->ops[i].diff_block = n0 + 1;
	return R.nfiles;
}
