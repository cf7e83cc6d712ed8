#!/bin/sh

test_description='the diff format end to end: every construct, as assistants write it'

. "$(dirname "$0")/test-lib.sh"
. "$AA_TEST_DIR/fixtures/sources.sh"

# The expected result of every scenario is a branch made with git itself
# in "repo" (tag "base" is the starting point); the patch fed to
# git ai-apply is git's own diff of it, then mangled the way assistants
# mangle diffs. A result is right when the index holds exactly the
# branch's tree and the work tree matches the index.

# expect_branch NAME [diff options]: commits the work tree's change as
# branch NAME, writes "git diff base NAME" to ../NAME.diff, goes back.
expect_branch () {
	name=$1 &&
	shift &&
	rm -f err &&
	git checkout -q -b "$name" &&
	git add -A &&
	git commit -q -m "$name" &&
	git checkout -q - &&
	git diff "$@" base "$name" >"../$name.diff"
}

# result_is BRANCH: index == BRANCH's tree, work tree == index, no
# untracked leftovers, HEAD not moved.
result_is () {
	if test "$(git write-tree)" != "$(git rev-parse "$1^{tree}")"
	then
		echo "index differs from $1:"
		git diff --cached --stat "$1"
		git diff --cached "$1"
		return 1
	fi
	git diff --exit-code &&
	test -z "$(git ls-files --others --exclude-standard)" &&
	test "$(git rev-parse HEAD)" = "$(git rev-parse base)"
}

# expected_summary BRANCH: "S path (+a -d)" for every file git sees
# changed between base and BRANCH (no renames), sorted.
expected_summary () {
	git -C repo diff --no-renames --name-status base "$1" >status.tmp &&
	git -C repo diff --no-renames --numstat base "$1" >numstat.tmp &&
	paste status.tmp numstat.tmp |
	awk -F"\t" "{ print \$1 \" \" \$2 \" (+\" \$3 \" -\" \$4 \")\" }" |
	LC_ALL=C sort
}

# strip_git_headers: a git diff as a plain unified diff (no "diff --git",
# "index", mode or similarity lines).
strip_git_headers () {
	sed -e "/^diff --git /d" -e "/^index /d" -e "/^new file mode /d" \
		-e "/^deleted file mode /d" "$@"
}

# The edits an assistant proposed, run inside a repository.
edit_ringbuf_init () {
	sed -i -e 's/^	if (!size)$/	if (!rb || !size)/' src/ringbuf.c
}

edit_ringbuf_reset () {
	sed -i -e '/^	rb->head = rb->tail = rb->used = 0;/a\
	memset(rb->data, 0, rb->size);' src/ringbuf.c
}

edit_inventory () {
	perl -0pi -e 's/log\.debug\("added/log.info("added/;
		s/(    def total\(self\) -> int:)/    def skus(self) -> List[str]:\n        return sorted(self._items)\n\n$1/' \
		app/inventory.py
}

edit_deploy () {
	sed -i 's/make -C build install/make -C build install DESTDIR="$DESTDIR"/' \
		scripts/deploy.sh
}

# as_diff_u: "--- a/x" / "+++ b/x" as diff -u writes them: no prefix,
# a timestamp after a tab.
as_diff_u () {
	strip_git_headers |
	sed -e 's|^--- a/\(.*\)|--- \1	2024-05-02 09:14:07.000000000 +0200|' \
		-e 's|^+++ b/\(.*\)|+++ \1	2024-05-02 09:20:51.123456789 +0200|'
}

# to_crlf: every line ending as CRLF.
to_crlf () {
	sed 's/$/\r/' "$@"
}

