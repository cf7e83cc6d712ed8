/*
 * The change set as -R and --include/--exclude shape it
 * (src/change/reverse.c, src/change/limit.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "change/changeset.h"
#include "change/limit.h"
#include "change/reverse.h"
#include "util/util.h"

static aa_op *add_op(aa_changeset *cs, aa_op_kind kind, const char *path,
		     const char *to, long line)
{
	aa_op *op = aa_changeset_add(cs, kind, (aa_pos){ "a.md", line });

	assert_non_null(op);
	op->path = aa_strdup(path);
	op->to = to ? aa_strdup(to) : NULL;
	op->format = "diff";
	return op;
}

/* A hunk "-old +new" with a hint, on op (an edit). */
static void add_hunk(aa_op *op, const char *old, const char *new_line)
{
	aa_hunk *h = aa_op_add_hunk(op, op->pos);

	assert_non_null(h);
	op->edit_kind = op->kind == AA_OP_EDIT ? AA_EDIT_HUNKS : AA_EDIT_NONE;
	h->has_hint = 1;
	h->old_start = 3;
	h->old_count = old ? 2 : 1;
	h->new_start = 4;
	h->new_count = new_line ? 2 : 1;
	assert_int_equal(aa_hunk_add_line(h, ' ', "ctx", 3), 0);
	if (old)
		assert_int_equal(aa_hunk_add_line(h, '-', old, strlen(old)), 0);
	if (new_line)
		assert_int_equal(aa_hunk_add_line(h, '+', new_line, strlen(new_line)), 0);
}

/* The messages of d, joined by '|'. */
static void said(const aa_diags *d, char *out, size_t size)
{
	size_t i, len = 0;

	out[0] = '\0';
	for (i = 0; i < d->n; i++)
		len += (size_t)snprintf(out + len, size - len, "%s%s",
					i ? "|" : "", d->v[i].msg);
}

static void test_edit_sides_swapped(void **state)
{
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_diags d = AA_DIAGS_INIT;
	aa_op *op = add_op(&cs, AA_OP_EDIT, "a.txt", NULL, 1);
	aa_hunk *h;

	(void)state;
	add_hunk(op, "two", "TWO");
	op->hunks[0].new_no_eol = 1;
	op->mode = 0100755;
	op->old_mode = 0100644;
	strcpy(op->base_blob, "abc1234");
	assert_int_equal(aa_changeset_reverse(&cs, &d), 0);
	assert_int_equal(cs.n, 1);
	op = &cs.ops[0];
	h = &op->hunks[0];
	assert_int_equal(h->lines[1].kind, '+');
	assert_string_equal(h->lines[1].text, "two");
	assert_int_equal(h->lines[2].kind, '-');
	assert_int_equal(h->lines[0].kind, ' ');
	assert_int_equal(h->old_start, 4);
	assert_int_equal(h->new_start, 3);
	assert_int_equal(h->old_no_eol, 1);
	assert_int_equal(h->new_no_eol, 0);
	assert_int_equal(op->mode, 0100644);
	assert_int_equal(op->old_mode, 0100755);
	assert_string_equal(op->base_blob, "");
	assert_int_equal(d.n, 0);
	aa_changeset_free(&cs);
}

static void test_creation_and_deletion(void **state)
{
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_diags d = AA_DIAGS_INIT;
	aa_op *op = add_op(&cs, AA_OP_WRITE, "new.txt", NULL, 1);

	(void)state;
	op->exist = AA_EXIST_NEW;
	op->mode = 0100755;
	op->content = aa_strdup("a\nb");
	op->content_len = 3;
	op = add_op(&cs, AA_OP_DELETE, "old.txt", NULL, 9);
	op->old_mode = 0100644;
	add_hunk(op, "gone", NULL);
	/* a deletion's hunk holds only removed lines */
	op->hunks[0].lines[0].kind = '-';
	assert_int_equal(aa_changeset_reverse(&cs, &d), 0);
	assert_int_equal(cs.n, 2);
	/* the last first: old.txt created with its lines and mode */
	assert_int_equal(cs.ops[0].kind, AA_OP_WRITE);
	assert_string_equal(cs.ops[0].path, "old.txt");
	assert_int_equal(cs.ops[0].exist, AA_EXIST_NEW);
	assert_int_equal(cs.ops[0].mode, 0100644);
	assert_int_equal(cs.ops[0].content_len, 9);
	assert_memory_equal(cs.ops[0].content, "ctx\ngone\n", 9);
	assert_int_equal(cs.ops[0].nhunks, 0);
	/* new.txt deleted if it holds exactly "a\nb" (no final newline) */
	assert_int_equal(cs.ops[1].kind, AA_OP_DELETE);
	assert_int_equal(cs.ops[1].old_mode, 0100755);
	assert_null(cs.ops[1].content);
	assert_int_equal(cs.ops[1].nhunks, 1);
	assert_int_equal(cs.ops[1].hunks[0].nlines, 2);
	assert_string_equal(cs.ops[1].hunks[0].lines[1].text, "b");
	assert_int_equal(cs.ops[1].hunks[0].old_no_eol, 1);
	aa_changeset_free(&cs);
	aa_diags_free(&d);
}

