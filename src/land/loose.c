/*
 * Writing loose objects: deflate, temporary file beside its final
 * name, made durable as core.fsync says, rename, the directory made
 * durable (src/land/loose.h says why we do not let libgit2 do it).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "land/loose.h"
#include "util/util.h"

/* git's default core.looseCompression, and libgit2's. */
#define LOOSE_COMPRESSION Z_BEST_SPEED
/* zlib counts in uInt: feed and drain it in slices of at most this. */
#define ZSLICE ((size_t)1 << 30)

/* One failed step: what it was, on which file, and errno. */
typedef struct loose_failure {
	const char *step;
	const char *path;
	int err;
} loose_failure;

static int failed(loose_failure *f, const char *step, const char *path)
{
	f->step = step;
	f->path = path;
	f->err = errno;
	return -1;
}

/* Deflates src[0..len) onto the end of out; 0, or -1 (out of memory). */
static int deflate_slices(z_stream *zs, const unsigned char *src, size_t len,
			  int last, aa_buf *out)
{
	int flush, zr;

	do {
		size_t in = len < ZSLICE ? len : ZSLICE;

		flush = last && in == len ? Z_FINISH : Z_NO_FLUSH;
		zs->next_in = (unsigned char *)src;
		zs->avail_in = (uInt)in;
		do {
			if (aa_buf_grow(out, 64 * 1024) < 0)
				return -1;
			zs->next_out = (unsigned char *)out->ptr + out->len;
			zs->avail_out = (uInt)(out->cap - out->len - 1 < ZSLICE ?
					       out->cap - out->len - 1 : ZSLICE);
			{
				uInt room = zs->avail_out;

				zr = deflate(zs, flush);
				out->len += room - zs->avail_out;
			}
			if (zr == Z_STREAM_ERROR)
				return -1;
		} while (zs->avail_out == 0 ||
			 (flush == Z_FINISH && zr != Z_STREAM_END));
		src += in;
		len -= in;
	} while (len);
	return 0;
}

/* "<type> <size>\0<data>", deflated, into out. */
static int loose_compress(git_object_t type, const void *data, size_t len,
			  aa_buf *out)
{
	char hdr[64];
	int hlen = snprintf(hdr, sizeof(hdr), "%s %zu", git_object_type2string(type), len);
	z_stream zs;
	int r;

	if (hlen < 0 || (size_t)hlen >= sizeof(hdr))
		return -1;
	memset(&zs, 0, sizeof(zs));
	if (deflateInit(&zs, LOOSE_COMPRESSION) != Z_OK)
		return -1;
	r = deflate_slices(&zs, (const unsigned char *)hdr, (size_t)hlen + 1, 0, out);
	if (!r)
		r = deflate_slices(&zs, data, len, 1, out);
	deflateEnd(&zs);
	return r;
}

/* The fan-out directory <objects>/<xx>; *created when we made it. */
static int make_fanout(const char *dir, int *created, loose_failure *f)
{
	*created = 0;
	if (!mkdir(dir, 0777)) {
		*created = 1;
		return 0;
	}
	if (errno == EEXIST)
		return 0;
	return failed(f, "mkdir", dir);
}

/* Content into the open temporary file, read-only, made durable, closed. */
static int fill_temp(int fd, const char *tmp, const aa_buf *z, aa_sync how,
		     loose_failure *f)
{
	int r = 0;

	if (aa_write_all(fd, z->ptr, z->len) < 0)
		r = failed(f, "write", tmp);
	else if (fchmod(fd, 0444) < 0)
		r = failed(f, "chmod", tmp);
	else if (aa_sync_fd(fd, how) < 0)
		r = failed(f, "fsync", tmp);
	if (close(fd) < 0 && !r)
		r = failed(f, "close", tmp);
	return r;
}

/* A batch's temporary file and final name, kept for aa_loose_end. */
static int stage(aa_loose_set *set, aa_buf *tmp, const char *final)
{
	char *name;

	if (set->n == set->cap) {
		size_t cap = set->cap ? 2 * set->cap : 16;
		char **t = realloc(set->tmp, cap * sizeof(*t));

		if (t)
			set->tmp = t;
		t = t ? realloc(set->final, cap * sizeof(*t)) : NULL;
		if (!t)
			return -1;
		set->final = t;
		set->cap = cap;
	}
	if (!(name = aa_strdup(final)))
		return -1;
	set->tmp[set->n] = aa_buf_detach(tmp);
	set->final[set->n++] = name;
	return 0;
}

/*
 * Temporary file, rename onto `final`, the directories made durable;
 * under batch, the temporary file written out and staged instead. When a
 * step before the rename fails, the temporary file is removed; *left says
 * when it could not be (with that errno in *left_err).
 */
