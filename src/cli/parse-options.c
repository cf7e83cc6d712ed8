/*
 * The option parser of src/cli/parse-options.h. Written for this
 * command, after git's parse-options.c: long options by unique prefix,
 * --no-<name> for the negatable ones, usage and completion lists from
 * the same table.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/parse-options.h"

#define NO_POS ((aa_pos){ NULL, 0 })

static int negatable(const cli_option *o)
{
	return o->kind == CLI_NEGFLAG || o->kind == CLI_OPTVALUE;
}

static const cli_option *canonical(const cli_parser *p, const cli_option *opt)
{
	size_t k;

	for (k = 0; k < p->nopts; k++)
		if (p->opts[k].id == opt->id)
			return &p->opts[k];
	return opt;
}

const char *cli_option_name(const cli_parser *p, const cli_option *opt)
{
	static char name[256];
	const cli_option *c = canonical(p, opt);

	if (c->long_name)
		snprintf(name, sizeof(name), "--%s", c->long_name);
	else
		snprintf(name, sizeof(name), "-%c", c->short_name);
	return name;
}

static int usage_error(cli_parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int usage_error(cli_parser *p, const char *fmt, ...)
{
	va_list ap;

	aa_buf_clear(&p->err);
	va_start(ap, fmt);
	aa_buf_vprintf(&p->err, fmt, ap);
	va_end(ap);
	return CLI_USAGE;
}

void cli_fatal(cli_parser *p, const char *msg)
{
	size_t k;

	for (k = 0; k < p->fatal->n; k++)
		if (p->fatal->v[k].level == AA_DIAG_ERROR &&
		    !strcmp(p->fatal->v[k].msg, msg))
			return;
	aa_error(p->fatal, NO_POS, NULL, "%s", msg);
}

/* ---- storing ---- */

static void *field(cli_parser *p, const cli_option *opt)
{
	return (char *)p->target + opt->offset;
}

/*
 * A mode option: the first mode stays; a different one is refused
 * (recorded) and then not stored at all. 1 when refused.
 */
static int refuse_second_mode(cli_parser *p, const cli_option *opt)
{
	char first[256];

	if (!opt->cmdmode || !p->cmdmode || p->cmdmode == opt->cmdmode) {
		if (opt->cmdmode) {
			p->cmdmode = opt->cmdmode;
			p->cmdmode_by = opt;
		}
		return 0;
	}
	snprintf(first, sizeof(first), "%s", cli_option_name(p, p->cmdmode_by));
	aa_error(p->fatal, NO_POS, NULL,
		 "options '%s' and '%s' cannot be used together", first,
		 cli_option_name(p, opt));
	return 1;
}

static int store(cli_parser *p, const cli_option *opt, const char *arg,
		 int unset)
{
	int r = CLI_OK;

	if (!unset && refuse_second_mode(p, opt))
		return CLI_OK;
	switch (opt->store) {
	case CLI_STORE_INT:
		*(int *)field(p, opt) = unset ? 0 : opt->value;
		break;
	case CLI_STORE_BIT:
		if (unset)
			*(unsigned *)field(p, opt) &= ~(unsigned)opt->value;
		else
			*(unsigned *)field(p, opt) |= (unsigned)opt->value;
		break;
	case CLI_STORE_STR:
		*(const char **)field(p, opt) = arg;
		break;
	case CLI_STORE_NONE:
		break;
	}
	if (opt->fn)
		r = opt->fn(p, opt, arg, unset);
	if (r == CLI_OK && unset)
		p->given &= ~CLI_BIT(opt->id);
	else if (r == CLI_OK)
		p->given |= CLI_BIT(opt->id);
	return r;
}

/*
 * Takes opt's value: after '=' (eq, or NULL), else for a CLI_VALUE the
 * next argument. A missing (or, CLI_NONEMPTY, empty) value is an error
 * when opt says what it needs, else the empty string.
 */
static int take_value(cli_parser *p, const cli_option *opt, int argc,
		      char **argv, int *i, const char *eq, const char **arg)
{
	*arg = eq ? eq + 1 : NULL;
	if (opt->kind != CLI_VALUE)
		return CLI_OK;
	if (!eq && *i + 1 < argc)
		*arg = argv[++*i];
	if (*arg && (**arg || !(opt->flags & CLI_NONEMPTY)))
		return CLI_OK;
	if (opt->missing)
		return usage_error(p, "option '%s' needs %s",
				   cli_option_name(p, opt), opt->missing);
	*arg = "";
	return CLI_OK;
}

/* ---- matching ---- */

typedef struct match {
	const cli_option *opt;
	int unset;
} match;