test_expect_success 'setup: a small project' '
	make_repo repo &&
	(
		cd repo &&
		mkdir -p src app web scripts docs &&
		write_ringbuf_c src/ringbuf.c &&
		write_inventory_py app/inventory.py &&
		write_cart_js web/cart.js &&
		printf "#!/bin/sh\nset -e\nmake -C build install\n" >scripts/deploy.sh &&
		chmod +x scripts/deploy.sh &&
		printf "#!/bin/sh\nset -e\nclang-format --dry-run src/*.c\n" >scripts/lint.sh &&
		printf "# Ringbuf\n\nA small ring buffer library.\n\n## Build\n\nRun make.\n" >README.md &&
		printf "Intro\n\nInstall with make.\n" >"docs/user guide.md" &&
		printf "Le caf\303\251\n\nOuvert de 8h \303\240 18h.\n" >"docs/caf$(printf "\303\251").md" &&
		printf "\211PNG\r\n\032\n\000\000\000\rIHDR" >docs/logo.png &&
		git add . &&
		git commit -q -m "the project" &&
		git tag base
	)
'

test_expect_success 'setup: a two-hunk change of a C file' '
	(
		cd repo &&
		edit_ringbuf_init &&
		edit_ringbuf_reset &&
		expect_branch mod
	) &&
	test $(grep -c "^@@" mod.diff) = 2
'

test_expect_success 'modify: a fenced git diff inside a chat answer' '
	chat_answer diff mod.diff >answer-mod.md &&
	fresh w-mod &&
	(
		cd w-mod &&
		git ai-apply ../answer-mod.md >../out 2>../err &&
		result_is mod
	) &&
	expected_summary mod >expect &&
	test_cmp expect out &&
	! grep "^error" err
'

test_expect_success 'modify: the answer on standard input' '
	fresh w-stdin &&
	(
		cd w-stdin &&
		git ai-apply <../answer-mod.md &&
		result_is mod
	)
'

test_expect_success '--json says where each hunk landed and how' '
	(
		cd repo &&
		git ai-apply --check --json ../answer-mod.md >../json
	) &&
	jq -e ".status == \"checked\"" json &&
	jq -r ".files[] | \"\(.status) \(.path) (+\(.added) -\(.removed))\"" json >actual &&
	expected_summary mod >expect &&
	test_cmp expect actual &&
	# every hunk: its @@ line in the answer and the old start it names
	grep -n "^@@" answer-mod.md |
	sed -e "s/^\([0-9]*\):@@ -\([0-9]*\),.*/\1 \2 exact/" >expect &&
	jq -r ".files[].edits[] | \"\(.input_line) \(.line) \(.how)\"" json >actual &&
	test_cmp expect actual &&
	jq -e ".errors == [] and .warnings == []" json
'

test_expect_success '--stat counts like git diff --stat' '
	(
		cd repo &&
		git ai-apply --check --stat ../answer-mod.md >../stat &&
		git diff --stat base mod >../git-stat
	) &&
	n=$(git -C repo diff --numstat base mod | awk "{ print \$1 + \$2 }") &&
	test_grep "^ *src/ringbuf.c *| *$n " stat &&
	tail -n 1 git-stat | sed "s/^ *//" >expect &&
	tail -n 1 stat | sed "s/^ *//" >actual &&
	test_cmp expect actual
'

test_expect_success 'create: git diff with "new file mode"' '
	(
		cd repo &&
		cat >src/ringbuf.h <<-\EOF &&
		#ifndef RINGBUF_H
		#define RINGBUF_H

		#include <stddef.h>

		struct ringbuf;

		int ringbuf_init(struct ringbuf *rb, size_t size);
		void ringbuf_free(struct ringbuf *rb);
		size_t ringbuf_write(struct ringbuf *rb, const void *src, size_t len);
		size_t ringbuf_read(struct ringbuf *rb, void *dst, size_t len);

		#endif
		EOF
		expect_branch create
	) &&
	test_grep "^new file mode 100644" create.diff &&
	chat_answer diff create.diff >answer.md &&
	fresh w-create &&
	(
		cd w-create &&
		git ai-apply ../answer.md >../out &&
		result_is create
	) &&
	expected_summary create >expect &&
	test_cmp expect out
'

