#!/bin/sh

test_description='command line basics: usage, repository discovery, inputs without changes'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	make_repo repo
'

test_expect_success '-h prints usage to stdout and exits 129, as git' '
	test_expect_code 129 git ai-apply -h >out 2>err &&
	test_grep "usage: git ai-apply" out &&
	test_must_be_empty err
'

test_expect_success 'an unknown option is a usage error (129): the error, then the usage' '
	test_expect_code 129 git -C repo ai-apply --no-such-option 2>err &&
	test_grep "^error: unknown option" err &&
	test_grep "usage:" err
'

test_expect_success 'a bad value is a usage error (129)' '
	test_expect_code 129 git -C repo ai-apply --format=nope x 2>err &&
	test_grep "^error: unknown format" err &&
	test_grep "usage:" err &&
	test_expect_code 129 git -C repo ai-apply --branch 2>err &&
	test_grep "^error: option .--branch. needs a branch name" err &&
	test_expect_code 129 git -C repo ai-apply --branch=b -m "" x 2>err &&
	test_grep "^error: option .-m. needs a message" err
'

test_expect_success '--no-<option> undoes the option, as in git' '
	cat >noop.diff <<-\EOF &&
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
	git -C repo ai-apply --check --json --no-json ../noop.diff >out &&
	test_grep "^M a.txt" out &&
	git -C repo ai-apply --check --stat --no-json ../noop.diff >out &&
	test_grep "a.txt | *2 +-" out &&
	git -C repo ai-apply --check -q --no-quiet ../noop.diff >out &&
	test_grep "^M a.txt" out &&
	test_expect_code 129 git -C repo ai-apply --no-such ../noop.diff 2>err
'

test_expect_success 'landing modes are exclusive' '
	test_expect_code 128 git -C repo ai-apply --cached --check x 2>err &&
	test_grep "cannot be used together" err &&
	test_expect_code 128 git -C repo ai-apply --branch=b --cached x 2>err &&
	test_grep "cannot be used together" err
'

test_expect_success '--base, -m and --force need --branch' '
	test_expect_code 128 git -C repo ai-apply --base=HEAD x 2>err &&
	test_grep "need --branch" err &&
	test_expect_code 128 git -C repo ai-apply -m msg x 2>err &&
	test_expect_code 128 git -C repo ai-apply --force x 2>err
'

test_expect_success 'outside a repository: fatal with a clear message' '
	norepo=$(mktemp -d) &&
	test_when_finished "rm -rf \"$norepo\"" &&
	echo hi >"$norepo/answer" &&
	(
		cd "$norepo" &&
		GIT_CEILING_DIRECTORIES=$(dirname "$norepo") &&
		export GIT_CEILING_DIRECTORIES &&
		test_expect_code 128 git-ai-apply answer 2>err &&
		test_grep "not a git repository" err
	)
'

test_expect_success 'unreadable input is fatal' '
	test_expect_code 128 git -C repo ai-apply does-not-exist 2>err &&
	test_grep "cannot open .does-not-exist." err
'

test_expect_success 'prose only: rejected, nothing written' '
	printf "Sure! Here is what I would change.\nNothing else.\n" >prose &&
	(
		cd repo &&
		test_rejected ../prose &&
		test_grep "no change found" err
	)
'

test_expect_success 'empty input (stdin): rejected, nothing written' '
	(
		cd repo &&
		test_rejected </dev/null &&
		test_grep "no change found" err &&
		test_grep "<stdin>" err
	)
'

test_expect_success 'random bytes: rejected, nothing written, no crash' '
	printf "\000\001\377\376garbage\000\n\033[31m" >garbage &&
	(
		cd repo &&
		test_rejected ../garbage
	)
'
test_done
