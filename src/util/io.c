/* Writing a whole buffer (util.h). */
#include <errno.h>
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
