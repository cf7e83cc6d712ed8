/* STUB: to be replaced by the real implementation. */
#include <stdlib.h>
#include <string.h>
#include "aiapply/common.h"
#include "aiapply/changeset.h"
#include "aiapply/text.h"
#include "aiapply/edit.h"
#include "aiapply/format.h"
#include "aiapply/path.h"
int aa_path_check(const char *path, size_t len, const char **why)
{ (void)path; if (!len) { *why = "empty path"; return -1; } return 0; }
char *aa_path_join(const char *dir, const char *path)
{ (void)dir; return aa_strdup(path); }
