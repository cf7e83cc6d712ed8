/*
 * The planner's private header: the overlay's node, the planner's
 * state, and the functions its pieces (src/plan/plan*.c) share. Only
 * those files include it.
 */
#ifndef AIAPPLY_PLANNER_H
#define AIAPPLY_PLANNER_H

#include "plan/plan_types.h"
#include "change/path.h"
#include "edit/text.h"
#include "edit/text_priv.h"
#include "plan/plan_dirs.h"
#include "plan/history_merge.h"
#include "plan/resolve.h"
#include "util/util.h"

/*
 * The pieces' shared functions keep their short names in the source;
 * the library exports them with the aa_pl_ prefix, as every symbol it
 * exports has an aa_ one.
 */
#define add_file_mark aa_pl_add_file_mark
#define append_landings aa_pl_append_landings
#define base_failed aa_pl_base_failed
#define check_binary_deletion aa_pl_check_binary_deletion
#define check_dir_worktree aa_pl_check_dir_worktree
#define check_leading_dirs aa_pl_check_leading_dirs
#define check_no_conflict aa_pl_check_no_conflict
#define check_no_directory aa_pl_check_no_directory
#define check_not_submodule aa_pl_check_not_submodule
#define check_path_syntax aa_pl_check_path_syntax
#define commit_result aa_pl_commit_result
#define deletes_as_gitlink aa_pl_deletes_as_gitlink
#define dir_walk aa_pl_dir_walk
#define dir_walk_free aa_pl_dir_walk_free
#define drop_diags aa_pl_drop_diags
#define edit_fits aa_pl_edit_fits
#define edit_node_text aa_pl_edit_node_text
#define edit_on_ladder aa_pl_edit_on_ladder
#define edit_and_commit aa_pl_edit_and_commit
#define edit_and_commit_if aa_pl_edit_and_commit_if
#define exact_here aa_pl_exact_here
#define existed_before aa_pl_existed_before
#define from_history aa_pl_from_history
#define from_index_line aa_pl_from_index_line
#define index_line_names_other aa_pl_index_line_names_other
#define index_line_names_node aa_pl_index_line_names_node
#define hunk_creates_file aa_pl_hunk_creates_file
#define inside_worktree aa_pl_inside_worktree
#define is_binary aa_pl_is_binary
#define is_directory aa_pl_is_directory
#define is_gitlink_mode aa_pl_is_gitlink_mode
#define load_text aa_pl_load_text
#define mark_resolved aa_pl_mark_resolved
#define mode_for_new aa_pl_mode_for_new
#define one_change_end aa_pl_one_change_end
#define moved_already aa_pl_moved_already
#define node_bytes aa_pl_node_bytes
#define node_delete aa_pl_node_delete
#define node_drop_data aa_pl_node_drop_data
#define node_find aa_pl_node_find
#define node_get aa_pl_node_get
#define node_set_data aa_pl_node_set_data
#define node_set_pending aa_pl_node_set_pending
#define node_settle aa_pl_node_settle
#define node_sync aa_pl_node_sync
#define oom aa_pl_oom
#define conflict_regions aa_pl_conflict_regions
#define plan_delete aa_pl_plan_delete
#define plan_binary_create aa_pl_plan_binary_create
#define plan_binary_edit aa_pl_plan_binary_edit
#define plan_edit aa_pl_plan_edit
#define plan_gitlink_add aa_pl_plan_gitlink_add
#define plan_gitlink_delete aa_pl_plan_gitlink_delete
#define plan_gitlink_update aa_pl_plan_gitlink_update
#define plan_move aa_pl_plan_move
#define plan_move_phase aa_pl_plan_move_phase
#define plan_write aa_pl_plan_write
#define read_base aa_pl_read_base
#define remember_resolved aa_pl_remember_resolved
#define resolve_op aa_pl_resolve_op
#define run_one_change aa_pl_run_one_change
#define run_op aa_pl_run_op
#define same_bytes aa_pl_same_bytes
#define under_dir aa_pl_under_dir
#define without_label_line aa_pl_without_label_line

struct aa_plan_node {
	char *path;
	int base_exists;
	uint32_t base_mode;
	aa_oid base_oid;
	const char *base_data;  /* base bytes, once read */
	size_t base_len;
	int base_read;
	void *base_lent;        /* the snapshot's handle when it lent them */

