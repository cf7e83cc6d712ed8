/*
 * The MCP server's framing and JSON-RPC 2.0 (Documentation/workflows.md,
 * "MCP server"): one message a line on the input, one answer a line on
 * the output, nothing else written there. Bad input never ends the
 * server: an unparsable line is a parse error (-32700, id null), a
 * message that is no request an invalid request (-32600), an unknown
 * method -32601; a line longer than MCP_MAX_LINE is refused and skipped
 * without being kept. Requests are handled one at a time, in order; the
 * end of the input ends the server.
 */
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp.h"
#include "util/util.h"

/* ---- input ---- */

/*
 * One line of the input into line (without its newline): 1, or 0 at
 * the end. A line longer than MCP_MAX_LINE is read to its end and
 * dropped: *too_long set, line empty.
 */
static int read_line(mcp_server *s, aa_buf *line, int *too_long)
{
	int c, any = 0;

	aa_buf_clear(line);
	*too_long = 0;
	while ((c = getc(s->in)) != EOF) {
		any = 1;
		if (c == '\n')
			break;
		if (*too_long)
			continue;
		if (line->len >= MCP_MAX_LINE) {
			*too_long = 1;
			aa_buf_free(line);
			continue;
		}
		if (aa_buf_putc(line, (char)c) < 0)
			*too_long = 1;
	}
	if (line->len && line->ptr[line->len - 1] == '\r')
		line->ptr[--line->len] = '\0';
	return any;
}

/* ---- requests ---- */

/* A valid id: a string or a number (JSON-RPC; MCP forbids null). */
static int valid_id(const cJSON *id)
{
	return cJSON_IsString(id) || cJSON_IsNumber(id);
}

static int wait_for_roots(mcp_server *s);

/*
 * A tool call waits for the client's answer to roots/list (asked after
 * notifications/initialized), reading on: the refusal of a work tree
 * outside the roots must know them.
 */
static void call_tool(mcp_server *s, const cJSON *id, const cJSON *params)
{
	if (s->roots_pending && wait_for_roots(s) < 0)
		s->roots_lost = 1;
	mcp_tools_call(s, id, params);
}

static void dispatch_request(mcp_server *s, const char *method,
			     const cJSON *id, const cJSON *params)
{
	if (!strcmp(method, "ping")) {
		mcp_respond(s, id, NULL);
		return;
	}
	if (!strcmp(method, "initialize")) {
		mcp_initialize(s, id, params);
		return;
	}
	if (!s->initialized) {
		mcp_respond_error(s, id, MCP_INVALID_REQUEST,
				  "the server is not initialized: send initialize first");
		return;
	}
	if (!strcmp(method, "tools/list"))
		mcp_tools_list(s, id);
	else if (!strcmp(method, "tools/call"))
		call_tool(s, id, params);
	else if (!strcmp(method, "logging/setLevel"))
		mcp_set_level(s, id, params);
	else
		mcp_respond_error(s, id, MCP_METHOD_NOT_FOUND,
				  "method not found: %s",
				  aa_qtext(method, strlen(method), 200));
}

/* One parsed message: a request, a notification or a response. */
static void handle_message(mcp_server *s, const cJSON *msg)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
	const cJSON *method = cJSON_GetObjectItemCaseSensitive(msg, "method");
	const cJSON *params = cJSON_GetObjectItemCaseSensitive(msg, "params");
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(msg, "jsonrpc");
	const cJSON *reply_id = valid_id(id) ? id : NULL;

	if (!cJSON_IsObject(msg)) {
		mcp_respond_error(s, NULL, MCP_INVALID_REQUEST,
				  cJSON_IsArray(msg) ?
				  "invalid request: batches are not supported (one message a line)" :
				  "invalid request: a message is a JSON object");
		return;
	}
	if (!cJSON_IsString(version) || strcmp(version->valuestring, "2.0")) {
		mcp_respond_error(s, reply_id, MCP_INVALID_REQUEST,
				  "invalid request: \"jsonrpc\" must be \"2.0\"");
		return;
	}
	if (!method && (cJSON_HasObjectItem(msg, "result") ||
			cJSON_HasObjectItem(msg, "error")) && id) {
		mcp_client_response(s, msg);
		return;
	}
	if (!cJSON_IsString(method)) {
		mcp_respond_error(s, reply_id, MCP_INVALID_REQUEST,
				  "invalid request: \"method\" must be a string");
		return;
	}
	if (params && !cJSON_IsObject(params)) {
		/* JSON-RPC allows arrays; MCP's params are always objects */
		if (id)
			mcp_respond_error(s, reply_id, valid_id(id) ?
					  MCP_INVALID_PARAMS : MCP_INVALID_REQUEST,
					  "invalid params: \"params\" must be an object");
		return;
	}
	if (!id) {
		mcp_notification(s, method->valuestring, params);
		return;
	}
	if (!valid_id(id)) {
		mcp_respond_error(s, NULL, MCP_INVALID_REQUEST,
				  "invalid request: \"id\" must be a string or a number");
		return;
	}
	dispatch_request(s, method->valuestring, id, params);
}

