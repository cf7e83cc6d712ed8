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

esc=$(printf "\033")

# An answer whose hunks have a function context, a removed and an added
# line, trailing blanks, a space before a tab, a carriage return, a last
# line without a newline and blank lines added at the end of a file:
# every way git colors a hunk line.
test_expect_success 'setup: an answer for every kind of diff line' '
	git init -q c &&
	(
		cd c &&
		printf "int f(void)\n{\n\ta;\n\tb;\n\tc;\n\td;\n}\n" >a.c &&
		printf "x\n" >b &&
		printf "k\r\n" >crlf &&
		printf "x\n" >e &&
		git add . &&
		git commit -q -m initial &&
		git tag base &&
		printf "int f(void)\n{\n\ta;\n\tb;\n\tC;  \n \td;\n}\n" >a.c &&
		printf "y" >b &&
		printf "K\r\n" >crlf &&
		printf "new\n\n" >n &&
		printf "x\n\n  \r\n" >e &&
		git add -N n &&
		git diff >../every.diff &&
		git reset -q --hard base &&
		rm -f n
	)
'

test_expect_success '--diff --color=always: the hunks as git diff --color=always' '
	(
		cd c &&
		git ai-apply --cached --apply --diff --color=always ../every.diff >../out &&
		git diff --cached --color=always >../git.out &&
		git reset -q --hard base && rm -f n
	) &&
	# ai-apply --diff has no "index" lines (Documentation/output.md, "Color"); all else the same
	grep -v "^${esc}\[1mindex " git.out >expect &&
	test_cmp expect out &&
	test_decode_color <out >decoded &&
	test_grep "^<CYAN>@@ -2,6 +2,6 @@<RESET> <RESET>int f(void)<RESET>\$" decoded &&
	test_grep "^<RED>-	c;<RESET>\$" decoded &&
	test_grep "^<GREEN>+<RESET>	<GREEN>C;<RESET><BRED>  <RESET>\$" decoded &&
	test_grep "^<GREEN>+<RESET><BRED> <RESET>	<GREEN>d;<RESET>\$" decoded &&
	test_grep "^<BOLD>diff --git a/a.c b/a.c<RESET>\$" decoded &&
	test_grep "^<BRED>+  <RESET>.\$" decoded &&
	test_grep "^ {<RESET>\$" decoded
'

test_expect_success '--stat --color=always: the graph as git diff --stat colors it' '
	(
		cd c &&
		git ai-apply --cached --apply --stat --color=always ../every.diff >../out &&
		git reset -q --hard base && rm -f n &&
		git ai-apply --cached --color=always ../every.diff >../summary &&
		git reset -q --hard base && rm -f n
	) &&
	test_grep "^M a.c (+2 -2)\$" summary &&
	test_decode_color <out >decoded &&
	test_grep "^ a.c  *| *4 <GREEN>++<RESET><RED>--<RESET>\$" decoded &&
	test_grep "^ n  *| *2 <GREEN>++<RESET>\$" decoded &&
	! grep "$esc" summary
'

test_expect_success '--diff into a pipe: no color by default' '
	(
		cd c &&
		git ai-apply --cached --apply --diff ../every.diff >../out &&
		git reset -q --hard base && rm -f n
	) &&
	test_grep "^+	C;  \$" out &&
	! grep "$esc" out
'

test_expect_success '--json is never colored' '
	(
		cd c &&
		git ai-apply --cached --json --color=always ../every.diff >../out &&
		git reset -q --hard base && rm -f n
	) &&
	test_grep "\"status\"" out &&
	! grep "$esc" out
'

# diff_colored [KEY=VALUE...]: run --cached --diff in c with these
# settings in c's configuration (git ai-apply reads the configuration
# through libgit2, which does not see "git -c"), reset and unset after;
# true when the output holds an escape sequence.
diff_colored () {
	for kv
	do
		git -C c config "${kv%%=*}" "${kv#*=}" || return 1
	done &&
	(
		cd c &&
		git ai-apply --cached --apply --diff ../every.diff >../out 2>../err
		r=$?
		git reset -q --hard base && rm -f n
		return $r
	) &&
	for kv
	do
		git -C c config --unset "${kv%%=*}" || return 1
	done &&
	grep -q "$esc" out
}

