/* Reports: what changed, how every edit landed, and what went wrong. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "report/report.h"
#include "land/sparse.h"
#include "util/util.h"

/* ---- git's diff colors (git's diff.c emit_line_0, ws.c ws_check_emit) ---- */

#define COL(c, slot) aa_color_get((c), AA_COLOR_##slot)

/* "<set>text<reset>": git writes the reset even after an empty set. */
static void put_colored(aa_buf *out, const char *set, const char *s, size_t n,
			const char *reset)
{
	aa_buf_puts(out, set);
	aa_buf_put(out, s, n);
	aa_buf_puts(out, reset);
}

/*
 * An added line's text (no sign, no newline) with git's default
 * whitespace rules: a space before a tab in the indent and blanks at the
 * end of the line (a carriage return is one) in color.diff.whitespace;
 * a good indent is written plain, the rest in new.
 */
static void put_new_text(aa_buf *out, const char *s, size_t len,
			 const aa_color *c)
{
	size_t trail = len, i, written = 0;

	while (trail && aa_is_ws(s[trail - 1]))
		trail--;
	for (i = 0; i < trail; i++) {
		if (s[i] == ' ')
			continue;
		if (s[i] != '\t')
			break;
		if (written < i) {
			put_colored(out, COL(c, WHITESPACE), s + written, i - written,
				    COL(c, RESET));
			aa_buf_putc(out, '\t');
		} else {
			aa_buf_put(out, s + written, i - written + 1);
		}
		written = i + 1;
	}
	if (trail > written)
		put_colored(out, COL(c, NEW), s + written, trail - written,
			    COL(c, RESET));
	if (len > trail)
		put_colored(out, COL(c, WHITESPACE), s + trail, len - trail,
			    COL(c, RESET));
}

/*
 * A '-', '+' or ' ' line (or, sign 0, "\ No newline"): its color, sign
 * and text, the reset before the line end (git writes a "\r" after it,
 * except on an added line where it is a whitespace error).
 */
static void put_sign_line(aa_buf *out, char sign, const char *s, size_t len,
			  const aa_color *c)
{
	int nl = len && s[len - 1] == '\n', cr;
	const char *set = sign == '-' ? COL(c, OLD) : COL(c, CONTEXT);

	len -= (size_t)nl;
	if (sign == '+') {
		put_colored(out, COL(c, NEW), "+", 1, COL(c, RESET));
		put_new_text(out, s, len, c);
	} else {
		cr = len && s[len - 1] == '\r';
		len -= (size_t)cr;
		aa_buf_puts(out, set);
		if (sign)
			aa_buf_putc(out, sign);
		put_colored(out, "", s, len, COL(c, RESET));
		if (cr)
			aa_buf_putc(out, '\r');
	}
	if (nl)
		aa_buf_putc(out, '\n');
}

/* The first "@@" in s[from, n), or NULL. */
static const char *find_atat(const char *s, size_t from, size_t n)
{
	size_t i;

	for (i = from; i + 1 < n; i++)
		if (s[i] == '@' && s[i + 1] == '@')
			return s + i;
	return NULL;
}

/*
 * "@@ -a,b +c,d @@ func": the "@@ ... @@" in frag, the blanks after it in
 * context, the function in func, each followed by a reset.
 */
static void put_hunk_header(aa_buf *out, const char *s, size_t len,
			    const aa_color *c)
{
	size_t n = len;
	const char *ep, *fn;

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	if (n < 10 || s[0] != '@' || s[1] != '@' || !(ep = find_atat(s, 2, n))) {
		put_sign_line(out, 0, s, len, c);
		return;
	}
	ep += 2;
	put_colored(out, COL(c, FRAG), s, (size_t)(ep - s), COL(c, RESET));
	fn = s + aa_skip(s, n, (size_t)(ep - s), aa_is_blank);
	if (fn != ep)
		put_colored(out, COL(c, CONTEXT), ep, (size_t)(fn - ep), COL(c, RESET));
	if (fn < s + n)
		put_colored(out, COL(c, FUNC), fn, (size_t)(s + n - fn), COL(c, RESET));
	aa_buf_put(out, s + n, len - n);
	if (!len || s[len - 1] != '\n')
		aa_buf_putc(out, '\n');
}

/* git's ws_blank_line: nothing but blanks. */
static int blank_line(const char *s, size_t len)
{
	while (len && aa_is_ws(*s)) {
		s++;
		len--;
	}
	return !len;
}

/* git's count_lines: an incomplete last line counts. */
static long count_lines(const char *s, size_t len)
{
	long n = 0;
	size_t i;

	for (i = 0; i < len; i++)
		n += s[i] == '\n';
	return n + (len && s[len - 1] != '\n');
}

/* git's count_trailing_blank: the blank lines at the end (not the first). */
static long trailing_blank(const char *s, size_t len)
{
	const char *p, *eol;
	long n = 0;

	if (!len)
		return 0;
	p = s + len - 1;
	if (*p == '\n')
		p--; /* the last line's newline */
	while (s < p) {
		for (eol = p; s <= eol && *eol != '\n'; eol--)
			;
		if (!blank_line(eol + 1, (size_t)(p - eol)))
			break;
		n++;
		p = eol - 1;
	}
	return n;
}

void aa_report_color_file(aa_diff_colors *dc, const aa_color *c,
			  const char *old, size_t old_len,
			  const char *new_data, size_t new_len)
{
	long l1, l2;

	memset(dc, 0, sizeof(*dc));
	dc->color = c;
	if (!c || !c->on || !old || !new_data)
		return;
	l1 = trailing_blank(old, old_len);
	l2 = trailing_blank(new_data, new_len);
	if (l2 <= l1)
		return;
	dc->pre_blank = count_lines(old, old_len) - l1 + 1;
	dc->post_blank = count_lines(new_data, new_len) - l2 + 1;
}

/* git's new_blank_line_at_eof, the counters already past this line. */
static int added_blank_at_eof(const aa_diff_colors *dc, const char *s, size_t len)
{
	return dc->pre_blank && dc->post_blank &&
	       dc->pre_blank <= dc->pre_line && dc->post_blank <= dc->post_line &&
	       blank_line(s, len);
}

/* The "@@ -a[,b] +c[,d] @@" starts, as git's find_lno reads them. */
static void hunk_starts(aa_diff_colors *dc, const char *s, size_t len)
{
	const char *minus = memchr(s, '-', len), *plus = memchr(s, '+', len);

	dc->pre_line = minus ? strtol(minus + 1, NULL, 10) : 0;
	dc->post_line = plus ? strtol(plus + 1, NULL, 10) : 0;
}

