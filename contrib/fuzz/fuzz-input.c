/*
 * libFuzzer target: the whole parse + plan pipeline over arbitrary bytes.
 *
 * Each input is parsed with every --format (auto and the five named
 * ones), with and without --strict. Whenever a parse succeeds, the
 * change set is planned over a small fake base, so the edit engines
 * (hunks, replacements, ap locators) run on it too.
 *
 * The input may carry its own base file: everything after the first
 * line "=====BASE=====" is the content of the base files "f" and
 * "f.txt" (the answer is what comes before the marker). Without the
 * marker those two files hold a few fixed lines.
 *
 * Besides crashes, hangs and leaks, the target checks a few contracts
 * (see check_*): a failure always records an error, a success records
 * none, and every path a plan touches passes aa_path_check(). Set
 * AA_FUZZ_NO_ORACLES=1 to check crashes only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aiapply/common.h"
#include "format/format.h"
#include "change/path.h"
#include "plan/plan.h"

#define BASE_MARKER "=====BASE=====\n"

typedef struct fake_file {
	const char *path;
	uint32_t mode;
	const char *content;
	size_t len;         /* 0: strlen(content) */
} fake_file;

/* The fake base, sorted by path (each_under walks it in order). */
static fake_file base_files[] = {
	{ "a.txt", AA_MODE_FILE, "one\ntwo\nthree\n", 0 },
	{ "bin.dat", AA_MODE_FILE, "a\0b\n", 4 },
	{ "bom.txt", AA_MODE_FILE, "\xef\xbb\xbfone\ntwo\n", 0 },
	{ "config/services.yaml", AA_MODE_FILE,
	  "parameters:\n    locale: en\nservices:\n    _defaults:\n", 0 },
	{ "cr.txt", AA_MODE_FILE, "one\rtwo\rthree\r", 0 },
	{ "crlf.txt", AA_MODE_FILE, "one\r\ntwo\r\nthree\r\nfour", 0 },
	{ "dir/b.txt", AA_MODE_FILE, "b\n", 0 },
	{ "dir/sub/c.txt", AA_MODE_FILE, "c\nc\nc\n", 0 },
	{ "empty", AA_MODE_FILE, "", 0 },
	{ "f", AA_MODE_FILE, NULL, 0 },      /* the input's base, see above */
	{ "f.txt", AA_MODE_FILE, NULL, 0 },
	{ "image.png", AA_MODE_FILE, "PNG\n", 0 },
	{ "link", AA_MODE_LINK, "dir", 0 },
	{ "mod", AA_MODE_GITLINK, "", 0 },
	{ "noeol.txt", AA_MODE_FILE, "one\ntwo", 0 },
	{ "path/to/file.cs", AA_MODE_FILE,
	  "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n", 0 },
	{ "run.sh", AA_MODE_EXEC, "#!/bin/sh\necho hi\n", 0 },
	{ "src/Entity/User.php", AA_MODE_FILE,
	  "<?php\n\nnamespace App\\Entity;\n\n\n\n\n\n\n\n\n\n\n\n"
	  "class User\n{\n    private ?string $name = null;\n\n"
	  "    // ...\n}\n", 0 },
	{ "src/Foo.cs", AA_MODE_FILE,
	  "using System;\n\nnamespace App\n{\n\n\n\n\npublic class Foo\n{\n"
	  "    public int Count;\n}\n}\n", 0 },
	{ "src/MyFile.cs", AA_MODE_FILE,
	  "class MyFile {\n    public void OldMethod()\n    {\n"
	  "        _adminLogger.Trace(\"[OldTag]\");\n    }\n}\n", 0 },
	{ "src/calculator.py", AA_MODE_FILE,
	  "# A simple calculator module\nimport math\n\ndef add(a, b):\n"
	  "    # Deprecated: use sum() for lists\n    return a + b\n\n"
	  "def get_pi():\n    return 3.14\n", 0 },
	{ "src/legacy_mod.rs", AA_MODE_FILE, "pub fn init() {}\n", 0 },
	{ "src/main.rs", AA_MODE_FILE,
	  "fn main() {\n    println!(\"Starting...\");\n    core_mod::init();\n}\n",
	  0 },
	{ "temp_config.json", AA_MODE_FILE, "{}\n", 0 },
	{ "templates/legacy/old_template.html.twig", AA_MODE_FILE, "x\n", 0 },
	{ "u16be.txt", AA_MODE_FILE, "\xfe\xff\0o\0n\0e\0\n\0t\0w\0o\0\n", 14 },
	{ "u16le.txt", AA_MODE_FILE, "\xff\xfeo\0n\0e\0\r\0\n\0t\0w\0o\0\r\0\n\0",
	  18 },
	{ "wdir/x.txt", AA_MODE_FILE, "x\n", 0 },
};
#define NFILES (sizeof(base_files) / sizeof(*base_files))