test_expect_success 'color.ui=always and color.ai-apply=always color a pipe' '
	diff_colored color.ui=always &&
	diff_colored color.ai-apply=always &&
	diff_colored color.ai-apply=always color.ui=never &&
	! diff_colored color.ai-apply=true color.ui=always &&
	! diff_colored color.ai-apply=auto color.ui=always
'

test_expect_success 'color.ai-apply=false and --no-color win over color.ui' '
	! diff_colored color.ui=always color.ai-apply=false &&
	! diff_colored color.ui=always color.ai-apply=never &&
	test_when_finished "git -C c config --unset color.ui" &&
	git -C c config color.ui always &&
	(
		cd c &&
		git ai-apply --cached --apply --diff --no-color ../every.diff >../out &&
		git reset -q --hard base && rm -f n
	) &&
	! grep "$esc" out
'

test_expect_success 'auto colors when git says its pager is a terminal' '
	(
		cd c &&
		TERM=xterm GIT_PAGER_IN_USE=true git ai-apply --cached --apply --diff ../every.diff >../out &&
		git reset -q --hard base && rm -f n
	) &&
	grep -q "$esc" out
'

test_expect_success 'color.diff.<slot> changes the sequence' '
	test_when_finished "git -C c config --remove-section color.diff" &&
	git -C c config color.diff.old blue &&
	git -C c config color.diff.new "bold green" &&
	git -C c config color.diff.frag "magenta ul" &&
	git -C c config color.diff.meta normal &&
	(
		cd c &&
		git ai-apply --cached --apply --diff --color=always ../every.diff >../out &&
		git reset -q --hard base && rm -f n
	) &&
	test_decode_color <out >decoded &&
	test_grep "^<BLUE>-	c;<RESET>\$" decoded &&
	test_grep "^<BOLD;GREEN>+<RESET><BOLD;GREEN>y<RESET>\$" decoded &&
	test_grep "^<UL;MAGENTA>@@ -1 +1 @@<RESET>\$" decoded &&
	test_grep "^diff --git a/b b/b<RESET>\$" decoded
'

test_expect_success 'diagnostics: the error keyword and the closest region colored' '
	printf "%s\n" "--- a/a.c" "+++ b/a.c" "@@ -2,4 +2,4 @@" " {" \
		"	a;" "-	bb;" "+	B;" "	cc;" | sed "s/^	cc;/ 	cc;/" >bad.diff &&
	(
		cd c &&
		repo_snapshot colored &&
		test_expect_code 1 git ai-apply --color=always ../bad.diff \
			2>../err &&
		repo_unchanged colored
	) &&
	test_decode_color <err >decoded &&
	test_grep "^<BOLD;RED>error<RESET>: a.c: ../bad.diff:3: hunk does not apply" decoded &&
	test_grep "^  *4 <RED>- \"\\\\tb;\"<RESET>\$" decoded &&
	test_grep "^  *<GREEN>+ \"\\\\tbb;\"<RESET>\$" decoded &&
	test_grep "^  *3   \"\\\\ta;\"\$" decoded
'

test_expect_success 'diagnostics: plain into a pipe, and with --no-color' '
	(
		cd c &&
		test_rejected ../bad.diff &&
		test_grep "^  *4 - \"\\\\tb;\"\$" err &&
		test_rejected --no-color ../bad.diff &&
		! grep "$esc" err
	)
'

test_expect_success 'diagnostics: the warning keyword, color.ai-apply.warning' '
	printf "%s\n" "--- a/a.c" "+++ b/a.c" "@@ -20,3 +20,3 @@" " 	a;" \
		"-	b;" "+	B;" >off.diff &&
	(
		cd c &&
		git ai-apply --check --color=always ../off.diff 2>../err
	) &&
	test_when_finished "git -C c config --unset color.ai-apply.warning" &&
	git -C c config color.ai-apply.warning cyan &&
	(
		cd c &&
		git ai-apply --check --color=always ../off.diff 2>../err2
	) &&
	test_decode_color <err >decoded &&
	test_grep "^<BOLD;YELLOW>warning<RESET>: a.c: ../off.diff:3: hunk applied at line" decoded &&
	test_decode_color <err2 >decoded &&
	test_grep "^<CYAN>warning<RESET>: a.c:" decoded