static void put_change_line(aa_diff_colors *dc, aa_buf *out, char origin,
			    const char *s, size_t len)
{
	const aa_color *c = dc->color;
	size_t n = len - (len && s[len - 1] == '\n');

	dc->pre_line += origin != GIT_DIFF_LINE_ADDITION;
	dc->post_line += origin != GIT_DIFF_LINE_DELETION;
	if (origin == GIT_DIFF_LINE_ADDITION && added_blank_at_eof(dc, s, n)) {
		/* the whole line in whitespace, the sign too; a "\r" after */
		int cr = n && s[n - 1] == '\r';

		aa_buf_puts(out, COL(c, WHITESPACE));
		aa_buf_putc(out, '+');
		put_colored(out, "", s, n - (size_t)cr, COL(c, RESET));
		aa_buf_put(out, s + n - cr, len - n + (size_t)cr);
		return;
	}
	put_sign_line(out, origin, s, len, c);
}

int aa_report_color_line(aa_diff_colors *dc, aa_buf *out, char origin,
			 const char *s, size_t len)
{
	const aa_color *c = dc->color;
	int sign = origin == GIT_DIFF_LINE_CONTEXT ||
		   origin == GIT_DIFF_LINE_ADDITION ||
		   origin == GIT_DIFF_LINE_DELETION;

	if (!c || !c->on) {
		if (sign)
			aa_buf_putc(out, origin);
		aa_buf_put(out, s, len);
	} else if (sign) {
		put_change_line(dc, out, origin, s, len);
	} else if (origin == GIT_DIFF_LINE_HUNK_HDR) {
		hunk_starts(dc, s, len);
		put_hunk_header(out, s, len, c);
	} else if (origin == GIT_DIFF_LINE_FILE_HDR) {
		int nl = len && s[len - 1] == '\n';

		put_colored(out, COL(c, META), s, len - (size_t)nl, COL(c, RESET));
		aa_buf_putc(out, '\n');
	} else if (origin == GIT_DIFF_LINE_CONTEXT_EOFNL ||
		   origin == GIT_DIFF_LINE_ADD_EOFNL ||
		   origin == GIT_DIFF_LINE_DEL_EOFNL) {
		/* "\n\\ No newline at end of file\n": it ends the line before */
		size_t lead = len && s[0] == '\n';

		aa_buf_put(out, s, lead);
		put_sign_line(out, 0, s + lead, len - lead, c);
	} else {
		aa_buf_put(out, s, len); /* binary patch data: plain, as git */
	}
	return aa_buf_oom(out) ? -1 : 0;
}

/*
 * A line of a hunk error's closest-region display (src/edit/hunks.c
 * aligned_diff): "  <line> - text" (only in the file) or
 * "          + text" (only in the hunk), the line number right-aligned
 * in at least 7 columns. Returns the offset of the sign, or 0.
 */
static size_t closest_sign_at(const char *s, size_t len)
{
	size_t i = 2, digits;

	if (len < 12 || s[0] != ' ' || s[1] != ' ')
		return 0;
	while (i < len && s[i] == ' ')
		i++;
	digits = i;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	digits = i - digits;
	if (digits && (i >= len || s[i++] != ' '))
		return 0; /* the blank between the line number and the sign */
	if (i < 10 || i + 1 >= len || s[i + 1] != ' ' ||
	    s[i] != (digits ? '-' : '+'))
		return 0;
	return i;
}

/*
 * One formatted diagnostic, "level: ...": the level keyword in its color
 * (git colors the keyword of a remote's "error:"/"warning:" the same
 * way, color.remote.<slot>), and in the lines after the first the
 * closest-region display in old and new. Notes stay plain.
 */
static void put_diag_colored(aa_buf *out, const char *s, const aa_color *c)
{
	static const struct { const char *word; aa_color_slot slot; } kw[] = {
		{ "error", AA_COLOR_ERROR }, { "warning", AA_COLOR_WARNING },
	};
	size_t i, n;
	const char *nl;

	for (i = 0; i < 2; i++) {
		n = strlen(kw[i].word);
		if (!strncmp(s, kw[i].word, n) && s[n] == ':') {
			put_colored(out, aa_color_get(c, kw[i].slot), s, n,
				    COL(c, RESET));
			s += n;
			break;
		}
	}
	nl = strchr(s, '\n');
	aa_buf_put(out, s, nl ? (size_t)(nl - s) : strlen(s));
	while (nl) {
		const char *line = nl + 1;
		size_t at;

		nl = strchr(line, '\n');
		n = nl ? (size_t)(nl - line) : strlen(line);
		aa_buf_putc(out, '\n');
		at = closest_sign_at(line, n);
		if (!at) {
			aa_buf_put(out, line, n);
			continue;
		}
		aa_buf_put(out, line, at);
		put_colored(out, line[at] == '-' ? COL(c, OLD) : COL(c, NEW),
			    line + at, n - at, COL(c, RESET));
	}
}

/*
 * Prints the diagnostics, at most AA_REPORT_MAX_DIAGS of each level (in
 * input order), then how many of each were left out: 160,000 errors are
 * not 160,000 lines. --json keeps them all.
 */
void aa_report_diags_color(FILE *err, const aa_diags *d, const aa_color *c)
{
	static const char *names[] = { "error", "warning", "note" };
	aa_buf line = AA_BUF_INIT, shown_line = AA_BUF_INIT;
	size_t shown[3] = { 0, 0, 0 }, left[3] = { 0, 0, 0 }, i;

	for (i = 0; i < d->n; i++) {
		unsigned level = (unsigned)d->v[i].level;

		if (level > 2)
			continue;
		if (shown[level] == AA_REPORT_MAX_DIAGS) {
			left[level]++;
			continue;
		}
		shown[level]++;
		aa_buf_clear(&line);
		aa_buf_clear(&shown_line);
		if (aa_diag_format(&d->v[i], &line) < 0)
			continue;
		put_diag_colored(&shown_line, line.ptr, c);
		/* out of memory: the plain text, which is whole */
		fprintf(err, "%s\n", aa_buf_oom(&shown_line) ? line.ptr : shown_line.ptr);
	}
	/* errors that could not be stored (out of memory) still count */
	if (d->nerrors > shown[0] + left[0])
		left[0] = d->nerrors - shown[0];
	for (i = 0; i < 3; i++)
		if (left[i])
			fprintf(err, "%s%s%s: ... and %zu more %s%s (--json lists them all)\n",
				i < 2 ? aa_color_get(c, i ? AA_COLOR_WARNING : AA_COLOR_ERROR) : "",
				names[i], i < 2 ? COL(c, RESET) : "",
				left[i], names[i], left[i] == 1 ? "" : "s");
	aa_buf_free(&line);
	aa_buf_free(&shown_line);
}

void aa_report_diags(FILE *err, const aa_diags *d)
{
	aa_report_diags_color(err, d, NULL);
}

/* Base and new bytes of a change (borrowed; blobs to free). */
typedef struct sides {
	aa_buf old;
	aa_buf new_buf;
	git_blob *new_blob;
	const char *new_data;
	size_t new_len;
} sides;

/* A gitlink's side as git diff shows it: "Subproject commit <id>\n". */
static int subproject_text(const aa_oid *oid, aa_buf *out)
{
	git_oid id;
	char hex[GIT_OID_HEXSZ + 1];

	memcpy(id.id, oid->id, sizeof(oid->id));
	git_oid_tostr(hex, sizeof(hex), &id);
	return aa_buf_printf(out, "Subproject commit %s\n", hex);
}

