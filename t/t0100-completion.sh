#!/bin/sh

test_description='contrib/completion: bash completion on top of git'"'"'s'

. "$(dirname "$0")/test-lib.sh"

git_completion=/usr/share/bash-completion/completions/git
ours="$AA_TEST_DIR/../contrib/completion/git-ai-apply.bash"

if command -v bash >/dev/null 2>&1 && test -f "$git_completion"
then
	test_set_prereq COMPLETION
fi

# complete WORD: what "git ai-apply WORD<TAB>" offers, one a line.
complete () {
	bash -c '
		. "$1" && . "$2" &&
		cur=$3 &&
		COMP_WORDS=(git ai-apply "$cur") && COMP_CWORD=2 &&
		_git_ai_apply &&
		printf "%s\n" "${COMPREPLY[@]}"
	' complete "$git_completion" "$ours" "$1" | sed "s/ *\$//"
}

test_expect_success COMPLETION 'options' '
	complete --br >actual &&
	echo --branch= >expect &&
	test_cmp expect actual &&
	complete --st >actual &&
	printf "%s\n" --strict --stat >expect &&
	sort expect >expect.sorted && sort actual >actual.sorted &&
	test_cmp expect.sorted actual.sorted
'

test_expect_success COMPLETION '--3way is offered' '
	complete --3 >actual &&
	echo --3way >expect &&
	test_cmp expect actual
'

test_expect_success COMPLETION 'format names' '
	complete --format=a >actual &&
	printf "%s\n" auto aptix ap | sort >expect &&
	sort actual >actual.sorted &&
	test_cmp expect actual.sorted
'

test_expect_success COMPLETION 'answer files' '
	: >answer-one.md && : >answer-two.md &&
	complete answer- >actual &&
	printf "%s\n" answer-one.md answer-two.md >expect &&
	sort actual >actual.sorted &&
	test_cmp expect actual.sorted
'

test_done
