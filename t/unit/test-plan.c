/* The planner's rules, over a fake in-memory snapshot. */
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"
#include "plan/plan.h"

typedef struct fake_file {
	const char *path;
	uint32_t mode;
	const char *content;
} fake_file;

static const fake_file base_files[] = {
	{ "a.txt", AA_MODE_FILE, "one\ntwo\n" },
	{ "run.sh", AA_MODE_EXEC, "#!/bin/sh\n" },
	{ "dir/b.txt", AA_MODE_FILE, "b\n" },
	{ "dir/sub/c.txt", AA_MODE_FILE, "c\n" },
	{ "link", AA_MODE_LINK, "dir" },
	{ "mod", AA_MODE_GITLINK, "" },
	{ "bin.dat", AA_MODE_FILE, "a\0b" },
};
#define NFILES (sizeof(base_files) / sizeof(*base_files))

static void oid_of(size_t i, aa_oid *oid)
{
	memset(oid, 0, sizeof(*oid));
	oid->id[0] = (unsigned char)(i + 1);
}

static int fake_lookup(void *ctx, const char *path, uint32_t *mode, aa_oid *oid)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < NFILES; i++)
		if (!strcmp(base_files[i].path, path)) {
			*mode = base_files[i].mode;
			oid_of(i, oid);
			return 0;
		}
	return 1;
}

static int fake_read(void *ctx, const aa_oid *oid, aa_buf *out)
{
	size_t i = (size_t)oid->id[0] - 1;

	(void)ctx;
	if (i >= NFILES)
		return -1;
	return aa_buf_put(out, base_files[i].content,
			  i == NFILES - 1 ? 3 : strlen(base_files[i].content));
}

static int fake_each_under(void *ctx, const char *dir, aa_each_fn fn, void *p)
{
	size_t i, l = strlen(dir);

	(void)ctx;
	for (i = 0; i < NFILES; i++) {
		aa_oid oid;

		if (l && (strncmp(base_files[i].path, dir, l) || base_files[i].path[l] != '/'))
			continue;
		oid_of(i, &oid);
		if (fn(base_files[i].path, base_files[i].mode, &oid, p))
			break;
	}
	return 0;
}

static const aa_snapshot fake = {
	.lookup = fake_lookup, .read = fake_read, .each_under = fake_each_under
};

static const aa_pos pos = { "answer", 1 };

static aa_op *add(aa_changeset *cs, aa_op_kind k, const char *path,
		  const char *to, const char *content)
{
	aa_op *op = aa_changeset_add(cs, k, pos);

	op->path = aa_strdup(path);
	op->to = to ? aa_strdup(to) : NULL;
	if (content) {
		op->content = aa_strdup(content);
		op->content_len = strlen(content);
	}
	return op;
}

typedef struct run {
	aa_changeset cs;
	aa_plan plan;
	aa_diags d;
	int r;
} run;

static void plan(run *t)
{
	t->r = aa_plan_build(&t->plan, &t->cs, &fake, NULL, &t->d);
}

static void done(run *t)
{
	aa_plan_free(&t->plan);
	aa_changeset_free(&t->cs);
	aa_diags_free(&t->d);
}

static int has_error(const run *t, const char *needle)
{
	size_t i;

	for (i = 0; i < t->d.n; i++)
		if (t->d.v[i].level == AA_DIAG_ERROR && strstr(t->d.v[i].msg, needle))
			return 1;
	return 0;
}

static const aa_change *change(const run *t, const char *path)
{
	size_t i;

	for (i = 0; i < t->plan.nchanges; i++)
		if (!strcmp(t->plan.changes[i].path, path))
			return &t->plan.changes[i];
	return NULL;
}

/* A snapshot that lends its bytes, counting what is still lent. */
static int lent_out;

