/* Unit tests for color values and color.* decisions (src/report/color.c). */
#include <stdio.h>
#include <stdlib.h>
#include "unit.h"
#include "aiapply/color.h"

struct color_case {
	const char *value;
	const char *seq; /* NULL: not a color */
};

static const struct color_case cases[] = {
	{ "red", "\033[31m" },
	{ "bold red", "\033[1;31m" },
	{ "red bold", "\033[1;31m" },
	{ "bold", "\033[1m" },
	{ "normal", "" },
	{ "", "" },
	{ "cyan", "\033[36m" },
	{ "brightblue", "\033[94m" },
	{ "red blue", "\033[31;44m" },
	{ "normal blue", "\033[44m" },
	{ "default", "\033[39m" },
	{ "208", "\033[38;5;208m" },
	{ "-1", "" },
	{ "#ff0080", "\033[38;2;255;0;128m" },
	{ "ul nobold", "\033[4;22m" },
	{ "no-reverse", "\033[27m" },
	{ "RED", "\033[31m" },
	{ "  green  ", "\033[32m" },
	{ "red blue green", NULL },
	{ "purple", NULL },
	{ "256", NULL },
	{ "#ff00", NULL },
	{ "#gg0000", NULL },
	{ "brightnormal", NULL },
	{ "nobogus", NULL },
};

static void test_values(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char seq[AA_COLOR_MAXLEN];
		int r = aa_color_parse(cases[i].value, seq);

		if (!cases[i].seq) {
			if (r != -1)
				fail_msg("'%s' was taken as a color", cases[i].value);
			continue;
		}
		if (r != 0)
			fail_msg("'%s' was refused", cases[i].value);
		assert_string_equal(seq, cases[i].seq);
	}
}

static void test_too_long_value(void **state)
{
	char seq[AA_COLOR_MAXLEN];
	char value[400] = "";
	int i;

	(void)state;
	/* 16 attributes fit; the 17th word is refused, never overflows */
	for (i = 0; i < 17; i++)
		strcat(value, "bold ");
	assert_int_equal(aa_color_parse(value, seq), -1);
	assert_int_equal(aa_color_parse("bold dim italic ul blink reverse strike "
					"#112233 #445566", seq), 0);
	assert_true(strlen(seq) < AA_COLOR_MAXLEN);
}

static void test_when(void **state)
{
	static const struct { const char *s; int when; } w[] = {
		{ "always", AA_COLOR_ALWAYS }, { "never", AA_COLOR_NEVER },
		{ "auto", AA_COLOR_AUTO }, { "true", AA_COLOR_AUTO },
		{ "yes", AA_COLOR_AUTO }, { "false", AA_COLOR_NEVER },
		{ "off", AA_COLOR_NEVER }, { "ALWAYS", AA_COLOR_ALWAYS },
	};
	aa_color_when got;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(w) / sizeof(*w); i++) {
		assert_int_equal(aa_color_parse_when(w[i].s, &got), 0);
		assert_int_equal(got, w[i].when);
	}
	assert_int_equal(aa_color_parse_when(NULL, &got), 0);
	assert_int_equal(got, AA_COLOR_ALWAYS);
	assert_int_equal(aa_color_parse_when("sometimes", &got), -1);
}

static void test_setup_off_gives_empty(void **state)
{
	aa_color c;

	(void)state;
	aa_color_setup(&c, NULL, AA_COLOR_NEVER, 1);
	assert_false(c.on);
	assert_string_equal(aa_color_get(&c, AA_COLOR_OLD), "");
	assert_string_equal(aa_color_get(NULL, AA_COLOR_OLD), "");
	aa_color_setup(&c, NULL, AA_COLOR_ALWAYS, 1);
	assert_true(c.on);
	assert_string_equal(aa_color_get(&c, AA_COLOR_RESET), "\033[m");
	assert_string_equal(aa_color_get(&c, AA_COLOR_FRAG), "\033[36m");
	assert_string_equal(aa_color_get(&c, AA_COLOR_NSLOTS), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_too_long_value),
		cmocka_unit_test(test_when),
		cmocka_unit_test(test_setup_off_gives_empty),
	};

	git_libgit2_init();
	return AA_RUN_TESTS(tests);
}
