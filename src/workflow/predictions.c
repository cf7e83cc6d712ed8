/*
 * --predictions: a branch per prediction, each on its own base, in one
 * process (include/aiapply/predictions.h; Documentation/workflows.md,
 * "## Predictions"). The predictions are grouped by base commit; one
 * base (aa_base) is opened for the run and moved from base commit to
 * base commit (aa_base_retarget), each read once, and the predictions
 * are landed as --each lands suggestions, in batches that run across
 * the bases: planned and built in memory, the batch's objects in one
 * pack, then its refs in one round (Documentation/landing.md, "--each
 * and --predictions: what a suggestion costs"). Each stays all or
 * nothing; a record goes to the results as soon as its batch is done,
 * and the batch's memory is freed, so memory follows the batch and the
 * base, not the number of predictions.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>
#include <git2/sys/mempack.h>
#include <cjson/cJSON.h>

#include "aiapply/predictions.h"
#include "aiapply/report.h"
#include "workflow/apply_internal.h"
#include "workflow/predictions_read.h"
#include "util/util.h"

/* Predictions planned and built before their objects go to disk. */
#define BATCH 256

enum pstate { P_WAITING, P_READY, P_DONE };

/* One prediction's run. */
typedef struct prun {
	aa_prediction *p;
	git_oid base;          /* its base commit, once resolved */
	char base_hex[GIT_OID_HEXSZ + 1]; /* ... as --base */
	int resolved;
	aa_apply_result res;
	int started;           /* res holds a run */
	enum pstate state;
	int failed;            /* refused: reason is why */
	aa_prediction_reason reason;
	int already_landed;    /* its branch holds this answer on this base */
	git_oid commit;        /* ... that branch's commit */
	aa_buf message;        /* a refusal's message (records' own) */
} prun;

typedef struct prun_ctx {
	git_repository *repo;
	const aa_predictions_opts *o;
	aa_predictions_summary *sum;
	const char *input;     /* the predictions file's name in messages */
	char *dir;             /* its directory: answer_file is relative to it */
	size_t done;
	int fatal;             /* a write failed: the run stops */
	aa_land_opts land;     /* the run's landing; land.base: hex */
	char hex[GIT_OID_HEXSZ + 1];
	aa_base base;          /* opened once, moved from base to base */
	int opened;
	prun **pend;           /* the batch: prepared, records not yet out */
	size_t npend;
} prun_ctx;

static const char *const reason_names[AA_PRED_NREASONS] = {
	"malformed-record", "empty", "no-base", "duplicate-branch",
	"unreadable-answer", "malformed-answer", "does-not-apply", "conflict",
	"branch-exists", "fatal"
};

const char *aa_prediction_reason_name(aa_prediction_reason r)
{
	return (unsigned)r < AA_PRED_NREASONS ? reason_names[r] : "?";
}

static void refuse(prun *r, aa_prediction_reason why, const char *msg)
{
	r->failed = 1;
	r->reason = why;
	r->state = P_DONE;
	if (msg) {
		aa_buf_clear(&r->message);
		aa_buf_puts(&r->message, msg);
	}
}

/* ---- reading ---- */

static int read_file(const char *path, aa_buf *out, aa_diags *d)
{
	int is_stdin = !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	int r;

	if (!f)
		return aa_error(d, AA_NOPOS, NULL, "cannot open '%s': %s",
				aa_qpath(path), strerror(errno));
	r = aa_read_all(fileno(f), out);
	if (!is_stdin)
		fclose(f);
	if (r < 0)
		return aa_error(d, AA_NOPOS, NULL, "cannot read '%s': %s",
				aa_qpath(path), strerror(errno));
	if (!out->ptr)
		aa_buf_puts(out, "");
	return aa_buf_oom(out) ? aa_oom(d, AA_NOPOS, NULL) : 0;
}