static int fake_lend(void *ctx, const aa_oid *oid, const char **data,
		     size_t *len, void **handle)
{
	size_t i = (size_t)oid->id[0] - 1;

	(void)ctx;
	if (i >= NFILES)
		return -1;
	*data = base_files[i].content;
	*len = i == NFILES - 1 ? 3 : strlen(base_files[i].content);
	*handle = (void *)base_files[i].path;
	lent_out++;
	return 0;
}

static void fake_release(void *ctx, void *handle)
{
	(void)ctx;
	assert_non_null(handle);
	lent_out--;
}

static const aa_snapshot lending = {
	.lookup = fake_lookup, .read = fake_read, .each_under = fake_each_under,
	.lend = fake_lend, .release = fake_release
};

/* Lent base bytes serve the edits and go back when the plan is freed. */
static void test_lent_base_bytes(void **state)
{
	run t = { 0 };
	aa_op *op;
	aa_repl *rp;

	(void)state;
	op = add(&t.cs, AA_OP_EDIT, "a.txt", NULL, NULL);
	op->edit_kind = AA_EDIT_REPLACEMENTS;
	rp = aa_op_add_repl(op, pos);
	rp->find = aa_strdup("two");
	rp->find_len = 3;
	rp->replace = aa_strdup("TWO");
	rp->replace_len = 3;
	add(&t.cs, AA_OP_WRITE, "dir/b.txt", NULL, "b\n")->exist = AA_EXIST_MUST;
	t.r = aa_plan_build(&t.plan, &t.cs, &lending, NULL, &t.d);
	assert_int_equal(t.r, 0);
	assert_true(lent_out > 0);
	assert_int_equal(t.plan.nchanges, 1);
	assert_memory_equal(change(&t, "a.txt")->data, "one\nTWO\n", 8);
	/* the plan points into the change set: it goes first */
	aa_plan_free(&t.plan);
	assert_int_equal(lent_out, 0);
	aa_changeset_free(&t.cs);
	aa_diags_free(&t.d);
}

static void test_create_new_file(void **state)
{
	run t = { 0 };
	const aa_change *c;

	(void)state;
	add(&t.cs, AA_OP_WRITE, "new/file.txt", NULL, "hello\n")->exist = AA_EXIST_NEW;
	plan(&t);
	assert_int_equal(t.r, 0);
	assert_int_equal(t.plan.nchanges, 1);
	c = change(&t, "new/file.txt");
	assert_non_null(c);
	assert_false(c->base_exists);
	assert_true(c->exists);
	assert_int_equal(c->mode, AA_MODE_FILE);
	assert_int_equal(c->len, 6);
	assert_memory_equal(c->data, "hello\n", 6);
	done(&t);
}

static void test_create_existing(void **state)
{
	run t = { 0 }, same = { 0 };

	(void)state;
	add(&t.cs, AA_OP_WRITE, "a.txt", NULL, "other\n")->exist = AA_EXIST_NEW;
	plan(&t);
	assert_int_equal(t.r, -1);
	assert_true(has_error(&t, "already exists"));
	done(&t);

	add(&same.cs, AA_OP_WRITE, "a.txt", NULL, "one\ntwo\n")->exist = AA_EXIST_NEW;
	plan(&same);
	assert_int_equal(same.r, 0);
	assert_int_equal(same.plan.nchanges, 0);
	assert_int_equal(same.plan.ops_skipped, 1);
	done(&same);
}

static void test_replace_keeps_mode(void **state)
{
	run t = { 0 };

	(void)state;
	add(&t.cs, AA_OP_WRITE, "run.sh", NULL, "#!/bin/sh\necho\n")->exist = AA_EXIST_MUST;
	plan(&t);
	assert_int_equal(t.r, 0);
	assert_int_equal(change(&t, "run.sh")->mode, AA_MODE_EXEC);
	done(&t);
}

static void test_replace_missing(void **state)
{
	run t = { 0 };

	(void)state;
	add(&t.cs, AA_OP_WRITE, "nope.txt", NULL, "x")->exist = AA_EXIST_MUST;
	plan(&t);
	assert_int_equal(t.r, -1);
	assert_true(has_error(&t, "does not exist"));
	done(&t);
}

