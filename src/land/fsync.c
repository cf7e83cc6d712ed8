/*
 * core.fsync, core.fsyncMethod and core.fsyncObjectFiles (fsync.h): the
 * one reader every writer of a landing asks.
 */
#include <stdio.h>
#include <string.h>

#include "land/fsync.h"

static const struct fsync_name {
	const char *name;
	unsigned bits;
} fsync_names[] = {
	/* git's table (config.c), in its order */
	{ "loose-object", AA_FSYNC_LOOSE_OBJECT },
	{ "pack", AA_FSYNC_PACK },
	{ "pack-metadata", AA_FSYNC_PACK_METADATA },
	{ "commit-graph", AA_FSYNC_COMMIT_GRAPH },
	{ "index", AA_FSYNC_INDEX },
	{ "objects", AA_FSYNC_OBJECTS },
	{ "reference", AA_FSYNC_REFERENCE },
	{ "derived-metadata", AA_FSYNC_DERIVED_METADATA },
	{ "committed", AA_FSYNC_COMMITTED },
	{ "added", AA_FSYNC_ADDED },
	{ "all", AA_FSYNC_ALL },
};

/* Every name of which s[0..len) is a prefix, as git's strncmp matches. */
static unsigned matching(const char *s, size_t len, int *found)
{
	unsigned bits = 0;
	size_t i;

	*found = 0;
	for (i = 0; i < sizeof(fsync_names) / sizeof(fsync_names[0]); i++)
		if (!strncmp(fsync_names[i].name, s, len)) {
			*found = 1;
			bits |= fsync_names[i].bits;
		}
	return bits;
}

unsigned aa_fsync_parse_components(const char *s, aa_fsync_unknown *unknown,
				   void *ctx)
{
	unsigned current = AA_FSYNC_DEFAULT, positive = 0, negative = 0;

	for (;;) {
		const char *ep;
		size_t len;
		unsigned bits;
		int negated = 0, found;

		s += strspn(s, ", \t\n\r");
		ep = strchr(s, ',');
		ep = ep ? ep : s + strlen(s);
		len = (size_t)(ep - s);
		/* git compares the rest of the value: `none` counts only last */
		if (!strcmp(s, "none")) {
			current = 0;
			s = ep;
			continue;
		}
		if (*s == '-') {
			negated = 1;
			s++;
			len--;
			if (!len && unknown)
				unknown(ctx, NULL, 0);
		}
		if (!len)
			break;
		bits = matching(s, len, &found);
		if (negated)
			negative |= bits;
		else
			positive |= bits;
		if (!found && unknown)
			unknown(ctx, s, len);
		s = ep;
	}
	return (current & ~negative) | positive;
}

int aa_fsync_parse_method(const char *value, aa_fsync_method *out)
{
	if (!strcmp(value, "fsync"))
		*out = AA_FSYNC_METHOD_FSYNC;
	else if (!strcmp(value, "writeout-only"))
		*out = AA_FSYNC_METHOD_WRITEOUT_ONLY;
	else if (!strcmp(value, "batch"))
		*out = AA_FSYNC_METHOD_BATCH;
	else
		return -1;
	return 0;
}

/* ---- reading the configuration ---- */

typedef struct reading {
	aa_fsync *f;
	aa_diags *d;
} reading;

static void warn_unknown(void *ctx, const char *name, size_t len)
{
	reading *rd = ctx;

	if (!name)
		aa_warn(rd->d, AA_NOPOS, NULL, "invalid value for variable core.fsync");
	else
		aa_warn(rd->d, AA_NOPOS, NULL,
			"ignoring unknown core.fsync component '%.*s'",
			len > 200 ? 200 : (int)len, name);
}

static int missing(reading *rd, const char *name)
{
	aa_warn(rd->d, AA_NOPOS, NULL, "missing value for '%s': ignored", name);
	return 0;
}

static int each_components(const git_config_entry *e, void *ctx)
{
	reading *rd = ctx;

	if (!e->value)
		return missing(rd, "core.fsync");
	rd->f->components = aa_fsync_parse_components(e->value, warn_unknown, rd);
	return 0;
}

static int each_method(const git_config_entry *e, void *ctx)
{
	reading *rd = ctx;

	if (!e->value)
		return missing(rd, "core.fsyncMethod");
	if (aa_fsync_parse_method(e->value, &rd->f->method) < 0)
		aa_warn(rd->d, AA_NOPOS, NULL,
			"ignoring unknown core.fsyncMethod value '%.200s'", e->value);
	return 0;
}

void aa_fsync_read(aa_fsync *f, git_repository *repo, aa_diags *d)
{
	static const aa_fsync init = AA_FSYNC_INIT;
	git_config *cfg = NULL;
	reading rd;
	int on;

	*f = init;
	rd.f = f;
	rd.d = d;
	if (git_repository_config_snapshot(&cfg, repo) < 0) {
		git_error_clear();
		return;
	}
	/* libgit2 gives a variable's entries lowest level first: git's order */
	git_config_get_multivar_foreach(cfg, "core.fsync", NULL, each_components, &rd);
	git_config_get_multivar_foreach(cfg, "core.fsyncmethod", NULL, each_method, &rd);
	if (git_config_get_bool(&on, cfg, "core.fsyncobjectfiles") == 0) {
		f->object_files = on;
		aa_warn(d, AA_NOPOS, NULL,
			"core.fsyncObjectFiles is deprecated; use core.fsync instead");
	}
	git_error_clear();
	git_config_free(cfg);
}

/* ---- asking ---- */

int aa_fsync_batched(const aa_fsync *f)
{
	return f->method == AA_FSYNC_METHOD_BATCH &&
	       (f->components & AA_FSYNC_LOOSE_OBJECT);
}

aa_sync aa_fsync_how(const aa_fsync *f, unsigned component)
{
	int on = (f->components & component) != 0;

	/* git: core.fsyncObjectFiles=true fsyncs loose objects whatever core.fsync */
	if (component == AA_FSYNC_LOOSE_OBJECT && f->object_files > 0)
		on = 1;
	if (!on)
		return AA_SYNC_NONE;
	if (f->method == AA_FSYNC_METHOD_WRITEOUT_ONLY ||
	    (component == AA_FSYNC_LOOSE_OBJECT && aa_fsync_batched(f)))
		return AA_SYNC_WRITEOUT;
	return AA_SYNC_FULL;
}

int aa_fsync_file(const aa_fsync *f, unsigned component, int fd)
{
	return aa_sync_fd(fd, aa_fsync_how(f, component));
}

int aa_fsync_dir_for(const aa_fsync *f, unsigned component, const char *dir)
{
	return aa_sync_dir(dir, aa_fsync_how(f, component));
}

int aa_fsync_parent(const aa_fsync *f, unsigned component, const char *path)
{
	return aa_sync_dir_of(path, aa_fsync_how(f, component));
}
