#!/bin/sh

test_description='the binary'"'"'s linkage: static where the archives are

Where libgit2.a is installed the command links the static archives
(Makefile STATIC_ORDER), and the dynamic loader has only the C library to
bring in; make DYNAMIC=1 and the sanitizer build link the shared
libraries. Either way the start-up neither parses the CA bundle, starts
libssh2'"'"'s OpenSSL nor runs mbedTLS'"'"'s HAVEGE (src/cli/no-*.c), and the
command works.'

. "$(dirname "$0")/test-lib.sh"

top=$(cd "$AA_TEST_DIR/.." && pwd)
bin="$AA_BUILD_DIR/git-ai-apply"
CC=${CC:-cc}

command -v readelf >/dev/null 2>&1 && test_set_prereq READELF
command -v make >/dev/null 2>&1 && test -f "$top/Makefile" &&
	test_set_prereq MAKE
if command -v strace >/dev/null 2>&1 &&
	strace -f -o /dev/null true 2>/dev/null
then
	test_set_prereq STRACE
fi
# The build under test was linked statically (the Makefile compiles with
# -DAA_STATIC_LINK then and records its flags in build-flags).
grep -q -e "-DAA_STATIC_LINK" "$AA_BUILD_DIR/build-flags" 2>/dev/null &&
	test_set_prereq STATIC_BUILD
# libgit2.a is installed: the default build links statically.
case $("$CC" -print-file-name=libgit2.a 2>/dev/null) in
/*) test_set_prereq HAVE_ARCHIVES ;;
esac

# needed FILE: the shared objects FILE names in its dynamic section.
needed () {
	readelf -d "$1" | sed -n "s/.*(NEEDED).*\[\(.*\)\]$/\1/p"
}

# make_dry ARGS: the link command make would run for a build into a
# fresh directory (nothing is built). The directory is outside the trash
# directory, whose name has a space make would not keep.
dry="$AA_BUILD_DIR/trash/t0140-build-linkage.dry"
make_dry () {
	rm -rf "$dry" &&
	# (make SANITIZE=1 test-run exports SANITIZE to us: not wanted here)
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u SANITIZE -u DYNAMIC \
		-u SHARED make -C "$top" -n \
		--no-print-directory B="$dry" "$@" "$dry/git-ai-apply" >dry-run &&
	grep -e "-o $dry/git-ai-apply " dry-run
}

test_expect_success 'setup' '
	make_repo repo &&
	cat >change.diff <<-\EOF
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
'

test_expect_success READELF,STATIC_BUILD 'the static build needs the C library and no other (but a library without an archive)' '
	needed "$bin" >libs &&
	test_grep "^libc\.so" libs &&
	# Debian 12 packages no libcjson.a: the one shared library allowed
	# beside the C library is one whose archive is missing.
	while read -r lib
	do
		case $lib in
		libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*)
			continue ;;
		esac &&
		name=${lib%%.so*} &&
		case $("$CC" -print-file-name=$name.a) in
		/*) echo "linked shared though $name.a is installed: $lib" ;;
		esac || return 1
	done <libs >wrong &&
	test_must_be_empty wrong &&
	! grep -e "^libgit2" -e "^libgssapi" -e "^libkrb5" -e "^libcrypto" \
		-e "^libssh2" -e "^libmbed" libs
'

test_expect_success READELF,STATIC_BUILD 'the replaced start-up functions are the ones linked' '
	readelf -sW "$bin" >syms &&
	test_grep " __wrap_libssh2_init$" syms &&
	test_grep " __wrap_mbedtls_x509_crt_parse_file$" syms &&
	test_grep " __wrap_mbedtls_havege_init$" syms &&
	test_grep " __wrap_mbedtls_havege_poll$" syms &&
	test_grep " gss_init_sec_context$" syms
'

test_expect_success READELF,!STATIC_BUILD 'the shared build loads libgit2' '
	needed "$bin" >libs &&
	test_grep "^libgit2" libs
'

test_expect_success MAKE,HAVE_ARCHIVES 'make DYNAMIC=1 links the shared libraries' '
	make_dry DYNAMIC=1 >link &&
	test_grep -e "-lgit2" link &&
	! grep -e "libgit2\.a" -e "--wrap" -e "no-gssapi" link
'

test_expect_success MAKE,HAVE_ARCHIVES 'make SHARED=1 says the same as DYNAMIC=1' '
	make_dry SHARED=1 >link &&
	test_grep -e "-lgit2" link &&
	! grep -e "libgit2\.a" link
'

test_expect_success MAKE,HAVE_ARCHIVES 'the default link takes the archives and the replacements' '
	make_dry >link &&
	test_grep -e "libgit2\.a" link &&
	test_grep -e "--wrap=libssh2_init" link &&
	test_grep -e "--wrap=mbedtls_x509_crt_parse_file" link &&
	test_grep -e "no-gssapi\.o" link
'

# (LeakSanitizer cannot run under ptrace: no leak check under strace.)
test_expect_success STRACE 'the start-up reads no TLS or Kerberos configuration' '
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -e trace=open,openat -o trace \
		git-ai-apply -C repo --check ../change.diff &&
	test_grep "change.diff" trace &&
	! grep -e "openssl\.cnf" -e "/etc/ssl" -e "krb5\.conf" trace
'

test_expect_success 'the command lands a change' '
	git -C repo ai-apply ../change.diff >out &&
	test_grep "^M a.txt" out &&
	printf "one\nTWO\nthree\n" >expect &&
	(cd repo && staged_as a.txt ../expect)
'

test_done
