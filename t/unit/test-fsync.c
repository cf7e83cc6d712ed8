/*
 * Unit tests for the core.fsync / core.fsyncMethod reader
 * (src/land/fsync.c): git's documented cases, and the ones where git's
 * parser (config.c, parse_fsync_components) does more than its manual
 * says, which we follow so that git and we harden the same things.
 */
#include <stdio.h>
#include <stdlib.h>
#include "unit.h"
#include "land/fsync.h"

#define GIT_DEFAULT (AA_FSYNC_PACK | AA_FSYNC_PACK_METADATA | AA_FSYNC_COMMIT_GRAPH)

/* The names the parser ignored, "-" for a lone dash, space-separated. */
static char told[256];

static void tell(void *ctx, const char *name, size_t len)
{
	size_t at = strlen(told);

	(void)ctx;
	snprintf(told + at, sizeof(told) - at, "%s%.*s", at ? " " : "",
		 name ? (int)len : 1, name ? name : "-");
}

static unsigned parse(const char *value)
{
	told[0] = '\0';
	return aa_fsync_parse_components(value, tell, NULL);
}

static void test_default_and_empty(void **state)
{
	(void)state;
	/* unset and "" are git's default: objects and derived metadata, no loose */
	assert_int_equal(AA_FSYNC_DEFAULT, GIT_DEFAULT | AA_FSYNC_JOURNAL);
	assert_int_equal(parse(""), AA_FSYNC_DEFAULT);
	assert_int_equal(parse(" , ,"), AA_FSYNC_DEFAULT);
	assert_string_equal(told, "");
}

static void test_components_add_to_the_default(void **state)
{
	(void)state;
	assert_int_equal(parse("reference"), AA_FSYNC_DEFAULT | AA_FSYNC_REFERENCE);
	assert_int_equal(parse("index,reference"),
			 AA_FSYNC_DEFAULT | AA_FSYNC_INDEX | AA_FSYNC_REFERENCE);
	assert_int_equal(parse("loose-object"), AA_FSYNC_DEFAULT | AA_FSYNC_LOOSE_OBJECT);
	/* separators: commas, with blanks and newlines skipped before a name */
	assert_int_equal(parse("index, \treference"),
			 AA_FSYNC_DEFAULT | AA_FSYNC_INDEX | AA_FSYNC_REFERENCE);
	assert_string_equal(told, "");
}

static void test_aggregates(void **state)
{
	(void)state;
	assert_int_equal(parse("objects"), AA_FSYNC_DEFAULT | AA_FSYNC_LOOSE_OBJECT);
	assert_int_equal(parse("committed"),
			 AA_FSYNC_DEFAULT | AA_FSYNC_LOOSE_OBJECT | AA_FSYNC_REFERENCE);
	assert_int_equal(parse("added"),
			 AA_FSYNC_DEFAULT | AA_FSYNC_LOOSE_OBJECT | AA_FSYNC_REFERENCE |
			 AA_FSYNC_INDEX);
	assert_int_equal(parse("derived-metadata"), AA_FSYNC_DEFAULT);
	assert_int_equal(parse("all"), AA_FSYNC_ALL);
	assert_int_equal(AA_FSYNC_ALL & ~AA_FSYNC_JOURNAL,
			 AA_FSYNC_LOOSE_OBJECT | AA_FSYNC_PACK | AA_FSYNC_PACK_METADATA |
			 AA_FSYNC_COMMIT_GRAPH | AA_FSYNC_INDEX | AA_FSYNC_REFERENCE);
}

static void test_none(void **state)
{
	(void)state;
	/* none clears the set, the journals' too */
	assert_int_equal(parse("none"), 0);
	assert_int_equal(parse("reference,none"), AA_FSYNC_REFERENCE);
	assert_int_equal(parse("index, none"), AA_FSYNC_INDEX);
	assert_string_equal(told, "");
	/*
	 * git compares the rest of the value with "none": before another
	 * item it is an unknown name, and the default stays
	 */
	assert_int_equal(parse("none,index"), AA_FSYNC_DEFAULT | AA_FSYNC_INDEX);
	assert_string_equal(told, "none");
}

static void test_removals(void **state)
{
	(void)state;
	assert_int_equal(parse("-commit-graph"), AA_FSYNC_DEFAULT & ~AA_FSYNC_COMMIT_GRAPH);
	assert_int_equal(parse("-pack-metadata"),
			 AA_FSYNC_DEFAULT & ~AA_FSYNC_PACK_METADATA);
	/* a prefix: -pack removes pack and pack-metadata */
	assert_int_equal(parse("-pack"),
			 AA_FSYNC_DEFAULT & ~(AA_FSYNC_PACK | AA_FSYNC_PACK_METADATA));
	assert_int_equal(parse("-all"), 0);
	/*
	 * a removal takes from the default only: an added name wins, in any
	 * order (so git's "committed,-loose-object" keeps loose objects)
	 */
	assert_int_equal(parse("committed,-loose-object"),
			 AA_FSYNC_DEFAULT | AA_FSYNC_LOOSE_OBJECT | AA_FSYNC_REFERENCE);
	assert_int_equal(parse("-reference,reference"), AA_FSYNC_DEFAULT | AA_FSYNC_REFERENCE);
	assert_int_equal(parse("all,-index"), AA_FSYNC_ALL);
	assert_int_equal(parse("none,-pack"), AA_FSYNC_COMMIT_GRAPH | AA_FSYNC_JOURNAL);
	assert_string_equal(told, "none");
}

