#!/bin/sh

test_description='diff headers as git apply reads them: timestamps after a TAB or spaces, GNU diff -N epoch sides, names that must agree'

. "$(dirname "$0")/test-lib.sh"

# same_as_git_apply PATCH: in fresh copies of "repo", git ai-apply and
# git apply --index land PATCH to the same index and work tree.
same_as_git_apply () {
	rm -rf by-git by-us && cp -R repo by-git && cp -R repo by-us &&
	git -C by-git update-index -q --refresh &&
	git -C by-git apply --index "../$1" &&
	(cd by-us && git ai-apply "../$1") &&
	test "$(git -C by-us write-tree)" = "$(git -C by-git write-tree)" &&
	git -C by-us diff --exit-code &&
	test -z "$(git -C by-us ls-files --others --exclude-standard)"
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

test_expect_success 'setup' '
	git init -q repo &&
	(
		cd repo &&
		printf "one\ntwo\nthree\n" >f.txt &&
		printf "keep\n" >gone.txt &&
		: >empty.txt &&
		mkdir -p src &&
		printf "int main(void)\n{\n\treturn 0;\n}\n" >src/main.c &&
		git add . &&
		git commit -q -m base &&
		git tag base
	) &&
	# two trees as "diff -Naur a b" sees them: gone.txt deleted,
	# new.txt and empty.txt created, f.txt edited
	mkdir a b &&
	cp repo/f.txt repo/gone.txt a/ &&
	mkdir a/src b/src &&
	cp repo/src/main.c a/src/ && cp repo/src/main.c b/src/ &&
	printf "one\n2\nthree\n" >b/f.txt &&
	printf "new\n" >b/new.txt &&
	printf "was empty\n" >b/empty.txt
'

for tz in UTC Europe/Paris America/New_York Asia/Kolkata
do
	test_expect_success "diff -Naur in $tz: epoch sides create and delete" '
		! TZ=$tz diff -Naur a b >n.diff &&
		test_grep "^+++ b/gone.txt	19[67][09]-" n.diff &&
		test_grep "^--- a/new.txt	19[67][09]-" n.diff &&
		rm -rf rj && cp -R repo rj &&
		(
			cd rj &&
			git rm -q empty.txt &&
			git commit -q -m "no empty.txt" &&
			git ai-apply ../n.diff &&
			test_path_is_missing gone.txt &&
			test_must_fail git cat-file -e :gone.txt &&
			echo new >expect && test_cmp expect new.txt &&
			echo "was empty" >expect && test_cmp expect empty.txt &&
			git diff --exit-code
		)
	'
done

test_expect_success 'diff -N deletion removes the file, as git apply does' '
	TZ=Europe/Paris diff -Nu a/gone.txt b/gone.txt >del.diff ||
	test_grep "^+++ b/gone.txt	1970-01-01 01:00:00.000000000 +0100" del.diff &&
	same_as_git_apply del.diff &&
	test_path_is_missing by-us/gone.txt
'

test_expect_success 'diff -N creation refuses an existing empty file' '
	TZ=UTC diff -Nu a/empty.txt b/empty.txt >cre.diff ||
	test_grep "^--- a/empty.txt	1970-01-01 00:00:00.000000000 +0000" cre.diff &&
	test_must_fail git -C repo apply --check ../cre.diff &&
	rejected_at cre.diff 1 "already exists"
'

test_expect_success 'epoch forms: fraction, zone with a colon, west of Greenwich, spaces' '
	for stamp in "1970-01-01 00:00:00 +0000" "1970-01-01 05:30:00 +05:30" \
		"1969-12-31 19:00:00.000 -0500"
	do
		printf "%s\n" "--- new.txt	$stamp" "+++ new.txt   2024-01-02 10:00:00 +0000" \
			"@@ -0,0 +1 @@" "+hello" >c.diff &&
		rm -rf rj && cp -R repo rj &&
		(cd rj && git ai-apply ../c.diff && echo hello >expect &&
		 test_cmp expect new.txt && git diff --exit-code) || return 1
	done
'

test_expect_success 'a stamp near the epoch is a date: the hunk edits' '
	# one second after the epoch: an ordinary edit of an empty file
	printf "%s\n" "--- empty.txt	1970-01-01 00:00:01 +0000" \
		"+++ empty.txt	2024-01-02 10:00:00 +0000" "@@ -0,0 +1 @@" "+x" >e.diff &&
	same_as_git_apply e.diff &&
	echo x >expect && test_cmp expect by-us/empty.txt
'

test_expect_success 'timestamps after spaces (pasted from a chat) are not in the name' '
	TZ=UTC diff -u a/f.txt b/f.txt >tab.diff ||
	sed "s/	/   /" tab.diff >spaces.diff &&
	test_grep "^--- a/f.txt   20" spaces.diff &&
	(cd repo && git apply --check ../spaces.diff) &&
	same_as_git_apply spaces.diff &&
	# POSIX stamps (no fraction, no zone) and a one-space separator
	printf "%s\n" "--- a/src/main.c 2024-01-02 10:00:00" \
		"+++ b/src/main.c 2024-01-02 10:05:00" "@@ -2,3 +2,3 @@" \
		" {" "-	return 0;" "+	return 1;" " }" >posix.diff &&
	same_as_git_apply posix.diff
'

test_expect_success 'a spaced epoch deletion removes the file' '
	printf "%s\n" "--- gone.txt   2024-01-02 10:00:00 +0000" \
		"+++ gone.txt   1970-01-01 00:00:00 +0000" "@@ -1 +0,0 @@" "-keep" >sd.diff &&
	rm -rf rj && cp -R repo rj &&
	(cd rj && git ai-apply ../sd.diff && test_path_is_missing gone.txt &&
	 test_must_fail git cat-file -e :gone.txt)
'

test_expect_success 'inconsistent new filename (git t4133): refused, nothing written' '
	cat >bad1.patch <<-\EOF &&
	diff --git a/f b/f
	new file mode 100644
	index 0000000..d00491f
	--- /dev/null
	+++ b/f-blah
	@@ -0,0 +1 @@
	+1
	EOF
	test_must_fail git -C repo apply ../bad1.patch 2>git-err &&
	test_grep "inconsistent new filename" git-err &&
	rejected_at bad1.patch 5 "inconsistent new filename" &&
	test_path_is_missing rj/f-blah
'

test_expect_success 'inconsistent old filename (git t4133): refused, nothing written' '
	cat >bad2.patch <<-\EOF &&
	diff --git a/gone.txt b/gone.txt
	deleted file mode 100644
	--- a/gone.txt-blah
	+++ /dev/null
	@@ -1 +0,0 @@
	-keep
	EOF
	test_must_fail git -C repo apply ../bad2.patch 2>git-err &&
	test_grep "inconsistent old filename" git-err &&
	rejected_at bad2.patch 3 "inconsistent old filename"
'

test_expect_success 'an edit whose +++ names another file than diff --git' '
	cat >edit.patch <<-\EOF &&
	diff --git a/f.txt b/f.txt
	--- a/f.txt
	+++ b/f.txt-blah
	@@ -1,3 +1,3 @@
	 one
	-two
	+2
	 three
	EOF
	rejected_at edit.patch 3 "inconsistent new filename.*f.txt-blah"
'

test_expect_success 'rename to / copy from must be what +++ / --- say' '
	cat >ren.patch <<-\EOF &&
	diff --git a/f.txt b/g.txt
	similarity index 70%
	rename from f.txt
	rename to g.txt
	--- a/f.txt
	+++ b/h.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+2
	 three
	EOF
	test_must_fail git -C repo apply ../ren.patch 2>git-err &&
	test_grep "inconsistent new filename" git-err &&
	rejected_at ren.patch 6 "inconsistent new filename.*rename to" &&
	sed -e "s/rename/copy/" -e "s|^--- a/f.txt|--- a/e.txt|" \
		-e "s|^+++ b/h.txt|+++ b/g.txt|" ren.patch >copy.patch &&
	rejected_at copy.patch 5 "inconsistent old filename.*copy from"
'

test_expect_success 'new file mode with a --- name, deleted file mode with a +++ name' '
	cat >nf.patch <<-\EOF &&
	diff --git a/n.txt b/n.txt
	new file mode 100644
	--- a/n.txt
	+++ b/n.txt
	@@ -0,0 +1 @@
	+1
	EOF
	test_must_fail git -C repo apply ../nf.patch 2>git-err &&
	test_grep "expected /dev/null" git-err &&
	rejected_at nf.patch 3 "expected /dev/null" &&
	cat >df.patch <<-\EOF &&
	diff --git a/gone.txt b/gone.txt
	deleted file mode 100644
	--- a/gone.txt
	+++ b/gone.txt
	@@ -1 +0,0 @@
	-keep
	EOF
	test_must_fail git -C repo apply ../df.patch 2>git-err &&
	test_grep "expected /dev/null" git-err &&
	rejected_at df.patch 4 "expected /dev/null"
'

test_expect_success 'names that agree still land (prefixes, ./, quoted)' '
	cat >ok.patch <<-\EOF &&
	diff --git a/f.txt b/f.txt
	--- f.txt	2024-01-02 10:00:00 +0000
	+++ ./f.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+2
	 three
	EOF
	rm -rf rj && cp -R repo rj &&
	(cd rj && git ai-apply ../ok.patch && git diff --exit-code &&
	 printf "one\n2\nthree\n" >expect && test_cmp expect f.txt)
'

test_expect_success 'any first component is a prefix: diff.mnemonicPrefix, diff -ru dirA dirB' '
	rm -rf mn && cp -R repo mn &&
	(
		cd mn &&
		printf "one\n2\nthree\n" >f.txt &&
		printf "x\n" >added.txt &&
		git add -N added.txt &&
		git -c diff.mnemonicPrefix=true diff >../mnemonic.diff
	) &&
	test_grep "^diff --git i/f.txt w/f.txt" mnemonic.diff &&
	same_as_git_apply mnemonic.diff &&
	echo x >expect && test_cmp expect by-us/added.txt &&
	rm -rf linux-vanilla linux && cp -R a linux-vanilla && cp -R b linux &&
	! TZ=UTC diff -ru linux-vanilla linux >ru.diff &&
	test_grep "^+++ linux/f.txt" ru.diff &&
	same_as_git_apply ru.diff
'

test_expect_success 'plain diff, names differ: the new name when it exists, else the old one, never an invalid one' '
	cat >names-new.diff <<-\EOF &&
	--- nowhere.txt
	+++ f.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
	rm -rf nn && cp -R repo nn &&
	(cd nn && git ai-apply ../names-new.diff && printf "one\nTWO\nthree\n" >expect &&
	 test_cmp expect f.txt && test_path_is_missing nowhere.txt) &&
	sed "s/^--- nowhere.txt/--- f.txt/; s/^+++ f.txt/+++ other.txt/" names-new.diff >names-old.diff &&
	rm -rf no && cp -R repo no &&
	(cd no && git ai-apply ../names-old.diff 2>err && test_grep "other name" err &&
	 test_cmp ../nn/expect f.txt && test_path_is_missing other.txt) &&
	sed "s/^--- nowhere.txt/--- ..\/f.txt/; s/^+++ f.txt/+++ missing.txt/" names-new.diff >names-bad.diff &&
	rm -rf nb && cp -R repo nb &&
	(cd nb && test_rejected ../names-bad.diff && test_grep "missing.txt" err)
'

test_done