static int load_sides(aa_session *s, const aa_change *c, sides *sd)
{
	memset(sd, 0, sizeof(*sd));
	if (c->base_exists && c->base_mode == AA_MODE_GITLINK &&
	    subproject_text(&c->base_oid, &sd->old) < 0)
		return -1;
	if (c->base_exists && c->base_mode != AA_MODE_GITLINK &&
	    s->snap.read(s->snap.ctx, &c->base_oid, &sd->old) < 0)
		return -1;
	if (c->exists && c->mode == AA_MODE_GITLINK) {
		/* the new side lives in new_buf; new_data points into it */
		if (subproject_text(&c->oid, &sd->new_buf) < 0)
			return -1;
		sd->new_data = sd->new_buf.ptr;
		sd->new_len = sd->new_buf.len;
		return 0;
	}
	if (!c->base_exists && c->renamed_from) {
		/* A moved file: its old side is the source's base content. */
		if (c->from_exists &&
		    s->snap.read(s->snap.ctx, &c->from_oid, &sd->old) < 0)
			return -1;
	}
	if (!c->exists) {
		sd->new_data = "";
		return 0;
	}
	return aa_change_content(s, c, &sd->new_blob, &sd->new_data, &sd->new_len);
}

static void free_sides(sides *sd)
{
	aa_buf_free(&sd->old);
	aa_buf_free(&sd->new_buf);
	git_blob_free(sd->new_blob);
}

static int cmp_change_path(const void *a, const void *b)
{
	const aa_change *const *x = a, *const *y = b;

	return strcmp((*x)->path, (*y)->path);
}

/*
 * Marks the deletions that are the other half of a reported rename (the
 * report shows them as "R from -> to" only): one flag per change, found
 * through a sorted index so that N renames cost O(N log N). NULL when
 * memory runs out (then every deletion is shown).
 */
static unsigned char *rename_sources(const aa_plan *plan)
{
	const aa_change **by_path;
	unsigned char *flag;
	size_t i;

	if (!plan || !plan->nchanges)
		return NULL;
	by_path = malloc(plan->nchanges * sizeof(*by_path));
	flag = calloc(plan->nchanges, 1);
	if (!by_path || !flag) {
		free(by_path);
		free(flag);
		return NULL;
	}
	for (i = 0; i < plan->nchanges; i++)
		by_path[i] = &plan->changes[i];
	qsort(by_path, plan->nchanges, sizeof(*by_path), cmp_change_path);
	for (i = 0; i < plan->nchanges; i++) {
		const aa_change *o = &plan->changes[i], **src;
		aa_change key;
		const aa_change *kp = &key;

		if (!o->renamed_from || o->base_exists)
			continue;
		key.path = o->renamed_from;
		src = bsearch(&kp, by_path, plan->nchanges, sizeof(*by_path),
			      cmp_change_path);
		if (src && !(*src)->exists)
			flag[*src - plan->changes] = 1;
	}
	free(by_path);
	return flag;
}

/* A deletion that is the other half of a reported rename. */
static int is_rename_source(const unsigned char *sources, const aa_plan *plan,
			    const aa_change *c)
{
	return sources && sources[c - plan->changes];
}

/*
 * The changes a report lists, in order, from plan->changes[*i] on: all
 * but the sources of reported renames. NULL after the last.
 */
static const aa_change *next_listed(const aa_plan *plan,
				    const unsigned char *src, size_t *i)
{
	while (*i < plan->nchanges) {
		const aa_change *c = &plan->changes[(*i)++];

		if (!is_rename_source(src, plan, c))
			return c;
	}
	return NULL;
}

static char status_letter(const aa_change *c)
{
	if (c->conflict)
		return 'U'; /* as git apply --3way and git status */
	if (c->renamed_from && !c->base_exists)
		return c->copied ? 'C' : 'R';
	if (!c->base_exists)
		return 'A';
	if (!c->exists)
		return 'D';
	return 'M';
}

/* Added/removed line counts, or -1 for binary content. */
static int line_stats(aa_session *s, const aa_change *c, size_t *add,
		      size_t *del, int *binary)
{
	git_diff_options o;
	git_patch *patch = NULL;
	sides sd;
	size_t ctx;
	int r;

	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	*add = *del = 0;
	*binary = c->bin_preview; /* a preview's binary patch: its bytes are not here */
	if (c->bin_preview)
		return 0;
	if (load_sides(s, c, &sd) < 0)
		return -1;
	r = git_patch_from_buffers(&patch, sd.old.ptr ? sd.old.ptr : "", sd.old.len,
				   c->path, sd.new_data, sd.new_len, c->path, &o);
	if (!r) {
		const git_diff_delta *dd = git_patch_get_delta(patch);

		*binary = (dd->flags & GIT_DIFF_FLAG_BINARY) != 0;
		r = git_patch_line_stats(&ctx, add, del, patch);
	}
	git_patch_free(patch);
	free_sides(&sd);
	return r;
}

/* ", merged" when an edit of c landed by a merge from an earlier version. */
static const char *merged_mark(const aa_change *c)
{
	size_t i;

	for (i = 0; i < c->nlandings; i++)
		if (c->landings[i].how == AA_HOW_MERGED)
			return ", merged";
	return "";
}

static void print_summary(FILE *out, aa_session *s, const aa_plan *plan,
			  const unsigned char *src)
{
	size_t i = 0, add, del;
	const aa_change *c;
	int binary;

	while ((c = next_listed(plan, src, &i))) {
		char st = status_letter(c);

		if (st == 'R' || st == 'C')
			fprintf(out, "%c %s -> %s", st, aa_qpath(c->renamed_from),
				aa_qpath(c->path));
		else
			fprintf(out, "%c %s", st, aa_qpath(c->path));
		if (line_stats(s, c, &add, &del, &binary) < 0 || binary)
			fprintf(out, " (binary)\n");
		else if (c->conflict)
			fprintf(out, " (+%zu -%zu, %zu conflict%s)\n", add, del,
				c->nregions, c->nregions == 1 ? "" : "s");
		else
			fprintf(out, " (+%zu -%zu%s%s)\n", add, del, merged_mark(c),
				/* outside the sparse checkout (land/sparse.h) */
				aa_sparse_change(s, plan, c) ? ", index only" : "");
	}
}

/*
 * The reports below follow git apply's (apply.c stat_patch_list,
 * numstat_patch_list, summary_patch_list): one line per file in the
 * order of the change set, a moved file under its new name.
 */

/* The name git apply shows for a change: the new one, else the old. */
static const char *shown_name(const aa_change *c)
{
	return aa_qpath(c->path);
}

/*
 * Line counts as git apply counts a patch's: a file moved unchanged has
 * none, binary or not (its patch holds no data); else line_stats'.
 */
static int patch_stats(aa_session *s, const aa_change *c, size_t *add,
		       size_t *del, int *binary)
{
	if (!c->bin_preview && c->renamed_from && !c->base_exists && c->from_exists &&
	    c->has_oid && !memcmp(&c->from_oid, &c->oid, sizeof(c->oid))) {
		*add = *del = 0;
		*binary = 0;
		return 0;
	}
	return line_stats(s, c, add, del, binary);
}

