#!/bin/sh

test_description='work tree: new files converted as git apply --index converts them, wherever the attributes come from'

. "$(dirname "$0")/test-lib.sh"

# A landing writes a blob as it is when no attribute file and no
# core.autocrlf can apply to it, without asking libgit2 about each
# path; each case below has one source of conversion, and the bytes
# written must be git's.

new_file () {
	printf "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1,2 @@\n+%s\n+two\n" \
		"$1" "$1" "$1" "$2"
}

test_expect_success 'setup' '
	make_repo repo &&
	mkdir -p repo/sub/deep &&
	echo x >repo/sub/deep/keep.txt &&
	git -C repo add sub &&
	git -C repo commit -q -m sub &&
	{
		new_file top.txt top &&
		new_file sub/s.txt sub &&
		new_file sub/deep/d.txt deep &&
		new_file sub/deep/d.bin deep &&
		new_file fresh/f.txt fresh
	} >change.diff &&
	mkdir -p home/.config/git xdg/git
'

# compare SETUP: SETUP run in two copies of the repository (in each,
# with HOME and XDG_CONFIG_HOME under the trash directory); git apply
# --index in one, git ai-apply in the other; the work trees must hold
# the same bytes.
compare () {
	for who in git ai
	do
		rm -rf $who && cp -R repo $who &&
		(cd $who && eval "$1") || return 1
	done &&
	(
		HOME=$PWD/home XDG_CONFIG_HOME=$PWD/xdg &&
		export HOME XDG_CONFIG_HOME &&
		git -C git apply --index ../change.diff &&
		git -C ai ai-apply -q ../change.diff
	) &&
	for f in top.txt sub/s.txt sub/deep/d.txt sub/deep/d.bin fresh/f.txt
	do
		test_cmp_bin git/$f ai/$f || { echo "differs: $f"; return 1; }
	done
}

test_cmp_bin () {
	cmp "$1" "$2"
}

test_expect_success 'no attributes: the blobs as they are' '
	compare ":" &&
	! grep -q "$(printf "\r")" ai/sub/s.txt
'

test_expect_success 'an untracked .gitattributes in a directory converts below it only' '
	compare "printf \"*.txt eol=crlf\n\" >sub/.gitattributes" &&
	grep -q "$(printf "\r")" ai/sub/deep/d.txt &&
	! grep -q "$(printf "\r")" ai/top.txt
'

test_expect_success 'a tracked .gitattributes' '
	compare "printf \"*.txt eol=crlf\n\" >sub/deep/.gitattributes && git add sub/deep/.gitattributes && git commit -q -m attrs" &&
	grep -q "$(printf "\r")" ai/sub/deep/d.txt
'

test_expect_success 'the root .gitattributes' '
	compare "printf \"*.txt eol=crlf\n\" >.gitattributes" &&
	grep -q "$(printf "\r")" ai/fresh/f.txt
'

test_expect_success '.git/info/attributes' '
	compare "mkdir -p .git/info && printf \"*.txt eol=crlf\n\" >.git/info/attributes" &&
	grep -q "$(printf "\r")" ai/top.txt
'

test_expect_success 'core.autocrlf=true' '
	compare "git config core.autocrlf true" &&
	grep -q "$(printf "\r")" ai/top.txt
'

test_expect_success 'core.autocrlf=input converts nothing on the way out' '
	compare "git config core.autocrlf input" &&
	! grep -q "$(printf "\r")" ai/top.txt
'

test_expect_success 'core.attributesFile' '
	printf "*.txt eol=crlf\n" >attrs-file &&
	compare "git config core.attributesFile \"$PWD/attrs-file\"" &&
	grep -q "$(printf "\r")" ai/top.txt
'

test_expect_success 'the global attributes file ($XDG_CONFIG_HOME/git/attributes)' '
	test_when_finished "rm -f xdg/git/attributes" &&
	printf "*.txt eol=crlf\n" >xdg/git/attributes &&
	compare ":" &&
	grep -q "$(printf "\r")" ai/top.txt
'

test_expect_success 'an ident attribute' '
	sed -i "s/^+two\$/+\$Id\$/" change.diff &&
	compare "printf \"*.txt ident\n\" >.gitattributes" &&
	grep -q "Id: " ai/top.txt
'

# git's has_crlf_in_index: text=auto leaves a file whose blob in the
# index has CRs alone, so a work-tree file equal to that blob is clean.
# libgit2's CRLF filter asks the repository's index, which in the
# landing modes holds only what the landing looked up (index_read.c).
test_expect_success 'text=auto, CRLF in the index: the file is clean, the answer lands' '
	git init -q crlf-auto &&
	(
		cd crlf-auto &&
		git commit -q --allow-empty -m init &&
		printf "a\r\n" >one &&
		cp one save-one &&
		git add one &&
		printf "b\r\n" >>one &&
		cp one expect &&
		git diff -- one >../crlf-auto.patch &&
		mv save-one one &&
		echo "one text=auto" >.gitattributes &&
		git ai-apply ../crlf-auto.patch &&
		test_cmp expect one
	)
'

test_done
