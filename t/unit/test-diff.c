/* Unit tests for the diff format parser (src/format/diff.c). */
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"
#include "aiapply/common.h"
#include "change/changeset.h"
#include "format/format.h"

/* ---- helpers -------------------------------------------------------- */

typedef struct result {
	aa_changeset cs;
	aa_diags d;
	int r;
} result;

static aa_input input = { "answer.md", NULL, 0, NULL };

static void parse_n(result *res, const char *text, size_t len,
		    const char *only, int strict)
{
	aa_block b;
	aa_parse_opts o = { .format = AA_FORMAT_DIFF, .strict = strict };

	memset(res, 0, sizeof(*res));
	input.data = text;
	input.len = len;
	b.in = &input;
	b.data = text;
	b.len = len;
	b.line = 1;
	res->r = aa_parse_diff(&b, &o, only, &res->cs, &res->d);
}

static void parse(result *res, const char *text)
{
	parse_n(res, text, strlen(text), NULL, 0);
}

static void parse_only(result *res, const char *text, const char *only)
{
	parse_n(res, text, strlen(text), only, 0);
}

static void parse_strict(result *res, const char *text)
{
	parse_n(res, text, strlen(text), NULL, 1);
}

static void done(result *res)
{
	aa_changeset_free(&res->cs);
	aa_diags_free(&res->d);
}

static const aa_diag *find_diag(const result *res, aa_diag_level level,
				const char *needle)
{
	size_t i;

	for (i = 0; i < res->d.n; i++)
		if (res->d.v[i].level == level && strstr(res->d.v[i].msg, needle))
			return &res->d.v[i];
	return NULL;
}

/* The parse failed with an error containing `needle`, and left no op. */
static void expect_error(result *res, const char *needle)
{
	if (res->r != -1 || !find_diag(res, AA_DIAG_ERROR, needle)) {
		size_t i;

		fprintf(stderr, "# expected error '%s', got r=%d\n", needle, res->r);
		for (i = 0; i < res->d.n; i++)
			fprintf(stderr, "#   %s\n", res->d.v[i].msg);
	}
	assert_int_equal(res->r, -1);
	assert_non_null(find_diag(res, AA_DIAG_ERROR, needle));
	assert_int_equal(res->cs.n, 0);
}

static void expect_ok(result *res, int nfiles, size_t nops)
{
	if (res->r != nfiles) {
		size_t i;

		for (i = 0; i < res->d.n; i++)
			fprintf(stderr, "#   %s\n", res->d.v[i].msg);
	}
	assert_int_equal(res->r, nfiles);
	assert_int_equal(res->d.nerrors, 0);
	assert_int_equal(res->cs.n, nops);
}

static void expect_line(const aa_hunk *h, size_t i, char kind, const char *text)
{
	assert_true(i < h->nlines);
	assert_int_equal(h->lines[i].kind, kind);
	assert_int_equal(h->lines[i].len, strlen(text));
	assert_memory_equal(h->lines[i].text, text, strlen(text));
}

static void expect_counts(const aa_hunk *h, long os, long oc, long ns, long nc)
{
	assert_int_equal(h->old_start, os);
	assert_int_equal(h->old_count, oc);
	assert_int_equal(h->new_start, ns);
	assert_int_equal(h->new_count, nc);
}

/* ---- plain unified diffs ------------------------------------------- */

static void plain_edit(void **state)
{
	result res;
	aa_op *op;
	aa_hunk *h;

	(void)state;
	parse(&res, "--- a/src/f.c\n+++ b/src/f.c\n"
		    "@@ -10,3 +10,3 @@ int main(void)\n a\n-b\n+B\n c\n");
	expect_ok(&res, 1, 1);
	op = &res.cs.ops[0];
	assert_int_equal(op->kind, AA_OP_EDIT);
	assert_string_equal(op->path, "src/f.c");
	assert_string_equal(op->format, "diff");
	assert_int_equal(op->strict, 0);
	assert_int_equal(op->pos.line, 1);
	assert_string_equal(op->pos.input, "answer.md");
	assert_int_equal(op->edit_kind, AA_EDIT_HUNKS);
	assert_int_equal(op->nhunks, 1);
	h = &op->hunks[0];
	assert_int_equal(h->pos.line, 3);
	assert_int_equal(h->has_hint, 1);
	expect_counts(h, 10, 3, 10, 3);
	assert_string_equal(h->section, "int main(void)");
	assert_int_equal(h->nlines, 4);
	expect_line(h, 0, ' ', "a");
	expect_line(h, 1, '-', "b");
	expect_line(h, 2, '+', "B");
	expect_line(h, 3, ' ', "c");
	assert_int_equal(h->count_mismatch, 0);
	assert_int_equal(h->old_no_eol, 0);
	assert_int_equal(h->new_no_eol, 0);
	done(&res);
}

static void counts_default_to_one(void **state)
{
	result res;
	aa_hunk *h;

	(void)state;
	parse(&res, "--- a/x\n+++ b/x\n@@ -5 +5 @@\n-a\n+b\n");
	expect_ok(&res, 1, 1);
	h = &res.cs.ops[0].hunks[0];
	expect_counts(h, 5, 1, 5, 1);
	assert_null(h->section);
	assert_int_equal(h->count_mismatch, 0);
	done(&res);
}

static void no_prefix_and_timestamps(void **state)
{
	result res;

	(void)state;
	parse(&res, "--- x.txt\t2024-01-01 10:00:00.000000000 +0100\n"
		    "+++ x.txt\t2024-01-02 11:00:00.000000000 +0100\n"
		    "@@ -1 +1 @@\n-a\n+b\n");
	expect_ok(&res, 1, 1);
	assert_string_equal(res.cs.ops[0].path, "x.txt");
	done(&res);

	/* only a/ is stripped from the old side, only b/ from the new one */
	parse(&res, "--- a/b/x\n+++ b/b/x\n@@ -1 +1 @@\n-a\n+b\n");
	expect_ok(&res, 1, 1);
	assert_string_equal(res.cs.ops[0].path, "b/x");
	done(&res);
}

