/* An answer's alternatives: where one answer is cut into several change sets. */
#include "unit.h"
#include "parse-fixture.h"

#include <stdio.h>
#include <stdlib.h>

#include "format/alternatives.h"

/* Parses `text` (auto-detected) and splits it; returns the split's result. */
static int split_answer(fixture *f, const char *text, aa_alternatives *alt)
{
	int r;

	if (parse(f, text, AA_FORMAT_AUTO) < 0 || f->d.nerrors) {
		dump(f);
		fail_msg("the answer does not parse");
	}
	*alt = (aa_alternatives)AA_ALTERNATIVES_INIT;
	r = aa_split_alternatives(&f->cs, alt, &f->d);
	if (r < 2)
		assert_int_equal(alt->n, 0);
	else
		assert_int_equal(alt->n, (size_t)r);
	return r;
}

/* The one note of the split (the diagnostics hold nothing else). */
static const char *note(const fixture *f)
{
	const aa_diag *g = &f->d.v[f->d.n - 1];

	assert_true(f->d.n > 0);
	assert_int_equal(g->level, AA_DIAG_NOTE);
	assert_string_equal(g->input, "answer.md");
	assert_int_equal(g->line, 0);
	assert_null(g->path);
	return g->msg;
}

static void no_note(const fixture *f)
{
	size_t i;

	for (i = 0; i < f->d.n; i++)
		assert_int_not_equal(f->d.v[i].level, AA_DIAG_NOTE);
}

static void assert_same_hunk(const aa_hunk *a, const aa_hunk *b)
{
	size_t k;

	assert_int_equal(a->pos.line, b->pos.line);
	assert_int_equal(a->has_hint, b->has_hint);
	assert_int_equal(a->old_start, b->old_start);
	assert_int_equal(a->old_count, b->old_count);
	assert_int_equal(a->new_start, b->new_start);
	assert_int_equal(a->new_count, b->new_count);
	assert_int_equal(a->at_eof, b->at_eof);
	if (a->section || b->section)
		assert_string_equal(a->section, b->section);
	assert_int_equal(a->nlines, b->nlines);
	for (k = 0; k < a->nlines; k++) {
		assert_int_equal(a->lines[k].kind, b->lines[k].kind);
		assert_int_equal(a->lines[k].len, b->lines[k].len);
		assert_memory_equal(a->lines[k].text, b->lines[k].text, a->lines[k].len);
		assert_ptr_not_equal(a->lines[k].text, b->lines[k].text);
	}
}

static void assert_same_str(const char *a, const char *b)
{
	if (!a || !b) {
		assert_ptr_equal(a, b);
		return;
	}
	assert_string_equal(a, b);
	assert_ptr_not_equal(a, b);
}

static void assert_same_apmod(const aa_apmod *a, const aa_apmod *b)
{
	assert_int_equal(a->action, b->action);
	assert_same_str(a->snippet, b->snippet);
	assert_same_str(a->start_snippet, b->start_snippet);
	assert_same_str(a->end_snippet, b->end_snippet);
	assert_same_str(a->anchor, b->anchor);
	assert_same_str(a->content, b->content);
	assert_int_equal(a->leading_blank_lines, b->leading_blank_lines);
	assert_int_equal(a->trailing_blank_lines, b->trailing_blank_lines);
}

