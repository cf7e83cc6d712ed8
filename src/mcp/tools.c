/*
 * The MCP server's tools (Documentation/workflows.md, "MCP server"):
 * their schemas, and each call made through the library as the command
 * line makes it -- aa_apply(), aa_apply_each(), --list's, --review's,
 * --undo's and --recover's entry points -- in this process, on the
 * repository the server keeps open. A tool's structuredContent is the
 * document the command line prints with --json for the same run (the
 * report stage's, one error channel), its text the closing line and the
 * messages the command line prints on standard error. A refused answer
 * is a result with isError true, never a JSON-RPC error; arguments are
 * checked against the inputSchema before any work (-32602).
 */
#include <stdlib.h>
#include <string.h>

#include "aiapply.h"
#include "mcp/mcp.h"
#include "util/util.h"

/* ---- schemas ---- */

/* The report of a run: the document report.c's print_json writes. */
#define DIAGS_SCHEMA \
	"{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{" \
	"\"message\":{\"type\":\"string\"},\"path\":{\"type\":\"string\"}," \
	"\"input\":{\"type\":\"string\"},\"line\":{\"type\":\"integer\"}}," \
	"\"required\":[\"message\"]}}"
#define FILE_SCHEMA \
	"{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}," \
	"\"status\":{\"type\":\"string\",\"description\":\"A, M, D, R or C\"}," \
	"\"from\":{\"type\":\"string\"},\"mode\":{\"type\":\"string\"}," \
	"\"binary\":{\"type\":\"boolean\"},\"added\":{\"type\":\"integer\"}," \
	"\"removed\":{\"type\":\"integer\"}," \
	"\"edits\":{\"type\":\"array\",\"items\":{\"type\":\"object\"}}," \
	"\"skip_worktree\":{\"type\":\"boolean\"}," \
	"\"conflicted\":{\"type\":\"boolean\"}," \
	"\"conflicts\":{\"type\":\"array\",\"items\":{\"type\":\"object\"}}}," \
	"\"required\":[\"path\",\"status\"]}"
#define NEXT_SCHEMA \
	"{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{" \
	"\"do\":{\"type\":\"string\"},\"run\":{\"type\":\"string\"}}," \
	"\"required\":[\"do\",\"run\"]}}"
#define REPORT_PROPS \
	"\"status\":{\"type\":\"string\",\"enum\":[\"applied\",\"checked\"," \
	"\"already-applied\",\"rejected\",\"fatal\",\"conflicted\"]}," \
	"\"mode\":{\"type\":\"string\",\"enum\":[\"index\",\"cached\",\"branch\",\"check\"]}," \
	"\"branch\":{\"type\":\"string\"},\"commit\":{\"type\":\"string\"}," \
	"\"files\":{\"type\":\"array\",\"items\":" FILE_SCHEMA "}," \
	"\"written\":{\"type\":\"string\"},\"next\":" NEXT_SCHEMA "," \
	"\"warnings\":" DIAGS_SCHEMA ",\"notes\":" DIAGS_SCHEMA "," \
	"\"errors\":" DIAGS_SCHEMA
#define REPORT_REQUIRED \
	"[\"status\",\"mode\",\"files\",\"written\",\"next\",\"warnings\"," \
	"\"notes\",\"errors\"]"
#define REPORT_SCHEMA \
	"{\"type\":\"object\",\"properties\":{" REPORT_PROPS "}," \
	"\"required\":" REPORT_REQUIRED "}"

/* The arguments every answer takes. */
#define ANSWER_ARGS \
	"\"answer\":{\"type\":\"string\",\"description\":\"The AI's answer " \
	"exactly as written: prose and change blocks in any format (diffs, " \
	"V4A apply_patch, SEARCH/REPLACE, whole files, ...), mixed.\"}," \
	"\"format\":{\"type\":\"string\",\"description\":\"The answer's " \
	"format; auto (the default) detects each block.\"}," \
	"\"strict\":{\"type\":\"boolean\",\"description\":\"Enforce the " \
	"unified diff contract exactly (format diff only).\"}," \
	"\"strip\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":100000," \
	"\"description\":\"A diff's names lose this many leading components " \
	"(git apply -p<n>).\"}," \
	"\"name\":{\"type\":\"string\",\"description\":\"The answer's label " \
	"in messages and in a branch's trailers (default: answer).\"}"

static const char check_input[] =
	"{\"type\":\"object\",\"properties\":{" ANSWER_ARGS "},"
	"\"required\":[\"answer\"],\"additionalProperties\":false}";