/* A diff block: rename + edit of the new name; copy + edit of the copy. */
static void test_block_rename_and_copy(void **state)
{
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_diags d = AA_DIAGS_INIT;
	aa_op *op;
	size_t i;

	(void)state;
	add_op(&cs, AA_OP_RENAME, "a", "b", 1);
	add_hunk(add_op(&cs, AA_OP_EDIT, "b", NULL, 1), "x", "y");
	add_op(&cs, AA_OP_COPY, "c", "d", 9);
	add_hunk(add_op(&cs, AA_OP_EDIT, "d", NULL, 9), "p", "q");
	for (i = 0; i < cs.n; i++)
		cs.ops[i].diff_block = 1;
	assert_int_equal(aa_changeset_reverse(&cs, &d), 0);
	assert_int_equal(cs.n, 4);
	op = &cs.ops[0];
	assert_int_equal(op->kind, AA_OP_RENAME);
	assert_string_equal(op->path, "b");
	assert_string_equal(op->to, "a");
	assert_int_equal(op->diff_block, 1);
	/* the edit follows the file to its old name */
	assert_int_equal(cs.ops[1].kind, AA_OP_EDIT);
	assert_string_equal(cs.ops[1].path, "a");
	assert_int_equal(cs.ops[1].diff_block, 1);
	/* the copy: its edit undone, then moved back onto its source */
	assert_int_equal(cs.ops[2].kind, AA_OP_EDIT);
	assert_string_equal(cs.ops[2].path, "d");
	assert_int_equal(cs.ops[2].diff_block, 0);
	assert_int_equal(cs.ops[3].kind, AA_OP_RENAME);
	assert_string_equal(cs.ops[3].path, "d");
	assert_string_equal(cs.ops[3].to, "c");
	assert_int_equal(cs.ops[3].onto_identical, 1);
	assert_int_equal(cs.ops[3].diff_block, 0);
	aa_changeset_free(&cs);
	aa_diags_free(&d);
}

static void test_replacements_last_first(void **state)
{
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_diags d = AA_DIAGS_INIT;
	aa_op *op = add_op(&cs, AA_OP_EDIT, "f", NULL, 1);
	aa_repl *r;

	(void)state;
	op->edit_kind = AA_EDIT_REPLACEMENTS;
	r = aa_op_add_repl(op, op->pos);
	r->find = aa_strdup("a");
	r->find_len = 1;
	r->replace = aa_strdup("bb");
	r->replace_len = 2;
	r->all = 1;
	r = aa_op_add_repl(op, op->pos);
	r->find = aa_strdup("bb");
	r->find_len = 2;
	r->replace = aa_strdup("c");
	r->replace_len = 1;
	assert_int_equal(aa_changeset_reverse(&cs, &d), 0);
	op = &cs.ops[0];
	assert_string_equal(op->repls[0].find, "c");
	assert_string_equal(op->repls[0].replace, "bb");
	assert_string_equal(op->repls[1].find, "bb");
	assert_int_equal(op->repls[1].find_len, 2);
	assert_string_equal(op->repls[1].replace, "a");
	assert_int_equal(op->repls[1].all, 0);
	aa_changeset_free(&cs);
}

/* Every refusal said, and the change set left as it was. */
static void test_refusals_leave_the_change_set(void **state)
{
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_diags d = AA_DIAGS_INIT;
	aa_op *op;
	char msg[2048];

	(void)state;
	add_hunk(add_op(&cs, AA_OP_EDIT, "ok.txt", NULL, 1), "x", "y");
	op = add_op(&cs, AA_OP_WRITE, "whole.txt", NULL, 5);
	op->exist = AA_EXIST_ANY;
	op->format = "whole-file";
	add_op(&cs, AA_OP_DELETE, "gone.txt", NULL, 9)->format = "v4a";
	op = add_op(&cs, AA_OP_EDIT, "e.txt", NULL, 12);
	op->edit_kind = (aa_edit_kind)99;   /* a payload reverse.c does not know */
	assert_int_equal(aa_changeset_reverse(&cs, &d), -1);
	said(&d, msg, sizeof(msg));
	assert_string_equal(msg,
		"a whole-file block carries no old content (whole-file); -R cannot reverse it|"
		"a deletion without the deleted lines cannot be restored (v4a); -R cannot reverse it|"
		"this kind of edit cannot be reversed yet (diff); -R cannot reverse it");
	assert_string_equal(d.v[0].path, "whole.txt");
	assert_int_equal(d.v[0].line, 5);
	assert_int_equal(d.v[1].line, 9);
	assert_int_equal(cs.n, 4);
	assert_string_equal(cs.ops[0].path, "ok.txt");
	assert_int_equal(cs.ops[0].hunks[0].lines[1].kind, '-');
	cs.ops[3].edit_kind = AA_EDIT_NONE;
	aa_changeset_free(&cs);
	aa_diags_free(&d);
}

