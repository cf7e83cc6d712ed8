/* Owners of locks and journals (src/land/owner.h). */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "land/owner.h"

const char *aa_owner_host(void)
{
	static char host[256];
	static int known;
	size_t i;

	if (known)
		return host;
	if (gethostname(host, sizeof(host) - 1) < 0)
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	/* one word in the records */
	for (i = 0; host[i]; i++)
		if ((unsigned char)host[i] <= ' ' || host[i] == 0x7f)
			host[i] = '_';
	known = 1;
	return host;
}

int aa_owner_gone(long pid, const char *host)
{
	if (!host || strcmp(host, aa_owner_host()))
		return 0;
	if (pid <= 0)
		return 0;
	if (pid == (long)getpid())
		return 1;
	return !(kill((pid_t)pid, 0) == 0 || errno == EPERM);
}
