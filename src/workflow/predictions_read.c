/*
 * --predictions: the file's records and their branch names
 * (src/workflow/predictions_read.h; Documentation/workflows.md, "##
 * Predictions"). No repository here.
 */
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "workflow/predictions_read.h"
#include "util/util.h"

/* ---- branch names ---- */

/* A byte git refuses in any refname (refs.c's disposition 4, and '*'). */
static int bad_ref_byte(unsigned char c)
{
	return c < 0x20 || c == 0x7f || c == ' ' || strchr("~^:?*[\\", c);
}

/*
 * Appends s[0..n) made a valid component, after a '/' when out holds
 * something; nothing when it is empty or all dots.
 */
static void put_component(aa_buf *out, const char *s, size_t n)
{
	size_t start = out->len, i;
	char last = 0;

	while (n && s[0] == '.' && (n == 1 || s[1] == '.'))
		s++, n--; /* "..", "..." are no names: dropped */
	if (!n)
		return;
	if (start)
		aa_buf_putc(out, '/');
	start = out->len;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (bad_ref_byte((unsigned char)c) ||
		    (c == '.' && (last == '.' || i == 0)) ||
		    (c == '{' && last == '@'))
			c = '-';
		aa_buf_putc(out, c);
		last = c;
	}
	if (aa_buf_oom(out))
		return;
	/* "x." and "x.lock" end no component: the dot becomes '-' */
	if (out->ptr[out->len - 1] == '.')
		out->ptr[out->len - 1] = '-';
	if (out->len - start >= 5 &&
	    !strcmp(out->ptr + out->len - 5, ".lock"))
		out->ptr[out->len - 5] = '-';
}

/*
 * One part, one component: its '/'s become '-' too, so the branches of
 * a run are all <prefix>/<model>/<name> (or <prefix>/<name>) and none
 * is a directory of another's (refs/heads/a and refs/heads/a/b cannot
 * both be). A part left empty is "-".
 */
static void put_part(aa_buf *out, const char *part)
{
	size_t before = out->len, i;

	put_component(out, part, strlen(part));
	if (out->len == before)
		aa_buf_puts(out, "/-");
	if (aa_buf_oom(out))
		return;
	/* after the component's own '/', every '/' is the part's */
	for (i = before + 1; i < out->len; i++)
		if (out->ptr[i] == '/')
			out->ptr[i] = '-';
}

int aa_prediction_branch(const char *prefix, const char *const *parts,
			 size_t nparts, aa_buf *out)
{
	size_t i;

	aa_buf_clear(out);
	aa_buf_puts(out, prefix);
	for (i = 0; i < nparts; i++)
		if (parts[i])
			put_part(out, parts[i]);
	return aa_buf_oom(out) ? -1 : 0;
}

/* ---- the records ---- */

static int grow_records(aa_predictions *p)
{
	if (AA_GROW(p->v, p->n, p->cap) < 0)
		return -1;
	memset(&p->v[p->n], 0, sizeof(p->v[0]));
	p->v[p->n].record = p->n + 1;
	p->n++;
	return 0;
}

/* The string field `key` of o, or NULL (absent, null or not a string). */
static const char *field(const cJSON *o, const char *key)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(f) ? f->valuestring : NULL;
}

/* A field that is there but is no string: the record's error. */
static const char *not_a_string(const cJSON *o, const char *const *keys)
{
	size_t i;

	for (i = 0; keys[i]; i++) {
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, keys[i]);

		if (f && !cJSON_IsString(f) && !cJSON_IsNull(f))
			return keys[i];
	}
	return NULL;
}

static int set_error(aa_prediction *r, const char *fmt, const char *arg)
{
	aa_buf b = AA_BUF_INIT;

	aa_buf_printf(&b, fmt, arg);
	free(r->error);
	r->error = aa_buf_detach(&b);
	return r->error ? 0 : -1;
}

static char *dup_or_null(const char *s)
{
	return s ? aa_strdup(s) : NULL;
}

/* cJSON holds a string up to its first NUL: its real length is unknown */
static int set_answer(aa_prediction *r, const char *text)
{
	r->answer_len = strlen(text);
	r->answer = aa_strdup(text);
	return r->answer ? 0 : -1;
}

/*
 * A SWE-bench prediction: instance_id (or the key it is filed under),
 * model_name_or_path, model_patch, base_commit or the dataset's.
 */
static int read_swebench(aa_prediction *r, const cJSON *o, const char *key,
			 const aa_base_map *bases)
{
	const char *id = field(o, "instance_id") ? field(o, "instance_id") : key;
	const char *patch = field(o, "model_patch");
	const char *base = field(o, "base_commit");

	r->name = aa_strdup(id);
	r->model = dup_or_null(field(o, "model_name_or_path"));
	if (!base && bases)
		base = aa_base_map_get(bases, id);
	r->base = dup_or_null(base);
	if (!r->name)
		return -1;
	if (!patch || !*patch) {
		r->empty = 1;
		return set_error(r, "%s: an empty model_patch (the model made no change)", id);
	}
	if (set_answer(r, patch) < 0)
		return -1;
	r->no_base = !base;
	if (!base)
		return set_error(r, bases ? "%s: no base_commit in the record nor in --dataset"
				 : "%s: no base_commit (give the dataset's rows with --dataset)",
				 id);
	return 0;
}

