/*
 * libFuzzer target: an answer parsed with --format=auto, then split into
 * its alternatives (src/format/alternatives.c). Checks: the result is 0 or the
 * count of change sets, none empty, every operation valid, none lost;
 * each set is freed on its own, in reverse order, then the rest.
 */
#include "fuzz.h"
#include "format/alternatives.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	fz_init_oracles();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	aa_input in = { "answer.md", NULL, 0, NULL };
	aa_parse_opts o = { AA_FORMAT_AUTO, 0 };
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_alternatives alt = AA_ALTERNATIVES_INIT;
	aa_diags d = AA_DIAGS_INIT;
	size_t a, i, total = 0;
	int r;

	in.data = fz_copy(data, size);
	if (!in.data)
		return 0;
	in.len = size;
	if (aa_parse_input(&in, &o, &cs, &d) >= 0 && !d.nerrors) {
		r = aa_split_alternatives(&cs, &alt, &d);
		fz_check(r == 0 || r >= 2, "split", "bad result");
		fz_check(r < 2 ? alt.n == 0 : alt.n == (size_t)r, "split", "n");
		for (a = 0; a < alt.n; a++) {
			fz_check(alt.sets[a].n > 0, "split", "empty alternative");
			for (i = 0; i < alt.sets[a].n; i++)
				fz_check_op(&alt.sets[a].ops[i]);
			total += alt.sets[a].n;
		}
		fz_check(!alt.n || total >= cs.n, "split", "ops lost");
		/* free in a scrambled order: each on its own */
		for (a = alt.n; a-- > 0;)
			aa_changeset_free(&alt.sets[a]);
		aa_alternatives_free(&alt);
	}
	aa_changeset_free(&cs);
	aa_diags_free(&d);
	free((void *)in.data);
	return 0;
}