'

# util-linux script(1) runs a command on a pseudo-terminal.
if TERM=xterm script -qec true /dev/null >/dev/null 2>&1
then
	test_set_prereq PTY
fi

test_expect_success PTY 'auto: a terminal colors, a redirected stream does not' '
	(
		cd c &&
		TERM=xterm script -qec "git ai-apply --check --diff ../off.diff 2>../err" \
			/dev/null >../out &&
		test_expect_code 1 env TERM=xterm script -qec \
			"git ai-apply --check --diff ../bad.diff >../out2" \
			/dev/null >../err2
	) &&
	test_decode_color <out >decoded &&
	test_grep "^<RED>-	b;<RESET>" decoded &&
	test_grep "^warning: a.c: ../off.diff:3: hunk applied" err &&
	! grep "$esc" err &&
	test_decode_color <err2 >decoded &&
	test_grep "^<BOLD;RED>error<RESET>: a.c: ../bad.diff:3:" decoded &&
	! grep "$esc" out2
'

# --review: g.txt's "  b" quoted without its indentation lands by the
# whitespace rung, a tolerant placement.
test_expect_success 'setup: a staged answer with a tolerant placement' '
	git init -q r &&
	(
		cd r &&
		printf "a\n  b\nc\nd\n" >g.txt &&
		git add . &&
		git commit -q -m initial
	) &&
	printf "%s\n" "--- a/g.txt" "+++ b/g.txt" "@@ -1,3 +1,3 @@" \
		" a" "-b" "+B" " c" >g.diff &&
	git -C r ai-apply ../g.diff 2>/dev/null
'

test_expect_success '--review --color=always: the diff colors, the mark in tolerant' '
	git -C r ai-apply --review --color=always >out &&
	test_decode_color <out >decoded &&
	test_grep "^g.txt: 1 edit, <YELLOW>1 tolerant (whitespace)<RESET>\$" decoded &&
	test_grep "^<BOLD;YELLOW>warning<RESET>: g.txt: " decoded &&
	test_grep "^  <BOLD>diff --git a/g.txt b/g.txt<RESET>\$" decoded &&
	test_grep "^<YELLOW>!<RESET> <CYAN>@@ -1,4 +1,4 @@<RESET>\$" decoded &&
	test_grep "^<YELLOW>!   ^ whitespace placement at line 1 (offset [-+0-9]*)<RESET>\$" decoded &&
	test_grep "^<YELLOW>!<RESET> <RED>-  b<RESET>\$" decoded &&
	test_grep "^<YELLOW>!<RESET> <GREEN>+<RESET><GREEN>B<RESET>\$" decoded &&
	test_grep "^<YELLOW>!<RESET>  a<RESET>\$" decoded
'

test_expect_success '--review --color=always: the diff as git diff --cached --color=always' '
	(
		cd c &&
		git ai-apply ../every.diff 2>/dev/null &&
		git ai-apply --review --color=always >../out &&
		git ai-apply --review >../plain &&
		git diff --cached --color=always >../expect &&
		git reset -q --hard base && rm -f n
	) &&
	# the diff after the summary, without its margin (no mark: blanks)
	sed -e "1,/^\$/d" -e "s/^  //" out >actual &&
	test_cmp expect actual &&
	# the line before "\ No newline" ends with its text, not the margin
	test_grep "^  +y\$" plain &&
	test_grep "^  \\\\ No newline at end of file\$" plain
'

test_expect_success '--review: color.ai-apply.tolerant, no color in a pipe or --json' '
	test_when_finished "git -C r config --unset color.ai-apply.tolerant" &&
	git -C r config color.ai-apply.tolerant "bold magenta" &&
	git -C r ai-apply --review --color=always >out &&
	test_decode_color <out >decoded &&
	test_grep "^<BOLD;MAGENTA>!<RESET> <CYAN>@@" decoded &&
	git -C r ai-apply --review >out &&
	test_grep "^! @@ -1,4 +1,4 @@\$" out &&
	! grep "$esc" out &&
	git -C r ai-apply --review --json --color=always >out &&
	test_grep "\"diff\":" out &&
	! grep "$esc" out
'

test_done
