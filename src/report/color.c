/*
 * Color as git does it (git's color.c and config colorbool): a value is
 * words -- at most two colors (foreground, then background) and any
 * attributes -- turned into one SGR escape sequence.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "aiapply/color.h"

static const char *const slot_defaults[AA_COLOR_NSLOTS] = {
	[AA_COLOR_RESET] = "\033[m",
	[AA_COLOR_META] = "\033[1m",
	[AA_COLOR_FRAG] = "\033[36m",
	[AA_COLOR_OLD] = "\033[31m",
	[AA_COLOR_NEW] = "\033[32m",
	[AA_COLOR_CONTEXT] = "",
	[AA_COLOR_PROMPT] = "\033[1;34m",
	[AA_COLOR_HEADER] = "\033[1m",
	[AA_COLOR_HELP] = "\033[1;31m",
	[AA_COLOR_ERROR] = "\033[1;31m",
	[AA_COLOR_WARNING] = "\033[1;33m",
	[AA_COLOR_TOLERANT] = "\033[33m",
	[AA_COLOR_FUNC] = "",
	[AA_COLOR_WHITESPACE] = "\033[41m",
};

/* The configuration key of each slot (RESET has none). */
static const char *const slot_keys[AA_COLOR_NSLOTS] = {
	[AA_COLOR_META] = "color.diff.meta",
	[AA_COLOR_FRAG] = "color.diff.frag",
	[AA_COLOR_OLD] = "color.diff.old",
	[AA_COLOR_NEW] = "color.diff.new",
	[AA_COLOR_CONTEXT] = "color.diff.context",
	[AA_COLOR_PROMPT] = "color.interactive.prompt",
	[AA_COLOR_HEADER] = "color.interactive.header",
	[AA_COLOR_HELP] = "color.interactive.help",
	[AA_COLOR_ERROR] = "color.ai-apply.error",
	[AA_COLOR_WARNING] = "color.ai-apply.warning",
	[AA_COLOR_TOLERANT] = "color.ai-apply.tolerant",
	[AA_COLOR_FUNC] = "color.diff.func",
	[AA_COLOR_WHITESPACE] = "color.diff.whitespace",
};

int aa_color_parse_when(const char *s, aa_color_when *out)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0", "" };
	size_t i;

	if (!s || !strcasecmp(s, "always")) {
		*out = AA_COLOR_ALWAYS;
		return 0;
	}
	if (!strcasecmp(s, "never")) {
		*out = AA_COLOR_NEVER;
		return 0;
	}
	if (!strcasecmp(s, "auto")) {
		*out = AA_COLOR_AUTO;
		return 0;
	}
	/* git: a boolean true means auto since 1.8.4 */
	for (i = 0; i < sizeof(yes) / sizeof(*yes); i++)
		if (!strcasecmp(s, yes[i])) {
			*out = AA_COLOR_AUTO;
			return 0;
		}
	for (i = 0; i < sizeof(no) / sizeof(*no); i++)
		if (!strcasecmp(s, no[i])) {
			*out = AA_COLOR_NEVER;
			return 0;
		}
	return -1;
}

/* One color word, as SGR parameters for the foreground (bg adds 10). */
typedef struct sgr_color {
	enum { C_UNSET, C_NORMAL, C_DEFAULT, C_ANSI, C_256, C_RGB } kind;
	int value;            /* ANSI: 0-7 (+60 bright); 256: 0-255 */
	unsigned char rgb[3];
} sgr_color;

static int hex_byte(const char *s, unsigned char *out)
{
	char tmp[3] = { s[0], s[1], 0 };
	char *end;

	if (!isxdigit((unsigned char)s[0]) || !isxdigit((unsigned char)s[1]))
		return -1;
	*out = (unsigned char)strtoul(tmp, &end, 16);
	return 0;
}