/* A copy equal to the parsed op and sharing no allocation with it. */
static void assert_copy(const aa_op *a, const aa_op *b)
{
	size_t k;

	assert_int_equal(a->kind, b->kind);
	assert_ptr_equal(a->pos.input, b->pos.input);
	assert_int_equal(a->pos.line, b->pos.line);
	assert_string_equal(a->path, b->path);
	assert_ptr_not_equal(a->path, b->path);
	if (a->to || b->to)
		assert_string_equal(a->to, b->to);
	assert_int_equal(a->content_len, b->content_len);
	if (a->content) {
		assert_ptr_not_equal(a->content, b->content);
		assert_memory_equal(a->content, b->content, a->content_len);
	}
	assert_int_equal(a->exist, b->exist);
	assert_int_equal(a->mode, b->mode);
	assert_int_equal(a->may_be_excerpt, b->may_be_excerpt);
	assert_int_equal(a->label_line_len, b->label_line_len);
	assert_int_equal(a->edit_kind, b->edit_kind);
	assert_ptr_equal(a->format, b->format);
	assert_string_equal(a->base_blob, b->base_blob);
	if (a->edit_kind == AA_EDIT_REPLACEMENTS) {
		assert_int_equal(a->nrepls, b->nrepls);
		for (k = 0; k < a->nrepls; k++) {
			assert_int_equal(a->repls[k].find_len, b->repls[k].find_len);
			assert_memory_equal(a->repls[k].find, b->repls[k].find,
					    a->repls[k].find_len);
			assert_memory_equal(a->repls[k].replace, b->repls[k].replace,
					    a->repls[k].replace_len);
		}
	} else if (a->edit_kind == AA_EDIT_AP) {
		assert_int_equal(a->napmods, b->napmods);
		assert_int_equal(a->strip_trailing_ws, b->strip_trailing_ws);
		for (k = 0; k < a->napmods; k++)
			assert_same_apmod(&a->apmods[k], &b->apmods[k]);
	} else {
		assert_int_equal(a->nhunks, b->nhunks);
		for (k = 0; k < a->nhunks; k++)
			assert_same_hunk(&a->hunks[k], &b->hunks[k]);
	}
}

/* Alternative `a` is the parsed ops whose indexes are listed (-1 ends). */
static void assert_alt(const fixture *f, const aa_alternatives *alt, size_t a,
		       const int *ops)
{
	size_t i;

	assert_true(a < alt->n);
	for (i = 0; ops[i] >= 0; i++) {
		assert_true(i < alt->sets[a].n);
		assert_copy(&alt->sets[a].ops[i], &f->cs.ops[ops[i]]);
	}
	assert_int_equal(alt->sets[a].n, i);
}

static void release_all(fixture *f, aa_alternatives *alt)
{
	aa_alternatives_free(alt);
	release(f);
}

/* ---- one path written whole twice, in each format ---- */

static void whole_file_fences(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"Option 1, a loop:\n"  /* a whole-file write is at its first line */
		"\n"
		"`x.py`\n"
		"```python\n"
		"for i in range(3): print(i)\n"
		"```\n"
		"\n"
		"Option 2, a comprehension:\n"
		"\n"
		"`x.py`\n"
		"```python\n"
		"[print(i) for i in range(3)]\n"
		"```\n", &alt), 2);
	assert_alt(&f, &alt, 0, (const int[]){ 0, -1 });
	assert_alt(&f, &alt, 1, (const int[]){ 1, -1 });
	assert_string_equal(note(&f),
		"2 alternatives (line 5, line 12): the path x.py is written whole "
		"again at line 12 (first at line 5); each is a suggestion of its own");
	release_all(&f, &alt);
}

/* Blocks named by their first-line comment: the label's length is copied. */
static void whole_file_comment_labels(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"```python\n# x.py\nprint(1)\n```\n"
		"or\n"
		"```python\n# x.py\nprint(2)\n```\n", &alt), 2);
	assert_int_equal(alt.sets[1].ops[0].label_line_len, strlen("# x.py\n"));
	assert_alt(&f, &alt, 0, (const int[]){ 0, -1 });
	assert_alt(&f, &alt, 1, (const int[]){ 1, -1 });
	release_all(&f, &alt);
}

static void companion_start_file(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"--- START-FILE: lib/util.js ---\n"    /* 1 */
		"module.exports = 1;\n"
		"--- END-FILE: lib/util.js ---\n"
		"Or, with a function:\n"
		"--- START-FILE: lib/util.js ---\n"    /* 5 */
		"module.exports = () => 1;\n"
		"--- END-FILE: lib/util.js ---\n", &alt), 2);
	assert_alt(&f, &alt, 0, (const int[]){ 0, -1 });
	assert_alt(&f, &alt, 1, (const int[]){ 1, -1 });
	assert_non_null(strstr(note(&f),
		"the path lib/util.js is created again at line 5 (first at line 1)"));
	release_all(&f, &alt);
}