static void test_delete_missing_and_dir(void **state)
{
	run t = { 0 }, dir = { 0 }, nodir = { 0 };

	(void)state;
	add(&t.cs, AA_OP_DELETE, "nope.txt", NULL, NULL);
	plan(&t);
	assert_int_equal(t.r, -1);
	assert_true(has_error(&t, "does not exist"));
	done(&t);

	add(&dir.cs, AA_OP_DELETE, "dir", NULL, NULL)->dir_ok = 1;
	plan(&dir);
	assert_int_equal(dir.r, 0);
	assert_int_equal(dir.plan.nchanges, 2);
	assert_false(change(&dir, "dir/b.txt")->exists);
	assert_false(change(&dir, "dir/sub/c.txt")->exists);
	done(&dir);

	add(&nodir.cs, AA_OP_DELETE, "dir", NULL, NULL);
	plan(&nodir);
	assert_int_equal(nodir.r, -1);
	assert_true(has_error(&nodir, "is a directory"));
	done(&nodir);
}

static void test_rename_keeps_blob(void **state)
{
	run t = { 0 };
	const aa_change *c;
	aa_oid want;

	(void)state;
	add(&t.cs, AA_OP_RENAME, "run.sh", "bin/run.sh", NULL);
	plan(&t);
	assert_int_equal(t.r, 0);
	c = change(&t, "bin/run.sh");
	assert_non_null(c);
	assert_true(c->has_oid);
	oid_of(1, &want);
	assert_memory_equal(&c->oid, &want, sizeof(want));
	assert_int_equal(c->mode, AA_MODE_EXEC);
	assert_string_equal(c->renamed_from, "run.sh");
	assert_false(change(&t, "run.sh")->exists);
	done(&t);
}

static void test_rename_onto_existing(void **state)
{
	run t = { 0 };

	(void)state;
	add(&t.cs, AA_OP_RENAME, "run.sh", "a.txt", NULL);
	plan(&t);
	assert_int_equal(t.r, -1);
	assert_true(has_error(&t, "already exists"));
	done(&t);
}

/* Marks ops[from..] as one diff block, as aa_parse_diff does. */
static void one_block(aa_changeset *cs, size_t from)
{
	size_t i;

	for (i = from; i < cs->n; i++)
		cs->ops[i].diff_block = from + 1;
}

/* In one diff block two renames swap two files; in order, refused. */
static void test_diff_block_swaps(void **state)
{
	run t = { 0 }, seq = { 0 };
	aa_oid run_sh, a_txt;

	(void)state;
	add(&t.cs, AA_OP_RENAME, "run.sh", "a.txt", NULL);
	add(&t.cs, AA_OP_RENAME, "a.txt", "run.sh", NULL);
	one_block(&t.cs, 0);
	plan(&t);
	assert_int_equal(t.r, 0);
	oid_of(1, &run_sh);
	oid_of(0, &a_txt);
	assert_memory_equal(&change(&t, "a.txt")->oid, &run_sh, sizeof(run_sh));
	assert_memory_equal(&change(&t, "run.sh")->oid, &a_txt, sizeof(a_txt));
	assert_int_equal(change(&t, "a.txt")->mode, AA_MODE_EXEC);
	assert_int_equal(change(&t, "run.sh")->mode, AA_MODE_FILE);
	done(&t);
	add(&seq.cs, AA_OP_RENAME, "run.sh", "a.txt", NULL);
	add(&seq.cs, AA_OP_RENAME, "a.txt", "run.sh", NULL);
	plan(&seq);
	assert_int_equal(seq.r, -1);
	assert_true(has_error(&seq, "already exists"));
	done(&seq);
}