test_expect_success 'create: plain unified diff from /dev/null (no mode line)' '
	strip_git_headers create.diff >create-plain.diff &&
	! grep "new file mode" create-plain.diff &&
	test_grep "^--- /dev/null" create-plain.diff &&
	chat_answer "" create-plain.diff >answer.md &&
	fresh w-create2 &&
	(
		cd w-create2 &&
		git ai-apply ../answer.md &&
		result_is create &&
		git ls-files -s src/ringbuf.h >../mode
	) &&
	test_grep "^100644 " mode
'

test_expect_success 'create: an executable script (new file mode 100755)' '
	(
		cd repo &&
		printf "#!/bin/sh\n# run the unit tests\nset -eu\nmake test\n" >scripts/test.sh &&
		chmod +x scripts/test.sh &&
		expect_branch create-exec
	) &&
	test_grep "^new file mode 100755" create-exec.diff &&
	fresh w-cx &&
	(
		cd w-cx &&
		git ai-apply ../create-exec.diff &&
		result_is create-exec &&
		test -x scripts/test.sh
	)
'

test_expect_success 'delete: git diff with "deleted file mode"' '
	(
		cd repo &&
		git rm -q web/cart.js &&
		expect_branch delete
	) &&
	test_grep "^deleted file mode 100644" delete.diff &&
	chat_answer diff delete.diff >answer.md &&
	fresh w-del &&
	(
		cd w-del &&
		git ai-apply ../answer.md >../out &&
		result_is delete &&
		test_path_is_missing web/cart.js
	) &&
	expected_summary delete >expect &&
	test_cmp expect out
'

test_expect_success 'delete: plain unified diff to /dev/null (no mode line)' '
	strip_git_headers delete.diff >delete-plain.diff &&
	test_grep "^+++ /dev/null" delete-plain.diff &&
	fresh w-del2 &&
	(
		cd w-del2 &&
		git ai-apply ../delete-plain.diff &&
		result_is delete
	)
'

test_expect_success 'delete: the removed lines must be the file as it is' '
	sed "s/^-const TAX_RATE = 0.2;/-const TAX_RATE = 0.25;/" delete-plain.diff >bad.diff &&
	fresh w-rej &&
	(
		cd w-rej &&
		test_rejected ../bad.diff &&
		test_grep "web/cart.js" err
	)
'

test_expect_success 'rename without content change' '
	(
		cd repo &&
		git mv README.md docs/README.md &&
		expect_branch rename -M
	) &&
	test_grep "^rename from README.md" rename.diff &&
	! grep "^@@" rename.diff &&
	fresh w-ren &&
	(
		cd w-ren &&
		blob=$(git rev-parse :README.md) &&
		git ai-apply ../rename.diff >../out &&
		result_is rename &&
		test "$(git rev-parse :docs/README.md)" = "$blob"
	) &&
	echo "R README.md -> docs/README.md (+0 -0)" >expect &&
	test_cmp expect out
'

test_expect_success 'rename old / rename new: git'"'"'s older spelling of from / to' '
	sed -e "s/^rename from /rename old /" -e "s/^rename to /rename new /" \
		rename.diff >rename-old.diff &&
	test_grep "^rename old README.md" rename-old.diff &&
	fresh w-ren-old &&
	(
		cd w-ren-old &&
		git ai-apply ../rename-old.diff >../out &&
		result_is rename
	) &&
	echo "R README.md -> docs/README.md (+0 -0)" >expect &&
	test_cmp expect out
'

test_expect_success 'rename of a binary file: same blob, same bytes in the work tree' '
	(
		cd repo &&
		mkdir -p docs/img &&
		git mv docs/logo.png docs/img/logo.png &&
		expect_branch rename-bin -M
	) &&
	test_grep "^rename to docs/img/logo.png" rename-bin.diff &&
	chat_answer diff rename-bin.diff >answer.md &&
	fresh w-renbin &&
	(
		cd w-renbin &&
		git ai-apply ../answer.md &&
		result_is rename-bin &&
		git cat-file blob base:docs/logo.png >../logo.expect &&
		cmp ../logo.expect docs/img/logo.png &&
		# --diff shows a pure rename as git does: git apply takes it
		git reset -q --hard base &&
		git ai-apply --check --diff ../answer.md >../renbin.out &&
		git apply --check ../renbin.out
	) &&
	! grep "^---" renbin.out &&
	test_grep "^rename to docs/img/logo.png" renbin.out
