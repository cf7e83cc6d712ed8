/* Common include for the C unit tests: cmocka with TAP output for prove. */
#ifndef AA_UNIT_H
#define AA_UNIT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#define AA_RUN_TESTS(tests) \
	(cmocka_set_message_output(CM_OUTPUT_TAP), \
	 cmocka_run_group_tests(tests, NULL, NULL))

#endif