/* A manifest record: name, base, answer or answer_file. */
static int read_manifest(aa_prediction *r, const cJSON *o)
{
	const char *answer = field(o, "answer"), *file = field(o, "answer_file");

	r->name = dup_or_null(field(o, "name"));
	r->base = dup_or_null(field(o, "base"));
	if (!r->name || !*r->name)
		return set_error(r, "%s", "a manifest record needs a \"name\"");
	if (!r->base || !*r->base) {
		r->no_base = 1;
		return set_error(r, "%s: a manifest record needs a \"base\"", r->name);
	}
	if (answer && file)
		return set_error(r, "%s: \"answer\" and \"answer_file\" both given", r->name);
	if (file)
		return (r->answer_file = aa_strdup(file)) ? 0 : -1;
	if (!answer)
		return set_error(r, "%s: no \"answer\" nor \"answer_file\"", r->name);
	return set_answer(r, answer);
}

static const char *const string_fields[] = {
	"instance_id", "model_name_or_path", "model_patch", "base_commit",
	"name", "base", "answer", "answer_file", NULL
};

/*
 * Record r from object o (`key`: the key it is filed under in an object
 * of records, or NULL). -1 only when out of memory.
 */
static int read_record(aa_prediction *r, const cJSON *o, const char *key,
		       const aa_base_map *bases)
{
	const char *bad;

	if (!cJSON_IsObject(o))
		return set_error(r, "%s", "a record is a JSON object");
	if ((bad = not_a_string(o, string_fields)))
		return set_error(r, "\"%s\" is not a string", bad);
	if (field(o, "instance_id") || field(o, "model_patch") ||
	    (key && !field(o, "name")))
		return read_swebench(r, o, key, bases);
	return read_manifest(r, o);
}

/* The line of byte `at` of data, from 1. */
static long line_of(const char *data, size_t at)
{
	long line = 1;
	size_t i;

	for (i = 0; i < at; i++)
		line += data[i] == '\n';
	return line;
}

static int parse_error(const char *data, size_t len, const char *name,
		       aa_diags *d)
{
	const char *at = cJSON_GetErrorPtr();
	size_t off = at && at >= data && at <= data + len ? (size_t)(at - data) : 0;

	return aa_error(d, (aa_pos){ name, line_of(data, off) }, NULL,
			"not JSON: the predictions are a JSON list, an object "
			"of records or JSON Lines");
}

/* A JSON list or an object of records (keyed by instance_id). */
static int read_document(cJSON *doc, const char *name,
			 const aa_base_map *bases, aa_predictions *out,
			 aa_diags *d)
{
	cJSON *it;

	cJSON_ArrayForEach(it, doc) {
		if (grow_records(out) < 0 ||
		    read_record(&out->v[out->n - 1], it,
				cJSON_IsObject(doc) ? it->string : NULL, bases) < 0)
			return aa_oom(d, (aa_pos){ name, 0 }, NULL);
	}
	return 0;
}

/* JSON Lines: a line that does not parse is its record's error. */
static int read_lines(const char *data, size_t len, const char *name,
		      const aa_base_map *bases, aa_predictions *out,
		      aa_diags *d)
{
	size_t i = 0;
	long line = 0;

	while (i < len) {
		size_t end = i;
		size_t a = i, z;
		cJSON *o;
		aa_prediction *r;

		while (end < len && data[end] != '\n')
			end++;
		line++;
		z = end;
		aa_trim(data, &a, &z, aa_is_ws);
		i = end + 1;
		if (a == z)
			continue;
		if (grow_records(out) < 0)
			return aa_oom(d, (aa_pos){ name, line }, NULL);
		r = &out->v[out->n - 1];
		r->line = line;
		o = cJSON_ParseWithLength(data + a, z - a);
		if ((!o ? set_error(r, "%s", "the line is not a JSON object")
			: read_record(r, o, NULL, bases)) < 0) {
			cJSON_Delete(o);
			return aa_oom(d, (aa_pos){ name, line }, NULL);
		}
		cJSON_Delete(o);
	}
	return 0;
}

/* A record of its own, not an object of records: it has a record's field. */
static int is_record(const cJSON *o)
{
	return field(o, "instance_id") || field(o, "model_patch") ||
	       field(o, "name") || field(o, "answer") || field(o, "answer_file") ||
	       field(o, "base_commit");
}

/*
 * The file as one document (*doc: a list, or an object of records),
 * or JSON Lines (*doc NULL; one record alone on its line is JSON Lines
 * too). A file that starts with '[' and does not parse is refused as a
 * whole: -1 with the error in d.
 */