static void test_ap_modifications(void **state)
{
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_diags d = AA_DIAGS_INIT;
	aa_op *op = add_op(&cs, AA_OP_EDIT, "m.py", NULL, 1);
	aa_apmod *m;
	char msg[512];

	(void)state;
	op->edit_kind = AA_EDIT_AP;
	op->format = "ap";
	m = aa_op_add_apmod(op, op->pos);
	m->action = AA_AP_INSERT_AFTER;
	m->snippet = aa_strdup("import x");
	m->content = aa_strdup("import y");
	m = aa_op_add_apmod(op, op->pos);
	m->action = AA_AP_REPLACE;
	m->snippet = aa_strdup("a = 1");
	m->content = aa_strdup("a = 2");
	assert_int_equal(aa_changeset_reverse(&cs, &d), 0);
	op = &cs.ops[0];
	assert_int_equal(op->apmods[0].action, AA_AP_REPLACE);
	assert_string_equal(op->apmods[0].snippet, "a = 2");
	assert_string_equal(op->apmods[0].content, "a = 1");
	assert_int_equal(op->apmods[1].action, AA_AP_DELETE);
	assert_string_equal(op->apmods[1].snippet, "import y");
	assert_null(op->apmods[1].content);
	/* a DELETE does not come back */
	assert_int_equal(aa_changeset_reverse(&cs, &d), -1);
	said(&d, msg, sizeof(msg));
	assert_string_equal(msg, "an ap DELETE does not say where its lines stood (ap); -R cannot reverse it");
	aa_changeset_free(&cs);
	aa_diags_free(&d);
}

static void test_limit_rules(void **state)
{
	aa_path_rule inc_c[] = { { "*.c", 1 } };
	aa_path_rule exc_then_inc[] = { { "src/a.c", 0 }, { "src/*", 1 } };
	aa_path_rule inc_then_exc[] = { { "src/*", 1 }, { "src/a.c", 0 } };
	aa_path_rule exc[] = { { "docs/*", 0 } };

	(void)state;
	assert_true(aa_path_used("anything", NULL, 0));
	assert_true(aa_path_used("src/deep/a.c", inc_c, 1));  /* '*' takes '/' */
	assert_false(aa_path_used("a.h", inc_c, 1));
	assert_false(aa_path_used("src/a.c", exc_then_inc, 2));
	assert_true(aa_path_used("src/b.c", exc_then_inc, 2));
	assert_false(aa_path_used("top.c", exc_then_inc, 2));
	assert_true(aa_path_used("src/a.c", inc_then_exc, 2));
	assert_true(aa_path_used("top.c", exc, 1));
	assert_false(aa_path_used("docs/x/y.md", exc, 1));
	assert_true(aa_path_used(".hidden.c", inc_c, 1));
}

static void test_limit_names_and_drops(void **state)
{
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_path_rule inc[] = { { "src/*", 1 } };

	(void)state;
	add_op(&cs, AA_OP_RENAME, "top.c", "src/top.c", 1);  /* its new name */
	add_op(&cs, AA_OP_DELETE, "src/old.c", NULL, 2);     /* the path deleted */
	add_op(&cs, AA_OP_EDIT, "docs/b.md", NULL, 3);
	add_op(&cs, AA_OP_COPY, "src/a.c", "lib/a.c", 4);
	assert_string_equal(aa_op_limit_name(&cs.ops[0], 0), "src/top.c");
	/* -R: the rename reversed makes top.c */
	assert_string_equal(aa_op_limit_name(&cs.ops[0], 1), "top.c");
	assert_string_equal(aa_op_limit_name(&cs.ops[1], 1), "src/old.c");
	assert_int_equal(aa_changeset_limit(&cs, inc, 1, 0), 2);
	assert_int_equal(cs.n, 2);
	assert_string_equal(cs.ops[0].path, "top.c");
	assert_string_equal(cs.ops[1].path, "src/old.c");
	assert_int_equal(cs.ops[1].pos.line, 2);
	assert_int_equal(aa_changeset_limit(&cs, NULL, 0, 1), 0);
	aa_changeset_free(&cs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edit_sides_swapped),
		cmocka_unit_test(test_creation_and_deletion),
		cmocka_unit_test(test_block_rename_and_copy),
		cmocka_unit_test(test_replacements_last_first),
		cmocka_unit_test(test_refusals_leave_the_change_set),
		cmocka_unit_test(test_ap_modifications),
		cmocka_unit_test(test_limit_rules),
		cmocka_unit_test(test_limit_names_and_drops),
	};

	return AA_RUN_TESTS(tests);
}