/* One line of input: blank lines are skipped, as whitespace between messages. */
static void handle_line(mcp_server *s, const char *text, size_t len)
{
	cJSON *msg;
	size_t i;

	for (i = 0; i < len && strchr(" \t\r", text[i]); i++)
		;
	if (i == len)
		return;
	/* a NUL inside the line: not JSON text (cJSON would stop there) */
	if (memchr(text, '\0', len) ||
	    !(msg = cJSON_ParseWithLength(text, len))) {
		mcp_respond_error(s, NULL, MCP_PARSE_ERROR,
				  "parse error: the line is not a JSON value");
		return;
	}
	handle_message(s, msg);
	cJSON_Delete(msg);
}

/* The next message: a kept one first (read while waiting for roots). */
static int next_line(mcp_server *s, aa_buf *line, int *too_long)
{
	if (s->queue_head < s->nqueue) {
		size_t i = s->queue_head++;

		aa_buf_clear(line);
		aa_buf_put(line, s->queue[i], s->queue_len[i]);
		free(s->queue[i]);
		s->queue[i] = NULL;
		*too_long = aa_buf_oom(line);
		if (s->queue_head == s->nqueue)
			s->queue_head = s->nqueue = 0;
		return 1;
	}
	return read_line(s, line, too_long);
}

static void refuse_long_line(mcp_server *s)
{
	mcp_respond_error(s, NULL, MCP_INVALID_REQUEST,
			  "invalid request: a message longer than %u bytes was skipped",
			  MCP_MAX_LINE);
}

/* Keeps a message read while waiting for roots; -1 when too many. */
static int keep_line(mcp_server *s, const aa_buf *line)
{
	char **q;
	size_t *ql;

	if (s->nqueue >= MCP_MAX_QUEUED)
		return -1;
	q = realloc(s->queue, (s->nqueue + 1) * sizeof(*q));
	if (q)
		s->queue = q;
	ql = realloc(s->queue_len, (s->nqueue + 1) * sizeof(*ql));
	if (ql)
		s->queue_len = ql;
	if (!q || !ql || !(q[s->nqueue] = aa_strndup(line->ptr ? line->ptr : "",
						    line->len)))
		return -1;
	ql[s->nqueue++] = line->len;
	return 0;
}

/*
 * A line read while waiting for the roots: the client's response is
 * handled now; anything else is kept for later, in order. -1 when too
 * many are kept.
 */
static int take_while_waiting(mcp_server *s, const aa_buf *line)
{
	cJSON *msg = line->len && !memchr(line->ptr, '\0', line->len) ?
		     cJSON_ParseWithLength(line->ptr, line->len) : NULL;
	int response = cJSON_IsObject(msg) && !cJSON_HasObjectItem(msg, "method") &&
		       (cJSON_HasObjectItem(msg, "result") ||
			cJSON_HasObjectItem(msg, "error"));

	if (response)
		handle_message(s, msg);
	cJSON_Delete(msg);
	return response ? 0 : keep_line(s, line);
}

/*
 * Reads and handles the client's messages until its answer to roots/list
 * arrives; the requests read meanwhile are kept and handled afterwards.
 * 0, or -1 when the input ended or too many were kept.
 */
static int wait_for_roots(mcp_server *s)
{
	aa_buf line = AA_BUF_INIT;
	int too_long, r = 0;

	while (s->roots_pending && !s->write_failed) {
		if (!read_line(s, &line, &too_long)) {
			r = -1;
			break;
		}
		if (too_long)
			refuse_long_line(s);
		else if (take_while_waiting(s, &line) < 0) {
			mcp_log(s, "more than %d messages came before the answer to roots/list",
				MCP_MAX_QUEUED);
			r = -1;
			break;
		}
	}
	aa_buf_free(&line);
	return r;
}

int aa_mcp_serve(FILE *in, FILE *out, const aa_mcp_opts *o)
{
	mcp_server s;
	aa_buf line = AA_BUF_INIT;
	int too_long;

	memset(&s, 0, sizeof(s));
	s.in = in;
	s.out = out;
	s.log = o->log;
	s.repo = o->repo;
	s.version = o->version ? o->version : "unknown";
	s.log_level = -1;
	if (mcp_tools_init() < 0 || mcp_keep_repository(&s) < 0) {
		mcp_log(&s, "cannot start");
		mcp_session_free(&s);
		mcp_tools_free();
		return AA_FATAL;
	}
	while (!s.write_failed && next_line(&s, &line, &too_long)) {
		if (too_long)
			refuse_long_line(&s);
		else
			handle_line(&s, line.ptr ? line.ptr : "", line.len);
	}
	aa_buf_free(&line);
	mcp_session_free(&s);
	mcp_tools_free();
	return s.write_failed ? AA_FATAL : AA_OK;
}