static void old_and_new_names_differ(void **state)
{
	result res;

	(void)state;
	parse(&res, "--- a/x.orig\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
	expect_ok(&res, 1, 1);
	assert_string_equal(res.cs.ops[0].path, "x");
	assert_non_null(find_diag(&res, AA_DIAG_WARNING, "differs"));
	done(&res);
}

static void crlf_line_endings(void **state)
{
	result res;
	aa_hunk *h;

	(void)state;
	/*
	 * The parser sees LF line breaks (extract.c turns an answer that is
	 * CRLF throughout into LF): a CR before LF is ignored on header
	 * lines and kept on hunk lines, where it is the line's own ending.
	 */
	parse(&res, "--- a/x\r\n+++ b/x\r\n@@ -1,2 +1,2 @@\r\n a\r\n-b\r\n+c\r\n");
	expect_ok(&res, 1, 1);
	assert_string_equal(res.cs.ops[0].path, "x");
	h = &res.cs.ops[0].hunks[0];
	assert_int_equal(h->nlines, 3);
	expect_line(h, 0, ' ', "a\r");
	expect_line(h, 1, '-', "b\r");
	expect_line(h, 2, '+', "c\r");
	done(&res);
}

/* ---- traditional headers as git reads them (issue 19 item 3) ------- */

/* The edit's path from "--- <old>" / "+++ <new>" (one hunk "-a" "+b"). */
static void expect_edit_path(const char *old, const char *new_,
			     const char *path)
{
	char text[512];
	result res;

	snprintf(text, sizeof(text), "--- %s\n+++ %s\n@@ -1 +1 @@\n-a\n+b\n",
		 old, new_);
	parse(&res, text);
	expect_ok(&res, 1, 1);
	assert_int_equal(res.cs.ops[0].kind, AA_OP_EDIT);
	assert_string_equal(res.cs.ops[0].path, path);
	done(&res);
}

static void timestamps_after_spaces(void **state)
{
	(void)state;
	/* pasted from a chat: spaces where diff -u put a TAB */
	expect_edit_path("foo.c   2024-01-02 10:00:00.000000000 +0100",
			 "foo.c   2024-01-02 10:05:00.000000000 +0100", "foo.c");
	expect_edit_path("a/src/foo.c 2024-01-02 10:00:00 +0100",
			 "b/src/foo.c 2024-01-02 10:05:00 +0100", "src/foo.c");
	/* POSIX (no zone, no fraction), a zone with a colon, a date alone */
	expect_edit_path("x.txt 2024-01-02 10:00:00", "x.txt 2024-01-02 10:00:01",
			 "x.txt");
	expect_edit_path("x.txt  2024-01-02 10:00:00.5 +01:00",
			 "x.txt\t2024-01-02 10:00:00.5 -01:00", "x.txt");
	expect_edit_path("x.txt 24-01-02", "x.txt 2024-01-02", "x.txt");
	/* a name with spaces keeps them; only a trailing stamp goes */
	expect_edit_path("my notes.txt 2024-01-02 10:00:00 +0000",
			 "my notes.txt 2024-01-02 10:00:00 +0000", "my notes.txt");
	expect_edit_path("my notes.txt", "my notes.txt", "my notes.txt");
	/* a date glued to the name, or not at the end, is the name */
	expect_edit_path("log-2024-01-02", "log-2024-01-02", "log-2024-01-02");
	expect_edit_path("2024-01-02 10:00:00", "2024-01-02 10:00:00",
			 "2024-01-02 10:00:00");
	expect_edit_path("\"q x\"\t2024-01-02 10:00:00 +0000",
			 "\"q x\" 2024-01-02 10:00:00 +0000", "q x");
}

static void suffixed_new_name_uses_the_old(void **state)
{
	result res;

	(void)state;
	/* git: the shorter name when the other only adds a suffix */
	parse(&res, "--- x.c\n+++ x.c.new\n@@ -1 +1 @@\n-a\n+b\n");
	expect_ok(&res, 1, 1);
	assert_string_equal(res.cs.ops[0].path, "x.c");
	assert_non_null(find_diag(&res, AA_DIAG_WARNING, "using the old name"));
	done(&res);
	/*
	 * in a git diff "---" / "+++" are the old and new paths as written:
	 * names that differ with no rename line move the file, as git apply
	 */
	parse(&res, "diff --git a/x b/x.new\n--- a/x\n+++ b/x.new\n"
		    "@@ -1 +1 @@\n-a\n+b\n");
	expect_ok(&res, 1, 2);
	assert_int_equal(res.cs.ops[0].kind, AA_OP_RENAME);
	assert_string_equal(res.cs.ops[0].path, "x");
	assert_string_equal(res.cs.ops[0].to, "x.new");
	assert_int_equal(res.cs.ops[1].kind, AA_OP_EDIT);
	assert_string_equal(res.cs.ops[1].path, "x.new");
	assert_non_null(find_diag(&res, AA_DIAG_NOTE, "moves to the new name"));
	done(&res);
}

/* One file diff with header lines h1, h2 and hunk body `hunk`. */
static void parse_epoch(result *res, const char *h1, const char *h2,
			const char *hunk)
{
	char text[512];

	snprintf(text, sizeof(text), "--- %s\n+++ %s\n%s", h1, h2, hunk);
	parse(res, text);
}

static void epoch_side_is_absent(void **state)
{
	static const char *const epochs[] = {
		"1970-01-01 00:00:00 +0000",
		"1970-01-01 00:00:00.000000000 +0000",
		"1970-01-01 01:00:00.000000000 +0100",
		"1970-01-01 05:30:00 +05:30",
		"1969-12-31 19:00:00.000000000 -0500",
		"1969-12-31 23:59:00 -0001",
	};
	static const char *const create = "@@ -0,0 +1,2 @@\n+a\n+b\n";
	static const char *const del = "@@ -1,2 +0,0 @@\n-a\n-b\n";
	char h1[128], h2[128];
	result res;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(epochs) / sizeof(*epochs); i++) {
		snprintf(h1, sizeof(h1), "f.txt\t%s", epochs[i]);
		snprintf(h2, sizeof(h2), "f.txt\t2024-01-02 10:00:00 +0000");
		parse_epoch(&res, h1, h2, create);
		expect_ok(&res, 1, 1);
		assert_int_equal(res.cs.ops[0].kind, AA_OP_WRITE);
		assert_int_equal(res.cs.ops[0].exist, AA_EXIST_NEW);
		assert_string_equal(res.cs.ops[0].path, "f.txt");
		assert_memory_equal(res.cs.ops[0].content, "a\nb\n", 4);
		done(&res);

		/* deletion, the stamp after spaces and "diff -Naur" prefixes */
		snprintf(h1, sizeof(h1), "a/f.txt  2024-01-02 10:00:00 +0000");
		snprintf(h2, sizeof(h2), "b/f.txt  %s", epochs[i]);
		parse_epoch(&res, h1, h2, del);
		expect_ok(&res, 1, 1);
		assert_int_equal(res.cs.ops[0].kind, AA_OP_DELETE);
		assert_string_equal(res.cs.ops[0].path, "f.txt");
		done(&res);
	}
}

static void near_epoch_is_a_date(void **state)
{
	static const char *const dates[] = {
		"1970-01-01 00:00:01 +0000",         /* a second after */
		"1970-01-01 00:00:00 +0100",         /* an hour before */
		"1970-01-01 00:00:00",               /* no zone: any time */
		"1970-01-01 00:00:00.001 +0000",
		"1969-12-31 19:00:00 +0500",
		"1970-01-02 00:00:00 +0000",
		"1970-01-01 00:60:00 +0100",
	};
	char h1[128];
	result res;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(dates) / sizeof(*dates); i++) {
		snprintf(h1, sizeof(h1), "f.txt\t%s", dates[i]);
		parse_epoch(&res, h1, "f.txt", "@@ -0,0 +1 @@\n+a\n");
		expect_ok(&res, 1, 1);
		assert_int_equal(res.cs.ops[0].kind, AA_OP_EDIT);
		done(&res);
	}
	/* /dev/null comes first; a git diff says creation with its headers */
	parse_epoch(&res, "f.txt\t1970-01-01 00:00:00 +0000", "/dev/null",
		    "@@ -1 +0,0 @@\n-a\n");
	expect_ok(&res, 1, 1);
	assert_int_equal(res.cs.ops[0].kind, AA_OP_DELETE);
	done(&res);
	parse(&res, "diff --git a/f b/f\n--- a/f\t1970-01-01 00:00:00 +0000\n"
		    "+++ b/f\n@@ -1 +1 @@\n-a\n+b\n");
	expect_ok(&res, 1, 1);
	assert_int_equal(res.cs.ops[0].kind, AA_OP_EDIT);
	done(&res);
}

/* The parse failed naming input line `line` with `needle`. */
static void expect_error_at(result *res, const char *needle, long line)
{
	const aa_diag *dg;

	expect_error(res, needle);
	dg = find_diag(res, AA_DIAG_ERROR, needle);
	assert_int_equal(dg->line, line);
}

static void git_names_must_agree(void **state)
{
	result res;

	(void)state;
	/* t4133: "new file mode" takes the "diff --git" name */
	parse(&res, "diff --git a/f b/f\nnew file mode 100644\n"
		    "index 0000000..d00491f\n--- /dev/null\n+++ b/f-blah\n"
		    "@@ -0,0 +1 @@\n+1\n");
	expect_error_at(&res, "inconsistent new filename", 5);
	assert_non_null(find_diag(&res, AA_DIAG_ERROR, "f-blah"));
	done(&res);
	parse(&res, "diff --git a/f b/f\ndeleted file mode 100644\n"
		    "--- a/f-blah\n+++ /dev/null\n@@ -1 +0,0 @@\n-1\n");
	expect_error_at(&res, "inconsistent old filename", 3);
	done(&res);
	/* an edit: both sides repeat the name both halves give */
	parse(&res, "diff --git a/f b/f\n--- a/f\n+++ b/g\n@@ -1 +1 @@\n-a\n+b\n");
	expect_error_at(&res, "inconsistent new filename", 3);
	done(&res);
	parse(&res, "diff --git a/f b/f\n--- a/g\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n");
	expect_error_at(&res, "inconsistent old filename", 2);
	done(&res);
	/* rename and copy lines name the sides */
	parse(&res, "diff --git a/f b/g\nrename from f\nrename to g\n"
		    "--- a/f\n+++ b/h\n@@ -1 +1 @@\n-a\n+b\n");
	expect_error_at(&res, "'rename to' line", 5);
	done(&res);
	parse(&res, "diff --git a/f b/g\ncopy from f\ncopy to g\n"
		    "--- a/e\n+++ b/g\n@@ -1 +1 @@\n-a\n+b\n");
	expect_error_at(&res, "'copy from' line", 4);
	done(&res);
	parse(&res, "diff --git a/f b/g\nrename from f\nrename to g\n"
		    "--- /dev/null\n+++ b/g\n@@ -1 +1 @@\n-a\n+b\n");
	expect_error_at(&res, "inconsistent old filename", 4);
	done(&res);
	/* created: the old side is /dev/null; deleted: the new side */
	parse(&res, "diff --git a/f b/f\nnew file mode 100644\n--- a/f\n+++ b/f\n"
		    "@@ -0,0 +1 @@\n+1\n");
	expect_error_at(&res, "expected /dev/null on the '---' line", 3);
	done(&res);
	parse(&res, "diff --git a/f b/f\ndeleted file mode 100644\n--- a/f\n"
		    "+++ b/f\n@@ -1 +0,0 @@\n-1\n");
	expect_error_at(&res, "expected /dev/null on the '+++' line", 4);
	done(&res);
	parse(&res, "diff --git a/f b/f\ndeleted file mode 100644\n--- /dev/null\n"
		    "+++ /dev/null\n@@ -1 +0,0 @@\n-1\n");
	expect_error_at(&res, "'deleted file mode' line", 3);
	done(&res);
}

