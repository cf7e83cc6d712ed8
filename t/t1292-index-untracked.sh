#!/bin/sh

test_description='the untracked cache (UNTR) kept as git keeps it through a landing: the touched paths'"'"' directories invalidated, core.untrackedCache honoured; byte for byte what git apply --cached writes, and in the default mode what git apply --index writes (stat data of the written files aside); git status and fsck clean'

. "$(dirname "$0")/test-lib.sh"

dump () {
	perl "$AA_TEST_DIR/lib/index-dump.pl" "$@"
}

# A work tree with tracked files in nested directories and untracked
# files in several of them (one a whole untracked directory), every file
# a minute old so that no entry is racily clean. core.checkStat=minimal
# and core.trustctime=false let a copy (cp -pR: same mtimes, other
# inodes and ctimes) stay clean for git apply --index.
test_expect_success 'setup' '
	git init -q repo &&
	(
		cd repo &&
		git config core.checkStat minimal &&
		git config core.trustctime false &&
		for d in a b/c b/d e e/f/g; do
			mkdir -p $d &&
			for i in 0 1 2; do
				echo "$d $i" >$d/f$i || return 1
			done || return 1
		done &&
		echo top >top &&
		git add . && git commit -q -m initial &&
		echo u >a/u1 && echo u >b/c/u2 && echo u >e/f/u4 && echo u >top.u &&
		mkdir -p b/d/nested/deep && echo u >b/d/nested/deep/u3 &&
		find . -path ./.git -prune -o -type f -exec touch -d "@$(($(date +%s) - 60))" {} + &&
		git update-index -q --refresh
	) &&
	cat >change.diff <<-\EOF
	diff --git a/a/f1 b/a/f1
	--- a/a/f1
	+++ b/a/f1
	@@ -1 +1 @@
	-a 1
	+A
	diff --git a/new/dir/x b/new/dir/x
	new file mode 100644
	--- /dev/null
	+++ b/new/dir/x
	@@ -0,0 +1 @@
	+x
	diff --git a/e/f/g/f0 b/e/f/g/f0
	deleted file mode 100644
	--- a/e/f/g/f0
	+++ /dev/null
	@@ -1 +0,0 @@
	-e/f/g 0
	diff --git a/b/c/f2 b/b/d/nested/f2
	similarity index 100%
	rename from b/c/f2
	rename to b/d/nested/f2
	diff --git a/top b/top
	--- a/top
	+++ b/top
	@@ -1 +1 @@
	-top
	+TOP
	EOF
'

# land NAME MODE SETUP: SETUP run in a copy of repo, saved; then the
# change landed from that state by git apply (MODE --cached or --index)
# and by git ai-apply (--cached or the default mode), each in a work tree
# at the same path "w" (the untracked cache names its work tree), leaving
# NAME.git and NAME.ai with their indexes, status and fsck results.
land () {
	rm -rf w "$1.saved" "$1.git" "$1.ai" &&
	cp -pR repo w &&
	(cd w && eval "$3") &&
	mv w "$1.saved" &&
	for who in git ai; do
		cp -pR "$1.saved" w &&
		(
			cd w &&
			if test $who = git
			then
				git apply $2 ../change.diff
			elif test $2 = --cached
			then
				git ai-apply -q --cached ../change.diff
			else
				git ai-apply -q ../change.diff
			fi &&
			git fsck 2>../fsck.err && test_must_be_empty ../fsck.err &&
			git --no-optional-locks status --porcelain >../$1.$who.status &&
			git -c core.untrackedCache=false --no-optional-locks \
				status --porcelain >../$1.$who.status-nocache &&
			test_cmp ../$1.$who.status-nocache ../$1.$who.status
		) &&
		mv w "$1.$who" || return 1
	done &&
	test_cmp "$1.git.status" "$1.ai.status"
}

# same NAME: the two indexes equal byte for byte (and dumped, as below).
same () {
	cmp "$1.git/.git/index" "$1.ai/.git/index" &&
	dump "$1.ai/.git/index" --no-stat >"$1.ai.dump"
}

# same_but_stat NAME: equal but for the ctime, mtime, dev and ino of
# each entry (the default mode writes the files at other instants);
# every extension byte for byte.
same_but_stat () {
	dump "$1.git/.git/index" --no-stat >"$1.git.dump" &&
	dump "$1.ai/.git/index" --no-stat >"$1.ai.dump" &&
	test_cmp "$1.git.dump" "$1.ai.dump"
}

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