static void file_changes_file_new(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"<FILE_NEW file_path=\"src/v.rs\">\n"  /* 1 */
		"pub const V: u32 = 1;\n"
		"</FILE_NEW>\n"
		"<FILE_NEW file_path=\"src/v.rs\">\n"  /* 4 */
		"pub fn v() -> u32 { 1 }\n"
		"</FILE_NEW>\n", &alt), 2);
	assert_alt(&f, &alt, 0, (const int[]){ 0, -1 });
	assert_alt(&f, &alt, 1, (const int[]){ 1, -1 });
	assert_non_null(strstr(note(&f), "2 alternatives (line 1, line 4): "
		"the path src/v.rs is written whole again at line 4"));
	release_all(&f, &alt);
}

static void v4a_add_file(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"*** Begin Patch\n"
		"*** Add File: a.txt\n"                /* 2 */
		"+one\n"
		"*** Add File: a.txt\n"                /* 4 */
		"+two\n"
		"*** End Patch\n", &alt), 2);
	assert_alt(&f, &alt, 0, (const int[]){ 0, -1 });
	assert_alt(&f, &alt, 1, (const int[]){ 1, -1 });
	assert_non_null(strstr(note(&f),
		"the path a.txt is created again at line 4 (first at line 2)"));
	release_all(&f, &alt);
}

/* ---- diffs ---- */

#define DIFF_HEAD "--- a/m.py\n+++ b/m.py\n"

static void two_diffs_of_one_function(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"Option 1:\n"
		"```diff\n"
		DIFF_HEAD
		"@@ -1,3 +1,3 @@\n"                    /* 5 */
		" def f(x):\n"
		"-    return x + 1\n"
		"+    return x + 2\n"
		" \n"
		"```\n"
		"Option 2:\n"
		"```diff\n"
		DIFF_HEAD
		"@@ -1,3 +1,4 @@\n"                    /* 15 */
		" def f(x):\n"
		"-    return x + 1\n"
		"+    y = x + 1\n"
		"+    return y * 2\n"
		" \n"
		"```\n", &alt), 2);
	assert_alt(&f, &alt, 0, (const int[]){ 0, -1 });
	assert_alt(&f, &alt, 1, (const int[]){ 1, -1 });
	assert_non_null(strstr(note(&f),
		"the path m.py is diffed again from the same base, over lines the "
		"diff at line"));
	release_all(&f, &alt);
}

/*
 * Option 1 adds a line between two lines; option 2 rewrites both of
 * them as the base has them, side by side: it cannot follow option 1.
 */
static void an_insertion_and_a_rewrite_of_its_spot(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"Option 1:\n"
		"```diff\n"
		DIFF_HEAD
		"@@ -1,3 +1,4 @@\n"
		" def save(f, data):\n"
		"     f.write(data)\n"
		"+    f.flush()\n"
		"     return True\n"
		"```\n"
		"Option 2:\n"
		"```diff\n"
		DIFF_HEAD
		"@@ -1,3 +1,2 @@\n"
		" def save(f, data):\n"
		"-    f.write(data)\n"
		"-    return True\n"
		"+    return f.write(data)\n"
		"```\n", &alt), 2);
	assert_alt(&f, &alt, 0, (const int[]){ 0, -1 });
	assert_alt(&f, &alt, 1, (const int[]){ 1, -1 });
	release_all(&f, &alt);
}

/*
 * Two edits from one base at neighbouring places (an insertion after a
 * line, a change of the line after it): both meant, one change set.
 */
static void an_insertion_and_a_change_next_to_it(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"```diff\n"
		DIFF_HEAD
		"@@ -1,3 +1,4 @@\n"
		" def save(f, data):\n"
		"     f.write(data)\n"
		"+    f.flush()\n"
		"     return True\n"
		"```\n"
		"And:\n"
		"```diff\n"
		DIFF_HEAD
		"@@ -1,3 +1,3 @@\n"
		" def save(f, data):\n"
		"     f.write(data)\n"
		"-    return True\n"
		"+    return False\n"
		"```\n", &alt), 0);
	no_note(&f);
	release_all(&f, &alt);
}

/* Each diff reads what the one before it wrote: steps, not options. */
static void diffs_in_steps(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"```diff\n"
		DIFF_HEAD
		"@@ -1,3 +1,3 @@\n"
		" def f(x):\n"
		"-    return x + 1\n"
		"+    return x + 2\n"
		" \n"
		"```\n"
		"Then:\n"
		"```diff\n"
		DIFF_HEAD
		"@@ -1,3 +1,3 @@\n"
		" def f(x):\n"
		"-    return x + 2\n"
		"+    return x + 3\n"
		" \n"
		"```\n", &alt), 0);
	no_note(&f);
	release_all(&f, &alt);
}

