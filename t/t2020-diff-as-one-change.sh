#!/bin/sh

test_description='a git diff applied as one change: its old paths name the files before it (copies from edited files, swaps by renames, a file replaced by a directory), as git apply does; separate blocks keep their order'

. "$(dirname "$0")/test-lib.sh"

# same_as_git_apply PATCH [--cached]: in fresh copies of "repo", git
# ai-apply and git apply (--index, or --cached) land PATCH to the same
# index (and, without --cached, the same clean work tree).
same_as_git_apply () {
	rm -rf by-git by-us && cp -R repo by-git && cp -R repo by-us &&
	git -C by-git update-index -q --refresh &&
	git -C by-git apply ${2:---index} "../$1" &&
	(cd by-us && git ai-apply $2 "../$1") &&
	test "$(git -C by-us write-tree)" = "$(git -C by-git write-tree)" &&
	if test -z "$2"
	then
		git -C by-us diff --exit-code &&
		test -z "$(git -C by-us ls-files --others --exclude-standard)"
	fi
}

# rejected_at PATCH LINE PATTERN: refused in a fresh copy "rj", nothing
# written, the error names PATCH:LINE and matches PATTERN.
rejected_at () {
	rm -rf rj && cp -R repo rj &&
	(
		cd rj &&
		test_rejected "../$1" &&
		test_grep "$1:$2: .*$3" err
	)
}

# in_index REPO PATH EXPECT: the index of REPO holds EXPECT's bytes at PATH.
in_index () {
	git -C "$1" show ":$2" >actual &&
	test_cmp "$3" actual
}

test_expect_success 'setup' '
	git init -q repo &&
	(
		cd repo &&
		printf "one\ntwo\nthree\n" >a &&
		printf "bee\n" >b &&
		printf "sea\n" >c &&
		mkdir foo && printf "baz\n" >foo/baz &&
		printf "file\n" >bar &&
		git add . &&
		git commit -q -m base &&
		git tag base
	) &&
	printf "one\ntwo\nthree\n" >old-a &&
	printf "one\nTWO\nthree\n" >new-a
'

test_expect_success 'a copy from a file the diff edits copies the old file' '
	cat >copy-edited.patch <<-\EOF &&
	diff --git a/a b/a
	--- a/a
	+++ b/a
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	diff --git a/a b/d
	similarity index 100%
	copy from a
	copy to d
	EOF
	same_as_git_apply copy-edited.patch &&
	test_cmp old-a by-us/d &&
	test_cmp new-a by-us/a &&
	in_index by-us d old-a
'

test_expect_success 'a rename from a file the diff edits: refused (git keeps both files)' '
	cat >rename-edited.patch <<-\EOF &&
	diff --git a/a b/a
	--- a/a
	+++ b/a
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	diff --git a/a b/d
	similarity index 100%
	rename from a
	rename to d
	EOF
	rejected_at rename-edited.patch 1 "the same diff renames it (../rename-edited.patch:9)"
'

test_expect_success 'an edit after a copy edits the copy' '
	cat >edit-copy.patch <<-\EOF &&
	diff --git a/a b/d
	similarity index 100%
	copy from a
	copy to d
	diff --git a/d b/d
	--- a/d
	+++ b/d
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
	same_as_git_apply edit-copy.patch &&
	test_cmp old-a by-us/a &&
	test_cmp new-a by-us/d
'

test_expect_success 'a copy with its own hunks, the source edited too' '
	cat >copy-both.patch <<-\EOF &&
	diff --git a/a b/d
	similarity index 66%
	copy from a
	copy to d
	--- a/a
	+++ b/d
	@@ -1,3 +1,3 @@
	-one
	+ONE
	 two
	 three
	diff --git a/a b/a
	--- a/a
	+++ b/a
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
	same_as_git_apply copy-both.patch &&
	printf "ONE\ntwo\nthree\n" >expect &&
	test_cmp expect by-us/d &&
	test_cmp new-a by-us/a
'

test_expect_success 'two renames swap two files' '
	cat >swap.patch <<-\EOF &&
	diff --git a/a b/b
	similarity index 100%
	rename from a
	rename to b
	diff --git a/b b/a
	similarity index 100%
	rename from b
	rename to a
	EOF
	same_as_git_apply swap.patch &&
	test_cmp old-a by-us/b &&
	echo bee >expect && test_cmp expect by-us/a
'

test_expect_success 'three renames rotate three files, one of them edited' '
	cat >rotate.patch <<-\EOF &&
	diff --git a/a b/b
	similarity index 100%
	rename from a
	rename to b
	diff --git a/b b/c
	similarity index 100%
	rename from b
	rename to c
	diff --git a/c b/a
	similarity index 50%
	rename from c
	rename to a
	--- a/c
	+++ b/a
	@@ -1 +1 @@
	-sea
	+SEA
	EOF
	same_as_git_apply rotate.patch &&
	test_cmp old-a by-us/b &&
	echo bee >expect && test_cmp expect by-us/c &&
	echo SEA >expect && test_cmp expect by-us/a
'

