#!/bin/sh

test_description='start-up: the system CA bundle is neither read nor needed

libgit2 (Debian, mbedTLS) parses the CA bundle in git_libgit2_init; the
command replaces that parse with one that loads nothing (src/cli/no-ca-bundle.c).'

. "$(dirname "$0")/test-lib.sh"

if command -v strace >/dev/null 2>&1 &&
	strace -f -o /dev/null true 2>/dev/null
then
	test_set_prereq STRACE
fi

# A private mount namespace in which /etc/ssl/certs can be hidden.
if unshare -m sh -c 'mount -t tmpfs none /etc/ssl/certs' 2>/dev/null
then
	test_set_prereq HIDE_CERTS
fi

test_expect_success 'setup' '
	make_repo repo &&
	cat >change.diff <<-\EOF &&
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
	printf "one\nTWO\nthree\n" >expect
'

# (LeakSanitizer cannot run under ptrace: no leak check under strace.)
test_expect_success STRACE 'no file under /etc/ssl is opened' '
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -e trace=open,openat -o trace \
		git-ai-apply -C repo --check ../change.diff &&
	test_grep "change.diff" trace &&
	! grep "/etc/ssl" trace
'

test_expect_success HIDE_CERTS 'the command works with no CA bundle at all' '
	rm -rf work && cp -R repo work &&
	unshare -m sh -c "
		mount -t tmpfs none /etc/ssl/certs &&
		! test -e /etc/ssl/certs/ca-certificates.crt &&
		git -C work ai-apply ../change.diff
	" >out 2>err &&
	test_grep "^M a.txt" out &&
	(cd work && staged_as a.txt ../expect)
'

test_done
