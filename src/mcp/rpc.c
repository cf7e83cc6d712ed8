/*
 * The MCP server's output: JSON-RPC responses and errors, one message a
 * line, and its own log on standard error. The only writer of the
 * output stream.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp.h"
#include "util/util.h"

/* ---- output ---- */

int mcp_send(mcp_server *s, cJSON *msg)
{
	char *text = msg ? cJSON_PrintUnformatted(msg) : NULL;

	cJSON_Delete(msg);
	if (!text) {
		mcp_log(s, "out of memory: a message was not sent");
		return -1;
	}
	/* cJSON escapes every control character: the text is one line */
	if (!s->write_failed &&
	    (fputs(text, s->out) < 0 || fputc('\n', s->out) < 0 ||
	     fflush(s->out) < 0)) {
		s->write_failed = 1;
		mcp_log(s, "cannot write the output: %s", strerror(errno));
	}
	free(text);
	return s->write_failed ? -1 : 0;
}

static cJSON *envelope(const cJSON *id)
{
	cJSON *msg = cJSON_CreateObject();

	cJSON_AddStringToObject(msg, "jsonrpc", "2.0");
	cJSON_AddItemToObject(msg, "id", id ? cJSON_Duplicate(id, 1) :
			      cJSON_CreateNull());
	return msg;
}

int mcp_respond(mcp_server *s, const cJSON *id, cJSON *result)
{
	cJSON *msg = envelope(id);

	cJSON_AddItemToObject(msg, "result", result ? result :
			      cJSON_CreateObject());
	return mcp_send(s, msg);
}

int mcp_respond_error(mcp_server *s, const cJSON *id, int code,
		      const char *fmt, ...)
{
	cJSON *msg = envelope(id), *err = cJSON_CreateObject();
	aa_buf text = AA_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	aa_buf_vprintf(&text, fmt, ap);
	va_end(ap);
	cJSON_AddNumberToObject(err, "code", code);
	cJSON_AddStringToObject(err, "message", text.ptr ? text.ptr : "error");
	cJSON_AddItemToObject(msg, "error", err);
	aa_buf_free(&text);
	return mcp_send(s, msg);
}

void mcp_log(mcp_server *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->log)
		return;
	fputs("git ai-apply mcp: ", s->log);
	va_start(ap, fmt);
	vfprintf(s->log, fmt, ap);
	va_end(ap);
	fputc('\n', s->log);
	fflush(s->log);
}
