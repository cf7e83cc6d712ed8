/*
 * Path resolution and no silent loss, the pure parts: labels as paths
 * (src/format/label.c) and the measures of src/plan/resolve.c.
 */
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"
#include "aiapply/common.h"
#include "format/registry.h"
#include "plan/resolve.h"
#include "label-fixture.h"

static void test_labels_as_people_write_them(void **state)
{
	(void)state;
	/* prefixes: kept for the planner (a/ and b/ by the tree), ./ dropped */
	assert_true(label_is("**a/inventory/__init__.py**", "a/inventory/__init__.py"));
	assert_true(label_is("./pkg/x.py", "pkg/x.py"));
	assert_true(label_is("`./pkg/x.py`", "pkg/x.py"));
	assert_true(label_is("/home/u/repo/x.py", "/home/u/repo/x.py"));
	assert_true(label_is("`/home/u/repo/Makefile`", "/home/u/repo/Makefile"));
	assert_true(label_is("### /api/users", NULL));
	assert_true(label_is("`/api/v1.0/users`", NULL));
	/* blanks: delimited, after a directory */
	assert_true(label_is("`src/my file.py`", "src/my file.py"));
	assert_true(label_is("**src/my file.py**", "src/my file.py"));
	assert_true(label_is("**File:** `docs/User Guide.md`", "docs/User Guide.md"));
	assert_true(label_is("src/my file.py", NULL));
	assert_true(label_is("**Update app.py**", NULL));
	assert_true(label_is("`python app.py`", NULL));
	assert_true(label_is("**Step 1: edit src/app.py**", NULL));
	assert_true(label_is("`src/my file.py `", "src/my file.py"));
	assert_true(label_is("**src/app.py and tests/x.py**", NULL));
	assert_true(label_is("`src/a.py, src/b.py`", NULL));
	assert_true(label_is("`docs/My Dir/x.md`", "docs/My Dir/x.md"));
	/* numbered list items */
	assert_true(label_is("1. `src/app.py`", "src/app.py"));
	assert_true(label_is("2) **src/app.py**:", "src/app.py"));
	assert_true(label_is("### 3. src/app.py", "src/app.py"));
	assert_true(label_is("1.5 is the version", NULL));
	/* dotless and dot files */
	assert_true(label_is("Makefile", "Makefile"));
	assert_true(label_is("`Dockerfile`:", "Dockerfile"));
	assert_true(label_is("docker/Dockerfile", "docker/Dockerfile"));
	assert_true(label_is(".gitignore", ".gitignore"));
	assert_true(label_is("**.env.example**", ".env.example"));
	assert_true(label_is("Here:", NULL));
	assert_true(label_is("Update", NULL));
	assert_true(label_is("Usage", NULL));
	assert_true(label_is("...", NULL));
	assert_true(label_is(".git", NULL));
	/* a shebang is no path */
	assert_true(label_is("!/bin/bash", NULL));
	/* info strings: "dockerfile" is a language there */
	assert_true(info_is("dockerfile", NULL));
	assert_true(info_is("Makefile", NULL));
	assert_true(info_is("make title=\"Makefile\"", "Makefile"));
	assert_true(info_is("python title=\"src/my file.py\"", "src/my file.py"));
	assert_true(info_is("python ./app/x.py", "app/x.py"));
	assert_true(info_is("python my file.py", NULL));
}

/* "Update `setup.py` as follows:" (src/format/label.c): one path, one span. */
static void test_sentences_that_name_a_file(void **state)
{
	(void)state;
	assert_true(sentence_is("Update `setup.py` as follows:", "setup.py"));
	assert_true(sentence_is("Here is the updated `src/app.py`:", "src/app.py"));
	assert_true(sentence_is("**Update `Makefile`:**", "Makefile"));
	assert_true(sentence_is("Create `docs/My Guide.md`:", "docs/My Guide.md"));
	assert_true(sentence_is("Update `run.py`:", "run.py"));
	/* not one: no colon, two spans, not a path, command or output words */
	assert_true(sentence_is("Update `setup.py` as follows.", NULL));
	assert_true(sentence_is("Replace `foo` in `setup.py`:", NULL));
	assert_true(sentence_is("Run `npm install`:", NULL));
	assert_true(sentence_is("Run `setup.py`:", NULL));
	assert_true(sentence_is("The output of `app.py`:", NULL));
	assert_true(sentence_is("For example, in `app.py`:", NULL));
	assert_true(sentence_is("Update `setup.py:", NULL));
	assert_true(sentence_is("Edit the file:", NULL));
	assert_true(sentence_is("```python `x.py`:", NULL));
	/* a label line is not a sentence's business, and the reverse */
	assert_true(label_is("Update `setup.py` as follows:", NULL));
}

static void test_common_tail(void **state)
{
	(void)state;
	assert_int_equal(aa_path_common_tail("models.py", "inventory/models.py"), 1);
	assert_int_equal(aa_path_common_tail("inventory/models.py", "src/inventory/models.py"), 2);
	assert_int_equal(aa_path_common_tail("x/inventory/models.py", "inventory/models.py"), 2);
	assert_int_equal(aa_path_common_tail("a/b", "a/b"), 2);
	assert_int_equal(aa_path_common_tail("models.py", "models.pyc"), 0);
	assert_int_equal(aa_path_common_tail("amodels.py", "b/models.py"), 0);
	assert_int_equal(aa_path_common_tail("tests/test_x.py", "src/test_x.py"), 1);
}

