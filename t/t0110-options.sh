#!/bin/sh

test_description='the option table: unique prefixes, --no- forms, conflicts, the usage, and the completions and manual checked against the table'

. "$(dirname "$0")/test-lib.sh"

top="$AA_TEST_DIR/.."
manual="$top/Documentation/git-ai-apply.adoc"

test_expect_success 'setup' '
	make_repo repo &&
	cat >edit.diff <<-\EOF
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
'

# rejected ARGS...: the run exits as test_expect_code says, with the
# repository untouched (run in repo, with ../edit.diff as the answer).
rejected () {
	code=$1 && shift &&
	(
		cd repo &&
		repo_snapshot before &&
		test_expect_code "$code" git ai-apply "$@" >../out 2>../err &&
		repo_unchanged before
	)
}

test_expect_success 'a unique prefix is the option: --chec is --check' '
	(
		cd repo &&
		repo_snapshot check &&
		git ai-apply --chec ../edit.diff >../out &&
		repo_unchanged check
	) &&
	test_grep "^M a.txt" out
'

test_expect_success 'a unique prefix is the option: --cach is --cached' '
	test_when_finished "git -C repo reset -q --hard" &&
	git -C repo ai-apply --cach ../edit.diff &&
	git -C repo diff --cached --name-only >staged &&
	echo a.txt >expect &&
	test_cmp expect staged &&
	git -C repo diff --quiet HEAD
'

test_expect_success 'a value option by prefix: --bra=<name>, --bra <name>, --mess=<msg>' '
	git -C repo ai-apply --bra=topic-one --mess="subject one" ../edit.diff &&
	git -C repo log -1 --format=%s topic-one >subject &&
	echo "subject one" >expect &&
	test_cmp expect subject &&
	git -C repo ai-apply --bra topic-two ../edit.diff &&
	git -C repo rev-parse --verify -q refs/heads/topic-two &&
	git -C repo ai-apply --check --form=diff ../edit.diff
'

test_expect_success '--no- forms take a prefix too: --no-jso, --no-q' '
	git -C repo ai-apply --check --json --no-jso ../edit.diff >out &&
	test_grep "^M a.txt" out &&
	git -C repo ai-apply --check -q --no-q ../edit.diff >out &&
	test_grep "^M a.txt" out
'

test_expect_success 'an ambiguous prefix is a usage error naming every candidate (129)' '
	rejected 129 --c ../edit.diff &&
	head -n 1 err >first &&
	echo "error: ambiguous option: --c (could be --cached, --check or --color)" >expect &&
	test_cmp expect first &&
	test_grep "^usage: git ai-apply" err &&
	test_must_be_empty out
'

test_expect_success 'ambiguous --no- and value prefixes' '
	rejected 129 --no-s ../edit.diff &&
	test_grep "^error: ambiguous option: --no-s (could be --no-strict, --no-stat or --no-summary)\$" err &&
	rejected 129 --b=topic ../edit.diff &&
	test_grep "^error: ambiguous option: --b (could be --branch or --base)\$" err &&
	rejected 129 --n ../edit.diff &&
	test_grep "^error: ambiguous option: --n (could be --numstat, --no-each, " err
'

test_expect_success 'no option begins so: unknown (129)' '
	rejected 129 --xyz ../edit.diff &&
	test_grep "^error: unknown option .--xyz.\$" err &&
	rejected 129 --no-cach ../edit.diff &&
	test_grep "^error: unknown option .--no-cach.\$" err &&
	rejected 129 --no-cached ../edit.diff &&
	test_grep "^error: unknown option .--no-cached.\$" err &&
	rejected 129 --no-bra=x ../edit.diff &&
	test_grep "^error: unknown option .--no-bra=x.\$" err
'

test_expect_success 'a flag given a value, by prefix or in full, is unknown (129)' '
	rejected 129 --sta=3 ../edit.diff &&
	test_grep "^error: unknown option .--sta=3.\$" err &&
	rejected 129 --no-col=never ../edit.diff &&
	test_grep "^error: unknown option .--no-col=never.\$" err
'

test_expect_success 'a value option by prefix keeps its own errors' '
	rejected 129 --bra= ../edit.diff &&
	test_grep "^error: option .--branch. needs a branch name\$" err &&
	rejected 129 --mess= ../edit.diff &&
	test_grep "^error: option .-m. needs a message\$" err &&
	rejected 129 --col=sometimes ../edit.diff &&
	test_grep "^error: option .color. expects" err
'