static int place_object(aa_loose_set *set, const char *fanout,
			const char *final, const aa_buf *z, aa_buf *tmp,
			int *left, int *left_err, loose_failure *f)
{
	aa_sync how = aa_fsync_how(set->fsync, AA_FSYNC_LOOSE_OBJECT);
	int created, fd, r, batched = aa_fsync_batched(set->fsync);

	*left = 0;
	if (make_fanout(fanout, &created, f) < 0)
		return -1;
	if (aa_buf_printf(tmp, "%s/tmp_obj_XXXXXX", fanout) < 0)
		return errno = ENOMEM, failed(f, "temporary name", fanout);
	fd = mkstemp(tmp->ptr);
	if (fd < 0)
		return failed(f, "create", tmp->ptr);
	r = fill_temp(fd, tmp->ptr, z, how, f);
	if (!r && batched && stage(set, tmp, final) < 0)
		r = (errno = ENOMEM, failed(f, "temporary name", fanout));
	else if (!r && !batched && rename(tmp->ptr, final) < 0)
		r = failed(f, "rename to", final);
	if (r < 0) {
		if (unlink(tmp->ptr) < 0 && errno != ENOENT) {
			*left = 1;
			*left_err = errno;
		}
		return r;
	}
	if (batched)
		return 0;
	if (aa_sync_dir(fanout, how) < 0)
		return failed(f, "fsync", fanout);
	if (created && aa_sync_dir(set->objects_dir, how) < 0)
		return failed(f, "fsync", set->objects_dir);
	return 0;
}

void aa_loose_begin(aa_loose_set *set, const char *objects_dir,
		    const aa_fsync *f)
{
	memset(set, 0, sizeof(*set));
	set->objects_dir = objects_dir;
	set->fsync = f;
}

int aa_loose_write(aa_loose_set *set, const git_oid *id, git_object_t type,
		   const void *data, size_t len, aa_diags *d)
{
	char hex[GIT_OID_HEXSZ + 1];
	aa_buf z = AA_BUF_INIT, fanout = AA_BUF_INIT, final = AA_BUF_INIT,
	       tmp = AA_BUF_INIT, msg = AA_BUF_INIT;
	loose_failure f = { NULL, NULL, 0 };
	int left = 0, left_err = 0, r = 0;

	git_oid_tostr(hex, sizeof(hex), id);
	if (loose_compress(type, data, len, &z) < 0 ||
	    aa_buf_printf(&fanout, "%s/%.2s", set->objects_dir, hex) < 0 ||
	    aa_buf_printf(&final, "%s/%s", fanout.ptr, hex + 2) < 0)
		r = aa_oom(d, AA_NOPOS, NULL);
	else if (place_object(set, fanout.ptr, final.ptr, &z, &tmp,
			      &left, &left_err, &f) < 0) {
		aa_buf_printf(&msg, "cannot write object %s: %s %s: %s", hex,
			      f.step, aa_qpath(f.path), strerror(f.err));
		if (left)
			aa_buf_printf(&msg, "; its temporary file %s is left and could not be removed: %s",
				      aa_qpath(tmp.ptr), strerror(left_err));
		r = aa_error_buf(d, AA_NOPOS, NULL, &msg);
	}
	aa_buf_free(&z);
	aa_buf_free(&fanout);
	aa_buf_free(&final);
	aa_buf_free(&tmp);
	aa_buf_free(&msg);
	return r < 0 ? AA_FATAL : 0;
}

/*
 * The batch's one flush: every temporary file was written out (waited
 * for), so a full fsync of one of them flushes the disk's cache for all,
 * as git's bulk check-in does with a file of its own.
 */
static int flush_batch(aa_loose_set *set, aa_diags *d)
{
	const char *last = set->tmp[set->n - 1];
	int fd = open(last, O_RDONLY | O_CLOEXEC), r;

	r = fd < 0 ? -1 : aa_sync_fd(fd, AA_SYNC_FULL);
	if (r < 0)
		r = aa_error(d, AA_NOPOS, NULL, "cannot write the new objects: fsync %s: %s",
			     aa_qpath(last), strerror(errno));
	if (fd >= 0)
		close(fd);
	return r;
}

int aa_loose_end(aa_loose_set *set, int commit, aa_diags *d)
{
	size_t i, placed = 0;
	int r = 0;

	if (commit && set->n)
		r = flush_batch(set, d);
	while (commit && !r && placed < set->n) {
		if (rename(set->tmp[placed], set->final[placed]) < 0)
			r = aa_error(d, AA_NOPOS, NULL, "cannot write the new objects: rename to %s: %s",
				     aa_qpath(set->final[placed]), strerror(errno));
		else
			placed++;
	}
	for (i = 0; i < set->n; i++) {
		if (i >= placed && unlink(set->tmp[i]) < 0 && errno != ENOENT)
			aa_error(d, AA_NOPOS, NULL,
				 "a temporary file %s is left and could not be removed: %s",
				 aa_qpath(set->tmp[i]), strerror(errno));
		free(set->tmp[i]);
		free(set->final[i]);
	}
	free(set->tmp);
	free(set->final);
	memset(set, 0, sizeof(*set));
	return r < 0 ? AA_FATAL : 0;
}