/* The directory of `path` with its '/', "" for one in the current one. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!strcmp(path, "-") || !slash)
		return aa_strdup("");
	return aa_strndup(path, (size_t)(slash - path) + 1);
}

static int read_predictions(const aa_predictions_opts *o, aa_predictions *out,
			    aa_diags *d)
{
	aa_buf text = AA_BUF_INIT, rows = AA_BUF_INIT;
	aa_base_map bases = { NULL, 0 };
	const char *name = strcmp(o->file, "-") ? o->file : "<stdin>";
	const char *prefix = o->apply->land.branch ? o->apply->land.branch
						   : "predictions";
	int r = read_file(o->file, &text, d);

	if (!r && o->dataset)
		r = read_file(o->dataset, &rows, d);
	if (!r && o->dataset)
		r = aa_base_map_read(rows.ptr, rows.len, o->dataset, &bases, d);
	if (!r)
		r = aa_predictions_read(text.ptr, text.len, name,
					o->dataset ? &bases : NULL, prefix, out, d);
	aa_base_map_free(&bases);
	aa_buf_free(&rows);
	aa_buf_free(&text);
	return r;
}

/* ---- before landing: records, bases, branches ---- */

static void refuse_records(prun *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].p->error)
			refuse(&v[i], v[i].p->empty ? AA_PRED_EMPTY :
				      v[i].p->no_base ? AA_PRED_BASE : AA_PRED_RECORD,
			       v[i].p->error);
}

static int cmp_base_names(const void *a, const void *b)
{
	const prun *x = *(prun *const *)a, *y = *(prun *const *)b;
	int c = strcmp(x->p->base, y->p->base);

	return c ? c : (x->p->record > y->p->record) - (x->p->record < y->p->record);
}

/* Resolves the base of r (a revision naming a commit), or refuses it. */
static void resolve_base(git_repository *repo, prun *r)
{
	git_object *obj = NULL, *commit = NULL;
	aa_buf msg = AA_BUF_INIT;

	if (git_revparse_single(&obj, repo, r->p->base) == 0 &&
	    git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) == 0) {
		git_oid_cpy(&r->base, git_object_id(commit));
		r->resolved = 1;
	} else {
		aa_buf_printf(&msg, "%s: base '%s' is not a commit of the repository",
			      r->p->name, r->p->base);
		refuse(r, AA_PRED_BASE, msg.ptr ? msg.ptr : "out of memory");
	}
	git_error_clear();
	git_object_free(commit);
	git_object_free(obj);
	aa_buf_free(&msg);
}

/* Each distinct base revision is resolved once. */
static int resolve_bases(git_repository *repo, prun *v, size_t n)
{
	prun **by = malloc((n ? n : 1) * sizeof(*by));
	size_t i, k = 0;

	if (!by)
		return -1;
	for (i = 0; i < n; i++)
		if (v[i].state == P_WAITING)
			by[k++] = &v[i];
	qsort(by, k, sizeof(*by), cmp_base_names);
	for (i = 0; i < k; i++) {
		if (i && !strcmp(by[i]->p->base, by[i - 1]->p->base)) {
			by[i]->resolved = by[i - 1]->resolved;
			git_oid_cpy(&by[i]->base, &by[i - 1]->base);
			if (!by[i]->resolved)
				refuse(by[i], AA_PRED_BASE, by[i - 1]->message.ptr);
		} else {
			resolve_base(repo, by[i]);
		}
	}
	free(by);
	return 0;
}

static int cmp_branches(const void *a, const void *b)
{
	const prun *x = *(prun *const *)a, *y = *(prun *const *)b;
	int c = strcmp(x->p->branch, y->p->branch);

	return c ? c : (x->p->record > y->p->record) - (x->p->record < y->p->record);
}

/*
 * Two predictions of the run on one branch (an instance twice, or two
 * names made the same by the sanitising): the first in the file keeps
 * it, the others are refused before anything is written.
 */