'

test_expect_success 'rename with a content change' '
	(
		cd repo &&
		git mv app/inventory.py app/stock.py &&
		sed -i "s/^\"\"\"Inventory tracking for the warehouse service.\"\"\"/\"\"\"Stock levels for the warehouse service.\"\"\"/" app/stock.py &&
		expect_branch rename-edit -M
	) &&
	test_grep "^rename to app/stock.py" rename-edit.diff &&
	test_grep "^+\"\"\"Stock levels" rename-edit.diff &&
	chat_answer diff rename-edit.diff >answer.md &&
	fresh w-ren2 &&
	(
		cd w-ren2 &&
		git ai-apply ../answer.md >../out &&
		result_is rename-edit
	) &&
	echo "R app/inventory.py -> app/stock.py (+1 -1)" >expect &&
	test_cmp expect out
'

test_expect_success 'copy with and without a content change keeps the source' '
	(
		cd repo &&
		cp web/cart.js web/cart-v2.js &&
		cp src/ringbuf.c src/ringbuf_mt.c &&
		sed -i "s/^ \* ringbuf.c - a fixed-size byte ring buffer./ * ringbuf_mt.c - a thread-safe ring buffer./" src/ringbuf_mt.c &&
		expect_branch copy -C --find-copies-harder
	) &&
	test $(grep -c "^copy from " copy.diff) = 2 &&
	fresh w-copy &&
	(
		cd w-copy &&
		git ai-apply ../copy.diff >../out &&
		result_is copy
	) &&
	# a copy is not a rename: the source stays
	! grep "^R " out &&
	test_grep "src/ringbuf_mt.c" out &&
	test_grep "web/cart-v2.js" out
'

test_expect_success 'mode change together with a content change' '
	(
		cd repo &&
		chmod +x scripts/lint.sh &&
		sed -i "s/--dry-run/--dry-run --Werror/" scripts/lint.sh &&
		expect_branch mode-edit
	) &&
	test_grep "^old mode 100644" mode-edit.diff &&
	test_grep "^new mode 100755" mode-edit.diff &&
	fresh w-mode &&
	(
		cd w-mode &&
		git ai-apply ../mode-edit.diff &&
		result_is mode-edit &&
		test -x scripts/lint.sh
	)
'

test_expect_success 'setup: a change of five files' '
	(
		cd repo &&
		edit_ringbuf_init &&
		edit_inventory &&
		printf "#ifndef RINGBUF_H\n#define RINGBUF_H\n#endif\n" >src/ringbuf.h &&
		git rm -q web/cart.js &&
		edit_deploy &&
		expect_branch many
	) &&
	test $(grep -c "^diff --git" many.diff) = 5
'

test_expect_success 'many files in one unfenced git diff between prose' '
	chat_answer "" many.diff >answer-many.md &&
	fresh w-many &&
	(
		cd w-many &&
		git ai-apply ../answer-many.md >../out &&
		result_is many
	) &&
	expected_summary many >expect &&
	LC_ALL=C sort out >actual &&
	test_cmp expect actual
'

test_expect_success 'many files: --stat and --json agree with git' '
	(
		cd repo &&
		git ai-apply --check --stat ../answer-many.md >../stat &&
		git ai-apply --check --json ../answer-many.md >../json &&
		git diff --stat base many >../git-stat
	) &&
	tail -n 1 git-stat | sed "s/^ *//" >expect &&
	tail -n 1 stat | sed "s/^ *//" >actual &&
	test_cmp expect actual &&
	git -C repo diff --numstat base many >numstat &&
	while read add del path
	do
		test_grep "^ *$path *| *$((add + del))" stat || return 1
	done <numstat &&
	jq -r ".files[] | \"\(.status) \(.path) (+\(.added) -\(.removed))\"" json |
	LC_ALL=C sort >actual &&
	expected_summary many >expect &&
	test_cmp expect actual &&
	jq -e ".status == \"checked\" and .mode == \"check\" and .errors == []" json