static const char check_output[] =
	"{\"type\":\"object\",\"properties\":{" REPORT_PROPS ","
	"\"diff\":{\"type\":\"string\",\"description\":\"The change as a git diff\"}},"
	"\"required\":" REPORT_REQUIRED "}";
static const char apply_input[] =
	"{\"type\":\"object\",\"properties\":{" ANSWER_ARGS ","
	"\"mode\":{\"type\":\"string\",\"enum\":[\"index\",\"cached\",\"branch\"],"
	"\"description\":\"index (default): staged, index and work tree; cached: "
	"the index only; branch: a commit on a new branch, HEAD untouched.\"},"
	"\"branch\":{\"type\":\"string\",\"description\":\"The new branch (mode branch).\"},"
	"\"base\":{\"type\":\"string\",\"description\":\"The branch's base revision (default HEAD).\"},"
	"\"message\":{\"type\":\"string\",\"description\":\"The branch commit's message.\"},"
	"\"threeway\":{\"type\":\"boolean\",\"description\":\"A stale answer: write "
	"the conflicting merge with markers instead of refusing (git apply --3way).\"},"
	"\"force\":{\"type\":\"boolean\",\"description\":\"Replace an existing branch.\"}},"
	"\"required\":[\"answer\"],\"additionalProperties\":false}";
static const char suggest_input[] =
	"{\"type\":\"object\",\"properties\":{"
	"\"answers\":{\"type\":\"array\",\"minItems\":1,\"items\":{\"type\":\"string\"},"
	"\"description\":\"The answers, each landed on a branch of its own.\"},"
	"\"branch\":{\"type\":\"string\",\"description\":\"The branches' prefix: "
	"<branch>-1, <branch>-2, ...\"},"
	"\"base\":{\"type\":\"string\",\"description\":\"The base revision (default HEAD).\"},"
	"\"format\":{\"type\":\"string\",\"description\":\"The answers' format "
	"(default auto).\"},"
	"\"message\":{\"type\":\"string\",\"description\":\"The commits' message.\"}},"
	"\"required\":[\"answers\",\"branch\"],\"additionalProperties\":false}";
/* either the set (--each --json) or, nothing tried, a stopped run's report */
static const char suggest_output[] =
	"{\"type\":\"object\",\"properties\":{"
	"\"suggestions\":{\"type\":\"array\",\"items\":" REPORT_SCHEMA "},"
	"\"landed\":{\"type\":\"integer\"},\"failed\":{\"type\":\"integer\"},"
	REPORT_PROPS "}}";
static const char no_input[] =
	"{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}";
static const char list_output[] =
	"{\"type\":\"object\",\"properties\":{"
	"\"status\":{\"type\":\"string\",\"enum\":[\"listed\",\"fatal\"]},"
	"\"suggestions\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
	"\"properties\":{\"branch\":{\"type\":\"string\"},\"answer\":{\"type\":\"string\"},"
	"\"commit\":{\"type\":\"string\"},\"base\":{\"type\":[\"string\",\"null\"]},"
	"\"files\":{\"type\":\"integer\"},\"added\":{\"type\":\"integer\"},"
	"\"removed\":{\"type\":\"integer\"},\"merge\":{\"type\":\"string\"}},"
	"\"required\":[\"branch\",\"commit\",\"merge\"]}},"
	"\"errors\":" DIAGS_SCHEMA "},\"required\":[\"status\",\"suggestions\",\"errors\"]}";
static const char review_output[] =
	"{\"type\":\"object\",\"properties\":{"
	"\"status\":{\"type\":\"string\",\"enum\":[\"staged\",\"none\",\"error\"]},"
	"\"answers\":{\"type\":\"array\"},\"assisted_by\":{\"type\":[\"string\",\"null\"]},"
	"\"files\":{\"type\":\"array\",\"items\":{\"type\":\"object\"}},"
	"\"warnings\":{\"type\":\"array\"},\"diff\":{\"type\":\"string\"},"
	"\"errors\":{\"type\":\"array\"}},\"required\":[\"status\"]}";
/* --undo and --recover print no JSON: these are the server's own */
static const char undo_output[] =
	"{\"type\":\"object\",\"properties\":{"
	"\"status\":{\"type\":\"string\",\"enum\":[\"undone\",\"nothing\",\"refused\",\"fatal\"]},"
	"\"output\":{\"type\":\"string\",\"description\":\"What --undo prints: a line per path\"},"
	"\"warnings\":" DIAGS_SCHEMA ",\"notes\":" DIAGS_SCHEMA ",\"errors\":" DIAGS_SCHEMA "},"
	"\"required\":[\"status\",\"output\",\"warnings\",\"notes\",\"errors\"]}";
