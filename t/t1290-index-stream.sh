#!/bin/sh

test_description='the new index is streamed from the old one (land/index_write.c): byte for byte what git apply --cached writes for v2, v3 and v4 with the cache-tree; the untracked cache kept (t1292 compares it with git), git status and fsck clean; a kill mid-write leaves the old index'

. "$(dirname "$0")/test-lib.sh"

# index_version: the version in .git/index's header.
index_version () {
	od -An -tu1 -j7 -N1 .git/index | tr -d " "
}

# has_ext SIG: the index holds the extension SIG (after the entries).
has_ext () {
	grep -q "$1" .git/index
}

test_expect_success 'setup: 60 files, a change that edits, adds, deletes, replaces a directory' '
	git init -q repo &&
	(
		cd repo &&
		for d in a b/c b/d e; do
			mkdir -p $d &&
			for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do
				printf "one\ntwo %s\nthree\n" "$d/f$i" >$d/f$i || return 1
			done || return 1
		done &&
		echo top >t.txt &&
		git add . && git commit -q -m initial
	) &&
	printf -- "--- a/a/f3\n+++ b/a/f3\n@@ -1,3 +1,3 @@\n one\n-two a/f3\n+TWO\n three\n" >change.diff &&
	printf -- "--- /dev/null\n+++ b/b/c/new\n@@ -0,0 +1 @@\n+new\n" >>change.diff &&
	printf -- "--- a/b/d/f7\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-one\n-two b/d/f7\n-three\n" >>change.diff &&
	printf -- "--- /dev/null\n+++ b/zz\n@@ -0,0 +1 @@\n+last\n" >>change.diff &&
	printf -- "--- /dev/null\n+++ b/0first\n@@ -0,0 +1 @@\n+first\n" >>change.diff
'

# same_as_git NAME SETUP: a copy of repo prepared by SETUP, landed by git
# apply --cached and by git ai-apply --cached: the two index files equal.
same_as_git () {
	rm -rf "$1.git" "$1.ai" &&
	cp -R repo "$1.git" &&
	(cd "$1.git" && git read-tree HEAD && eval "$2") &&
	cp -R "$1.git" "$1.ai" &&
	(cd "$1.git" && git apply --cached ../change.diff) &&
	(cd "$1.ai" && git ai-apply -q --cached ../change.diff) &&
	cmp "$1.git/.git/index" "$1.ai/.git/index" &&
	(
		cd "$1.ai" &&
		git fsck 2>../fsck.err && test_must_be_empty ../fsck.err &&
		git status --porcelain >../status.ai
	) &&
	(cd "$1.git" && git status --porcelain >../status.git) &&
	test_cmp status.git status.ai
}

test_expect_success 'v2 with the cache-tree: byte for byte' '
	same_as_git v2 "git update-index --index-version 2" &&
	(cd v2.ai && has_ext TREE && test "$(index_version)" = 2)
'

test_expect_success 'v3 (skip-worktree, intent-to-add): byte for byte' '
	same_as_git v3 "git update-index --skip-worktree e/f1 &&
		echo ita >ita.txt && git add -N ita.txt &&
		git update-index --index-version 3" &&
	(cd v3.ai && test "$(index_version)" = 3)
'

test_expect_success 'v3 whose one intent-to-add entry the change replaces: written as v2, as git does' '
	same_as_git v3down "echo new >b/c/new && git add -N b/c/new &&
		git update-index --index-version 3" &&
	(cd v3down.ai && test "$(index_version)" = 2)
'

test_expect_success 'v4 (prefix compression re-encoded after each change): byte for byte' '
	same_as_git v4 "git update-index --index-version 4" &&
	(cd v4.ai && test "$(index_version)" = 4)
'

test_expect_success 'a resolve-undo record is kept' '
	rm -rf reuc && cp -R repo reuc &&
	(
		cd reuc &&
		git checkout -q -b side &&
		echo side >t.txt && git commit -q -am side &&
		git checkout -q - &&
		echo main >t.txt && git commit -q -am main &&
		test_must_fail git merge -q side >/dev/null 2>&1 &&
		echo resolved >t.txt && git add t.txt &&
		has_ext REUC &&
		cp -R . ../reuc.git &&
		git ai-apply -q --cached ../change.diff &&
		has_ext REUC &&
		(cd ../reuc.git && git apply --cached ../change.diff) &&
		cmp .git/index ../reuc.git/.git/index
	)
'

test_expect_success 'the untracked cache: kept, git status as without it' '
	rm -rf untr && cp -R repo untr &&
	(
		cd untr &&
		git config core.untrackedCache true &&
		echo u >untracked.txt &&
		git update-index --untracked-cache &&
		git status --porcelain >/dev/null &&
		has_ext UNTR &&
		git ai-apply -q --cached ../change.diff &&
		has_ext UNTR &&
		git fsck 2>../fsck.err && test_must_be_empty ../fsck.err &&
		git status --porcelain >../status.now &&
		git config core.untrackedCache false &&
		git status --porcelain >../status.want
	) &&
	test_cmp status.want status.now
