#!/bin/sh

test_description='git-lfs: an LFS-tracked path lands as an LFS object and a pointer in the index, the real content in the work tree'

. "$(dirname "$0")/test-lib.sh"

command -v git-lfs >/dev/null 2>&1 && test_set_prereq LFS

# is_pointer_for REV:PATH FILE: the blob at REV:PATH is the LFS pointer
# of FILE's bytes, and the LFS object holds them.
is_pointer_for () {
	git cat-file -p "$1" >"$SHARNESS_TRASH_DIRECTORY/pointer" &&
	sum=$(sha256sum <"$2" | cut -d" " -f1) &&
	size=$(wc -c <"$2" | tr -d " ") &&
	printf "version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %s\n" "$sum" "$size" >"$SHARNESS_TRASH_DIRECTORY/want.pointer" &&
	test_cmp "$SHARNESS_TRASH_DIRECTORY/want.pointer" "$SHARNESS_TRASH_DIRECTORY/pointer" &&
	obj=".git/lfs/objects/$(echo $sum | cut -c1-2)/$(echo $sum | cut -c3-4)/$sum" &&
	test_cmp "$2" "$obj"
}

lfs_objects () {
	(cd .git/lfs/objects && find . -type f | sort)
}

test_expect_success LFS 'setup: *.dat and *.bin tracked by git lfs (local, no remote)' '
	git init -q repo &&
	(
		cd repo &&
		git lfs install --local >/dev/null &&
		git lfs track "*.dat" "*.bin" >/dev/null &&
		printf "line one\nline two\n" >d.dat &&
		printf "bin\000ary\n" >a.bin &&
		echo plain >p.txt &&
		git add . &&
		git commit -q -m initial &&
		git cat-file -p :d.dat >../stored
	) &&
	test_grep "^version https://git-lfs.github.com/spec/v1" stored &&
	printf "d.dat\n\`\`\`\nline one\nline 2\nline three\n\`\`\`\n" >whole.md &&
	printf "line one\nline 2\nline three\n" >whole.want &&
	printf -- "--- a/d.dat\n+++ b/d.dat\n@@ -1,2 +1,2 @@\n line one\n-line two\n+line TWO\n" >edit.diff &&
	printf "line one\nline TWO\n" >edit.want
'

test_expect_success LFS 'a whole-file block: an LFS object and its pointer, the content in the work tree' '
	fresh r1 &&
	(
		cd r1 &&
		git ai-apply ../whole.md &&
		is_pointer_for :d.dat ../whole.want &&
		test_cmp ../whole.want d.dat &&
		git status --porcelain >../status &&
		git lfs fsck >/dev/null
	) &&
	echo "M  d.dat" >want && test_cmp want status
'

test_expect_success LFS 'a diff written against the real content' '
	fresh r2 &&
	(
		cd r2 &&
		git ai-apply ../edit.diff &&
		is_pointer_for :d.dat ../edit.want &&
		test_cmp ../edit.want d.dat
	)
'

test_expect_success LFS '--branch and --cached: the pointer, never the content' '
	fresh r3 &&
	(
		cd r3 &&
		git ai-apply --branch=fix ../edit.diff &&
		is_pointer_for fix:d.dat ../edit.want &&
		git ai-apply --cached ../whole.md &&
		is_pointer_for :d.dat ../whole.want &&
		printf "line one\nline two\n" >want && test_cmp want d.dat
	)
'

test_expect_success LFS 'a new LFS-tracked file' '
	fresh r4 &&
	printf "new.dat\n\`\`\`\nfresh\n\`\`\`\n" >new.md &&
	echo fresh >new.want &&
	(
		cd r4 &&
		git ai-apply ../new.md &&
		is_pointer_for :new.dat ../new.want &&
		test_cmp ../new.want new.dat
	)
'

test_expect_success LFS 'a rename keeps the pointer blob' '
	fresh r5 &&
	printf "diff --git a/a.bin b/b.bin\nsimilarity index 100%%\nrename from a.bin\nrename to b.bin\n" >rename.diff &&
	(
		cd r5 &&
		old=$(git rev-parse :a.bin) &&
		git ai-apply ../rename.diff &&
		test "$(git rev-parse :b.bin)" = "$old" &&
		printf "bin\000ary\n" >want && test_cmp want b.bin
	)
'

test_expect_success LFS '--check writes no LFS object and no git object' '
	fresh r6 &&
	(
		cd r6 &&
		lfs_objects >../before &&
		repo_snapshot check &&
		git ai-apply --check ../whole.md &&
		repo_unchanged check &&
		lfs_objects >../after
	) &&
	test_cmp before after
'

test_expect_success LFS 'a rejected landing: no git object, and the new content'"'"'s LFS object not made' '
	fresh r7 &&
	(
		cd r7 &&
		echo changed >>p.txt &&
		printf -- "--- a/p.txt\n+++ b/p.txt\n@@ -1 +1 @@\n-plain\n+PLAIN\n" >../p.diff &&
		cat ../whole.md ../p.diff >../both.md &&
		lfs_objects >../before &&
		test_rejected ../both.md &&
		lfs_objects >../after
	) &&
	test_cmp before after &&
	test_grep "p.txt: has unstaged changes" r7/err
'

test_done
