/*
 * git ai-apply mcp: a Model Context Protocol server on two streams
 * (newline-delimited JSON-RPC 2.0, one message a line), whose tools
 * call this library in the process -- check, apply, suggest,
 * list_suggestions, review, undo, recover -- with the repository kept
 * open between calls (src/mcp/, Documentation/workflows.md "MCP
 * server").
 */
#ifndef AIAPPLY_MCP_H
#define AIAPPLY_MCP_H

#include <stdio.h>
#include <git2.h>
#include "aiapply/common.h"

typedef struct aa_mcp_opts {
	/*
	 * The repository the tools work in, opened by the caller (as
	 * aa_apply_open_repository does) and borrowed for the whole
	 * session: the caller frees it after aa_mcp_serve returns.
	 */
	git_repository *repo;
	const char *version;  /* serverInfo.version; NULL: "unknown" */
	/*
	 * Diagnostics of the server itself (a message refused, the index
	 * read again): standard error; NULL: none. Never the output stream.
	 */
	FILE *log;
} aa_mcp_opts;

/*
 * Serves requests read from `in` one at a time, each answered on `out`
 * (nothing else is ever written there), until `in` ends: returns AA_OK
 * then. Bad input never ends it: each message gets its JSON-RPC error.
 * AA_FATAL when `out` cannot be written (the client went away).
 */
int aa_mcp_serve(FILE *in, FILE *out, const aa_mcp_opts *o);

#endif
