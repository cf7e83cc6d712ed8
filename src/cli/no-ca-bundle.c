/*
 * Start-up: keep libgit2 from parsing the system CA bundle.
 *
 * Debian's libgit2 1.5 is built with mbedTLS, and git_libgit2_init()
 * loads /etc/ssl/certs/ca-certificates.crt into the TLS configuration
 * (about 140 certificates, 7-15 ms: most of a small run). There is no
 * option to turn it off. This command never opens a network connection
 * (it calls no remote, fetch, push or clone API), so the certificates are
 * never used.
 *
 * This file is linked into the git-ai-apply executable only, never into
 * libaiapply.a. Its definition takes the place of mbedTLS's for the
 * whole process (the executable comes first in the dynamic linker's
 * search order; in the static build through -Wl,--wrap, see
 * stub-name.h), and loads nothing. It is safe because:
 *  - libgit2 calls it only from its TLS set-up (at init, and for
 *    GIT_OPT_SET_SSL_CERT_LOCATIONS, which we never set);
 *  - it fails closed: the trust chain stays empty, so a TLS connection,
 *    were one ever made, would fail certificate verification rather than
 *    trust anybody;
 *  - with a libgit2 built on another TLS backend it is simply never
 *    called.
 * t/t0210-startup.sh checks that the bundle is not read and that the
 * command works without one.
 */

#include "cli/stub-name.h"

struct mbedtls_x509_crt;

int AA_STUB(mbedtls_x509_crt_parse_file)(struct mbedtls_x509_crt *chain,
					 const char *path);

int AA_STUB(mbedtls_x509_crt_parse_file)(struct mbedtls_x509_crt *chain,
					 const char *path)
{
	(void)chain;
	(void)path;
	return 0;	/* "parsed, no certificate": nothing is trusted */
}