/* The longest name git apply's --stat lines up (old names too). */
static size_t stat_name_width(const aa_plan *plan, const unsigned char *src)
{
	size_t i = 0, width = 0, n;
	const aa_change *c;

	while ((c = next_listed(plan, src, &i))) {
		n = strlen(aa_qpath(c->path));
		width = n > width ? n : width;
		if (c->renamed_from && !c->base_exists) {
			n = strlen(aa_qpath(c->renamed_from));
			width = n > width ? n : width;
		}
	}
	return width;
}

/* n times ch, in set (the diffstat graph: nothing at all for 0). */
static void print_graph(FILE *out, char ch, size_t n, const char *set,
			const char *reset)
{
	size_t k;

	if (!n)
		return;
	fputs(set, out);
	for (k = 0; k < n; k++)
		fputc(ch, out);
	fputs(reset, out);
}

/*
 * One --stat line as git apply's show_stats: the name cut to 50
 * columns ("..." and the rest from a '/'), the count in 5 columns, the
 * graph scaled so that name and graph fit in 70.
 */
static void print_stat_line(FILE *out, const char *qname, int width,
			    size_t add, size_t del, int binary,
			    size_t most, const aa_color *color)
{
	size_t len = strlen(qname), max, plus = add, minus = del;

	if (len > (size_t)width) {
		const char *cut = strchr(qname + len + 3 - (size_t)width, '/');

		if (!cut)
			cut = qname + len + 3 - (size_t)width;
		fprintf(out, " ...%-*s |", width - 3, cut);
	} else {
		fprintf(out, " %-*s |", width, qname);
	}
	if (binary) {
		fputs("  Bin\n", out);
		return;
	}
	max = (size_t)width + most > 70 ? 70 - (size_t)width : most;
	if (most) {
		size_t total = ((add + del) * max + most / 2) / most;

		plus = (add * max + most / 2) / most;
		minus = total - plus;
	}
	fprintf(out, "%5zu ", add + del);
	print_graph(out, '+', plus, COL(color, NEW), COL(color, RESET));
	print_graph(out, '-', minus, COL(color, OLD), COL(color, RESET));
	fputc('\n', out);
}

/* git's print_stat_summary: a count of 0 is left out unless both are. */
static void print_stat_total(FILE *out, size_t files, size_t add, size_t del)
{
	if (!files) {
		fputs(" 0 files changed\n", out);
		return;
	}
	fprintf(out, " %zu file%s changed", files, files == 1 ? "" : "s");
	if (add || !del)
		fprintf(out, ", %zu insertion%s(+)", add, add == 1 ? "" : "s");
	if (del || !add)
		fprintf(out, ", %zu deletion%s(-)", del, del == 1 ? "" : "s");
	fputc('\n', out);
}

static void print_stat(FILE *out, aa_session *s, const aa_plan *plan,
		       const unsigned char *src, const aa_color *color)
{
	size_t i = 0, add, del, tadd = 0, tdel = 0, most = 0, files = 0;
	size_t width = stat_name_width(plan, src);
	const aa_change *c;
	int binary;

	while ((c = next_listed(plan, src, &i)))
		if (!patch_stats(s, c, &add, &del, &binary) && !binary &&
		    add + del > most)
			most = add + del;
	if (width > 50)
		width = 50;
	i = 0;
	while ((c = next_listed(plan, src, &i))) {
		files++;
		if (patch_stats(s, c, &add, &del, &binary) < 0)
			binary = 1;
		if (binary)
			add = del = 0;
		tadd += add;
		tdel += del;
		print_stat_line(out, shown_name(c), (int)width, add, del,
				binary, most, color);
	}
	print_stat_total(out, files, tadd, tdel);
}

/* --numstat: "added\tremoved\tpath", binary "-\t-\tpath". */
static void print_numstat(FILE *out, aa_session *s, const aa_plan *plan,
			  const unsigned char *src)
{
	size_t i = 0, add, del;
	const aa_change *c;
	int binary;

	while ((c = next_listed(plan, src, &i))) {
		if (patch_stats(s, c, &add, &del, &binary) < 0 || binary)
			fputs("-\t-\t", out);
		else
			fprintf(out, "%zu\t%zu\t", add, del);
		fprintf(out, "%s\n", shown_name(c));
	}
}

/* The base mode of a moved file: its source's entry in the plan. */
/*
 * The mode a moved file had: its source's change (a rename), else the
 * base entry (a copy leaves the source untouched), else its own mode.
 */
static uint32_t source_mode(aa_session *s, const aa_plan *plan,
			    const aa_change *c)
{
	uint32_t mode = 0;
	aa_oid oid;
	size_t i;

	for (i = 0; i < plan->nchanges; i++)
		if (plan->changes[i].base_exists &&
		    !strcmp(plan->changes[i].path, c->renamed_from))
			return plan->changes[i].base_mode;
	if (s && s->snap.lookup &&
	    s->snap.lookup(s->snap.ctx, c->renamed_from, &mode, &oid) == 0 && mode)
		return mode;
	return c->mode;
}

/*
 * How much of a moved file stayed, as git's similarity index: 100 when
 * the content did not change, else the share of the old lines kept
 * (git estimates it from byte chunks; a line count is close).
 */
static unsigned rename_score(aa_session *s, const aa_change *c)
{
	size_t add, del, old_lines, new_lines, big;
	int binary;
	sides sd;

	if (c->has_similarity) /* the patch's own score, as git apply prints it */
		return c->similarity;
	if (c->from_exists && !memcmp(&c->from_oid, &c->oid, sizeof(c->oid)) &&
	    c->has_oid)
		return 100;
	if (line_stats(s, c, &add, &del, &binary) < 0 || load_sides(s, c, &sd) < 0)
		return 0;
	old_lines = (size_t)count_lines(sd.old.ptr ? sd.old.ptr : "", sd.old.len);
	new_lines = (size_t)count_lines(sd.new_data, sd.new_len);
	free_sides(&sd);
	if (binary)
		return add + del ? 0 : 100;
	big = old_lines > new_lines ? old_lines : new_lines;
	if (!big)
		return 100;
	return (unsigned)((old_lines - (del < old_lines ? del : old_lines)) * 100 / big);
}

/* " rename a => b (n%)", the common directories once: "d/{a => b}". */
static void print_rename(FILE *out, aa_session *s, const aa_change *c)
{
	const char *from = c->renamed_from, *to = c->path, *sf, *st;

	while ((sf = strchr(from, '/')) && (st = strchr(to, '/')) &&
	       sf - from == st - to && !memcmp(from, to, (size_t)(st - to))) {
		from = sf + 1;
		to = st + 1;
	}
	if (from != c->renamed_from)
		fprintf(out, " %s %.*s{%s => %s} (%u%%)\n",
			c->copied ? "copy" : "rename",
			(int)(from - c->renamed_from), c->renamed_from, from,
			to, rename_score(s, c));
	else
		fprintf(out, " %s %s => %s (%u%%)\n",
			c->copied ? "copy" : "rename", c->renamed_from, c->path,
			rename_score(s, c));
}

