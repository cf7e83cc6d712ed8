#!/bin/sh

test_description='a landing of many new objects (1,000 or more) writes one pack, kept until the index names it, instead of a fsynced loose file each'

. "$(dirname "$0")/test-lib.sh"

TRASH=$(pwd)

wait_for () {
	i=0
	while ! test -e "$1"
	do
		i=$((i + 1))
		test $i -lt 6000 || { echo "timed out waiting for $1"; return 1; }
		sleep 0.01
	done
}

loose_count () {
	find .git/objects -type f -path "*/[0-9a-f][0-9a-f]/*" | wc -l
}

# clean_after: no keep, no lock, no journal, fsck clean.
clean_after () {
	{ find .git/objects/pack -name "*.keep" || :; } >"$TRASH/left" &&
	{ find .git -name "index.lock*" || :; } >>"$TRASH/left" &&
	{ test ! -e .git/ai-apply/journal || echo journal; } >>"$TRASH/left" &&
	test_must_be_empty "$TRASH/left" &&
	git fsck --full --no-dangling --no-progress 2>"$TRASH/fsck.err" &&
	test_must_be_empty "$TRASH/fsck.err"
}

test_expect_success 'setup: an answer of 1,200 new files' '
	make_repo repo &&
	awk "BEGIN { for (i = 0; i < 1200; i++) {
		printf \"diff --git a/many/f%04d.txt b/many/f%04d.txt\\n\", i, i
		print \"new file mode 100644\"
		print \"--- /dev/null\"
		printf \"+++ b/many/f%04d.txt\\n\", i
		print \"@@ -0,0 +1 @@\"
		printf \"+file %d\\n\", i
	} }" >many.diff &&
	fresh applied &&
	(cd applied && git apply --index ../many.diff && git write-tree >../tree.new) &&
	(cd repo && git write-tree >../tree.old)
'

for mode in "" --cached
do
	test_expect_success "${mode:-default mode}: one pack, no loose object, no keep left" '
		fresh big &&
		(
			cd big &&
			before=$(loose_count) &&
			ls .git/objects/pack >../packs.before &&
			git ai-apply -q $mode ../many.diff &&
			test "$(loose_count)" = "$before" &&
			ls .git/objects/pack >../packs.after &&
			test "$(comm -13 ../packs.before ../packs.after | grep -c "\.pack$")" = 1 &&
			test "$(git write-tree)" = "$(cat ../tree.new)" &&
			clean_after
		)
	'
done

test_expect_success 'a landing below the threshold still writes loose objects' '
	fresh small &&
	(
		cd small &&
		head -n 60 ../many.diff >../ten.diff &&
		before=$(loose_count) &&
		git ai-apply -q ../ten.diff &&
		test "$(loose_count)" = $((before + 10)) &&
		clean_after
	)
'

for step in journal keep pack path index rename
do
	test_expect_success "killed at '$step': the next run leaves no keep and a whole state" '
		fresh kill &&
		(
			cd kill &&
			test_expect_code 137 env AA_TEST_HOOK="$step:kill" git-ai-apply ../many.diff &&
			git ai-apply --recover >/dev/null 2>../recover.err &&
			clean_after &&
			tree=$(git write-tree) &&
			{ test "$tree" = "$(cat ../tree.old)" || test "$tree" = "$(cat ../tree.new)"; }
		)
	'
done

test_expect_success '--cached killed after the pack: recovered, no keep' '
	fresh killc &&
	(
		cd killc &&
		test_expect_code 137 env AA_TEST_HOOK="pack:kill" git-ai-apply --cached ../many.diff &&
		git ai-apply --recover >/dev/null &&
		clean_after
	)
'

for maint in "gc --prune=now" "repack -a -d"
do
	test_expect_success "git $maint while the work tree is written: fsck clean, every object there" '
		fresh race &&
		(
			cd race &&
			rm -f ../go ../go.waiting &&
			{ AA_TEST_HOOK="path:pause:$TRASH/go" git-ai-apply -q ../many.diff & } &&
			pid=$! &&
			wait_for ../go.waiting &&
			{ git $maint -q 2>/dev/null || :; } &&
			: >../go &&
			wait $pid &&
			clean_after &&
			test "$(git write-tree)" = "$(cat ../tree.new)"
		)
	'
done

test_done
