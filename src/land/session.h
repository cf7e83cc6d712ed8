/*
 * The lander's types (land.h has what it does): the landing's options,
 * the base opened once, and a lander (aa_session) on it. Apart from
 * land.h so that the files land.c calls (the work tree, the fast tree,
 * the objects, the snapshot) use them without including the header of
 * the file that calls them.
 */
#ifndef AA_LAND_SESSION_H
#define AA_LAND_SESSION_H

#include <git2.h>
#include "aiapply/apply.h"   /* aa_land_mode, aa_land_opts */
#include "land/fsync.h"
#include "plan/plan.h"

/*
 * The read-only side of a landing, opened once (libgit2's reader.h is the
 * model): the repository, the base commit and tree (--branch) or the
 * locked index (default, --cached). Several landers may share one base
 * (--each). It also holds the one object store they all write to: an
 * in-memory odb in front of the repository's (libgit2 cannot take a
 * backend out of an odb again), and the tip of refs/notes/ai-apply the
 * next lander's note is built on.
 */
typedef struct aa_base {
	git_repository *repo;
	const aa_land_opts *opts; /* mode and --base; a lander has its own */
	git_odb *odb;
	git_odb_backend *mempack;
	git_index *index;         /* default, --cached: the touched paths' entries (in memory) */
	struct aa_ixread *ixr;    /* the index, read in O(touched) */
	git_index *attr_index;    /* the repository's, .gitattributes only */
	char *const *touched;     /* default, --cached: while landing, the touched */
	size_t ntouched;          /* paths, sorted (land/index_write.h) */
	struct aa_guard *guard;   /* default, --cached: index lock and journal */
	git_commit *base_commit;  /* --branch: the parent (NULL when unborn) */
	git_tree *base_tree;      /* --branch: the base tree (NULL = empty) */
	git_oid notes_tip;        /* --branch: where the next note goes on */
	int notes_read;           /* notes_tip/notes_had are known */
	int notes_had;            /* refs/notes/ai-apply exists (at notes_tip) */
	struct aa_refjournal *refs; /* --branch: the run's ref journal */
	git_signature *author;    /* --branch: made once, for every lander */
	git_signature *committer;
	aa_fsync fsync;           /* what the writers make durable (land/fsync.h) */
	struct aa_attrs *attrs;   /* attribute answers kept (land/attrs.h) */
	git_object **retired;     /* --branch: bases moved from, kept for their */
	size_t nretired, capretired; /* landers (aa_base_retarget) */
	int drivers;              /* filter drivers configured: 2, none 1, 0 not known yet */
} aa_base;

/*
 * A lander: one landing on a base -- its options, the objects it made
 * (in the base's mempack), its commit and note. repo, index, base_commit
 * and base_tree are the base's, borrowed, for the readers (report,
 * history, work tree).
 */
typedef struct aa_session {
	git_repository *repo;
	git_index *index;
	struct aa_ixread *ixr;
	git_commit *base_commit;
	git_tree *base_tree;
	aa_base *base;           /* &own, or a shared one (aa_lander_begin) */
	aa_base own;
	aa_snapshot snap;
	const aa_land_opts *opts;
	git_oid *created;        /* objects written to the mempack */
	git_oid *bases;          /* ... each one's older version, or zero */
	size_t ncreated, capcreated;
	size_t npersisted;       /* created[0..npersisted) are on disk */
	git_oid commit;          /* --branch: the new commit */
	struct aa_pending *pending; /* --branch: prepared, refs not yet */
	/* per change: a skip-worktree entry (land/sparse.h); NULL: none */
	unsigned char *sparse;
	size_t nsparse;           /* the plan's changes when recorded */
	char *why;                /* the snapshot's last failure, ours (or NULL) */
	git_oid *smudged;         /* pairs: a smudged id, its real blob (filters.h) */
	size_t nsmudged, capsmudged;
	int attrs_direct;         /* answers from libgit2, none kept (land/attrs.h) */
} aa_session;

#endif