test_expect_success 'an edit of a rename target edits the moved file' '
	cat >ren-edit.patch <<-\EOF &&
	diff --git a/a b/e
	similarity index 100%
	rename from a
	rename to e
	diff --git a/e b/e
	--- a/e
	+++ b/e
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
	same_as_git_apply ren-edit.patch &&
	test_cmp new-a by-us/e &&
	test_path_is_missing by-us/a
'

test_expect_success 'an edit of a path renamed away after a rename onto it: refused, as git apply does' '
	cat >swap-edit.patch <<-\EOF &&
	diff --git a/a b/b
	similarity index 100%
	rename from a
	rename to b
	diff --git a/b b/a
	similarity index 100%
	rename from b
	rename to a
	diff --git a/b b/b
	--- a/b
	+++ b/b
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
	test_must_fail git -C repo apply --check ../swap-edit.patch &&
	rejected_at swap-edit.patch 9 "the same diff renames it (../swap-edit.patch:5)"
'

test_expect_success 'an edit of a path deleted, then created again: edits the new file' '
	cat >recreate-edit.patch <<-\EOF &&
	diff --git a/b b/b
	deleted file mode 100644
	--- a/b
	+++ /dev/null
	@@ -1 +0,0 @@
	-bee
	diff --git a/b b/b
	new file mode 100644
	--- /dev/null
	+++ b/b
	@@ -0,0 +1 @@
	+new bee
	diff --git a/b b/b
	--- a/b
	+++ b/b
	@@ -1 +1,2 @@
	 new bee
	+more
	EOF
	same_as_git_apply recreate-edit.patch &&
	printf "new bee\nmore\n" >expect &&
	test_cmp expect by-us/b
'

test_expect_success 'an edit of a renamed-away path: refused, as git apply does' '
	cat >edit-gone.patch <<-\EOF &&
	diff --git a/a b/d
	similarity index 100%
	rename from a
	rename to d
	diff --git a/a b/a
	--- a/a
	+++ b/a
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
	test_must_fail git -C repo apply --check ../edit-gone.patch &&
	rejected_at edit-gone.patch 5 "the same diff renames it (../edit-gone.patch:1)"
'

test_expect_success 'a rename onto a file the diff keeps: refused, as git apply does' '
	cat >onto.patch <<-\EOF &&
	diff --git a/a b/b
	similarity index 100%
	rename from a
	rename to b
	diff --git a/b b/b
	--- a/b
	+++ b/b
	@@ -1 +1 @@
	-bee
	+BEE
	EOF
	test_must_fail git -C repo apply --check ../onto.patch &&
	rejected_at onto.patch 1 "already exists; refusing to rename onto it"
'

test_expect_success 'a copy from a file the same diff creates: refused, as git apply does' '
	cat >copy-new.patch <<-\EOF &&
	diff --git a/n b/n
	new file mode 100644
	--- /dev/null
	+++ b/n
	@@ -0,0 +1 @@
	+new
	diff --git a/n b/m
	similarity index 100%
	copy from n
	copy to m
	EOF
	test_must_fail git -C repo apply --check ../copy-new.patch &&
	rejected_at copy-new.patch 7 "does not exist; cannot copy it"
'

cat >foo-file.patch <<\EOF
diff --git a/foo b/foo
new file mode 100644
--- /dev/null
+++ b/foo
@@ -0,0 +1 @@
+file foo
diff --git a/foo/baz b/foo/baz
deleted file mode 100644
--- a/foo/baz
+++ /dev/null
@@ -1 +0,0 @@
-baz
EOF

test_expect_success 'a file created where the diff deletes a directory (--cached)' '
	same_as_git_apply foo-file.patch --cached &&
	echo "file foo" >expect &&
	in_index by-us foo expect &&
	test_must_fail git -C by-us cat-file -e :foo/baz
'

test_expect_success 'the same, as a new commit (--branch)' '
	rm -rf br && cp -R repo br &&
	(
		cd br &&
		git ai-apply --branch=topic ../foo-file.patch &&
		echo "file foo" >expect &&
		git show topic:foo >actual &&
		test_cmp expect actual &&
		test_must_fail git cat-file -e topic:foo/baz
	)
'

test_expect_success 'the same in the work tree (the directory is emptied first)' '
	same_as_git_apply foo-file.patch &&
	echo "file foo" >expect && test_cmp expect by-us/foo
'

test_expect_success 'a file where a directory of several levels was' '
	cat >deep.patch <<-\EOF &&
	diff --git a/foo b/foo
	new file mode 100644
	--- /dev/null
	+++ b/foo
	@@ -0,0 +1 @@
	+file foo
	diff --git a/foo/baz b/foo/baz
	deleted file mode 100644
	--- a/foo/baz
	+++ /dev/null
	@@ -1 +0,0 @@
	-baz
	diff --git a/foo/sub/deep b/foo/sub/deep
	deleted file mode 100644
	--- a/foo/sub/deep
	+++ /dev/null
	@@ -1 +0,0 @@
	-deep
	EOF
	rm -rf deep && cp -R repo deep &&
	(
		cd deep &&
		mkdir foo/sub && echo deep >foo/sub/deep &&
		git add foo/sub/deep && git commit -q -m deep &&
		git ai-apply ../deep.patch &&
		echo "file foo" >expect && test_cmp expect foo &&
		git diff --exit-code &&
		test "$(git ls-files foo)" = foo
	)
