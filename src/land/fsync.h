/*
 * What a landing makes durable, and how: git's core.fsync,
 * core.fsyncMethod and the deprecated core.fsyncObjectFiles, read once
 * per landing and asked by every writer (Documentation/landing.md,
 * "fsync"). The parser is git's own rules (config.c,
 * parse_fsync_components), quirks included, so that one configuration
 * makes git and this command harden the same things.
 */
#ifndef AA_FSYNC_H
#define AA_FSYNC_H

#include <git2.h>
#include "aiapply/common.h"
#include "util/util.h"

/* git's components (cache.h's enum fsync_component), same bits. */
#define AA_FSYNC_LOOSE_OBJECT  (1u << 0)
#define AA_FSYNC_PACK          (1u << 1)
#define AA_FSYNC_PACK_METADATA (1u << 2)
#define AA_FSYNC_COMMIT_GRAPH  (1u << 3)
#define AA_FSYNC_INDEX         (1u << 4)
#define AA_FSYNC_REFERENCE     (1u << 5)
/*
 * Ours, no name of its own: the landing journals (the index journal, the
 * ref journal) and the removals that end them. In the default set and in
 * `all`: only `none` (or `-all`) turns it off.
 */
#define AA_FSYNC_JOURNAL       (1u << 6)

#define AA_FSYNC_OBJECTS (AA_FSYNC_LOOSE_OBJECT | AA_FSYNC_PACK)
#define AA_FSYNC_DERIVED_METADATA (AA_FSYNC_PACK_METADATA | AA_FSYNC_COMMIT_GRAPH)
#define AA_FSYNC_COMMITTED (AA_FSYNC_OBJECTS | AA_FSYNC_REFERENCE)
#define AA_FSYNC_ADDED (AA_FSYNC_COMMITTED | AA_FSYNC_INDEX)
#define AA_FSYNC_ALL (AA_FSYNC_ADDED | AA_FSYNC_DERIVED_METADATA | AA_FSYNC_JOURNAL)
/* git's FSYNC_COMPONENTS_DEFAULT, and the journals */
#define AA_FSYNC_DEFAULT \
	(((AA_FSYNC_OBJECTS | AA_FSYNC_DERIVED_METADATA) & ~AA_FSYNC_LOOSE_OBJECT) | \
	 AA_FSYNC_JOURNAL)

typedef enum aa_fsync_method {
	AA_FSYNC_METHOD_FSYNC,
	AA_FSYNC_METHOD_WRITEOUT_ONLY,
	AA_FSYNC_METHOD_BATCH
} aa_fsync_method;

typedef struct aa_fsync {
	unsigned components;    /* AA_FSYNC_* */
	aa_fsync_method method;
	int object_files;       /* core.fsyncObjectFiles: 1, 0, -1 unset */
} aa_fsync;

/* Unset configuration: git's default (and the journals), fsync(2). */
#define AA_FSYNC_INIT { AA_FSYNC_DEFAULT, AA_FSYNC_METHOD_FSYNC, -1 }

/*
 * Told of each name the parser ignores (name[0..len), a warning in git)
 * or, with name NULL, of a lone `-` (git's "invalid value").
 */
typedef void aa_fsync_unknown(void *ctx, const char *name, size_t len);

/*
 * The components one core.fsync value sets, as git 2.36+ computes them:
 * from the default, `none` (only as the last item, as git matches it)
 * clears it, names and aggregates add, `-name` removes from the default
 * (an added name wins over a removed one, whatever the order), a name is
 * matched as a prefix of git's names (`pack` is pack and pack-metadata),
 * an unknown name is told to `unknown` (may be NULL) and ignored, a lone
 * `-` ends the list. The empty value is the default.
 */
unsigned aa_fsync_parse_components(const char *value,
				   aa_fsync_unknown *unknown, void *ctx);
/* core.fsyncMethod's value: 0 and *out set, -1 unknown (*out kept). */
int aa_fsync_parse_method(const char *value, aa_fsync_method *out);

/*
 * The repository's settings, each entry in git's order (later ones win;
 * an unknown method keeps the one before), warnings as git gives them in
 * d. Unreadable configuration: the default.
 */
void aa_fsync_read(aa_fsync *f, git_repository *repo, aa_diags *d);

/*
 * How a file of `component` (one AA_FSYNC_* bit) is made durable:
 * AA_SYNC_NONE when it is not to be; writeout-only as the method says;
 * loose objects under `batch` are written out (aa_fsync_batched: the
 * caller flushes once at the end); everything else under `batch` as
 * fsync, as git.
 */
aa_sync aa_fsync_how(const aa_fsync *f, unsigned component);
/* Loose objects are batched: written out each, one flush for all. */
int aa_fsync_batched(const aa_fsync *f);
/* aa_sync_fd / aa_sync_dir / aa_sync_dir_of as aa_fsync_how says. */
int aa_fsync_file(const aa_fsync *f, unsigned component, int fd);
int aa_fsync_dir_for(const aa_fsync *f, unsigned component, const char *dir);
int aa_fsync_parent(const aa_fsync *f, unsigned component, const char *path);

#endif