static int refuse_duplicates(prun *v, size_t n)
{
	prun **by = malloc((n ? n : 1) * sizeof(*by)), *keeper = NULL;
	size_t i, k = 0;

	if (!by)
		return -1;
	for (i = 0; i < n; i++)
		if (v[i].p->branch && !v[i].p->error)
			by[k++] = &v[i];
	qsort(by, k, sizeof(*by), cmp_branches);
	for (i = 0; i < k; i++) {
		aa_buf msg = AA_BUF_INIT;

		if (!keeper || strcmp(by[i]->p->branch, keeper->p->branch)) {
			keeper = by[i];
			continue;
		}
		aa_buf_printf(&msg, "%s: its branch %s is record %zu's (%s)",
			      by[i]->p->name, by[i]->p->branch, keeper->p->record,
			      keeper->p->name);
		refuse(by[i], AA_PRED_DUPLICATE, msg.ptr ? msg.ptr : "out of memory");
		aa_buf_free(&msg);
	}
	free(by);
	return 0;
}

/* ---- landing ---- */

/* One base's predictions: whether the run's base moved to it. */
typedef struct group {
	int opened;
	aa_diags why;          /* the base did not open: why */
} group;

/* manifest answer_file: read now, relative to the manifest's directory */
static int load_answer(prun_ctx *c, prun *r)
{
	aa_prediction *p = r->p;
	aa_buf path = AA_BUF_INIT, text = AA_BUF_INIT;
	aa_diags d = AA_DIAGS_INIT;

	if (p->answer || !p->answer_file)
		return 0;
	if (p->answer_file[0] != '/')
		aa_buf_puts(&path, c->dir);
	aa_buf_puts(&path, p->answer_file);
	if (!path.ptr || read_file(path.ptr, &text, &d) < 0) {
		refuse(r, AA_PRED_INPUT, d.n ? d.v[0].msg : "out of memory");
		aa_buf_free(&text);
	} else {
		p->answer_len = text.len;
		p->answer = aa_buf_detach(&text);
	}
	aa_buf_free(&path);
	aa_diags_free(&d);
	return 0;
}

/* The AI-Answer-Blob trailer's value of the commit, into out (or "") */
static void answer_blob_of(git_commit *commit, char *out, size_t size)
{
	git_message_trailer_array t = { 0 };
	size_t i;

	out[0] = '\0';
	if (git_message_trailers(&t, git_commit_message(commit)) < 0)
		return;
	for (i = 0; i < t.count; i++)
		if (!strcmp(t.trailers[i].key, "AI-Answer-Blob"))
			snprintf(out, size, "%s", t.trailers[i].value);
	git_message_trailer_array_free(&t);
}

/*
 * A rerun: the branch is there, one commit on this base, with this
 * answer's blob in its trailers (--force lands it again).
 */
static int already_landed(prun_ctx *c, prun *r)
{
	git_reference *ref = NULL;
	git_commit *commit = NULL;
	aa_buf name = AA_BUF_INIT;
	char want[GIT_OID_HEXSZ + 1], have[GIT_OID_HEXSZ + 1];
	git_oid blob;
	int yes = 0;

	if (c->o->apply->land.force ||
	    git_odb_hash(&blob, r->p->answer, r->p->answer_len, GIT_OBJECT_BLOB) < 0 ||
	    aa_buf_printf(&name, "refs/heads/%s", r->p->branch) < 0)
		goto out;
	git_oid_tostr(want, sizeof(want), &blob);
	if (git_reference_lookup(&ref, c->repo, name.ptr) < 0 ||
	    git_reference_type(ref) != GIT_REFERENCE_DIRECT ||
	    git_commit_lookup(&commit, c->repo, git_reference_target(ref)) < 0)
		goto out;
	answer_blob_of(commit, have, sizeof(have));
	yes = git_commit_parentcount(commit) == 1 &&
	      git_oid_equal(git_commit_parent_id(commit, 0), &r->base) &&
	      !strcmp(have, want);
	if (yes)
		git_oid_cpy(&r->commit, git_commit_id(commit));
out:
	git_error_clear();
	git_commit_free(commit);
	git_reference_free(ref);
	aa_buf_free(&name);
	return yes;
}

