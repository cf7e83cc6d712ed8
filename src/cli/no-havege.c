/*
 * Start-up: keep mbedTLS from running HAVEGE.
 *
 * git_libgit2_init() sets up libgit2's TLS configuration, which seeds a
 * random generator from mbedTLS's entropy sources. Debian's mbedTLS 2.28
 * is built with MBEDTLS_HAVEGE_C, so one of those sources is HAVEGE: a
 * generator that times a long run of its own code (havege_fill,
 * mbedtls_timing_hardclock) at initialisation. It costs about 0.45 ms of
 * every run, most of what git_libgit2_init() has left to do; mbedTLS 3
 * removed it as unsound.
 *
 * Linked into the git-ai-apply executable only, never into libaiapply.a
 * (stub-name.h: how it takes mbedTLS's place). mbedtls_havege_init sets
 * nothing up, and the source HAVEGE was delivers bytes from the kernel's
 * generator (getrandom) instead, so the entropy gathering, which waits
 * for every strong source to deliver, still ends; the kernel's generator
 * is mbedTLS's platform source already, and the only source mbedTLS 3
 * keeps. The generator is used by TLS alone, which this command never
 * opens (it calls no remote, fetch, push or clone API).
 */
#include <stddef.h>
#include <errno.h>
#include <sys/random.h>

#include "cli/stub-name.h"

/* mbedtls/entropy.h: MBEDTLS_ERR_ENTROPY_SOURCE_FAILED */
#define AA_ENTROPY_SOURCE_FAILED (-0x003C)

void AA_STUB(mbedtls_havege_init)(void *state);
int AA_STUB(mbedtls_havege_poll)(void *state, unsigned char *out,
				 size_t len, size_t *olen);

void AA_STUB(mbedtls_havege_init)(void *state)
{
	(void)state;	/* never read: the poll below does not use it */
}

int AA_STUB(mbedtls_havege_poll)(void *state, unsigned char *out,
				 size_t len, size_t *olen)
{
	size_t got = 0;

	(void)state;
	*olen = 0;
	while (got < len) {
		ssize_t n = getrandom(out + got, len - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return AA_ENTROPY_SOURCE_FAILED;
		got += (size_t)n;
	}
	*olen = len;
	return 0;
}