static void git_names_that_agree(void **state)
{
	result res;

	(void)state;
	/* without prefixes, or "./", the names are the same */
	parse(&res, "diff --git a/f b/f\n--- f\n+++ ./f\n@@ -1 +1 @@\n-a\n+b\n");
	expect_ok(&res, 1, 1);
	assert_string_equal(res.cs.ops[0].path, "f");
	done(&res);
	/* no "new file mode": /dev/null alone still creates (assistants) */
	parse(&res, "diff --git a/f b/f\n--- /dev/null\n+++ b/f\n@@ -0,0 +1 @@\n+1\n");
	expect_ok(&res, 1, 1);
	assert_int_equal(res.cs.ops[0].kind, AA_OP_WRITE);
	done(&res);
	/* halves that differ give no name to check against */
	parse(&res, "diff --git a/f b/g\n--- a/f\n+++ b/g\n@@ -1 +1 @@\n-a\n+b\n");
	assert_int_equal(res.d.nerrors, 0);
	done(&res);
	parse(&res, "diff --git a/f b/g\nrename from f\nrename to g\n"
		    "--- a/f\n+++ b/g\n@@ -1 +1 @@\n-a\n+b\n");
	expect_ok(&res, 1, 2);
	done(&res);
	parse(&res, "diff --git \"a/x y\" \"b/x y\"\nnew file mode 100644\n"
		    "--- /dev/null\n+++ \"b/x y\"\n@@ -0,0 +1 @@\n+1\n");
	expect_ok(&res, 1, 1);
	assert_string_equal(res.cs.ops[0].path, "x y");
	done(&res);
}

static void any_first_component_is_a_prefix(void **state)
{
	result res;

	(void)state;
	/* diff.mnemonicPrefix: the git line's own prefixes, on ---/+++ too */
	parse(&res, "diff --git i/f w/f\n--- i/f\n+++ w/f\n@@ -1 +1 @@\n-a\n+b\n");
	expect_ok(&res, 1, 1);
	assert_string_equal(res.cs.ops[0].path, "f");
	done(&res);
	parse(&res, "diff --git c/x/y.c i/x/y.c\nnew file mode 100644\n"
		    "--- /dev/null\n+++ i/x/y.c\n@@ -0,0 +1 @@\n+1\n");
	expect_ok(&res, 1, 1);
	assert_string_equal(res.cs.ops[0].path, "x/y.c");
	done(&res);
	parse(&res, "diff --git i/f w/f\n--- i/f\n+++ w/g\n@@ -1 +1 @@\n-a\n+b\n");
	expect_error_at(&res, "inconsistent new filename", 3);
	done(&res);
	/* diff -ru linux-vanilla linux */
	expect_edit_path("linux-vanilla/fs/a.c\t2024-01-02 10:00:00 +0000",
			 "linux/fs/a.c\t2024-01-02 10:05:00 +0000", "fs/a.c");
	/* the same first component, or different rests: names as written */
	expect_edit_path("src/a.c", "src/a.c", "src/a.c");
	parse(&res, "--- old/f\n+++ new/g\n@@ -1 +1 @@\n-a\n+b\n");
	expect_ok(&res, 1, 1);
	assert_string_equal(res.cs.ops[0].path, "new/g");
	done(&res);
	/* git diff --no-prefix of a rename: the rename lines are whole paths */
	parse(&res, "diff --git old/f new/f\nrename from old/f\nrename to new/f\n"
		    "--- old/f\n+++ new/f\n@@ -1 +1 @@\n-a\n+b\n");
	expect_ok(&res, 1, 2);
	assert_string_equal(res.cs.ops[0].path, "old/f");
	assert_string_equal(res.cs.ops[0].to, "new/f");
	done(&res);
}

static void strict_refuses_spaced_timestamps(void **state)
{
	result res;

	(void)state;
	parse_strict(&res, "--- a/x 2024-01-02 10:00:00 +0000\n+++ b/x\n"
			   "@@ -1 +1 @@\n-a\n+b\n");
	expect_error_at(&res, "timestamps are not allowed", 1);
	done(&res);
}

/* ---- diffs inside chat answers -------------------------------------- */

static void in_prose_and_fences(void **state)
{
	result res;
	aa_op *op;

	(void)state;
	parse(&res, "Here is the fix:\n\n```diff\n--- a/x\n+++ b/x\n"
		    "@@ -1,2 +1,2 @@\n a\n-b\n+c\n```\n\nAnd another:\n\n"
		    "~~~patch\n--- a/y\n+++ b/y\n@@ -3 +3 @@\n-d\n+e\n~~~\n"
		    "```\n--- a/z\n+++ b/z\n@@ -1 +1 @@\n-f\n+g\n```\nThanks!\n");
	expect_ok(&res, 3, 3);
	op = res.cs.ops;
	assert_string_equal(op[0].path, "x");
	assert_int_equal(op[0].pos.line, 4);
	assert_int_equal(op[0].hunks[0].nlines, 3);
	assert_string_equal(op[1].path, "y");
	assert_int_equal(op[1].pos.line, 15);
	assert_int_equal(op[1].hunks[0].pos.line, 17);
	assert_string_equal(op[2].path, "z");
	assert_int_equal(op[2].hunks[0].nlines, 2);
	done(&res);
}

static void indented_fence(void **state)
{
	result res;
	aa_hunk *h;

	(void)state;
	parse(&res, "1. Apply:\n   ```diff\n   --- a/x\n   +++ b/x\n"
		    "   @@ -1,2 +1,2 @@\n      keep\n   -old\n   +new\n   ```\n"
		    "2. Done.\n");
	expect_ok(&res, 1, 1);
	h = &res.cs.ops[0].hunks[0];
	assert_int_equal(h->nlines, 3);
	expect_line(h, 0, ' ', "  keep");
	expect_line(h, 1, '-', "old");
	expect_line(h, 2, '+', "new");
	done(&res);
}

static void no_diff_is_not_an_error(void **state)
{
	result res;

	(void)state;
	parse(&res, "Just some prose.\n--- \nNothing here.\n* bullet\n- item\n");
	expect_ok(&res, 0, 0);
	done(&res);
	parse(&res, "");
	expect_ok(&res, 0, 0);
	done(&res);
}

static void many_git_files(void **state)
{
	result res;
	aa_op *op;

	(void)state;
	parse(&res, "diff --git a/a.c b/a.c\nindex 1234567..89abcde 100644\n"
		    "--- a/a.c\n+++ b/a.c\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n"
		    "diff --git a/b.c b/b.c\nindex 1234567..89abcde 100755\n"
		    "--- a/b.c\n+++ b/b.c\n@@ -4 +4,2 @@\n-p\n+q\n+r\n");
	expect_ok(&res, 2, 2);
	op = res.cs.ops;
	assert_string_equal(op[0].path, "a.c");
	assert_int_equal(op[0].pos.line, 1);
	assert_int_equal(op[0].mode, 0); /* index line modes are ignored */
	assert_string_equal(op[1].path, "b.c");
	assert_int_equal(op[1].pos.line, 9);
	expect_counts(&op[1].hunks[0], 4, 1, 4, 2);
	assert_int_equal(op[1].hunks[0].count_mismatch, 0);
	done(&res);
}

