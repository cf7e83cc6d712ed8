/*
 * libFuzzer target: the unified / git diff parser (aa_parse_diff) over
 * a whole input taken as one block: with and without --strict, and
 * free-standing or bound to one path (as in a companion START-PATCH or
 * a file-changes FILE_PATCH, where hunks without a header apply to it).
 * Checks the parser contract of fuzz.h.
 */
#include "fuzz.h"

static const char *only_path;

static int parse_diff(const aa_block *b, const aa_parse_opts *o,
		      aa_changeset *cs, aa_diags *d)
{
	return aa_parse_diff(b, o, only_path, cs, d);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_init_oracles();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	only_path = NULL;
	fz_run_parser("aa_parse_diff", parse_diff, data, size);
	only_path = "dir/f.txt";
	fz_run_parser("aa_parse_diff (one path)", parse_diff, data, size);
	return 0;
}