/* A copy in one diff block takes its source as before the block. */
static void test_diff_block_copy_reads_the_base(void **state)
{
	run t = { 0 };
	const aa_change *c;
	aa_oid a_txt;

	(void)state;
	add(&t.cs, AA_OP_WRITE, "a.txt", NULL, "new\n");
	add(&t.cs, AA_OP_COPY, "a.txt", "copy.txt", NULL);
	one_block(&t.cs, 0);
	plan(&t);
	assert_int_equal(t.r, 0);
	c = change(&t, "copy.txt");
	assert_non_null(c);
	assert_true(c->has_oid);
	oid_of(0, &a_txt);
	assert_memory_equal(&c->oid, &a_txt, sizeof(a_txt));
	assert_true(c->copied);
	c = change(&t, "a.txt");
	assert_memory_equal(c->data, "new\n", 4);
	done(&t);
}

/* Deletions free their paths first: a file where a directory was. */
static void test_diff_block_frees_first(void **state)
{
	run t = { 0 };

	(void)state;
	add(&t.cs, AA_OP_WRITE, "dir", NULL, "file\n")->exist = AA_EXIST_NEW;
	add(&t.cs, AA_OP_DELETE, "dir/b.txt", NULL, NULL);
	add(&t.cs, AA_OP_DELETE, "dir/sub/c.txt", NULL, NULL);
	one_block(&t.cs, 0);
	plan(&t);
	assert_int_equal(t.r, 0);
	assert_true(change(&t, "dir")->exists);
	assert_false(change(&t, "dir/b.txt")->exists);
	/* the changes keep the block's order */
	assert_string_equal(t.plan.changes[0].path, "dir");
	assert_string_equal(t.plan.changes[1].path, "dir/b.txt");
	done(&t);
}

/* An edit of a path the block renamed away names the rename. */
static void test_diff_block_edit_of_freed_path(void **state)
{
	run t = { 0 };
	aa_op *op;

	(void)state;
	add(&t.cs, AA_OP_RENAME, "a.txt", "moved.txt", NULL);
	op = add(&t.cs, AA_OP_EDIT, "a.txt", NULL, NULL);
	op->edit_kind = AA_EDIT_NONE;
	op->mode = AA_MODE_EXEC;
	one_block(&t.cs, 0);
	plan(&t);
	assert_int_equal(t.r, -1);
	assert_true(has_error(&t, "the same diff renames it"));
	assert_int_equal(t.plan.nchanges, 0);
	done(&t);
}

static void test_rename_directory(void **state)
{
	run t = { 0 }, into = { 0 };

	(void)state;
	add(&t.cs, AA_OP_RENAME, "dir", "lib", NULL)->dir_ok = 1;
	plan(&t);
	assert_int_equal(t.r, 0);
	assert_non_null(change(&t, "lib/b.txt"));
	assert_non_null(change(&t, "lib/sub/c.txt"));
	assert_false(change(&t, "dir/b.txt")->exists);
	done(&t);

	add(&into.cs, AA_OP_RENAME, "dir", "dir/sub/x", NULL)->dir_ok = 1;
	plan(&into);
	assert_int_equal(into.r, -1);
	assert_true(has_error(&into, "into itself"));
	done(&into);
}

static void test_file_directory_conflicts(void **state)
{
	run under = { 0 }, after_delete = { 0 }, over_dir = { 0 };

	(void)state;
	add(&under.cs, AA_OP_WRITE, "a.txt/x", NULL, "x\n");
	plan(&under);
	assert_int_equal(under.r, -1);
	assert_true(has_error(&under, "is a file"));
	done(&under);

	add(&after_delete.cs, AA_OP_DELETE, "a.txt", NULL, NULL);
	add(&after_delete.cs, AA_OP_WRITE, "a.txt/x", NULL, "x\n");
	plan(&after_delete);
	assert_int_equal(after_delete.r, 0);
	assert_int_equal(after_delete.plan.nchanges, 2);
	done(&after_delete);

	add(&over_dir.cs, AA_OP_WRITE, "dir", NULL, "x\n");
	plan(&over_dir);
	assert_int_equal(over_dir.r, -1);
	assert_true(has_error(&over_dir, "is a directory"));
	done(&over_dir);
}

