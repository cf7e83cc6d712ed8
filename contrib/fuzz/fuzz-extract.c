/*
 * libFuzzer target: extraction over a whole answer (aa_parse_input
 * with --format=auto): block finding in prose, code fences, format
 * detection, and each format's parser on the blocks found. With and
 * without --strict; the input lies at the top of the work tree or in
 * a directory (ap paths are relative to it), by the input's length.
 *
 * Checks (fuzz.h): a failure reports an error, a success none, and the
 * change set holds only valid operations. (A failed input may keep the
 * operations of its good blocks: the caller drops them.)
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
	aa_input in = { "answer.md", NULL, 0, NULL };
	int strict;

	in.data = fz_copy(data, size);
	if (!in.data)
		return 0;
	in.len = size;
	in.dir_in_worktree = (size & 1) ? "dir" : NULL;
	for (strict = 0; strict <= 1; strict++) {
		aa_parse_opts o = { AA_FORMAT_AUTO, strict };
		aa_changeset cs = AA_CHANGESET_INIT;
		aa_diags d = AA_DIAGS_INIT;
		int r = aa_parse_input(&in, &o, &cs, &d);

		fz_check_parse("aa_parse_input", r, &cs, 0, 0, &d);
		aa_changeset_free(&cs);
		aa_diags_free(&d);
	}
	free((char *)in.data);
	return 0;
}
