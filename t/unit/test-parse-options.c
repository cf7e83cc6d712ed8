/*
 * The command line's option parser (src/cli/parse-options.c, built into
 * the command, not the library: included here whole) over a table of
 * its own, with what git ai-apply's table cannot show: an option whose
 * name begins another's (an exact name wins), aliases, a mode chosen
 * twice, a help column overflowed.
 */
#include "unit.h"

#include <stdio.h>

#include "cli/parse-options.c"

typedef struct target {
	int stat, status, verbose, mode;
	unsigned bits;
	const char *name;
} target;

enum { T_STAT, T_STATUS, T_VERBOSE, T_ONE, T_TWO, T_NAME, T_BIT, T_LONG };

static const cli_option table[] = {
	{ T_STAT, 0, "stat", CLI_NEGFLAG, CLI_STORE_INT,
	  offsetof(target, stat), 1, .help = "the stat" },
	{ T_STATUS, 0, "status", CLI_NEGFLAG, CLI_STORE_INT,
	  offsetof(target, status), 1, .help = "the status\non two lines" },
	{ T_VERBOSE, 'v', "verbose", CLI_FLAG, CLI_STORE_INT,
	  offsetof(target, verbose), 1, .help = "more" },
	{ T_VERBOSE, 0, "talkative", CLI_FLAG, CLI_STORE_INT,
	  offsetof(target, verbose), 1, .help = NULL },
	{ T_ONE, 0, "one", CLI_FLAG, CLI_STORE_NONE, 0, 0, .cmdmode = 1,
	  .help = "mode one" },
	{ T_TWO, 0, "two", CLI_FLAG, CLI_STORE_NONE, 0, 0, .cmdmode = 2,
	  .help = "mode two", .conflicts = CLI_BIT(T_BIT) },
	{ T_NAME, 'n', "name", CLI_VALUE, CLI_STORE_STR,
	  offsetof(target, name), 0, .argh = "<n>", .missing = "a name",
	  .flags = CLI_NONEMPTY, .help = "a name" },
	{ T_BIT, 0, "bit", CLI_NEGFLAG, CLI_STORE_BIT,
	  offsetof(target, bits), 4, .flags = CLI_NOCOMPLETE, .help = NULL },
	{ T_LONG, 0, "a-very-long-option-name", CLI_OPTVALUE, CLI_STORE_NONE,
	  0, 0, .argh = "<x>", .help = "overflows" },
};

#define N (sizeof(table) / sizeof(table[0]))

typedef struct fixture {
	target t;
	aa_diags fatal;
	cli_parser p;
} fixture;

/* Parses the arguments (a NULL-ended list); the last result. */
static int parse(fixture *f, ...)
{
	char *argv[16];
	int argc = 1, i, r = CLI_OK;
	va_list ap;

	memset(f, 0, sizeof(*f));
	f->p = (cli_parser){ table, N, &f->t, 0, 0, NULL, AA_BUF_INIT,
			     &f->fatal };
	argv[0] = "prog";
	va_start(ap, f);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	for (i = 1; i < argc && r == CLI_OK; i++)
		r = cli_parse_option(&f->p, argc, argv, &i);
	return r;
}

static void done(fixture *f)
{
	cli_parser_free(&f->p);
	aa_diags_free(&f->fatal);
}

static void test_exact_name_wins(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f, "--stat", NULL), CLI_OK);
	assert_int_equal(f.t.stat, 1);
	assert_int_equal(f.t.status, 0);
	done(&f);
	assert_int_equal(parse(&f, "--statu", NULL), CLI_OK);
	assert_int_equal(f.t.status, 1);
	done(&f);
	assert_int_equal(parse(&f, "--sta", NULL), CLI_USAGE);
	assert_string_equal(f.p.err.ptr,
			    "ambiguous option: --sta (could be --stat or --status)");
	done(&f);
	/* the --no- forms likewise */
	assert_int_equal(parse(&f, "--status", "--no-stat", NULL), CLI_OK);
	assert_int_equal(f.t.status, 1);
	done(&f);
	assert_int_equal(parse(&f, "--no-st", NULL), CLI_USAGE);
	assert_string_equal(f.p.err.ptr,
			    "ambiguous option: --no-st (could be --no-stat or --no-status)");
	done(&f);
}

