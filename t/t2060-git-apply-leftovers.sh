#!/bin/sh

test_description='what git'"'"'s own apply tests still showed (issue 19): a line that is no "@@ -" header ends the hunks (Subversion), a partly quoted name under -p<n>, /dev/null as git reads it, git diffs that change only metadata, --diff of a rename with a mode change'

. "$(dirname "$0")/test-lib.sh"

# manifest DIR: the index (with stages) and every work-tree path of DIR
# with its content and executable bit.
manifest () {
	git -C "$1" ls-files -s &&
	(
		cd "$1" &&
		find . -path ./.git -prune -o -print | LC_ALL=C sort |
		while read -r p
		do
			if test -f "$p"
			then
				x=; test -x "$p" && x=" (x)"
				echo "$p$x:" && cat "$p"
			else
				echo "$p/"
			fi
		done
	)
}

# same_as_git REPO PATCH STATUS [OPTION...]: in fresh copies of REPO,
# git apply --index and git ai-apply land PATCH with exit status STATUS
# and leave the same index and work tree.
same_as_git () {
	repo=$1 patch=$2 status=$3 &&
	shift 3 &&
	rm -rf by-git by-us && cp -R "$repo" by-git && cp -R "$repo" by-us &&
	git -C by-git update-index -q --refresh &&
	git -C by-us update-index -q --refresh &&
	gitopts= && for o in "$@"; do
		case "$o" in --strip=*) gitopts="$gitopts -p${o#--strip=}";;
		*) gitopts="$gitopts $o";; esac
	done &&
	test_expect_code "$status" git -C by-git apply --index $gitopts "../$patch" &&
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

test_expect_success 'setup' '
	git init -q repo &&
	(
		cd repo &&
		>Makefile &&
		printf "one\ntwo\nthree\n" >f &&
		printf "x\n" >x &&
		mkdir sub &&
		echo A >sub/file1 &&
		echo A >file1 &&
		git add . &&
		git commit -q -m base
	)
'

# ---- hunks end at a line that is no "@@ -" header (git's parse_fragment)

test_expect_success 'a Subversion diff deletes an empty file: "@@ +1 0,0 @@" is no hunk' '
	cat >svn.patch <<-\EOF &&
	Index: Makefile
	===================================================================
	diff --git a/branches/Makefile
	deleted file mode 100644
	--- a/branches/Makefile	(revision 13)
	+++ /dev/null	(nonexistent)
	@@ +1 0,0 @@
	-
	EOF
	same_as_git repo svn.patch 0 --strip=2 &&
	test_path_is_missing by-us/Makefile
'

test_expect_success '... with "(nonexistent)" after spaces: /dev/null then a blank is /dev/null' '
	sed "s|^+++ /dev/null	(|+++ /dev/null  (|" svn.patch >svn-spaces.patch &&
	test_grep "^+++ /dev/null  (nonexistent)" svn-spaces.patch &&
	same_as_git repo svn-spaces.patch 0 --strip=2 &&
	test_path_is_missing by-us/Makefile
'

test_expect_success 'hunks before such a line land; the line and what follows it are not read' '
	cat >after.patch <<-\EOF &&
	diff --git a/f b/f
	--- a/f
	+++ b/f
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	@@ +7 1,1 @@
	+not a hunk to git
	EOF
	same_as_git repo after.patch 0 &&
	printf "one\nTWO\nthree\n" >expect-f &&
	test_cmp expect-f by-us/f
'

test_expect_success 'a plain diff whose only "@@" line is no header is refused (nothing written)' '
	cat >plain-svn.patch <<-\EOF &&
	--- a/f
	+++ b/f
	@@ +1 0,0 @@
	-one
	EOF
	refused repo plain-svn.patch "plain-svn.patch:1: no hunk after the"
'