/* Why a run that ended before landing did not land. */
static aa_prediction_reason reason_of(const aa_apply_result *res)
{
	size_t i;

	if (res->outcome == AA_OUT_FATAL)
		return res->stopped ? AA_PRED_INPUT : AA_PRED_FATAL;
	if (!res->opened)
		return AA_PRED_PARSE;
	/* a stale answer whose change meets the base's own */
	for (i = 0; i < res->diags.n; i++)
		if (res->diags.v[i].level == AA_DIAG_ERROR &&
		    strstr(res->diags.v[i].msg, "conflicts with the current content"))
			return AA_PRED_CONFLICT;
	return AA_PRED_APPLY;
}

/* A landing refused at its branch: the name is taken. */
static aa_prediction_reason land_reason(const aa_apply_result *res)
{
	size_t i;

	if (res->outcome == AA_OUT_FATAL)
		return AA_PRED_FATAL;
	for (i = 0; i < res->diags.n; i++)
		if (res->diags.v[i].level == AA_DIAG_ERROR &&
		    strstr(res->diags.v[i].msg, "already exists"))
			return AA_PRED_BRANCH;
	return AA_PRED_APPLY;
}

/* Plans and builds r on the group's base: ready to land, or done. */
static void prepare_one(prun_ctx *c, group *g, prun *r)
{
	aa_apply_opts oi = *c->o->apply;
	aa_text_input t;
	int k;

	if (load_answer(c, r) < 0 || r->state == P_DONE)
		return;
	if (already_landed(c, r)) {
		r->already_landed = 1;
		r->state = P_DONE;
		return;
	}
	t.name = r->p->name;
	t.text = r->p->answer;
	t.len = r->p->answer_len;
	oi.files = NULL;
	oi.nfiles = 0;
	oi.texts = &t;
	oi.ntexts = 1;
	oi.alternative = oi.alternatives = 0;
	oi.land = c->land;
	oi.land.base = r->base_hex;
	oi.land.branch = r->p->branch;
	aa_apply_result_init(&r->res);
	r->started = 1;
	if (!g->opened) {
		r->res.outcome = AA_OUT_FATAL;
		refuse(r, AA_PRED_FATAL, g->why.n ? g->why.v[0].msg : NULL);
		return;
	}
	if (aa_apply_plan_one(c->repo, &c->base, &oi, &r->res) < 0) {
		r->state = P_DONE;
		if (r->res.outcome != AA_OUT_ALREADY_APPLIED &&
		    r->res.outcome != AA_OUT_CHECKED)
			refuse(r, reason_of(&r->res), NULL);
		return;
	}
	k = aa_land_prepare(&r->res.session, &r->res.plan, &r->res.diags);
	if (k < 0) {
		aa_apply_landed(&r->res, k);
		refuse(r, land_reason(&r->res), NULL);
		return;
	}
	r->state = P_READY;
}

/*
 * The batch's ready predictions: their objects in one pack, then their
 * refs in one round, each prediction all or nothing (--each's: land.h,
 * aa_land_finish_each). A failed write fails every one of them and
 * stops the run.
 */
static void land_batch(prun_ctx *c, prun **v, size_t n)
{
	aa_session **landers = calloc(n ? n : 1, sizeof(*landers));
	aa_diags **diags = calloc(n ? n : 1, sizeof(*diags));
	int *landed = calloc(n ? n : 1, sizeof(*landed));
	aa_diags why = AA_DIAGS_INIT;
	size_t i, k = 0;
	int r;

	for (i = 0; landers && diags && i < n; i++)
		if (v[i]->state == P_READY) {
			diags[k] = &v[i]->res.diags;
			landers[k++] = &v[i]->res.session;
		}
	r = landers && diags && landed ? aa_land_persist(landers, k, &why)
				       : aa_oom(&why, AA_NOPOS, NULL);
	if (r >= 0)
		aa_land_finish_each(landers, diags, landed, k);
	for (i = 0, k = 0; i < n; i++) {
		prun *p = v[i];

		if (p->state != P_READY)
			continue;
		p->state = P_DONE;
		if (r < 0) {
			p->res.outcome = AA_OUT_FATAL;
			refuse(p, AA_PRED_FATAL, why.n ? why.v[0].msg : NULL);
		} else if (aa_apply_landed(&p->res, landed[k]) != AA_OUT_APPLIED) {
			refuse(p, land_reason(&p->res), NULL);
		}
		k++;
	}
	/* the pack's keep and the journal go once every ref is written */
	if (aa_land_done(&c->base, &why) < 0 || r < 0)
		c->fatal = 1;
	aa_diags_free(&why);
	free(landers);
	free(diags);
	free(landed);
}