static void test_symlink_and_submodule(void **state)
{
	run beyond = { 0 }, sub = { 0 }, edit = { 0 }, del = { 0 };

	(void)state;
	add(&beyond.cs, AA_OP_WRITE, "link/evil", NULL, "x\n");
	plan(&beyond);
	assert_int_equal(beyond.r, -1);
	assert_true(has_error(&beyond, "beyond a symbolic link"));
	done(&beyond);

	add(&sub.cs, AA_OP_WRITE, "mod/file", NULL, "x\n");
	plan(&sub);
	assert_int_equal(sub.r, -1);
	assert_true(has_error(&sub, "inside submodule"));
	done(&sub);

	add(&edit.cs, AA_OP_WRITE, "link", NULL, "other")->exist = AA_EXIST_MUST;
	plan(&edit);
	assert_int_equal(edit.r, -1);
	assert_true(has_error(&edit, "symbolic link"));
	done(&edit);

	add(&del.cs, AA_OP_DELETE, "link", NULL, NULL);
	plan(&del);
	assert_int_equal(del.r, 0);
	assert_false(change(&del, "link")->exists);
	done(&del);
}

static void test_paths_checked_first(void **state)
{
	run t = { 0 };

	(void)state;
	/* The first op would fail on its own; the bad path is still reported. */
	add(&t.cs, AA_OP_DELETE, "nope.txt", NULL, NULL);
	add(&t.cs, AA_OP_WRITE, "../evil", NULL, "x");
	plan(&t);
	assert_int_equal(t.r, -1);
	assert_true(has_error(&t, "invalid path"));
	assert_false(has_error(&t, "does not exist"));
	done(&t);
}

static void test_binary_refuses_text_edit(void **state)
{
	run t = { 0 };
	aa_op *op;

	(void)state;
	op = add(&t.cs, AA_OP_EDIT, "bin.dat", NULL, NULL);
	op->edit_kind = AA_EDIT_REPLACEMENTS;
	plan(&t);
	assert_int_equal(t.r, -1);
	assert_true(has_error(&t, "binary"));
	done(&t);
}

static void test_mode_change(void **state)
{
	run t = { 0 };
	aa_op *op;

	(void)state;
	op = add(&t.cs, AA_OP_EDIT, "run.sh", NULL, NULL);
	op->mode = 0100644;
	plan(&t);
	assert_int_equal(t.r, 0);
	assert_int_equal(change(&t, "run.sh")->mode, AA_MODE_FILE);
	done(&t);
}

/*
 * Directory questions answered by the planner's directory index: files
 * the set added and base files it deleted both count.
 */
