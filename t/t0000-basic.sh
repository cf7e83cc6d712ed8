#!/bin/sh

test_description='command line basics: usage, repository discovery, inputs without changes'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	make_repo repo
'

test_expect_success '-h prints usage and exits 0' '
	git ai-apply -h >out &&
	test_grep "usage: git ai-apply" out
'

test_expect_success 'unknown option is fatal (128) with usage' '
	test_expect_code 128 git -C repo ai-apply --no-such-option 2>err &&
	test_grep "unknown option" err &&
	test_grep "usage:" err
'

test_expect_success 'unknown format is fatal' '
	test_expect_code 128 git -C repo ai-apply --format=nope x 2>err &&
	test_grep "unknown format" err
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
