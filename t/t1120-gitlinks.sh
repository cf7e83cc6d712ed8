#!/bin/sh

test_description='submodule links (gitlinks, mode 160000) in git diffs, compared with git apply'

. "$(dirname "$0")/test-lib.sh"

A=1111111111111111111111111111111111111111
B=2222222222222222222222222222222222222222
C=3333333333333333333333333333333333333333

# The base: a gitlink "mod" at commit A (an empty directory in the work
# tree, as git leaves a submodule that is not checked out) beside files.
test_expect_success 'setup' '
	make_repo repo &&
	(
		cd repo &&
		git update-index --add --cacheinfo 160000,$A,mod &&
		mkdir mod &&
		git commit -q -m "a submodule" &&
		git tag base
	) &&
	cat >add.diff <<-EOF &&
	diff --git a/newmod b/newmod
	new file mode 160000
	index 0000000..1111111
	--- /dev/null
	+++ b/newmod
	@@ -0,0 +1 @@
	+Subproject commit $B
	diff --git a/a.txt b/a.txt
	index 4c5fd91..a8fb9e8 100644
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
	cat >change.diff <<-EOF &&
	diff --git a/mod b/mod
	index 1111111..2222222 160000
	--- a/mod
	+++ b/mod
	@@ -1 +1 @@
	-Subproject commit $A
	+Subproject commit $B
	EOF
	cat >delete.diff <<-EOF &&
	diff --git a/mod b/mod
	deleted file mode 160000
	index 1111111..0000000
	--- a/mod
	+++ /dev/null
	@@ -1 +0,0 @@
	-Subproject commit $A
	EOF
	cat >stale.diff <<-EOF
	diff --git a/mod b/mod
	index 3333333..2222222 160000
	--- a/mod
	+++ b/mod
	@@ -1 +1 @@
	-Subproject commit $C
	+Subproject commit $B
	EOF
'

# same_as_git MODE DIFF: git ai-apply MODE and git apply (--index for
# the default mode) give the same index and the same work tree.
same_as_git () {
	fresh ours && fresh theirs &&
	(cd ours && git ai-apply $1 ../$2 >../out 2>../err.ours) &&
	(cd theirs && git update-index -q --refresh &&
	 git apply ${1:---index} ../$2 2>../err.theirs) &&
	(cd ours && git ls-files -s && find . -path ./.git -prune -o -print | sort) >ours.state &&
	(cd theirs && git ls-files -s && find . -path ./.git -prune -o -print | sort) >theirs.state &&
	test_cmp theirs.state ours.state
}

for mode in "" --cached
do
	test_expect_success "an added gitlink beside an edit lands as git apply ${mode:---index} lands it" '
		same_as_git "$mode" add.diff &&
		(cd ours && git ls-files -s newmod) >entry &&
		test_grep "^160000 $B 0	newmod" entry &&
		test_grep "^A newmod" out
	'

	test_expect_success "a changed gitlink commit lands as with git apply ${mode:---index}" '
		same_as_git "$mode" change.diff &&
		(cd ours && git ls-files -s mod) >entry &&
		test_grep "^160000 $B 0	mod" entry
	'

	test_expect_success "a deleted gitlink lands as with git apply ${mode:---index}" '
		same_as_git "$mode" delete.diff &&
		(cd ours && git ls-files -s mod) >entry &&
		test_must_be_empty entry
	'
done

test_expect_success 'an added gitlink is an empty directory in the work tree' '
	fresh w &&
	(
		cd w &&
		git ai-apply ../add.diff &&
		test_path_is_dir newmod &&
		test -z "$(ls -A newmod)"
	)
'

test_expect_success 'an untracked file where a gitlink would go is refused, as for files' '
	fresh w &&
	(
		cd w &&
		echo mine >newmod &&
		test_rejected ../add.diff &&
		test_grep "newmod: already exists in the work tree (untracked)" err &&
		echo mine >expect &&
		test_cmp expect newmod
	)
'