static void test_directory_index(void **state)
{
	run emptied = { 0 }, added = { 0 }, moved = { 0 }, gone = { 0 };

	(void)state;
	/* every base file under dir/ deleted: "dir" may become a file */
	add(&emptied.cs, AA_OP_DELETE, "dir/b.txt", NULL, NULL);
	add(&emptied.cs, AA_OP_DELETE, "dir/sub/c.txt", NULL, NULL);
	add(&emptied.cs, AA_OP_WRITE, "dir", NULL, "now a file\n");
	add(&emptied.cs, AA_OP_WRITE, "dir/sub", NULL, "x\n");
	plan(&emptied);
	assert_int_equal(emptied.r, -1);
	assert_true(has_error(&emptied, "is a file, not a directory"));
	assert_int_equal(emptied.d.nerrors, 1);
	done(&emptied);

	/* a directory the set created is a directory, and can be deleted */
	add(&added.cs, AA_OP_WRITE, "new/x/y.txt", NULL, "y\n");
	add(&added.cs, AA_OP_WRITE, "new/x", NULL, "x\n");
	add(&added.cs, AA_OP_DELETE, "new", NULL, NULL)->dir_ok = 1;
	add(&added.cs, AA_OP_WRITE, "new", NULL, "file\n");
	plan(&added);
	assert_int_equal(added.r, -1);
	assert_int_equal(added.d.nerrors, 1);
	/* the one error: "new" became a file once its directory was gone */
	assert_true(has_error(&added, "is a directory"));
	done(&added);

	/* a renamed directory takes what the set added, not what it deleted */
	add(&moved.cs, AA_OP_WRITE, "dir/new.txt", NULL, "n\n");
	add(&moved.cs, AA_OP_DELETE, "dir/b.txt", NULL, NULL);
	add(&moved.cs, AA_OP_RENAME, "dir", "lib", NULL)->dir_ok = 1;
	plan(&moved);
	assert_int_equal(moved.r, 0);
	assert_non_null(change(&moved, "lib/new.txt"));
	assert_non_null(change(&moved, "lib/sub/c.txt"));
	assert_null(change(&moved, "lib/b.txt"));
	assert_false(change(&moved, "dir/sub/c.txt")->exists);
	assert_int_equal(moved.plan.nchanges, 4);
	done(&moved);

	/* once moved away, the old directory is gone: deleting it fails */
	add(&gone.cs, AA_OP_RENAME, "dir", "lib", NULL)->dir_ok = 1;
	add(&gone.cs, AA_OP_DELETE, "dir", NULL, NULL)->dir_ok = 1;
	add(&gone.cs, AA_OP_WRITE, "dir", NULL, "file\n");
	plan(&gone);
	assert_int_equal(gone.r, -1);
	assert_int_equal(gone.d.nerrors, 1);
	assert_true(has_error(&gone, "does not exist"));
	done(&gone);
}

static size_t count_level(const run *t, aa_diag_level level)
{
	size_t i, n = 0;

	for (i = 0; i < t->d.n; i++)
		n += t->d.v[i].level == level;
	return n;
}

/* Every failing operation is reported in one run, not only the first. */
static void test_every_error_in_one_run(void **state)
{
	run t = { 0 };

	(void)state;
	add(&t.cs, AA_OP_WRITE, "gone.txt", NULL, "x\n")->exist = AA_EXIST_MUST;
	add(&t.cs, AA_OP_DELETE, "nope.txt", NULL, NULL);
	add(&t.cs, AA_OP_WRITE, "new.txt", NULL, "fine\n");
	add(&t.cs, AA_OP_RENAME, "run.sh", "a.txt", NULL);
	plan(&t);
	assert_int_equal(t.r, -1);
	assert_int_equal(t.d.nerrors, 3);
	assert_true(has_error(&t, "nothing to replace"));
	assert_true(has_error(&t, "cannot delete it"));
	assert_true(has_error(&t, "refusing to rename onto it"));
	done(&t);
}

/*
 * Operations on a path that a failed operation should have created get
 * one note, not an error each.
 */
static void test_follow_on_failures_noted_once(void **state)
{
	run t = { 0 };
	size_t i;

	(void)state;
	add(&t.cs, AA_OP_WRITE, "a.txt/x", NULL, "x\n");
	for (i = 0; i < 3; i++)
		add(&t.cs, AA_OP_WRITE, "a.txt/x", NULL, "y\n")->exist = AA_EXIST_MUST;
	add(&t.cs, AA_OP_RENAME, "a.txt/x", "b.txt", NULL);
	add(&t.cs, AA_OP_DELETE, "b.txt", NULL, NULL);
	add(&t.cs, AA_OP_DELETE, "nope.txt", NULL, NULL);
	plan(&t);
	assert_int_equal(t.r, -1);
	assert_int_equal(t.d.nerrors, 2);
	assert_true(has_error(&t, "is a file, not a directory"));
	assert_true(has_error(&t, "cannot delete it"));
	assert_int_equal(count_level(&t, AA_DIAG_NOTE), 1);
	assert_non_null(strstr(t.d.v[1].msg, "depends on a.txt/x"));
	done(&t);
}

