/*
 * The test-only hook (testhook.h): lets the test suite kill or pause a
 * run at a named step. Every stage that has such a step calls it.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "aiapply/common.h"
#include "util/testhook.h"

static void hook_pause(const char *file)
{
	aa_buf waiting = AA_BUF_INIT;
	int i, fd;

	if (aa_buf_printf(&waiting, "%s.waiting", file) == 0) {
		fd = open(waiting.ptr, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
		if (fd >= 0)
			close(fd);
	}
	aa_buf_free(&waiting);
	for (i = 0; i < 6000 && access(file, F_OK) != 0; i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
}

void aa_test_hook(const char *step)
{
	static unsigned long hits;
	const char *h = getenv("AA_TEST_HOOK"), *colon, *hash;
	size_t len = strlen(step);
	unsigned long want = 1;

	if (!h || !(colon = strchr(h, ':')))
		return;
	hash = memchr(h, '#', (size_t)(colon - h));
	if ((size_t)((hash ? hash : colon) - h) != len || strncmp(h, step, len))
		return;
	if (hash)
		want = strtoul(hash + 1, NULL, 10);
	if (++hits != want)
		return;
	if (!strcmp(colon + 1, "kill"))
		raise(SIGKILL);
	else if (!strncmp(colon + 1, "pause:", 6))
		hook_pause(colon + 7);
}
