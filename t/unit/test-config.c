/* Unit tests for GIT_CONFIG_PARAMETERS parsing (src/workflow/config.c). */
#include <stdio.h>
#include <stdlib.h>
#include "unit.h"
#include "aiapply/config.h"

static void expect(const aa_config_params *p, size_t i, const char *name,
		   const char *value)
{
	assert_true(i < p->n);
	assert_string_equal(p->v[i].name, name);
	if (value)
		assert_string_equal(p->v[i].value, value);
	else
		assert_null(p->v[i].value);
}

static void test_old_and_new_style(void **state)
{
	aa_config_params p = AA_CONFIG_PARAMS_INIT;
	const char *why = NULL;

	(void)state;
	/* git < 2.31 quoted 'name=value'; later 'name'='value' */
	assert_int_equal(aa_config_parse_parameters(&p,
		"'color.ui=always' 'User.Name'='A B' 'core.bare'", &why), 0);
	assert_int_equal(p.n, 3);
	expect(&p, 0, "color.ui", "always");
	expect(&p, 1, "user.name", "A B");
	expect(&p, 2, "core.bare", NULL);
	aa_config_params_free(&p);
}

static void test_quotes_and_case(void **state)
{
	aa_config_params p = AA_CONFIG_PARAMS_INIT;
	const char *why = NULL;

	(void)state;
	/* sq_quote: ' as '\'' and ! as '\!'; the subsection keeps its case */
	assert_int_equal(aa_config_parse_parameters(&p,
		"'Branch.Main.Remote'='it'\\''s'\\!'' 'x.y'='a=b'", &why), 0);
	assert_int_equal(p.n, 2);
	expect(&p, 0, "branch.Main.remote", "it's!");
	expect(&p, 1, "x.y", "a=b");
	aa_config_params_free(&p);
}

static void test_empty_and_bogus(void **state)
{
	aa_config_params p = AA_CONFIG_PARAMS_INIT;
	const char *why = NULL;

	(void)state;
	assert_int_equal(aa_config_parse_parameters(&p, NULL, &why), 0);
	assert_int_equal(aa_config_parse_parameters(&p, "   ", &why), 0);
	assert_int_equal(p.n, 0);
	assert_int_equal(aa_config_parse_parameters(&p, "'color.ui", &why), -1);
	assert_non_null(why);
	assert_int_equal(aa_config_parse_parameters(&p, "'nosection=1'", &why), -1);
	assert_int_equal(aa_config_parse_parameters(&p, "'.x=1'", &why), -1);
	assert_int_equal(aa_config_parse_parameters(&p, "'x.=1'", &why), -1);
	aa_config_params_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_old_and_new_style),
		cmocka_unit_test(test_quotes_and_case),
		cmocka_unit_test(test_empty_and_bogus),
	};

	return AA_RUN_TESTS(tests);
}
