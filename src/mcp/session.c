/*
 * The MCP session: initialize (the protocol version, what the server
 * offers, who the client is), logging/setLevel, the client's
 * notifications, its roots, and the repository between calls
 * (Documentation/workflows.md, "MCP server").
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <git2/sys/repository.h>

#include "aiapply.h"
#include "mcp/mcp.h"
#include "util/util.h"

/*
 * The protocol versions the server speaks, newest first: the newest the
 * official TypeScript SDK sends (its LATEST_PROTOCOL_VERSION) and the
 * older ones it still negotiates. A client asking another gets the
 * newest, and decides.
 */
static const char *const versions[] = {
	"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"
};

static const char instructions[] =
	"Lands the file changes an AI answer describes (unified or git diffs, "
	"V4A apply_patch, SEARCH/REPLACE blocks, whole files, any mix; the "
	"answer text as written) in this git repository, all or nothing: "
	"`check` first (writes nothing, says where each edit would go), then "
	"`apply` to stage it (or commit it on a new branch), `suggest` for "
	"several answers on a branch each; `review` and `undo` act on the "
	"last staged landing. A refused answer changes nothing and says the "
	"line and the reason.";

static const char *const levels[] = {
	"debug", "info", "notice", "warning", "error", "critical", "alert",
	"emergency"
};

#define NLEVELS (sizeof(levels) / sizeof(levels[0]))

static int level_index(const char *name)
{
	size_t i;

	for (i = 0; name && i < NLEVELS; i++)
		if (!strcmp(levels[i], name))
			return (int)i;
	return -1;
}

static const char *choose_version(const char *asked)
{
	size_t i;

	for (i = 0; asked && i < sizeof(versions) / sizeof(versions[0]); i++)
		if (!strcmp(versions[i], asked))
			return versions[i];
	return versions[0];
}

/* A string of the client (its name): kept, at most 200 bytes. */
static char *client_string(const cJSON *v)
{
	if (!cJSON_IsString(v) || !*v->valuestring)
		return NULL;
	return aa_strndup(v->valuestring, strnlen(v->valuestring, 200));
}

static cJSON *server_capabilities(void)
{
	cJSON *caps = cJSON_CreateObject();

	cJSON_AddItemToObject(caps, "tools", cJSON_CreateObject());
	cJSON_AddItemToObject(caps, "logging", cJSON_CreateObject());
	return caps;
}

void mcp_initialize(mcp_server *s, const cJSON *id, const cJSON *params)
{
	const cJSON *pv = cJSON_GetObjectItemCaseSensitive(params, "protocolVersion");
	const cJSON *info = cJSON_GetObjectItemCaseSensitive(params, "clientInfo");
	const cJSON *caps = cJSON_GetObjectItemCaseSensitive(params, "capabilities");
	cJSON *result, *server;

	if (s->initialized) {
		mcp_respond_error(s, id, MCP_INVALID_REQUEST,
				  "invalid request: the session is already initialized");
		return;
	}
	if (!cJSON_IsString(pv)) {
		mcp_respond_error(s, id, MCP_INVALID_PARAMS,
				  "invalid params: initialize needs \"protocolVersion\", a string");
		return;
	}
	free(s->client_name);
	free(s->client_version);
	s->client_name = client_string(cJSON_GetObjectItemCaseSensitive(info, "name"));
	s->client_version = client_string(cJSON_GetObjectItemCaseSensitive(info, "version"));
	s->client_roots = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(caps, "roots"));
	result = cJSON_CreateObject();
	cJSON_AddStringToObject(result, "protocolVersion", choose_version(pv->valuestring));
	cJSON_AddItemToObject(result, "capabilities", server_capabilities());
	server = cJSON_AddObjectToObject(result, "serverInfo");
	cJSON_AddStringToObject(server, "name", "git-ai-apply");
	cJSON_AddStringToObject(server, "title", "git ai-apply");
	cJSON_AddStringToObject(server, "version", s->version);
	cJSON_AddStringToObject(result, "instructions", instructions);
	s->initialized = 1;
	mcp_respond(s, id, result);
}