'

test_expect_success 'one failing file rejects the whole answer' '
	sed "s/^-        log.debug(\"added %s x%d\", sku, quantity)/-        log.debug(\"added %s\", sku)/" \
		answer-many.md >bad.md &&
	! test_cmp answer-many.md bad.md &&
	fresh w-rej &&
	(
		cd w-rej &&
		test_rejected ../bad.md &&
		test_grep "app/inventory.py" err
	)
'

test_expect_success '--diff prints a git diff that git apply turns into the same tree' '
	for b in many rename-edit copy mode-edit create-exec
	do
		git -C repo ai-apply --check --diff "../$b.diff" >"$b.out" &&
		fresh "w-rt-$b" &&
		(
			cd "w-rt-$b" &&
			git update-index -q --refresh &&
			git apply --index "../$b.out" &&
			result_is "$b"
		) || return 1
	done
'

test_expect_success 'setup: a change of two files' '
	(
		cd repo &&
		edit_ringbuf_init &&
		edit_inventory &&
		expect_branch two &&
		git diff base two -- src/ringbuf.c >../two-c.diff &&
		git diff base two -- app/inventory.py >../two-py.diff
	)
'

test_expect_success 'two fenced blocks in one answer' '
	{
		echo "There are two problems." &&
		echo &&
		echo "1. \`ringbuf_init\` does not check \`rb\`:" &&
		echo &&
		echo "\`\`\`diff" && cat two-c.diff && echo "\`\`\`" &&
		echo &&
		echo "2. The log level in \`Inventory.add\` is too low, and a helper is missing:" &&
		echo &&
		echo "\`\`\`patch" && cat two-py.diff && echo "\`\`\`" &&
		echo &&
		echo "Hope this helps."
	} >answer.md &&
	fresh w-two &&
	(
		cd w-two &&
		git ai-apply ../answer.md &&
		result_is two
	)
'

test_expect_success 'a ~~~ fence, and a fence indented in a numbered list' '
	{
		echo "Two steps:" &&
		echo &&
		echo "1. Check \`rb\` in \`ringbuf_init\`:" &&
		echo &&
		echo "   \`\`\`diff" &&
		sed "s/^/   /; s/^   \$//" two-c.diff &&
		echo "   \`\`\`" &&
		echo &&
		echo "2. Log at info level:" &&
		echo &&
		echo "~~~" && cat two-py.diff && echo "~~~"
	} >answer.md &&
	test_grep "^   +	if (!rb || !size)" answer.md &&
	fresh w-fences &&
	(
		cd w-fences &&
		git ai-apply ../answer.md &&
		result_is two
	)
'

test_expect_success 'plain unified diffs between prose, no fence, a blank line after each' '
	{
		echo "Change the check in ringbuf_init:" &&
		echo &&
		strip_git_headers two-c.diff &&
		echo &&
		echo "Then in inventory.py:" &&
		echo &&
		strip_git_headers two-py.diff &&
		echo &&
		echo "That is all."
	} >answer.md &&
	! grep "^diff --git" answer.md &&
	fresh w-plain &&
	(
		cd w-plain &&
		git ai-apply ../answer.md &&
		result_is two
	)
'

test_expect_success 'no a/ b/ prefixes, timestamps after a tab (diff -u)' '
	as_diff_u <two.diff >two-u.diff &&
	test_grep "^--- src/ringbuf.c	2024-05-02" two-u.diff &&
	test_grep "^+++ app/inventory.py	2024-05-02" two-u.diff &&
	chat_answer diff two-u.diff >answer.md &&
	fresh w-u &&
	(
		cd w-u &&
		git ai-apply ../answer.md &&
		result_is two
	)
'