static int parse_document(const char *data, size_t len, const char *name,
			  cJSON **doc, aa_diags *d)
{
	size_t i = aa_json_skip_ws(data, len, 0);

	*doc = NULL;
	if (i >= len || (data[i] != '[' && data[i] != '{'))
		return 0;
	*doc = cJSON_ParseWithLength(data, len);
	if (!*doc && data[i] == '[')
		return parse_error(data, len, name, d);
	if (*doc && (cJSON_IsArray(*doc) || !is_record(*doc)))
		return 0;
	cJSON_Delete(*doc);
	*doc = NULL;
	return 0;
}

int aa_predictions_read(const char *data, size_t len, const char *name,
			const aa_base_map *bases, const char *prefix,
			aa_predictions *out, aa_diags *d)
{
	aa_buf b = AA_BUF_INIT;
	size_t i;
	int r;
	cJSON *doc;

	memset(out, 0, sizeof(*out));
	r = parse_document(data, len, name, &doc, d);
	if (!r)
		r = doc ? read_document(doc, name, bases, out, d)
			: read_lines(data, len, name, bases, out, d);
	cJSON_Delete(doc);
	for (i = 0; !r && i < out->n; i++) {
		aa_prediction *p = &out->v[i];
		const char *parts[2] = { p->model, p->name };

		if (!p->name)
			continue;
		if (aa_prediction_branch(prefix, parts, 2, &b) < 0)
			r = aa_oom(d, (aa_pos){ name, p->line }, NULL);
		else
			p->branch = aa_buf_detach(&b);
	}
	aa_buf_free(&b);
	if (!r && !out->n)
		r = aa_error(d, (aa_pos){ name, 0 }, NULL, "no prediction in the file");
	return r;
}

void aa_predictions_free(aa_predictions *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		aa_prediction *r = &p->v[i];

		free(r->name);
		free(r->model);
		free(r->base);
		free(r->answer);
		free(r->answer_file);
		free(r->branch);
		free(r->error);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
}

/* ---- --dataset ---- */

static int add_base(aa_base_map *m, size_t *cap, const cJSON *o,
		    const char *key)
{
	const char *id = field(o, "instance_id") ? field(o, "instance_id") : key;
	const char *commit = field(o, "base_commit");

	if (!id || !commit)
		return 0;
	if (AA_GROW(m->v, m->n, *cap) < 0)
		return -1;
	m->v[m->n].id = aa_strdup(id);
	m->v[m->n].commit = aa_strdup(commit);
	m->n++;
	return m->v[m->n - 1].id && m->v[m->n - 1].commit ? 0 : -1;
}

static int cmp_ids(const void *a, const void *b)
{
	return strcmp(((const aa_base_row *)a)->id, ((const aa_base_row *)b)->id);
}

/* JSON Lines of dataset rows. */
static int read_base_lines(const char *data, size_t len, const char *name,
			   aa_base_map *m, size_t *cap, aa_diags *d)
{
	size_t i = 0;
	long line = 0;

	while (i < len) {
		size_t end = i, a = i, z;
		cJSON *o;
		int r;

		while (end < len && data[end] != '\n')
			end++;
		line++;
		z = end;
		aa_trim(data, &a, &z, aa_is_ws);
		i = end + 1;
		if (a == z)
			continue;
		if (!(o = cJSON_ParseWithLength(data + a, z - a)))
			return aa_error(d, (aa_pos){ name, line }, NULL,
					"not JSON: each line of the dataset is a JSON object");
		r = add_base(m, cap, o, NULL);
		cJSON_Delete(o);
		if (r < 0)
			return aa_oom(d, (aa_pos){ name, line }, NULL);
	}
	return 0;
}

int aa_base_map_read(const char *data, size_t len, const char *name,
		     aa_base_map *m, aa_diags *d)
{
	size_t cap = 0;
	int r = 0;

	cJSON *doc, *it;

	memset(m, 0, sizeof(*m));
	if (parse_document(data, len, name, &doc, d) < 0)
		return -1;
	if (doc) {
		cJSON_ArrayForEach(it, doc)
			if (!r && add_base(m, &cap, it, cJSON_IsObject(doc) ?
					   it->string : NULL) < 0)
				r = aa_oom(d, (aa_pos){ name, 0 }, NULL);
		cJSON_Delete(doc);
	} else {
		r = read_base_lines(data, len, name, m, &cap, d);
	}
	if (!r && m->n)
		qsort(m->v, m->n, sizeof(*m->v), cmp_ids);
	return r;
}

const char *aa_base_map_get(const aa_base_map *m, const char *id)
{
	size_t lo = 0, hi = m ? m->n : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(id, m->v[mid].id);

		if (!c)
			return m->v[mid].commit;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

void aa_base_map_free(aa_base_map *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		free(m->v[i].id);
		free(m->v[i].commit);
	}
	free(m->v);
	memset(m, 0, sizeof(*m));
}
