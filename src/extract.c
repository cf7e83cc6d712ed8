/* Extraction: finds the change blocks of an input (diff only for now). */
#include <string.h>

#include "aiapply/format.h"

static const char *const format_names[] = {
	"auto", "companion", "file-changes", "aptix", "ap", "diff"
};

const char *aa_format_name(aa_format f)
{
	if ((unsigned)f < sizeof(format_names) / sizeof(*format_names))
		return format_names[f];
	return "?";
}

int aa_format_from_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(format_names) / sizeof(*format_names); i++)
		if (!strcmp(name, format_names[i]))
			return (int)i;
	return -1;
}

int aa_parse_input(const aa_input *in, const aa_parse_opts *o,
		   aa_changeset *cs, aa_diags *d)
{
	aa_block b = { in, in->data, in->len, 1 };

	return aa_parse_diff(&b, o, NULL, cs, d);
}