/*
 * The second step's lines moved up by the removal and a lone brace now
 * stands where the removed one stood: braces tell nothing.
 */
static void diffs_in_steps_over_a_brace(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"```diff\n"
		"--- a/m.c\n+++ b/m.c\n"
		"@@ -1,3 +1,2 @@\n"
		" }\n"
		"-}\n"
		" }\n"
		"```\n"
		"```diff\n"
		"--- a/m.c\n+++ b/m.c\n"
		"@@ -2 +2,2 @@\n"
		" }\n"
		"+y();\n"
		"```\n", &alt), 0);
	release_all(&f, &alt);
}

/* A line removed and added back unchanged (a sloppy diff) still stands. */
static void diffs_in_steps_over_a_line_kept(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"```diff\n"
		DIFF_HEAD
		"@@ -1,3 +1,3 @@\n"
		" def f(x):\n"
		"-    y = x\n"
		"+    y = x\n"
		"-    return y\n"
		"+    return y + 1\n"
		"```\n"
		"```diff\n"
		DIFF_HEAD
		"@@ -1,2 +1,3 @@\n"
		" def f(x):\n"
		"     y = x\n"
		"+    log(y)\n"
		"```\n", &alt), 0);
	release_all(&f, &alt);
}

/* The same diff quoted twice: the planner skips the repeat as applied. */
static void a_diff_repeated(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"```diff\n"
		DIFF_HEAD
		"@@ -1,3 +1,3 @@\n"
		" def f(x):\n"
		"-    return x + 1\n"
		"+    return x + 2\n"
		" \n"
		"```\n"
		"To sum up:\n"
		"```diff\n"
		DIFF_HEAD
		"@@ -1,2 +1,2 @@\n"
		" def f(x):\n"
		"-    return x + 1\n"
		"+    return x + 2\n"
		"```\n", &alt), 0);
	no_note(&f);
	release_all(&f, &alt);
}

/* Two git diffs naming different base blobs: the second follows the first. */
static void diffs_of_other_bases(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"```diff\n"
		"diff --git a/m.py b/m.py\n"
		"index 1111111..2222222 100644\n"
		DIFF_HEAD
		"@@ -1,2 +1,2 @@\n"
		" def f(x):\n"
		"-    return x + 1\n"
		"+    return x + 2\n"
		"```\n"
		"```diff\n"
		"diff --git a/m.py b/m.py\n"
		"index 3333333..4444444 100644\n"
		DIFF_HEAD
		"@@ -1,2 +1,2 @@\n"
		" def f(x):\n"
		"-    return x + 1\n"
		"+    return x + 3\n"
		"```\n", &alt), 0);
	release_all(&f, &alt);
}

/* ---- one change set, not cut ---- */

static void a_diff_then_a_write_then_a_diff(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	/* a diff, then the whole file (its result, or not), then a diff of that */
	assert_int_equal(split_answer(&f,
		"```diff\n"
		DIFF_HEAD
		"@@ -1,2 +1,2 @@\n"
		" def f(x):\n"
		"-    return x + 1\n"
		"+    return x + 2\n"
		"```\n"
		"The whole file:\n"
		"`m.py`\n"
		"```python\n"
		"def f(x):\n"
		"    return x + 2\n"
		"```\n"
		"```diff\n"
		DIFF_HEAD
		"@@ -1,2 +1,2 @@\n"
		" def f(x):\n"
		"-    return x + 2\n"
		"+    return x + 9\n"
		"```\n", &alt), 0);
	no_note(&f);
	release_all(&f, &alt);
}

static void the_same_block_twice(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"<FILE_NEW file_path=\"a.txt\">\nsame\n</FILE_NEW>\n"
		"<FILE_NEW file_path=\"a.txt\">\nsame\n</FILE_NEW>\n", &alt), 0);
	no_note(&f);
	release_all(&f, &alt);
}

