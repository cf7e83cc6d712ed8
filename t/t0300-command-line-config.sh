#!/bin/sh

test_description='git -c <name>=<value> ai-apply: the command line configuration counts, above the files'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	make_repo repo &&
	printf "%s\n" "--- START-REPLACE-FILE: a.txt ---" one TWO three \
		"--- END-REPLACE-FILE: a.txt ---" >answer.md
'

test_expect_success 'git -c color.ui=always colors a pipe, over the repository.s color.ui=never' '
	git -C repo config color.ui never &&
	git -C repo -c color.ui=always ai-apply --check --diff ../answer.md >out &&
	test_grep "$(printf "\033")\[1mdiff --git" out &&
	git -C repo ai-apply --check --diff ../answer.md >out &&
	! grep "$(printf "\033")" out
'

test_expect_success 'git -c user.name/user.email name the --branch commit' '
	(
		# as git: the environment would win over any configuration
		unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL \
			GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL &&
		git -C repo -c user.name="Ada Lovelace" -c user.email=ada@example.com \
			ai-apply --branch=by-ada ../answer.md
	) &&
	git -C repo log -1 --format="%an <%ae>" by-ada >actual &&
	echo "Ada Lovelace <ada@example.com>" >expect &&
	test_cmp expect actual
'

test_expect_success 'GIT_CONFIG_COUNT settings count too' '
	GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=color.ui GIT_CONFIG_VALUE_0=always \
		git -C repo ai-apply --check --diff ../answer.md >out &&
	test_grep "$(printf "\033")\[1mdiff --git" out
'

test_expect_success 'a malformed GIT_CONFIG_PARAMETERS is fatal (128) and writes nothing' '
	(
		cd repo &&
		repo_snapshot bogus &&
		test_expect_code 128 env GIT_CONFIG_PARAMETERS="'"'"'color.ui" \
			"$AA_BUILD_DIR/git-ai-apply" ../answer.md 2>../err &&
		repo_unchanged bogus
	) &&
	test_grep "fatal: unterminated quote in GIT_CONFIG_PARAMETERS" err
'

test_done