static int parse_color_word(const char *w, size_t n, sgr_color *c)
{
	static const char *const names[] = { "black", "red", "green", "yellow",
		"blue", "magenta", "cyan", "white" };
	char word[32];
	size_t i, off = 0;
	int bright = 0;

	if (n >= sizeof(word))
		return -1;
	memcpy(word, w, n);
	word[n] = 0;
	if (!strcasecmp(word, "normal")) {
		c->kind = C_NORMAL;
		return 0;
	}
	if (!strcasecmp(word, "default")) {
		c->kind = C_DEFAULT;
		return 0;
	}
	if (word[0] == '#' && n == 7) {
		for (i = 0; i < 3; i++)
			if (hex_byte(word + 1 + 2 * i, &c->rgb[i]) < 0)
				return -1;
		c->kind = C_RGB;
		return 0;
	}
	if (!strncasecmp(word, "bright", 6)) {
		bright = 1;
		off = 6;
	}
	for (i = 0; i < 8; i++)
		if (!strcasecmp(word + off, names[i])) {
			c->kind = C_ANSI;
			c->value = (int)i + (bright ? 60 : 0);
			return 0;
		}
	if (!bright) {
		char *end;
		long v = strtol(word, &end, 10);

		if (*word && !*end && v >= -1 && v <= 255) {
			c->kind = v < 0 ? C_NORMAL : C_256;
			c->value = (int)v;
			return 0;
		}
	}
	return -1;
}

/* Attribute word: its SGR code (no/no- prefix: the code that undoes it). */
static int parse_attr_word(const char *w, size_t n)
{
	static const struct { const char *name; int on, off; } attrs[] = {
		{ "bold", 1, 22 }, { "dim", 2, 22 }, { "italic", 3, 23 },
		{ "ul", 4, 24 }, { "blink", 5, 25 }, { "reverse", 7, 27 },
		{ "strike", 9, 29 },
	};
	size_t i;
	int neg = 0;

	if (n > 3 && !strncasecmp(w, "no-", 3)) {
		neg = 1;
		w += 3;
		n -= 3;
	} else if (n > 2 && !strncasecmp(w, "no", 2)) {
		neg = 1;
		w += 2;
		n -= 2;
	}
	for (i = 0; i < sizeof(attrs) / sizeof(*attrs); i++)
		if (strlen(attrs[i].name) == n && !strncasecmp(w, attrs[i].name, n))
			return neg ? attrs[i].off : attrs[i].on;
	return -1;
}

static int append_sgr(char *out, size_t *len, int *first, const char *fmt,
		      int a, int b, int c)
{
	int k = snprintf(out + *len, AA_COLOR_MAXLEN - *len, "%s", *first ? "" : ";");

	if (k < 0 || (size_t)k >= AA_COLOR_MAXLEN - *len)
		return -1;
	*len += (size_t)k;
	k = snprintf(out + *len, AA_COLOR_MAXLEN - *len, fmt, a, b, c);
	if (k < 0 || (size_t)k >= AA_COLOR_MAXLEN - *len)
		return -1;
	*len += (size_t)k;
	*first = 0;
	return 0;
}

static int append_color(char *out, size_t *len, int *first,
			const sgr_color *c, int bg)
{
	switch (c->kind) {
	case C_UNSET:
	case C_NORMAL:
		return 0;
	case C_DEFAULT:
		return append_sgr(out, len, first, "%d", bg ? 49 : 39, 0, 0);
	case C_ANSI:
		return append_sgr(out, len, first, "%d", c->value + (bg ? 40 : 30), 0, 0);
	case C_256:
		return append_sgr(out, len, first, bg ? "48;5;%d" : "38;5;%d",
				  c->value, 0, 0);
	case C_RGB:
		return append_sgr(out, len, first, bg ? "48;2;%d;%d;%d" : "38;2;%d;%d;%d",
				  c->rgb[0], c->rgb[1], c->rgb[2]);
	}
	return -1;
}

/* The words of a value, classified; -1 when one is neither kind. */
static int parse_words(const char *value, sgr_color *fg, sgr_color *bg,
		       int *attrs, size_t *nattrs, int *reset)
{
	const char *p = value;

	while (*p) {
		const char *w;
		size_t n;
		sgr_color c = { C_UNSET, 0, { 0, 0, 0 } };
		int a;

		while (isspace((unsigned char)*p))
			p++;
		w = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		n = (size_t)(p - w);
		if (!n)
			break;
		if (n == 5 && !strncasecmp(w, "reset", 5)) {
			*reset = 1;
		} else if (parse_color_word(w, n, &c) == 0) {
			if (fg->kind == C_UNSET)
				*fg = c;
			else if (bg->kind == C_UNSET)
				*bg = c;
			else
				return -1;
		} else if ((a = parse_attr_word(w, n)) >= 0 && *nattrs < 16) {
			attrs[(*nattrs)++] = a;
		} else {
			return -1;
		}
	}
	return 0;
}

