/*
 * The edit engines in one table: each edit kind of the change set
 * (aa_edit_kind) names the engine that applies its payload. The planner
 * looks the engine up here and never switches over edit kinds; a new
 * kind is a new row (and a payload member in change/changeset.h, whose
 * memory change/changeset.c keeps).
 */
#include <stddef.h>

#include "edit/edit.h"

static const aa_engine engines[] = {
	{ AA_EDIT_NONE, "none", NULL, NULL },
	{ AA_EDIT_HUNKS, "hunks", aa_edit_hunks, NULL },
	{ AA_EDIT_REPLACEMENTS, "replacements", aa_edit_replacements, NULL },
	{ AA_EDIT_AP, "ap modifications", aa_edit_ap, NULL },
	{ AA_EDIT_V4A, "v4a chunks", aa_edit_v4a, NULL },
	{ AA_EDIT_ELIDE, "elisions", aa_edit_elide, NULL },
	/* bytes, not text: `bytes` instead of `apply` */
	{ AA_EDIT_BINARY, "binary patch", NULL, aa_edit_binary },
};

const aa_engine *aa_engine_of(aa_edit_kind kind)
{
	size_t i;

	for (i = 0; i < sizeof(engines) / sizeof(*engines); i++)
		if (engines[i].kind == kind)
			return &engines[i];
	return NULL;
}
