#!/bin/sh

test_description='--strict: the unified diff contract of seed 004, rule by rule'

. "$(dirname "$0")/test-lib.sh"
. "$AA_TEST_DIR/fixtures/sources.sh"

# A seed-004 diff: "--- a/p" / "+++ b/p", "@@ -a,b +c,d @@", nothing
# else: git's diff without its git headers and section headings.
# Every rejection is checked for the seed's own words (case-insensitive).

# seed_diff BRANCH PATH: seed-004 diff of PATH between base and BRANCH.
seed_diff () {
	git -C repo diff base "$1" -- "$2" |
	sed -e "/^diff --git /d" -e "/^index /d" -e "/^new file mode /d" \
		-e "/^deleted file mode /d" -e "s/^\(@@ [^@]* @@\).*/\1/"
}

# rejected_strict PATCH PATTERN: --strict refuses PATCH with nothing
# written and an error matching PATTERN (grep -E -i). Runs in a fresh
# copy "rj" of the repository (its errors in rj/err), so a change
# wrongly applied cannot leak into the next test.
rejected_strict () {
	rm -rf rj && cp -R repo rj &&
	(
		cd rj &&
		test_rejected --strict "../$1" &&
		test_grep -E -i "$2" err
	)
}

# first_error_is PATTERN: the first error reported matches PATTERN.
first_error_is () {
	grep "^error: " rj/err | head -n 1 >first-error &&
	test_grep -E -i "$1" first-error
}

result_is () {
	test "$(git write-tree)" = "$(git rev-parse "$1^{tree}")" &&
	git diff --exit-code &&
	test "$(git rev-parse HEAD)" = "$(git rev-parse base)"
}

edit_init () {
	sed -i 's/^	if (!size)$/	if (!rb || !size)/' src/ringbuf.c
}

edit_reset () {
	sed -i 's/^	rb->head = rb->tail = rb->used = 0;$/&\n	memset(rb->data, 0, rb->size);/' src/ringbuf.c
}

test_expect_success 'setup' '
	make_repo repo &&
	(
		cd repo &&
		git symbolic-ref --short HEAD >../branch-name &&
		mkdir -p src app web res docs &&
		write_ringbuf_c src/ringbuf.c &&
		write_inventory_py app/inventory.py &&
		write_cart_js web/cart.js &&
		printf "\377\376" >res/strings.txt &&
		printf "[en]\r\nok=OK\r\ncancel=Cancel\r\nquit=Quit\r\nhelp=Help\r\n" |
		iconv -f UTF-8 -t UTF-16LE >>res/strings.txt &&
		printf "BLOB\000\001\002\nversion=1\ncount=3\nname=demo\nmode=fast\n" >docs/data.dat &&
		git add . &&
		git commit -q -m project &&
		git tag base &&

		git checkout -q -b clean &&
		edit_init &&
		git commit -q -a -m clean &&

		git checkout -q -b two-files base &&
		edit_init &&
		sed -i "s/log.debug(\"added/log.info(\"added/" app/inventory.py &&
		git commit -q -a -m two &&

		git checkout -q -b create base &&
		printf "#ifndef RINGBUF_H\n#define RINGBUF_H\n\n#include <stddef.h>\n\n#endif\n" >src/ringbuf.h &&
		git add src/ringbuf.h &&
		git commit -q -m create &&

		git checkout -q -b delete base &&
		git rm -q web/cart.js &&
		git commit -q -m delete &&

		git checkout -q -b reset base &&
		edit_reset &&
		git commit -q -a -m reset &&

		git checkout -q "$(cat ../branch-name)"
	) &&
	seed_diff clean src/ringbuf.c >clean.diff &&
	seed_diff create src/ringbuf.h >create.diff &&
	seed_diff delete web/cart.js >delete.diff &&
	seed_diff reset src/ringbuf.c >reset.diff &&
	test_grep "^--- a/src/ringbuf.c\$" clean.diff &&
	test_grep "^@@ -[0-9]*,[0-9]* +[0-9]*,[0-9]* @@\$" clean.diff
'

test_expect_success 'a clean seed-004 diff applies under --strict' '
	fresh w-clean &&
	(
		cd w-clean &&
		git ai-apply --check --strict --json ../clean.diff >../json &&
		git ai-apply --strict ../clean.diff >../out 2>../err &&
		result_is clean
	) &&
	! grep -E "^(warning|error)" err &&
	jq -e ".status == \"checked\" and ([.files[].edits[].how] == [\"exact\"])" json
'

test_expect_success 'a seed-004 creation applies under --strict' '
	test_grep "^--- /dev/null\$" create.diff &&
	test_grep "^@@ -0,0 +1,6 @@\$" create.diff &&
	fresh w-create &&
	(
		cd w-create &&
		git ai-apply --strict ../create.diff &&
		result_is create
	)