test_expect_success 'short options are never prefixes: -mfoo and -qq are unknown' '
	rejected 129 -mfoo ../edit.diff &&
	test_grep "^error: unknown option .-mfoo.\$" err &&
	rejected 129 -qq ../edit.diff &&
	test_grep "^error: unknown option .-qq.\$" err
'

test_expect_success 'modes exclude each other, named in full whatever was typed (128)' '
	rejected 128 --cach --chec ../edit.diff &&
	test_grep "^fatal: options .--cached. and .--check. cannot be used together\$" err &&
	rejected 128 --chec --bra=x ../edit.diff &&
	test_grep "^fatal: options .--check. and .--branch. cannot be used together\$" err
'

test_expect_success 'conflicts are those of the options as the line ends' '
	rejected 128 --json --sta ../edit.diff &&
	test_grep "^fatal: options .--stat. and .--json. cannot be used together\$" err &&
	git -C repo ai-apply --json --no-json --stat ../edit.diff >out &&
	test_grep "a.txt | *2 +-" out &&
	git -C repo ai-apply --stat --no-stat --json --check ../edit.diff >out &&
	jq -e ".status == \"checked\"" out &&
	rejected 128 --chec --appl ../edit.diff &&
	test_grep "^fatal: options .--check. and .--apply. cannot be used together\$" err &&
	git -C repo ai-apply --apply --no-apply --check ../edit.diff
'

test_expect_success 'the command line'"'"'s own conflicts: --recover, --list, --review, -p with --json' '
	rejected 128 --rec ../edit.diff &&
	test_grep "^fatal: --recover takes no input and no landing option\$" err &&
	rejected 128 --li a b &&
	test_grep "^fatal: --list takes one pattern at most" err &&
	rejected 128 --revi --cach &&
	test_grep "^fatal: --review takes no input and no landing option\$" err &&
	rejected 128 --pat --json ../edit.diff &&
	test_grep "^fatal: --patch cannot be used with" err
'

test_expect_success 'report options: the pairs git apply takes go together, the others are named' '
	# git apply prints --stat, --numstat and --summary together; --diff follows
	git -C repo ai-apply --stat --numstat --summary --diff ../edit.diff >out &&
	test_grep "a.txt | *2 +-" out &&
	test_grep "^1	1	a.txt\$" out &&
	test_grep "^diff --git a/a.txt b/a.txt\$" out &&
	# -q silences them as git apply -q --stat; -v and --json go together
	git -C repo ai-apply -q --stat ../edit.diff >out &&
	test_must_be_empty out &&
	git -C repo ai-apply --check --json -v ../edit.diff >out 2>err &&
	jq -e ".status == \"checked\"" out &&
	test_grep "^Checking patch a.txt...\$" err &&
	for preview in --stat --numstat --summary --diff
	do
		rejected 128 --json $preview ../edit.diff &&
		test_grep "^fatal: options .$preview. and .--json. cannot be used together\$" err || return 1
	done &&
	for opt in --stat --numstat --summary --diff -v -R --include=x --exclude=x
	do
		name=$(echo "$opt" | sed -e "s/=.*//" -e "s/^-v\$/--verbose/" -e "s/^-R\$/--reverse/") &&
		rejected 128 --review $opt &&
		test_grep "^fatal: options .--review. and .$name. cannot be used together\$" err &&
		rejected 128 --list $opt &&
		test_grep "^fatal: options .--list. and .$name. cannot be used together\$" err &&
		rejected 128 --recover $opt &&
		test_grep "^fatal: options .--recover. and .$name. cannot be used together\$" err || return 1
	done
'

test_expect_success 'the library'"'"'s rules, said once even when two rules give them' '
	rejected 128 --3way --bra=x ../edit.diff &&
	test_grep "^fatal: --3way cannot be used with --branch" err &&
	rejected 128 -p --json --check ../edit.diff &&
	grep -c "^fatal: --patch cannot be used with" err >count &&
	echo 1 >expect &&
	test_cmp expect count &&
	rejected 128 --strict --form=v4a ../edit.diff &&
	test_grep "^fatal: --strict is the unified diff contract" err &&
	rejected 128 --each ../edit.diff &&
	test_grep "^fatal: --each needs --branch" err
'