/* ---- the results ---- */

/* The first error of the run: message and position. */
static const aa_diag *first_error(const prun *r)
{
	size_t i;

	for (i = 0; r->started && i < r->res.diags.n; i++)
		if (r->res.diags.v[i].level == AA_DIAG_ERROR)
			return &r->res.diags.v[i];
	return NULL;
}

static const char *status_of(const prun *r)
{
	if (r->already_landed)
		return "already-landed";
	if (r->failed)
		return r->reason == AA_PRED_FATAL ? "fatal" : "refused";
	if (r->res.outcome == AA_OUT_ALREADY_APPLIED ||
	    r->res.outcome == AA_OUT_CHECKED)
		return "already-applied";
	return "landed";
}

static void add_oid(cJSON *o, const char *key, const git_oid *id)
{
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), id);
	cJSON_AddStringToObject(o, key, hex);
}

static void add_refusal(cJSON *o, const prun *r, const char *input)
{
	const aa_diag *e = first_error(r);
	cJSON *pos;

	cJSON_AddStringToObject(o, "reason", aa_prediction_reason_name(r->reason));
	cJSON_AddStringToObject(o, "message", e ? e->msg : r->message.ptr ?
				r->message.ptr : aa_prediction_reason_name(r->reason));
	if (!e || (!e->input && !e->path)) {
		/* the record itself: its line in the predictions file */
		if (r->p->line && (pos = cJSON_AddObjectToObject(o, "position"))) {
			cJSON_AddStringToObject(pos, "input", input);
			cJSON_AddNumberToObject(pos, "line", (double)r->p->line);
		}
		return;
	}
	pos = cJSON_AddObjectToObject(o, "position");
	if (pos && e->input)
		cJSON_AddStringToObject(pos, "input", e->input);
	if (pos && e->line)
		cJSON_AddNumberToObject(pos, "line", (double)e->line);
	if (pos && e->path)
		cJSON_AddStringToObject(pos, "path", e->path);
}

/* "diff, companion": the formats of the change set, as a list. */
static void add_formats(cJSON *o, const aa_changeset *cs)
{
	aa_buf b = AA_BUF_INIT;
	cJSON *arr = cJSON_AddArrayToObject(o, "formats");
	const char *s;

	aa_formats_used(cs, &b);
	for (s = b.ptr; arr && s && *s;) {
		size_t n = strcspn(s, ",");
		char *one = aa_strndup(s, n);

		if (one && *one)
			cJSON_AddItemToArray(arr, cJSON_CreateString(one));
		free(one);
		s += n;
		while (*s == ',' || *s == ' ')
			s++;
	}
	aa_buf_free(&b);
}

static size_t tolerant(const aa_plan *plan)
{
	size_t i, j, n = 0;

	for (i = 0; i < plan->nchanges; i++)
		for (j = 0; j < plan->changes[i].nlandings; j++)
			n += aa_how_is_tolerant(plan->changes[i].landings[j].how);
	return n;
}

/*
 * The revision each merged (or conflicting) path was written against:
 * the planner says it in a note or the refusal ("hunks applied to
 * <rev>, the version the answer was written against, ...").
 */