void mcp_set_level(mcp_server *s, const cJSON *id, const cJSON *params)
{
	const cJSON *level = cJSON_GetObjectItemCaseSensitive(params, "level");
	int k = cJSON_IsString(level) ? level_index(level->valuestring) : -1;

	if (k < 0) {
		mcp_respond_error(s, id, MCP_INVALID_PARAMS,
				  "invalid params: \"level\" must be one of debug, info, "
				  "notice, warning, error, critical, alert, emergency");
		return;
	}
	s->log_level = k;
	mcp_respond(s, id, NULL);
}

void mcp_notify_log(mcp_server *s, const char *level, const char *text)
{
	cJSON *msg, *params;

	mcp_log(s, "%s", text);
	/* sent once the client asked for a level: never unasked */
	if (s->log_level < 0 || level_index(level) < s->log_level)
		return;
	msg = cJSON_CreateObject();
	cJSON_AddStringToObject(msg, "jsonrpc", "2.0");
	cJSON_AddStringToObject(msg, "method", "notifications/message");
	params = cJSON_AddObjectToObject(msg, "params");
	cJSON_AddStringToObject(params, "level", level);
	cJSON_AddStringToObject(params, "logger", "git-ai-apply");
	cJSON_AddStringToObject(params, "data", text);
	mcp_send(s, msg);
}

/* ---- roots ---- */

/* Asks the client for its roots (a request of ours, id "roots-<n>"). */
static void ask_roots(mcp_server *s)
{
	cJSON *msg = cJSON_CreateObject();
	char id[32];

	snprintf(id, sizeof(id), "roots-%lu", ++s->roots_asked);
	cJSON_AddStringToObject(msg, "jsonrpc", "2.0");
	cJSON_AddStringToObject(msg, "id", id);
	cJSON_AddStringToObject(msg, "method", "roots/list");
	s->roots_pending = 1;
	mcp_send(s, msg);
}

/*
 * notifications/cancelled: requests are handled one at a time and each
 * is answered before the next line is read, so a cancellation always
 * names a request already answered (or none): ignored, as the protocol
 * allows. The others: initialized (then the roots are asked), the
 * roots' list_changed (asked again); any other is ignored.
 */
void mcp_notification(mcp_server *s, const char *method, const cJSON *params)
{
	(void)params;
	if (!strcmp(method, "notifications/initialized") && s->client_roots)
		ask_roots(s);
	else if (!strcmp(method, "notifications/roots/list_changed") &&
		 s->client_roots)
		ask_roots(s);
}

static void free_roots(mcp_server *s)
{
	size_t i;

	for (i = 0; i < s->nroots; i++)
		free(s->roots[i]);
	free(s->roots);
	s->roots = NULL;
	s->nroots = 0;
	free(s->roots_error);
	s->roots_error = NULL;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' :
	       c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/*
 * A root's file:// URI as a path, percent-decoded, its links resolved
 * when it exists; NULL when it is no file URI (another scheme names no
 * directory of ours) or decodes to a NUL.
 */
static char *root_path(const char *uri)
{
	char real[PATH_MAX], *out, *o;
	const char *p;

	if (strncmp(uri, "file://", 7))
		return NULL;
	p = uri + 7;
	if (!strncmp(p, "localhost/", 10))
		p += 9;
	if (*p != '/' || !(out = malloc(strlen(p) + 1)))
		return NULL;
	for (o = out; *p; p++) {
		if (*p == '%' && hexval(p[1]) >= 0 && hexval(p[2]) >= 0) {
			*o = (char)(hexval(p[1]) * 16 + hexval(p[2]));
			p += 2;
			if (!*o++) {
				free(out);
				return NULL;
			}
		} else
			*o++ = *p;
	}
	*o = '\0';
	/* a trailing slash is no part of the directory's name */
	while (o > out + 1 && o[-1] == '/')
		*--o = '\0';
	if (realpath(out, real)) {
		free(out);
		return aa_strdup(real);
	}
	return out;
}

static void take_roots(mcp_server *s, const cJSON *result)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(result, "roots"), *r;
	size_t n = (size_t)cJSON_GetArraySize(list);

	if (!cJSON_IsArray(list)) {
		s->roots_error = aa_strdup("the client's roots/list result has no \"roots\" array");
		return;
	}
	s->roots = calloc(n ? n : 1, sizeof(*s->roots));
	cJSON_ArrayForEach(r, list) {
		const cJSON *uri = cJSON_GetObjectItemCaseSensitive(r, "uri");
		char *path = cJSON_IsString(uri) ? root_path(uri->valuestring) : NULL;

		if (path && s->roots)
			s->roots[s->nroots++] = path;
		else
			free(path);
	}
}