	int exists;
	uint32_t mode;
	int has_oid;
	aa_oid oid;
	char *data;
	size_t len;
	int data_lent;          /* data points into the change set: not ours */
	/*
	 * The content as an edited text not yet encoded (aa_plan_opts
	 * no_content: --check -q reads no bytes): its lines point into
	 * base_data and its own storage. node_settle() encodes it when
	 * anything asks for the bytes; data is NULL meanwhile.
	 */
	aa_text *pending;

	int touched;
	char *renamed_from;
	int copied;             /* renamed_from stays: a copy, not a move */
	int has_similarity;     /* the move's "similarity index" (aa_op) */
	unsigned similarity;
	int from_exists;        /* renamed_from's base entry */
	aa_oid from_oid;
	aa_landing *landings;
	size_t nlandings;

	int counted;            /* the `exists` the directory index knows */
	int listed;             /* recorded in its directories' lists */

	aa_pos written_at;      /* the last whole-file write of it (line 0: none) */

	int failed;             /* an operation on this path failed ... */
	aa_pos failed_at;       /* ... here (the first failure) */
	size_t failed_root;     /* the node of the path that failed first */
	int cascade_noted;      /* (on a root) its follow-on note was given */

	int bin_preview;        /* a preview's binary change, as the patch says (plan_binary.c) */
	int conflict;           /* --3way: data holds conflict markers */
	uint32_t stage_mode;    /* ... stages 1 and 2's mode */
	char *stage[3];         /* ... stages 1, 2, 3 (owned) */
	size_t stage_len[3];
	aa_conflict_region *regions;
	size_t nregions;
};

/*
 * A diff block applies as one change (plan_one_change.c) in phases:
 * renames and copies take their sources as they were before the block,
 * deletions and renames free their old paths, then the rest runs in
 * order. Outside such a block: PHASE_IN_ORDER.
 */
typedef enum one_change_phase {
	PHASE_IN_ORDER,
	PHASE_TAKE,
	PHASE_FREE,
	PHASE_FILL
} one_change_phase;

/* What a rename or copy of such a block took from its source. */
typedef struct held_file {
	int taken;          /* the fields below hold the source file */
	int failed;         /* the operation failed in an earlier phase */
	char *path, *to;    /* its paths as resolved (owned) */
	uint32_t mode;
	int has_oid;
	aa_oid oid;
	char *data;         /* owned copy, when !has_oid */
	size_t len;
	int base_exists;    /* the source's base entry (for reports) */
	aa_oid base_oid;
} held_file;

typedef struct planner {
	aa_plan *plan;
	const aa_snapshot *base;
	const aa_plan_opts *opts;
	aa_diags *d;
	/* every base file's path, read once when a path must be resolved */
	char **files;
	size_t nfiles, capfiles;
	int files_read, files_oom;
	const aa_changeset *cs; /* the operations, and the one running */
	size_t cur;
	/* paths resolved by content so far: from[i] was taken as to[i] */
	char **res_from, **res_to;
	size_t nres, capres;
	/* a diff block as one change (plan_one_change.c) */
	one_change_phase phase;
	held_file *held;        /* held[i]: the block's operation held_first + i */
	size_t held_first;
	int paths_resolved;     /* run_op: the operation's paths are final */
} planner;

/* No node (the table's empty slot, a failure without a root). */
#define NO_NODE ((size_t)-1)

/* The files under a directory in the overlay (dir_walk(), plan_paths.c). */
struct dir_walk {
	planner *p;
	char **paths;
	size_t n, cap;
	int any_only;     /* stop at the first live file */
	int count_all;    /* count every base file, live or not */
	size_t count;
	int found;
	int failed;
};

/* plan_nodes.c */
aa_plan_node *node_find(aa_plan *pl, const char *path);
int base_failed(planner *p, const char *path, const char *what);
aa_plan_node *node_get(planner *p, const char *path);
int oom(planner *p, aa_pos pos);
int read_base(planner *p, aa_plan_node *n);
int node_bytes(planner *p, aa_plan_node *n, const char **data,
	       size_t *len);
void node_drop_data(aa_plan_node *n);
void node_set_data(aa_plan_node *n, char *data, size_t len);
int node_set_pending(aa_plan_node *n, aa_text *t);
int node_settle(planner *p, aa_plan_node *n);
void node_delete(aa_plan_node *n);
int check_no_conflict(planner *p, aa_pos pos, const aa_plan_node *n);
int node_sync(planner *p, aa_plan_node *n);