'

test_expect_success 'creating over an existing file is an error' '
	sed "s|b/src/ringbuf.h|b/src/ringbuf.c|" create.diff >over.diff &&
	rejected_strict over.diff "exist"
'

test_expect_success 'deletion needs confirmation: refused without a terminal or --allow-delete' '
	test_grep "^+++ /dev/null\$" delete.diff &&
	rejected_strict delete.diff "confirmation"
'

test_expect_success 'deletion with --allow-delete' '
	fresh w-del &&
	(
		cd w-del &&
		git ai-apply --strict --allow-delete ../delete.diff </dev/null &&
		result_is delete &&
		test_path_is_missing web/cart.js
	)
'

test_expect_success 'deleting a file that does not exist is an error' '
	sed "s|a/web/cart.js|a/web/basket.js|" delete.diff >missing.diff &&
	(
		cd repo &&
		test_rejected --strict --allow-delete ../missing.diff &&
		test_grep -i "must exist\|does not exist\|non-existent" err
	)
'

test_expect_success 'one fenced diff is the input: the fence is the wrapping, every rule holds inside' '
	for open in "\`\`\`diff" "\`\`\`patch" "\`\`\`" "~~~diff"
	do
		close=$(echo "$open" | cut -c1-3) &&
		{ echo && echo "$open" && cat clean.diff && echo "$close" && echo; } >fenced.diff &&
		fresh w-fenced &&
		(
			cd w-fenced &&
			git ai-apply --strict ../fenced.diff >../out 2>../err &&
			result_is clean
		) &&
		! grep -E "^(warning|error)" err || return 1
	done
'

test_expect_success 'one fenced diff: its lines are named as the input'"'"'s lines' '
	sed -e "s|^--- a/src/|--- a/../fork/src/|" -e "s|^+++ b/src/|+++ b/../fork/src/|" \
		clean.diff >fork.diff &&
	{ echo "\`\`\`diff" && cat fork.diff && echo "\`\`\`"; } >fenced-fork.diff &&
	rejected_strict fenced-fork.diff "path traversal" &&
	test_grep "fenced-fork.diff:2: Path traversal detected" rj/err
'

test_expect_success 'forbidden: Markdown code fences with prose around, two fences, another language' '
	{ echo "Here is the diff:" && echo "\`\`\`diff" && cat clean.diff && echo "\`\`\`"; } >fenced.diff &&
	rejected_strict fenced.diff "markdown code fence" &&
	{ echo "\`\`\`diff" && cat clean.diff && echo "\`\`\`" && echo "Done."; } >fenced.diff &&
	rejected_strict fenced.diff "markdown code fence" &&
	{ echo "\`\`\`diff" && cat clean.diff && echo "\`\`\`" &&
	  echo "\`\`\`diff" && cat clean.diff && echo "\`\`\`"; } >fenced.diff &&
	rejected_strict fenced.diff "markdown code fence" &&
	{ echo "\`\`\`c" && cat clean.diff && echo "\`\`\`"; } >fenced.diff &&
	rejected_strict fenced.diff "markdown code fence" &&
	{ echo "\`\`\`diff" && cat clean.diff; } >fenced.diff &&
	rejected_strict fenced.diff "markdown code fence"
'

test_expect_success 'forbidden: a fence line inside the one fenced diff' '
	{ echo "~~~diff" && cat clean.diff && echo "\`\`\`" && echo "~~~"; } >fenced.diff &&
	rejected_strict fenced.diff "markdown code fence" &&
	test_grep "fenced.diff:[0-9]*: forbidden construct" rj/err
'

test_expect_success 'forbidden: Git-specific headers (diff --git)' '
	git -C repo diff base clean >git.diff &&
	test_grep "^diff --git" git.diff &&
	rejected_strict git.diff "git-specific header"
'

test_expect_success 'forbidden: absolute paths (/home/, C:\)' '
	sed -e "s|^--- a/|--- /home/dev/ringbuf/|" -e "s|^+++ b/|+++ /home/dev/ringbuf/|" \
		clean.diff >abs.diff &&
	rejected_strict abs.diff "absolute path|outside project root" &&
	sed -e "s|^--- a/src/ringbuf.c|--- C:\\\\dev\\\\ringbuf\\\\src\\\\ringbuf.c|" \
		-e "s|^+++ b/src/ringbuf.c|+++ C:\\\\dev\\\\ringbuf\\\\src\\\\ringbuf.c|" \
		clean.diff >win.diff &&
	test_grep -F "C:\\dev\\ringbuf" win.diff &&
	rejected_strict win.diff "absolute path|outside project root"