test_expect_success 'a bare "@@" still starts a hunk located by its content' '
	cat >bare.patch <<-\EOF &&
	--- a/f
	+++ b/f
	@@
	 one
	-two
	+deux
	EOF
	rm -rf bare && cp -R repo bare &&
	git -C bare ai-apply ../bare.patch >out 2>err &&
	printf "one\ndeux\nthree\n" >expect-f &&
	test_cmp expect-f bare/f
'

# ---- a partly quoted traditional name under -p<n> (git's find_name_gnu)

test_expect_success 'setup: a traditional diff with partly quoted names' '
	cat >quotes.patch <<-\EOF
	diff -u "a/"sub/file1 "b/"sub/file1
	--- "a/"sub/file1
	+++ "b/"sub/file1
	@@ -1 +1 @@
	-A
	+B
	EOF
'

test_expect_success '-p2: the quoted part has too few components, the raw text is the name (file1)' '
	same_as_git repo quotes.patch 0 --strip=2 &&
	echo B >expect &&
	test_cmp expect by-us/file1 &&
	echo A >expect &&
	test_cmp expect by-us/sub/file1
'

test_expect_success '-p3: too few components either way, refused as git refuses (nothing written)' '
	test_must_fail git -C repo apply --check -p3 ../quotes.patch &&
	refused repo quotes.patch "quotes.patch:2: .*removing 3 leading pathname components" --strip=3
'

test_expect_success '-p1: a wholly quoted name is stripped as before' '
	cat >whole-quotes.patch <<-\EOF &&
	--- "a/sub/file1"
	+++ "b/sub/file1"
	@@ -1 +1 @@
	-A
	+C
	EOF
	same_as_git repo whole-quotes.patch 0 --strip=1 &&
	echo C >expect &&
	test_cmp expect by-us/sub/file1
'

# ---- /dev/null as git reads it (is_dev_null)

test_expect_success '"/dev/null" run into more text is refused, naming the line (nothing written)' '
	cat >runon.patch <<-\EOF &&
	--- a/x
	+++ /dev/null+++ b/x
	@@ -1 +1 @@
	-x
	+y
	EOF
	test_must_fail git -C repo apply --check ../runon.patch &&
	refused repo runon.patch "runon.patch:2: .*/dev/null runs into other text" &&
	cat >runon-old.patch <<-\EOF &&
	diff --git a/x b/x
	--- /dev/null+++ a/x
	+++ b/x
	@@ -1 +1 @@
	-x
	+y
	EOF
	refused repo runon-old.patch "runon-old.patch:2: .*/dev/null runs into other text"
'

# ---- git diffs that change only metadata need no hunk (metadata_changes)

test_expect_success 'a mode change with "---" / "+++" lines and no hunk lands as git lands it' '
	cat >chmod.patch <<-\EOF &&
	diff --git a/f b/f
	old mode 100644
	new mode 100755
	--- a/f
	+++ b/f
	EOF
	same_as_git repo chmod.patch 0 &&
	git -C by-us ls-files -s f >stage &&
	test_grep "^100755" stage
'

test_expect_success 'a rename that repeats its names on "---" / "+++" with no hunk lands' '
	cat >rename.patch <<-\EOF &&
	diff --git a/x b/y
	similarity index 100%
	rename from x
	rename to y
	--- a/x
	+++ b/y
	EOF
	same_as_git repo rename.patch 0 &&
	test_path_is_missing by-us/x &&
	test_path_is_file by-us/y
'

test_expect_success 'a git diff with "---" / "+++" that changes nothing is still refused' '
	cat >nothing.patch <<-\EOF &&
	diff --git a/f b/f
	--- a/f
	+++ b/f
	EOF
	refused repo nothing.patch "nothing.patch:1: no hunk after the"
'

# ---- --diff of a rename with a mode change (git's header order)

test_expect_success '--diff of a rename with a mode change carries the mode lines and re-applies' '
	rm -rf mv && cp -R repo mv &&
	(
		cd mv &&
		git mv x z &&
		chmod +x z &&
		git add z &&
		git diff --cached >../mvchmod.patch &&
		git reset -q --hard
	) &&
	git -C mv ai-apply --diff ../mvchmod.patch >shown &&
	test_grep "^old mode 100644" shown &&
	test_grep "^new mode 100755" shown &&
	git -C mv apply --check --index ../shown &&
	same_as_git repo shown 0
