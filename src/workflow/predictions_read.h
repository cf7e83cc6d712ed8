/*
 * --predictions: reading a predictions file into records, and the
 * branch name each lands on (Documentation/workflows.md, "##
 * Predictions"). Pure: no repository; the run is predictions.c.
 */
#ifndef AA_PREDICTIONS_READ_H
#define AA_PREDICTIONS_READ_H

#include <stddef.h>
#include "aiapply/common.h"

/* One prediction as the file gives it. Every string is owned. */
typedef struct aa_prediction {
	long line;          /* JSON Lines: its line; a JSON list: 0 */
	size_t record;      /* its place in the file, from 1 */
	char *name;         /* instance_id, or the manifest's name */
	char *model;        /* model_name_or_path; NULL in a manifest */
	char *base;         /* the revision it lands on; NULL: none given */
	char *answer;       /* the answer's text (answer_len bytes) ... */
	size_t answer_len;
	char *answer_file;  /* ... or its file, as the manifest names it */
	char *branch;       /* <prefix>/<model>/<name>, made a branch name */
	char *error;        /* a record that cannot land: why */
	int empty;          /* ... the model made no change */
	int no_base;        /* ... no base given */
} aa_prediction;

typedef struct aa_predictions {
	aa_prediction *v;
	size_t n, cap;
} aa_predictions;

/* base_commit of each instance_id (--dataset: SWE-bench's dataset rows). */
typedef struct aa_base_row {
	char *id;
	char *commit;
} aa_base_row;

typedef struct aa_base_map {
	aa_base_row *v;      /* sorted by id (a repeated id: either) */
	size_t n;
} aa_base_map;

/*
 * Reads the rows of a dataset (a JSON list, an object of rows or JSON
 * Lines of objects with instance_id and base_commit; other fields are
 * ignored) into m. -1 with the error in d, naming `name` and the line.
 */
int aa_base_map_read(const char *data, size_t len, const char *name,
		     aa_base_map *m, aa_diags *d);
/* The base_commit of `id`, or NULL (borrowed). */
const char *aa_base_map_get(const aa_base_map *m, const char *id);
void aa_base_map_free(aa_base_map *m);

/*
 * Reads a predictions file: a JSON list, an object keyed by instance_id,
 * or JSON Lines, of SWE-bench predictions ({instance_id,
 * model_name_or_path, model_patch[, base_commit]}) or manifest records
 * ({name, base, answer | answer_file}). The base of a SWE-bench record
 * is its base_commit, else bases' (NULL: none). Each record's branch
 * is made under `prefix`. A record that cannot land (a JSON line that
 * does not parse, no answer, no base) is kept with its error: the
 * others land. -1 with the error in d only when the file as a whole
 * cannot be read (a JSON list that does not parse, no record at all).
 */
int aa_predictions_read(const char *data, size_t len, const char *name,
			const aa_base_map *bases, const char *prefix,
			aa_predictions *out, aa_diags *d);
void aa_predictions_free(aa_predictions *p);

/*
 * A branch name git accepts (`git check-ref-format --branch`):
 * `prefix` (itself one) then each part as one component, "/" between.
 * A byte git refuses in a name (controls, space, ~ ^ : ? * [ \, DEL)
 * becomes '-', as do a part's own '/'s (so no branch of a run is a
 * directory of another's), "@{"'s brace, a '.' after a '.' and a
 * leading '.'; a trailing '.' or ".lock" loses its dot to '-'; a part
 * left empty (or all dots) is "-". NULL parts are skipped. -1 when out
 * of memory.
 */
int aa_prediction_branch(const char *prefix, const char *const *parts,
			 size_t nparts, aa_buf *out);

#endif