int aa_color_parse(const char *value, char out[AA_COLOR_MAXLEN])
{
	sgr_color fg = { C_UNSET, 0, { 0, 0, 0 } }, bg = fg;
	int attrs[16], reset = 0, first = 1;
	size_t nattrs = 0, len = 0, i;
	char seq[AA_COLOR_MAXLEN];

	if (!value || parse_words(value, &fg, &bg, attrs, &nattrs, &reset) < 0)
		return -1;
	seq[0] = 0;
	if (!reset && !nattrs && (fg.kind == C_UNSET || fg.kind == C_NORMAL) &&
	    (bg.kind == C_UNSET || bg.kind == C_NORMAL)) {
		out[0] = 0;
		return 0;
	}
	if (snprintf(seq, sizeof(seq), "\033[") != 2)
		return -1;
	len = 2;
	if (reset)
		first = 0; /* an empty parameter first: "\033[;1m" resets, as git */
	for (i = 0; i < nattrs; i++)
		if (append_sgr(seq, &len, &first, "%d", attrs[i], 0, 0) < 0)
			return -1;
	if (append_color(seq, &len, &first, &fg, 0) < 0 ||
	    append_color(seq, &len, &first, &bg, 1) < 0 ||
	    len + 2 > AA_COLOR_MAXLEN)
		return -1;
	seq[len++] = 'm';
	seq[len] = 0;
	memcpy(out, seq, len + 1);
	return 0;
}

/* color.ai-apply, then color.ui; auto when neither is set or valid. */
static aa_color_when configured_when(git_config *cfg)
{
	static const char *const keys[] = { "color.ai-apply", "color.ui" };
	aa_color_when w;
	size_t i;

	for (i = 0; cfg && i < 2; i++) {
		git_buf v = { 0 };
		int ok = git_config_get_string_buf(&v, cfg, keys[i]) == 0 &&
			 aa_color_parse_when(v.ptr, &w) == 0;

		git_buf_dispose(&v);
		if (ok)
			return w;
	}
	git_error_clear();
	return AA_COLOR_AUTO;
}

static int output_is_terminal(int fd)
{
	const char *term = getenv("TERM");
	const char *pager = getenv("GIT_PAGER_IN_USE");

	if (term && !strcmp(term, "dumb"))
		return 0;
	if (pager && (!strcasecmp(pager, "true") || !strcmp(pager, "1")))
		return 1;
	return isatty(fd);
}

static void load_slots(aa_color *c, git_config *cfg)
{
	size_t i;

	for (i = 0; i < AA_COLOR_NSLOTS; i++) {
		git_buf v = { 0 };
		char seq[AA_COLOR_MAXLEN];

		strcpy(c->seq[i], slot_defaults[i]);
		if (cfg && slot_keys[i] &&
		    git_config_get_string_buf(&v, cfg, slot_keys[i]) == 0 &&
		    aa_color_parse(v.ptr, seq) == 0)
			strcpy(c->seq[i], seq);
		git_buf_dispose(&v);
	}
	git_error_clear();
}

void aa_color_setup(aa_color *c, git_repository *repo, aa_color_when when,
		    int fd)
{
	git_config *cfg = NULL;

	memset(c, 0, sizeof(*c));
	if ((repo ? git_repository_config_snapshot(&cfg, repo)
		  : git_config_open_default(&cfg)) < 0) {
		git_error_clear();
		cfg = NULL;
	}
	if (when == AA_COLOR_UNSET)
		when = configured_when(cfg);
	c->on = when == AA_COLOR_ALWAYS ||
		(when == AA_COLOR_AUTO && output_is_terminal(fd));
	if (c->on)
		load_slots(c, cfg);
	git_config_free(cfg);
}

const char *aa_color_get(const aa_color *c, aa_color_slot slot)
{
	if (!c || !c->on || (unsigned)slot >= AA_COLOR_NSLOTS)
		return "";
	return c->seq[slot];
}
