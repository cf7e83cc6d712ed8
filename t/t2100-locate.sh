#!/bin/sh

test_description='locating hunks: the ladder of SPEC "Locating edits", already applied, refusals'

. "$(dirname "$0")/test-lib.sh"
. "$AA_TEST_DIR/fixtures/sources.sh"

# Every scenario: the assistant saw the files as in commit "seen" and
# wrote EDIT against them; meanwhile the files drifted (DRIFT) to what
# HEAD ("now") holds. The expected result, branch "expect", is EDIT done
# by sed/perl on the drifted files; the edits are written to work
# whatever the line numbers and indentation.

make_project () {
	make_repo "$1" &&
	(
		cd "$1" &&
		mkdir -p src app web &&
		write_ringbuf_c src/ringbuf.c &&
		write_handlers_c src/handlers.c &&
		write_inventory_py app/inventory.py &&
		write_cart_js web/cart.js &&
		git add . &&
		git commit -q -m project
	)
}

# setup_drift REPO DRIFT EDIT [diff options]: see above; the patch is
# ../REPO.diff (git diff seen..EDIT, with the diff options).
setup_drift () {
	sd_repo=$1 sd_drift=$2 sd_edit=$3 &&
	shift 3 &&
	rm -rf "$sd_repo" &&
	make_project "$sd_repo" &&
	(
		cd "$sd_repo" &&
		git tag seen &&
		$sd_edit &&
		git commit -q -a -m ai &&
		git diff "$@" seen HEAD | sed "/^index /d" >"../$sd_repo.diff" &&
		git reset -q --hard seen &&
		$sd_drift &&
		# no usable history: these tests are about the ladder (t25xx
		# tests the merge from the revision the answer saw)
		git commit -q -a --allow-empty --amend -m drift &&
		git tag now &&
		$sd_edit &&
		git commit -q -a --allow-empty -m expect &&
		git branch expect &&
		git reset -q --hard now
	)
}

# result_is: index == expect's tree, work tree == index, HEAD == now.
result_is () {
	if test "$(git write-tree)" != "$(git rev-parse "expect^{tree}")"
	then
		echo "index differs from the expected result:"
		git diff --cached expect
		return 1
	fi
	git diff --exit-code &&
	test "$(git rev-parse HEAD)" = "$(git rev-parse now)"
}

# hunk_line N PATCH: the old start line of hunk N of PATCH.
hunk_line () {
	grep "^@@ " "$2" | sed -n "$1{s/^@@ -\([0-9]*\).*/\1/;p;}"
}

# hows JSON: "how" of every landing, one a line.
hows () {
	jq -r '.files[].edits[].how' "$1"
}

# has_word WORD FILE: WORD appears in FILE, not as part of a longer
# number or name.
has_word () {
	test_grep -E "(^|[^0-9A-Za-z_])$1([^0-9A-Za-z_]|\$)" "$2"
}

# The edits.
edit_read () {
	perl -0pi -e 's/^([ \t]*)rb->used--;\n/$1if (--rb->used == 0)\n$1\trb->head = rb->tail = 0;\n/m' \
		src/ringbuf.c
}

edit_write () {
	sed -i 's/^\([ \t]*\)rb->data\[rb->head\] = p\[n++\];$/\1rb->data[rb->head] = p[n];\n\1n++;/' \
		src/ringbuf.c
}

edit_init_and_reset () {
	sed -i -e 's/^\([ \t]*\)if (!size)$/\1if (!rb || !size)/' \
		-e 's/^\([ \t]*\)rb->head = rb->tail = rb->used = 0;$/&\n\1memset(rb->data, 0, rb->size);/' \
		src/ringbuf.c
}

# in handle_head only (the second of two identical blocks)
edit_head_block () {
	perl -0pi -e 's/(int handle_head.*?send_status\(c, 404, "Not Found"\);\n([ \t]*))return -1;/$1return -404;/s' \
		src/handlers.c
}

edit_reserve () {
	perl -0pi -e 's/^( *)raise OutOfStock\(sku\)$/$1raise OutOfStock(f"{sku}: {item.quantity} left, {wanted} wanted")/m;
		s/^( *)(item\.quantity -= wanted *)\n/$1$2\n$1log.info("reserved %s x%d", sku, wanted)\n/m' \
		app/inventory.py
}