static const char recover_output[] =
	"{\"type\":\"object\",\"properties\":{"
	"\"status\":{\"type\":\"string\",\"enum\":[\"recovered\",\"nothing\",\"fatal\"]},"
	"\"warnings\":" DIAGS_SCHEMA ",\"notes\":" DIAGS_SCHEMA ",\"errors\":" DIAGS_SCHEMA "},"
	"\"required\":[\"status\",\"warnings\",\"notes\",\"errors\"]}";

/* What a call returns: structuredContent (or NULL), the text, isError. */
typedef struct tool_out {
	cJSON *structured;
	aa_buf text;
	int is_error;
} tool_out;

typedef void (*tool_fn)(mcp_server *s, const cJSON *args, tool_out *out);

typedef struct tool {
	const char *name, *title, *description;
	const char *input, *output;
	int read_only, destructive, idempotent;
	tool_fn call;
	cJSON *input_schema, *output_schema;  /* parsed once */
} tool;

static void call_check(mcp_server *s, const cJSON *args, tool_out *out);
static void call_apply(mcp_server *s, const cJSON *args, tool_out *out);
static void call_suggest(mcp_server *s, const cJSON *args, tool_out *out);
static void call_list(mcp_server *s, const cJSON *args, tool_out *out);
static void call_review(mcp_server *s, const cJSON *args, tool_out *out);
static void call_undo(mcp_server *s, const cJSON *args, tool_out *out);
static void call_recover(mcp_server *s, const cJSON *args, tool_out *out);

static tool tools[] = {
	{ "check", "Check an AI answer",
	  "Validates an AI answer against the repository and says what would "
	  "land: each file, where each edit would go and how, warnings, errors "
	  "with the answer's line, and the change as a git diff. Writes nothing, "
	  "not even objects.",
	  check_input, check_output, 1, 0, 1, call_check, NULL, NULL },
	{ "apply", "Apply an AI answer",
	  "Lands an AI answer all or nothing: staged in the index and work tree "
	  "(default), in the index only (cached), or as a commit on a new branch "
	  "with the answer's provenance in its trailers. A refused answer changes "
	  "nothing; the result says the line and the reason.",
	  apply_input, check_output, 0, 0, 0, call_apply, NULL, NULL },
	{ "suggest", "One branch per answer",
	  "Lands several answers, each as a commit on its own branch "
	  "<branch>-1, <branch>-2, ... from one base, each all or nothing "
	  "(git ai-apply --each). Index, work tree and HEAD stay untouched.",
	  suggest_input, suggest_output, 0, 0, 0, call_suggest, NULL, NULL },
	{ "list_suggestions", "List suggestion branches",
	  "The suggestion branches and whether each merges into HEAD "
	  "(git ai-apply --list).",
	  no_input, list_output, 1, 0, 1, call_list, NULL, NULL },
	{ "review", "Review the staged AI change",
	  "The staged AI change as a diff, its tolerant placements marked "
	  "(git ai-apply --review).",
	  no_input, review_output, 1, 0, 1, call_review, NULL, NULL },
	{ "undo", "Undo the last staged landing",
	  "Puts back what the last staged landing changed, refusing when a path "
	  "changed since (git ai-apply --undo).",
	  no_input, undo_output, 0, 1, 0, call_undo, NULL, NULL },
	{ "recover", "Recover an interrupted landing",
	  "Finishes or undoes a landing that was interrupted "
	  "(git ai-apply --recover).",
	  no_input, recover_output, 0, 0, 1, call_recover, NULL, NULL },
};

#define NTOOLS (sizeof(tools) / sizeof(tools[0]))

/* The format names of the registry as the "format" argument's enum. */
static void add_format_enum(cJSON *schema)
{
	cJSON *props = cJSON_GetObjectItemCaseSensitive(schema, "properties");
	cJSON *format = cJSON_GetObjectItemCaseSensitive(props, "format");
	cJSON *names;
	int i;

	if (!format || !(names = cJSON_AddArrayToObject(format, "enum")))
		return;
	for (i = 0; i < AA_FORMAT_COUNT; i++)
		cJSON_AddItemToArray(names, cJSON_CreateString(aa_format_name((aa_format)i)));
}

int mcp_tools_init(void)
{
	size_t i;

	for (i = 0; i < NTOOLS; i++) {
		tools[i].input_schema = cJSON_Parse(tools[i].input);
		tools[i].output_schema = cJSON_Parse(tools[i].output);
		if (!tools[i].input_schema || !tools[i].output_schema)
			return -1;
		add_format_enum(tools[i].input_schema);
	}
	return 0;
}

