#!/bin/sh

test_description='git apply'"'"'s smaller rules (issue 19 item 4): a link the change set removes blocks nothing under it, --3way add/add, creations over intent-to-add entries, a link'"'"'s target changed by a diff, a rename alone into or out of its own path, a git diff whose names differ without rename lines'

. "$(dirname "$0")/test-lib.sh"

# manifest DIR: the index (with stages) and every work-tree path of DIR
# with its content or link target.
manifest () {
	git -C "$1" ls-files -s &&
	(
		cd "$1" &&
		find . -path ./.git -prune -o -print | LC_ALL=C sort |
		while read -r p
		do
			if test -h "$p"
			then
				echo "$p -> $(readlink "$p")"
			elif test -f "$p"
			then
				echo "$p:" && cat "$p"
			else
				echo "$p/"
			fi
		done
	)
}

# same_as_git REPO PATCH STATUS [OPTION...]: in fresh copies of REPO,
# git apply (--index unless --cached is given) and git ai-apply land
# PATCH with exit status STATUS and leave the same index (stages too)
# and the same work tree.
same_as_git () {
	repo=$1 patch=$2 status=$3 &&
	shift 3 &&
	rm -rf by-git by-us && cp -R "$repo" by-git && cp -R "$repo" by-us &&
	git -C by-git update-index -q --refresh &&
	git -C by-us update-index -q --refresh &&
	mode=--index &&
	for o in "$@"; do test "$o" != --cached || mode=; done &&
	test_expect_code "$status" git -C by-git apply $mode "$@" "../$patch" &&
	test_expect_code "$status" git -C by-us ai-apply "$@" "../$patch" \
		>out 2>err &&
	manifest by-git >expect &&
	manifest by-us >actual &&
	test_cmp expect actual
}

# refused REPO PATCH PATTERN [OPTION...]: in a fresh copy "rj", exit 1,
# nothing written, and the error matches PATTERN.
refused () {
	repo=$1 patch=$2 pattern=$3 &&
	shift 3 &&
	rm -rf rj && cp -R "$repo" rj &&
	(
		cd rj &&
		test_rejected "$@" "../$patch" &&
		test_grep "error: .*$pattern" err
	)
}

test_expect_success 'setup: a repository with a link' '
	git init -q links &&
	(
		cd links &&
		mkdir target &&
		echo kept >target/kept &&
		ln -s target link &&
		echo keep >other &&
		git add . &&
		git commit -q -m base
	)
'

test_expect_success 'a link deleted by the diff does not block a file created under its path' '
	cat >del-then-create.patch <<-\EOF &&
	diff --git a/link b/link
	deleted file mode 120000
	--- a/link
	+++ /dev/null
	@@ -1 +0,0 @@
	-target
	\ No newline at end of file
	diff --git a/link/file b/link/file
	new file mode 100644
	--- /dev/null
	+++ b/link/file
	@@ -0,0 +1 @@
	+under
	EOF
	same_as_git links del-then-create.patch 0 &&
	test -d by-us/link && ! test -h by-us/link &&
	test_path_is_missing by-us/target/file
'

test_expect_success '... in either order of the diff (one change)' '
	cat >create-then-del.patch <<-\EOF &&
	diff --git a/link/file b/link/file
	new file mode 100644
	--- /dev/null
	+++ b/link/file
	@@ -0,0 +1 @@
	+under
	diff --git a/link b/link
	deleted file mode 120000
	--- a/link
	+++ /dev/null
	@@ -1 +0,0 @@
	-target
	\ No newline at end of file
	EOF
	same_as_git links create-then-del.patch 0 &&
	test_path_is_missing by-us/target/file
'

test_expect_success '... and with --cached' '
	same_as_git links del-then-create.patch 0 --cached
'

# git refuses this one: a rename line without a mode does not tell it
# that the old path was a link (its symlink table sees only modes); the
# index here says so (Documentation/landing.md).
test_expect_success 'a link renamed away frees its path too (git refuses)' '
	cat >rename-then-create.patch <<-\EOF &&
	diff --git a/link b/link2
	similarity index 100%
	rename from link
	rename to link2
	diff --git a/link/file b/link/file
	new file mode 100644
	--- /dev/null
	+++ b/link/file
	@@ -0,0 +1 @@
	+under
	EOF
	test_must_fail git -C links apply --check ../rename-then-create.patch &&
	rm -rf by-us && cp -R links by-us &&
	git -C by-us ai-apply ../rename-then-create.patch &&
	test -h by-us/link2 && test -f by-us/link/file &&
	test_path_is_missing by-us/target/file &&
	git -C by-us diff --exit-code