/* plan_paths.c */
int under_dir(const char *path, const char *dir);
int dir_walk(planner *p, const char *dir, struct dir_walk *w);
void dir_walk_free(struct dir_walk *w);
int is_directory(planner *p, const char *path, int *yes);
int check_path_syntax(planner *p, aa_pos pos, const char *path);
int check_leading_dirs(planner *p, aa_pos pos, const char *path);
int check_dir_worktree(planner *p, aa_pos pos, const char *dir,
		       const struct dir_walk *w);
int check_not_submodule(planner *p, aa_pos pos, aa_plan_node *n);
int check_no_directory(planner *p, aa_pos pos, const char *path);
int mode_for_new(planner *p, aa_pos pos, const char *path,
		 uint32_t asked, uint32_t *out);
int is_binary(planner *p, const char *path, const char *data,
	      size_t len);

/* plan_gitlink.c */
int is_gitlink_mode(uint32_t mode);
int plan_gitlink_add(planner *p, const aa_op *op, aa_plan_node *n);
int plan_gitlink_update(planner *p, const aa_op *op, aa_plan_node *n);
int plan_gitlink_delete(planner *p, const aa_op *op, aa_plan_node *n);
int deletes_as_gitlink(const aa_op *op);

/* plan_write.c */
int same_bytes(const char *a, size_t alen, const char *b, size_t blen);
const aa_op *without_label_line(planner *p, const aa_op *op,
				aa_plan_node *n, aa_op *tmp);
int add_file_mark(planner *p, aa_plan_node *n, aa_pos pos, aa_how how);
int plan_write(planner *p, const aa_op *op);
int conflict_regions(const aa_buf *m, aa_conflict_region **out, size_t *n);

/* plan_history.c */
int exact_here(planner *p, const aa_op *op, aa_plan_node *n,
	       aa_enc *enc, int at_hints);
int from_history(planner *p, const aa_op *op, aa_plan_node *n);
int from_index_line(planner *p, const aa_op *op, aa_plan_node *n);
int index_line_names_other(const aa_op *op, const aa_plan_node *n);

/* plan_ops.c */
int hunk_creates_file(const aa_op *op);
int plan_edit(planner *p, const aa_op *op);
int existed_before(planner *p, const aa_plan_node *n);
int plan_delete(planner *p, const aa_op *op);
int moved_already(planner *p, const aa_op *op, const aa_plan_node *n);
int plan_move(planner *p, const aa_op *op, int move);
int plan_move_phase(planner *p, const aa_op *op, int move);

/* plan_one_change.c */
size_t one_change_end(const aa_changeset *cs, size_t i, int *as_one);
void run_one_change(planner *p, size_t from, size_t end);

/* plan_resolve.c */
const char *inside_worktree(planner *p, const char *path);
int remember_resolved(planner *p, aa_pos pos, const char *from,
		      const char *to);
int resolve_op(planner *p, const aa_op *op, aa_op *r, char **path,
	       char **to, int *by_content);
int mark_resolved(planner *p, const aa_op *op);

/* plan_edit.c */
int append_landings(planner *p, aa_plan_node *n, const aa_edit_ctx *cx);
int load_text(planner *p, const aa_op *op, aa_plan_node *n, aa_text *t);
int commit_result(planner *p, aa_plan_node *n, aa_buf *out,
		  const aa_edit_ctx *cx);
int edit_node_text(planner *p, const aa_op *op, aa_plan_node *n,
		   aa_engine_fn engine, aa_edit_ctx *cx, aa_buf *out,
		   aa_enc *enc);
int edit_on_ladder(planner *p, const aa_op *op, aa_plan_node *n);
int index_line_names_node(const aa_op *op, const aa_plan_node *n);
int edit_and_commit(planner *p, const aa_op *op, aa_plan_node *n,
		    aa_engine_fn engine, aa_edit_ctx *cx, aa_enc *enc);
int edit_and_commit_if(planner *p, const aa_op *op, aa_plan_node *n,
		       aa_engine_fn engine, aa_edit_ctx *cx, aa_enc *enc,
		       int (*keep)(const aa_edit_ctx *cx));
int edit_fits(const aa_op *op, aa_plan_node *n, const char *data,
	      size_t len);

/* plan_binary.c: binary patches, checked by object id */
int plan_binary_edit(planner *p, const aa_op *op, aa_plan_node *n);
int plan_binary_create(planner *p, const aa_op *op, aa_plan_node *n);
int check_binary_deletion(planner *p, const aa_op *op, aa_plan_node *n);

/* plan_run.c */
void run_op(planner *p, const aa_op *given);
void drop_diags(aa_diags *d, size_t from);

#endif
