/*
 * The pure measures behind path resolution and the no-silent-loss rules
 * (Documentation/locating.md, "Which file a path names"; landing.md,
 * "No silent loss"): how two paths share their
 * last components, whether a whole-file block is a version of a file,
 * and which top-level definitions a whole-file replacement drops. No
 * tree, no libgit2: the planner (src/plan/plan.c) asks them with the bytes.
 */
#ifndef AA_RESOLVE_H
#define AA_RESOLVE_H

#include <stddef.h>

#include "aiapply/common.h"

/*
 * How many trailing '/'-separated components `a` and `b` share:
 * 2 for "inventory/models.py" and "src/inventory/models.py", 1 for
 * "models.py" and "app/models.py", 0 when the file names differ.
 */
size_t aa_path_common_tail(const char *a, const char *b);

/*
 * 1 when `block`, offered as a whole file, is a version of `file`: at
 * least 3 meaningful lines (trimmed, 5 bytes or more, a letter or
 * digit among them) are shared both ways, and most of the block's
 * meaningful lines are lines of the file or most of the file's are
 * lines of the block. 0 otherwise; -1 when out of memory.
 */
int aa_lines_confirm(const char *block, size_t block_len, const char *file,
		     size_t file_len);

/*
 * The name a top-level definition line defines, or 0 when the line is
 * none: the line starts at column 0 and, after modifiers (export,
 * default, pub, pub(crate), async, static, public, private, protected,
 * abstract, final, inline, extern, unsafe, virtual), is a definition
 * keyword (def, class, function, fn, func, struct, enum, union,
 * interface, trait, impl, type, module, namespace, record, object,
 * macro) and a name (Go's "func (r *T) Name" skips the receiver); or a
 * C-like function head of two words or more before '(' that does not
 * end in ';' ("static int parse(const char *s)").
 */
size_t aa_definition_name(const char *line, size_t len, const char **name);

/*
 * The names of the top-level definitions of `old` that `new` no longer
 * defines, each once, joined by ", " into `out` (which it appends to),
 * at most `max` of them with ", ..." after; the count in *count.
 * Returns 0, or -1 when out of memory.
 */
int aa_removed_definitions(const char *old, size_t old_len, const char *new_,
			   size_t new_len, size_t max, aa_buf *out,
			   size_t *count);

#endif
