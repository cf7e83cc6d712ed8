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
	printf "%s\n" --strict --strip= --stat >expect &&
	sort expect >expect.sorted && sort actual >actual.sorted &&
	test_cmp expect.sorted actual.sorted
'

test_expect_success COMPLETION '--each and --list are offered' '
	complete --ea >actual &&
	echo --each >expect &&
	test_cmp expect actual &&
	complete --li >actual &&
	echo --list >expect &&
	test_cmp expect actual
'

test_expect_success COMPLETION '--3way is offered' '
	complete --3 >actual &&
	echo --3way >expect &&
	test_cmp expect actual
'

test_expect_success COMPLETION '--patch is offered' '
	complete --pa >actual &&
	echo --patch >expect &&
	test_cmp expect actual
'

test_expect_success COMPLETION 'format names' '
	complete --format=a >actual &&
	printf "%s\n" auto aptix ap | sort >expect &&
	sort actual >actual.sorted &&
	test_cmp expect actual.sorted
'

# The format names, one a line: from the registry (through the usage
# error), from the completion script and from the manual.
registry_formats () {
	test_expect_code 129 git ai-apply --format=/ 2>err &&
	sed -n "s/^error: unknown format .* (\(.*\))\$/\1/p" err |
	sed "s/, /\n/g"
}

test_expect_success 'the completion offers the registry'"'"'s formats' '
	registry_formats >expect &&
	test $(wc -l <expect) -gt 5 &&
	sed -n "/--format=\*)/,/return/s/.*__gitcomp \"\([^\"]*\)\".*/\1/p" \
		"$ours" | tr " " "\n" >actual &&
	test_cmp expect actual
'

test_expect_success 'the zsh completion offers the registry'"'"'s formats' '
	registry_formats >expect &&
	sed -n "s/.*--format=.*:format:(\([^)]*\)).*/\1/p" \
		"$AA_TEST_DIR/../contrib/completion/_git-ai-apply" |
	tr " " "\n" >actual &&
	test_cmp expect actual
'

test_expect_success 'the manual lists the registry'"'"'s formats' '
	registry_formats >expect &&
	manual="$AA_TEST_DIR/../Documentation/git-ai-apply.adoc" &&
	sed -n "/^--format=<name>::/,/\.\$/p" "$manual" |
	sed 1d | grep -o "\`[a-z0-9-]*\`" | tr -d "\`" >actual &&
	test_cmp expect actual
'

test_expect_success COMPLETION 'answer files' '
	: >answer-one.md && : >answer-two.md &&
	complete answer- >actual &&
	printf "%s\n" answer-one.md answer-two.md >expect &&
	sort actual >actual.sorted &&
	test_cmp expect actual.sorted
'

test_done