/* An exact long name, or its --no- form: 1 and *m, else 0. */
static int exact_long(const cli_parser *p, const char *name, size_t len,
		      match *m)
{
	size_t k;

	for (k = 0; k < p->nopts; k++) {
		const cli_option *o = &p->opts[k];

		if (!o->long_name)
			continue;
		if (strlen(o->long_name) == len &&
		    !strncmp(o->long_name, name, len)) {
			*m = (match){ o, 0 };
			return 1;
		}
		if (negatable(o) && len > 3 && !strncmp(name, "no-", 3) &&
		    strlen(o->long_name) == len - 3 &&
		    !strncmp(o->long_name, name + 3, len - 3)) {
			*m = (match){ o, 1 };
			return 1;
		}
	}
	return 0;
}

/* Is name[0..len) the start of o's long name, or of its --no- form? */
static int abbreviates(const cli_option *o, const char *name, size_t len,
		       int unset)
{
	if (!unset)
		return !strncmp(o->long_name, name, len);
	if (!negatable(o))
		return 0;
	/* "--n", "--no", "--no-": the start of every --no- form (as git) */
	if (len <= 3)
		return !strncmp("no-", name, len);
	return !strncmp(name, "no-", 3) &&
	       !strncmp(o->long_name, name + 3, len - 3);
}

static int add_candidate(match *v, size_t *n, const cli_option *o, int unset)
{
	size_t k;

	for (k = 0; k < *n; k++)
		if (v[k].opt->id == o->id && v[k].unset == unset)
			return 0; /* the same option under another name */
	v[(*n)++] = (match){ o, unset };
	return 0;
}

/* "ambiguous option: --c (could be --cached, --check or --color)" */
static int ambiguous(cli_parser *p, const char *name, size_t len,
		     const match *v, size_t n)
{
	size_t k;

	aa_buf_clear(&p->err);
	aa_buf_printf(&p->err, "ambiguous option: --%.*s (could be ", (int)len,
		      name);
	for (k = 0; k < n; k++)
		aa_buf_printf(&p->err, "%s--%s%s",
			      !k ? "" : k + 1 == n ? " or " : ", ",
			      v[k].unset ? "no-" : "", v[k].opt->long_name);
	aa_buf_putc(&p->err, ')');
	return CLI_USAGE;
}

/*
 * The option a long argument names: exactly, else by a unique prefix.
 * 1 and *m; 0 when none; CLI_USAGE when the prefix is ambiguous.
 */
static int find_long(cli_parser *p, const char *name, size_t len, match *m)
{
	match v[2 * 64];
	size_t k, n = 0;
	int unset;

	if (!len)
		return 0;
	if (exact_long(p, name, len, m))
		return 1;
	for (unset = 0; unset < 2; unset++)
		for (k = 0; k < p->nopts; k++)
			if (p->opts[k].long_name && n < sizeof(v) / sizeof(v[0]) &&
			    abbreviates(&p->opts[k], name, len, unset))
				add_candidate(v, &n, &p->opts[k], unset);
	if (n > 1)
		return ambiguous(p, name, len, v, n);
	if (n == 1)
		*m = v[0];
	return (int)n;
}

static int parse_long(cli_parser *p, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *name = a + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const char *arg;
	match m;
	int r = find_long(p, name, len, &m);

	if (r < 0)
		return r;
	/* a flag given a value, a --no- form given one: unknown, as before */
	if (!r || (eq && (m.unset || m.opt->kind == CLI_FLAG ||
			  m.opt->kind == CLI_NEGFLAG)))
		return usage_error(p, "unknown option '%s'", a);
	if (!m.unset && (r = take_value(p, m.opt, argc, argv, i, eq, &arg)) < 0)
		return r;
	return store(p, m.opt, m.unset ? NULL : arg, m.unset);
}

/* "-x", and for a value "-x <v>" or "-x=<v>". */
static int parse_short(cli_parser *p, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *arg;
	size_t k;
	int r;

	for (k = 0; k < p->nopts; k++) {
		const cli_option *o = &p->opts[k];

		if (!o->short_name || a[1] != o->short_name)
			continue;
		if (o->flags & CLI_ATTACHED) {
			if (a[2] < '0' || a[2] > '9')
				continue;
			return store(p, o, a + 2, 0);
		}
		if (a[2] && (a[2] != '=' || o->kind != CLI_VALUE))
			continue;
		if ((r = take_value(p, o, argc, argv, i, a[2] ? a + 2 : NULL,
				    &arg)) < 0)
			return r;
		return store(p, o, arg, 0);
	}
	return usage_error(p, "unknown option '%s'", a);
}

int cli_parse_option(cli_parser *p, int argc, char **argv, int *i)
{
	if (argv[*i][1] == '-')
		return parse_long(p, argc, argv, i);
	return parse_short(p, argc, argv, i);
}