/* --summary: creations, deletions, renames and mode changes. */
static void print_git_summary(FILE *out, aa_session *s, const aa_plan *plan,
			      const unsigned char *src)
{
	size_t i = 0;
	const aa_change *c;

	while ((c = next_listed(plan, src, &i))) {
		char st = status_letter(c);
		uint32_t from;

		if (st == 'R' || st == 'C') {
			print_rename(out, s, c);
			from = source_mode(s, plan, c);
			if (from != c->mode)
				fprintf(out, " mode change %06o => %06o %s\n",
					from, c->mode, aa_qname(c->path));
		} else if (!c->base_exists) {
			fprintf(out, " create mode %06o %s\n", c->mode,
				aa_qname(c->path));
		} else if (!c->exists) {
			fprintf(out, " delete mode %06o %s\n", c->base_mode,
				aa_qname(c->path));
		} else if (c->base_mode != c->mode) {
			fprintf(out, " mode change %06o => %06o %s\n",
				c->base_mode, c->mode, aa_qname(c->path));
		}
	}
}

/* Where git_patch_print's lines go: the report's stream, in its colors. */
typedef struct line_sink {
	FILE *out;
	const aa_color *color;
	aa_diff_colors dc;    /* the file being printed */
	aa_buf line;
} line_sink;

static int print_line_cb(const git_diff_delta *delta, const git_diff_hunk *hunk,
			 const git_diff_line *line, void *payload)
{
	line_sink *k = payload;

	(void)delta;
	(void)hunk;
	if (line->origin == GIT_DIFF_LINE_FILE_HDR)
		return 0; /* we print our own, with modes */
	aa_buf_clear(&k->line);
	if (aa_report_color_line(&k->dc, &k->line, line->origin, line->content,
				 line->content_len) < 0)
		return -1;
	fwrite(k->line.ptr, 1, k->line.len, k->out);
	return 0;
}