void mcp_client_response(mcp_server *s, const cJSON *msg)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
	const cJSON *error = cJSON_GetObjectItemCaseSensitive(msg, "error");
	char want[32];

	snprintf(want, sizeof(want), "roots-%lu", s->roots_asked);
	if (!s->roots_pending || !cJSON_IsString(id) || strcmp(id->valuestring, want)) {
		mcp_log(s, "a response to no request of ours was ignored");
		return;
	}
	s->roots_pending = 0;
	s->roots_lost = 0;
	s->roots_known = 1;
	free_roots(s);
	if (error) {
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(error, "message");
		aa_buf why = AA_BUF_INIT;

		aa_buf_printf(&why, "the client answered roots/list with an error: %s",
			      cJSON_IsString(m) ? m->valuestring : "(no message)");
		s->roots_error = aa_buf_detach(&why);
		return;
	}
	take_roots(s, cJSON_GetObjectItemCaseSensitive(msg, "result"));
}

/* The directory the tools work in: the work tree, or a bare repository. */
static int work_dir(mcp_server *s, char *real)
{
	const char *wd = git_repository_workdir(s->repo);

	return realpath(wd ? wd : git_repository_path(s->repo), real) ? 0 : -1;
}

static int inside(const char *dir, const char *root)
{
	size_t n = strlen(root);

	if (!strcmp(root, "/"))
		return 1;
	return !strncmp(dir, root, n) && (dir[n] == '\0' || dir[n] == '/');
}

int mcp_roots_allow(mcp_server *s, aa_buf *why)
{
	char dir[PATH_MAX];
	size_t i;

	if (!s->client_roots)
		return 1;
	if (s->roots_lost) {
		aa_buf_puts(why, "the client's roots are not known (no answer to roots/list): "
			    "refusing to work in the repository");
		return 0;
	}
	if (!s->roots_known) {
		aa_buf_puts(why, "the client's roots are not known yet: send "
			    "notifications/initialized first");
		return 0;
	}
	if (s->roots_error) {
		aa_buf_printf(why, "%s: refusing to work in the repository", s->roots_error);
		return 0;
	}
	if (work_dir(s, dir) < 0) {
		aa_buf_puts(why, "cannot resolve the repository's work tree");
		return 0;
	}
	for (i = 0; i < s->nroots; i++)
		if (inside(dir, s->roots[i]))
			return 1;
	aa_buf_printf(why, "the repository's work tree %s is outside every root the "
		      "client gave (%zu root%s): nothing done", aa_qpath(dir),
		      s->nroots, s->nroots == 1 ? "" : "s");
	return 0;
}

/* ---- the repository between calls ---- */

/*
 * The index from disk, set as the repository's: a landing leaves its
 * private copy there (src/land/land.c), and a user's git add beside
 * the server must be seen. Kept open between calls: git_index_read()
 * without force parses the file again only when its stamp changed (a
 * landing or git add renames a new file into place), so a call that
 * changed nothing costs no parse of a large index. A bare repository
 * without one keeps none.
 */
