#include <stdio.h>
int main(void) { fputs("git ai-apply: not built yet\n", stderr); return 128; }
