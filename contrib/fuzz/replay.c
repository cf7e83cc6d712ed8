/*
 * A main() for the fuzz targets without libFuzzer: runs the target once
 * over each file named on the command line (or each file in a named
 * directory). Lets any compiler (gcc, with or without sanitizers) replay
 * corpora and crash reproducers, e.g. for a short smoke run in CI.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		perror(path);
		return -1;
	}
	do {
		if (cap - len < 65536) {
			uint8_t *nb = realloc(buf, cap + 65536);

			if (!nb) {
				fclose(f);
				free(buf);
				return -1;
			}
			buf = nb;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	/* An exact-size copy, like libFuzzer's, so ASan sees over-reads. */
	{
		uint8_t *exact = malloc(len ? len : 1);

		if (!exact) {
			free(buf);
			return -1;
		}
		memcpy(exact, buf, len);
		free(buf);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	return 0;
}

static int run_path(const char *path)
{
	struct stat st;
	DIR *dir;
	struct dirent *e;
	int r = 0;

	if (stat(path, &st) < 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return run_file(path);
	dir = opendir(path);
	if (!dir) {
		perror(path);
		return -1;
	}
	while ((e = readdir(dir))) {
		char sub[4096];

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (run_path(sub) < 0)
			r = -1;
	}
	closedir(dir);
	return r;
}

int main(int argc, char **argv)
{
	int i, r = 0, n = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++, n++)
		if (run_path(argv[i]) < 0)
			r = 1;
	fprintf(stderr, "replayed %d path(s)%s\n", n, r ? " (with errors)" : "");
	return r;
}
