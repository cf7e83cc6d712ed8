#!/bin/sh

test_description='the contrib commit hooks: the Assisted-by trailer, installing them'

. "$(dirname "$0")/test-lib.sh"

hooks="$AA_TEST_DIR/../contrib/hooks"

# write_script FILE: an executable sh script of standard input
write_script () {
	{ echo "#!/bin/sh" && cat; } >"$1" && chmod +x "$1"
}

# assisted: the trailer's value for ../answer.diff
assisted () {
	echo "git-ai-apply (diff, answer $(git hash-object ../answer.diff | cut -c1-12))"
}

# trailer_lines [REV]: the message's Assisted-by trailers, one a line
trailer_lines () {
	git log -1 --format=%B "${1:-HEAD}" | grep "^Assisted-by: " || :
}

# expect_trailer_once [REV]: exactly one, with the answer's value
expect_trailer_once () {
	echo "Assisted-by: $(assisted)" >../expect &&
	trailer_lines "$@" >../actual &&
	test_cmp ../expect ../actual
}

test_expect_success 'setup: a repository using core.hooksPath, an answer' '
	git init -q repo &&
	(
		cd repo &&
		printf "one\ntwo\nthree\n" >a.txt &&
		echo other >b.txt &&
		git add . &&
		git commit -q -m initial &&
		git tag base &&
		git config core.hooksPath "$SHARNESS_TRASH_DIRECTORY/shared-hooks"
	) &&
	printf "%s\n" "--- a/a.txt" "+++ b/a.txt" "@@ -1,3 +1,3 @@" \
		" one" "-two" "+TWO" " three" >answer.diff &&
	write_script fake-editor <<-\EOF
	# writes the subject on the empty first line git leaves
	sed "1s/^\$/subject from the editor/" "$1" >"$1.new" &&
	mv "$1.new" "$1"
	EOF
'

test_expect_success 'install-hooks installs the three hooks into core.hooksPath' '
	(
		cd repo &&
		"$hooks/install-hooks" >../out &&
		for h in pre-commit prepare-commit-msg commit-msg
		do
			test_cmp "$hooks/$h" ../shared-hooks/$h &&
			test -x ../shared-hooks/$h || return 1
		done &&
		test_path_is_missing .git/hooks/prepare-commit-msg &&
		test_grep "shared-hooks/commit-msg: installed" ../out &&
		"$hooks/install-hooks" >../out &&
		test_grep "prepare-commit-msg: already installed" ../out
	)
'

test_expect_success 'git commit -m: the trailer, once' '
	(
		cd repo &&
		git ai-apply ../answer.diff 2>/dev/null &&
		git commit -q -m "take the answer" 2>/dev/null &&
		expect_trailer_once &&
		test "$(git log -1 --format=%s)" = "take the answer"
	)
'

test_expect_success 'amending does not add it again, with --no-edit or the editor' '
	(
		cd repo &&
		git commit -q --amend --no-edit 2>/dev/null &&
		expect_trailer_once &&
		GIT_EDITOR=true git commit -q --amend 2>/dev/null &&
		expect_trailer_once
	)
'

test_expect_success 'amending a commit that lost the trailer puts it back, once' '
	(
		cd repo &&
		git commit -q --amend -m "without it" --no-verify 2>/dev/null &&
		git log -1 --format=%B >../msg &&
		sed "/^Assisted-by:/d" ../msg >../msg.new &&
		git commit -q --amend -F ../msg.new --no-verify 2>/dev/null &&
		trailer_lines >../actual &&
		test_must_be_empty ../actual &&
		GIT_EDITOR=true git commit -q --amend 2>/dev/null &&
		expect_trailer_once &&
		GIT_EDITOR="\"$SHARNESS_TRASH_DIRECTORY/fake-editor\"" git commit -q --amend 2>/dev/null &&
		expect_trailer_once
	)
'

test_expect_success 'a commit without AI content gets no trailer' '
	(
		cd repo &&
		echo more >>b.txt &&
		git commit -q -a -m "by hand" 2>../err &&
		test_must_be_empty ../err &&
		trailer_lines >../actual &&
		test_must_be_empty ../actual
	)
'

test_expect_success 'with the editor: the trailer, once, under the subject written there' '
	(
		cd repo &&
		git reset -q --hard base &&
		git ai-apply ../answer.diff 2>/dev/null &&
		GIT_EDITOR="\"$SHARNESS_TRASH_DIRECTORY/fake-editor\"" git commit -q 2>/dev/null &&
		test "$(git log -1 --format=%s)" = "subject from the editor" &&
		expect_trailer_once
	)
'

test_expect_success 'an editor left empty still aborts the commit (commit-msg drops the lone trailer)' '
	(
		cd repo &&
		git reset -q --hard base &&
		git ai-apply ../answer.diff 2>/dev/null &&
		test_must_fail env GIT_EDITOR=true git commit 2>../err &&
		test_grep "empty commit message" ../err &&
		test "$(git rev-parse HEAD)" = "$(git rev-parse base)"
	)
'

