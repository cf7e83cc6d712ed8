/*
 * libaiapply: the API a program embedding git ai-apply calls. This header
 * includes every public one; a program needs nothing else (pkg-config
 * --cflags --libs aiapply gives the flags, libgit2's included).
 *
 *   aiapply/apply.h    the pipeline in one call: aa_apply(), --each
 *   aiapply/report.h   printing a run, its diagnostics, --list's table
 *   aiapply/list.h     the suggestion branches and how each merges
 *   aiapply/review.h   --review: the staged AI change
 *   aiapply/undo.h     --undo: the last staged landing put back
 *   aiapply/recover.h  finishing or undoing what a killed run left
 *   aiapply/mcp.h      the MCP server: the tools over JSON-RPC on two streams
 *   aiapply/config.h   git -c settings (GIT_CONFIG_PARAMETERS)
 *   aiapply/color.h    git's colors and when to use them
 *   aiapply/common.h   buffers, diagnostics, limits, return codes
 *
 * Conventions
 *
 * Errors: a fallible function returns AA_OK (0), AA_REJECTED (-1: the
 * input is refused, exit 1) or AA_FATAL (-2: the environment failed,
 * exit 128), and its messages go to the aa_diags the caller passes (or
 * the result holds). Nothing prints unless it is a report function
 * given a stream.
 *
 * Lifetimes: one verb, _free, and who allocated decides what it frees.
 *  - Opaque objects (aa_apply_result, aa_each_result) are allocated by
 *    the library and handed out through a `**` parameter; the caller
 *    releases each with aa_<type>_free(p), which frees the object and
 *    everything it holds. NULL is accepted. Pointers an accessor returns
 *    (aa_apply_result_diags(), aa_each_result_get(), ...) are borrowed:
 *    valid until the object they came from is freed, never freed alone.
 *  - Structs whose fields a header shows (aa_buf, aa_diags,
 *    aa_config_params) are the caller's: declared by the caller,
 *    initialised with AA_<TYPE>_INIT, filled by the library; the caller
 *    releases what they hold with aa_<type>_free(&x), which leaves x
 *    empty and usable again. The struct itself is never freed.
 *  - An array the library returns with its count is freed, elements and
 *    all, with its _free function (aa_suggestions_free(v, n)).
 *  - Options and what they point to (file names, branch names, streams,
 *    colors) stay the caller's and are only borrowed for the call.
 *  - git_repository handles are libgit2's: the caller opens and frees
 *    them (aa_apply_open_repository opens one as git would).
 */
#ifndef AIAPPLY_H
#define AIAPPLY_H

#include "aiapply/common.h"
#include "aiapply/color.h"
#include "aiapply/config.h"
#include "aiapply/apply.h"
#include "aiapply/list.h"
#include "aiapply/report.h"
#include "aiapply/review.h"
#include "aiapply/undo.h"
#include "aiapply/recover.h"
#include "aiapply/mcp.h"

#endif