test_expect_success '-h prints the usage generated from the table, as it always read' '
	cat >expect <<-\EOF &&
	usage: git ai-apply [--cached | --branch=<name> [--each] | --check] [--format=<name>]
	                    [--strict] [-p<n>] [--directory=<root>] [--base=<rev>] [-m <msg>]
	                    [--force] [--allow-delete] [--3way] [-p] [--stat] [--numstat]
	                    [--summary] [--diff] [--apply] [--json] [-q | -v] [-R]
	                    [--include=<pattern>] [--exclude=<pattern>] [-C <dir>] [<file>...]
	   or: git ai-apply --recover [-C <dir>]
	   or: git ai-apply --list [--json] [-C <dir>] [<pattern>]
	   or: git ai-apply --review [--json] [-C <dir>]
	   or: git ai-apply --undo [--check] [-q] [-C <dir>]
	   or: git ai-apply mcp [-C <dir>]

	    --cached           apply to the index only
	    --branch=<name>    commit the change on a new branch; index, work tree
	                       and HEAD stay untouched
	    --each             with --branch: each input on its own branch
	                       <name>-1, <name>-2, ... from the same base
	    --check            validate only; write nothing
	    --format=<name>    auto, companion, file-changes, aptix, ap, diff, v4a,
	                       search-replace, whole-file
	    --strict           enforce the unified diff contract exactly
	    --strip=<n>        a diff'"'"'s names lose <n> leading components
	                       (-p<n>, digits attached; -p alone is --patch)
	    --directory=<root>
	                       prepend <root> to every path of a diff
	    --include=<pattern>
	                       apply only the changes to paths matching <pattern>
	                       (git apply'"'"'s; any format)
	    --exclude=<pattern>
	                       leave out the changes to paths matching <pattern>
	    -R, --reverse      land the answer backwards (undo what it changes)
	    --base=<rev>       base commit for --branch (default HEAD)
	    -m <msg>           commit message for --branch
	    --force            replace an existing branch
	    --allow-delete     confirm deletions under --strict
	    -3, --3way         write a conflicting merge with conflict markers and
	                       index stages 1-3 instead of refusing (exit status 1)
	    -p, --patch        choose the hunks to land, as git add -p (answers
	                       on standard input, or the terminal when the answer
	                       comes on standard input)
	    --stat             preview: a diffstat of what would land (git apply'"'"'s)
	    --numstat          preview: added, removed and path, tab-separated
	    --summary          preview: creations, deletions, renames, mode changes
	    --diff             preview: the change as a git diff
	    --apply            with a preview option: land as well, and report
	    --json             report the landing (or --check) in JSON
	    --color[=<when>]   color the output: always, never or auto
	    -q, --quiet        no summary (the last of -q and -v counts)
	    -v, --verbose      each placement on standard error: file, input line,
	                       where it landed and how (exact, offset, whitespace, ...)
	    --recover          finish or undo a landing that was interrupted
	    --list             the suggestion branches, whether each merges into HEAD
	    --review           the staged AI change, tolerant placements marked
	    --undo             put back what the last staged landing changed
	                       (with --check: say what, write nothing)
	EOF
	test_expect_code 129 git ai-apply -h >actual &&
	test_cmp expect actual &&
	test_expect_code 129 git-ai-apply --he >actual &&
	test_cmp expect actual
'

test_expect_success '--version: one line "git ai-apply version <v>", exit 0, as git --version' '
	git ai-apply --version >out 2>err &&
	test_must_be_empty err &&
	test $(wc -l <out) -eq 1 &&
	grep -E "^git ai-apply version [^ ]+\$" out &&
	git -C repo ai-apply --vers >out2 &&
	test_cmp out out2 &&
	git-ai-apply --version >out3 &&
	test_cmp out out3
'

# The table's long options as --git-completion-helper lists them, one a
# line, without "=" and without the "--" separator.
table_options () {
	git ai-apply --git-completion-helper >helper &&
	tr " " "\n" <helper | sed "s/=\$//" | grep -v "^--\$" | sort
}

test_expect_success '--git-completion-helper: the options, then the --no- forms (exit 0)' '
	git ai-apply --git-completion-helper >helper &&
	test_grep "^--cached --branch= --each --check --format= " helper &&
	test_grep " --review --undo --help --version --no-each -- --no-strict " helper &&
	table_options >names &&
	test_grep "^--message\$" names &&
	test_grep "^--no-color\$" names &&
	! grep "git-completion-helper" names
'

# The "--name" words of the lines that end in "::" in the manual's
# OPTIONS section, one a line.
manual_options () {
	sed -n "/^OPTIONS\$/,/^LANDING\$/p" "$manual" |
	grep "^-.*::\$" | grep -o -- "--[a-z0-9][a-z0-9-]*" | sort -u
}

test_expect_success 'the manual documents every option of the table, and no other' '
	table_options >expect &&
	manual_options >actual &&
	test_cmp expect actual
'

test_expect_success 'the manual'"'"'s synopsis names options of the table only' '
	table_options >table &&
	sed -n "/^SYNOPSIS\$/,/^DESCRIPTION\$/p" "$manual" |
	grep -o -- "--[a-z0-9][a-z0-9-]*" | sort -u >synopsis &&
	test $(wc -l <synopsis) -gt 10 &&
	comm -23 synopsis table >unknown &&
	test_must_be_empty unknown
'

# The registry's formats in the order --format names them, without auto,
# one a line (from the message of an unknown --format).
registry_formats () {
	test_expect_code 129 git ai-apply --format=no-such-format >/dev/null 2>err &&
	sed -n "s/^error: unknown format .no-such-format. (\(.*\))\$/\1/p" err |
	tr -d " " | tr "," "\n" | grep -v "^auto\$"
}

formats_page="$top/Documentation/gitai-apply-formats.adoc"

test_expect_success 'the formats page has a section per format of the registry, in --format'"'"'s order' '
	registry_formats >expect &&
	test $(wc -l <expect) -ge 8 &&
	sed -n "s/^== //p" "$formats_page" >actual &&
	test_cmp expect actual
'

test_expect_success 'the manual'"'"'s --format entry names the registry'"'"'s formats, in order' '
	{ echo auto && registry_formats; } >expect &&
	sed -n "/^--format=<name>::\$/,/^\$/p" "$manual" | sed -n 2,3p |
	grep -o "\`[a-z0-9-]*\`" | tr -d "\`" >actual &&
	test_cmp expect actual
'

test_expect_success 'format-list.sh: each format of the registry, one line from its page' '
	sh "$top/Documentation/format-list.sh" "$top" >list &&
	sed -n "s/^\`\([a-z0-9-]*\)\`::\$/\1/p" list | sort >listed &&
	registry_formats | sort >expect &&
	test_cmp expect listed &&
	grep "^	" list >lines &&
	test $(wc -l <lines) -eq $(wc -l <expect) &&
	test_grep "^	Unified and git diffs; \`Documentation/format-diff.md\`.\$" lines
'

test_expect_success 'format-list.sh: a format without its page is an error naming it' '
	mkdir -p fake/src/format fake/Documentation &&
	cp "$top/src/format/registry.c" fake/src/format/ &&
	cp "$top"/Documentation/format-*.md fake/Documentation/ &&
	rm fake/Documentation/format-v4a.md &&
	test_must_fail sh "$top/Documentation/format-list.sh" fake >list 2>err &&
	test_grep "fake/Documentation/format-v4a.md: no title" err &&
	printf "# The v4a format\n" >fake/Documentation/format-v4a.md &&
	test_must_fail sh "$top/Documentation/format-list.sh" fake >list 2>err &&
	test_grep "format-v4a.md: no title" err
'

test_expect_success 'the zsh completion offers every option of the table, and no other' '
	table_options >table &&
	grep -v "^#" "$top/contrib/completion/_git-ai-apply" |
	grep -o -- "--[a-z0-9][a-z0-9-]*" | sort -u >zsh &&
	comm -23 zsh table >unknown &&
	test_must_be_empty unknown &&
	grep -v "^--no-" table >positive &&
	comm -23 positive zsh >missing &&
	test_must_be_empty missing
'

test_expect_success 'the bash completion asks the table' '
	test_grep "__gitcomp_builtin ai-apply" "$top/contrib/completion/git-ai-apply.bash"
'

git_completion=/usr/share/bash-completion/completions/git
if command -v bash >/dev/null 2>&1 && test -f "$git_completion"
then
	test_set_prereq COMPLETION
fi

test_expect_success COMPLETION 'bash offers the table'"'"'s options, --no-... for the rest' '
	bash -c "
		. \"\$1\" && . \"\$2\" &&
		cur=--
		COMP_WORDS=(git ai-apply \"\$cur\") && COMP_CWORD=2 &&
		_git_ai_apply &&
		printf \"%s\n\" \"\${COMPREPLY[@]}\"
	" complete "$git_completion" "$top/contrib/completion/git-ai-apply.bash" |
	sed "s/ *\$//" | sort >actual &&
	git ai-apply --git-completion-helper | tr " " "\n" |
	sed -n "/^--\$/q;p" >expect.list &&
	echo "--no-..." >>expect.list &&
	sort expect.list >expect &&
	test_cmp expect actual
'

test_done