'

test_expect_success 'a link the change set keeps still blocks paths under it (nothing written)' '
	cat >create-under.patch <<-\EOF &&
	diff --git a/link/file b/link/file
	new file mode 100644
	--- /dev/null
	+++ b/link/file
	@@ -0,0 +1 @@
	+under
	EOF
	refused links create-under.patch "create-under.patch:1: beyond a symbolic link" &&
	test_path_is_missing rj/target/file
'

test_expect_success 'setup: add/add' '
	git init -q addadd &&
	(
		cd addadd &&
		echo base >other &&
		printf "one\ntwo\nmine\n" >f &&
		git add . &&
		git commit -q -m base
	) &&
	cat >add.patch <<-\EOF &&
	diff --git a/f b/f
	new file mode 100644
	--- /dev/null
	+++ b/f
	@@ -0,0 +1,3 @@
	+one
	+two
	+theirs
	EOF
	cat >add-same.patch <<-\EOF
	diff --git a/f b/f
	new file mode 100644
	--- /dev/null
	+++ b/f
	@@ -0,0 +1,3 @@
	+one
	+two
	+mine
	EOF
'

test_expect_success '--3way add/add: stages 2 and 3 and conflict markers, exit 1, as git' '
	same_as_git addadd add.patch 1 --3way &&
	git -C by-us ls-files -s f >stages &&
	test_grep " 2	f" stages && test_grep " 3	f" stages &&
	! grep " 1	f" stages &&
	test_grep "^<<<<<<< ours" by-us/f &&
	test_grep "both added it (add/add)" err
'

test_expect_success '--3way --cached add/add: the stages, the work tree untouched' '
	same_as_git addadd add.patch 1 --3way --cached &&
	test_cmp addadd/f by-us/f
'

test_expect_success 'add/add without --3way is refused (nothing written)' '
	refused addadd add.patch "add.patch:1: already exists (with other content)"
'

test_expect_success '--check --3way refuses add/add as without --3way' '
	refused addadd add.patch "already exists (with other content)" --check --3way
'

test_expect_success '--3way add/add of the same content is already applied' '
	(
		cd addadd &&
		repo_snapshot same &&
		git ai-apply --3way ../add-same.patch >../out 2>../err &&
		repo_unchanged same
	)
'

test_expect_success 'setup: an intent-to-add entry' '
	git init -q ita &&
	(
		cd ita &&
		echo base >other &&
		git add . &&
		git commit -q -m base &&
		printf "1\n2\n3\n" >test-file &&
		git add -N test-file
	) &&
	cat >ita-create.patch <<-\EOF
	diff --git a/test-file b/test-file
	new file mode 100644
	--- /dev/null
	+++ b/test-file
	@@ -0,0 +1,3 @@
	+1
	+2
	+3
	EOF
'

test_expect_success '--cached creation over an intent-to-add entry replaces it, as git' '
	same_as_git ita ita-create.patch 0 --cached &&
	git -C by-us diff --cached --name-status >st &&
	echo "A	test-file" >expect &&
	test_cmp expect st
'

test_expect_success 'default mode: refused (the content is not staged), as git apply --index' '
	test_must_fail git -C ita apply --index --check ../ita-create.patch &&
	refused ita ita-create.patch "ita-create.patch:1: is intent-to-add in the index (git add -N)"
'

test_expect_success '--cached deletion of an intent-to-add entry removes it, as git' '
	(cd ita && rm test-file && git diff >../ita-delete.patch && echo 1 >test-file) &&
	test_grep "deleted file mode" ita-delete.patch &&
	same_as_git ita ita-delete.patch 0 --cached
'

test_expect_success 'setup: a link to retarget' '
	git init -q retarget &&
	(
		cd retarget &&
		ln -s old link &&
		ln -s old alias.txt &&
		echo x >old &&
		git add . &&
		git commit -q -m base
	) &&
	cat >retarget.patch <<-\EOF &&
	diff --git a/link b/link
	index 489ce0f..3e5126c 120000
	--- a/link
	+++ b/link
	@@ -1 +1 @@
	-old
	\ No newline at end of file
	+new
	\ No newline at end of file
	EOF
	sed "s/ 120000$/ 100644/" retarget.patch >as-file.patch