static void git_hunks_without_names(void **state)
{
	result res;

	(void)state;
	parse(&res, "diff --git a/x y b/x y\n@@ -1 +1 @@\n-a\n+b\n");
	expect_ok(&res, 1, 1);
	assert_string_equal(res.cs.ops[0].path, "x y");
	assert_int_equal(res.cs.ops[0].nhunks, 1);
	done(&res);
}

static void several_hunks_and_blank_between(void **state)
{
	result res;
	aa_op *op;

	(void)state;
	parse(&res, "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"
		    "@@ -10 +10 @@\n-c\n+d\n\n@@ -20 +20 @@\n-e\n+f\n\nbye\n");
	expect_ok(&res, 1, 1);
	op = res.cs.ops;
	assert_int_equal(op->nhunks, 3);
	assert_int_equal(op->hunks[1].pos.line, 6);
	assert_int_equal(op->hunks[2].pos.line, 10);
	expect_line(&op->hunks[2], 1, '+', "f");
	assert_int_equal(op->hunks[2].nlines, 2);
	done(&res);
}

/* ---- hunk bodies and counts ----------------------------------------- */

static void empty_line_is_context(void **state)
{
	result res;
	aa_hunk *h;

	(void)state;
	parse(&res, "--- a/x\n+++ b/x\n@@ -1,4 +1,4 @@\n a\n\n-b\n+c\n d\n");
	expect_ok(&res, 1, 1);
	h = &res.cs.ops[0].hunks[0];
	assert_int_equal(h->nlines, 5);
	expect_line(h, 1, ' ', "");
	assert_int_equal(h->count_mismatch, 0);
	done(&res);
}

static void blank_after_last_hunk_is_not_context(void **state)
{
	result res;
	aa_hunk *h;

	(void)state;
	parse(&res, "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\nSee above.\n");
	expect_ok(&res, 1, 1);
	h = &res.cs.ops[0].hunks[0];
	assert_int_equal(h->nlines, 3);
	assert_int_equal(h->count_mismatch, 0);
	done(&res);
}

static void short_body_is_recounted(void **state)
{
	result res;
	aa_hunk *h;

	(void)state;
	parse(&res, "--- a/x\n+++ b/x\n@@ -1,5 +1,6 @@\n a\n-b\n+c\n\n\nprose\n");
	expect_ok(&res, 1, 1);
	h = &res.cs.ops[0].hunks[0];
	assert_int_equal(h->nlines, 3); /* the blank lines are not context */
	assert_int_equal(h->count_mismatch, 1);
	expect_counts(h, 1, 2, 1, 2);
	done(&res);
}

static void long_body_is_recounted(void **state)
{
	result res;
	aa_hunk *h;

	(void)state;
	parse(&res, "--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-a\n+b\n c\n\n d\n+e\n\nbye\n");
	expect_ok(&res, 1, 1);
	h = &res.cs.ops[0].hunks[0];
	assert_int_equal(h->count_mismatch, 1);
	assert_int_equal(h->nlines, 6);
	expect_line(h, 3, ' ', "");
	expect_line(h, 5, '+', "e");
	expect_counts(h, 1, 4, 1, 5);
	done(&res);
}

static void dashes_inside_counted_hunk(void **state)
{
	result res;
	aa_hunk *h;

	(void)state;
	parse(&res, "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n--- x\n+++ y\n a\n");
	expect_ok(&res, 1, 1);
	h = &res.cs.ops[0].hunks[0];
	assert_int_equal(h->nlines, 3);
	expect_line(h, 0, '-', "-- x");
	expect_line(h, 1, '+', "++ y");
	assert_int_equal(h->count_mismatch, 0);
	done(&res);
}

static void next_file_stops_short_hunk(void **state)
{
	result res;

	(void)state;
	parse(&res, "--- a/x\n+++ b/x\n@@ -1,4 +1,4 @@\n-a\n+b\n"
		    "--- a/y\n+++ b/y\n@@ -1 +1 @@\n-c\n+d\n");
	expect_ok(&res, 2, 2);
	assert_int_equal(res.cs.ops[0].hunks[0].nlines, 2);
	assert_int_equal(res.cs.ops[0].hunks[0].count_mismatch, 1);
	assert_string_equal(res.cs.ops[1].path, "y");
	expect_line(&res.cs.ops[1].hunks[0], 1, '+', "d");
	done(&res);
}

static void mail_signature_is_not_a_hunk_line(void **state)
{
	result res;

	(void)state;
	parse(&res, "From 1234 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n---\n"
		    " x | 2 +-\n\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n"
		    "@@ -1 +1 @@\n-a\n+b\n-- \n2.40.0\n\n");
	expect_ok(&res, 1, 1);
	assert_int_equal(res.cs.ops[0].hunks[0].nlines, 2);
	assert_int_equal(res.cs.ops[0].hunks[0].count_mismatch, 0);
	done(&res);
}

static void no_newline_markers(void **state)
{
	result res;
	aa_hunk *h;

	(void)state;
	parse(&res, "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n"
		    "\\ No newline at end of file\n+c\n\\ No newline at end of file\n");
	expect_ok(&res, 1, 1);
	h = &res.cs.ops[0].hunks[0];
	assert_int_equal(h->nlines, 3);
	assert_int_equal(h->old_no_eol, 1);
	assert_int_equal(h->new_no_eol, 1);
	done(&res);

	parse(&res, "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n"
		    "\\ No newline at end of file\n");
	expect_ok(&res, 1, 1);
	h = &res.cs.ops[0].hunks[0];
	assert_int_equal(h->old_no_eol, 1);
	assert_int_equal(h->new_no_eol, 1);
	done(&res);

	parse(&res, "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"
		    "\\ No newline at end of file\n");
	expect_ok(&res, 1, 1);
	h = &res.cs.ops[0].hunks[0];
	assert_int_equal(h->old_no_eol, 0);
	assert_int_equal(h->new_no_eol, 1);
	done(&res);
}

/* ---- creation and deletion ----------------------------------------- */

static void plain_creation(void **state)
{
	result res;
	aa_op *op;

	(void)state;
	parse(&res, "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n");
	expect_ok(&res, 1, 1);
	op = res.cs.ops;
	assert_int_equal(op->kind, AA_OP_WRITE);
	assert_int_equal(op->exist, AA_EXIST_NEW);
	assert_string_equal(op->path, "new.txt");
	assert_int_equal(op->content_len, 4);
	assert_memory_equal(op->content, "x\ny\n", 4);
	assert_int_equal(op->mode, 0);
	done(&res);

	parse(&res, "--- /dev/null\n+++ b/n\n@@ -0,0 +1,2 @@\n+x\n+y\n"
		    "\\ No newline at end of file\n");
	expect_ok(&res, 1, 1);
	assert_int_equal(res.cs.ops[0].content_len, 3);
	assert_memory_equal(res.cs.ops[0].content, "x\ny", 3);
	done(&res);
}

static void git_creation(void **state)
{
	result res;
	aa_op *op;

	(void)state;
	parse(&res, "diff --git a/run.sh b/run.sh\nnew file mode 100755\n"
		    "index 0000000..1234567\n--- /dev/null\n+++ b/run.sh\n"
		    "@@ -0,0 +1 @@\n+#!/bin/sh\n");
	expect_ok(&res, 1, 1);
	op = res.cs.ops;
	assert_int_equal(op->kind, AA_OP_WRITE);
	assert_int_equal(op->mode, 0100755);
	assert_string_equal(op->content, "#!/bin/sh\n");
	done(&res);

	/* an empty new file: no hunk at all */
	parse(&res, "diff --git a/empty b/empty\nnew file mode 100644\n"
		    "index 0000000..e69de29\n");
	expect_ok(&res, 1, 1);
	op = res.cs.ops;
	assert_int_equal(op->kind, AA_OP_WRITE);
	assert_string_equal(op->path, "empty");
	assert_int_equal(op->content_len, 0);
	assert_int_equal(op->mode, 0100644);
	done(&res);
}

static void creation_with_context_is_an_error(void **state)
{
	result res;

	(void)state;
	parse(&res, "--- /dev/null\n+++ b/n\n@@ -0,0 +1,2 @@\n a\n+b\n");
	expect_error(&res, "may only add lines");
	done(&res);
	parse(&res, "--- /dev/null\n+++ /dev/null\n@@ -1 +1 @@\n-a\n+b\n");
	expect_error(&res, "both creates and deletes");
	done(&res);
}