'

test_expect_success 'a file where a directory keeps an untracked file: refused, nothing written' '
	rm -rf rj && cp -R repo rj &&
	(
		cd rj &&
		echo mine >foo/untracked &&
		test_rejected ../foo-file.patch &&
		test_grep "foo: already exists in the work tree" err &&
		test_cmp ../repo/foo/baz foo/baz
	)
'

test_expect_success 'a file where a directory was: a failed landing puts the directory back' '
	awk "BEGIN { print \"diff --git a/big.txt b/big.txt\"; print \"new file mode 100644\";
		print \"--- /dev/null\"; print \"+++ b/big.txt\"; print \"@@ -0,0 +1,3000 @@\";
		for (i = 0; i < 3000; i++) print \"+\" sprintf(\"%060d\", i) }" >big.diff &&
	cat foo-file.patch big.diff >foo-big.patch &&
	rm -rf fsize && cp -R repo fsize &&
	(
		cd fsize &&
		(
			ulimit -f 100 &&
			test_expect_code 128 git ai-apply ../foo-big.patch 2>../err
		) &&
		test_path_is_dir foo &&
		test_cmp ../repo/foo/baz foo/baz &&
		test_path_is_missing big.txt &&
		git diff --exit-code &&
		git diff --cached --exit-code &&
		test -z "$(git ls-files --others)"
	) &&
	test_grep "big.txt: cannot write" err
'

test_expect_success 'a directory created where the diff deletes a file' '
	cat >bar-dir.patch <<-\EOF &&
	diff --git a/bar/x b/bar/x
	new file mode 100644
	--- /dev/null
	+++ b/bar/x
	@@ -0,0 +1 @@
	+x
	diff --git a/bar b/bar
	deleted file mode 100644
	--- a/bar
	+++ /dev/null
	@@ -1 +0,0 @@
	-file
	EOF
	same_as_git_apply bar-dir.patch &&
	echo x >expect && test_cmp expect by-us/bar/x
'

test_expect_success 'a directory where a file was: a failed landing puts the file back' '
	cat bar-dir.patch big.diff >bar-big.patch &&
	rm -rf fsize && cp -R repo fsize &&
	(
		cd fsize &&
		(
			ulimit -f 100 &&
			test_expect_code 128 git ai-apply ../bar-big.patch 2>../err
		) &&
		test_cmp ../repo/bar bar &&
		test_path_is_missing big.txt &&
		git diff --exit-code &&
		git diff --cached --exit-code &&
		test -z "$(git ls-files --others)"
	) &&
	test_grep "big.txt: cannot write" err
'

test_expect_success 'a file created where it is deleted (delete, then create)' '
	cat >replace.patch <<-\EOF &&
	diff --git a/b b/b
	deleted file mode 100644
	--- a/b
	+++ /dev/null
	@@ -1 +0,0 @@
	-bee
	diff --git a/b b/b
	new file mode 100755
	--- /dev/null
	+++ b/b
	@@ -0,0 +1 @@
	+#!/bin/sh
	EOF
	same_as_git_apply replace.patch &&
	test "$(git -C by-us ls-files -s b | cut -c1-6)" = 100755
'

test_expect_success 'a rename applied twice: the second run changes nothing' '
	cat >ren.patch <<-\EOF &&
	diff --git a/c b/e
	similarity index 100%
	rename from c
	rename to e
	diff --git a/b b/b
	deleted file mode 100644
	--- a/b
	+++ /dev/null
	@@ -1 +0,0 @@
	-bee
	EOF
	rm -rf twice && cp -R repo twice &&
	(
		cd twice &&
		git ai-apply ../ren.patch &&
		tree=$(git write-tree) &&
		git ai-apply ../ren.patch 2>err &&
		test_grep "already moved" err &&
		test "$(git write-tree)" = "$tree"
	)
'

test_expect_success 'separate diff blocks of one answer stay in order' '
	cat >answer.md <<-\EOF &&
	First, the edit:

	```diff
	diff --git a/a b/a
	--- a/a
	+++ b/a
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	```

	Then copy the edited file:

	```diff
	diff --git a/a b/d
	similarity index 100%
	copy from a
	copy to d
	```
	EOF
	rm -rf blocks && cp -R repo blocks &&
	(
		cd blocks &&
		git ai-apply ../answer.md &&
		test_cmp ../new-a d &&
		test_cmp ../new-a a
	)
'

test_expect_success 'two parts of one diff block that depend on order: refused, nothing written' '
	cat >both.patch <<-\EOF &&
	diff --git a/a b/d
	similarity index 100%
	rename from a
	rename to d
	diff --git a/d b/e
	similarity index 100%
	rename from d
	rename to e
	EOF
	rejected_at both.patch 5 "does not exist; cannot rename it"
'

test_done
