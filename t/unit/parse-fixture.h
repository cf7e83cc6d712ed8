/*
 * The unit suites' way to run the parser over an answer held in a
 * string: one fixture, freed with release().
 */
#ifndef AA_UNIT_PARSE_FIXTURE_H
#define AA_UNIT_PARSE_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "format/format.h"

typedef struct fixture {
	aa_input in;
	aa_parse_opts o;
	aa_changeset cs;
	aa_diags d;
} fixture;

static inline int parse_len(fixture *f, const char *text, size_t len,
			    aa_format fmt)
{
	memset(f, 0, sizeof(*f));
	f->in.name = "answer.md";
	f->in.data = text;
	f->in.len = len;
	f->o.format = fmt;
	return aa_parse_input(&f->in, &f->o, &f->cs, &f->d);
}

static inline int parse(fixture *f, const char *text, aa_format fmt)
{
	return parse_len(f, text, strlen(text), fmt);
}

static inline void release(fixture *f)
{
	aa_changeset_free(&f->cs);
	aa_diags_free(&f->d);
}

/* 1 when an error at input line `line` says `what`; else shows them all. */
static inline int has_error(const fixture *f, long line, const char *what)
{
	size_t i;

	for (i = 0; i < f->d.n; i++)
		if (f->d.v[i].level == AA_DIAG_ERROR && f->d.v[i].line == line &&
		    strstr(f->d.v[i].msg, what))
			return 1;
	for (i = 0; i < f->d.n; i++)
		fprintf(stderr, "# diag line %ld: %s\n", f->d.v[i].line,
			f->d.v[i].msg);
	return 0;
}

/* The diagnostics and operations parsed, on stderr (a failing test's why). */
static inline void dump(const fixture *f)
{
	size_t i;

	for (i = 0; i < f->d.n; i++)
		fprintf(stderr, "# diag %d line %ld: %s\n", (int)f->d.v[i].level,
			f->d.v[i].line, f->d.v[i].msg);
	for (i = 0; i < f->cs.n; i++)
		fprintf(stderr, "# op %s %s (%s, line %ld)\n",
			aa_op_kind_name(f->cs.ops[i].kind), f->cs.ops[i].path,
			f->cs.ops[i].format, f->cs.ops[i].pos.line);
}

#endif