/* A refused directory rename moves nothing: later operations see it all. */
static void test_failed_directory_move_moves_nothing(void **state)
{
	run t = { 0 };
	aa_op *op;

	(void)state;
	/* a submodule in the directory is found after its files */
	op = add(&t.cs, AA_OP_WRITE, "dir/zz", NULL,
		 "Subproject commit 0123456789012345678901234567890123456789\n");
	op->mode = AA_MODE_GITLINK;
	op->exist = AA_EXIST_NEW;
	add(&t.cs, AA_OP_RENAME, "dir", "lib", NULL)->dir_ok = 1;
	add(&t.cs, AA_OP_WRITE, "dir/b.txt", NULL, "b2\n")->exist = AA_EXIST_MUST;
	add(&t.cs, AA_OP_DELETE, "dir/sub/c.txt", NULL, NULL);
	plan(&t);
	assert_int_equal(t.r, -1);
	assert_int_equal(t.d.nerrors, 1);
	assert_true(has_error(&t, "is a submodule; not moving it"));
	done(&t);
}

/* A snapshot whose objects cannot be read (an I/O error underneath). */
static int failing_read(void *ctx, const aa_oid *oid, aa_buf *out)
{
	(void)ctx;
	(void)oid;
	(void)out;
	return -1;
}

static const char *failing_why(void *ctx)
{
	(void)ctx;
	return "failed to read descriptor: Input/output error";
}

static const aa_snapshot failing = {
	.lookup = fake_lookup, .read = failing_read,
	.each_under = fake_each_under, .last_error = failing_why
};

/* A base that cannot be read is fatal and says why, not "not found". */
static void test_read_error_gives_the_reason(void **state)
{
	run t = { 0 };
	aa_op *op;
	aa_repl *rp;

	(void)state;
	op = add(&t.cs, AA_OP_EDIT, "a.txt", NULL, NULL);
	op->edit_kind = AA_EDIT_REPLACEMENTS;
	rp = aa_op_add_repl(op, pos);
	rp->find = aa_strdup("two");
	rp->find_len = 3;
	rp->replace = aa_strdup("TWO");
	rp->replace_len = 3;
	t.r = aa_plan_build(&t.plan, &t.cs, &failing, NULL, &t.d);
	assert_int_equal(t.r, -1);
	assert_true(t.plan.fatal);
	assert_true(has_error(&t, "cannot read the object: failed to read descriptor: Input/output error"));
	done(&t);
}

static void test_write_then_delete_is_no_change(void **state)
{
	run t = { 0 };

	(void)state;
	add(&t.cs, AA_OP_WRITE, "tmp.txt", NULL, "x\n");
	add(&t.cs, AA_OP_DELETE, "tmp.txt", NULL, NULL);
	plan(&t);
	assert_int_equal(t.r, 0);
	assert_int_equal(t.plan.nchanges, 0);
	done(&t);
}

/* ---- path resolution and no silent loss (issue 16 classes 3 and 7) ---- */

static aa_op *add_find(aa_changeset *cs, const char *path, const char *find,
		       const char *repl)
{
	aa_op *op = add(cs, AA_OP_EDIT, path, NULL, NULL);
	aa_repl *rp;

	op->edit_kind = AA_EDIT_REPLACEMENTS;
	rp = aa_op_add_repl(op, pos);
	rp->find = aa_strdup(find);
	rp->find_len = strlen(find);
	rp->replace = aa_strdup(repl);
	rp->replace_len = strlen(repl);
	return op;
}

static int has_diag(const run *t, aa_diag_level lv, const char *needle)
{
	size_t i;

	for (i = 0; i < t->d.n; i++)
		if (t->d.v[i].level == lv && strstr(t->d.v[i].msg, needle))
			return 1;
	return 0;
}