static void test_negation_takes_back(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f, "--stat", "--bit", "--no-sta", NULL),
			 CLI_USAGE);
	done(&f);
	assert_int_equal(parse(&f, "--stat", "--bit", "--no-stat", "--no-b",
			       NULL), CLI_OK);
	assert_int_equal(f.t.stat, 0);
	assert_int_equal(f.t.bits, 0);
	assert_int_equal(f.p.given, 0);
	done(&f);
	/* a flag without --no- has none */
	assert_int_equal(parse(&f, "--no-verbose", NULL), CLI_USAGE);
	assert_string_equal(f.p.err.ptr, "unknown option '--no-verbose'");
	done(&f);
}

static void test_aliases_are_one_option(void **state)
{
	fixture f;

	(void)state;
	/* "--t" begins --talkative and --two: two options */
	assert_int_equal(parse(&f, "--t", NULL), CLI_USAGE);
	done(&f);
	assert_int_equal(parse(&f, "--ta", NULL), CLI_OK);
	assert_int_equal(f.t.verbose, 1);
	assert_true(f.p.given & CLI_BIT(T_VERBOSE));
	done(&f);
	assert_int_equal(parse(&f, "-v", NULL), CLI_OK);
	assert_int_equal(f.t.verbose, 1);
	done(&f);
}

static void test_values(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f, "--na=x", NULL), CLI_OK);
	assert_string_equal(f.t.name, "x");
	done(&f);
	assert_int_equal(parse(&f, "--na", "y", NULL), CLI_OK);
	assert_string_equal(f.t.name, "y");
	done(&f);
	assert_int_equal(parse(&f, "-n", "z", NULL), CLI_OK);
	assert_string_equal(f.t.name, "z");
	done(&f);
	assert_int_equal(parse(&f, "--name=", NULL), CLI_USAGE);
	assert_string_equal(f.p.err.ptr, "option '--name' needs a name");
	done(&f);
	assert_int_equal(parse(&f, "-n", NULL), CLI_USAGE);
	assert_string_equal(f.p.err.ptr, "option '--name' needs a name");
	done(&f);
	assert_int_equal(parse(&f, "--stat=1", NULL), CLI_USAGE);
	assert_string_equal(f.p.err.ptr, "unknown option '--stat=1'");
	done(&f);
}

static void test_modes_and_conflicts(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f, "--one", "--tw", "--one", NULL), CLI_OK);
	assert_int_equal(f.p.cmdmode, 1);
	assert_int_equal(f.fatal.n, 1);
	assert_string_equal(f.fatal.v[0].msg,
			    "options '--one' and '--two' cannot be used together");
	done(&f);
	assert_int_equal(parse(&f, "--two", "--bit", NULL), CLI_OK);
	cli_check_conflicts(&f.p);
	assert_int_equal(f.fatal.n, 1);
	assert_string_equal(f.fatal.v[0].msg,
			    "options '--bit' and '--two' cannot be used together");
	/* said once */
	cli_check_conflicts(&f.p);
	assert_int_equal(f.fatal.n, 1);
	done(&f);
	assert_int_equal(parse(&f, "--two", "--bit", "--no-bit", NULL), CLI_OK);
	cli_check_conflicts(&f.p);
	assert_int_equal(f.fatal.n, 0);
	done(&f);
}

static void test_usage_and_completion(void **state)
{
	aa_buf out = AA_BUF_INIT;

	(void)state;
	assert_int_equal(cli_usage(&out, "usage: prog", table, N), 0);
	assert_string_equal(out.ptr,
		"usage: prog\n"
		"    --stat             the stat\n"
		"    --status           the status\n"
		"                       on two lines\n"
		"    -v, --verbose      more\n"
		"    --one              mode one\n"
		"    --two              mode two\n"
		"    -n, --name=<n>     a name\n"
		"    --a-very-long-option-name[=<x>]\n"
		"                       overflows\n");
	aa_buf_clear(&out);
	assert_int_equal(cli_completion_list(&out, table, N), 0);
	assert_string_equal(out.ptr,
		"--stat --status --verbose --talkative --one --two --name="
		" --a-very-long-option-name --no-stat -- --no-status"
		" --no-a-very-long-option-name\n");
	aa_buf_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_name_wins),
		cmocka_unit_test(test_negation_takes_back),
		cmocka_unit_test(test_aliases_are_one_option),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_modes_and_conflicts),
		cmocka_unit_test(test_usage_and_completion),
	};

	return AA_RUN_TESTS(tests);
}