'

test_expect_success 'a diff that says 120000 changes a link'"'"'s target, as git' '
	same_as_git retarget retarget.patch 0 &&
	test "$(readlink by-us/link)" = new
'

test_expect_success '... and with --cached' '
	same_as_git retarget retarget.patch 0 --cached
'

test_expect_success 'a diff that says a regular file does not edit a link (nothing written)' '
	refused retarget as-file.patch "as-file.patch:1: is a symbolic link; text edits are refused"
'

test_expect_success 'a SEARCH/REPLACE block never edits a link (nothing written)' '
	cat >sr.md <<-\EOF &&
	alias.txt
	```text
	<<<<<<< SEARCH
	old
	=======
	new
	>>>>>>> REPLACE
	```
	EOF
	refused retarget sr.md "is a symbolic link"
'

test_expect_success 'setup: a file and a directory' '
	git init -q moves &&
	(
		cd moves &&
		echo x >foo &&
		printf "a\nb\nc\n" >pre &&
		echo there >taken &&
		git add . &&
		git commit -q -m base
	) &&
	cat >into.patch <<-\EOF &&
	diff --git a/foo b/foo/baz
	similarity index 100%
	rename from foo
	rename to foo/baz
	EOF
	cat >outof.patch <<-\EOF
	diff --git a/foo/baz b/foo
	similarity index 100%
	rename from foo/baz
	rename to foo
	EOF
'

test_expect_success 'a rename alone into a directory of its own old path, as git' '
	same_as_git moves into.patch 0
'

test_expect_success '... and out of it' '
	rm -rf moved && cp -R by-us moved &&
	same_as_git moved outof.patch 0
'

test_expect_success 'a git diff whose names differ without rename lines moves the file, as git' '
	cat >differ.patch <<-\EOF &&
	diff --git a/pre b/post
	index de98044..2063d5e 100644
	--- a/pre
	+++ b/post
	@@ -1,3 +1,3 @@
	+c
	 a
	 b
	-c
	EOF
	same_as_git moves differ.patch 0 &&
	test_path_is_missing by-us/pre &&
	test_grep "moves to the new name" err
'

test_expect_success '... but never onto an existing file (git overwrites it): nothing written' '
	sed "s/post/taken/g" differ.patch >onto.patch &&
	git -C moves apply --index --check ../onto.patch &&
	refused moves onto.patch "onto.patch:1: already exists; refusing to rename onto it"
'

test_expect_success 'the +++ line still may not contradict the diff --git line' '
	sed "s/^diff --git a\/pre b\/post/diff --git a\/pre b\/pre/" differ.patch >contra.patch &&
	refused moves contra.patch "inconsistent new filename"
'

test_expect_success 'a link replaced by a directory: a file reached through the link is not in the way, as git' '
	git init -q linkdir &&
	(
		cd linkdir &&
		mkdir -p arch/i386/boot arch/x86_64 &&
		printf "1\n2\n3\n" >arch/i386/boot/Makefile &&
		ln -s ../i386/boot arch/x86_64/boot &&
		git add . &&
		git commit -q -m base &&
		git branch base &&
		rm arch/x86_64/boot &&
		mkdir arch/x86_64/boot &&
		printf "2\n3\n4\n" >arch/x86_64/boot/Makefile &&
		git add -A &&
		git commit -q -m dir &&
		git format-patch -1 --stdout >../linkdir.patch &&
		git checkout -q base
	) &&
	same_as_git linkdir linkdir.patch 0 &&
	printf "1\n2\n3\n" >expect &&
	test_cmp expect by-us/arch/i386/boot/Makefile
'

test_expect_success 'a traditional name with a TAB before its stamp is all the name (refused: a control character), not cut at the TAB' '
	printf "%s\n" "--- a/post	image.txt	1969-12-31 18:00:00.000000000 -0600" \
		"+++ b/post	image.txt	2010-08-18 20:13:31.628002255 -0500" \
		"@@ -0,0 +1 @@" "+postimage" >tab-name.patch &&
	refused moves tab-name.patch "tab-name.patch:[12]: invalid path: control character" &&
	test_path_is_missing rj/post