/* One line of a diff header, "<meta>text<reset>\n". */
static void print_meta(FILE *out, const aa_color *c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void print_meta(FILE *out, const aa_color *c, const char *fmt, ...)
{
	va_list ap;

	fputs(COL(c, META), out);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fprintf(out, "%s\n", COL(c, RESET));
}

/*
 * The "diff --git" line and git's extended headers (not ---/+++), in
 * git's order: a moved file's mode change comes before its names.
 */
static void print_git_header(FILE *out, aa_session *s, const aa_plan *plan,
			     const aa_change *c, const aa_color *col)
{
	const char *from = c->renamed_from && !c->base_exists ? c->renamed_from : c->path;

	/* names quoted as git quotes them (git apply unquotes) */
	print_meta(out, col, "diff --git %s %s", aa_qpathp("a/", from),
		   aa_qpathp("b/", c->path));
	if (!c->base_exists && c->renamed_from) {
		const char *verb = c->copied ? "copy" : "rename";
		uint32_t old_mode = source_mode(s, plan, c);

		if (c->exists && old_mode != c->mode) {
			print_meta(out, col, "old mode %06o", old_mode);
			print_meta(out, col, "new mode %06o", c->mode);
		}
		print_meta(out, col, "%s from %s", verb, aa_qpath(c->renamed_from));
		print_meta(out, col, "%s to %s", verb, aa_qpath(c->path));
	}
	else if (!c->base_exists)
		print_meta(out, col, "new file mode %06o", c->mode);
	else if (!c->exists)
		print_meta(out, col, "deleted file mode %06o", c->base_mode);
	else if (c->mode != c->base_mode) {
		print_meta(out, col, "old mode %06o", c->base_mode);
		print_meta(out, col, "new mode %06o", c->mode);
	}
}

static void print_names(FILE *out, const aa_change *c, const aa_color *col)
{
	const char *from = c->renamed_from && !c->base_exists ? c->renamed_from : c->path;

	print_meta(out, col, "--- %s",
		   c->base_exists || c->renamed_from ? aa_qpathp("a/", from) : "/dev/null");
	print_meta(out, col, "+++ %s", c->exists ? aa_qpathp("b/", c->path) : "/dev/null");
}

/*
 * A preview's binary patch, whose bytes are not here: what git diff
 * prints without --binary (git apply needs the real patch to land it).
 */
static void print_binary_differ(FILE *out, const aa_change *c)
{
	const char *from = c->renamed_from && !c->base_exists ? c->renamed_from : c->path;

	fprintf(out, "Binary files %s and %s differ\n",
		c->base_exists || c->renamed_from ? aa_qpathp("a/", from) : "/dev/null",
		c->exists ? aa_qpathp("b/", c->path) : "/dev/null");
}

/*
 * A binary change as git prints it, so that git apply can take it: the
 * full object names on the index line, then libgit2's "GIT binary patch".
 */
static void print_binary(line_sink *k, const aa_change *c, const sides *sd,
			 git_patch *patch)
{
	char from[GIT_OID_HEXSZ + 1], to[GIT_OID_HEXSZ + 1];
	git_oid a, b;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	if (sd->old.len || c->base_exists || c->renamed_from)
		git_odb_hash(&a, sd->old.ptr ? sd->old.ptr : "", sd->old.len,
			     GIT_OBJECT_BLOB);
	if (c->exists)
		git_odb_hash(&b, sd->new_data, sd->new_len, GIT_OBJECT_BLOB);
	git_oid_tostr(from, sizeof(from), &a);
	git_oid_tostr(to, sizeof(to), &b);
	print_meta(k->out, k->color, "index %s..%s", from, to);
	git_patch_print(patch, print_line_cb, k);
}

static void print_diff(FILE *out, aa_session *s, const aa_plan *plan,
		       const unsigned char *src, const aa_color *color)
{
	line_sink k;
	git_diff_options o;
	size_t i;

	memset(&k, 0, sizeof(k));
	k.out = out;
	k.color = color;
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.flags |= GIT_DIFF_SHOW_BINARY;
	for (i = 0; i < plan->nchanges; i++) {
		const aa_change *c = &plan->changes[i];
		git_patch *patch = NULL;
		sides sd;

		if (is_rename_source(src, plan, c))
			continue;
		if (c->bin_preview) {
			print_git_header(out, s, plan, c, color);
			print_binary_differ(out, c);
			continue;
		}
		if (load_sides(s, c, &sd) < 0)
			continue;
		print_git_header(out, s, plan, c, color);
		aa_report_color_file(&k.dc, color, sd.old.ptr ? sd.old.ptr : "",
				     sd.old.len, sd.new_data, sd.new_len);
		if (git_patch_from_buffers(&patch, sd.old.ptr ? sd.old.ptr : "",
					   sd.old.len, c->path, sd.new_data,
					   sd.new_len, c->path, &o) < 0) {
			free_sides(&sd);
			continue;
		}
		if (git_patch_get_delta(patch)->flags & GIT_DIFF_FLAG_BINARY) {
			/* a binary change has no hunks: a moved file's bytes decide */
			if (!c->renamed_from || c->base_exists ||
			    sd.old.len != sd.new_len ||
			    (sd.old.len && memcmp(sd.old.ptr, sd.new_data, sd.old.len)))
				print_binary(&k, c, &sd, patch);
		} else {
			/* as git: no "---" / "+++" without a hunk (an empty file) */
			if (git_patch_num_hunks(patch))
				print_names(out, c, color);
			git_patch_print(patch, print_line_cb, &k);
		}
		git_patch_free(patch);
		free_sides(&sd);
	}
	aa_buf_free(&k.line);
}

/* ---- the closing line: what was written, what next ---- */

/*
 * One run's closing line (Documentation/output.md, "What happened and
 * what next"): `written` for --json, `what` the words of the line, then
 * the steps, each a verb and a command; steps of the same verb in a row
 * are alternatives ("review: A (or B)").
 */
#define MAX_STEPS 6

typedef struct closing {
	const char *written;  /* "index+worktree", "index", "branch", "nothing" */
	aa_buf what;          /* empty: no line */
	size_t n;
	const char *verb[MAX_STEPS];
	aa_buf cmd[MAX_STEPS];
} closing;

static void closing_step(closing *k, const char *verb, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void closing_step(closing *k, const char *verb, const char *fmt, ...)
{
	va_list ap;

	if (k->n == MAX_STEPS)
		return;
	k->verb[k->n] = verb;
	k->cmd[k->n] = (aa_buf)AA_BUF_INIT;
	va_start(ap, fmt);
	aa_buf_vprintf(&k->cmd[k->n++], fmt, ap);
	va_end(ap);
}

static void closing_free(closing *k)
{
	size_t i;

	aa_buf_free(&k->what);
	for (i = 0; i < k->n; i++)
		aa_buf_free(&k->cmd[i]);
}

/* The files a report lists (a rename is one), and those in conflict. */
static size_t listed_files(const aa_plan *plan, size_t *conflicted)
{
	unsigned char *src = rename_sources(plan);
	size_t i = 0, n = 0;
	const aa_change *c;

	*conflicted = 0;
	while ((c = next_listed(plan, src, &i))) {
		n++;
		*conflicted += c->conflict != 0;
	}
	free(src);
	return n;
}

static const char *files_word(size_t n)
{
	return n == 1 ? "file" : "files";
}

/* A staged landing (the default, --cached), with or without conflicts. */
static void closing_staged(closing *k, size_t files, size_t conflicted,
			   int worktree)
{
	k->written = worktree ? "index+worktree" : "index";
	aa_buf_printf(&k->what, "staged %zu %s", files, files_word(files));
	if (worktree)
		aa_buf_printf(&k->what, " and wrote %s to the work tree",
			      files == 1 ? "it" : "them");
	else
		aa_buf_puts(&k->what, " in the index only (the work tree is untouched)");
	if (conflicted) {
		aa_buf_printf(&k->what, ", %zu with conflict markers (index "
			      "stages 1-3)", conflicted);
		closing_step(k, "resolve", "edit the markers, then git add <path>");
		closing_step(k, "see", "git status");
		return;
	}
	closing_step(k, "review", "git diff --cached");
	closing_step(k, "review", "git ai-apply --review");
	closing_step(k, "commit", "git commit");
	closing_step(k, "undo", "git ai-apply --undo");
}

/* What the run wrote and the next step; k->what empty: no line. */
static void closing_of(closing *k, aa_session *s, const aa_plan *plan,
		       aa_outcome outcome, const aa_report_opts *o)
{
	const char *mode = o->mode ? o->mode : "index";
	size_t conflicted = 0, files = plan ? listed_files(plan, &conflicted) : 0;

	memset(k, 0, sizeof(*k));
	k->written = "nothing";
	if (outcome == AA_OUT_CHECKED && !strcmp(mode, "check"))
		aa_buf_printf(&k->what, "would change %zu %s; nothing written",
			      files, files_word(files));
	else if (outcome == AA_OUT_CHECKED)
		return; /* -p, nothing chosen: its "No change selected" said so */
	else if (outcome != AA_OUT_APPLIED && outcome != AA_OUT_CONFLICTED)
		return;
	else if (!strcmp(mode, "branch") && s && o->branch) {
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, 8, &s->commit);
		k->written = "branch";
		aa_buf_printf(&k->what, "committed on branch %s (%s)", o->branch, hex);
		/* a bare repository merges nothing: show the commit instead */
		if (s->repo && git_repository_is_bare(s->repo))
			closing_step(k, "review", "git show %s", o->branch);
		else
			closing_step(k, "merge", "git merge %s", o->branch);
		closing_step(k, "drop", "git branch -D %s", o->branch);
	} else if (!strcmp(mode, "index") || !strcmp(mode, "cached")) {
		closing_staged(k, files, conflicted, !strcmp(mode, "index"));
	}
}

/* "what; verb: cmd (or cmd), verb: cmd" on one line. */
static void print_closing(FILE *err, const closing *k, int no_advice)
{
	size_t i;

	if (!k->what.len)
		return;
	fputs(k->what.ptr, err);
	for (i = 0; !no_advice && i < k->n; i++) {
		const char *cmd = k->cmd[i].ptr ? k->cmd[i].ptr : "";

		if (i && k->verb[i] == k->verb[i - 1])
			fprintf(err, " (or %s)", cmd);
		else
			fprintf(err, "%s%s: %s", i ? ", " : "; ", k->verb[i], cmd);
	}
	fputc('\n', err);
}

/* "next": [{"do": verb, "run": command}, ...] */
static cJSON *json_next(const closing *k)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;

	for (i = 0; arr && i < k->n; i++) {
		cJSON *o = cJSON_CreateObject();

		if (!o)
			break;
		cJSON_AddStringToObject(o, "do", k->verb[i]);
		cJSON_AddStringToObject(o, "run", k->cmd[i].ptr ? k->cmd[i].ptr : "");
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

/* --each: the set's line from the branches that landed. */
static void closing_each(closing *k, const char *const *branches, size_t n)
{
	memset(k, 0, sizeof(*k));
	k->written = n ? "branches" : "nothing";
	if (!n)
		return;
	if (n == 1)
		aa_buf_printf(&k->what, "committed 1 suggestion on branch %s",
			      branches[0]);
	else if (n == 2)
		aa_buf_printf(&k->what, "committed 2 suggestions on branches "
			      "%s and %s", branches[0], branches[1]);
	else
		aa_buf_printf(&k->what, "committed %zu suggestions on branches "
			      "%s ... %s", n, branches[0], branches[n - 1]);
	closing_step(k, "compare", "git ai-apply --list");
	closing_step(k, "merge one", "git merge <branch>");
	closing_step(k, "drop one", "git branch -D <branch>");
}

void aa_report_each_next(FILE *err, const char *const *branches, size_t n,
			 int no_advice)
{
	closing k;

	closing_each(&k, branches, n);
	print_closing(err, &k, no_advice);
	closing_free(&k);
}

int aa_report_each_next_json(FILE *out, const char *const *branches, size_t n)
{
	closing k;
	cJSON *next;
	char *text;

	closing_each(&k, branches, n);
	next = json_next(&k);
	text = next ? cJSON_Print(next) : NULL;
	if (text)
		fprintf(out, "\"written\": \"%s\",\n\"next\": %s", k.written, text);
	free(text);
	cJSON_Delete(next);
	closing_free(&k);
	return text ? 0 : -1;
}

/* ---- --json ---- */

static const char *outcome_name(aa_outcome o)
{
	switch (o) {
	case AA_OUT_APPLIED: return "applied";
	case AA_OUT_CHECKED: return "checked";
	case AA_OUT_ALREADY_APPLIED: return "already-applied";
	case AA_OUT_REJECTED: return "rejected";
	case AA_OUT_FATAL: return "fatal";
	case AA_OUT_CONFLICTED: return "conflicted";
	}
	return "?";
}

static cJSON *json_landings(const aa_change *c)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;

	for (i = 0; arr && i < c->nlandings; i++) {
		const aa_landing *l = &c->landings[i];
		cJSON *o = cJSON_CreateObject();

		if (!o)
			break;
		cJSON_AddStringToObject(o, "input", l->pos.input ? l->pos.input : "");
		cJSON_AddNumberToObject(o, "input_line", (double)l->pos.line);
		cJSON_AddStringToObject(o, "how", aa_how_name(l->how));
		cJSON_AddNumberToObject(o, "line", (double)l->line);
		cJSON_AddNumberToObject(o, "offset", (double)l->offset);
		/* how the added lines were re-indented to the file's: "none", ... */
		cJSON_AddStringToObject(o, "reindent", aa_reindent_name(l->reindent));
		cJSON_AddNumberToObject(o, "reindent_by", (double)l->reindent_by);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

/* --3way: where the markers are in the written content. */
static cJSON *json_conflicts(const aa_change *c)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;

	for (i = 0; arr && i < c->nregions; i++) {
		cJSON *o = cJSON_CreateObject();

		if (!o)
			break;
		cJSON_AddNumberToObject(o, "start", (double)c->regions[i].start);
		cJSON_AddNumberToObject(o, "end", (double)c->regions[i].end);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

static cJSON *json_files(aa_session *s, const aa_plan *plan)
{
	unsigned char *src = rename_sources(plan);
	cJSON *arr = cJSON_CreateArray();
	size_t i, add, del;
	int binary;

	for (i = 0; arr && plan && i < plan->nchanges; i++) {
		const aa_change *c = &plan->changes[i];
		cJSON *o;
		char st[2] = { status_letter(c), 0 };

		if (is_rename_source(src, plan, c))
			continue;
		if (!(o = cJSON_CreateObject()))
			break;
		cJSON_AddStringToObject(o, "path", c->path);
		cJSON_AddStringToObject(o, "status", st);
		if (c->renamed_from && (st[0] == 'R' || st[0] == 'C'))
			cJSON_AddStringToObject(o, "from", c->renamed_from);
		if (c->exists) {
			char mode[8];

			snprintf(mode, sizeof(mode), "%06o", c->mode);
			cJSON_AddStringToObject(o, "mode", mode);
		}
		if (line_stats(s, c, &add, &del, &binary) == 0) {
			cJSON_AddBoolToObject(o, "binary", binary);
			cJSON_AddNumberToObject(o, "added", (double)add);
			cJSON_AddNumberToObject(o, "removed", (double)del);
		}
		cJSON_AddItemToObject(o, "edits", json_landings(c));
		/* outside the sparse checkout: the work tree is not written */
		if (aa_sparse_change(s, plan, c))
			cJSON_AddBoolToObject(o, "skip_worktree", 1);
		if (c->conflict) {
			cJSON_AddBoolToObject(o, "conflicted", 1);
			cJSON_AddItemToObject(o, "conflicts", json_conflicts(c));
		}
		cJSON_AddItemToArray(arr, o);
	}
	free(src);
	return arr;
}

static cJSON *json_diags(const aa_diags *d, aa_diag_level level)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;

	for (i = 0; arr && d && i < d->n; i++) {
		const aa_diag *dg = &d->v[i];
		cJSON *o;

		if (dg->level != level || !(o = cJSON_CreateObject()))
			continue;
		if (dg->path)
			cJSON_AddStringToObject(o, "path", dg->path);
		if (dg->input)
			cJSON_AddStringToObject(o, "input", dg->input);
		if (dg->line)
			cJSON_AddNumberToObject(o, "line", (double)dg->line);
		cJSON_AddStringToObject(o, "message", dg->msg ? dg->msg : "");
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

/* Prints the document and frees it: 0, or -1 when out of memory. */
static int print_json_doc(FILE *out, cJSON *root)
{
	char *text = cJSON_Print(root);

	cJSON_Delete(root);
	if (!text)
		return -1;
	fprintf(out, "%s\n", text);
	free(text);
	return 0;
}

static int print_json(FILE *out, aa_session *s, const aa_plan *plan,
		      const aa_diags *d, aa_outcome outcome,
		      const aa_report_opts *o)
{
	cJSON *root = cJSON_CreateObject();
	closing k;

	if (!root)
		return -1;
	cJSON_AddStringToObject(root, "status", outcome_name(outcome));
	cJSON_AddStringToObject(root, "mode", o->mode ? o->mode : "index");
	if (o->branch)
		cJSON_AddStringToObject(root, "branch", o->branch);
	if (s && o->branch && outcome == AA_OUT_APPLIED) {
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &s->commit);
		cJSON_AddStringToObject(root, "commit", hex);
	}
	cJSON_AddItemToObject(root, "files", s && plan ? json_files(s, plan)
						       : cJSON_CreateArray());
	closing_of(&k, s, plan, outcome, o);
	cJSON_AddStringToObject(root, "written", k.written);
	cJSON_AddItemToObject(root, "next", json_next(&k));
	closing_free(&k);
	cJSON_AddItemToObject(root, "warnings", json_diags(d, AA_DIAG_WARNING));
	cJSON_AddItemToObject(root, "notes", json_diags(d, AA_DIAG_NOTE));
	cJSON_AddItemToObject(root, "errors", json_diags(d, AA_DIAG_ERROR));
	return print_json_doc(out, root);
}

/*
 * The closing line on o->next, after the report on `out` (flushed
 * first: the two streams are often one terminal). A preview (a report
 * asked for under --check) prints git apply's output and nothing more.
 */
static void print_next(FILE *out, aa_session *s, const aa_plan *plan,
		       aa_outcome outcome, const aa_report_opts *o)
{
	closing k;

	if (!o->next || o->quiet ||
	    (o->show && o->mode && !strcmp(o->mode, "check")))
		return;
	closing_of(&k, s, plan, outcome, o);
	fflush(out);
	print_closing(o->next, &k, o->no_advice);
	closing_free(&k);
}

int aa_report(FILE *out, aa_session *s, const aa_plan *plan,
	      const aa_diags *d, aa_outcome outcome, const aa_report_opts *o)
{
	unsigned char *src;

	if (o->kind == AA_REPORT_JSON)
		return print_json(out, s, plan, d, outcome, o);
	if (!s || !plan || o->quiet)
		return 0;
	if (outcome == AA_OUT_ALREADY_APPLIED) {
		fprintf(out, "already applied: nothing to change\n");
		return 0;
	}
	if (outcome != AA_OUT_APPLIED && outcome != AA_OUT_CHECKED &&
	    outcome != AA_OUT_CONFLICTED)
		return 0;
	src = rename_sources(plan);
	if (!o->show)
		print_summary(out, s, plan, src);
	if (o->show & AA_SHOW_STAT)
		print_stat(out, s, plan, src, o->color);
	if (o->show & AA_SHOW_NUMSTAT)
		print_numstat(out, s, plan, src);
	if (o->show & AA_SHOW_SUMMARY)
		print_git_summary(out, s, plan, src);
	/* as git diff --stat -p: a blank line between the stat and the patch */
	if ((o->show & AA_SHOW_DIFF) && (o->show & ~AA_SHOW_DIFF))
		fputc('\n', out);
	if (o->show & AA_SHOW_DIFF)
		print_diff(out, s, plan, src, o->color);
	free(src);
	if (o->branch && outcome == AA_OUT_APPLIED) {
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, 8, &s->commit);
		fprintf(out, "branch %s: %s\n", o->branch, hex);
	}
	print_next(out, s, plan, outcome, o);
	return 0;
}

/* ---- --list ---- */

/* The --list word for a suggestion's merge state (aiapply/list.h). */
const char *aa_merge_state_name(aa_merge_state m)
{
	switch (m) {
	case AA_MERGE_CLEAN: return "merges";
	case AA_MERGE_CONFLICTS: return "conflicts";
	case AA_MERGE_MERGED: return "merged";
	case AA_MERGE_APPLIED: return "applied";
	default: return "no-head";
	}
}

/* --list's columns: branch, merge state, answer, base, size, tolerant. */
#define LIST_COLS 6

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/* One row's cells (each an aa_buf; an empty last one is left out). */
static void suggestion_cells(const aa_suggestion *sg, aa_buf cell[LIST_COLS])
{
	char base[GIT_OID_HEXSZ + 1] = "(root)";

	if (sg->has_base)
		git_oid_tostr(base, 8, &sg->base);
	aa_buf_puts(&cell[0], aa_qpath(sg->branch));
	aa_buf_puts(&cell[1], aa_merge_state_name(sg->merge));
	/* the trailer holds names quoted already; a control byte is not */
	aa_buf_puts(&cell[2], has_control(sg->answers) ? aa_qpath(sg->answers)
						      : sg->answers);
	aa_buf_printf(&cell[3], "base %s", base);
	if (sg->has_base && sg->merge != AA_MERGE_NO_HEAD) {
		if (sg->base_in_head)
			aa_buf_printf(&cell[3], " (HEAD +%zu)", sg->head_ahead);
		else
			aa_buf_puts(&cell[3], " (not in HEAD's history)");
	}
	aa_buf_printf(&cell[4], "%zu file%s +%zu -%zu", sg->files,
		      sg->files == 1 ? "" : "s", sg->added, sg->removed);
	if (sg->tolerant >= 0)
		aa_buf_printf(&cell[5], "tolerant %ld", sg->tolerant);
}

/*
 * One line per suggestion, columns two spaces apart, each as wide as
 * its widest cell over all rows (names are quoted as paths, so every
 * cell is ASCII); no trailing blanks.
 */
static void print_suggestion_rows(FILE *out, const aa_suggestion *v, size_t n)
{
	aa_buf (*cells)[LIST_COLS] = calloc(n ? n : 1, sizeof(*cells));
	size_t width[LIST_COLS] = { 0 }, i, k, last;

	if (!cells)
		return;
	for (i = 0; i < n; i++) {
		suggestion_cells(&v[i], cells[i]);
		for (k = 0; k < LIST_COLS; k++)
			if (cells[i][k].len > width[k])
				width[k] = cells[i][k].len;
	}
	for (i = 0; i < n; i++) {
		for (last = LIST_COLS; last > 1 && !cells[i][last - 1].len; last--)
			;
		for (k = 0; k < last; k++)
			fprintf(out, "%s%-*s", k ? "  " : "",
				k + 1 < last ? (int)width[k] : 0,
				cells[i][k].ptr ? cells[i][k].ptr : "");
		fputc('\n', out);
		for (k = 0; k < LIST_COLS; k++)
			aa_buf_free(&cells[i][k]);
	}
	free(cells);
}

static cJSON *json_suggestion(const aa_suggestion *sg)
{
	cJSON *o = cJSON_CreateObject();
	char hex[GIT_OID_HEXSZ + 1];

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "branch", sg->branch);
	cJSON_AddStringToObject(o, "answer", sg->answers);
	git_oid_tostr(hex, sizeof(hex), &sg->tip);
	cJSON_AddStringToObject(o, "commit", hex);
	if (sg->has_base) {
		git_oid_tostr(hex, sizeof(hex), &sg->base);
		cJSON_AddStringToObject(o, "base", hex);
	} else {
		cJSON_AddNullToObject(o, "base");
	}
	if (sg->has_base && sg->merge != AA_MERGE_NO_HEAD) {
		cJSON_AddBoolToObject(o, "base_in_head", sg->base_in_head);
		cJSON_AddNumberToObject(o, "head_ahead", (double)sg->head_ahead);
	}
	cJSON_AddNumberToObject(o, "files", (double)sg->files);
	cJSON_AddNumberToObject(o, "added", (double)sg->added);
	cJSON_AddNumberToObject(o, "removed", (double)sg->removed);
	if (sg->tolerant >= 0)
		cJSON_AddNumberToObject(o, "tolerant_placements", (double)sg->tolerant);
	cJSON_AddStringToObject(o, "merge", aa_merge_state_name(sg->merge));
	return o;
}

static int print_suggestions_json(FILE *out, const aa_suggestion *v, size_t n,
				  const aa_diags *d)
{
	cJSON *root = cJSON_CreateObject(), *arr = cJSON_CreateArray();
	size_t i;

	if (!root || !arr) {
		cJSON_Delete(root);
		cJSON_Delete(arr);
		return -1;
	}
	cJSON_AddStringToObject(root, "status", d->nerrors ? "fatal" : "listed");
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(arr, json_suggestion(&v[i]));
	cJSON_AddItemToObject(root, "suggestions", arr);
	cJSON_AddItemToObject(root, "errors", json_diags(d, AA_DIAG_ERROR));
	return print_json_doc(out, root);
}

int aa_report_suggestions(FILE *out, const aa_suggestion *v, size_t n,
			  const aa_diags *d, int json)
{
	if (json)
		return print_suggestions_json(out, v, n, d);
	print_suggestion_rows(out, v, n);
	return 0;
}
