/* STUB: to be replaced by the real implementation. */
#include <stdlib.h>
#include <string.h>
#include "aiapply/common.h"
#include "aiapply/changeset.h"
#include "aiapply/text.h"
#include "aiapply/edit.h"
#include "aiapply/format.h"
#include "aiapply/path.h"
int aa_parse_companion(const aa_block *b, const aa_parse_opts *o, aa_changeset *cs, aa_diags *d)
{ (void)o; (void)cs; aa_pos p = { b->in->name, b->line }; return aa_error(d, p, NULL, "companion format not supported yet"); }
