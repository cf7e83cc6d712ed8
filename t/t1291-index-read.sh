#!/bin/sh

test_description='--check reads the index in O(touched) (land/index_read.c): v2, v3 and v4 indexes as git writes them, intent-to-add, skip-worktree, conflicts, attributes only in the index, GIT_INDEX_FILE, a damaged index'

. "$(dirname "$0")/test-lib.sh"

# fatal_unchanged ARGS...: exit 128, nothing written, the message in ../err.
fatal_unchanged () {
	repo_snapshot fatal &&
	test_expect_code 128 git ai-apply "$@" >"$(snapshot_dir)/out" 2>"$(snapshot_dir)/err" &&
	repo_unchanged fatal &&
	cp "$(snapshot_dir)/err" ../err
}

# index_version: the version in .git/index's header (git 2.39 has no
# update-index --show-index-version).
index_version () {
	od -An -tu1 -j7 -N1 .git/index | tr -d " "
}

# edit PATH: a diff that changes the second line "two PATH" of PATH.
edit () {
	printf -- "--- a/%s\n+++ b/%s\n@@ -1,3 +1,3 @@\n one\n-two %s\n+TWO %s\n three\n" \
		"$1" "$1" "$1" "$1"
}

test_expect_success 'setup: 120 files in 6 directories (v4 keeps every 32nd path)' '
	git init -q repo &&
	(
		cd repo &&
		for d in a b c d0 d1 z; do
			mkdir -p $d &&
			for i in 00 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19; do
				printf "one\ntwo %s\nthree\n" "$d/f$i" >$d/f$i || return 1
			done || return 1
		done &&
		printf "one\ntwo a.txt\nthree\n" >a.txt &&
		git add . && git commit -q -m initial
	) &&
	{ edit a/f00 && edit c/f13 && edit z/f19 && edit a.txt; } >edits.diff &&
	printf -- "--- /dev/null\n+++ b/new/n.txt\n@@ -0,0 +1 @@\n+n\n" >new.diff &&
	printf -- "--- a/d1/f07\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-one\n-two d1/f07\n-three\n" >delete.diff &&
	printf -- "--- /dev/null\n+++ b/d0\n@@ -0,0 +1 @@\n+file where a directory is\n" >dirfile.diff &&
	printf -- "--- /dev/null\n+++ b/c/f13/x\n@@ -0,0 +1 @@\n+under a file\n" >filedir.diff &&
	printf -- "--- /dev/null\n+++ b/c/f13\n@@ -0,0 +1 @@\n+exists\n" >exists.diff
'

for v in 2 3 4
do
	test_expect_success "index v$v: edits at the first, middle and last entries" "
		(
			cd repo &&
			# v3 needs an entry with extended flags (else git writes v2)
			if test $v = 2
			then
				git update-index --no-skip-worktree b/f19
			else
				git update-index --skip-worktree b/f19
			fi &&
			git update-index --index-version $v &&
			test \"\$(index_version)\" = $v &&
			repo_snapshot ok$v &&
			git ai-apply --check ../edits.diff >../out &&
			repo_unchanged ok$v
		) &&
		test_grep '^M a/f00' out && test_grep '^M c/f13' out &&
		test_grep '^M z/f19' out && test_grep '^M a.txt' out
	"

	test_expect_success "index v$v: a new file, a deletion" "
		(
			cd repo &&
			git ai-apply --check ../new.diff >../out1 &&
			git ai-apply --check ../delete.diff >../out2
		) &&
		test_grep '^A new/n.txt' out1 && test_grep '^D d1/f07' out2
	"

	test_expect_success "index v$v: a file where a directory is, under a file, over an existing one: refused" "
		(
			cd repo &&
			test_rejected --check ../dirfile.diff &&
			test_rejected --check ../filedir.diff &&
			test_rejected --check ../exists.diff
		)
	"

	test_expect_success "index v$v: a path the index does not hold is refused" "
		(
			cd repo &&
			git rm -q --cached c/f13 &&
			test_rejected --check ../edits.diff &&
			git add c/f13
		) &&
		test_grep 'c/f13' repo/err
	"
done

test_expect_success 'v3, v4: intent-to-add and skip-worktree entries as before' '
	for v in 3 4
	do
		(
			cd repo &&
			git update-index --index-version $v &&
			echo new >ita.txt && git add -N ita.txt &&
			printf -- "--- /dev/null\n+++ b/ita.txt\n@@ -0,0 +1 @@\n+N\n" >../ita.diff &&
			test_rejected --check ../ita.diff &&
			test_grep "intent-to-add" err &&
			git update-index --skip-worktree a/f00 &&
			git ai-apply --check ../edits.diff >../out &&
			test_grep "^M a/f00 (+1 -1, index only)" ../out &&
			git update-index --no-skip-worktree a/f00 &&
			git rm -q --cached ita.txt && rm ita.txt
		) || return 1
	done
'

test_expect_success 'a .gitattributes only in the index counts (as libgit2 reads it)' '
	(
		cd repo &&
		echo "f05 binary" >b/.gitattributes &&
		git add b/.gitattributes &&
		rm b/.gitattributes &&
		edit b/f05 >../bin.diff &&
		test_rejected --check ../bin.diff &&
		test_grep "binary file" err &&
		edit b/f06 >../text.diff &&
		git ai-apply --check ../text.diff &&
		git rm -q --cached b/.gitattributes
	)
'

test_expect_success 'an index with conflicts: refused, nothing written' '
	rm -rf conflict && cp -R repo conflict &&
	(
		cd conflict &&
		git checkout -q -b other &&
		echo theirs >a.txt && git commit -q -am theirs &&
		git checkout -q - &&
		echo ours >a.txt && git commit -q -am ours &&
		test_must_fail git merge -q other >/dev/null 2>&1 &&
		fatal_unchanged --check ../edits.diff
	) &&
	test_grep "unresolved conflicts" err
'

test_expect_success 'GIT_INDEX_FILE is the index read' '
	(
		cd repo &&
		GIT_INDEX_FILE=.git/other-index git read-tree HEAD &&
		GIT_INDEX_FILE=.git/other-index git rm -q --cached z/f19 &&
		GIT_INDEX_FILE=.git/other-index test_rejected --check ../edits.diff &&
		test_grep "z/f19" err &&
		rm .git/other-index
	)
'

test_expect_success 'no index yet: an empty index' '
	git init -q empty &&
	(
		cd empty &&
		test_rejected --check ../edits.diff &&
		git ai-apply --check ../new.diff >../out
	) &&
	test_grep "^A new/n.txt" out
'

test_expect_success 'a damaged index: exit 128, the reason, nothing written' '
	rm -rf damaged && cp -R repo damaged &&
	(
		cd damaged &&
		size=$(wc -c <.git/index) &&
		head -c $((size / 2)) .git/index >.git/index.half &&
		mv .git/index.half .git/index &&
		fatal_unchanged --check ../edits.diff
	) &&
	test_grep "cannot read the index" err
'

test_done