static void add_merges(cJSON *o, const aa_diags *d)
{
	static const char *const lead[] = { "hunks applied to ", "(merged from ",
					    "apply exactly to " };
	cJSON *arr = NULL;
	size_t i, k;

	for (i = 0; i < d->n; i++) {
		const char *m = d->v[i].msg, *s, *e;

		if (d->v[i].level == AA_DIAG_WARNING || !m ||
		    !(e = strstr(m, ", the version the answer was written against")))
			continue;
		for (k = 0, s = NULL; k < 3 && !s; k++)
			if ((s = strstr(m, lead[k])) && s < e)
				s += strlen(lead[k]);
			else
				s = NULL;
		if (!s || (!arr && !(arr = cJSON_AddArrayToObject(o, "written_against"))))
			continue;
		{
			cJSON *one = cJSON_CreateObject();
			char *rev = aa_strndup(s, (size_t)(e - s));

			if (one && d->v[i].path)
				cJSON_AddStringToObject(one, "path", d->v[i].path);
			if (one && rev)
				cJSON_AddStringToObject(one, "revision", rev);
			free(rev);
			cJSON_AddItemToArray(arr, one);
		}
	}
}

/*
 * The files and their +/-: the --json report's own (the one way lines
 * are counted), read back from it.
 */
static void add_files(cJSON *o, aa_apply_result *res, const char *branch)
{
	aa_report_opts ro;
	char *text = NULL;
	size_t len = 0, added = 0, removed = 0;
	FILE *mem = open_memstream(&text, &len);
	cJSON *doc = NULL, *files, *f, *arr = cJSON_AddArrayToObject(o, "files");

	memset(&ro, 0, sizeof(ro));
	ro.kind = AA_REPORT_JSON;
	ro.mode = "branch";
	ro.branch = branch;
	if (mem) {
		aa_report_result(mem, res, &ro);
		fclose(mem);
		doc = text ? cJSON_ParseWithLength(text, len) : NULL;
	}
	files = cJSON_GetObjectItemCaseSensitive(doc, "files");
	cJSON_ArrayForEach(f, files) {
		cJSON *one = cJSON_CreateObject();
		const char *keys[] = { "path", "status", "from", NULL };
		cJSON *a = cJSON_GetObjectItemCaseSensitive(f, "added");
		cJSON *r = cJSON_GetObjectItemCaseSensitive(f, "removed");
		size_t k;

		for (k = 0; one && keys[k]; k++) {
			cJSON *v = cJSON_GetObjectItemCaseSensitive(f, keys[k]);

			if (cJSON_IsString(v))
				cJSON_AddStringToObject(one, keys[k], v->valuestring);
		}
		if (one && cJSON_IsNumber(a) && cJSON_IsNumber(r)) {
			cJSON_AddNumberToObject(one, "added", a->valuedouble);
			cJSON_AddNumberToObject(one, "removed", r->valuedouble);
			added += (size_t)a->valuedouble;
			removed += (size_t)r->valuedouble;
		}
		cJSON_AddItemToArray(arr, one);
	}
	cJSON_AddNumberToObject(o, "added", (double)added);
	cJSON_AddNumberToObject(o, "removed", (double)removed);
	cJSON_Delete(doc);
	free(text);
}

static void write_record(prun_ctx *c, prun *r)
{
	cJSON *o = cJSON_CreateObject();
	const char *status = status_of(r);
	char *line;

	if (!o)
		return;
	cJSON_AddNumberToObject(o, "record", (double)r->p->record);
	if (r->p->line)
		cJSON_AddNumberToObject(o, "line", (double)r->p->line);
	cJSON_AddStringToObject(o, "name", r->p->name ? r->p->name : "");
	if (r->p->model)
		cJSON_AddStringToObject(o, "model", r->p->model);
	if (r->p->base)
		cJSON_AddStringToObject(o, "base", r->p->base);
	if (r->resolved)
		add_oid(o, "base_commit", &r->base);
	if (r->p->branch)
		cJSON_AddStringToObject(o, "branch", r->p->branch);
	cJSON_AddStringToObject(o, "status", status);
	if (r->already_landed)
		add_oid(o, "commit", &r->commit);
	else if (!r->failed && r->res.outcome == AA_OUT_APPLIED)
		add_oid(o, "commit", &r->res.session.commit);
	if (r->failed)
		add_refusal(o, r, c->input);
	if (r->started && r->res.cs.n)
		add_formats(o, &r->res.cs);
	if (r->started && (r->res.outcome == AA_OUT_APPLIED ||
			   r->reason == AA_PRED_CONFLICT))
		add_merges(o, &r->res.diags);
	if (r->started && !r->failed && r->res.outcome == AA_OUT_APPLIED) {
		cJSON_AddNumberToObject(o, "tolerant_placements",
					(double)tolerant(&r->res.plan));
		add_files(o, &r->res, r->p->branch);
	}
	line = cJSON_PrintUnformatted(o);
	if (line && c->o->results)
		fprintf(c->o->results, "%s\n", line);
	free(line);
	cJSON_Delete(o);
}

