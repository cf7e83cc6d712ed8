#!/bin/sh

test_description='the untracked cache (UNTR) kept as git keeps it through a landing: the touched paths'"'"' directories invalidated, core.untrackedCache honoured; byte for byte what git apply --cached writes, and in the default mode what git apply --index writes (stat data of the written files aside); git status and fsck clean'

. "$(dirname "$0")/test-lib.sh"

. "$AA_TEST_DIR/lib/index-compare.sh"

test_expect_success 'setup' '
	index_compare_setup
'

has_untr () {
	test -f "$1" && grep -q "^UNTR" "$1"
}

no_untr () {
	test -f "$1" && ! grep -q "^UNTR" "$1"
}

test_expect_success 'v2, the cache filled by git status: --cached byte for byte' '
	land v2 --cached "git update-index --untracked-cache && git status >/dev/null" &&
	same v2 && same_but_stat v2 && has_untr v2.git.dump &&
	dump v2.saved/.git/index --no-stat >v2.saved.dump &&
	! test_cmp v2.saved.dump v2.ai.dump >/dev/null
'

test_expect_success 'v2: the default mode as git apply --index' '
	land v2i --index "git update-index --untracked-cache && git status >/dev/null" &&
	same_but_stat v2i && has_untr v2i.ai.dump
'

test_expect_success 'v3 (intent-to-add, skip-worktree), git status -uall: --cached and the default mode' '
	setup="echo ita >b/c/ita && git add -N b/c/ita &&
		git update-index --skip-worktree e/f0 &&
		git update-index --untracked-cache && git status -uall >/dev/null" &&
	land v3 --cached "$setup" && same v3 &&
	grep "^version 3" v3.ai.dump && has_untr v3.ai.dump &&
	land v3i --index "$setup" && same_but_stat v3i
'

test_expect_success 'v4: --cached and the default mode' '
	setup="git update-index --index-version 4 &&
		git update-index --untracked-cache && git status >/dev/null" &&
	land v4 --cached "$setup" && same v4 && grep "^version 4" v4.ai.dump &&
	land v4i --index "$setup" && same_but_stat v4i
'

test_expect_success 'status.showUntrackedFiles=all: only the touched directories invalidated' '
	land all --cached "git config status.showUntrackedFiles all &&
		git update-index --untracked-cache && git status >/dev/null" &&
	same all && has_untr all.ai.dump
'

test_expect_success 'core.untrackedCache=true: the cache kept, invalidated' '
	land true --cached "git config core.untrackedCache true && git status >/dev/null" &&
	same true && has_untr true.ai.dump
'

test_expect_success 'core.untrackedCache=true, no cache yet: a new empty one, as git adds it' '
	land new --cached "git config core.untrackedCache true" &&
	same new && has_untr new.ai.dump &&
	land newi --index "git config core.untrackedCache true" &&
	same_but_stat newi
'

test_expect_success 'core.untrackedCache=true, a cache made for another work tree: replaced by a new one' '
	rm -rf other && cp -pR repo other &&
	(cd other && git update-index --untracked-cache && git status >/dev/null) &&
	land moved --cached "cp ../other/.git/index .git/index &&
		git config core.untrackedCache true" &&
	same moved && has_untr moved.ai.dump &&
	dump other/.git/index --no-stat | grep ^UNTR >untr.other &&
	grep ^UNTR moved.ai.dump >untr.moved &&
	! test_cmp untr.other untr.moved >/dev/null
'

test_expect_success 'core.untrackedCache=false: dropped, as git drops it' '
	land false --cached "git update-index --untracked-cache && git status >/dev/null &&
		git config core.untrackedCache false" &&
	same false && no_untr false.ai.dump
'

test_expect_success 'feature.manyFiles (core.untrackedCache keep): as git' '
	land many --cached "git config feature.manyFiles true &&
		git config core.untrackedCache keep" &&
	same many && has_untr many.ai.dump
'

# damage_untr: the untracked cache's last byte (a NUL git requires)
# made 1: git's reader drops the extension.
damage_untr () {
	perl -e '
		open(my $f, "+<:raw", ".git/index") or die;
		local $/; my $d = <$f>;
		my $at = index($d, "UNTR", 12);
		my $len = unpack("N", substr($d, $at + 4, 4));
		seek($f, $at + 8 + $len - 1, 0); print $f "\001"; close $f;
	'
}

test_expect_success 'a damaged untracked cache is dropped, as git drops it' '
	land damaged --cached "git update-index --untracked-cache && git status >/dev/null &&
		damage_untr" &&
	same damaged && no_untr damaged.ai.dump
'

test_done
