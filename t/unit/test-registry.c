/* The format registry: names, the table's rows, the shared line map. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "format/lines.h"
#include "format/registry.h"

static void names_round_trip(void **state)
{
	size_t i;

	(void)state;
	assert_int_equal(aa_format_from_name("auto"), AA_FORMAT_AUTO);
	assert_string_equal(aa_format_name(AA_FORMAT_AUTO), "auto");
	assert_int_equal(aa_format_from_name("nope"), -1);
	assert_int_equal(aa_format_from_name(""), -1);
	for (i = 0; i < aa_format_nrows; i++) {
		const aa_format_row *r = &aa_format_rows[i];

		assert_non_null(r->name);
		assert_non_null(r->parse);
		assert_int_equal(aa_format_from_name(r->name), (int)r->id);
		assert_ptr_equal(aa_format_row_of(r->id), r);
		/* a region with an end needs a start line */
		if (r->region_end || r->wrapped)
			assert_non_null(r->starts);
		if (r->forced == AA_FORCED_FENCES)
			assert_non_null(r->forced_fence);
	}
	/* every enum value but auto has exactly one row */
	assert_int_equal(aa_format_nrows, AA_FORMAT_COUNT - 1);
}

static void list_has_every_name_once(void **state)
{
	aa_buf b = AA_BUF_INIT;
	size_t i, words = 0;
	char *w, *save = NULL;

	(void)state;
	assert_int_equal(aa_format_list(&b, " "), 0);
	for (w = strtok_r(b.ptr, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (!words++) {
			assert_string_equal(w, "auto");
			continue;
		}
		for (i = 0; i < aa_format_nrows; i++)
			if (!strcmp(w, aa_format_rows[i].name))
				break;
		assert_true(i < aa_format_nrows);
	}
	assert_int_equal(words, aa_format_nrows + 1);
	aa_buf_free(&b);
}

static void linemap_any_order(void **state)
{
	static const char s[] = "a\nbb\n\nccc\r\nd";
	aa_linemap m;

	(void)state;
	aa_linemap_init(&m, s, sizeof(s) - 1, 10);
	assert_int_equal(aa_linemap_line(&m, 12), 14);  /* "d" */
	assert_int_equal(aa_linemap_line(&m, 0), 10);
	assert_int_equal(aa_linemap_line(&m, 1), 10);   /* its '\n' */
	assert_int_equal(aa_linemap_line(&m, 2), 11);
	assert_int_equal(aa_linemap_line(&m, 5), 12);   /* the empty line */
	assert_int_equal(aa_linemap_line(&m, 10), 13);  /* the '\r' */
	assert_int_equal(aa_linemap_line(&m, sizeof(s) - 1), 14);
	aa_linemap_free(&m);

	aa_linemap_init(&m, "", 0, 1);
	assert_int_equal(aa_linemap_line(&m, 0), 1);
	aa_linemap_free(&m);
	/* ends with a newline: the end is the start of a new line */
	aa_linemap_init(&m, "x\n", 2, 1);
	assert_int_equal(aa_linemap_line(&m, 2), 2);
	aa_linemap_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_round_trip),
		cmocka_unit_test(list_has_every_name_once),
		cmocka_unit_test(linemap_any_order),
	};
	return AA_RUN_TESTS(tests);
}
