#!/bin/sh

test_description='answers mixing formats: one change set, in order; --format forces one format'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: a small Python project' '
	make_repo repo &&
	(
		cd repo &&
		mkdir -p src &&
		cat >src/app.py <<-\EOF &&
		from util import slugify


		def main():
		    print(slugify("Hello World"))


		if __name__ == "__main__":
		    main()
		EOF
		cat >src/util.py <<-\EOF &&
		def slugify(text):
		    return text.lower().replace(" ", "-")
		EOF
		cat >README.md <<-\EOF &&
		# Slugger

		Turns titles into slugs.

		## Usage

		    python src/app.py
		EOF
		git add . &&
		git commit -q -m "the project" &&
		git tag base
	)
'

# One answer, five formats, in the order companion, file-changes,
# aptix, ap, diff; later blocks edit what earlier ones made or moved.
test_expect_success 'setup: an answer in five formats' '
	cat >mixed.md <<-\EOF &&
	I made the changes in five steps.

	## 1. A version module

	--- START-FILE: src/version.py ---
	VERSION = "1.0"
	--- END-FILE: src/version.py ---

	## 2. Rename the helpers and add a test

	<FILE_CHANGES>
	<FILE_RENAME from_path="src/util.py" to_path="src/helpers.py" />
	<FILE_NEW file_path="tests/test_version.py">
	```python
	from version import VERSION


	def test_version():
	    assert VERSION == "1.1"
	```
	</FILE_NEW>
	</FILE_CHANGES>

	## 3. Bump the version and write it down

	```json
	{
	  "root": ".",
	  "files": [
	    { "path": "docs/CHANGES.md", "content": "# Changes\n\n- 1.1: helpers module\n" }
	  ],
	  "patches": [
	    { "path": "src/version.py", "replacements": [ { "find": "\"1.0\"", "replace": "\"1.1\"" } ] }
	  ]
	}
	```

	## 4. Strip the slug and follow the rename

	```yaml
	version: "2.0"
	changes:
	  - file_path: src/helpers.py
	    modifications:
	      - action: REPLACE
	        snippet: |
	          return text.lower().replace(" ", "-")
	        content: |
	          return text.strip().lower().replace(" ", "-")
	  - file_path: src/app.py
	    modifications:
	      - action: REPLACE
	        snippet: |
	          from util import slugify
	        content: |
	          from helpers import slugify
	```

	## 5. Document the tests

	```diff
	--- a/README.md
	+++ b/README.md
	@@ -7 +7,3 @@
	     python src/app.py
	+
	+Run the tests with `pytest`.
	```

	That is everything.
	EOF
	echo "VERSION = \"1.1\"" >expect-version &&
	printf "def slugify(text):\n    return text.strip().lower().replace(\" \", \"-\")\n" >expect-helpers &&
	printf "from version import VERSION\n\n\ndef test_version():\n    assert VERSION == \"1.1\"\n" >expect-test &&
	printf "# Changes\n\n- 1.1: helpers module\n" >expect-changes &&
	sed -e "s/^from util import/from helpers import/" repo/src/app.py >expect-app &&
	{
		cat repo/README.md &&
		printf "\nRun the tests with \`pytest\`.\n"
	} >expect-readme &&
	printf "%s\n" "M	README.md" "A	docs/CHANGES.md" "M	src/app.py" \
		"A	src/helpers.py" "D	src/util.py" "A	src/version.py" \
		"A	tests/test_version.py" >expect-status
'

test_expect_success 'the five blocks apply as one change set, in order' '
	fresh w-mixed &&
	(
		cd w-mixed &&
		git ai-apply ../mixed.md >../out 2>../err &&
		staged_as src/version.py ../expect-version &&
		staged_as src/helpers.py ../expect-helpers &&
		staged_as tests/test_version.py ../expect-test &&
		staged_as docs/CHANGES.md ../expect-changes &&
		staged_as src/app.py ../expect-app &&
		staged_as README.md ../expect-readme &&
		test_path_is_missing src/util.py &&
		clean_result &&
		git diff --cached --no-renames --name-status >../status
	) &&
	test_cmp expect-status status &&
	! grep "^error" err
