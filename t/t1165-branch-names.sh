#!/bin/sh

test_description='branch names: --branch, --each patterns and generated names accepted exactly when git check-ref-format --branch accepts them'

. "$(dirname "$0")/test-lib.sh"

# One name per line, in printf %b notation (\0ooo for a byte). No
# expectation here: git is asked about each.
cat >names.tab <<\EOF
a
ai/fix-login
a/b/c
@
a@b
a/-b
x/HEAD
HEADx
refs/heads/x
\0303\0251t\0303\0251
a\0377\0376b
\0200
HEAD
-a
-
a.lock
a/b.lock
a.lock/b
a..b
.a
a/.b
a.
a/
/a
a//b
a@{b
@{-1}
@{u}
a b
a\tb
a\nb
a\01b
a\037b
a\0177b
\0177
a~b
a^b
a:b
a?b
a*b
a[b
a\\b
EOF

test_expect_success 'setup' '
	make_repo repo &&
	printf "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n" >change.diff &&
	mkdir nongit &&
	# a component of 200 bytes, and 20 of 50 (1,009 bytes: libgit2
	# stores 1,023 with refs/heads/)
	long=$(printf "%0200d" 0) &&
	printf "%s\n" "l$long" >>names.tab &&
	deep=$(printf "%049d/" $(seq 20)) &&
	printf "%s\n" "d${deep%/}" >>names.tab
'

# git_accepts NAME: git check-ref-format --branch, outside a repository
# (where @{-1} would be expanded).
git_accepts () {
	(
		cd "$SHARNESS_TRASH_DIRECTORY/nongit" &&
		GIT_CEILING_DIRECTORIES=$SHARNESS_TRASH_DIRECTORY &&
		export GIT_CEILING_DIRECTORIES &&
		git check-ref-format --branch "$1" >/dev/null 2>&1
	)
}

# try_name OPTION NAME REF ACCEPTED: git ai-apply OPTION --branch=NAME
# in a fresh repository lands on REF when ACCEPTED is "yes", else is
# refused as an invalid name and writes nothing.
try_name () {
	fresh try &&
	(
		cd try &&
		if test "$4" = yes
		then
			git ai-apply -q $1 --branch="$2" ../change.diff &&
			git show "$3":a.txt >shown &&
			test_grep -x ONE shown
		else
			repo_snapshot refused &&
			test_expect_code 128 git ai-apply -q $1 --branch="$2" \
				../change.diff 2>../err &&
			repo_unchanged refused &&
			test_grep "not a valid branch name" ../err
		fi
	) || { printf "failed for %s: %s (git accepts: %s)\n" "$1" "$2" "$4"; false; }
}

# name_of SPEC: the name a line of names.tab stands for.
name_of () {
	printf "%bx" "$1"
}

test_expect_success '--branch=NAME: exactly the names git accepts' '
	while IFS= read -r spec
	do
		name=$(name_of "$spec") && name=${name%x} &&
		ok=no &&
		if git_accepts "$name"
		then
			ok=yes
		fi &&
		try_name "" "$name" "refs/heads/$name" $ok || return 1
	done <names.tab
'

test_expect_success '--each --branch=PATTERN: the pattern and the generated names as git accepts them' '
	while IFS= read -r spec
	do
		name=$(name_of "$spec") && name=${name%x} &&
		ok=no &&
		if git_accepts "$name" && git_accepts "$name-1"
		then
			ok=yes
		fi &&
		try_name --each "$name" "refs/heads/$name-1" $ok || return 1
	done <names.tab
'

test_expect_success 'a name longer than libgit2 stores is refused, nothing written' '
	name=$(printf "%099d/" $(seq 10))x123456789012 &&
	test ${#name} -eq 1013 &&
	git_accepts "$name" &&
	try_name "" "$name" "refs/heads/$name" no &&
	test_grep "1023 bytes" err &&
	try_name "" "${name%2}" "refs/heads/${name%2}" yes
'

test_expect_success 'the table holds names git refuses and names it accepts' '
	yes=0 no=0 &&
	while IFS= read -r spec
	do
		name=$(name_of "$spec") && name=${name%x} &&
		if git_accepts "$name"
		then yes=$((yes + 1))
		else no=$((no + 1))
		fi
	done <names.tab &&
	test $yes -ge 10 && test $no -ge 25
'

test_done