static void count(aa_predictions_summary *s, const prun *r)
{
	const char *st = status_of(r);

	if (r->failed)
		s->refused[r->reason]++;
	else if (!strcmp(st, "already-landed"))
		s->already_landed++;
	else if (!strcmp(st, "already-applied"))
		s->already_applied++;
	else
		s->landed++;
}

/* A prediction is done: its record, its count, its memory. */
static void finish_one(prun_ctx *c, prun *r)
{
	write_record(c, r);
	count(c->sum, r);
	if (r->started)
		aa_apply_result_clear(&r->res);
	r->started = 0;
	if (r->p->answer_file) {
		free(r->p->answer);
		r->p->answer = NULL;
	}
	aa_buf_free(&r->message);
	c->done++;
	if (c->o->progress)
		c->o->progress(c->done, c->sum->total, c->o->payload);
}

/* ---- the run ---- */

static int cmp_by_base(const void *a, const void *b)
{
	const prun *x = *(prun *const *)a, *y = *(prun *const *)b;
	int k = git_oid_cmp(&x->base, &y->base);

	return k ? k : (x->p->record > y->p->record) - (x->p->record < y->p->record);
}

/* The run's base on `base`: opened the first time, then moved. */
static void open_group(prun_ctx *c, group *g, const git_oid *base)
{
	memset(g, 0, sizeof(*g));
	git_oid_tostr(c->hex, sizeof(c->hex), base);
	c->land.base = c->hex;
	if (c->opened) {
		g->opened = aa_base_retarget(&c->base, &g->why) == 0;
		return;
	}
	c->opened = g->opened = aa_base_open(&c->base, c->repo, &c->land,
					     &g->why) == 0;
	if (!c->opened)
		aa_base_close(&c->base);
}

/*
 * The batch: its ready predictions landed (one pack, then the refs),
 * every record written and its memory freed, in the order they were
 * taken; then the objects in memory go, the next note is built on the
 * notes ref read again, and the bases moved from are released.
 */
static void flush(prun_ctx *c)
{
	size_t i;

	if (!c->npend)
		return;
	if (c->opened)
		land_batch(c, c->pend, c->npend);
	for (i = 0; i < c->npend; i++)
		finish_one(c, c->pend[i]);
	c->npend = 0;
	if (c->opened && c->base.mempack) {
		git_mempack_reset(c->base.mempack);
		c->base.notes_read = 0;
		aa_base_release(&c->base);
	}
}

/*
 * One base's predictions v[0..n), planned and built on it, each batch
 * (of any bases) landed once BATCH predictions are taken.
 */
static void run_group(prun_ctx *c, prun **v, size_t n)
{
	group g;
	size_t i;

	open_group(c, &g, &v[0]->base);
	for (i = 0; i < n && !c->fatal; i++) {
		prepare_one(c, &g, v[i]);
		c->pend[c->npend++] = v[i];
		if (c->npend == BATCH)
			flush(c);
	}
	aa_diags_free(&g.why);
}