/* Written, deleted, written again: the path is made anew. */
static void deleted_between(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"--- START-FILE: a.txt ---\none\n--- END-FILE: a.txt ---\n"
		"--- DELETE-FILE: a.txt ---\n"
		"--- START-FILE: a.txt ---\ntwo\n--- END-FILE: a.txt ---\n",
		&alt), 0);
	release_all(&f, &alt);
}

/* A directory moved between: whether it held the path needs the base. */
static void directory_moved_between(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"<FILE_NEW file_path=\"d/a.txt\">\none\n</FILE_NEW>\n"
		"<FILE_RENAME from_path=\"d\" to_path=\"e\" />\n"
		"<FILE_NEW file_path=\"d/a.txt\">\ntwo\n</FILE_NEW>\n", &alt), 0);
	release_all(&f, &alt);
}

/* Two answers in one change set: not this stage's business. */
static void two_inputs(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(parse(&f,
		"<FILE_NEW file_path=\"a.txt\">\none\n</FILE_NEW>\n"
		"<FILE_NEW file_path=\"a.txt\">\ntwo\n</FILE_NEW>\n",
		AA_FORMAT_AUTO), 1);
	assert_int_equal(f.cs.n, 2);
	f.cs.ops[1].pos.input = "other.md";
	alt = (aa_alternatives)AA_ALTERNATIVES_INIT;
	assert_int_equal(aa_split_alternatives(&f.cs, &alt, &f.d), 0);
	assert_int_equal(alt.n, 0);
	release_all(&f, &alt);
}

static void nothing_to_split(void **state)
{
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_alternatives alt = AA_ALTERNATIVES_INIT;
	aa_diags d = AA_DIAGS_INIT;

	(void)state;
	assert_int_equal(aa_split_alternatives(&cs, &alt, &d), 0);
	assert_int_equal(d.n, 0);
	aa_alternatives_free(&alt);
}

/* ---- shared setup, three alternatives ---- */

/* A new helper before the options is copied into each of them. */
static void shared_setup(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"First the helper:\n"
		"--- START-FILE: helper.py ---\n"      /* 2 */
		"def twice(x): return 2 * x\n"
		"--- END-FILE: helper.py ---\n"
		"Option 1:\n"
		"--- START-REPLACE-FILE: m.py ---\n"   /* 6 */
		"from helper import twice\nprint(twice(1))\n"
		"--- END-REPLACE-FILE: m.py ---\n"
		"Option 2:\n"
		"--- START-REPLACE-FILE: m.py ---\n"   /* 11 */
		"import helper\nprint(helper.twice(1))\n"
		"--- END-REPLACE-FILE: m.py ---\n", &alt), 2);
	assert_alt(&f, &alt, 0, (const int[]){ 0, 1, -1 });
	assert_alt(&f, &alt, 1, (const int[]){ 0, 2, -1 });
	assert_string_equal(note(&f),
		"2 alternatives (lines 2-6, line 11): the path m.py is written "
		"whole again at line 11 (first at line 6); the blocks at line 2 "
		"are shared, copied into each; each is a suggestion of its own");
	release_all(&f, &alt);
}

/*
 * A block that comes after the first option's file belongs to the first
 * option (no heading parser tells which option a block is in).
 */
static void after_the_first_option(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"<FILE_NEW file_path=\"m.py\">\nprint(1)\n</FILE_NEW>\n"
		"<FILE_NEW file_path=\"extra.py\">\nX = 1\n</FILE_NEW>\n"
		"<FILE_NEW file_path=\"m.py\">\nprint(2)\n</FILE_NEW>\n", &alt), 2);
	assert_alt(&f, &alt, 0, (const int[]){ 0, 1, -1 });
	assert_alt(&f, &alt, 1, (const int[]){ 2, -1 });
	release_all(&f, &alt);
}

/* Options of two files each: the second option starts at its first file. */
static void options_of_two_files(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"<FILE_NEW file_path=\"a.py\">\na1\n</FILE_NEW>\n"
		"<FILE_NEW file_path=\"b.py\">\nb1\n</FILE_NEW>\n"
		"<FILE_NEW file_path=\"a.py\">\na2\n</FILE_NEW>\n"
		"<FILE_NEW file_path=\"b.py\">\nb2\n</FILE_NEW>\n", &alt), 2);
	assert_alt(&f, &alt, 0, (const int[]){ 0, 1, -1 });
	assert_alt(&f, &alt, 1, (const int[]){ 2, 3, -1 });
	release_all(&f, &alt);
}

