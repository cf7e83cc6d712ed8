/*
 * The command line's option parser, in the spirit of git's
 * parse-options: one table of options (src/cli/cli.c) from which the
 * parsing, the `--no-` forms, the unique-prefix matching of long
 * options, the usage text, --git-completion-helper's list and the
 * conflicts between options all come.
 */
#ifndef CLI_PARSE_OPTIONS_H
#define CLI_PARSE_OPTIONS_H

#include <stddef.h>
#include "aiapply/common.h"

/* What an option takes. */
enum cli_kind {
	CLI_FLAG,      /* --name (no --no-name) */
	CLI_NEGFLAG,   /* --name and --no-name */
	CLI_VALUE,     /* --name=<v>, --name <v>; -x <v>, -x=<v> */
	CLI_OPTVALUE   /* --name, --name=<v> and --no-name */
};

/* What it does to its field (at `offset` in the parser's target). */
enum cli_store {
	CLI_STORE_NONE,  /* nothing (a mode, a callback) */
	CLI_STORE_INT,   /* int: `value`; --no-: 0 */
	CLI_STORE_BIT,   /* unsigned: |= `value`; --no-: &= ~`value` */
	CLI_STORE_STR    /* const char *: the value, borrowed from argv */
};

#define CLI_NONEMPTY   1u  /* an empty value is a missing one */
#define CLI_NOCOMPLETE 2u  /* not listed by --git-completion-helper */
/* a short option whose value is digits attached only (-p1): "-x" alone is another option */
#define CLI_ATTACHED   4u

/* An option id's bit: in cli_option.conflicts and cli_parser.given. */
#define CLI_BIT(id) (1ull << (id))

/* The column the help lines start at (git's usage has 26; ours 23). */
#define CLI_HELP_COLUMN 23

/* Results of parsing one argument, and of a callback. */
enum {
	CLI_OK = 0,
	CLI_HELP = 1,    /* stop: the usage was printed (exit 129, as git) */
	CLI_DONE = 2,    /* stop: what was asked was printed (exit 0) */
	CLI_USAGE = -2   /* a usage error: the message is in the parser's err */
};

typedef struct cli_option cli_option;
typedef struct cli_parser cli_parser;

/*
 * Called after the field is stored, with the value (NULL: none given)
 * and whether it was the --no- form. Returns one of the results above.
 */
typedef int (*cli_callback)(cli_parser *p, const cli_option *opt,
			    const char *arg, int unset);

struct cli_option {
	/*
	 * Its bit (< 64). Entries with the same id are one option under
	 * two names (-m and --message); the first is its name in messages.
	 */
	int id;
	char short_name;         /* 0: none */
	const char *long_name;   /* NULL: none */
	enum cli_kind kind;
	enum cli_store store;
	size_t offset;           /* the field, in the parser's target */
	int value;               /* what CLI_STORE_INT/BIT store */
	/*
	 * Nonzero: the option selects this mode. Modes exclude each other:
	 * a second, different one is refused, the first one stays.
	 */
	int cmdmode;
	const char *argh;        /* the value's name in the usage: "<name>" */
	const char *missing;     /* "a branch name": said when it is missing */
	unsigned flags;          /* CLI_NONEMPTY, CLI_NOCOMPLETE */
	cli_callback fn;         /* NULL: none */
	/* The usage's help line(s), '\n' between; NULL (and no help_fn): not listed. */
	const char *help;
	/* Or a help text made when printed, wrapped under the help column. */
	int (*help_fn)(aa_buf *out);
	/*
	 * The options (CLI_BIT of ids, also of the caller's own ids such as
	 * "an input") this one cannot go with, as given at the end of the
	 * line (a --no- form takes one back), and what is said then; a NULL
	 * message says "options '<other>' and '<this>' cannot be used together".
	 */
	unsigned long long conflicts;
	const char *conflict_msg;
};

struct cli_parser {
	const cli_option *opts;
	size_t nopts;
	void *target;              /* the struct the offsets are in */
	unsigned long long given;  /* the ids set, as the line ends */
	int cmdmode;               /* the mode chosen (0: none) ... */
	const cli_option *cmdmode_by; /* ... and by which option */
	aa_buf err;                /* CLI_USAGE's message, without "error: " */
	aa_diags *fatal;           /* conflicts: recorded, parsing goes on */
};

/*
 * Parses the option argv[*i] (it starts with '-', is not "-" nor "--");
 * a value in the next argument advances *i. Long options match a unique
 * prefix of their name, as in git (an exact match wins; --no- forms
 * too); an ambiguous one is a usage error naming the candidates.
 */
int cli_parse_option(cli_parser *p, int argc, char **argv, int *i);

/* The conflicts of the options given (in table order) into p->fatal. */
void cli_check_conflicts(cli_parser *p);

/* Records a fatal error once: a message already recorded is not repeated. */
void cli_fatal(cli_parser *p, const char *msg);

/* "--name" or "-x": the option as messages name it (its first entry's). */
const char *cli_option_name(const cli_parser *p, const cli_option *opt);

/* The synopsis, a blank line, then a help line per listed option. */
int cli_usage(aa_buf *out, const char *synopsis, const cli_option *opts,
	      size_t n);

/*
 * --git-completion-helper, as git's: the long options on one line
 * ("--name", "--name=" when it takes a value), then the --no- forms:
 * the first one, "--", the others (bash shows "--no-..." for them).
 */
int cli_completion_list(aa_buf *out, const cli_option *opts, size_t n);

void cli_parser_free(cli_parser *p);

#endif