'

test_expect_success '--diff of a copy with a mode change names the source mode' '
	cat >cpchmod.patch <<-\EOF &&
	diff --git a/x b/w
	old mode 100644
	new mode 100755
	copy from x
	copy to w
	EOF
	git -C repo ai-apply --diff ../cpchmod.patch >shown &&
	test_grep "^old mode 100644" shown &&
	test_grep "^new mode 100755" shown &&
	git -C repo ai-apply --summary ../cpchmod.patch >summary &&
	test_grep "mode change 100644 => 100755 w" summary
'

# ---- --3way replays a recorded rerere resolution (git's t4108 5)

test_expect_success 'setup: a conflict whose resolution rerere recorded' '
	git init -q rr &&
	(
		cd rr &&
		printf "1\n2\n3\n4\n5\n6\n7\n" >one &&
		git add one &&
		git commit -q -m initial &&
		git branch side &&
		printf "1\ntwo\n3\n4\n5\nsix\n7\n" >one &&
		git commit -q -a -m main &&
		git checkout -q side &&
		printf "1\n2\n3\n4\nfive\n6\n7\n" >one &&
		git commit -q -a -m side &&
		git checkout -q - &&
		git diff ...side >../rr.patch &&
		git config rerere.enabled true &&
		test_must_fail git merge --no-commit side >/dev/null &&
		printf "1\ntwo\n3\n4\nfive\nsix\n7\n" >one &&
		git rerere &&
		git reset -q --hard
	)
'

test_expect_success '--3way conflict: the recorded resolution is replayed, the index keeps its stages' '
	rm -rf rr1 && cp -R rr rr1 &&
	test_expect_code 1 git -C rr1 ai-apply --3way ../rr.patch >out 2>err &&
	printf "1\ntwo\n3\n4\nfive\nsix\n7\n" >expect &&
	test_cmp expect rr1/one &&
	test_grep "git rerere: Resolved .one. using previous resolution" err &&
	git -C rr1 ls-files -s one >stages &&
	test_grep " 3	one" stages
'

test_expect_success '... as git apply --3way does' '
	rm -rf rr2 && cp -R rr rr2 &&
	git -C rr2 update-index -q --refresh &&
	test_must_fail git -C rr2 apply --3way ../rr.patch 2>/dev/null &&
	test_cmp rr2/one rr1/one
'

test_expect_success 'rerere.enabled=false: the markers stay, git rerere is not run' '
	rm -rf rr3 && cp -R rr rr3 &&
	git -C rr3 config rerere.enabled false &&
	test_expect_code 1 git -C rr3 ai-apply --3way ../rr.patch >out 2>err &&
	test_grep "^<<<<<<< ours" rr3/one &&
	! grep "rerere" err
'

test_expect_success 'rerere.enabled unset: rr-cache decides, as git' '
	rm -rf rr4 && cp -R rr rr4 &&
	git -C rr4 config --unset rerere.enabled &&
	test_expect_code 1 git -C rr4 ai-apply --3way ../rr.patch >out 2>err &&
	test_grep "Resolved .one." err &&
	rm -rf rr5 && cp -R rr rr5 &&
	git -C rr5 config --unset rerere.enabled &&
	rm -rf rr5/.git/rr-cache &&
	test_expect_code 1 git -C rr5 ai-apply --3way ../rr.patch >out 2>err &&
	test_grep "^<<<<<<< ours" rr5/one &&
	test_path_is_missing rr5/.git/rr-cache
'

test_expect_success '--3way --cached: no markers in the work tree, rerere is not run (as git)' '
	rm -rf rr6 && cp -R rr rr6 &&
	test_expect_code 1 git -C rr6 ai-apply --3way --cached ../rr.patch >out 2>err &&
	! grep "rerere" err &&
	test_cmp rr/one rr6/one