static void deletion(void **state)
{
	result res;
	aa_op *op;

	(void)state;
	parse(&res, "--- a/old.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n");
	expect_ok(&res, 1, 1);
	op = res.cs.ops;
	assert_int_equal(op->kind, AA_OP_DELETE);
	assert_string_equal(op->path, "old.txt");
	assert_int_equal(op->edit_kind, AA_EDIT_HUNKS);
	assert_int_equal(op->nhunks, 1);
	expect_line(&op->hunks[0], 1, '-', "b");
	done(&res);

	parse(&res, "diff --git a/gone b/gone\ndeleted file mode 100644\n"
		    "index e69de29..0000000\n");
	expect_ok(&res, 1, 1);
	op = res.cs.ops;
	assert_int_equal(op->kind, AA_OP_DELETE);
	assert_string_equal(op->path, "gone");
	assert_int_equal(op->nhunks, 0);
	assert_int_equal(op->old_mode, 0100644);
	done(&res);

	parse(&res, "--- a/x\n+++ /dev/null\n@@ -1,2 +0,1 @@\n-a\n+b\n");
	expect_error(&res, "may only remove lines");
	done(&res);
}

/* ---- renames, copies, modes ---------------------------------------- */

static void rename_only(void **state)
{
	result res;
	aa_op *op;

	(void)state;
	parse(&res, "diff --git a/old/f.c b/new/f.c\nsimilarity index 100%\n"
		    "rename from old/f.c\nrename to new/f.c\n");
	expect_ok(&res, 1, 1);
	op = res.cs.ops;
	assert_int_equal(op->kind, AA_OP_RENAME);
	assert_string_equal(op->path, "old/f.c");
	assert_string_equal(op->to, "new/f.c");
	done(&res);
}

static void rename_with_hunks(void **state)
{
	result res;
	aa_op *op;

	(void)state;
	parse(&res, "diff --git a/a b/b\nsimilarity index 90%\nrename from a\n"
		    "rename to b\nindex 1..2 100644\n--- a/a\n+++ b/b\n"
		    "@@ -1 +1 @@\n-x\n+y\n");
	expect_ok(&res, 1, 2);
	op = res.cs.ops;
	assert_int_equal(op[0].kind, AA_OP_RENAME);
	assert_string_equal(op[0].path, "a");
	assert_string_equal(op[0].to, "b");
	assert_int_equal(op[1].kind, AA_OP_EDIT);
	assert_string_equal(op[1].path, "b");
	assert_int_equal(op[1].nhunks, 1);
	assert_int_equal(op[1].edit_kind, AA_EDIT_HUNKS);
	done(&res);
}

static void copy_with_mode(void **state)
{
	result res;
	aa_op *op;

	(void)state;
	parse(&res, "diff --git a/a b/c\nold mode 100644\nnew mode 100755\n"
		    "similarity index 100%\ncopy from a\ncopy to c\n");
	expect_ok(&res, 1, 2);
	op = res.cs.ops;
	assert_int_equal(op[0].kind, AA_OP_COPY);
	assert_string_equal(op[0].to, "c");
	assert_int_equal(op[1].kind, AA_OP_EDIT);
	assert_string_equal(op[1].path, "c");
	assert_int_equal(op[1].edit_kind, AA_EDIT_NONE);
	assert_int_equal(op[1].mode, 0100755);
	done(&res);
}

static void mode_change_only(void **state)
{
	result res;
	aa_op *op;

	(void)state;
	parse(&res, "diff --git a/my file b/my file\nold mode 100644\nnew mode 100755\n");
	expect_ok(&res, 1, 1);
	op = res.cs.ops;
	assert_int_equal(op->kind, AA_OP_EDIT);
	assert_string_equal(op->path, "my file");
	assert_int_equal(op->edit_kind, AA_EDIT_NONE);
	assert_int_equal(op->mode, 0100755);
	assert_int_equal(op->old_mode, 0100644);
	done(&res);

	parse(&res, "diff --git a/x b/x\nold mode 10x644\nnew mode 100755\n");
	expect_error(&res, "invalid mode");
	done(&res);
}