test_expect_success 'names written ./path (diff -u of relative names)' '
	sed -e "s|^--- \([^	]*\)|--- ./\1|" -e "s|^+++ \([^	]*\)|+++ ./\1|" \
		two-u.diff >two-dot.diff &&
	test_grep "^--- ./src/ringbuf.c" two-dot.diff &&
	fresh w-dot &&
	(
		cd w-dot &&
		git ai-apply ../two-dot.diff &&
		result_is two
	) &&
	# a "." further in stays refused
	sed "s|^+++ ./src/|+++ ./src/./|" two-dot.diff >two-dot2.diff &&
	(
		cd w-dot &&
		git reset -q --hard &&
		test_rejected ../two-dot2.diff &&
		test_grep "invalid path" err
	)
'

test_expect_success 'context lines at column 0 that lost their leading space' '
	# the assistant dropped the space before "int ..." and "{"; the
	# header counts agree with the body only if they are context
	cat >col0.md <<-\EOF &&
	Check the size first:

	```diff
	--- a/src/ringbuf.c
	+++ b/src/ringbuf.c
	@@ -33,4 +33,4 @@
	int ringbuf_init(struct ringbuf *rb, size_t size)
	{
	-	if (!size)
	+	if (!rb || !size)
	 		return -EINVAL;
	```
	EOF
	fresh w-col0 &&
	(
		cd w-col0 &&
		git ai-apply ../col0.md 2>../err &&
		git show :src/ringbuf.c >../staged &&
		git show base:src/ringbuf.c |
		sed "s/^	if (!size)\$/	if (!rb || !size)/" >../expect &&
		test_cmp ../expect ../staged
	) &&
	test_grep "without its leading space" err
'