void cli_check_conflicts(cli_parser *p)
{
	size_t k;
	int id;

	for (k = 0; k < p->nopts; k++) {
		const cli_option *o = &p->opts[k];
		unsigned long long clash = p->given & o->conflicts;
		char msg[512];

		if (!(p->given & CLI_BIT(o->id)) || !clash ||
		    canonical(p, o) != o)
			continue;
		if (o->conflict_msg) {
			cli_fatal(p, o->conflict_msg);
			continue;
		}
		for (id = 0; !(clash & CLI_BIT(id)); id++)
			;
		snprintf(msg, sizeof(msg), "options '%s' and ",
			 cli_option_name(p, &(cli_option){ .id = id }));
		snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg),
			 "'%s' cannot be used together", cli_option_name(p, o));
		cli_fatal(p, msg);
	}
}

/* ---- usage ---- */

/* "    -3, --3way", "    --branch=<name>", "    -m <msg>", ... */
static void usage_names(aa_buf *out, const cli_option *o)
{
	aa_buf_puts(out, "    ");
	if (o->short_name)
		aa_buf_printf(out, "-%c%s", o->short_name,
			      o->long_name ? ", " : "");
	if (o->long_name)
		aa_buf_printf(out, "--%s", o->long_name);
	if (o->kind == CLI_VALUE)
		aa_buf_printf(out, "%s%s", o->long_name ? "=" : " ", o->argh);
	else if (o->kind == CLI_OPTVALUE)
		aa_buf_printf(out, "[=%s]", o->argh);
}

static void indent_to_help(aa_buf *out, size_t col)
{
	if (col + 2 > CLI_HELP_COLUMN) {
		aa_buf_putc(out, '\n');
		col = 0;
	}
	while (col++ < CLI_HELP_COLUMN)
		aa_buf_putc(out, ' ');
}

/* The help text, its lines after the first under the help column. */
static void help_lines(aa_buf *out, const char *help)
{
	const char *nl;

	while ((nl = strchr(help, '\n'))) {
		aa_buf_put(out, help, (size_t)(nl - help) + 1);
		indent_to_help(out, 0);
		help = nl + 1;
	}
	aa_buf_printf(out, "%s\n", help);
}

/* Words of `text` on lines that end by column 78. */
static void wrap(aa_buf *out, const char *text)
{
	size_t col = CLI_HELP_COLUMN;
	const char *p, *sp;

	for (p = text; *p; p = *sp ? sp + 1 : sp) {
		size_t w;

		sp = strchr(p, ' ');
		if (!sp)
			sp = p + strlen(p);
		w = (size_t)(sp - p);
		if (col + w > 78 && col > CLI_HELP_COLUMN) {
			aa_buf_putc(out, '\n');
			indent_to_help(out, 0);
			col = CLI_HELP_COLUMN;
		} else if (col > CLI_HELP_COLUMN) {
			aa_buf_putc(out, ' ');
			col++;
		}
		aa_buf_put(out, p, w);
		col += w;
	}
	aa_buf_putc(out, '\n');
}

static void usage_option(aa_buf *out, const cli_option *o)
{
	size_t start = out->len;

	usage_names(out, o);
	indent_to_help(out, out->len - start);
	if (o->help_fn) {
		aa_buf text = AA_BUF_INIT;

		if (o->help_fn(&text) < 0 || !text.ptr)
			aa_buf_puts(out, "(out of memory)\n");
		else
			wrap(out, text.ptr);
		aa_buf_free(&text);
	} else {
		help_lines(out, o->help);
	}
}

int cli_usage(aa_buf *out, const char *synopsis, const cli_option *opts,
	      size_t n)
{
	size_t k;

	aa_buf_printf(out, "%s\n", synopsis);
	for (k = 0; k < n; k++)
		if (opts[k].help || opts[k].help_fn)
			usage_option(out, &opts[k]);
	return aa_buf_oom(out) ? -1 : 0;
}

/* ---- completion ---- */

static int completed(const cli_option *o)
{
	return o->long_name && !(o->flags & CLI_NOCOMPLETE);
}

int cli_completion_list(aa_buf *out, const cli_option *opts, size_t n)
{
	size_t k, negs = 0;

	for (k = 0; k < n; k++)
		if (completed(&opts[k]))
			aa_buf_printf(out, "%s--%s%s", out->len ? " " : "",
				      opts[k].long_name,
				      opts[k].kind == CLI_VALUE ? "=" : "");
	for (k = 0; k < n; k++) {
		if (!completed(&opts[k]) || !negatable(&opts[k]))
			continue;
		aa_buf_printf(out, "%s --no-%s", negs == 1 ? " --" : "",
			      opts[k].long_name);
		negs++;
	}
	aa_buf_putc(out, '\n');
	return aa_buf_oom(out) ? -1 : 0;
}

void cli_parser_free(cli_parser *p)
{
	aa_buf_free(&p->err);
}