'

test_expect_success 'forbidden: path traversal (..)' '
	sed -e "s|^--- a/src/|--- a/../ringbuf-fork/src/|" -e "s|^+++ b/src/|+++ b/../ringbuf-fork/src/|" \
		clean.diff >dotdot.diff &&
	rejected_strict dotdot.diff "path traversal"
'

test_expect_success 'forbidden: network paths (\\server\)' '
	sed -e "s|^--- a/src/ringbuf.c|--- \\\\\\\\buildsrv\\\\share\\\\ringbuf.c|" \
		-e "s|^+++ b/src/ringbuf.c|+++ \\\\\\\\buildsrv\\\\share\\\\ringbuf.c|" \
		clean.diff >unc.diff &&
	test_grep -F "\\\\buildsrv\\share" unc.diff &&
	rejected_strict unc.diff "network path|outside project root"
'

test_expect_success 'forbidden: NUL bytes' '
	sed "s/^+	if (!rb || !size)\$/+	if (!rb || !size) \/* X *\//" clean.diff |
	tr X "\000" >nul.diff &&
	test $(tr -d "\000" <nul.diff | wc -c) -lt $(wc -c <nul.diff) &&
	rejected_strict nul.diff "NUL byte"
'

test_expect_success 'forbidden: ANSI color codes (git diff --color)' '
	esc=$(printf "\033") &&
	sed -e "s/^\(---\|+++\) .*/$esc[1m&$esc[m/" \
		-e "s/^@@.*/$esc[36m&$esc[m/" \
		-e "s/^+[^+].*/$esc[32m&$esc[m/" \
		-e "s/^-[^-].*/$esc[31m&$esc[m/" clean.diff >ansi.diff &&
	test_grep "$esc\[32m" ansi.diff &&
	rejected_strict ansi.diff "ANSI colou?r code"
'

test_expect_success 'forbidden: binary diff markers' '
	printf "Binary files a/docs/logo.png and b/docs/logo.png differ\n" >bin.diff &&
	rejected_strict bin.diff "binary diff marker" &&
	cat >bin2.diff <<-\EOF &&
	--- a/docs/logo.png
	+++ b/docs/logo.png
	GIT binary patch
	literal 5
	McmZ?wbhEO000

	EOF
	rejected_strict bin2.diff "binary diff marker"
'

