/*
 * libFuzzer target: the replacement engine (aptix find/replace,
 * aa_edit_replacements) and the ap engine (snippets, anchors,
 * aa_edit_ap) on a fake file, with no repository. fuzz-hunks does the
 * same for diffs.
 *
 * Input layout: an answer, then optionally a line "=====BASE=====" and
 * the bytes of the file it edits (without the marker, a small Python
 * file). The answer goes through extraction (aa_parse_input, auto);
 * each of its first few replacement or ap edits runs on a fresh decode
 * of the file, whatever path it names.
 *
 * Checks (abort, unless AA_FUZZ_NO_ORACLES=1): a failure reports an
 * error and a success none; the edited text encodes and its encoding
 * decodes and re-encodes to itself (fuzz.h: fz_check_edit).
 */
#include "fuzz.h"

#define MAX_EDITS 4

static const char default_base[] =
	"# A simple calculator module\nimport math\n\ndef add(a, b):\n"
	"    # Deprecated: use sum() for lists\n    return a + b\n\n"
	"def get_pi():\n    return 3.14\n";

static void edit_one(const aa_op *op, const char *base, size_t blen)
{
	aa_text t = AA_TEXT_INIT;
	aa_diags d = AA_DIAGS_INIT;
	aa_edit_ctx cx;
	const char *why = NULL;
	int r;

	if (aa_text_decode_borrowed(&t, base, blen, &why) < 0)
		goto out;
	memset(&cx, 0, sizeof(cx));
	cx.path = op->path;
	cx.diags = &d;
	cx.strict = op->strict;
	if (op->edit_kind == AA_EDIT_REPLACEMENTS) {
		r = aa_edit_replacements(&t, op, &cx);
		fz_check_edit("aa_edit_replacements", r, &t, &d);
	} else {
		r = aa_edit_ap(&t, op, &cx);
		fz_check_edit("aa_edit_ap", r, &t, &d);
	}
	aa_edit_ctx_release(&cx);
out:
	aa_text_free(&t);
	aa_diags_free(&d);
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
	aa_input in = { "answer.md", NULL, 0, NULL };
	aa_parse_opts o = { AA_FORMAT_AUTO, 0 };
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_diags d = AA_DIAGS_INIT;
	char *copy = fz_copy(data, size), *base = NULL;
	const char *bsrc;
	size_t blen, i, nedits = 0;

	if (!copy)
		return 0;
	in.data = copy;
	in.len = fz_split_base(copy, size, default_base,
			       sizeof(default_base) - 1, &bsrc, &blen);
	/* Both parts in exact-size buffers, so ASan sees over-reads. */
	base = fz_copy((const uint8_t *)bsrc, blen);
	if (!base || aa_parse_input(&in, &o, &cs, &d) <= 0)
		goto out;
	for (i = 0; i < cs.n && nedits < MAX_EDITS; i++) {
		const aa_op *op = &cs.ops[i];

		if (op->kind != AA_OP_EDIT ||
		    (op->edit_kind != AA_EDIT_REPLACEMENTS &&
		     op->edit_kind != AA_EDIT_AP))
			continue;
		edit_one(op, base, blen);
		nedits++;
	}
out:
	aa_changeset_free(&cs);
	aa_diags_free(&d);
	free(base);
	free(copy);
	return 0;
}
