# Helpers shared by the command-line tests.

# test_rejected [ai-apply args...]: git ai-apply must exit 1, print an
# error to "err", and leave index, refs, objects and work tree unchanged.
# The error output is written outside the work tree first (so it does not
# count as a change), then copied to "err" for the caller to inspect.
test_rejected () {
	repo_snapshot rejected &&
	test_expect_code 1 git ai-apply "$@" >"$(snapshot_dir)/out" 2>"$(snapshot_dir)/err" &&
	repo_unchanged rejected &&
	cp "$(snapshot_dir)/err" err &&
	test_grep "error: " err
}

# test_grep PATTERN FILE: grep that shows the file when it fails.
test_grep () {
	if grep -a "$@"
	then
		return 0
	fi
	echo "test_grep: no match for '$1' in:"
	for last; do :; done
	cat "$last"
	return 1
}

# make_repo NAME: a repository with one commit of a few files.
make_repo () {
	git init -q "$1" &&
	(
		cd "$1" &&
		printf 'one\ntwo\nthree\n' >a.txt &&
		mkdir -p dir &&
		printf 'alpha\nbeta\n' >dir/b.txt &&
		git add . &&
		git commit -q -m initial
	)
}

# git's test-lib helpers that sharness 1.0 does not have.
test_path_is_file () {
	test -f "$1" || { echo "File $1 does not exist"; return 1; }
}

test_path_is_dir () {
	test -d "$1" || { echo "Directory $1 does not exist"; return 1; }
}

test_path_is_missing () {
	if test -e "$1" || test -h "$1"
	then
		echo "Path $1 exists"
		return 1
	fi
}

# fresh DIR: a copy of the base repository to apply into (without the
# "err" that test_rejected leaves in the repository).
fresh () {
	rm -rf "$1" && cp -R repo "$1" && rm -f "$1/err"
}

# staged_as PATH EXPECT: the index and the work tree both hold EXPECT's
# bytes at PATH (run inside a repository).
staged_as () {
	git show ":$1" >"$SHARNESS_TRASH_DIRECTORY/staged.tmp" &&
	test_cmp "$2" "$SHARNESS_TRASH_DIRECTORY/staged.tmp" &&
	test_cmp "$2" "$1"
}

# clean_result: work tree == index, nothing untracked, HEAD not moved.
clean_result () {
	git diff --exit-code &&
	test -z "$(git ls-files --others --exclude-standard)" &&
	test "$(git rev-parse HEAD)" = "$(git rev-parse base)"
}
