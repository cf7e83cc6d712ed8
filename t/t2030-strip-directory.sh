#!/bin/sh

test_description='-p<n> / --strip=<n> and --directory=<root> on diff names, as git apply'

. "$(dirname "$0")/test-lib.sh"

# same_as_git_apply PATCH ARGS...: in fresh copies of "repo", git
# ai-apply ARGS and git apply --index ARGS land PATCH to the same index
# and work tree.
same_as_git_apply () {
	patch=$1 && shift &&
	rm -rf by-git by-us && cp -R repo by-git && cp -R repo by-us &&
	git -C by-git update-index -q --refresh &&
	git -C by-git apply --index "$@" "../$patch" &&
	(cd by-us && git ai-apply "$@" "../$patch") &&
	test "$(git -C by-us write-tree)" = "$(git -C by-git write-tree)" &&
	test "$(git -C by-us write-tree)" != "$(git -C repo write-tree)" &&
	git -C by-us diff --exit-code &&
	test -z "$(git -C by-us ls-files --others --exclude-standard)"
}

# rejected_at PATCH LINE PATTERN ARGS...: refused in a fresh copy "rj",
# nothing written, the error names PATCH:LINE and matches PATTERN.
rejected_at () {
	patch=$1 line=$2 pattern=$3 && shift 3 &&
	rm -rf rj && cp -R repo rj &&
	(
		cd rj &&
		test_rejected "$@" "../$patch" &&
		test_grep "$patch:$line: .*$pattern" err
	)
}

test_expect_success 'setup' '
	git init -q repo &&
	(
		cd repo &&
		printf "one\ntwo\nthree\n" >f.txt &&
		mkdir -p sub a &&
		printf "one\ntwo\nthree\n" >sub/f.txt &&
		printf "one\ntwo\nthree\n" >a/f.txt &&
		git add . &&
		git commit -q -m base
	) &&
	cat >plain.diff <<-\EOF &&
	--- f.txt
	+++ f.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+2
	 three
	EOF
	cat >deep.diff <<-\EOF &&
	diff -ru old/v1/f.txt new/v2/f.txt
	--- old/v1/f.txt
	+++ new/v2/f.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+2
	 three
	EOF
	cat >git.diff <<-\EOF &&
	diff --git a/f.txt b/f.txt
	--- a/f.txt
	+++ b/f.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+2
	 three
	EOF
	cat >rename2.diff <<-\EOF &&
	diff --git x/y/f.txt x/y/g.txt
	similarity index 66%
	rename from y/f.txt
	rename to y/g.txt
	--- x/y/f.txt
	+++ x/y/g.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+2
	 three
	EOF
	cat >rename.diff <<-\EOF
	diff --git a/f.txt b/g.txt
	similarity index 66%
	rename from f.txt
	rename to g.txt
	--- a/f.txt
	+++ b/g.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+2
	 three
	EOF
'

test_expect_success '-p0: names without prefixes, as git apply -p0' '
	same_as_git_apply plain.diff -p0 &&
	git -C by-us diff --cached --name-only >names &&
	echo f.txt >expect &&
	test_cmp expect names
'

test_expect_success '-p0 keeps a/: a/f.txt is the file a/f.txt' '
	sed "s,^--- f.txt,--- a/f.txt,;s,^+++ f.txt,+++ a/f.txt," plain.diff >a.diff &&
	same_as_git_apply a.diff -p0 &&
	git -C by-us diff --cached --name-only >names &&
	echo a/f.txt >expect &&
	test_cmp expect names
'

test_expect_success '-p2 and --strip=2 on diff -ru old/v1/x new/v2/x names' '
	same_as_git_apply deep.diff -p2 &&
	git -C by-us diff --cached --name-only >names &&
	echo f.txt >expect &&
	test_cmp expect names &&
	git -C by-us write-tree >expect &&
	rm -rf long && cp -R repo long &&
	(cd long && git ai-apply --strip=2 ../deep.diff) &&
	git -C long write-tree >actual &&
	test_cmp expect actual
'

test_expect_success '-p1 given equals the default on a/ b/ names' '
	same_as_git_apply git.diff -p1 &&
	git -C by-us write-tree >with &&
	same_as_git_apply git.diff &&
	git -C by-us write-tree >without &&
	test_cmp with without
'

test_expect_success 'a name with too few components is refused, naming its line' '
	rejected_at deep.diff 2 "too few components for -p3" -p3 &&
	test_grep "error: old/v1/f.txt: " rj/err &&
	rejected_at plain.diff 1 "too few components for -p1" -p1 &&
	rejected_at git.diff 1 "too few components for -p2" -p2 &&
	sed "s,^rename to y/g.txt,rename to g.txt," rename2.diff >short2.diff &&
	rejected_at short2.diff 4 "too few components for -p2 (a rename" -p2 &&
	same_as_git_apply rename2.diff -p2
'

test_expect_success '--directory=sub lands under sub/, as git apply' '
	same_as_git_apply git.diff --directory=sub &&
	git -C by-us diff --cached --name-only >names &&
	echo sub/f.txt >expect &&
	test_cmp expect names &&
	same_as_git_apply git.diff --directory=sub/ &&
	git -C by-us diff --cached --name-only >names &&
	test_cmp expect names
'

test_expect_success '--directory after -p0 and -p2' '
	same_as_git_apply plain.diff -p0 --directory=sub &&
	git -C by-us diff --cached --name-only >names &&
	echo sub/f.txt >expect &&
	test_cmp expect names &&
	same_as_git_apply deep.diff -p2 --directory=sub &&
	git -C by-us diff --cached --name-only >names &&
	test_cmp expect names
'

test_expect_success '--directory=../x and --directory=.git are refused as any path' '
	rm -rf rj && cp -R repo rj &&
	(
		cd rj &&
		test_rejected --directory=../x ../git.diff &&
		test_grep "\.\./x/f.txt" err &&
		test_rejected --directory=.git ../git.diff &&
		test_grep "\.git/f.txt" err
	)
'

test_expect_success 'a rename under --directory: both names get the root, as git' '
	same_as_git_apply rename.diff --directory=sub &&
	git -C by-us diff --cached --name-status >names &&
	test_grep "sub/f.txt" names &&
	test_grep "sub/g.txt" names &&
	test_path_is_missing by-us/sub/f.txt &&
	test_path_is_file by-us/f.txt
'

test_expect_success 'a rename under -p2: its rename lines lose one component, as git' '
	same_as_git_apply rename2.diff -p2 &&
	test_path_is_file by-us/g.txt &&
	test_path_is_missing by-us/f.txt
'

test_expect_success '--strip takes digits only (129); -p alone is still --patch' '
	(
		cd repo &&
		test_expect_code 129 git ai-apply --strip=x ../git.diff 2>err &&
		test_grep "expects a number" err &&
		test_expect_code 129 git ai-apply --strip= ../git.diff 2>err &&
		test_expect_code 129 git ai-apply -h >usage &&
		test_grep "^    -p, --patch " usage
	)
'

test_expect_success 'other formats are not affected by -p<n> and --directory' '
	cat >sr.md <<-\EOF &&
	f.txt
	```
	<<<<<<< SEARCH
	two
	=======
	2
	>>>>>>> REPLACE
	```
	EOF
	rm -rf o && cp -R repo o &&
	(cd o && git ai-apply -p3 --directory=sub ../sr.md) &&
	git -C o diff --cached --name-only >names &&
	echo f.txt >expect &&
	test_cmp expect names
'

test_done