test_expect_success 'forbidden: combined diff format' '
	cat >cc.diff <<-\EOF &&
	--- a/src/ringbuf.c
	+++ b/src/ringbuf.c
	@@@ -22,4 -22,4 +22,4 @@@
	  int ringbuf_init(struct ringbuf *rb, size_t size)
	  {
	- 	if (!size)
	 -	if (size == 0)
	++	if (!rb || !size)
	  		return -EINVAL;
	EOF
	rejected_strict cc.diff "combined diff"
'

test_expect_success 'forbidden: context diff format (*** / ---)' '
	git -C repo show base:src/ringbuf.c >old.c &&
	git -C repo show clean:src/ringbuf.c >new.c &&
	test_expect_code 1 diff -c --label a/src/ringbuf.c --label b/src/ringbuf.c old.c new.c >ctx.diff &&
	test_grep "^\*\*\* a/src/ringbuf.c" ctx.diff &&
	rejected_strict ctx.diff "context diff"
'

test_expect_success 'multiple files in single diff' '
	{ seed_diff two-files src/ringbuf.c && seed_diff two-files app/inventory.py; } >two.diff &&
	test $(grep -c "^+++ b/" two.diff) = 2 &&
	rejected_strict two.diff "multiple files in single diff"
'

test_expect_success 'missing trailing newline' '
	printf "%s" "$(cat clean.diff)" >nonl.diff &&
	test "$(tail -c 1 nonl.diff | od -An -tx1 | tr -d " ")" != 0a &&
	rejected_strict nonl.diff "trailing newline"
'

test_expect_success 'invalid unified diff format: prose around the diff, bare @@, no a/ b/' '
	chat_answer "" clean.diff >prose.diff &&
	rejected_strict prose.diff "invalid unified diff" &&
	sed "s/^@@ .*/@@/" clean.diff >bare.diff &&
	rejected_strict bare.diff "invalid unified diff" &&
	sed -e "s|^--- a/|--- |" -e "s|^+++ b/|+++ |" clean.diff >noprefix.diff &&
	rejected_strict noprefix.diff "invalid unified diff"
'

test_expect_success 'hunk line counts incorrect' '
	sed "s/^@@ -\([0-9]*\),7 +\([0-9]*\),7 @@\$/@@ -\1,8 +\2,8 @@/" clean.diff >counts.diff &&
	! test_cmp clean.diff counts.diff &&
	rejected_strict counts.diff "hunk line counts incorrect" &&
	# ... which the default policy recounts
	fresh w-counts &&
	(
		cd w-counts &&
		git ai-apply ../counts.diff &&
		result_is clean
	)
'

test_expect_success 'context lines do not match: changed context' '
	sed "s/^ int ringbuf_init(struct ringbuf \*rb, size_t size)\$/ int ringbuf_init(struct ringbuf *rb, size_t len)/" \
		clean.diff >ctx-changed.diff &&
	! test_cmp clean.diff ctx-changed.diff &&
	rejected_strict ctx-changed.diff "context lines don.t match"
'

test_expect_success 'context lines do not match: right text, wrong line (no offset under --strict)' '
	start=$(sed -n "s/^@@ -\([0-9]*\),.*/\1/p" reset.diff) &&
	sed "s/^@@ -$start,\([0-9]*\) +$start,/@@ -$((start + 3)),\1 +$((start + 3)),/" reset.diff >moved.diff &&
	! test_cmp reset.diff moved.diff &&
	rejected_strict moved.diff "context lines don.t match" &&
	fresh w-moved &&
	(
		cd w-moved &&
		git ai-apply ../moved.diff 2>../err &&
		result_is reset
	) &&
	test_grep "^warning: " err
'

test_expect_success 'context lines do not match: whitespace is significant' '
	sed "s/^ 		return -EINVAL;\$/ 		return -EINVAL; /" clean.diff >ws.diff &&
	! test_cmp clean.diff ws.diff &&
	rejected_strict ws.diff "context lines don.t match"
'

test_expect_success 'encoding mismatch: a UTF-8 diff for a UTF-16 file' '
	cat >utf16.diff <<-\EOF &&
	--- a/res/strings.txt
	+++ b/res/strings.txt
	@@ -1,5 +1,6 @@
	 [en]
	 ok=OK
	 cancel=Cancel
	+retry=Retry
	 quit=Quit
	 help=Help
	EOF
	rejected_strict utf16.diff "encoding mismatch"
'

test_expect_success 'binary file targeted' '
	cat >bin-target.diff <<-\EOF &&
	--- a/docs/data.dat
	+++ b/docs/data.dat
	@@ -2,4 +2,4 @@
	 version=1
	 count=3
	-name=demo
	+name=prod
	 mode=fast
	EOF
	rejected_strict bin-target.diff "binary file targeted"
'

test_expect_success 'validation order: context is checked before hunk counts' '
	sed -e "s/^@@ -\([0-9]*\),7 +\([0-9]*\),7 @@\$/@@ -\1,9 +\2,9 @@/" \
		-e "s/^ int ringbuf_init(struct ringbuf \*rb, size_t size)\$/ int ringbuf_init(struct ringbuf *rb, size_t len)/" \
		clean.diff >both.diff &&
	rejected_strict both.diff "context lines don.t match" &&
	! grep -i "hunk line count" rj/err
'

test_expect_success 'validation order: format before path' '
	{ echo "Apply this:" && echo "\`\`\`diff" && cat dotdot.diff && echo "\`\`\`"; } >prose-dotdot.diff &&
	rejected_strict prose-dotdot.diff "markdown code fence" &&
	! grep -i "traversal" rj/err
'

test_expect_success 'validation order: path before file type' '
	sed -e "s|docs/data.dat|docs/../docs/data.dat|" bin-target.diff >dotdot-bin.diff &&
	rejected_strict dotdot-bin.diff "path traversal" &&
	! grep -i "binary file targeted" rj/err
'

test_expect_success 'validation order: encoding before context' '
	sed "s/^ cancel=Cancel\$/ cancel=Abort/" utf16.diff >utf16-ctx.diff &&
	rejected_strict utf16-ctx.diff "encoding mismatch" &&
	! grep -i "context lines" rj/err
'

test_expect_success 'validation order: format before hunk counts' '
	sed "s/^@@ -\([0-9]*\),7 +\([0-9]*\),7 @@\$/@@ -\1,8 +\2,8 @@/" git.diff >git-counts.diff &&
	rejected_strict git-counts.diff "git-specific header" &&
	first_error_is "git-specific header" &&
	! grep -i "hunk line count" rj/err
'

# Found by contrib/fuzz (fuzz-hunks): "-0,N" names no line, yet the
# hunk was applied at line 1 with a "rung 2" warning.
test_expect_success 'hunk whose old lines start at line 0 is refused' '
	cat >line0.diff <<-\EOF &&
	--- a/a.txt
	+++ b/a.txt
	@@ -0,2 +1,2 @@
	 one
	-two
	+TWO
	EOF
	rejected_strict line0.diff "Context lines don.t match.* line 0"
'

test_done
