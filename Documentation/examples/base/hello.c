#include <stdio.h>

static void greet(const char *name)
{
	printf("Hello, %s\n", name);
}

int main(int argc, char **argv)
{
	greet(argc > 1 ? argv[1] : "world");
	return 0;
}
