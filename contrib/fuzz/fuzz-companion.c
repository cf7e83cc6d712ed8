/*
 * libFuzzer target: the companion parser (aa_parse_companion) over a whole input
 * taken as one block, with and without --strict. Checks the parser
 * contract of fuzz.h: a failure reports an error and rolls back, a
 * success appends only valid operations.
 */
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_init_oracles();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_run_parser("aa_parse_companion", aa_parse_companion, data, size);
	return 0;
}