static void quoted_paths(void **state)
{
	result res;

	(void)state;
	parse(&res, "diff --git \"a/f\\303\\266o\" \"b/f\\303\\266o\"\n"
		    "--- \"a/f\\303\\266o\"\n+++ \"b/f\\303\\266o\"\n"
		    "@@ -1 +1 @@\n-a\n+b\n");
	expect_ok(&res, 1, 1);
	assert_string_equal(res.cs.ops[0].path, "f\303\266o");
	done(&res);

	parse(&res, "diff --git a/q\"x b/q\"x\nold mode 100644\nnew mode 100755\n");
	expect_ok(&res, 1, 1);
	done(&res);

	parse(&res, "diff --git \"a/sp \\\"q\\\"\" \"b/sp \\\"q\\\"\"\n"
		    "old mode 100644\nnew mode 100755\n");
	expect_ok(&res, 1, 1);
	assert_string_equal(res.cs.ops[0].path, "sp \"q\"");
	done(&res);

	/* a backslash decodes fine but is refused by the path check */
	parse(&res, "--- \"a/b\\\\s\"\n+++ \"b/b\\\\s\"\n@@ -1 +1 @@\n-a\n+b\n");
	expect_error(&res, "backslash");
	done(&res);

	/* a tab or newline in a name: decoded, then refused by the path check */
	parse(&res, "--- \"a/t\\tx\"\n+++ \"b/t\\tx\"\n@@ -1 +1 @@\n-a\n+b\n");
	expect_error(&res, "control character");
	done(&res);
	parse(&res, "--- \"a/n\\nx\"\n+++ \"b/n\\nx\"\n@@ -1 +1 @@\n-a\n+b\n");
	expect_error(&res, "control character");
	done(&res);
	parse(&res, "--- \"a/x\\000y\"\n+++ \"b/x\\000y\"\n@@ -1 +1 @@\n-a\n+b\n");
	expect_error(&res, "control character");
	done(&res);
	parse(&res, "--- \"a/unterminated\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
	expect_error(&res, "malformed quoted");
	done(&res);
}

/* ---- unsupported constructs ---------------------------------------- */

static void binary_patches(void **state)
{
	result res;
	const aa_diag *dg;

	(void)state;
	parse(&res, "diff --git a/i.png b/i.png\nindex 1..2 100644\n"
		    "GIT binary patch\nliteral 0\nHcmV?d00001\n\n");
	expect_error(&res, "cannot apply binary patch without full index line");
	dg = find_diag(&res, AA_DIAG_ERROR, "binary");
	assert_string_equal(dg->path, "i.png");
	assert_int_equal(dg->line, 3);
	done(&res);

	parse(&res, "Binary files a/x.png and b/x.png differ\n");
	expect_error(&res, "without full index line");
	assert_string_equal(find_diag(&res, AA_DIAG_ERROR, "binary")->path, "x.png");
	done(&res);
}

static void combined_and_context_diffs(void **state)
{
	result res;

	(void)state;
	parse(&res, "diff --cc f.c\nindex 1,2..3\n@@@ -1,1 -1,1 +1,1 @@@\n");
	expect_error(&res, "combined diffs");
	done(&res);
	parse(&res, "--- a/x\n+++ b/x\n@@@ -1,1 -1,1 +1,1 @@@\n- a\n");
	expect_error(&res, "combined diffs");
	done(&res);
	parse(&res, "*** a/x\t2024\n--- b/x\t2024\n***************\n*** 1 ****\n");
	expect_error(&res, "context diffs");
	done(&res);
}

/* ---- bare hunks and one-path diffs --------------------------------- */

static void bare_hunks_for_only_path(void **state)
{
	result res;
	aa_op *op;

	(void)state;
	parse_only(&res, "@@\n a\n-b\n+c\n@@ def f(): @@\n x\n-y\n", "src/x.py");
	expect_ok(&res, 1, 1);
	op = res.cs.ops;
	assert_int_equal(op->kind, AA_OP_EDIT);
	assert_string_equal(op->path, "src/x.py");
	assert_int_equal(op->pos.line, 1);
	assert_int_equal(op->nhunks, 2);
	assert_int_equal(op->hunks[0].has_hint, 0);
	assert_int_equal(op->hunks[0].old_count, 2);
	assert_int_equal(op->hunks[0].new_count, 2);
	assert_int_equal(op->hunks[0].count_mismatch, 0);
	assert_null(op->hunks[0].section);
	assert_string_equal(op->hunks[1].section, "def f():");
	assert_int_equal(op->hunks[1].nlines, 2);
	done(&res);
}

static void bare_hunk_after_plain_header(void **state)
{
	result res;

	(void)state;
	parse(&res, "--- a/x\n+++ b/x\n@@ @@\n a\n-b\n+c\n\nThat is all.\n");
	expect_ok(&res, 1, 1);
	assert_int_equal(res.cs.ops[0].hunks[0].has_hint, 0);
	assert_int_equal(res.cs.ops[0].hunks[0].nlines, 3);
	done(&res);
}

/* "@@ -a,b +c,d" with the closing "@@" forgotten: outside --strict only. */
static void header_without_closing_at_signs(void **state)
{
	result res;

	(void)state;
	parse(&res, "--- a/x\n+++ b/x\n@@ -2,2 +2,2\n a\n-b\n+c\n");
	expect_ok(&res, 1, 1);
	assert_int_equal(res.cs.ops[0].hunks[0].has_hint, 1);
	assert_int_equal(res.cs.ops[0].hunks[0].old_start, 2);
	assert_int_equal(res.cs.ops[0].hunks[0].nlines, 3);
	done(&res);
	/* something else after the counts is still malformed */
	parse(&res, "--- a/x\n+++ b/x\n@@ -2,2 +2,2 x\n a\n-b\n+c\n");
	expect_error(&res, "closing '@@'");
	done(&res);
	parse_strict(&res, "--- a/x\n+++ b/x\n@@ -2,2 +2,2\n a\n-b\n+c\n");
	expect_error(&res, "closing '@@'");
	done(&res);
}

static void orphan_hunk_is_an_error(void **state)
{
	result res;

	(void)state;
	parse(&res, "Change this:\n@@ -1 +1 @@\n-a\n+b\n");
	expect_error(&res, "hunk without a file header");
	done(&res);
	parse(&res, "@@");
	expect_error(&res, "hunk without a file header");
	done(&res);
	parse_only(&res, "@@", "x");
	expect_error(&res, "hunk has no lines");
	done(&res);
}

static void only_path_overrides_header(void **state)
{
	result res;

	(void)state;
	parse_only(&res, "--- a/other\n+++ b/other\n@@ -1 +1 @@\n-a\n+b\n", "mine");
	expect_ok(&res, 1, 1);
	assert_string_equal(res.cs.ops[0].path, "mine");
	assert_non_null(find_diag(&res, AA_DIAG_WARNING, "other"));
	done(&res);

	parse_only(&res, "--- a/mine\n+++ b/mine\n@@ -1 +1 @@\n-a\n+b\n", "mine");
	expect_ok(&res, 1, 1);
	assert_int_equal(res.d.n, 0);
	done(&res);

	parse_only(&res, "--- /dev/null\n+++ b/whatever\n@@ -0,0 +1 @@\n+n\n", "mine");
	expect_ok(&res, 1, 1);
	assert_int_equal(res.cs.ops[0].kind, AA_OP_WRITE);
	assert_string_equal(res.cs.ops[0].path, "mine");
	done(&res);

	parse_only(&res, "--- a/mine\n+++ /dev/null\n@@ -1 +0,0 @@\n-n\n", "mine");
	expect_ok(&res, 1, 1);
	assert_int_equal(res.cs.ops[0].kind, AA_OP_DELETE);
	done(&res);
}

/* ---- paths and limits ---------------------------------------------- */

static void bad_paths(void **state)
{
	result res;
	const aa_diag *dg;

	(void)state;
	parse(&res, "--- a/../etc/passwd\n+++ b/../etc/passwd\n@@ -1 +1 @@\n-a\n+b\n");
	expect_error(&res, "'..' component");
	dg = find_diag(&res, AA_DIAG_ERROR, "'..'");
	assert_string_equal(dg->path, "../etc/passwd");
	assert_int_equal(dg->line, 1);
	done(&res);
	parse(&res, "--- a/.git/config\n+++ b/.git/config\n@@ -1 +1 @@\n-a\n+b\n");
	expect_error(&res, ".git");
	done(&res);
	/* absolute: parsed whole; the planner takes it relative or refuses it */
	parse(&res, "--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-a\n+b\n");
	assert_int_equal(res.r, 1);
	assert_string_equal(res.cs.ops[0].path, "/etc/passwd");
	done(&res);
	parse(&res, "--- /etc/../passwd\n+++ /etc/../passwd\n@@ -1 +1 @@\n-a\n+b\n");
	expect_error(&res, "invalid path");
	done(&res);
	/* the path is checked before the hunks are read */
	parse(&res, "--- a/../x\n+++ b/../x\n@@ -1,x +1 @@\n");
	expect_error(&res, "'..' component");
	done(&res);
	parse(&res, "diff --git a/a b/b\nrename from a\nrename to ../b\n");
	expect_error(&res, "'..' component");
	done(&res);
}

static void huge_numbers_and_bad_headers(void **state)
{
	result res;

	(void)state;
	parse(&res, "--- a/x\n+++ b/x\n@@ -1,99999999999999999999 +1 @@\n-a\n");
	expect_error(&res, "out of range");
	done(&res);
	parse(&res, "--- a/x\n+++ b/x\n@@ -1,2 +1,2 -a\n-a\n");
	expect_error(&res, "malformed hunk header");
	done(&res);
	parse(&res, "--- a/x\n+++ b/x\n@@ -a +1 @@\n-a\n");
	expect_error(&res, "malformed hunk header");
	done(&res);
	parse(&res, "--- a/x\n+++ b/x\n");
	expect_error(&res, "no hunk");
	done(&res);
	parse(&res, "--- a/x\n+++ b/x\nprose\n");
	expect_error(&res, "no hunk");
	done(&res);
	parse(&res, "diff --git a/x b/x\n");
	expect_error(&res, "changes nothing");
	done(&res);
	parse(&res, "diff --git a/x b/x\n--- a/x\nprose\n");
	expect_error(&res, "without '+++ '");
	done(&res);
}

static void line_too_long(void **state)
{
	size_t n = AA_MAX_LINE_LENGTH + 10, hl = 32;
	char *text = malloc(hl + n + 2);
	result res;

	(void)state;
	assert_non_null(text);
	memcpy(text, "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+", hl);
	memset(text + hl, 'z', n);
	text[hl + n] = '\n';
	parse_n(&res, text, hl + n + 1, NULL, 0);
	expect_error(&res, "line too long");
	done(&res);
	free(text);
}

static void error_rolls_back_earlier_files(void **state)
{
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_diags d = AA_DIAGS_INIT;
	const char *t = "--- a/ok\n+++ b/ok\n@@ -1 +1 @@\n-a\n+b\n"
			"--- a/../bad\n+++ b/../bad\n@@ -1 +1 @@\n-a\n+b\n";
	aa_block b = { &input, t, strlen(t), 1, NULL };
	aa_op *keep;

	(void)state;
	keep = aa_changeset_add(&cs, AA_OP_DELETE, (aa_pos){ "x", 1 });
	assert_non_null(keep);
	keep->path = aa_strdup("kept");
	assert_int_equal(aa_parse_diff(&b, NULL, NULL, &cs, &d), -1);
	assert_int_equal(cs.n, 1);
	assert_string_equal(cs.ops[0].path, "kept");
	aa_changeset_free(&cs);
	aa_diags_free(&d);
}

/* ---- --strict (seed 004) ------------------------------------------- */

#define GOOD "--- a/src/f.cs\n+++ b/src/f.cs\n@@ -10,3 +10,3 @@\n a\n-b\n+c\n d\n"

static void strict_accepts_the_contract(void **state)
{
	result res;

	(void)state;
	parse_strict(&res, GOOD);
	expect_ok(&res, 1, 1);
	assert_int_equal(res.cs.ops[0].strict, 1);
	assert_string_equal(res.cs.ops[0].path, "src/f.cs");
	done(&res);

	parse_strict(&res, "--- /dev/null\n+++ b/n.cs\n@@ -0,0 +1,1 @@\n+x\n");
	expect_ok(&res, 1, 1);
	assert_int_equal(res.cs.ops[0].kind, AA_OP_WRITE);
	assert_int_equal(res.cs.ops[0].strict, 1);
	done(&res);

	parse_strict(&res, "--- a/old.cs\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n");
	expect_ok(&res, 1, 1);
	assert_int_equal(res.cs.ops[0].kind, AA_OP_DELETE);
	done(&res);

	/* count disagreement is flagged for the hunk engine, not rejected */
	parse_strict(&res, "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n-a\n+b\n");
	expect_ok(&res, 1, 1);
	assert_int_equal(res.cs.ops[0].hunks[0].count_mismatch, 1);
	done(&res);
}

/*
 * Errors found by offset (a NUL byte, the missing last newline) name
 * the input line, counted from the block's first line.
 */
static void strict_offset_errors_name_the_line(void **state)
{
	static const char nul[] = "--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-a\n+b\0c\n";
	static const char nonl[] = "--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-a\n+b";
	aa_parse_opts o = { .format = AA_FORMAT_DIFF, .strict = 1 };
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_diags d = AA_DIAGS_INIT;
	aa_block b = { &input, nul, sizeof(nul) - 1, 7, NULL };
	const aa_diag *g;
	result res;

	(void)state;
	assert_int_equal(aa_parse_diff(&b, &o, NULL, &cs, &d), -1);
	res.d = d;
	g = find_diag(&res, AA_DIAG_ERROR, "NUL bytes");
	assert_non_null(g);
	assert_int_equal(g->line, 11);
	aa_diags_free(&d);
	aa_changeset_free(&cs);

	b.data = nonl;
	b.len = sizeof(nonl) - 1;
	assert_int_equal(aa_parse_diff(&b, &o, NULL, &cs, &d), -1);
	res.d = d;
	g = find_diag(&res, AA_DIAG_ERROR, "trailing newline");
	assert_non_null(g);
	assert_int_equal(g->line, 11);
	aa_diags_free(&d);
	aa_changeset_free(&cs);
}

static void strict_forbidden_constructs(void **state)
{
	static const struct { const char *text; const char *msg; } cases[] = {
		{ "```diff\n" GOOD "```\n",
		  "forbidden construct: Markdown code fences (``` or `)" },
		{ "`" GOOD, "forbidden construct: Markdown code fences" },
		{ "diff --git a/src/f.cs b/src/f.cs\n" GOOD,
		  "forbidden construct: Git-specific headers (diff --git)" },
		{ "index 1234567..89abcde 100644\n" GOOD,
		  "forbidden construct: Git-specific headers (diff --git)" },
		{ GOOD "\x1b[32m+x\x1b[0m\n", "forbidden construct: ANSI color codes" },
		{ GOOD "Binary files a/x and b/x differ\n",
		  "forbidden construct: Binary diff markers" },
		{ "diff --cc f\n", "forbidden construct: Combined diff format" },
		{ "--- a/x\n+++ b/x\n@@@ -1 -1 +1 @@@\n",
		  "forbidden construct: Combined diff format" },
		{ "*** a/x\n--- b/x\n***************\n",
		  "forbidden construct: Context diff format (*** / ---)" },
	};
	size_t i;
	result res;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		parse_strict(&res, cases[i].text);
		expect_error(&res, cases[i].msg);
		done(&res);
	}
}