'

test_expect_success 'the same answer as one commit on a branch' '
	fresh w-mixed-branch &&
	(
		cd w-mixed-branch &&
		git ai-apply --branch=ai/five ../mixed.md &&
		test "$(git rev-parse ai/five^{tree})" = "$(git -C ../w-mixed write-tree)" &&
		test "$(git rev-list --count base..ai/five)" = 1 &&
		test -z "$(git status --porcelain)"
	)
'

test_expect_success 'a failure in the last block leaves everything unchanged' '
	sed -e "s|^     python src/app.py$|     python3 src/app.py|" mixed.md >mixed-bad.md &&
	test_grep "^     python3 src/app.py$" mixed-bad.md &&
	for mode in "" --cached --branch=ai/bad --check
	do
		(
			cd repo &&
			test_rejected $mode ../mixed-bad.md &&
			test_grep "README.md: .*mixed-bad.md:[0-9]" err
		) || return 1
	done
'

test_expect_success 'a failure in the ap block leaves everything unchanged' '
	sed -e "s|from util import slugify|from utils import slugify|" mixed.md >mixed-bad-ap.md &&
	(
		cd repo &&
		test_rejected ../mixed-bad-ap.md &&
		test_grep "src/app.py: .*mixed-bad-ap.md:[0-9]" err
	)
'

test_expect_success 'later blocks see earlier ones: an edit of a renamed-away path fails' '
	cat >stale.md <<-\EOF &&
	<FILE_RENAME from_path="src/util.py" to_path="src/helpers.py" />

	And then:

	```json
	{ "patches": [ { "path": "src/util.py", "replacements": [ { "find": "lower()", "replace": "casefold()" } ] } ] }
	```
	EOF
	(
		cd repo &&
		test_rejected ../stale.md &&
		test_grep "src/util.py: .*does not exist" err
	)
'

test_expect_success 'two formats touching the same file in sequence' '
	cat >sequence.md <<-\EOF &&
	First create the module:

	--- START-FILE: src/greet.py ---
	def greet(name):
	    return "Hello " + name
	--- END-FILE: src/greet.py ---

	Then add a docstring (ap):

	```yaml
	version: "2.0"
	changes:
	  - file_path: src/greet.py
	    modifications:
	      - action: INSERT_BEFORE
	        snippet: |
	          return "Hello " + name
	        content: |
	          """Say hello."""
	```

	And use an f-string:

	```json
	{ "patches": [ { "path": "src/greet.py", "replacements": [
	  { "find": "\"Hello \" + name", "replace": "f\"Hello {name}\"" } ] } ] }
	```
	EOF
	printf "def greet(name):\n    \"\"\"Say hello.\"\"\"\n    return f\"Hello {name}\"\n" >expect-greet &&
	fresh w-sequence &&
	(
		cd w-sequence &&
		git ai-apply ../sequence.md &&
		staged_as src/greet.py ../expect-greet &&
		clean_result
	)
'

test_expect_success 'a diff, then a structured patch, of the same file' '
	cat >diff-then-json.md <<-\EOF &&
	```diff
	--- a/src/util.py
	+++ b/src/util.py
	@@ -1,2 +1,3 @@
	 def slugify(text):
	+    text = text.strip()
	     return text.lower().replace(" ", "-")
	```

	```json
	{ "patches": [ { "path": "src/util.py", "replacements": [ { "find": "text.strip()", "replace": "text.strip(\" -\")" } ] } ] }
	```
	EOF
	printf "def slugify(text):\n    text = text.strip(\" -\")\n    return text.lower().replace(\" \", \"-\")\n" >expect-util &&
	fresh w-diff-json &&
	(
		cd w-diff-json &&
		git ai-apply ../diff-then-json.md &&
		staged_as src/util.py ../expect-util
	)
