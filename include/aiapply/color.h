/*
 * Color, as git does it: whether to use it (--color[=<when>], --no-color,
 * color.ai-apply, color.ui, a terminal) and the escape sequence of each
 * slot, from git's defaults and the user's color.* configuration
 * (color.diff.<slot>, color.interactive.<slot>, color.ai-apply.<slot>).
 * Every output that colors goes through one aa_color.
 *
 * Ownership: an aa_color is the caller's and holds no allocation (its
 * sequences are in the struct): nothing to free. aa_color_get() returns
 * a string inside it.
 */
#ifndef AIAPPLY_COLOR_H
#define AIAPPLY_COLOR_H

#include <git2.h>

typedef enum aa_color_when {
	AA_COLOR_UNSET = -2,  /* not given: ask the configuration */
	AA_COLOR_AUTO = -1,   /* when the output is a terminal */
	AA_COLOR_NEVER = 0,
	AA_COLOR_ALWAYS = 1
} aa_color_when;

typedef enum aa_color_slot {
	AA_COLOR_RESET,
	AA_COLOR_META,      /* color.diff.meta: diff headers (bold) */
	AA_COLOR_FRAG,      /* color.diff.frag: hunk headers (cyan) */
	AA_COLOR_OLD,       /* color.diff.old: removed lines (red) */
	AA_COLOR_NEW,       /* color.diff.new: added lines (green) */
	AA_COLOR_CONTEXT,   /* color.diff.context (plain) */
	AA_COLOR_PROMPT,    /* color.interactive.prompt (bold blue) */
	AA_COLOR_HEADER,    /* color.interactive.header (bold) */
	AA_COLOR_HELP,      /* color.interactive.help (bold red) */
	AA_COLOR_ERROR,     /* color.ai-apply.error: "error:" (bold red) */
	AA_COLOR_WARNING,   /* color.ai-apply.warning: "warning:" (bold yellow) */
	AA_COLOR_TOLERANT,  /* color.ai-apply.tolerant: a tolerant placement (yellow) */
	AA_COLOR_FUNC,      /* color.diff.func: a hunk header's function (plain) */
	AA_COLOR_WHITESPACE, /* color.diff.whitespace: whitespace errors (red background) */
	AA_COLOR_NSLOTS
} aa_color_slot;

/* Longest escape sequence a slot can hold (git's COLOR_MAXLEN). */
#define AA_COLOR_MAXLEN 75

typedef struct aa_color {
	int on;
	char seq[AA_COLOR_NSLOTS][AA_COLOR_MAXLEN];
} aa_color;

/*
 * "always", "never", "auto" and git's booleans ("true" is auto, "false"
 * never; NULL, a bare --color, is always). Returns 0, or -1 when `s` is
 * none of them.
 */
int aa_color_parse_when(const char *s, aa_color_when *out);

/*
 * Parses a git color value ("bold red", "#ff0000 ul", "normal", "reset",
 * "brightblue", "208") into its escape sequence (empty for "normal").
 * Returns 0, or -1 when the value is not a color.
 */
int aa_color_parse(const char *value, char out[AA_COLOR_MAXLEN]);

/*
 * Decides and loads the colors: `when` from the command line (UNSET: the
 * configuration's color.ai-apply, else color.ui, else auto); auto means
 * the file descriptor `fd` is a terminal (or git's pager is in use) and
 * TERM is not "dumb". `repo` may be NULL (defaults only, the global
 * configuration is not read). A bad color value in the configuration
 * keeps the default. Never fails.
 */
void aa_color_setup(aa_color *c, git_repository *repo, aa_color_when when,
		    int fd);

/* The escape sequence of a slot; "" when color is off or c is NULL. */
const char *aa_color_get(const aa_color *c, aa_color_slot slot);

#endif