edit_cart_remove () {
	perl -0pi -e 's/^( *)remove\(productId\) \{\n/$&$1  const before = this.lines.length;\n/m;
		s/^( *)(this\.lines = this\.lines\.filter\(\(l\) => l\.product\.id !== productId\);)\n( *)return this;/$1$2\n$3return this.lines.length !== before;/m' \
		web/cart.js
}

# The drifts.
no_drift () {
	:
}

license_on_top () {
	{
		printf "/*\n * Copyright (c) 2024 The Ringbuf Authors.\n *\n"
		printf " * Permission is hereby granted, free of charge, to any person\n"
		printf " * obtaining a copy of this software, to deal in it without\n"
		printf " * restriction, subject to the following conditions:\n *\n"
		printf " * The above copyright notice shall be included in all copies.\n"
		printf " *\n * SPDX-License-Identifier: MIT\n */\n\n"
		cat src/ringbuf.c
	} >src/ringbuf.c.new &&
	mv src/ringbuf.c.new src/ringbuf.c
}

drop_space_fn () {
	perl -0pi -e 's/size_t ringbuf_space\(.*?\n}\n\n//s' src/ringbuf.c
}

# upstream put the body of reserve() under a lock (+4 columns) and left
# trailing blanks on one line
reserve_under_lock () {
	perl -0pi -e 's/(    def reserve\(self, sku: str, wanted: int\) -> int:\n)(.*?)(\n\n)/$1 . "        with self._lock:\n" . join("\n", map { "    $_" } split(m{\n}, $2)) . $3/se;
		s/(    def __init__\(self\) -> None:\n)/$1        self._lock = threading.Lock()\n/;
		s/^import logging$/import logging\nimport threading/m;
		s/^( *item\.quantity -= wanted)$/$1  /m' app/inventory.py
}

# the first context line of the ringbuf_write hunk (its outermost)
outer_context_changed () {
	sed -i "0,/^	size_t n = 0;\$/s//	size_t n = 0; \/* bytes copied so far *\//" src/ringbuf.c
}

trailing_blanks () {
	sed -i "s/^	size_t n = 0;\$/&   	/" src/ringbuf.c
}

fix_init_upstream () {
	sed -i 's/^\([ \t]*\)if (!size)$/\1if (!rb || !size)/' src/ringbuf.c
}

# the context line right before the change in ringbuf_read
conflicting_tail () {
	sed -i "s/^		rb->tail = (rb->tail + 1) % rb->size;/		if (++rb->tail == rb->size)\n			rb->tail = 0;/" src/ringbuf.c
}

test_expect_success 'rung 1: exact at the hinted line, silently' '
	setup_drift exact no_drift edit_read &&
	(
		cd exact &&
		git ai-apply --check --json ../exact.diff >../json 2>/dev/null &&
		git ai-apply ../exact.diff >../out 2>../err &&
		result_is
	) &&
	! grep -i "warning" err &&
	echo exact >expect &&
	hows json >actual &&
	test_cmp expect actual
'

test_expect_success 'rung 2: offset; the warning names the line and the offset' '
	setup_drift offset license_on_top edit_read &&
	hint=$(hunk_line 1 offset.diff) &&
	chat_answer diff offset.diff >answer.md &&
	(
		cd offset &&
		git ai-apply --check --json ../answer.md >../json 2>/dev/null &&
		git ai-apply ../answer.md >../out 2>../err &&
		result_is
	) &&
	test_grep "^warning: src/ringbuf.c: ../answer.md:[0-9]*: " err &&
	has_word $((hint + 12)) err &&
	test_grep -E "[+]?12" err &&
	jq -r ".files[].edits[] | \"\(.how) \(.line) \(.offset)\"" json >actual &&
	echo "offset $((hint + 12)) 12" >expect &&
	test_cmp expect actual
'

test_expect_success 'rung 2: a negative offset' '
	setup_drift negative drop_space_fn edit_read &&
	hint=$(hunk_line 1 negative.diff) &&
	(
		cd negative &&
		git ai-apply --check --json ../negative.diff >../json 2>/dev/null &&
		git ai-apply ../negative.diff 2>../err &&
		result_is
	) &&
	has_word $((hint - 5)) err &&
	jq -r ".files[].edits[] | \"\(.how) \(.line) \(.offset)\"" json >actual &&
	echo "offset $((hint - 5)) -5" >expect &&
	test_cmp expect actual