test_expect_success 'a deleted gitlink whose directory is not empty is left with a warning, as git does' '
	fresh ours && fresh theirs &&
	echo x >ours/mod/kept && echo x >theirs/mod/kept &&
	(cd theirs && git update-index -q --refresh &&
	 git apply --index ../delete.diff 2>../err.theirs) &&
	test_grep "unable to rmdir" err.theirs &&
	(
		cd ours &&
		git ai-apply ../delete.diff 2>../err &&
		test_path_is_file mod/kept &&
		test -z "$(git ls-files -s mod)"
	) &&
	test_grep "warning: mod: submodule directory left in the work tree" err
'

test_expect_success '--branch commits gitlinks as mode 160000 entries (no object needed)' '
	(
		cd repo &&
		git ai-apply --branch=ai/add ../add.diff &&
		git ls-tree ai/add newmod >../entry &&
		git ai-apply --branch=ai/change ../change.diff &&
		git ls-tree ai/change mod >>../entry &&
		git ai-apply --branch=ai/delete ../delete.diff &&
		git ls-tree ai/delete mod >>../entry &&
		test_must_fail git cat-file -e $B &&
		git fsck --no-dangling
	) &&
	cat >expect <<-EOF &&
	160000 commit $B	newmod
	160000 commit $B	mod
	EOF
	test_cmp expect entry
'

test_expect_success 'a gitlink diff that is already applied is a no-op' '
	fresh w &&
	(
		cd w &&
		git ai-apply ../change.diff &&
		git ai-apply ../change.diff >out 2>err &&
		test_grep "already applied" out &&
		test_grep "already is this submodule commit" err
	)
'

test_expect_success 'a gitlink diff against another commit is refused' '
	(
		cd repo &&
		test_rejected ../stale.diff &&
		test_grep "mod: .*submodule is at commit $A, the patch expects $C" err &&
		test_must_fail git apply --check --cached ../stale.diff
	)
'

test_expect_success 'a text edit aimed at a gitlink stays refused' '
	cat >text.diff <<-\EOF &&
	--- a/mod
	+++ b/mod
	@@ -1 +1 @@
	-hello
	+world
	EOF
	cat >replace.md <<-\EOF &&
	--- START-REPLACE-FILE: mod ---
	text
	--- END-REPLACE-FILE: mod ---
	EOF
	(
		cd repo &&
		test_rejected ../text.diff &&
		test_grep "mod: .*is a submodule; text edits are refused" err &&
		test_rejected ../replace.md &&
		test_grep "mod: .*is a submodule" err
	)
'

test_expect_success 'paths inside a gitlink stay refused, also one the set adds' '
	cat >inside.md <<-\EOF &&
	--- START-FILE: mod/x.txt ---
	x
	--- END-FILE: mod/x.txt ---
	EOF
	cat add.diff >inside-new.diff &&
	cat >>inside-new.diff <<-\EOF &&
	diff --git a/newmod/x b/newmod/x
	new file mode 100644
	--- /dev/null
	+++ b/newmod/x
	@@ -0,0 +1 @@
	+x
	EOF
	(
		cd repo &&
		test_rejected ../inside.md &&
		test_grep "inside submodule mod" err &&
		test_rejected ../inside-new.diff &&
		test_grep "newmod/x: .*inside submodule newmod" err
	)
'

test_expect_success 'a new gitlink needs one well-formed Subproject line' '
	cat >bad.diff <<-\EOF &&
	diff --git a/m2 b/m2
	new file mode 160000
	--- /dev/null
	+++ b/m2
	@@ -0,0 +1 @@
	+Subproject commit 12345
	EOF
	(
		cd repo &&
		test_rejected ../bad.diff &&
		test_grep "m2: .*Subproject commit <40-hex id>" err
	)
'

test_expect_success '--diff shows gitlinks as git does, and git apply takes it' '
	(
		cd repo &&
		git ai-apply --check --diff ../add.diff >../shown.diff &&
		git apply --check --cached ../shown.diff
	) &&
	test_grep "^+Subproject commit $B" shown.diff &&
	test_grep "^new file mode 160000" shown.diff
'

test_done
