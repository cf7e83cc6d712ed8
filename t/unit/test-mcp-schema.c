/* Unit tests for a tool call's arguments against its schema (src/mcp/schema.c). */
#include <stdio.h>
#include <stdlib.h>
#include "unit.h"
#include "mcp/mcp.h"

static const char schema[] =
	"{\"type\":\"object\",\"properties\":{"
	"\"answer\":{\"type\":\"string\"},"
	"\"strip\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":100},"
	"\"strict\":{\"type\":\"boolean\"},"
	"\"mode\":{\"type\":\"string\",\"enum\":[\"index\",\"cached\"]},"
	"\"answers\":{\"type\":\"array\",\"minItems\":1,\"items\":{\"type\":\"string\"}},"
	"\"base\":{\"type\":[\"string\",\"null\"]}},"
	"\"required\":[\"answer\"],\"additionalProperties\":false}";

struct args_case {
	const char *args;
	const char *why;      /* NULL: accepted; else a part of the reason */
};

static const struct args_case cases[] = {
	{ "{\"answer\":\"x\"}", NULL },
	{ "{\"answer\":\"\",\"strip\":0,\"strict\":false}", NULL },
	{ "{\"answer\":\"x\",\"strip\":100,\"mode\":\"cached\"}", NULL },
	{ "{\"answer\":\"x\",\"answers\":[\"a\",\"b\"],\"base\":null}", NULL },
	{ "{\"answer\":\"x\",\"base\":\"HEAD\"}", NULL },
	{ "{}", "'answer' is required" },
	{ "[]", "must be an object" },
	{ "\"x\"", "must be an object" },
	{ "{\"answer\":1}", "'answer' must be a string" },
	{ "{\"answer\":null}", "'answer' must be a string" },
	{ "{\"answer\":\"x\",\"strip\":\"1\"}", "'strip' must be an integer" },
	{ "{\"answer\":\"x\",\"strip\":1.5}", "'strip' must be an integer" },
	{ "{\"answer\":\"x\",\"strip\":1e300}", "'strip' must be an integer" },
	{ "{\"answer\":\"x\",\"strip\":-1}", "at least 0" },
	{ "{\"answer\":\"x\",\"strip\":101}", "at most 100" },
	{ "{\"answer\":\"x\",\"strict\":1}", "'strict' must be a boolean" },
	{ "{\"answer\":\"x\",\"mode\":\"branch\"}", "not one of index, cached" },
	{ "{\"answer\":\"x\",\"answers\":[]}", "at least 1 item" },
	{ "{\"answer\":\"x\",\"answers\":[\"a\",2]}", "'answers' must be a string" },
	{ "{\"answer\":\"x\",\"answers\":\"a\"}", "'answers' must be an array" },
	{ "{\"answer\":\"x\",\"base\":1}", "'base' has the wrong type" },
	{ "{\"answer\":\"x\",\"extra\":1}", "unknown argument \"extra\"" },
};

static void test_arguments(void **state)
{
	cJSON *s = cJSON_Parse(schema);
	size_t i;

	(void)state;
	assert_non_null(s);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cJSON *args = cJSON_Parse(cases[i].args);
		aa_buf why = AA_BUF_INIT;
		int r;

		assert_non_null(args);
		r = mcp_schema_check(s, args, "arguments", &why);
		if (!cases[i].why) {
			if (r != 0)
				fail_msg("%s refused: %s", cases[i].args, why.ptr);
		} else if (r != -1 || !why.ptr || !strstr(why.ptr, cases[i].why)) {
			fail_msg("%s: wanted '%s', got %d '%s'", cases[i].args,
				 cases[i].why, r, why.ptr ? why.ptr : "");
		}
		aa_buf_free(&why);
		cJSON_Delete(args);
	}
	cJSON_Delete(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arguments),
	};

	return AA_RUN_TESTS(tests);
}