'

test_expect_success 'hunk headers that are all wrong (every hunk at line 1)' '
	setup_drift wrong license_on_top edit_init_and_reset &&
	test $(grep -c "^@@ " wrong.diff) = 2 &&
	sed "s/^@@ -[0-9]*\(,[0-9]*\) +[0-9]*\(,[0-9]*\) @@/@@ -1\1 +1\2 @@/" wrong.diff >bad.diff &&
	test $(grep -c "^@@ -1,7 +1,7 @@" bad.diff) = 1 &&
	(
		cd wrong &&
		git ai-apply ../bad.diff 2>../err &&
		result_is
	) &&
	test $(grep -c "^warning: " err) -ge 2
'

test_expect_success 'rung 3: indentation shift; added lines shifted, file context kept' '
	setup_drift shift reserve_under_lock edit_reserve -U2 &&
	test_grep "^+        log.info" shift.diff &&
	chat_answer python shift.diff >answer.md &&
	(
		cd shift &&
		git ai-apply --check --json ../answer.md >../json 2>/dev/null &&
		git ai-apply ../answer.md 2>../err &&
		result_is &&
		# the drifted line kept its trailing blanks
		test_grep "^            item.quantity -= wanted  \$" app/inventory.py &&
		test_grep "^            log.info(\"reserved" app/inventory.py
	) &&
	test_grep "^warning: app/inventory.py: " err &&
	test_grep -i "whitespace" err &&
	echo whitespace >expect &&
	hows json >actual &&
	test_cmp expect actual
'

test_expect_success 'rung 3: trailing blanks in the file, none in the patch' '
	setup_drift blanks trailing_blanks edit_write &&
	(
		cd blanks &&
		git ai-apply ../blanks.diff 2>../err &&
		result_is &&
		test_grep "^	size_t n = 0;   	\$" src/ringbuf.c
	) &&
	test_grep -i "whitespace" err
'

test_expect_success 'rung 4: reduced context when an outer context line changed' '
	setup_drift reduced outer_context_changed edit_write &&
	test_grep "^ 	size_t n = 0;\$" reduced.diff &&
	(
		cd reduced &&
		git ai-apply --check --json ../reduced.diff >../json 2>/dev/null &&
		git ai-apply ../reduced.diff 2>../err &&
		result_is
	) &&
	test_grep "^warning: src/ringbuf.c: " err &&
	test_grep -i "context" err &&
	echo reduced-context >expect &&
	hows json >actual &&
	test_cmp expect actual
'

test_expect_success 'two identical blocks: the hint picks the hinted one' '
	setup_drift twin no_drift edit_head_block &&
	(cd twin && grep -n "^	if (!res) {" src/handlers.c) >places &&
	test $(wc -l <places) = 2 &&
	(
		cd twin &&
		git ai-apply ../twin.diff 2>../err &&
		result_is
	) &&
	! grep -i warning err
'

test_expect_success 'two identical blocks: a hint a few lines off picks the nearer one' '
	hint=$(hunk_line 1 twin.diff) &&
	sed "s/^@@ -$hint,\([0-9]*\) +$hint,/@@ -$((hint - 4)),\1 +$((hint - 4)),/" twin.diff >near.diff &&
	! test_cmp twin.diff near.diff &&
	(
		cd twin &&
		git reset -q --hard now &&
		git ai-apply ../near.diff 2>../err &&
		result_is
	) &&
	has_word $hint err
'

test_expect_success 'two identical blocks, bare @@: refused, both places listed' '
	{
		echo "--- a/src/handlers.c" &&
		echo "+++ b/src/handlers.c" &&
		sed -n "/^@@/,\$p" twin.diff | sed "s/^@@ .*/@@/"
	} >bare.diff &&
	test_grep "^@@\$" bare.diff &&
	chat_answer diff bare.diff >answer.md &&
	(
		cd twin &&
		git reset -q --hard now &&
		test_rejected ../answer.md &&
		test_grep "src/handlers.c" err
	) &&
	for l in $(cut -d: -f1 places)
	do
		has_word $l twin/err || return 1
	done