void mcp_tools_free(void)
{
	size_t i;

	for (i = 0; i < NTOOLS; i++) {
		cJSON_Delete(tools[i].input_schema);
		cJSON_Delete(tools[i].output_schema);
		tools[i].input_schema = tools[i].output_schema = NULL;
	}
}

static cJSON *describe(const tool *t)
{
	cJSON *o = cJSON_CreateObject(), *a;

	cJSON_AddStringToObject(o, "name", t->name);
	cJSON_AddStringToObject(o, "title", t->title);
	cJSON_AddStringToObject(o, "description", t->description);
	cJSON_AddItemToObject(o, "inputSchema", cJSON_Duplicate(t->input_schema, 1));
	cJSON_AddItemToObject(o, "outputSchema", cJSON_Duplicate(t->output_schema, 1));
	a = cJSON_AddObjectToObject(o, "annotations");
	cJSON_AddStringToObject(a, "title", t->title);
	cJSON_AddBoolToObject(a, "readOnlyHint", t->read_only);
	if (!t->read_only)
		cJSON_AddBoolToObject(a, "destructiveHint", t->destructive);
	cJSON_AddBoolToObject(a, "idempotentHint", t->idempotent);
	/* the repository only: nothing outside it, no network */
	cJSON_AddBoolToObject(a, "openWorldHint", 0);
	return o;
}

void mcp_tools_list(mcp_server *s, const cJSON *id)
{
	cJSON *result = cJSON_CreateObject(), *list = cJSON_AddArrayToObject(result, "tools");
	size_t i;

	for (i = 0; i < NTOOLS; i++)
		cJSON_AddItemToArray(list, describe(&tools[i]));
	mcp_respond(s, id, result);
}

/* ---- capturing what the library prints ---- */

/* A stream over memory: what a report function prints, kept. */
typedef struct capture {
	FILE *f;
	char *ptr;
	size_t len;
} capture;

static FILE *capture_open(capture *c)
{
	memset(c, 0, sizeof(*c));
	c->f = open_memstream(&c->ptr, &c->len);
	return c->f;
}

/* Closes the stream: the text printed (the caller frees), never NULL. */
static char *capture_close(capture *c)
{
	if (c->f)
		fclose(c->f);
	c->f = NULL;
	if (!c->ptr)
		c->ptr = aa_strdup("");
	return c->ptr;
}

/* The JSON document printed into c (closed); NULL when it is none. */
static cJSON *capture_json(capture *c)
{
	char *text = capture_close(c);
	cJSON *doc = text ? cJSON_Parse(text) : NULL;

	free(text);
	return doc;
}

/* Appends what was printed into c (closed) to out. */
static void capture_append(capture *c, aa_buf *out)
{
	char *text = capture_close(c);

	if (text)
		aa_buf_puts(out, text);
	free(text);
}

/* Messages as the command line prints them on standard error, into out. */
static void append_diags(aa_buf *out, const aa_diags *d)
{
	capture c;

	if (!d->n || !capture_open(&c))
		return;
	aa_report_diags(c.f, d);
	capture_append(&c, out);
}

/* [{"message", "path", "input", "line"}] of one level, as the reports'. */
static cJSON *diags_json(const aa_diags *d, aa_diag_level level)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < d->n; i++) {
		cJSON *o;

		if (d->v[i].level != level || !(o = cJSON_CreateObject()))
			continue;
		if (d->v[i].path)
			cJSON_AddStringToObject(o, "path", d->v[i].path);
		if (d->v[i].input)
			cJSON_AddStringToObject(o, "input", d->v[i].input);
		if (d->v[i].line)
			cJSON_AddNumberToObject(o, "line", (double)d->v[i].line);
		cJSON_AddStringToObject(o, "message", d->v[i].msg ? d->v[i].msg : "");
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

static void add_diags(cJSON *doc, const aa_diags *d)
{
	cJSON_AddItemToObject(doc, "warnings", diags_json(d, AA_DIAG_WARNING));
	cJSON_AddItemToObject(doc, "notes", diags_json(d, AA_DIAG_NOTE));
	cJSON_AddItemToObject(doc, "errors", diags_json(d, AA_DIAG_ERROR));
}

/* ---- the arguments ---- */

static const char *arg_string(const cJSON *args, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, name);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int arg_bool(const cJSON *args, const char *name)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(args, name));
}

/*
 * The provenance of a --branch landing made through the server: the
 * tool, and the client as it named itself in initialize (its control
 * characters replaced: a trailer is one line).
 */