static void three_alternatives(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"--- START-FILE: shared.txt ---\ns\n--- END-FILE: shared.txt ---\n"
		"--- START-REPLACE-FILE: x.txt ---\n1\n--- END-REPLACE-FILE: x.txt ---\n"
		"--- START-REPLACE-FILE: x.txt ---\n2\n--- END-REPLACE-FILE: x.txt ---\n"
		"```diff\n"
		"--- a/x.txt\n+++ b/x.txt\n"
		"@@ -1 +1 @@\n"
		"-2\n"
		"+2b\n"
		"```\n"
		"--- START-REPLACE-FILE: x.txt ---\n3\n--- END-REPLACE-FILE: x.txt ---\n",
		&alt), 3);
	assert_alt(&f, &alt, 0, (const int[]){ 0, 1, -1 });
	assert_alt(&f, &alt, 1, (const int[]){ 0, 2, 3, -1 });
	assert_alt(&f, &alt, 2, (const int[]){ 0, 4, -1 });
	assert_string_equal(note(&f),
		"3 alternatives (lines 1-4, lines 7-11, line 17): "
		"the path x.txt is written whole again at line 7 (first at line 4); "
		"the path x.txt is written whole again at line 17 (first at line 7); "
		"the blocks at line 1 are shared, copied into each; "
		"each is a suggestion of its own");
	release_all(&f, &alt);
}

/* An aptix bundle: the replacements before the two creations are shared. */
static void aptix_bundle(void **state)
{
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f,
		"{\"patches\": [{\"path\": \"a.c\", \"replacements\": "
		"[{\"find\": \"x\", \"replace\": \"y\", \"limit\": \"all\"}]}],\n"
		" \"files\": [{\"path\": \"b.c\", \"content\": \"1\\n\", \"operation\": \"create\"},\n"
		"  {\"path\": \"b.c\", \"content\": \"2\\n\", \"operation\": \"create\"}]}\n",
		&alt), 2);
	assert_alt(&f, &alt, 0, (const int[]){ 0, 1, -1 });
	assert_alt(&f, &alt, 1, (const int[]){ 0, 2, -1 });
	assert_non_null(strstr(note(&f), "the path b.c is created again at line 3 "
		"(first at line 2); the blocks at line 1 are shared"));
	release_all(&f, &alt);
}

/* ap modifications (every string set) are copied whole into each. */
static void ap_modifications_copied(void **state)
{
	static const aa_pos at1 = { "answer.md", 1 }, at2 = { "answer.md", 9 };
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_alternatives alt = AA_ALTERNATIVES_INIT;
	aa_diags d = AA_DIAGS_INIT;
	aa_op *op;
	aa_apmod *m;
	int i;

	(void)state;
	assert_non_null(op = aa_changeset_add(&cs, AA_OP_EDIT, at1));
	op->path = aa_strdup("calc.py");
	op->edit_kind = AA_EDIT_AP;
	assert_non_null(m = aa_op_add_apmod(op, at1));
	m->action = AA_AP_REPLACE;
	m->snippet = aa_strdup("s");
	m->start_snippet = aa_strdup("b");
	m->end_snippet = aa_strdup("e");
	m->anchor = aa_strdup("a");
	m->content = aa_strdup("c");
	m->leading_blank_lines = 2;
	for (i = 0; i < 2; i++) {
		assert_non_null(op = aa_changeset_add(&cs, AA_OP_WRITE, i ? at2 : at1));
		op->path = aa_strdup("new.py");
		op->content = aa_strdup(i ? "two\n" : "one\n");
		op->content_len = 4;
		op->exist = AA_EXIST_NEW;
	}
	assert_int_equal(aa_split_alternatives(&cs, &alt, &d), 2);
	assert_copy(&alt.sets[1].ops[0], &cs.ops[0]);
	assert_copy(&alt.sets[1].ops[1], &cs.ops[2]);
	aa_alternatives_free(&alt);
	aa_changeset_free(&cs);
	aa_diags_free(&d);
}