test_expect_success 'ai-apply.trailer: another key, off, or refused when no key' '
	(
		cd repo &&
		git config ai-apply.trailer Co-authored-by &&
		git commit -q -m keyed 2>/dev/null &&
		test "$(git log -1 --format="%(trailers:key=Co-authored-by,valueonly)")" = "$(assisted)" &&
		trailer_lines >../actual &&
		test_must_be_empty ../actual &&
		git reset -q --hard base &&
		git ai-apply ../answer.diff 2>/dev/null &&
		git config ai-apply.trailer off &&
		git commit -q -m off 2>/dev/null &&
		test "$(git log -1 --format=%B)" = off &&
		git reset -q --hard base &&
		git ai-apply ../answer.diff 2>/dev/null &&
		git config ai-apply.trailer "not a key" &&
		test_must_fail git commit -q -m refused 2>../err &&
		test_grep "ai-apply.trailer is .not a key." ../err &&
		test "$(git rev-parse HEAD)" = "$(git rev-parse base)" &&
		git config --unset ai-apply.trailer
	)
'

test_expect_success 'a merge commit gets no trailer, though the record names its content' '
	(
		cd repo &&
		git reset -q --hard base &&
		git checkout -q -b ai &&
		git ai-apply ../answer.diff 2>/dev/null &&
		git commit -q -m ai 2>/dev/null &&
		expect_trailer_once &&
		git checkout -q - &&
		echo side >c.txt &&
		git add c.txt &&
		git commit -q -m side 2>/dev/null &&
		git merge -q --no-edit ai 2>/dev/null &&
		test "$(git rev-list --count --merges -1 HEAD)" = 1 &&
		trailer_lines >../actual &&
		test_must_be_empty ../actual
	)
'

test_expect_success '--branch commits carry the same trailer, under ai-apply.trailer too' '
	(
		cd repo &&
		git reset -q --hard base &&
		git ai-apply --branch=s1 ../answer.diff >/dev/null &&
		expect_trailer_once s1 &&
		git config ai-apply.trailer off &&
		git ai-apply --branch=s2 ../answer.diff >/dev/null &&
		trailer_lines s2 >../actual &&
		test_must_be_empty ../actual &&
		git config ai-apply.trailer "bad key" &&
		test_expect_code 128 git ai-apply --branch=s3 ../answer.diff 2>../err &&
		test_grep "ai-apply.trailer is .bad key." ../err &&
		test_must_fail git rev-parse -q --verify s3 &&
		git config --unset ai-apply.trailer
	)
'

test_expect_success 'several answers: each id, in their order' '
	(
		cd repo &&
		git reset -q --hard base &&
		printf "%s\n" "--- a/b.txt" "+++ b/b.txt" "@@ -1 +1 @@" \
			"-other" "+OTHER" >../b.diff &&
		git ai-apply --branch=s4 ../answer.diff ../b.diff >/dev/null &&
		a=$(git hash-object ../answer.diff | cut -c1-12) &&
		b=$(git hash-object ../b.diff | cut -c1-12) &&
		echo "Assisted-by: git-ai-apply (diff, answers $a $b)" >../expect &&
		trailer_lines s4 >../actual &&
		test_cmp ../expect ../actual
	)
'

test_expect_success 'install-hooks does not replace a hook of yours; it says how to chain' '
	git init -q mine &&
	(
		cd mine &&
		mkdir -p .git/hooks &&
		write_script .git/hooks/prepare-commit-msg <<-\EOF &&
		echo "Mine: yes" >>"$1"
		EOF
		cp .git/hooks/prepare-commit-msg ../mine-hook &&
		test_expect_code 1 "$hooks/install-hooks" >../out 2>../err &&
		test_cmp ../mine-hook .git/hooks/prepare-commit-msg &&
		test_grep "prepare-commit-msg exists: not replaced" ../err &&
		test_cmp "$hooks/pre-commit" .git/hooks/pre-commit &&
		test_cmp "$hooks/commit-msg" .git/hooks/commit-msg &&
		grep -F "/contrib/hooks/prepare-commit-msg\" \"\$@\" || exit 1" ../err >../chain &&
		sed "s/^ *//" ../chain >>.git/hooks/prepare-commit-msg &&
		printf "one\ntwo\nthree\n" >a.txt &&
		git add a.txt &&
		git commit -q -m initial &&
		git ai-apply ../answer.diff 2>/dev/null &&
		git commit -q -m chained 2>/dev/null &&
		git log -1 --format=%B >../msg &&
		test_grep "^Mine: yes\$" ../msg &&
		expect_trailer_once
	)
'

test_expect_success 'install-hooks --force replaces it; an unknown hook is refused' '
	(
		cd mine &&
		"$hooks/install-hooks" --force prepare-commit-msg >../out &&
		test_cmp "$hooks/prepare-commit-msg" .git/hooks/prepare-commit-msg &&
		test_expect_code 1 "$hooks/install-hooks" post-commit 2>../err &&
		test_grep "no hook .post-commit." ../err &&
		test_path_is_missing .git/hooks/post-commit
	)
'

test_done
