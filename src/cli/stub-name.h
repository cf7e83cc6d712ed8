/*
 * AA_STUB(name): the name under which a no-*.c file replaces a library
 * function.
 *
 * In the shared build (make DYNAMIC=1, the sanitizer build) the function
 * is defined under its own name: the executable comes first in the
 * dynamic linker's search order, so a shared library's call binds to it.
 * In the static build the library's archive member that defines the
 * function is linked too (for its other functions), so the same name
 * would be defined twice; there the Makefile links with
 * -Wl,--wrap=<name>, which sends every call to __wrap_<name>, and the
 * replacement is defined under that name (AA_STATIC_LINK is set).
 */
#ifndef AA_CLI_STUB_NAME_H
#define AA_CLI_STUB_NAME_H

#ifdef AA_STATIC_LINK
#define AA_STUB(name) __wrap_##name
#else
#define AA_STUB(name) name
#endif

#endif
