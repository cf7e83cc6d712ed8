#!/bin/sh

test_description='make install / uninstall into a scratch DESTDIR

The installed command runs as "git ai-apply" from PATH, and "git help
ai-apply" shows the installed manual.'

. "$(dirname "$0")/test-lib.sh"

top=$(cd "$AA_TEST_DIR/.." && pwd)
command -v make >/dev/null 2>&1 && test -f "$top/Makefile" &&
	test_set_prereq MAKE
command -v asciidoctor >/dev/null 2>&1 && test_set_prereq ASCIIDOCTOR
command -v man >/dev/null 2>&1 && test_set_prereq MAN
bash_completion=/usr/share/bash-completion/bash_completion
git_completion=/usr/share/bash-completion/completions/git
command -v bash >/dev/null 2>&1 && test -f "$bash_completion" &&
	test -f "$git_completion" && test_set_prereq BASH_COMPLETION
command -v zsh >/dev/null 2>&1 && test_set_prereq ZSH

# install_into DIR [make args]: make install of the build under test
# (NO_BUILD: nothing is rebuilt) into the staging root DIR, prefix /opt/aa.
install_into () {
	dest=$1 && shift &&
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -C "$top" \
		--no-print-directory B="$AA_BUILD_DIR" NO_BUILD=1 \
		DESTDIR="$dest" prefix=/opt/aa "$@"
}

# in_installed CMD...: CMD with only the installed bin directory and the
# system's on PATH (not the build directory).
in_installed () {
	env PATH="$SHARNESS_TRASH_DIRECTORY/dest/opt/aa/bin:/usr/bin:/bin" "$@"
}

test_expect_success 'setup' '
	make_repo repo &&
	cat >change.diff <<-\EOF
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
'

test_expect_success MAKE 'make install without the manual puts each file in place' '
	install_into "$PWD/dest" NO_MAN=1 install >out 2>&1 &&
	test -x dest/opt/aa/bin/git-ai-apply &&
	test_cmp "$AA_BUILD_DIR/git-ai-apply" dest/opt/aa/bin/git-ai-apply &&
	test_cmp "$top/contrib/completion/git-ai-apply.bash" \
		dest/opt/aa/share/bash-completion/completions/git-ai-apply &&
	test_cmp "$top/contrib/completion/_git-ai-apply" \
		dest/opt/aa/share/zsh/site-functions/_git-ai-apply &&
	test_path_is_missing dest/opt/aa/share/man
'

test_expect_success MAKE 'the installed command runs as "git ai-apply"' '
	(
		cd repo &&
		in_installed git ai-apply --check ../change.diff >../out
	) &&
	test_grep "^M a.txt" out &&
	rm -rf work && cp -R repo work &&
	(
		cd work &&
		in_installed git ai-apply -q ../change.diff &&
		git diff --cached --stat >../stat
	) &&
	test_grep "a.txt | 2" stat
'

test_expect_success MAKE,ASCIIDOCTOR 'make install installs the man page' '
	install_into "$PWD/dest" install >out 2>&1 &&
	test_path_is_file dest/opt/aa/share/man/man1/git-ai-apply.1 &&
	test_grep -F ".TH \"GIT\-AI\-APPLY\" \"1\"" \
		dest/opt/aa/share/man/man1/git-ai-apply.1
'

# (make cannot take a build directory whose name has a space, as the
# trash directory's has.)
test_expect_success MAKE 'without asciidoctor the man page is not installed, and make says what to do' '
	scratch="$AA_BUILD_DIR/trash/t0200-no-manual" &&
	rm -rf "$scratch" &&
	test_must_fail env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -C "$top" \
		--no-print-directory B="$scratch" \
		ASCIIDOCTOR=no-such-asciidoctor DESTDIR="$PWD/dest2" \
		install-man >out 2>&1 &&
	test_grep "asciidoctor is needed for the manual: make deps" out &&
	test_path_is_missing dest2 &&
	rm -rf "$scratch"
'

# The manual as man prints it, without a pager or a terminal.
show_help () {
	in_installed env MANPATH="$SHARNESS_TRASH_DIRECTORY/dest/opt/aa/share/man" MANPAGER=cat \
		PAGER=cat MANWIDTH=80 GIT_PAGER=cat "$@" 2>&1
}

test_expect_success MAKE,ASCIIDOCTOR,MAN 'git help ai-apply shows the installed manual' '
	show_help git help ai-apply >help &&
	test_grep "git-ai-apply - Apply the file changes" help &&
	test_grep "EXIT STATUS" help &&
	test_grep "LOCATING EDITS" help
'

test_expect_success MAKE,ASCIIDOCTOR,MAN 'git ai-apply --help shows it too' '
	show_help git ai-apply --help >help &&
	test_grep "git-ai-apply - Apply the file changes" help
'

test_expect_success MAKE,ASCIIDOCTOR 'make install-html' '
	install_into "$PWD/dest" install-html >out 2>&1 &&
	test_grep "git-ai-apply - Apply the file changes" \
		dest/opt/aa/share/doc/git-ai-apply/git-ai-apply.html
'

# What "git ai-apply WORD<TAB>" offers when bash-completion looks up
# completions under the installed share directory too.
bash_complete () {
	XDG_DATA_DIRS="$SHARNESS_TRASH_DIRECTORY/dest/opt/aa/share:/usr/share" \
	bash -c '
		. "$1" && { _completion_loader git; test $? = 124; } &&
		COMP_WORDS=(git ai-apply "$2") && COMP_CWORD=2 &&
		COMP_LINE="git ai-apply $2" && COMP_POINT=${#COMP_LINE} &&
		__git_wrap__git_main git "$2" ai-apply &&
		printf "%s\n" "${COMPREPLY[@]}"
	' complete "$bash_completion" "$1"
}

test_expect_success MAKE,BASH_COMPLETION 'bash-completion finds the installed completion for git ai-apply' '
	bash_complete --br >actual &&
	echo --branch= >expect &&
	test_cmp expect actual
'

test_expect_success MAKE,ZSH 'zsh finds the installed completion for git-ai-apply' '
	zsh -n dest/opt/aa/share/zsh/site-functions/_git-ai-apply &&
	cat >compdef.zsh <<-\EOF &&
	fpath=("$1" $fpath)
	autoload -U compinit && compinit -u -D &&
	print -r -- ${_comps[git-ai-apply]}
	EOF
	zsh -f compdef.zsh "$PWD/dest/opt/aa/share/zsh/site-functions" >actual &&
	echo _git-ai-apply >expect &&
	test_cmp expect actual
'

test_expect_success MAKE 'make uninstall removes every file it installed' '
	install_into "$PWD/dest" uninstall >out 2>&1 &&
	find dest -type f >left &&
	test_must_be_empty left
'

test_done
