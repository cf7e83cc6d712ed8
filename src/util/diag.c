/* Diagnostics: errors, warnings and notes with their input position. */
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void aa_diag_addv(aa_diags *d, aa_diag_level level, aa_pos pos,
		  const char *path, const char *fmt, va_list ap)
{
	aa_buf msg = AA_BUF_INIT;
	aa_diag *dg;

	if (level == AA_DIAG_ERROR)
		d->nerrors++;  /* counted even if we cannot store it */
	if (AA_GROW(d->v, d->n, d->cap) < 0)
		return;
	if (aa_buf_vprintf(&msg, fmt, ap) < 0) {
		aa_buf_free(&msg);
		return;
	}
	dg = &d->v[d->n++];
	dg->level = level;
	dg->path = path ? aa_strdup(path) : NULL;
	dg->input = pos.input ? aa_strdup(pos.input) : NULL;
	dg->line = pos.line;
	dg->msg = aa_buf_detach(&msg);
}

int aa_error(aa_diags *d, aa_pos pos, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	aa_diag_addv(d, AA_DIAG_ERROR, pos, path, fmt, ap);
	va_end(ap);
	return -1;
}

int aa_oom(aa_diags *d, aa_pos pos, const char *path)
{
	return aa_error(d, pos, path, "out of memory");
}

int aa_fatal(aa_diags *d, aa_pos pos, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	aa_diag_addv(d, AA_DIAG_ERROR, pos, path, fmt, ap);
	va_end(ap);
	return AA_FATAL;
}

int aa_fatal_oom(aa_diags *d, aa_pos pos, const char *path)
{
	aa_oom(d, pos, path);
	return AA_FATAL;
}

int aa_error_buf(aa_diags *d, aa_pos pos, const char *path, const aa_buf *msg)
{
	if (aa_buf_oom(msg) || !msg->ptr)
		return aa_oom(d, pos, path);
	return aa_error(d, pos, path, "%s", msg->ptr);
}

void aa_warn(aa_diags *d, aa_pos pos, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	aa_diag_addv(d, AA_DIAG_WARNING, pos, path, fmt, ap);
	va_end(ap);
}

void aa_note(aa_diags *d, aa_pos pos, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	aa_diag_addv(d, AA_DIAG_NOTE, pos, path, fmt, ap);
	va_end(ap);
}

static const char *level_name(aa_diag_level l)
{
	switch (l) {
	case AA_DIAG_ERROR: return "error";
	case AA_DIAG_WARNING: return "warning";
	default: return "note";
	}
}

/*
 * The path and the input name are quoted as git quotes paths (only when
 * they must be): a path from an answer may hold ESC, CR or LF. The
 * message quotes what it embeds itself (aa_qpath, aa_qtext).
 */
int aa_diag_format(const aa_diag *dg, aa_buf *out)
{
	int r = aa_buf_printf(out, "%s: ", level_name(dg->level));

	if (!r && dg->path)
		r = aa_buf_printf(out, "%s: ", aa_qpath(dg->path));
	if (!r && dg->input && dg->line > 0)
		r = aa_buf_printf(out, "%s:%ld: ", aa_qpath(dg->input), dg->line);
	else if (!r && dg->input)
		r = aa_buf_printf(out, "%s: ", aa_qpath(dg->input));
	if (!r)
		r = aa_buf_puts(out, dg->msg ? dg->msg : "");
	return r;
}

void aa_diags_free(aa_diags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->v[i].path);
		free(d->v[i].input);
		free(d->v[i].msg);
	}
	free(d->v);
	d->v = NULL;
	d->n = d->cap = d->nerrors = 0;
}