static void strict_nul_bytes(void **state)
{
	static const char t[] = "--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-a\n+b\0c\n";
	result res;

	(void)state;
	parse_n(&res, t, sizeof(t) - 1, NULL, 1);
	expect_error(&res, "forbidden construct: NUL bytes");
	assert_int_equal(res.d.v[0].line, 5);
	done(&res);
}

static void strict_paths(void **state)
{
	result res;

	(void)state;
	parse_strict(&res, "--- a/../x\n+++ b/../x\n@@ -1,1 +1,1 @@\n-a\n+b\n");
	expect_error(&res, "Path traversal detected");
	done(&res);
	parse_strict(&res, "--- /home/u/x\n+++ /home/u/x\n@@ -1,1 +1,1 @@\n-a\n+b\n");
	expect_error(&res, "Path outside project root");
	done(&res);
	parse_strict(&res, "--- C:\\x\n+++ C:\\x\n@@ -1,1 +1,1 @@\n-a\n+b\n");
	expect_error(&res, "Path outside project root");
	done(&res);
	parse_strict(&res, "--- \\\\server\\x\n+++ \\\\server\\x\n@@ -1,1 +1,1 @@\n-a\n+b\n");
	expect_error(&res, "Path outside project root");
	done(&res);
	parse_strict(&res, "--- a//etc/x\n+++ b//etc/x\n@@ -1,1 +1,1 @@\n-a\n+b\n");
	expect_error(&res, "Path outside project root");
	done(&res);
}

static void strict_invalid_format(void **state)
{
	static const struct { const char *text; const char *msg; } cases[] = {
		{ "Here is the diff:\n" GOOD, "Invalid unified diff format" },
		{ GOOD "Hope this helps.\n", "Invalid unified diff format" },
		{ "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
		  "Invalid unified diff format: hunk header without line counts" },
		{ "--- a/x\n+++ b/x\n@@\n-a\n+b\n",
		  "Invalid unified diff format: bare @@" },
		{ "--- x\n+++ x\n@@ -1,1 +1,1 @@\n-a\n+b\n",
		  "Invalid unified diff format: header must be '--- a/<path>'" },
		{ "--- a/x\n+++ x\n@@ -1,1 +1,1 @@\n-a\n+b\n",
		  "Invalid unified diff format: header must be '+++ b/<path>'" },
		{ "--- a/x\t2024-01-01\n+++ b/x\n@@ -1,1 +1,1 @@\n-a\n+b\n",
		  "Invalid unified diff format" },
		{ "--- a/x\n+++ b/y\n@@ -1,1 +1,1 @@\n-a\n+b\n",
		  "Invalid unified diff format: old and new paths differ" },
		{ "--- a/x\n+++ b/x\n", "Invalid unified diff format: no hunk" },
		{ "just prose\n", "Invalid unified diff format" },
		{ "", "Invalid unified diff format" },
		{ "@@ -1,1 +1,1 @@\n-a\n+b\n", "Invalid unified diff format" },
		{ GOOD "--- a/y\n+++ b/y\n@@ -1,1 +1,1 @@\n-a\n+b\n",
		  "Multiple files in single diff" },
		{ "--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-a\n+b", "Missing trailing newline" },
	};
	size_t i;
	result res;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		parse_strict(&res, cases[i].text);
		expect_error(&res, cases[i].msg);
		done(&res);
	}
}

/* Seed 004 order: format checks first, then paths. */
static void strict_validation_order(void **state)
{
	result res;

	(void)state;
	parse_strict(&res, "--- a/../x\n+++ b/../x\n@@ -1,1 +1,1 @@\n-a\n+b\nprose\n");
	expect_error(&res, "Invalid unified diff format");
	assert_null(find_diag(&res, AA_DIAG_ERROR, "traversal"));
	done(&res);
	parse_strict(&res, "--- a/../x\n+++ b/../x\n@@ -1,1 +1,1 @@\n-a\n+b");
	expect_error(&res, "Missing trailing newline");
	done(&res);
	parse_strict(&res, "--- a/../x\n+++ b/../x\n@@ -1,1 +1,1 @@\n-a\n+b\n"
			   "--- a/y\n+++ b/y\n@@ -1,1 +1,1 @@\n-a\n+b\n");
	expect_error(&res, "Multiple files in single diff");
	done(&res);
	parse_strict(&res, "```\n--- a/../x\n+++ b/../x\n");
	expect_error(&res, "Markdown code fences");
	done(&res);
}

/* ---- robustness ---------------------------------------------------- */

static void run_all_modes(const char *t, size_t len)
{
	static const char *const only[] = { NULL, "f.c" };
	size_t s, k;

	for (s = 0; s < 2; s++)
		for (k = 0; k < 2; k++) {
			result res;

			parse_n(&res, t, len, only[k], (int)s);
			assert_true(res.r >= -1);
			if (res.r < 0) {
				assert_true(res.d.nerrors > 0);
				assert_int_equal(res.cs.n, 0);
			}
			done(&res);
		}
}

/* ---- issue 19's leftovers: git's hunk, /dev/null and score rules ---- */

