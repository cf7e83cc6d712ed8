/* Writing files whole, and making them durable (util.h). */
#define _GNU_SOURCE /* sync_file_range */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

int aa_write_all(int fd, const void *p, size_t len)
{
	const char *s = p;

	while (len) {
		ssize_t n = write(fd, s, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

int aa_sync_fd(int fd, aa_sync how)
{
	int r;

	if (how == AA_SYNC_NONE)
		return 0;
#ifdef SYNC_FILE_RANGE_WRITE
	/* git's writeout-only: the whole file written out, waited for */
	if (how == AA_SYNC_WRITEOUT &&
	    sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE |
			    SYNC_FILE_RANGE_WRITE |
			    SYNC_FILE_RANGE_WAIT_AFTER) == 0)
		return 0;
#endif
	do
		r = fsync(fd);
	while (r < 0 && errno == EINTR);
	return r;
}

int aa_sync_dir(const char *dir, aa_sync how)
{
	int fd, r;

	if (how == AA_SYNC_NONE)
		return 0;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	r = aa_sync_fd(fd, how);
	if (close(fd) < 0)
		r = -1;
	return r;
}

int aa_sync_dir_of(const char *path, aa_sync how)
{
	const char *slash = strrchr(path, '/');
	aa_buf dir = AA_BUF_INIT;
	int r = -1;

	if (how == AA_SYNC_NONE)
		return 0;
	if (aa_buf_put(&dir, path, slash ? (size_t)(slash - path) + 1 : 0) >= 0 &&
	    aa_buf_puts(&dir, ".") >= 0)
		r = aa_sync_dir(dir.ptr, how);
	aa_buf_free(&dir);
	return r;
}

int aa_fsync_dir(const char *dir)
{
	return aa_sync_dir(dir, AA_SYNC_FULL);
}

int aa_fsync_dir_of(const char *path)
{
	return aa_sync_dir_of(path, AA_SYNC_FULL);
}

int aa_replace_file(int fd, const char *tmp, const void *data, size_t len,
		    const char *path, aa_sync how)
{
	int e;

	if (fd >= 0 && aa_write_all(fd, data, len) == 0 &&
	    aa_sync_fd(fd, how) == 0) {
		int closed = close(fd);

		fd = -1;
		if (closed == 0 && rename(tmp, path) == 0 &&
		    aa_sync_dir_of(path, how) == 0)
			return 0;
	}
	e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	errno = e;
	return -1;
}

int aa_read_all(int fd, aa_buf *out)
{
	char chunk[65536];
	ssize_t n;

	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		if (aa_buf_put(out, chunk, (size_t)n) < 0) {
			errno = ENOMEM;
			return -1;
		}
	}
}