'

test_expect_success 'bare @@ located by content when the place is unique' '
	setup_drift bare-ok license_on_top edit_cart_remove &&
	{
		echo "--- a/web/cart.js" &&
		echo "+++ b/web/cart.js" &&
		sed -n "/^@@/,\$p" bare-ok.diff | sed "s/^@@ .*/@@/"
	} >bare-ok-bare.diff &&
	(
		cd bare-ok &&
		git ai-apply ../bare-ok-bare.diff &&
		git diff --cached --name-only >../names
	) &&
	echo web/cart.js >expect &&
	test_cmp expect names
'

test_expect_success 'identical blocks also after whitespace is ignored: refused even with a hint' '
	# the assistant turned the tabs into four spaces
	sed "s/^\([ +-]\)	/\1    /; s/^\([ +-]\)    	/\1        /" twin.diff >spaces.diff &&
	! test_cmp twin.diff spaces.diff &&
	(
		cd twin &&
		git reset -q --hard now &&
		test_rejected ../spaces.diff &&
		test_grep "src/handlers.c" err
	) &&
	for l in $(cut -d: -f1 places)
	do
		has_word $l twin/err || return 1
	done
'

test_expect_success 'no match: refused; the error shows the closest region and how it differs' '
	setup_drift nomatch no_drift edit_read &&
	# the assistant misremembered the line it removes
	sed -e "s/^-		rb->used--;/-		rb->used -= 1;/" nomatch.diff >bad.diff &&
	! test_cmp nomatch.diff bad.diff &&
	at=$(grep -n "^@@" bad.diff | cut -d: -f1) &&
	(
		cd nomatch &&
		test_rejected ../bad.diff &&
		grep -n "^		rb->used--;" src/ringbuf.c | cut -d: -f1 >../line
	) &&
	test_grep "^error: src/ringbuf.c: ../bad.diff:$at: " nomatch/err &&
	# the line of the file that differs, with its number
	test_grep -F "rb->used--;" nomatch/err &&
	has_word $(cat line) nomatch/err
'

test_expect_success 'conflicting context: refused, nothing written' '
	setup_drift conflict conflicting_tail edit_read &&
	at=$(grep -n "^@@" conflict.diff | cut -d: -f1) &&
	chat_answer diff conflict.diff >answer.md &&
	at=$((at + 4)) &&
	(
		cd conflict &&
		test_rejected ../answer.md
	) &&
	test_grep "^error: src/ringbuf.c: ../answer.md:$at: " conflict/err
'

test_expect_success 'half already applied: the rest applies, with a note' '
	setup_drift half fix_init_upstream edit_init_and_reset &&
	test $(grep -c "^@@" half.diff) = 2 &&
	(
		cd half &&
		git ai-apply --check --json ../half.diff >../json 2>/dev/null &&
		git ai-apply ../half.diff >../out 2>../err &&
		result_is
	) &&
	test_grep "^note: src/ringbuf.c: ../half.diff:[0-9]*: .*already applied" err &&
	test_grep "^M src/ringbuf.c (+1 -0)" out &&
	printf "already-applied\nexact\n" >expect &&
	hows json >actual &&
	test_cmp expect actual
'

test_expect_success 'fully applied: exit 0, "already applied", nothing written' '
	setup_drift full edit_init_and_reset edit_init_and_reset &&
	chat_answer diff full.diff >answer.md &&
	(
		cd full &&
		repo_snapshot full &&
		git ai-apply ../answer.md >../out 2>../err &&
		repo_unchanged full &&
		git ai-apply --branch=ai/again ../answer.md >../out2 2>/dev/null &&
		test_must_fail git rev-parse --verify -q refs/heads/ai/again
	) &&
	test_grep "already applied" out &&
	test_grep "already applied" out2
'

test_expect_success 'a fully applied patch is never reversed or re-applied twice' '
	(
		cd full &&
		git ai-apply ../answer.md >../out 2>/dev/null &&
		git diff --cached --quiet &&
		test $(grep -c "memset(rb->data, 0, rb->size);" src/ringbuf.c) = 1
	)
'

test_done