'

test_expect_success 'default mode: the new index names the written files, git status clean but for the change' '
	rm -rf dflt && cp -R repo dflt &&
	(
		cd dflt &&
		git update-index -q --refresh &&
		git ai-apply -q ../change.diff &&
		git fsck 2>../fsck.err && test_must_be_empty ../fsck.err &&
		git status --porcelain >../status.now &&
		git diff --quiet
	) &&
	cat >status.want <<-\EOF &&
	A  0first
	M  a/f3
	A  b/c/new
	D  b/d/f7
	A  zz
	EOF
	test_cmp status.want status.now
'

test_expect_success 'a racily clean entry whose file changed is smudged, as git does' '
	rm -rf racy && cp -R repo racy &&
	(
		cd racy &&
		git config core.trustctime false &&
		# e/f2 changes in the instant the index was written: same size,
		# same mtime, and the old index no older than it; all seconds
		# before the landing, so git cannot see it unless the size is
		# smudged
		touch -d "@$(($(date +%s) - 10))" e/f2 &&
		git update-index -q --refresh &&
		touch -r e/f2 ../ref &&
		printf "one\ntwo E/F2\nthree\n" >e/f2 &&
		touch -r ../ref e/f2 &&
		touch -r ../ref .git/index &&
		git ai-apply -q --cached ../change.diff &&
		git status --porcelain >../status.now
	) &&
	test_grep "^ M e/f2" status.now
'

# corrupt_trailer: the last byte of .git/index changed (the SHA-1 trailer
# no longer matches; git does not check it on read, libgit2 would refuse).
corrupt_trailer () {
	size=$(wc -c <.git/index) &&
	last=$(od -An -tu1 -j$((size - 1)) -N1 .git/index | tr -d " ") &&
	if test "$last" = 88; then b=Y; else b=X; fi &&
	printf "$b" | dd of=.git/index bs=1 seek=$((size - 1)) conv=notrunc 2>/dev/null
}

test_expect_success 'a trailer that does not match: --cached lands as git does (the index is never read whole)' '
	same_as_git badsum "corrupt_trailer"
'

test_expect_success 'a trailer that does not match: the default mode lands as git does' '
	rm -rf badsum.git badsum.ai && cp -R repo badsum.git &&
	(cd badsum.git && git update-index -q --refresh && corrupt_trailer) &&
	cp -R badsum.git badsum.ai &&
	(cd badsum.git && git update-index -q --really-refresh && corrupt_trailer &&
	 git apply --index ../change.diff && git ls-files -s >../ls.git) &&
	(cd badsum.ai && git ai-apply -q ../change.diff && git ls-files -s >../ls.ai &&
	 git fsck 2>../fsck.err && test_must_be_empty ../fsck.err && git diff --quiet) &&
	test_cmp ls.git ls.ai
'

test_expect_success 'default mode: a .gitattributes only in the index converts the written files as git does' '
	rm -rf attr && cp -R repo attr &&
	(
		cd attr &&
		printf "*.txt eol=crlf\n" >a/.gitattributes &&
		printf "one\ntwo\n" >a/g.txt &&
		git add a && git commit -q -m attributes &&
		rm a/g.txt && git checkout -q a/g.txt &&
		rm a/.gitattributes
	) &&
	printf -- "--- a/a/g.txt\n+++ b/a/g.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n" >attr.diff &&
	printf -- "--- /dev/null\n+++ b/a/h.txt\n@@ -0,0 +1,2 @@\n+new\n+file\n" >>attr.diff &&
	cp -R attr attr.git &&
	(cd attr.git && git update-index -q --refresh &&
	 git apply --index ../attr.diff && git ls-files -s >../ls.git) &&
	(cd attr && git ai-apply -q ../attr.diff && git ls-files -s >../ls.ai) &&
	test_cmp ls.git ls.ai &&
	cmp attr.git/a/g.txt attr/a/g.txt &&
	cmp attr.git/a/h.txt attr/a/h.txt &&
	printf "new\r\nfile\r\n" >h.want && cmp h.want attr/a/h.txt
'

test_expect_success 'killed in the middle of the write: the old index, --recover clears the lock' '
	rm -rf killed && cp -R repo killed &&
	(
		cd killed &&
		cp .git/index ../index.before &&
		test_expect_code 137 env AA_TEST_HOOK="index-write:kill" \
			git-ai-apply --cached ../change.diff &&
		cmp ../index.before .git/index &&
		git ai-apply --recover 2>/dev/null &&
		test ! -e .git/index.lock &&
		cmp ../index.before .git/index &&
		git fsck 2>../fsck.err && test_must_be_empty ../fsck.err
	)
'

test_done
