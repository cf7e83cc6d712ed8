#!/bin/sh

test_description='--color, --no-color and the color configuration'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	make_repo repo
'

test_expect_success '--color takes always, never, auto or a boolean' '
	for w in always never auto true false
	do
		git -C repo ai-apply --color=$w --list 2>err ||
		{ cat err; return 1; }
	done &&
	git -C repo ai-apply --color --no-color --list
'

test_expect_success 'a bad --color value is a usage error (129)' '
	test_expect_code 129 git -C repo ai-apply --color=sometimes 2>err &&
	test_grep "^error: option .color. expects" err &&
	test_grep "sometimes" err &&
	test_grep "usage:" err
'

test_expect_success '--help names the option' '
	test_expect_code 129 git ai-apply -h >out &&
	test_grep -F -e "--color[=<when>]" out
'

test_done
