/* STUB: to be replaced by the real implementation. */
#include <stdlib.h>
#include <string.h>
#include "aiapply/common.h"
#include "aiapply/changeset.h"
#include "aiapply/text.h"
#include "aiapply/edit.h"
#include "aiapply/format.h"
#include "aiapply/path.h"
int aa_edit_replacements(aa_text *t, const aa_op *op, aa_edit_ctx *cx)
{ (void)t; return aa_error(cx->diags, op->pos, cx->path, "replacements not supported yet"); }