static const char default_f[] = "one\ntwo\nthree\nfour\nfive\n";

/* The content of "f" / "f.txt" for the current input. */
static const char *dyn_data = default_f;
static size_t dyn_len = sizeof(default_f) - 1;

static int oracles = 1;

static int is_dynamic(size_t i)
{
	return base_files[i].content == NULL;
}

static void oid_of(size_t i, aa_oid *oid)
{
	memset(oid, 0, sizeof(*oid));
	oid->id[0] = (unsigned char)(i + 1);
	oid->id[19] = 0x5a;
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
	const fake_file *f;

	(void)ctx;
	if (i >= NFILES || oid->id[19] != 0x5a)
		return -1;
	f = &base_files[i];
	if (is_dynamic(i))
		return aa_buf_put(out, dyn_data, dyn_len);
	return aa_buf_put(out, f->content, f->len ? f->len : strlen(f->content));
}

static int fake_each_under(void *ctx, const char *dir, aa_each_fn fn, void *p)
{
	size_t i, l = strlen(dir);

	(void)ctx;
	for (i = 0; i < NFILES; i++) {
		aa_oid oid;

		if (strncmp(base_files[i].path, dir, l) || base_files[i].path[l] != '/')
			continue;
		oid_of(i, &oid);
		if (fn(base_files[i].path, base_files[i].mode, &oid, p))
			break;
	}
	return 0;
}

/* gitattributes of the fake base: "*.png binary". */
static int fake_attr_binary(void *ctx, const char *path)
{
	size_t l = strlen(path);

	(void)ctx;
	return l >= 4 && !strcmp(path + l - 4, ".png");
}

/* In the fake work tree, "wdir" is a symbolic link. */
static int fake_beyond_link(void *ctx, const char *path, char **link)
{
	(void)ctx;
	if (strncmp(path, "wdir/", 5))
		return 0;
	*link = aa_strdup("wdir");
	return 1;
}

static const aa_snapshot fake = {
	.lookup = fake_lookup, .read = fake_read,
	.each_under = fake_each_under, .attr_binary = fake_attr_binary,
	.worktree_beyond_link = fake_beyond_link
};

static void oracle_failed(const char *what, const char *detail)
{
	fprintf(stderr, "ORACLE: %s%s%s\n", what, detail ? ": " : "",
		detail ? detail : "");
	abort();
}

/* Every diagnostic formats, and the error count matches the list. */
static void check_diags(const aa_diags *d)
{
	size_t i, nerr = 0;

	for (i = 0; i < d->n; i++) {
		aa_buf b = AA_BUF_INIT;

		if (d->v[i].level == AA_DIAG_ERROR)
			nerr++;
		if (!d->v[i].msg)
			oracle_failed("diagnostic without a message", NULL);
		if (aa_diag_format(&d->v[i], &b) < 0)
			oracle_failed("aa_diag_format failed", d->v[i].msg);
		aa_buf_free(&b);
	}
	if (oracles && nerr != d->nerrors)
		oracle_failed("nerrors does not count the errors", NULL);
}

/* A return of -1 records an error; a success records none. */
static void check_result(const char *stage, int r, const aa_diags *d)
{
	check_diags(d);
	if (!oracles)
		return;
	if (r < 0 && !d->nerrors)
		oracle_failed(stage, "failed without an error");
	if (r >= 0 && d->nerrors)
		oracle_failed(stage, d->v[0].msg);
}