static void provenance(const mcp_server *s, aa_buf *out)
{
	const char *parts[2] = { s->client_name, s->client_version };
	size_t i;
	const char *p;

	aa_buf_puts(out, "AI-Tool: git-ai-apply mcp\n");
	if (!s->client_name)
		return;
	aa_buf_puts(out, "AI-Client: ");
	for (i = 0; i < 2 && parts[i]; i++) {
		if (i)
			aa_buf_putc(out, ' ');
		for (p = parts[i]; *p; p++)
			aa_buf_putc(out, (unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p);
	}
	aa_buf_putc(out, '\n');
}

/* Every run of the server: no process started, the repository's own provenance. */
static void base_opts(mcp_server *s, aa_apply_opts *o, aa_buf *trailers)
{
	memset(o, 0, sizeof(*o));
	o->land.no_external_commands = 1;
	/* read again before the call (session.c): --check looks paths up in it */
	o->land.index_current = s->index != NULL;
	o->land.index_conflicts = mcp_index_conflicts(s);
	provenance(s, trailers);
	o->extra_trailers = trailers->ptr;
}

/* The arguments check and apply share. */
static void answer_opts(const cJSON *args, aa_apply_opts *o, aa_text_input *t)
{
	const char *format = arg_string(args, "format");
	const cJSON *strip = cJSON_GetObjectItemCaseSensitive(args, "strip");
	const cJSON *answer = cJSON_GetObjectItemCaseSensitive(args, "answer");

	t->name = arg_string(args, "name");
	t->text = answer->valuestring;
	t->len = strlen(answer->valuestring);
	o->texts = t;
	o->ntexts = 1;
	if (format)
		o->parse.format = (aa_format)aa_format_from_name(format);
	o->parse.strict = arg_bool(args, "strict");
	if (strip) {
		o->parse.strip_given = 1;
		o->parse.strip = strip->valueint;
	}
}

/* ---- check and apply ---- */

static const char *mode_name(aa_land_mode m)
{
	static const char *names[] = { "index", "cached", "branch", "check" };

	return names[m];
}

/* The closing line the command line prints for res, into text. */
static void closing_line(aa_apply_result *res, const aa_report_opts *ro,
			 aa_buf *text)
{
	aa_report_opts o = *ro;
	capture sink, next;

	if (!capture_open(&sink))
		return;
	if (!capture_open(&next)) {
		free(capture_close(&sink));
		return;
	}
	o.kind = AA_REPORT_SUMMARY;
	o.next = next.f;
	aa_report_result(sink.f, res, &o);
	free(capture_close(&sink));
	capture_append(&next, text);
}

/* check: the change as a git diff, as --diff shows it. */
static void add_diff(cJSON *doc, aa_apply_result *res, const aa_report_opts *ro)
{
	aa_report_opts o = *ro;
	capture c;
	char *text;

	if (!capture_open(&c))
		return;
	o.kind = AA_REPORT_SUMMARY;
	o.show = AA_SHOW_DIFF;
	o.next = NULL;
	aa_report_result(c.f, res, &o);
	text = capture_close(&c);
	cJSON_AddStringToObject(doc, "diff", text ? text : "");
	free(text);
}

/* Runs one answer and fills the tool's result from the run's report. */
static void run_answer(mcp_server *s, const aa_apply_opts *o, tool_out *out)
{
	aa_report_opts ro;
	aa_apply_result *res;
	aa_outcome outcome;
	capture c;

	memset(&ro, 0, sizeof(ro));
	ro.kind = AA_REPORT_JSON;
	ro.mode = mode_name(o->land.mode);
	ro.branch = o->land.branch;
	outcome = aa_apply(s->repo, o, &res);
	if (capture_open(&c)) {
		if (aa_apply_result_stopped(res))
			aa_report_stopped(c.f, aa_apply_result_diags(res), &ro);
		else
			aa_report_result(c.f, res, &ro);
		out->structured = capture_json(&c);
	}
	if (out->structured && o->land.mode == AA_LAND_CHECK &&
	    !aa_apply_result_stopped(res))
		add_diff(out->structured, res, &ro);
	if (!aa_apply_result_stopped(res))
		closing_line(res, &ro, &out->text);
	if (outcome == AA_OUT_ALREADY_APPLIED)
		aa_buf_puts(&out->text, "already applied: nothing to change\n");
	append_diags(&out->text, aa_apply_result_diags(res));
	out->is_error = outcome == AA_OUT_REJECTED || outcome == AA_OUT_FATAL;
	aa_apply_result_free(res);
}

static void call_check(mcp_server *s, const cJSON *args, tool_out *out)
{
	aa_apply_opts o;
	aa_text_input t;
	aa_buf trailers = AA_BUF_INIT;

	base_opts(s, &o, &trailers);
	answer_opts(args, &o, &t);
	o.land.mode = AA_LAND_CHECK;
	run_answer(s, &o, out);
	aa_buf_free(&trailers);
}

static aa_land_mode land_mode(const char *name)
{
	return !name || !strcmp(name, "index") ? AA_LAND_INDEX :
	       !strcmp(name, "cached") ? AA_LAND_CACHED : AA_LAND_BRANCH;
}

static void call_apply(mcp_server *s, const cJSON *args, tool_out *out)
{
	aa_apply_opts o;
	aa_text_input t;
	aa_buf trailers = AA_BUF_INIT;

	base_opts(s, &o, &trailers);
	answer_opts(args, &o, &t);
	o.land.mode = land_mode(arg_string(args, "mode"));
	o.land.branch = arg_string(args, "branch");
	o.land.base = arg_string(args, "base");
	o.land.message = arg_string(args, "message");
	o.land.force = arg_bool(args, "force");
	o.plan.threeway = arg_bool(args, "threeway");
	run_answer(s, &o, out);
	aa_buf_free(&trailers);
}

/* ---- suggest: --each ---- */

/* Suggestion i's report into the set's array, its messages into text. */
static void add_suggestion(aa_each_result *res, size_t i, cJSON *arr,
			   aa_buf *text)
{
	aa_report_opts ro;
	capture c;
	cJSON *doc;

	memset(&ro, 0, sizeof(ro));
	ro.kind = AA_REPORT_JSON;
	ro.mode = "branch";
	ro.branch = aa_each_result_branch(res, i);
	if (!capture_open(&c))
		return;
	aa_report_result(c.f, aa_each_result_get(res, i), &ro);
	if ((doc = capture_json(&c)))
		cJSON_AddItemToArray(arr, doc);
	append_diags(text, aa_apply_result_diags(aa_each_result_get(res, i)));
}

/* "written" and "next" of the set, as --each --json prints them. */
static void add_each_next(cJSON *doc, const char *const *landed, size_t n)
{
	aa_buf wrapped = AA_BUF_INIT;
	capture c;
	cJSON *fields, *f;
	char *text;

	if (!capture_open(&c))
		return;
	aa_report_each_next_json(c.f, landed, n);
	text = capture_close(&c);
	aa_buf_printf(&wrapped, "{%s}", text);
	free(text);
	fields = wrapped.ptr ? cJSON_Parse(wrapped.ptr) : NULL;
	aa_buf_free(&wrapped);
	while (fields && (f = fields->child)) {
		cJSON_DetachItemViaPointer(fields, f);
		cJSON_AddItemToObject(doc, f->string, f);
	}
	cJSON_Delete(fields);
}

/* The set's closing line, as the command line says it. */
static void each_text(aa_each_result *res, const char *const *landed,
		      size_t nlanded, aa_buf *text)
{
	size_t n = aa_each_result_count(res), failed = aa_each_result_failed(res);
	capture c;

	if (failed == n)
		aa_buf_printf(text, n == 1 ? "the suggestion failed\n" :
			      "all %zu suggestions failed\n", n);
	else if (failed)
		aa_buf_printf(text, "%zu of %zu suggestions failed; the others landed\n",
			      failed, n);
	if (capture_open(&c)) {
		aa_report_each_next(c.f, landed, nlanded, 0);
		capture_append(&c, text);
	}
}

static void each_report(aa_each_result *res, tool_out *out)
{
	size_t i, n = aa_each_result_count(res), failed = aa_each_result_failed(res);
	size_t nlanded = 0;
	const char **landed = calloc(n, sizeof(*landed));
	cJSON *doc = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(doc, "suggestions");

	for (i = 0; i < n; i++) {
		aa_apply_result *one = aa_each_result_get(res, i);

		add_suggestion(res, i, arr, &out->text);
		if (landed && aa_apply_result_outcome(one) == AA_OUT_APPLIED)
			landed[nlanded++] = aa_each_result_branch(res, i);
	}
	append_diags(&out->text, aa_each_result_diags(res));
	cJSON_AddNumberToObject(doc, "landed", (double)(n - failed));
	cJSON_AddNumberToObject(doc, "failed", (double)failed);
	add_each_next(doc, landed, nlanded);
	each_text(res, landed, nlanded, &out->text);
	out->structured = doc;
	out->is_error = failed == n;
	free(landed);
}

static void call_suggest(mcp_server *s, const cJSON *args, tool_out *out)
{
	const cJSON *answers = cJSON_GetObjectItemCaseSensitive(args, "answers"), *a;
	size_t n = (size_t)cJSON_GetArraySize(answers), i = 0;
	aa_text_input *texts = calloc(n, sizeof(*texts));
	aa_buf *names = calloc(n, sizeof(*names)), trailers = AA_BUF_INIT;
	const char *format = arg_string(args, "format");
	aa_each_result *res;
	aa_apply_opts o;

	base_opts(s, &o, &trailers);
	cJSON_ArrayForEach(a, answers) {
		if (!texts || !names)
			break;
		aa_buf_printf(&names[i], "answer-%zu", i + 1);
		texts[i].name = names[i].ptr;
		texts[i].text = a->valuestring;
		texts[i].len = strlen(a->valuestring);
		i++;
	}
	o.texts = texts;
	o.ntexts = texts && names ? n : 0;
	o.land.mode = AA_LAND_BRANCH;
	o.land.branch = arg_string(args, "branch");
	o.land.base = arg_string(args, "base");
	o.land.message = arg_string(args, "message");
	if (format)
		o.parse.format = (aa_format)aa_format_from_name(format);
	aa_apply_each(s->repo, &o, &res);
	if (aa_each_result_count(res))
		each_report(res, out);
	else {
		/* nothing tried: the report of a stopped run, as the command line */
		aa_report_opts ro;
		capture c;

		memset(&ro, 0, sizeof(ro));
		ro.kind = AA_REPORT_JSON;
		ro.mode = "branch";
		ro.branch = o.land.branch;
		if (capture_open(&c)) {
			aa_report_stopped(c.f, aa_each_result_diags(res), &ro);
			out->structured = capture_json(&c);
		}
		append_diags(&out->text, aa_each_result_diags(res));
		out->is_error = 1;
	}
	aa_each_result_free(res);
	for (i = 0; names && i < n; i++)
		aa_buf_free(&names[i]);
	free(names);
	free(texts);
	aa_buf_free(&trailers);
}

/* ---- list_suggestions, review, undo, recover ---- */

static void call_list(mcp_server *s, const cJSON *args, tool_out *out)
{
	aa_suggestion *v = NULL;
	aa_diags d = AA_DIAGS_INIT;
	size_t n = 0;
	int r = aa_list_suggestions(s->repo, NULL, &v, &n, &d);
	capture c;

	(void)args;
	if (capture_open(&c)) {
		aa_report_suggestions(c.f, v, n, &d, 1);
		out->structured = capture_json(&c);
	}
	if (capture_open(&c)) {
		aa_report_suggestions(c.f, v, n, &d, 0);
		capture_append(&c, &out->text);
	}
	if (!n && r >= 0)
		aa_buf_puts(&out->text, "no suggestion branches\n");
	append_diags(&out->text, &d);
	out->is_error = r < 0;
	aa_suggestions_free(v, n);
	aa_diags_free(&d);
}

static void call_review(mcp_server *s, const cJSON *args, tool_out *out)
{
	aa_diags d = AA_DIAGS_INIT;
	const cJSON *status, *files;
	capture c;
	int r = -1;

	(void)args;
	if (capture_open(&c)) {
		r = aa_review_show(s->repo, c.f, 1, NULL, &d);
		out->structured = capture_json(&c);
	}
	status = cJSON_GetObjectItemCaseSensitive(out->structured, "status");
	files = cJSON_GetObjectItemCaseSensitive(out->structured, "files");
	if (cJSON_IsString(status) && !strcmp(status->valuestring, "none"))
		aa_buf_puts(&out->text, "no staged AI change to review\n");
	else if (cJSON_IsString(status) && !strcmp(status->valuestring, "staged"))
		aa_buf_printf(&out->text, "the staged AI change: %d file%s (the diff, "
			      "tolerant placements marked, is in \"diff\")\n",
			      cJSON_GetArraySize(files),
			      cJSON_GetArraySize(files) == 1 ? "" : "s");
	append_diags(&out->text, &d);
	out->is_error = r < 0;
	aa_diags_free(&d);
}

static void call_undo(mcp_server *s, const cJSON *args, tool_out *out)
{
	aa_diags d = AA_DIAGS_INIT;
	capture c;
	char *printed = NULL;
	int r = AA_FATAL;
	cJSON *doc = cJSON_CreateObject();

	(void)args;
	if (capture_open(&c)) {
		r = aa_undo(s->repo, 0, c.f, &d);
		printed = capture_close(&c);
	}
	cJSON_AddStringToObject(doc, "status", r == AA_OK ? "undone" : r == 1 ? "nothing" :
				r == AA_REJECTED ? "refused" : "fatal");
	cJSON_AddStringToObject(doc, "output", printed ? printed : "");
	add_diags(doc, &d);
	aa_buf_puts(&out->text, printed ? printed : "");
	if (r == 1 && !(printed && *printed))
		aa_buf_puts(&out->text, "nothing to undo\n");
	append_diags(&out->text, &d);
	out->structured = doc;
	out->is_error = r == AA_REJECTED || r == AA_FATAL;
	free(printed);
	aa_diags_free(&d);
}

static void call_recover(mcp_server *s, const cJSON *args, tool_out *out)
{
	aa_diags d = AA_DIAGS_INIT;
	int refs = aa_apply_recover_refs(s->repo, &d);
	int r = refs < 0 ? AA_FATAL : aa_apply_recover(s->repo, &d);
	cJSON *doc = cJSON_CreateObject();

	(void)args;
	cJSON_AddStringToObject(doc, "status", r < 0 ? "fatal" :
				r == 1 && !refs ? "nothing" : "recovered");
	add_diags(doc, &d);
	if (r == 1 && !refs)
		aa_buf_puts(&out->text, "nothing to recover\n");
	append_diags(&out->text, &d);
	out->structured = doc;
	out->is_error = r < 0;
	aa_diags_free(&d);
}

/* ---- tools/call ---- */

static const tool *find_tool(const char *name)
{
	size_t i;

	for (i = 0; i < NTOOLS; i++)
		if (!strcmp(tools[i].name, name))
			return &tools[i];
	return NULL;
}

/*
 * What the schema cannot say: branch goes with mode branch, and mode
 * branch needs it. 0, or -1 with the reason in why.
 */
static int check_branch_args(const tool *t, const cJSON *args, aa_buf *why)
{
	const char *mode = arg_string(args, "mode"), *branch = arg_string(args, "branch");
	int is_branch = mode && !strcmp(mode, "branch");

	if (strcmp(t->name, "apply"))
		return 0;
	if (is_branch && !branch)
		return aa_buf_puts(why, "argument 'branch' is required when mode is \"branch\""), -1;
	if (!is_branch && branch)
		return aa_buf_puts(why, "argument 'branch' goes with mode \"branch\""), -1;
	return 0;
}

static void respond_result(mcp_server *s, const cJSON *id, tool_out *out)
{
	cJSON *result = cJSON_CreateObject();
	cJSON *content = cJSON_AddArrayToObject(result, "content");
	cJSON *item = cJSON_CreateObject();

	/* the text never empty: the status at least */
	if (!out->text.len)
		aa_buf_puts(&out->text, out->is_error ? "failed\n" : "done\n");
	while (out->text.len && out->text.ptr[out->text.len - 1] == '\n')
		out->text.ptr[--out->text.len] = '\0';
	cJSON_AddStringToObject(item, "type", "text");
	cJSON_AddStringToObject(item, "text", out->text.ptr ? out->text.ptr : "");
	cJSON_AddItemToArray(content, item);
	if (out->structured)
		cJSON_AddItemToObject(result, "structuredContent", out->structured);
	out->structured = NULL;
	cJSON_AddBoolToObject(result, "isError", out->is_error);
	mcp_respond(s, id, result);
}

void mcp_tools_call(mcp_server *s, const cJSON *id, const cJSON *params)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(params, "name");
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
	cJSON *empty = NULL;
	const tool *t;
	aa_buf why = AA_BUF_INIT;
	tool_out out = { NULL, AA_BUF_INIT, 0 };

	if (!cJSON_IsString(name)) {
		mcp_respond_error(s, id, MCP_INVALID_PARAMS,
				  "invalid params: tools/call needs \"name\", a string");
		return;
	}
	if (!(t = find_tool(name->valuestring))) {
		mcp_respond_error(s, id, MCP_INVALID_PARAMS, "unknown tool: %s",
				  aa_qtext(name->valuestring, strlen(name->valuestring), 200));
		return;
	}
	if (!args)
		args = empty = cJSON_CreateObject();
	if (mcp_schema_check(t->input_schema, args, "arguments", &why) < 0 ||
	    check_branch_args(t, args, &why) < 0) {
		mcp_respond_error(s, id, MCP_INVALID_PARAMS, "invalid params: %s: %s",
				  t->name, why.ptr ? why.ptr : "out of memory");
		goto out;
	}
	if (!mcp_roots_allow(s, &why)) {
		aa_buf_puts(&out.text, why.ptr ? why.ptr : "out of memory");
		out.is_error = 1;
		respond_result(s, id, &out);
		goto out;
	}
	mcp_refresh_repository(s);
	t->call(s, args, &out);
	mcp_remember_repository(s);
	respond_result(s, id, &out);
out:
	cJSON_Delete(out.structured);
	aa_buf_free(&out.text);
	aa_buf_free(&why);
	cJSON_Delete(empty);
}