static git_index *reread_index(mcp_server *s)
{
	aa_buf path = AA_BUF_INIT;
	struct stat st;

	if (s->index && git_index_read(s->index, 0) < 0) {
		git_index_free(s->index);  /* unreadable now: open it afresh */
		s->index = NULL;
	}
	aa_buf_printf(&path, "%sindex", git_repository_path(s->repo));
	if (!s->index && path.ptr &&
	    (!git_repository_is_bare(s->repo) || !stat(path.ptr, &st)) &&
	    git_index_open(&s->index, path.ptr) < 0)
		s->index = NULL;
	if (s->index && git_repository_set_index(s->repo, s->index) < 0) {
		git_index_free(s->index);
		s->index = NULL;
	}
	aa_buf_free(&path);
	git_error_clear();
	return s->index;
}

int mcp_index_conflicts(mcp_server *s)
{
	const git_oid *sum = s->index ? git_index_checksum(s->index) : NULL;

	/* no checksum to know the version by (index.skipHash writes zeros) */
	if (!sum || git_oid_is_zero(sum))
		return s->index ? git_index_has_conflicts(s->index) : 0;
	if (!git_oid_equal(sum, &s->conflicts_of)) {
		s->conflicts = git_index_has_conflicts(s->index);
		git_oid_cpy(&s->conflicts_of, sum);
	}
	return s->conflicts;
}

/* HEAD's commit and the index's checksum as they are now (zero: none). */
static void look(mcp_server *s, git_oid *head, git_oid *sum)
{
	git_index *idx = reread_index(s);

	memset(head, 0, sizeof(*head));
	memset(sum, 0, sizeof(*sum));
	if (git_reference_name_to_id(head, s->repo, "HEAD") < 0)
		git_error_clear();
	if (idx && git_index_checksum(idx))
		git_oid_cpy(sum, git_index_checksum(idx));
}

int mcp_keep_repository(mcp_server *s)
{
	if (git_repository_odb(&s->odb, s->repo) < 0 ||
	    git_repository_refdb(&s->refdb, s->repo) < 0) {
		mcp_log(s, "cannot open the repository's databases: %s",
			aa_git_error(NULL));
		return -1;
	}
	return 0;
}

/* The databases as they were before any landing's views. */
static void put_back_databases(mcp_server *s)
{
	if ((s->odb && git_repository_set_odb(s->repo, s->odb) < 0) ||
	    (s->refdb && git_repository_set_refdb(s->repo, s->refdb) < 0))
		mcp_log(s, "cannot reset the repository's databases: %s",
			aa_git_error(NULL));
	git_error_clear();
}

void mcp_refresh_repository(mcp_server *s)
{
	aa_diags d = AA_DIAGS_INIT;
	git_oid head, sum;

	put_back_databases(s);
	look(s, &head, &sum);
	if (s->seen && !git_oid_equal(&head, &s->head))
		mcp_notify_log(s, "info", "HEAD moved since the last call: "
			       "working on the new one");
	else if (s->seen && !git_oid_equal(&sum, &s->index_sum))
		mcp_notify_log(s, "info", "the index changed since the last "
			       "call: read again");
	/* as every command-line run: settle the refs of killed --branch runs */
	if (aa_apply_recover_refs(s->repo, &d) != 0 && s->log)
		aa_report_diags(s->log, &d);
	aa_diags_free(&d);
}

void mcp_remember_repository(mcp_server *s)
{
	put_back_databases(s);
	look(s, &s->head, &s->index_sum);
	s->seen = 1;
}

void mcp_session_free(mcp_server *s)
{
	size_t i;

	free_roots(s);
	git_odb_free(s->odb);
	git_refdb_free(s->refdb);
	git_index_free(s->index);
	free(s->client_name);
	free(s->client_version);
	for (i = s->queue_head; i < s->nqueue; i++)
		free(s->queue[i]);
	free(s->queue);
	free(s->queue_len);
}