static void test_prefixes(void **state)
{
	(void)state;
	/* git matches a name as a prefix of every name in its table */
	assert_int_equal(parse("pack"), AA_FSYNC_DEFAULT);
	assert_int_equal(parse("none") | parse("ind"), AA_FSYNC_DEFAULT | AA_FSYNC_INDEX);
	assert_int_equal(parse("ref"), AA_FSYNC_DEFAULT | AA_FSYNC_REFERENCE);
	/* "a": added and all */
	assert_int_equal(parse("a"), AA_FSYNC_ALL);
	assert_string_equal(told, "");
}

static void test_unknown_names(void **state)
{
	(void)state;
	assert_int_equal(parse("bogus,index"), AA_FSYNC_DEFAULT | AA_FSYNC_INDEX);
	assert_string_equal(told, "bogus");
	assert_int_equal(parse("index,refs,-nothing"), AA_FSYNC_DEFAULT | AA_FSYNC_INDEX);
	assert_string_equal(told, "refs nothing");
	/* longer than every name, or with a trailing blank: unknown */
	assert_int_equal(parse("indexes, reference "), AA_FSYNC_DEFAULT);
	assert_string_equal(told, "indexes reference ");
	/* a lone "-" is git's invalid value, and ends the list */
	assert_int_equal(parse("index,-,reference"), AA_FSYNC_DEFAULT | AA_FSYNC_INDEX);
	assert_string_equal(told, "-");
	/* no callback: ignored all the same */
	assert_int_equal(aa_fsync_parse_components("x,index", NULL, NULL),
			 AA_FSYNC_DEFAULT | AA_FSYNC_INDEX);
}

static void test_methods(void **state)
{
	aa_fsync_method m = AA_FSYNC_METHOD_BATCH;

	(void)state;
	assert_int_equal(aa_fsync_parse_method("fsync", &m), 0);
	assert_int_equal(m, AA_FSYNC_METHOD_FSYNC);
	assert_int_equal(aa_fsync_parse_method("writeout-only", &m), 0);
	assert_int_equal(m, AA_FSYNC_METHOD_WRITEOUT_ONLY);
	assert_int_equal(aa_fsync_parse_method("batch", &m), 0);
	assert_int_equal(m, AA_FSYNC_METHOD_BATCH);
	/* unknown (git compares exactly): the one before stays */
	assert_int_equal(aa_fsync_parse_method("Batch", &m), -1);
	assert_int_equal(aa_fsync_parse_method("fdatasync", &m), -1);
	assert_int_equal(aa_fsync_parse_method("", &m), -1);
	assert_int_equal(m, AA_FSYNC_METHOD_BATCH);
}

static void test_how(void **state)
{
	aa_fsync f = AA_FSYNC_INIT;

	(void)state;
	/* unset: packs fsynced, loose objects, refs and the index not */
	assert_int_equal(aa_fsync_how(&f, AA_FSYNC_PACK), AA_SYNC_FULL);
	assert_int_equal(aa_fsync_how(&f, AA_FSYNC_PACK_METADATA), AA_SYNC_FULL);
	assert_int_equal(aa_fsync_how(&f, AA_FSYNC_JOURNAL), AA_SYNC_FULL);
	assert_int_equal(aa_fsync_how(&f, AA_FSYNC_LOOSE_OBJECT), AA_SYNC_NONE);
	assert_int_equal(aa_fsync_how(&f, AA_FSYNC_INDEX), AA_SYNC_NONE);
	assert_int_equal(aa_fsync_how(&f, AA_FSYNC_REFERENCE), AA_SYNC_NONE);
	assert_false(aa_fsync_batched(&f));
	/* core.fsyncObjectFiles=true: loose objects too */
	f.object_files = 1;
	assert_int_equal(aa_fsync_how(&f, AA_FSYNC_LOOSE_OBJECT), AA_SYNC_FULL);
	/* batch: loose objects written out (one flush at the end), the rest fsync */
	f.method = AA_FSYNC_METHOD_BATCH;
	assert_int_equal(aa_fsync_how(&f, AA_FSYNC_LOOSE_OBJECT), AA_SYNC_FULL);
	f.components |= AA_FSYNC_LOOSE_OBJECT;
	assert_true(aa_fsync_batched(&f));
	assert_int_equal(aa_fsync_how(&f, AA_FSYNC_LOOSE_OBJECT), AA_SYNC_WRITEOUT);
	assert_int_equal(aa_fsync_how(&f, AA_FSYNC_PACK), AA_SYNC_FULL);
	/* writeout-only: everything on is written out, not flushed */
	f.method = AA_FSYNC_METHOD_WRITEOUT_ONLY;
	assert_false(aa_fsync_batched(&f));
	assert_int_equal(aa_fsync_how(&f, AA_FSYNC_PACK), AA_SYNC_WRITEOUT);
	assert_int_equal(aa_fsync_how(&f, AA_FSYNC_JOURNAL), AA_SYNC_WRITEOUT);
	assert_int_equal(aa_fsync_how(&f, AA_FSYNC_INDEX), AA_SYNC_NONE);
	/* none: nothing, the journals included */
	f.components = 0;
	f.object_files = -1;
	assert_int_equal(aa_fsync_how(&f, AA_FSYNC_JOURNAL), AA_SYNC_NONE);
	assert_int_equal(aa_fsync_how(&f, AA_FSYNC_LOOSE_OBJECT), AA_SYNC_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_and_empty),
		cmocka_unit_test(test_components_add_to_the_default),
		cmocka_unit_test(test_aggregates),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_removals),
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_unknown_names),
		cmocka_unit_test(test_methods),
		cmocka_unit_test(test_how),
	};

	return AA_RUN_TESTS(tests);
}