#define S(lit) lit, sizeof(lit) - 1

static void test_lines_confirm(void **state)
{
	static const char file[] =
		"from django.db import models\n\n"
		"class Item(models.Model):\n"
		"    name = models.CharField(max_length=100)\n"
		"    price = models.DecimalField()\n";

	(void)state;
	/* the file with an edit: most of its lines are there */
	assert_int_equal(aa_lines_confirm(S("from django.db import models\n\n"
		"class Item(models.Model):\n"
		"    name = models.CharField(max_length=200)\n"
		"    price = models.DecimalField()\n"), S(file)), 1);
	/* the file twice as long: most of the file's lines are in it */
	assert_int_equal(aa_lines_confirm(S("from django.db import models\n"
		"class Item(models.Model):\n"
		"    name = models.CharField(max_length=100)\n"
		"    price = models.DecimalField()\n"
		"class Other(models.Model):\n"
		"    kind = models.CharField()\n"
		"    size = models.IntegerField()\n"
		"    when = models.DateField()\n"), S(file)), 1);
	/* a different file sharing an import */
	assert_int_equal(aa_lines_confirm(S("from django.db import models\n"
		"import pytest\n\ndef test_item():\n    assert True\n"), S(file)), 0);
	/* too small to tell: never confirmed */
	assert_int_equal(aa_lines_confirm(S("x = 1\n"), S("x = 1\n")), 0);
	assert_int_equal(aa_lines_confirm(S(""), S(file)), 0);
	/* braces and blanks say nothing */
	assert_int_equal(aa_lines_confirm(S("}\n}\n}\n\n\n"), S("}\n}\n}\n")), 0);
}

static int def_is(const char *line, const char *want)
{
	const char *name = NULL;
	size_t n = aa_definition_name(line, strlen(line), &name);

	if (!n)
		return want == NULL;
	return want && n == strlen(want) && !memcmp(name, want, n);
}

static void test_definition_names(void **state)
{
	(void)state;
	assert_true(def_is("def alpha(x):", "alpha"));
	assert_true(def_is("async def beta():", "beta"));
	assert_true(def_is("class Gamma(Base):", "Gamma"));
	assert_true(def_is("function delta() {", "delta"));
	assert_true(def_is("export default function eps() {", "eps"));
	assert_true(def_is("export class Zeta {", "Zeta"));
	assert_true(def_is("pub fn eta() -> u8 {", "eta"));
	assert_true(def_is("pub(crate) fn theta() {", "theta"));
	assert_true(def_is("func (r *Reader) Iota() error {", "Iota"));
	assert_true(def_is("func kappa() {", "kappa"));
	assert_true(def_is("struct lambda {", "lambda"));
	assert_true(def_is("static int mu(const char *s)", "mu"));
	assert_true(def_is("int main(void)", "main"));
	assert_true(def_is("function* gen() {", "gen"));
	/* not definitions */
	assert_true(def_is("    def method(self):", NULL));
	assert_true(def_is("\tint x(void)", NULL));
	assert_true(def_is("setup(name=\"x\")", NULL));
	assert_true(def_is("int f(void);", NULL));
	assert_true(def_is("return foo(x)", NULL));
	assert_true(def_is("if (x) {", NULL));
	assert_true(def_is("x = f(1)", NULL));
	assert_true(def_is("import os", NULL));
	assert_true(def_is("@app.route(\"/\")", NULL));
	assert_true(def_is("", NULL));
}

static void test_removed_definitions(void **state)
{
	static const char old[] =
		"import os\n\ndef alpha():\n    return 1\n\n"
		"def beta():\n    return 2\n\nclass Gamma:\n    def m(self):\n        pass\n";
	aa_buf b = AA_BUF_INIT;
	size_t n = 0;

	(void)state;
	/* beta dropped; alpha changed (still defined); a method is not top level */
	assert_int_equal(aa_removed_definitions(S(old), S("import os\n\ndef alpha(x):\n"
		"    return x\n\nclass Gamma:\n    pass\n"), 8, &b, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(b.ptr, "beta");
	aa_buf_clear(&b);
	/* everything kept, one added */
	assert_int_equal(aa_removed_definitions(S(old), S("def alpha():\n\ndef beta():\n"
		"class Gamma:\ndef delta():\n"), 8, &b, &n), 0);
	assert_int_equal(n, 0);
	/* at most `max` names, then "..." */
	aa_buf_clear(&b);
	assert_int_equal(aa_removed_definitions(S(old), S("x = 1\n"), 2, &b, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(b.ptr, "alpha, beta, ...");
	aa_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_labels_as_people_write_them),
		cmocka_unit_test(test_sentences_that_name_a_file),
		cmocka_unit_test(test_common_tail),
		cmocka_unit_test(test_lines_confirm),
		cmocka_unit_test(test_definition_names),
		cmocka_unit_test(test_removed_definitions),
	};
	return AA_RUN_TESTS(tests);
}