test_expect_success 'prose right after an unfenced hunk is not kept as context' '
	# the header claims one line more than the body has; the line of
	# prose that follows fits the count, but it is not in the file
	cat >prose.md <<-\EOF &&
	--- a/src/ringbuf.c
	+++ b/src/ringbuf.c
	@@ -34,3 +34,3 @@
	 {
	-	if (!size)
	+	if (!rb || !size)
	That should do it.
	EOF
	fresh w-prose &&
	(
		cd w-prose &&
		git ai-apply ../prose.md 2>../err &&
		git show :src/ringbuf.c >../staged &&
		git show base:src/ringbuf.c |
		sed "s/^	if (!size)\$/	if (!rb || !size)/" >../expect &&
		test_cmp ../expect ../staged
	) &&
	test_grep "not context after all" err &&
	# under --strict a line without its prefix is simply invalid
	sed -n "/^--- a/,/^ 		return/p" col0.md >col0.diff &&
	test_grep "^int ringbuf_init" col0.diff &&
	(
		cd w-prose &&
		git reset -q --hard &&
		test_rejected --strict ../col0.diff &&
		test_grep -i "invalid unified diff" err
	)
'

test_expect_success '"@@ -0,0" without /dev/null: creates a missing file, refused on an existing one' '
	cat >nonull.diff <<-\EOF &&
	--- a/src/version.h
	+++ b/src/version.h
	@@ -0,0 +1,2 @@
	+#define VERSION_MAJOR 1
	+#define VERSION_MINOR 4
	EOF
	fresh w-nonull &&
	(
		cd w-nonull &&
		git ai-apply ../nonull.diff >../out 2>../err &&
		printf "#define VERSION_MAJOR 1\n#define VERSION_MINOR 4\n" >expect &&
		git show :src/version.h >actual &&
		test_cmp expect actual &&
		test_cmp expect src/version.h
	) &&
	test_grep "^A src/version.h" out &&
	test_grep "created" err &&
	sed "s|src/version.h|src/ringbuf.c|" nonull.diff >exists.diff &&
	(
		cd w-nonull &&
		test_rejected ../exists.diff &&
		test_grep "src/ringbuf.c: .*no context" err
	)
'

test_expect_success 'blank context lines that lost their leading space' '
	sed "s/^ \$//" mod.diff >mod-blank.diff &&
	test $(grep -c "^\$" mod-blank.diff) -ge 2 &&
	chat_answer diff mod-blank.diff >answer.md &&
	fresh w-blank &&
	(
		cd w-blank &&
		git ai-apply ../answer.md &&
		result_is mod
	)
'

test_expect_success 'header counts that disagree with the body are recounted' '
	# hunk 1 claims two lines less than it has, hunk 2 three lines more
	perl -pe "if (/^@@ -(\d+),(\d+) \+(\d+),(\d+) @@(.*)/) {
		\$d = \$n++ ? 3 : -2;
		\$_ = sprintf(\"@@ -%d,%d +%d,%d @@%s\n\", \$1, \$2 + \$d, \$3, \$4 + \$d, \$5);
	}" mod.diff >mod-counts.diff &&
	! test_cmp mod.diff mod-counts.diff &&
	chat_answer diff mod-counts.diff >answer.md &&
	fresh w-counts &&
	(
		cd w-counts &&
		git ai-apply ../answer.md &&
		result_is mod
	)
'

test_expect_success 'quoted non-ASCII paths and paths with spaces' '
	(
		cd repo &&
		sed -i "s/8h/7h30/" docs/caf*.md &&
		sed -i "s/with make/with make install/" "docs/user guide.md" &&
		expect_branch quoted
	) &&
	test_grep "^--- \"a/docs/caf\\\\303\\\\251.md\"" quoted.diff &&
	test_grep "^+++ b/docs/user guide.md	\$" quoted.diff &&
	chat_answer diff quoted.diff >answer.md &&
	fresh w-q &&
	(
		cd w-q &&
		git ai-apply ../answer.md &&
		result_is quoted
	)
'

test_expect_success 'a CRLF answer: the CR is part of the line ending' '
	to_crlf answer-mod.md >answer-crlf.md &&
	test_grep "$(printf "\r")\$" answer-crlf.md &&
	fresh w-crlf &&
	(
		cd w-crlf &&
		git ai-apply ../answer-crlf.md &&
		result_is mod
	) &&
	chat_answer diff create.diff | to_crlf >answer-crlf2.md &&
	fresh w-crlf2 &&
	(
		cd w-crlf2 &&
		git ai-apply ../answer-crlf2.md &&
		result_is create
	)
'

test_expect_success 'edits see the result of earlier ones: create, then patch it' '
	(
		cd repo &&
		git checkout -q -b create2 create &&
		sed -i "s/^struct ringbuf;/struct ringbuf;\nsize_t ringbuf_space(const struct ringbuf *rb);/" src/ringbuf.h &&
		git commit -q -a -m create2 &&
		git diff create create2 >../create2.diff &&
		git checkout -q -
	) &&
	{
		chat_answer diff create.diff &&
		echo "Oh, and the header also needs ringbuf_space:" &&
		echo "\`\`\`diff" && cat create2.diff && echo "\`\`\`"
	} >answer.md &&
	fresh w-seq &&
	(
		cd w-seq &&
		git ai-apply ../answer.md &&
		result_is create2
	)
'

test_expect_success 'GIT binary patch lands; "Binary files differ" with abbreviated ids is refused' '
	(
		cd repo &&
		printf "\211PNG\r\n\032\n\000\000\000\rIHDR\000\001" >docs/logo.png &&
		git diff --binary >../bin.diff &&
		git diff >../bin2.diff &&
		cp docs/logo.png ../logo.expect &&
		git checkout -q -- docs/logo.png
	) &&
	test_grep "^GIT binary patch" bin.diff &&
	test_grep "^Binary files a/docs/logo.png and b/docs/logo.png differ" bin2.diff &&
	chat_answer diff bin.diff >answer.md &&
	fresh w-bin &&
	(
		cd w-bin &&
		git ai-apply ../answer.md &&
		test_cmp ../logo.expect docs/logo.png
	) &&
	chat_answer diff bin2.diff >answer.md &&
	fresh w-rej &&
	(
		cd w-rej &&
		test_rejected ../answer.md &&
		test_grep "docs/logo.png: ../answer.md:[0-9]*: cannot apply binary patch without full index line" err
	)
'

test_done
