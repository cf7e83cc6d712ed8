#!/bin/sh

test_description='re-applying is a no-op, in every format (SPEC "Already applied")

Every example answer in Documentation/examples/ (on its base,
Documentation/examples/base/) and every case in t/fixtures/reapply/
(NAME/base/ and NAME/answer.md: at least two per format, insertions,
appends and SEARCH texts that REPLACE keeps among them) is applied to a
fresh repository holding its base, then:
  - applied again: exit 0, "already applied", and the repository (index,
    work tree, refs, objects) byte for byte as the first run left it;
  - given twice in one run (two inputs), and held twice in one answer
    (its text twice in one file), on a fresh base: exit 0 and the same
    index and work tree as one application.
No expected result is written here: the first application is the
reference. A case is added by adding its files.'

. "$(dirname "$0")/test-lib.sh"

examples=$(cd "$AA_TEST_DIR/../Documentation/examples" && pwd)
fixtures="$AA_TEST_DIR/fixtures/reapply"

# base_repo DIR BASE: a repository in DIR whose one commit holds the
# files of the directory BASE.
base_repo () {
	rm -rf "$1" &&
	git init -q "$1" &&
	cp -R "$2/." "$1/" &&
	(
		cd "$1" &&
		git add -A &&
		git commit -q -m base
	)
}

# tree_state DIR: the index (modes, blobs, stages) and every work-tree
# file's bytes of the repository in DIR, as text to compare. The first
# property records it after the first application: the reference for
# the second property.
tree_state () {
	(
		cd "$1" &&
		git ls-files -s &&
		find . -path ./.git -prune -o -type f -print | LC_ALL=C sort |
		while read -r f
		do
			echo "$f $(git hash-object --no-filters "$f")"
		done
	)
}

# check_case NAME BASE ANSWER: the two properties for one answer.
check_case () {
	name=$1 base=$2 answer=$3

	test_expect_success "$name: applied a second time, nothing changes" '
		base_repo "once-$name" "$base" &&
		(
			cd "once-$name" &&
			git ai-apply "$answer" >"../$name.out1" 2>"../$name.err1" &&
			test -n "$(git status --porcelain)" &&
			tree_state . >"../$name.once" &&
			repo_snapshot again &&
			git ai-apply "$answer" >"../$name.out2" 2>"../$name.err2" &&
			repo_unchanged again
		) &&
		cat "$name.out2" "$name.err2" >"$name.said" &&
		test_grep "already applied" "$name.said" &&
		! test_grep -q "^error: " "$name.said"
	'

	test_expect_success "$name: given twice in one run, the same as once" '
		base_repo "twice-$name" "$base" &&
		(
			cd "twice-$name" &&
			git ai-apply "$answer" "$answer" >"../$name.out3" 2>"../$name.err3"
		) &&
		test -s "$name.once" &&
		tree_state "twice-$name" >"$name.twice" &&
		test_cmp "$name.once" "$name.twice"
	'

	test_expect_success "$name: one answer holding it twice, the same as once" '
		cat "$answer" "$answer" >"$name.doubled.md" &&
		base_repo "doubled-$name" "$base" &&
		(
			cd "doubled-$name" &&
			git ai-apply "../$name.doubled.md" >"../$name.out4" 2>"../$name.err4"
		) &&
		tree_state "doubled-$name" >"$name.doubled" &&
		test_cmp "$name.once" "$name.doubled"
	'
}

test_expect_success 'the corpus: every format, several cases each' '
	for f in diff companion file-changes aptix ap v4a search-replace whole-file
	do
		n=$(ls -d "$examples/$f"*.md "$fixtures/$f"-*/ 2>/dev/null | wc -l) &&
		test "$n" -ge 2 || { echo "fewer than 2 cases for $f"; return 1; }
	done
'

for answer in "$examples"/*.md
do
	check_case "example-$(basename "$answer" .md)" "$examples/base" "$answer"
done

for dir in "$fixtures"/*/
do
	dir=${dir%/}
	check_case "$(basename "$dir")" "$dir/base" "$dir/answer.md"
done

test_done