/* n creations of one path, each its own content. */
static char *creations(size_t n)
{
	aa_buf b = AA_BUF_INIT;
	size_t i;

	for (i = 0; i < n; i++)
		aa_buf_printf(&b, "<FILE_NEW file_path=\"a.txt\">\n%zu\n</FILE_NEW>\n", i);
	assert_false(aa_buf_oom(&b));
	return aa_buf_detach(&b);
}

static void at_most_a_hundred(void **state)
{
	char *text = creations(AA_MAX_ALTERNATIVES);
	fixture f;
	aa_alternatives alt;

	(void)state;
	assert_int_equal(split_answer(&f, text, &alt), AA_MAX_ALTERNATIVES);
	assert_alt(&f, &alt, AA_MAX_ALTERNATIVES - 1,
		   (const int[]){ AA_MAX_ALTERNATIVES - 1, -1 });
	release_all(&f, &alt);
	free(text);

	text = creations(AA_MAX_ALTERNATIVES + 1);
	assert_int_equal(split_answer(&f, text, &alt), 0);
	assert_int_equal(f.d.n, 1);
	assert_int_equal(f.d.v[0].level, AA_DIAG_WARNING);
	assert_string_equal(f.d.v[0].msg,
		"101 alternatives (more than 100): left as one change set");
	release_all(&f, &alt);
	free(text);
}

/* ---- ownership ---- */

/* Each alternative outlives the parsed change set and its siblings. */
static void freed_on_their_own(void **state)
{
	fixture f;
	aa_alternatives alt;
	aa_changeset second;

	(void)state;
	assert_int_equal(split_answer(&f,
		"--- START-FILE: h.txt ---\nh\n--- END-FILE: h.txt ---\n"
		"```diff\n--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-a\n+b\n```\n"
		"<FILE_NEW file_path=\"n.txt\">\nn1\n</FILE_NEW>\n"
		"<FILE_NEW file_path=\"n.txt\">\nn2\n</FILE_NEW>\n", &alt), 2);
	second = alt.sets[1];
	alt.sets[1] = (aa_changeset)AA_CHANGESET_INIT;   /* taken out */
	aa_alternatives_free(&alt);
	release(&f);
	assert_int_equal(second.n, 3);
	assert_string_equal(second.ops[0].content, "h\n");
	assert_string_equal(second.ops[1].hunks[0].lines[1].text, "b");
	assert_string_equal(second.ops[2].content, "n2\n");
	/* a copy can still grow as a parsed one does */
	assert_non_null(aa_hunk_add_line(&second.ops[1].hunks[0], ' ', "c", 1) == 0
			? second.ops[1].hunks[0].lines : NULL);
	assert_non_null(aa_op_add_hunk(&second.ops[1], second.ops[1].pos));
	aa_changeset_free(&second);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_file_fences),
		cmocka_unit_test(whole_file_comment_labels),
		cmocka_unit_test(companion_start_file),
		cmocka_unit_test(file_changes_file_new),
		cmocka_unit_test(v4a_add_file),
		cmocka_unit_test(two_diffs_of_one_function),
		cmocka_unit_test(an_insertion_and_a_rewrite_of_its_spot),
		cmocka_unit_test(an_insertion_and_a_change_next_to_it),
		cmocka_unit_test(diffs_in_steps),
		cmocka_unit_test(diffs_in_steps_over_a_brace),
		cmocka_unit_test(diffs_in_steps_over_a_line_kept),
		cmocka_unit_test(a_diff_repeated),
		cmocka_unit_test(diffs_of_other_bases),
		cmocka_unit_test(a_diff_then_a_write_then_a_diff),
		cmocka_unit_test(the_same_block_twice),
		cmocka_unit_test(deleted_between),
		cmocka_unit_test(directory_moved_between),
		cmocka_unit_test(two_inputs),
		cmocka_unit_test(nothing_to_split),
		cmocka_unit_test(shared_setup),
		cmocka_unit_test(after_the_first_option),
		cmocka_unit_test(options_of_two_files),
		cmocka_unit_test(three_alternatives),
		cmocka_unit_test(aptix_bundle),
		cmocka_unit_test(ap_modifications_copied),
		cmocka_unit_test(at_most_a_hundred),
		cmocka_unit_test(freed_on_their_own),
	};

	return AA_RUN_TESTS(tests);
}