/* git's parse_fragment reads only "@@ -" lines: "@@ +1 0,0 @@" ends the hunks. */
static void plus_first_header_ends_the_hunks(void **state)
{
	result res;

	(void)state;
	parse(&res, "diff --git a/x b/x\n"
		    "--- a/x\n+++ b/x\n"
		    "@@ -1 +1 @@\n-a\n+b\n"
		    "@@ +7 1,1 @@\n+not a hunk\n");
	assert_int_equal(res.r, 1);
	assert_int_equal(res.cs.n, 1);
	assert_int_equal(res.cs.ops[0].nhunks, 1);
	done(&res);
	/* a git deletion needs no hunk: Subversion's empty-file deletion */
	parse(&res, "diff --git a/branches/Makefile\n"
		    "deleted file mode 100644\n"
		    "--- a/Makefile\t(revision 13)\n"
		    "+++ /dev/null\t(nonexistent)\n"
		    "@@ +1 0,0 @@\n-\n");
	assert_int_equal(res.r, 1);
	assert_int_equal(res.cs.n, 1);
	assert_int_equal(res.cs.ops[0].kind, AA_OP_DELETE);
	assert_int_equal(res.cs.ops[0].nhunks, 0);
	done(&res);
	/* a plain diff whose only "@@" line is no header: refused */
	parse(&res, "--- a/x\n+++ b/x\n@@ +1 0,0 @@\n-a\n");
	expect_error(&res, "no hunk after");
	done(&res);
	/* the bare "@@" stays a hunk (located by content) */
	parse(&res, "--- a/x\n+++ b/x\n@@\n-a\n+b\n");
	assert_int_equal(res.r, 1);
	assert_int_equal(res.cs.ops[0].nhunks, 1);
	done(&res);
}

/* git's is_dev_null: "/dev/null" then a blank; glued to more text: refused. */
static void dev_null_as_git_reads_it(void **state)
{
	result res;

	(void)state;
	parse(&res, "--- a/x\n+++ /dev/null  (nonexistent)\n@@ -1 +0,0 @@\n-a\n");
	assert_int_equal(res.r, 1);
	assert_int_equal(res.cs.ops[0].kind, AA_OP_DELETE);
	done(&res);
	parse(&res, "--- a/x\n+++ /dev/null+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
	expect_error(&res, "/dev/null runs into other text");
	assert_non_null(find_diag(&res, AA_DIAG_ERROR, "'+++'"));
	done(&res);
}

/* A git rename's "similarity index N%" is kept for the reports. */
static void similarity_index_is_kept(void **state)
{
	result res;

	(void)state;
	parse(&res, "diff --git a/x b/y\nsimilarity index 87%\n"
		    "rename from x\nrename to y\n");
	assert_int_equal(res.r, 1);
	assert_int_equal(res.cs.ops[0].kind, AA_OP_RENAME);
	assert_int_equal(res.cs.ops[0].has_similarity, 1);
	assert_int_equal(res.cs.ops[0].similarity, 87);
	done(&res);
	parse(&res, "diff --git a/x b/y\nsimilarity index 870%\n"
		    "rename from x\nrename to y\n");
	assert_int_equal(res.r, 1);
	assert_int_equal(res.cs.ops[0].has_similarity, 0);
	done(&res);
}

static void every_truncation(void **state)
{
	static const char t[] =
		"Intro\n```diff\ndiff --git \"a/q\\303\\266\" b/q\\303\\266\n"
		"new file mode 100644\n--- /dev/null\n+++ b/x\n@@ -0,0 +1,2 @@\n+a\n+b\n"
		"diff --git a/r b/s\nold mode 100644\nnew mode 100755\nrename from r\n"
		"rename to s\n--- a/r\n+++ b/s\n@@ -1,3 +1,3 @@ sec\n a\n-b\n"
		"\\ No newline at end of file\n+c\n\n@@ -9 +9 @@\n-d\n+e\n```\n"
		"--- a/y\t2020\n+++ b/y\n@@\n x\n-y\n+z\n@@ -1,99999999999 +1 @@\n"
		"--- a/z\n+++ /dev/null\n@@ -1 +0,0 @@\n-q\nBinary files a and b differ\n";
	size_t n;

	(void)state;
	for (n = 0; n <= sizeof(t) - 1; n++)
		run_all_modes(t, n);
}

static void random_garbage(void **state)
{
	static const char alphabet[] = "@@ -+\\\n\n\"ab/01,\r\tdiff --git ***~`\x1b\0";
	unsigned long x = 12345;
	char buf[400];
	size_t i, n, iter;

	(void)state;
	for (iter = 0; iter < 3000; iter++) {
		n = iter % sizeof(buf);
		for (i = 0; i < n; i++) {
			x = x * 6364136223846793005UL + 1442695040888963407UL;
			buf[i] = iter % 3 ? alphabet[(x >> 33) % (sizeof(alphabet) - 1)]
					  : (char)(x >> 40);
		}
		run_all_modes(buf, n);
	}
}

static void many_blank_lines_is_linear(void **state)
{
	size_t n = 2000000, hl = 32;
	char *t = malloc(hl + n + 8);

	(void)state;
	assert_non_null(t);
	memcpy(t, "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+", hl);
	t[hl] = '\n';
	memset(t + hl + 1, '\n', n);
	memcpy(t + hl + 1 + n, "@@\n", 3);
	run_all_modes(t, hl + n + 4);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_edit),
		cmocka_unit_test(counts_default_to_one),
		cmocka_unit_test(no_prefix_and_timestamps),
		cmocka_unit_test(old_and_new_names_differ),
		cmocka_unit_test(timestamps_after_spaces),
		cmocka_unit_test(suffixed_new_name_uses_the_old),
		cmocka_unit_test(epoch_side_is_absent),
		cmocka_unit_test(near_epoch_is_a_date),
		cmocka_unit_test(git_names_must_agree),
		cmocka_unit_test(git_names_that_agree),
		cmocka_unit_test(any_first_component_is_a_prefix),
		cmocka_unit_test(strict_refuses_spaced_timestamps),
		cmocka_unit_test(crlf_line_endings),
		cmocka_unit_test(in_prose_and_fences),
		cmocka_unit_test(indented_fence),
		cmocka_unit_test(no_diff_is_not_an_error),
		cmocka_unit_test(many_git_files),
		cmocka_unit_test(git_hunks_without_names),
		cmocka_unit_test(several_hunks_and_blank_between),
		cmocka_unit_test(empty_line_is_context),
		cmocka_unit_test(blank_after_last_hunk_is_not_context),
		cmocka_unit_test(short_body_is_recounted),
		cmocka_unit_test(long_body_is_recounted),
		cmocka_unit_test(dashes_inside_counted_hunk),
		cmocka_unit_test(next_file_stops_short_hunk),
		cmocka_unit_test(mail_signature_is_not_a_hunk_line),
		cmocka_unit_test(no_newline_markers),
		cmocka_unit_test(plain_creation),
		cmocka_unit_test(git_creation),
		cmocka_unit_test(creation_with_context_is_an_error),
		cmocka_unit_test(deletion),
		cmocka_unit_test(rename_only),
		cmocka_unit_test(rename_with_hunks),
		cmocka_unit_test(copy_with_mode),
		cmocka_unit_test(mode_change_only),
		cmocka_unit_test(quoted_paths),
		cmocka_unit_test(binary_patches),
		cmocka_unit_test(combined_and_context_diffs),
		cmocka_unit_test(bare_hunks_for_only_path),
		cmocka_unit_test(bare_hunk_after_plain_header),
		cmocka_unit_test(header_without_closing_at_signs),
		cmocka_unit_test(orphan_hunk_is_an_error),
		cmocka_unit_test(only_path_overrides_header),
		cmocka_unit_test(bad_paths),
		cmocka_unit_test(huge_numbers_and_bad_headers),
		cmocka_unit_test(line_too_long),
		cmocka_unit_test(error_rolls_back_earlier_files),
		cmocka_unit_test(strict_accepts_the_contract),
		cmocka_unit_test(strict_forbidden_constructs),
		cmocka_unit_test(strict_offset_errors_name_the_line),
		cmocka_unit_test(strict_nul_bytes),
		cmocka_unit_test(strict_paths),
		cmocka_unit_test(strict_invalid_format),
		cmocka_unit_test(strict_validation_order),
		cmocka_unit_test(plus_first_header_ends_the_hunks),
		cmocka_unit_test(dev_null_as_git_reads_it),
		cmocka_unit_test(similarity_index_is_kept),
		cmocka_unit_test(every_truncation),
		cmocka_unit_test(random_garbage),
		cmocka_unit_test(many_blank_lines_is_linear),
	};
	return AA_RUN_TESTS(tests);
}