/* "b.txt" names no file; its SEARCH text is in dir/b.txt only. */
static void test_resolved_by_content(void **state)
{
	run t = { 0 };
	const aa_change *c;

	(void)state;
	add_find(&t.cs, "b.txt", "b", "B");
	plan(&t);
	assert_int_equal(t.r, 0);
	assert_null(change(&t, "b.txt"));
	c = change(&t, "dir/b.txt");
	assert_non_null(c);
	assert_memory_equal(c->data, "B\n", 2);
	assert_int_equal(c->landings[c->nlandings - 1].how, AA_HOW_PATH_RESOLVED);
	assert_true(has_diag(&t, AA_DIAG_WARNING, "taken as dir/b.txt"));
	done(&t);
}

/* An edit that fits no file of its name is refused naming them. */
static void test_resolution_refused(void **state)
{
	run t = { 0 };

	(void)state;
	add_find(&t.cs, "c.txt", "nowhere", "x");
	plan(&t);
	assert_int_equal(t.r, -1);
	assert_true(has_error(&t, "the edit does not fit the files of that name either: dir/sub/c.txt"));
	assert_int_equal(t.plan.nchanges, 0);
	done(&t);
}

/* "a/dir/b.txt": no directory a, dir/b.txt lives: the prefix goes. */
static void test_diff_prefix_by_the_tree(void **state)
{
	run t = { 0 };

	(void)state;
	add(&t.cs, AA_OP_WRITE, "a/dir/b.txt", NULL, "new\n");
	add(&t.cs, AA_OP_WRITE, "b/fresh.txt", NULL, "f\n")->exist = AA_EXIST_NEW;
	plan(&t);
	assert_int_equal(t.r, 0);
	assert_non_null(change(&t, "dir/b.txt"));
	assert_non_null(change(&t, "fresh.txt"));
	assert_null(change(&t, "a/dir/b.txt"));
	done(&t);
}

static void test_no_silent_loss(void **state)
{
	run t = { 0 };

	(void)state;
	add(&t.cs, AA_OP_WRITE, "bin.dat", NULL, "text\n");
	add(&t.cs, AA_OP_WRITE, "a.txt", NULL, "\n  \n");
	plan(&t);
	assert_int_equal(t.r, -1);
	assert_true(has_error(&t, "is a binary file"));
	assert_true(has_error(&t, "the block is empty and would empty the file"));
	done(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_new_file),
		cmocka_unit_test(test_lent_base_bytes),
		cmocka_unit_test(test_create_existing),
		cmocka_unit_test(test_replace_keeps_mode),
		cmocka_unit_test(test_replace_missing),
		cmocka_unit_test(test_delete_missing_and_dir),
		cmocka_unit_test(test_rename_keeps_blob),
		cmocka_unit_test(test_rename_onto_existing),
		cmocka_unit_test(test_rename_directory),
		cmocka_unit_test(test_diff_block_swaps),
		cmocka_unit_test(test_diff_block_copy_reads_the_base),
		cmocka_unit_test(test_diff_block_frees_first),
		cmocka_unit_test(test_diff_block_edit_of_freed_path),
		cmocka_unit_test(test_file_directory_conflicts),
		cmocka_unit_test(test_symlink_and_submodule),
		cmocka_unit_test(test_paths_checked_first),
		cmocka_unit_test(test_binary_refuses_text_edit),
		cmocka_unit_test(test_mode_change),
		cmocka_unit_test(test_write_then_delete_is_no_change),
		cmocka_unit_test(test_directory_index),
		cmocka_unit_test(test_every_error_in_one_run),
		cmocka_unit_test(test_follow_on_failures_noted_once),
		cmocka_unit_test(test_failed_directory_move_moves_nothing),
		cmocka_unit_test(test_read_error_gives_the_reason),
		cmocka_unit_test(test_resolved_by_content),
		cmocka_unit_test(test_resolution_refused),
		cmocka_unit_test(test_diff_prefix_by_the_tree),
		cmocka_unit_test(test_no_silent_loss),
	};

	return AA_RUN_TESTS(tests);
}