/* The predictions not refused yet, by base, each base's in one group. */
static int run_groups(prun_ctx *c, prun *v, size_t n)
{
	prun **by = malloc((n ? n : 1) * sizeof(*by));
	size_t i, k = 0, start;

	c->pend = malloc((n ? n : 1) * sizeof(*c->pend));
	if (!by || !c->pend) {
		free(by);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (v[i].state == P_WAITING)
			by[k++] = &v[i];
		else
			finish_one(c, &v[i]);
	qsort(by, k, sizeof(*by), cmp_by_base);
	for (i = 0; i < k; i++)
		git_oid_tostr(by[i]->base_hex, sizeof(by[i]->base_hex), &by[i]->base);
	c->land = c->o->apply->land;
	c->land.mode = AA_LAND_BRANCH;
	for (start = 0; start < k && !c->fatal;) {
		size_t end = start + 1;

		while (end < k && git_oid_equal(&by[end]->base, &by[start]->base))
			end++;
		run_group(c, by + start, end - start);
		start = end;
	}
	flush(c);
	/* after a failed write: the predictions not taken, in order */
	for (i = 0; i < k; i++)
		if (by[i]->state == P_WAITING) {
			refuse(by[i], AA_PRED_FATAL, "not tried: an earlier write failed");
			finish_one(c, by[i]);
		}
	if (c->opened)
		aa_base_close(&c->base);
	c->opened = 0;
	free(by);
	return 0;
}

static int exit_status(const aa_predictions_summary *s, int fatal)
{
	size_t i, refused = 0;

	for (i = 0; i < AA_PRED_NREASONS; i++)
		refused += s->refused[i];
	if (fatal || s->refused[AA_PRED_FATAL])
		return AA_APPLY_EXIT_FATAL;
	return refused ? AA_APPLY_EXIT_REJECTED : 0;
}

int aa_apply_predictions(git_repository *repo, const aa_predictions_opts *o,
			 aa_predictions_summary *sum, aa_diags *d)
{
	aa_predictions preds = { NULL, 0, 0 };
	prun_ctx c;
	prun *v = NULL;
	size_t i;
	int code = AA_APPLY_EXIT_FATAL;

	memset(sum, 0, sizeof(*sum));
	memset(&c, 0, sizeof(c));
	c.repo = repo;
	c.o = o;
	c.sum = sum;
	if (o->apply->land.branch &&
	    aa_land_check_branch(o->apply->land.branch, d) < 0)
		return AA_APPLY_EXIT_FATAL;
	if (read_predictions(o, &preds, d) < 0)
		return AA_APPLY_EXIT_FATAL;
	c.dir = dir_of(o->file);
	c.input = strcmp(o->file, "-") ? o->file : "<stdin>";
	v = calloc(preds.n, sizeof(*v));
	if (!v || !c.dir) {
		aa_oom(d, AA_NOPOS, NULL);
		goto out;
	}
	sum->total = preds.n;
	for (i = 0; i < preds.n; i++)
		v[i].p = &preds.v[i];
	refuse_records(v, preds.n);
	if (refuse_duplicates(v, preds.n) < 0 || resolve_bases(repo, v, preds.n) < 0 ||
	    run_groups(&c, v, preds.n) < 0) {
		aa_oom(d, AA_NOPOS, NULL);
		goto out;
	}
	code = exit_status(sum, c.fatal);
out:
	for (i = 0; v && i < preds.n; i++) {
		if (v[i].started)
			aa_apply_result_clear(&v[i].res);
		aa_buf_free(&v[i].message);
	}
	free(v);
	free(c.dir);
	free(c.pend);
	aa_predictions_free(&preds);
	return code;
}

void aa_predictions_summary_print(FILE *out, const aa_predictions_summary *s)
{
	size_t i, refused = 0;

	for (i = 0; i < AA_PRED_NREASONS; i++)
		refused += s->refused[i];
	fprintf(out, "%zu prediction%s: %zu landed, %zu already landed, "
		"%zu already applied, %zu refused\n", s->total,
		s->total == 1 ? "" : "s", s->landed, s->already_landed,
		s->already_applied, refused);
	for (i = 0; i < AA_PRED_NREASONS; i++)
		if (s->refused[i])
			fprintf(out, "  refused, %s: %zu\n",
				aa_prediction_reason_name((aa_prediction_reason)i),
				s->refused[i]);
}
