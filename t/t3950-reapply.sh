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

# ---- the rule's edges ------------------------------------------------------

test_expect_success 'setup: a file where the added lines already stand elsewhere' '
	git init -q edges &&
	(
		cd edges &&
		cat >conf.py <<-\EOF &&
		def load():
		    return {}

		def save():
		    return {}
		    # saved
		EOF
		git add . &&
		git commit -q -m base &&
		git tag base
	)
'

test_expect_success 'an insertion whose lines stand elsewhere, not at its place, lands' '
	cat >append.md <<-\EOF &&
	conf.py
	```python
	<<<<<<< SEARCH
	def load():
	    return {}
	=======
	def load():
	    return {}
	    # saved
	>>>>>>> REPLACE
	```
	EOF
	(
		cd edges &&
		git ai-apply ../append.md >../out 2>../err &&
		test "$(grep -c "# saved" conf.py)" = 2 &&
		sed -n 3p conf.py >line &&
		echo "    # saved" >expect &&
		test_cmp expect line &&
		git ai-apply ../append.md >../out 2>../err &&
		test "$(grep -c "# saved" conf.py)" = 2 &&
		git reset -q --hard base
	) &&
	test_grep "already applied" err
'

test_expect_success 'old lines at two places, the result at one: already applied there' '
	cat >two.md <<-\EOF &&
	conf.py
	```python
	<<<<<<< SEARCH
	    return {}
	=======
	    return {}
	    # saved
	>>>>>>> REPLACE
	```
	EOF
	(
		cd edges &&
		repo_snapshot two &&
		git ai-apply ../two.md >../out 2>../err &&
		repo_unchanged two
	) &&
	test_grep "match 2 places, and its result already stands at line 5" err &&
	test_grep "already applied" out
'

test_expect_success 'old lines at two places, the result at none: refused, nothing written' '
	cat >none.md <<-\EOF &&
	conf.py
	```python
	<<<<<<< SEARCH
	    return {}
	=======
	    return {}
	    # loaded
	>>>>>>> REPLACE
	```
	EOF
	(
		cd edges &&
		test_rejected ../none.md
	) &&
	test_grep "none.md:3: hunk is ambiguous: it matches 2 places" edges/err
'

test_expect_success 'a diff adding lines after the last line lands, whatever the last lines are' '
	cat >tail.md <<-\EOF &&
	```diff
	--- a/conf.py
	+++ b/conf.py
	@@ -6,0 +7 @@
	+    # saved
	```
	EOF
	(
		cd edges &&
		git ai-apply ../tail.md &&
		test "$(tail -n 2 conf.py | grep -c "# saved")" = 2 &&
		repo_snapshot tail &&
		git ai-apply ../tail.md >../out 2>../err &&
		repo_unchanged tail &&
		git reset -q --hard base
	) &&
	test_grep "already applied" out
'

test_expect_success 'a delete or a move of a path that never existed is still refused' '
	cat >gone.md <<-\EOF &&
	```
	*** Begin Patch
	*** Delete File: never.py
	*** End Patch
	```
	EOF
	cat >moved.md <<-\EOF &&
	<FILE_CHANGES>
	<FILE_RENAME from_path="nowhere.py" to_path="conf.py" />
	</FILE_CHANGES>
	EOF
	(
		cd edges &&
		test_rejected ../gone.md &&
		test_grep "never.py: .*gone.md:3: does not exist; cannot delete it" err &&
		test_rejected ../moved.md &&
		test_grep "nowhere.py: .*moved.md:2: does not exist; cannot rename it" err
	)
'

test_expect_success 'aptix limit "all": every match covered is applied, else all are replaced' '
	printf "f(foo, bar)\ng(foo)\n" >edges/calls.txt &&
	(cd edges && git add calls.txt && git commit -q -m calls && git tag calls) &&
	cat >all.md <<-\EOF &&
	```json
	{ "patches": [ { "path": "calls.txt", "replacements": [
	  { "find": "foo", "replace": "foo, bar", "limit": "all" } ] } ] }
	```
	EOF
	(
		cd edges &&
		git ai-apply ../all.md &&
		printf "f(foo, bar, bar)\ng(foo, bar)\n" >expect &&
		test_cmp expect calls.txt &&
		printf "f(foo, bar)\ng(foo, bar)\n" >calls.txt &&
		git add calls.txt &&
		repo_snapshot all &&
		git ai-apply ../all.md >../out 2>../err &&
		repo_unchanged all &&
		git reset -q --hard base
	) &&
	test_grep "already applied" out
'

test_done