'

test_expect_success 'a traditional name with spaces before its TAB stamp lands whole' '
	printf "%s\n" "--- a/post image.txt	1969-12-31 18:00:00.000000000 -0600" \
		"+++ b/post image.txt	2010-08-18 20:13:31.628002255 -0500" \
		"@@ -0,0 +1 @@" "+postimage" >space-name.patch &&
	rm -rf sp && cp -R moves sp &&
	git -C sp ai-apply ../space-name.patch &&
	echo postimage >expect &&
	test_cmp expect "sp/post image.txt"
'

test_expect_success 'setup: a file to become a submodule, a submodule to become a file' '
	git init -q subs &&
	(
		cd subs &&
		echo content >sub &&
		echo other >other &&
		git add . &&
		git update-index --add --cacheinfo 160000,1234567890123456789012345678901234567890,gl &&
		mkdir gl &&
		git commit -q -m base
	) &&
	cat >to-submodule.patch <<-\EOF &&
	diff --git a/sub b/sub
	deleted file mode 100644
	--- a/sub
	+++ /dev/null
	@@ -1 +0,0 @@
	-content
	diff --git a/sub b/sub
	new file mode 160000
	--- /dev/null
	+++ b/sub
	@@ -0,0 +1 @@
	+Subproject commit 1111111111111111111111111111111111111111
	EOF
	cat >to-file.patch <<-\EOF
	diff --git a/gl b/gl
	deleted file mode 160000
	--- a/gl
	+++ /dev/null
	@@ -1 +0,0 @@
	-Subproject commit 1234567890123456789012345678901234567890
	diff --git a/gl b/gl
	new file mode 100644
	--- /dev/null
	+++ b/gl
	@@ -0,0 +1 @@
	+now a file
	EOF
'

test_expect_success 'a file becomes a submodule: an empty directory where the file was, as git' '
	same_as_git subs to-submodule.patch 0 &&
	test -d by-us/sub &&
	git -C by-us ls-files -s sub >actual &&
	test_grep "^160000 1111111111111111111111111111111111111111 0	sub" actual
'

test_expect_success '... and with --cached: the index only' '
	same_as_git subs to-submodule.patch 0 --cached &&
	test -f by-us/sub
'

test_expect_success '... refused when the file has unstaged changes (nothing written)' '
	rm -rf dirty && cp -R subs dirty && echo more >>dirty/sub &&
	(
		cd dirty &&
		test_rejected ../to-submodule.patch &&
		test_grep "error: sub: has unstaged changes" err
	)
'

test_expect_success 'a submodule never becomes a file in one change set (its checkout would be lost): nothing written' '
	refused subs to-file.patch "gl: a submodule cannot become a file in one change set"
'

# git's own tests grep git's words in these refusals (t4133, t4129,
# t4120): the messages carry them, with the line.
test_expect_success 'setup: git diffs cut short, a bad mode' '
	git init -q words &&
	(cd words && echo 1 >f && git add f && git commit -q -m f) &&
	printf "diff --git a/f b/f\nindex 0000000..d00491f\n--- a/f\n@@ -0,0 +1 @@\n+1\n" >no-new-name.patch &&
	printf "diff --git a/f b/f\nindex d00491f..0000000\n+++ b/f\n@@ -1 +0,0 @@\n-1\n" >no-old-name.patch &&
	printf "diff --git a/f b/f\nold mode 10064x\nnew mode 100755\n" >bad-mode.patch
'

test_expect_success 'a git diff with one of ---/+++: "lacks filename information", as git' '
	refused words no-new-name.patch "no-new-name.patch:3: git diff header lacks filename information" &&
	refused words no-old-name.patch "no-old-name.patch:3: git diff header lacks filename information" &&
	test_must_fail git -C words apply ../no-new-name.patch 2>err &&
	test_grep "lacks filename information" err
'

test_expect_success 'a bad mode: "invalid mode", as git' '
	refused words bad-mode.patch "bad-mode.patch:2: invalid mode in" &&
	test_must_fail git -C words apply ../bad-mode.patch 2>err &&
	test_grep "invalid mode" err
'

test_expect_success 'too large -p: "removing 3 leading", as git' '
	refused words no-new-name.patch "removing 3 leading pathname components" -p3
'

test_done
