#!/bin/sh

test_description='--json prints a report with a status for every failure, the exit status unchanged'

. "$(dirname "$0")/test-lib.sh"

# json_fatal FILE PATTERN: FILE is one JSON report, status "fatal", with
# an error whose message matches PATTERN.
json_fatal () {
	jq -e ".status == \"fatal\"" "$1" >/dev/null &&
	jq -r ".errors[].message" "$1" >"$1.msgs" &&
	test_grep "$2" "$1.msgs"
}

test_expect_success 'setup' '
	make_repo repo &&
	cat >answer.md <<-\EOF
	--- START-REPLACE-FILE: a.txt ---
	changed
	--- END-REPLACE-FILE: a.txt ---
	EOF
'

test_expect_success '--json: a missing input is a fatal report' '
	(
		cd repo &&
		repo_snapshot missing &&
		test_expect_code 128 git ai-apply --json missing.md >../out 2>../err &&
		repo_unchanged missing
	) &&
	json_fatal out "cannot open .missing.md." &&
	test_grep "^fatal: cannot open .missing.md." err
'

test_expect_success '--json: not a repository is a fatal report' '
	norepo=$(mktemp -d) &&
	test_when_finished "rm -rf \"$norepo\"" &&
	cp answer.md "$norepo/answer.md" &&
	(
		cd "$norepo" &&
		GIT_CEILING_DIRECTORIES=$(dirname "$norepo") &&
		export GIT_CEILING_DIRECTORIES &&
		test_expect_code 128 git-ai-apply --json answer.md >out 2>err
	) &&
	json_fatal "$norepo/out" "not a git repository" &&
	test_grep "^fatal: not a git repository" "$norepo/err"
'

test_expect_success '--json: -C to a missing directory is a fatal report' '
	test_expect_code 128 git ai-apply -C no-such-dir --json answer.md >out 2>err &&
	json_fatal out "cannot change to .no-such-dir."
'

test_expect_success '--json: options that cannot go together, --json given after them' '
	test_expect_code 128 git -C repo ai-apply --cached --check --json ../answer.md >out 2>err &&
	json_fatal out "options .--cached. and .--check. cannot be used together" &&
	test_grep "^fatal: options" err &&
	test_expect_code 128 git -C repo ai-apply --base=HEAD --json ../answer.md >out 2>err &&
	json_fatal out "need --branch"
'

test_expect_success '--json: a held index.lock is a fatal report' '
	(
		cd repo &&
		>.git/index.lock &&
		test_when_finished "rm -f .git/index.lock" &&
		repo_snapshot locked &&
		test_expect_code 128 git ai-apply --json ../answer.md >../out 2>../err &&
		repo_unchanged locked
	) &&
	json_fatal out "index.lock"
'

test_expect_success '--json: a bad --base is a fatal report' '
	(
		cd repo &&
		repo_snapshot badbase &&
		test_expect_code 128 git ai-apply --json --branch=s --base=nope ../answer.md >../out 2>../err &&
		repo_unchanged badbase
	) &&
	json_fatal out "nope" &&
	jq -e ".mode == \"branch\"" out
'

test_expect_success 'usage errors stay plain text with the usage (129)' '
	test_expect_code 129 git -C repo ai-apply --json --bogus ../answer.md >out 2>err &&
	test_must_be_empty out &&
	test_grep "unknown option" err &&
	test_grep "^usage: " err
'

test_done