'

# ---- previews report a binary patch from the patch alone (git apply --stat)

test_expect_success 'setup: a git diff of binary changes without --binary' '
	git init -q bin &&
	(
		cd bin &&
		echo AIT >a && echo BIT >b && echo DIT >d &&
		printf "x\000y\n" >gone &&
		git add . &&
		git commit -q -m base &&
		echo git >a &&
		printf "b\000b\n" >b &&
		printf "new\000file\n" >e &&
		rm gone &&
		git add -N e &&
		git diff >../bin.patch &&
		git diff --binary >../bin-full.patch &&
		git reset -q --hard
	) &&
	test_grep "^Binary files a/b and b/b differ" bin.patch &&
	test_grep "^index [0-9a-f]*\.\.[0-9a-f]* " bin.patch
'

test_expect_success '--numstat: "-	-" for each binary patch, as git apply --numstat' '
	git -C bin apply --numstat ../bin.patch >expect &&
	git -C bin ai-apply --numstat ../bin.patch >actual &&
	LC_ALL=C sort expect >expect.sorted &&
	LC_ALL=C sort actual >actual.sorted &&
	test_cmp expect.sorted actual.sorted &&
	test_grep "^-	-	b$" actual
'

test_expect_success '--stat --summary: "Bin", create and delete modes, as git apply' '
	git -C bin apply --stat --summary ../bin.patch >expect &&
	git -C bin ai-apply --stat --summary ../bin.patch >actual &&
	test_grep "^ b  *|  Bin$" actual &&
	test_grep "^ create mode 100644 e$" actual &&
	test_grep "^ delete mode 100644 gone$" actual &&
	grep "files changed" expect >expect.total && grep "files changed" actual >actual.total &&
	test_cmp expect.total actual.total
'

test_expect_success '... and a full binary patch whose result is in place already' '
	rm -rf binwt && cp -R bin binwt &&
	git -C binwt update-index -q --refresh &&
	git -C binwt apply --index ../bin-full.patch &&
	git -C binwt apply --numstat ../bin-full.patch >expect &&
	git -C binwt ai-apply --numstat ../bin-full.patch >actual &&
	test_grep "^-	-	b$" actual &&
	test_grep "^-	-	e$" actual
'

test_expect_success 'a binary rename in a preview: the patch'"'"'s similarity index, as git apply --summary' '
	rm -rf binmv && cp -R bin binmv &&
	(
		cd binmv &&
		printf "l1\nl2\nl3\nl4\nl5\n" >t &&
		git add t && git commit -q -m t &&
		git mv t u &&
		printf "l1\nl2\nl\0003\nl4\nl5\n" >u &&
		git add u &&
		git diff --cached -M >../binmv.patch &&
		git reset -q --hard
	) &&
	test_grep "^similarity index" binmv.patch &&
	git -C binmv apply --stat --summary ../binmv.patch >expect &&
	git -C binmv ai-apply --stat --summary ../binmv.patch >actual &&
	grep "rename t => u" expect >expect.rename &&
	grep "rename t => u" actual >actual.rename &&
	test_cmp expect.rename actual.rename &&
	test_grep "^ u  *|  Bin$" actual
'

test_expect_success '--diff of such a preview says the binary files differ' '
	git -C bin ai-apply --diff ../bin.patch >shown &&
	test_grep "^Binary files a/b and b/b differ$" shown &&
	test_grep "^Binary files /dev/null and b/e differ$" shown
'

test_expect_success '--check and --apply keep the checks: abbreviated ids are refused (nothing written)' '
	rm -rf rj && cp -R bin rj &&
	(
		cd rj &&
		test_rejected --check ../bin.patch &&
		test_grep "without full index line" err &&
		test_rejected --apply --numstat ../bin.patch &&
		test_grep "without full index line" err &&
		test_rejected --check --numstat ../bin.patch &&
		test_grep "without full index line" err
	)
'

test_done
