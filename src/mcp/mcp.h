/*
 * The MCP server's insides, shared by its files: rpc.c (the output),
 * protocol.c (framing, JSON-RPC, the loop), session.c (initialize, ping, notifications,
 * roots, the repository between calls), tools.c (the tools: schemas
 * and calls) and schema.c (arguments checked against an inputSchema).
 */
#ifndef AA_MCP_H
#define AA_MCP_H

#include <stdio.h>
#include <cjson/cJSON.h>
#include <git2.h>
#include "aiapply/mcp.h"

/* A line longer than this is refused and skipped, never buffered whole. */
#define MCP_MAX_LINE (16u * 1024 * 1024)
/* Messages kept while a tool call waits for the client's roots. */
#define MCP_MAX_QUEUED 256

/* The JSON-RPC error codes. */
enum {
	MCP_PARSE_ERROR = -32700,
	MCP_INVALID_REQUEST = -32600,
	MCP_METHOD_NOT_FOUND = -32601,
	MCP_INVALID_PARAMS = -32602,
	MCP_INTERNAL_ERROR = -32603
};

typedef struct mcp_server {
	FILE *in, *out, *log;
	git_repository *repo;
	const char *version;
	int write_failed;        /* out cannot be written: end */
	/* the session */
	int initialized;         /* initialize answered */
	char *client_name;       /* clientInfo.name, or NULL */
	char *client_version;    /* clientInfo.version, or NULL */
	int log_level;           /* logging/setLevel's (index); -1: none asked */
	/* the client's roots, when it declared the capability */
	int client_roots;
	int roots_pending;       /* roots/list asked, no answer yet */
	unsigned long roots_asked;  /* the id of the last ask */
	int roots_known;         /* an answer came */
	int roots_lost;          /* the input ended before it came */
	char **roots;            /* the file roots, absolute, links resolved */
	size_t nroots;
	char *roots_error;       /* the client answered with an error */
	/* messages read while waiting for the roots, handled next */
	char **queue;
	size_t *queue_len;
	size_t nqueue, queue_head;
	/* the repository as last seen, to notice a user's own commands */
	git_oid head, index_sum;
	int seen;
	/*
	 * The repository's own object and reference databases: a landing
	 * puts a view over them into the repository (src/land/odb_view.c,
	 * refjournal.c) for its run; they are put back after every call.
	 */
	git_odb *odb;
	git_refdb *refdb;
	git_index *index;     /* the index file, kept open between calls */
	git_oid conflicts_of; /* the index version whose conflicts are known */
	int conflicts;        /* ... 1: it has conflict entries */
} mcp_server;

/* ---- rpc.c: the output ---- */

/* Sends msg (freed) as one line; -1 when out cannot be written. */
int mcp_send(mcp_server *s, cJSON *msg);
/* A response: result (freed) to request id (borrowed). */
int mcp_respond(mcp_server *s, const cJSON *id, cJSON *result);
/* An error response; id NULL: null. */
int mcp_respond_error(mcp_server *s, const cJSON *id, int code,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A line on the log (standard error), prefixed "git ai-apply mcp: ". */
void mcp_log(mcp_server *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- session.c ---- */

void mcp_initialize(mcp_server *s, const cJSON *id, const cJSON *params);
void mcp_set_level(mcp_server *s, const cJSON *id, const cJSON *params);
/* A notification from the client (no answer). */
void mcp_notification(mcp_server *s, const char *method, const cJSON *params);
/* A response from the client to one of our requests. */
void mcp_client_response(mcp_server *s, const cJSON *msg);
/*
 * Before every tool call: 1 when the work tree lies inside one of the
 * client's roots (or the client has none to offer), else 0 with the
 * reason in why.
 */
int mcp_roots_allow(mcp_server *s, aa_buf *why);
/*
 * Before every tool call: the index read again from disk (a user's git
 * add beside the server), HEAD looked up, and killed suggestion runs
 * settled, as every command-line run does.
 */
void mcp_refresh_repository(mcp_server *s);
/*
 * 1 when the kept index has conflict entries: asked once per version of
 * it (its checksum), not once per call (the question walks every entry).
 */
int mcp_index_conflicts(mcp_server *s);
/*
 * After every tool call: the repository's own databases put back, and
 * HEAD and the index as the call left them.
 */
void mcp_remember_repository(mcp_server *s);
/* At the start: keeps the repository's databases; -1 when it cannot. */
int mcp_keep_repository(mcp_server *s);
/* notifications/message to the client when it asked for this level. */
void mcp_notify_log(mcp_server *s, const char *level, const char *text);
void mcp_session_free(mcp_server *s);

/* ---- tools.c ---- */

/* Parses the tools' schemas once; -1 when out of memory. */
int mcp_tools_init(void);
void mcp_tools_free(void);
void mcp_tools_list(mcp_server *s, const cJSON *id);
void mcp_tools_call(mcp_server *s, const cJSON *id, const cJSON *params);

/* ---- schema.c ---- */

/*
 * Checks value against a JSON Schema of the subset the tools use (type,
 * properties, required, additionalProperties false, enum, items,
 * minItems, minimum). 0, or -1 with the first mismatch in why
 * ("argument 'strip' must be an integer").
 */
int mcp_schema_check(const cJSON *schema, const cJSON *value,
		     const char *name, aa_buf *why);

#endif
