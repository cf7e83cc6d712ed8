/* The test-only hook, for the steps of a landing the suite interrupts. */
#ifndef AA_UTIL_TESTHOOK_H
#define AA_UTIL_TESTHOOK_H

/*
 * The test-only hook (AA_TEST_HOOK=<step>[#n]:kill|pause:<file>): at the
 * n-th time (default 1st) the landing reaches `step`, raise SIGKILL, or
 * create <file>.waiting and wait until <file> exists.
 */
void aa_test_hook(const char *step);

#endif
