/* Common include for the C unit tests: cmocka with TAP output for prove. */
#ifndef AA_UNIT_H
#define AA_UNIT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define AA_RUN_TESTS(tests) \
	(cmocka_set_message_output(CM_OUTPUT_TAP), \
	 cmocka_run_group_tests(tests, NULL, NULL))

/* The bytes a hex string spells (fixtures written by git), in *n; malloc'd. */
static inline unsigned char *unit_unhex(const char *s, size_t *n)
{
	size_t len = strlen(s), i;
	unsigned char *p = malloc(len / 2 + 1);

	assert_non_null(p);
	for (i = 0; i < len / 2; i++) {
		unsigned v;

		assert_int_equal(sscanf(s + 2 * i, "%2x", &v), 1);
		p[i] = (unsigned char)v;
	}
	*n = len / 2;
	return p;
}

#endif
