/*
 * Start-up: keep libgit2 from starting libssh2's cryptography.
 *
 * git_libgit2_init() calls libssh2_init(0), and Debian's libssh2 is
 * built on OpenSSL: that call initialises libcrypto (its configuration,
 * error strings and algorithm tables), about 0.26 ms of every run. This
 * command never opens an SSH connection (it calls no remote, fetch, push
 * or clone API).
 *
 * Linked into the git-ai-apply executable only, never into libaiapply.a
 * (see stub-name.h for how it takes libssh2_init's place). It is safe
 * because libssh2 starts itself when a session is created
 * (libssh2_session_init_ex calls its own _libssh2_init_if_needed): were
 * SSH ever used, it would start then, as a program that never calls
 * libssh2_init does. libssh2_exit, which libgit2 registers for its
 * shutdown, does nothing when libssh2 was never started.
 */

#include "cli/stub-name.h"

int AA_STUB(libssh2_init)(int flags);

int AA_STUB(libssh2_init)(int flags)
{
	(void)flags;
	return 0;	/* "started": libssh2 starts itself when used */
}