'

test_expect_success 'several inputs form one change set, in order' '
	cat >one.md <<-\EOF &&
	--- START-FILE: src/greet.py ---
	def greet(name):
	    return "Hello " + name
	--- END-FILE: src/greet.py ---
	EOF
	cat >two.ap <<-\EOF &&
	version: "2.0"
	changes:
	  - file_path: src/greet.py
	    modifications:
	      - action: REPLACE
	        snippet: |
	          return "Hello " + name
	        content: |
	          return "Hi " + name
	EOF
	printf "def greet(name):\n    return \"Hi \" + name\n" >expect-hi &&
	fresh w-inputs &&
	(
		cd w-inputs &&
		git ai-apply ../one.md ../two.ap &&
		staged_as src/greet.py ../expect-hi
	) &&
	fresh w-inputs-stdin &&
	(
		cd w-inputs-stdin &&
		git ai-apply ../one.md - <../two.ap &&
		staged_as src/greet.py ../expect-hi
	) &&
	(
		cd repo &&
		test_rejected ../two.ap ../one.md &&
		test_grep "src/greet.py: .*two.ap:" err
	)
'

test_expect_success '--format=companion takes only the companion blocks' '
	echo "VERSION = \"1.0\"" >expect-v10 &&
	fresh w-companion &&
	(
		cd w-companion &&
		git ai-apply --format=companion ../mixed.md &&
		git diff --cached --name-status >../status &&
		staged_as src/version.py ../expect-v10
	) &&
	printf "A\tsrc/version.py\n" >expect &&
	test_cmp expect status
'

test_expect_success '--format=file-changes and --format=ap take only their blocks' '
	fresh w-fc &&
	(
		cd w-fc &&
		git ai-apply --format=file-changes ../mixed.md &&
		git diff --cached --no-renames --name-status >../status
	) &&
	printf "%s\n" "A	src/helpers.py" "D	src/util.py" "A	tests/test_version.py" >expect &&
	test_cmp expect status &&
	(
		cd repo &&
		test_rejected --format=ap ../mixed.md &&
		test_grep "src/helpers.py: .*does not exist" err
	)
'

test_expect_success '--format=aptix reads a JSON fence with any tag' '
	cat >js.md <<-\EOF &&
	The bundle:

	```javascript
	{ "files": [ { "path": "docs/CHANGES.md", "content": "# Changes\n\n- 1.1: helpers module\n" } ] }
	```
	EOF
	fresh w-aptix &&
	(
		cd w-aptix &&
		git ai-apply --format=aptix ../js.md &&
		staged_as docs/CHANGES.md ../expect-changes &&
		git diff --cached --name-only >../names
	) &&
	echo docs/CHANGES.md >expect &&
	test_cmp expect names
'

test_expect_success '--format=diff ignores the other formats around a diff' '
	fresh w-diff &&
	(
		cd w-diff &&
		git ai-apply --format=diff ../mixed.md &&
		git diff --cached --name-only >../names &&
		staged_as README.md ../expect-readme
	) &&
	echo README.md >expect &&
	test_cmp expect names
'

test_expect_success 'a forced format that finds nothing is an error' '
	(
		cd repo &&
		test_rejected --format=aptix ../sequence.md &&
		test_rejected --format=file-changes ../one.md
	)
'

test_expect_success 'an unknown format name is a usage error (129)' '
	(
		cd repo &&
		repo_snapshot fatal &&
		test_expect_code 129 git ai-apply --format=xml ../mixed.md 2>../err &&
		repo_unchanged fatal
	) &&
	test_grep "xml" err
'

test_expect_success 'an answer with only prose and code is no change' '
	cat >prose.md <<-\EOF &&
	You can slugify with a regular expression:

	```python
	import re
	re.sub(r"\W+", "-", text)
	```

	No file needs to change.
	EOF
	(
		cd repo &&
		test_rejected ../prose.md
	)
'

test_done