static void check_path(const char *what, const char *path)
{
	const char *why;

	if (!path)
		oracle_failed(what, "NULL path");
	if (aa_path_check(path, strlen(path), &why) < 0) {
		fprintf(stderr, "ORACLE: %s '%s': %s\n", what, path, why);
		abort();
	}
}

/* What a successful plan holds: valid paths, modes and contents. */
static void check_plan(const aa_plan *p)
{
	size_t i;

	if (!oracles)
		return;
	for (i = 0; i < p->nchanges; i++) {
		const aa_change *c = &p->changes[i];

		check_path("planned path", c->path);
		if (c->renamed_from)
			check_path("planned rename source", c->renamed_from);
		if (!c->exists)
			continue;
		if (c->mode != AA_MODE_FILE && c->mode != AA_MODE_EXEC &&
		    c->mode != AA_MODE_LINK && c->mode != AA_MODE_GITLINK)
			oracle_failed("planned mode is not a file mode", c->path);
		if (!c->has_oid && c->len && !c->data)
			oracle_failed("planned content is NULL", c->path);
	}
}

static void plan_changeset(const aa_changeset *cs, int allow_delete)
{
	aa_plan plan = AA_PLAN_INIT;
	aa_plan_opts po;
	aa_diags d = AA_DIAGS_INIT;
	int r;

	memset(&po, 0, sizeof(po));
	po.allow_delete = allow_delete;
	r = aa_plan_build(&plan, cs, &fake, &po, &d);
	check_result("aa_plan_build", r, &d);
	if (r == 0)
		check_plan(&plan);
	aa_plan_free(&plan);
	aa_diags_free(&d);
}

static void parse_and_plan(const aa_input *in, aa_format f, int strict)
{
	aa_parse_opts o;
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_diags d = AA_DIAGS_INIT;
	int r;

	memset(&o, 0, sizeof(o));
	o.format = f;
	o.strict = strict;
	r = aa_parse_input(in, &o, &cs, &d);
	check_result("aa_parse_input", r, &d);
	if (r > 0 && cs.n)
		plan_changeset(&cs, strict);
	aa_changeset_free(&cs);
	aa_diags_free(&d);
}

/* Splits off the base part; returns the answer's length. */
static size_t split_base(const uint8_t *data, size_t size)
{
	const size_t ml = sizeof(BASE_MARKER) - 1;
	size_t i;

	dyn_data = default_f;
	dyn_len = sizeof(default_f) - 1;
	for (i = 0; i + ml <= size; i++) {
		if ((i == 0 || data[i - 1] == '\n') &&
		    !memcmp(data + i, BASE_MARKER, ml)) {
			dyn_data = (const char *)data + i + ml;
			dyn_len = size - i - ml;
			return i;
		}
	}
	return size;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *e = getenv("AA_FUZZ_NO_ORACLES");

	(void)argc;
	(void)argv;
	oracles = !(e && *e && strcmp(e, "0"));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const aa_format formats[] = {
		AA_FORMAT_AUTO, AA_FORMAT_COMPANION, AA_FORMAT_FILE_CHANGES,
		AA_FORMAT_APTIX, AA_FORMAT_AP, AA_FORMAT_DIFF
	};
	size_t alen = split_base(data, size), fi;
	char *answer;
	aa_input in;
	int strict;

	/* An exact-size copy, so ASan sees any read past the answer. */
	answer = malloc(alen ? alen : 1);
	if (!answer)
		return 0;
	memcpy(answer, data, alen);
	memset(&in, 0, sizeof(in));
	in.name = "answer.md";
	in.data = answer;
	in.len = alen;
	/* ap paths are relative to the patch file's directory when set. */
	in.dir_in_worktree = (size & 1) ? "dir" : NULL;
	for (fi = 0; fi < sizeof(formats) / sizeof(*formats); fi++)
		for (strict = 0; strict <= 1; strict++)
			parse_and_plan(&in, formats[fi], strict);
	free(answer);
	return 0;
}
