/*
 * -v, --verbose: the placements of a plan, one line each (verbose.c).
 */
#ifndef AA_REPORT_VERBOSE_H
#define AA_REPORT_VERBOSE_H

#include <stdio.h>
#include "aiapply/apply.h"
#include "plan/plan_types.h"

/*
 * Prints, for each changed file, "Checking patch <path>...", a line per
 * placement (input line, file line, offset, how) and, when it landed,
 * "Applied patch <path> cleanly." (or "with conflicts."). Returns 0.
 */
int aa_report_verbose(FILE *err, const aa_plan *plan, aa_outcome outcome);

#endif
