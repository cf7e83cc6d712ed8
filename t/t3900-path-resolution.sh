#!/bin/sh

test_description='path resolution: one rule for every format (./, absolute, a/ b/, a file of the same name its content confirms)'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: a project with files of one name in two places' '
	git init -q repo &&
	(
		cd repo &&
		mkdir -p inventory shop pkg src &&
		cat >inventory/models.py <<-\EOF &&
		from django.db import models

		class Item(models.Model):
		    name = models.CharField(max_length=100)
		    price = models.DecimalField()

		    def __str__(self):
		        return self.name
		EOF
		cat >shop/models.py <<-\EOF &&
		from django.db import models

		class Order(models.Model):
		    number = models.IntegerField()
		    price = models.DecimalField()
		EOF
		echo "x = 1" >inventory/__init__.py &&
		printf "def run():\n    return 1\n" >pkg/x.py &&
		printf "def test_a():\n    assert True\n" >src/test_x.py &&
		git add . &&
		git commit -q -m "the project" &&
		git tag base
	)
'

test_expect_success 'whole file: **a/inventory/__init__.py** lands on inventory/__init__.py' '
	printf "**a/inventory/__init__.py**\n\`\`\`python\nx = 2\n\`\`\`\n" >a-prefix.md &&
	fresh w-a &&
	(
		cd w-a &&
		git ai-apply ../a-prefix.md 2>err &&
		echo "x = 2" >expect &&
		staged_as inventory/__init__.py expect &&
		test_path_is_missing a &&
		test_grep "taken as inventory/__init__.py: the leading .a/. is a diff prefix" err
	)
'

test_expect_success 'v4a: Add File b/pkg/extra.py creates pkg/extra.py (no directory b/)' '
	cat >v4a-b.md <<-\EOF &&
	*** Begin Patch
	*** Add File: b/pkg/extra.py
	+print("hi")
	*** End Patch
	EOF
	fresh w-b &&
	(
		cd w-b &&
		git ai-apply ../v4a-b.md &&
		echo "print(\"hi\")" >expect &&
		staged_as pkg/extra.py expect &&
		test_path_is_missing b
	)
'

test_expect_success 'a/ stays where the tree has a directory a/ and no file under the rest' '
	fresh w-adir &&
	(
		cd w-adir &&
		mkdir a && echo keep >a/keep.txt && git add a && git commit -q -m a &&
		printf "a/new.txt\n\`\`\`\nnew\n\`\`\`\n" >../a-new.md &&
		git ai-apply ../a-new.md &&
		echo new >expect &&
		staged_as a/new.txt expect
	)
'

test_expect_success 'a diff keeps its convention: a new file a/x.txt stays there' '
	cat >diff-a.diff <<-\EOF &&
	diff --git a/a/x.txt b/a/x.txt
	new file mode 100644
	--- /dev/null
	+++ b/a/x.txt
	@@ -0,0 +1 @@
	+x
	EOF
	fresh w-diffa &&
	(
		cd w-diffa &&
		git ai-apply ../diff-a.diff &&
		echo x >expect &&
		staged_as a/x.txt expect
	)
'

test_expect_success 'v4a: ./pkg/x.py and an absolute path inside the work tree' '
	fresh w-dot &&
	(
		cd w-dot &&
		cat >../v4a-dot.md <<-EOF &&
		*** Begin Patch
		*** Update File: ./pkg/x.py
		@@
		 def run():
		-    return 1
		+    return 2
		*** Update File: $PWD/inventory/__init__.py
		@@
		-x = 1
		+x = 3
		*** End Patch
		EOF
		git ai-apply ../v4a-dot.md 2>err &&
		printf "def run():\n    return 2\n" >expect &&
		staged_as pkg/x.py expect &&
		echo "x = 3" >expect &&
		staged_as inventory/__init__.py expect &&
		test_grep "taken as inventory/__init__.py, relative to the work tree" err
	)
'

test_expect_success 'an absolute path outside the work tree is refused, naming the line' '
	cat >v4a-out.md <<-\EOF &&
	*** Begin Patch
	*** Add File: /tmp/elsewhere/x.py
	+x
	*** End Patch
	EOF
	fresh w-out &&
	(
		cd w-out &&
		test_rejected ../v4a-out.md &&
		test_grep "v4a-out.md:2: .*absolute path outside the work tree" err
	)
'

test_expect_success './ and absolute paths in companion, file-changes, aptix and diff' '
	fresh w-every &&
	(
		cd w-every &&
		cat >../every.md <<-EOF &&
		--- START-FILE: ./new/c.txt ---
		c
		--- END-FILE: ./new/c.txt ---

		<FILE_CHANGES>
		<FILE_NEW file_path="$PWD/new/f.txt">
		f
		</FILE_NEW>
		</FILE_CHANGES>

		\`\`\`json
		{"files": [{"path": "./new/j.txt", "content": "j\\n"}]}
		\`\`\`

		\`\`\`diff
		--- $PWD/pkg/x.py
		+++ $PWD/pkg/x.py
		@@ -1,2 +1,2 @@
		 def run():
		-    return 1
		+    return 5
		\`\`\`
		EOF
		git ai-apply ../every.md &&
		echo c >expect && staged_as new/c.txt expect &&
		echo f >expect && staged_as new/f.txt expect &&
		echo j >expect && staged_as new/j.txt expect &&
		printf "def run():\n    return 5\n" >expect && staged_as pkg/x.py expect
	)
'

test_expect_success 'SEARCH/REPLACE: models.py lands on the one file its SEARCH text is in (tolerant)' '
	cat >sr-short.md <<-\EOF &&
	models.py
	```python
	<<<<<<< SEARCH
	    name = models.CharField(max_length=100)
	=======
	    name = models.CharField(max_length=200)
	>>>>>>> REPLACE
	```
	EOF
	fresh w-sr &&
	(
		cd w-sr &&
		git ai-apply --json ../sr-short.md >out.json 2>err &&
		test_grep "models.py: .*sr-short.md:3: names no file; taken as inventory/models.py" err &&
		test_path_is_missing models.py &&
		git diff --cached --name-only >changed &&
		echo inventory/models.py >expect &&
		test_cmp expect changed &&
		jq -r ".files[0].edits[].how" out.json >hows &&
		test_grep "^path-resolved$" hows &&
		git ai-apply --review >review &&
		test_grep "tolerant (.*path-resolved" review
	)
'

test_expect_success 'a path resolved once resolves the same way later: v4a Update + Move to' '
	cat >v4a-move.md <<-\EOF &&
	*** Begin Patch
	*** Update File: __init__.py
	*** Move to: inventory/init2.py
	@@
	-x = 1
	+x = 4
	*** End Patch
	EOF
	fresh w-vmove &&
	(
		cd w-vmove &&
		git ai-apply ../v4a-move.md 2>err &&
		echo "x = 4" >expect &&
		staged_as inventory/init2.py expect &&
		test_path_is_missing inventory/__init__.py &&
		test_grep "names no file; taken as inventory/__init__.py" err
	)
'

test_expect_success 'a diff of a short path: resolved by its hunks, never under --strict' '
	cat >short.diff <<-\EOF &&
	--- a/__init__.py
	+++ b/__init__.py
	@@ -1,1 +1,1 @@
	-x = 1
	+x = 7
	EOF
	fresh w-sdiff &&
	(
		cd w-sdiff &&
		test_rejected --strict ../short.diff &&
		test_grep "short.diff:1: File must exist" err &&
		git ai-apply ../short.diff 2>err &&
		echo "x = 7" >expect &&
		staged_as inventory/__init__.py expect
	)
'

test_expect_success 'SEARCH text in both files of the name: refused, listing them' '
	cat >sr-both.md <<-\EOF &&
	models.py
	```python
	<<<<<<< SEARCH
	    price = models.DecimalField()
	=======
	    price = models.DecimalField(max_digits=8)
	>>>>>>> REPLACE
	```
	EOF
	fresh w-both &&
	(
		cd w-both &&
		test_rejected ../sr-both.md &&
		test_grep "sr-both.md:3: .*fits several files of that name: inventory/models.py and shop/models.py" err
	)
'

test_expect_success 'a deeper match wins: inventory/models.py over shop/models.py' '
	cat >sr-deep.md <<-\EOF &&
	app/inventory/models.py
	```python
	<<<<<<< SEARCH
	    price = models.DecimalField()
	=======
	    price = models.DecimalField(max_digits=9)
	>>>>>>> REPLACE
	```
	EOF
	fresh w-deep &&
	(
		cd w-deep &&
		git ai-apply ../sr-deep.md 2>err &&
		git diff --cached --name-only >changed &&
		echo inventory/models.py >expect &&
		test_cmp expect changed
	)
'

test_expect_success 'an edit that fits no file of the name: refused, naming them' '
	cat >sr-none.md <<-\EOF &&
	models.py
	```python
	<<<<<<< SEARCH
	    colour = models.CharField()
	=======
	    color = models.CharField()
	>>>>>>> REPLACE
	```
	EOF
	fresh w-none &&
	(
		cd w-none &&
		test_rejected ../sr-none.md &&
		test_grep "models.py: .*sr-none.md:3: does not exist; the edit does not fit the files of that name either: inventory/models.py and shop/models.py" err
	)
'

test_expect_success 'a deletion by file name alone is not guessed' '
	cat >v4a-del.md <<-\EOF &&
	*** Begin Patch
	*** Delete File: __init__.py
	*** End Patch
	EOF
	fresh w-del &&
	(
		cd w-del &&
		test_rejected ../v4a-del.md &&
		test_grep "does not exist; with no content to confirm one, a file of that name is not guessed: inventory/__init__.py" err
	)
'

test_expect_success 'whole file: models.py with most of a file'"'"'s lines replaces it' '
	cat >wf-models.md <<-\EOF &&
	models.py
	```python
	from django.db import models

	class Item(models.Model):
	    name = models.CharField(max_length=100)
	    price = models.DecimalField()
	    stock = models.IntegerField()

	    def __str__(self):
	        return self.name
	```
	EOF
	fresh w-wf &&
	(
		cd w-wf &&
		git ai-apply ../wf-models.md 2>err &&
		test_path_is_missing models.py &&
		test_grep "taken as inventory/models.py, the one file of that name where most of the block.s lines are" err &&
		grep -q "stock = models.IntegerField()" inventory/models.py &&
		git diff --cached --name-only >changed &&
		echo inventory/models.py >expect &&
		test_cmp expect changed
	)
'

test_expect_success 'a file moved by the answer (written whole, then the old one deleted) is created' '
	cat >move.md <<-\EOF &&
	lib/models.py
	```python
	from django.db import models

	class Item(models.Model):
	    name = models.CharField(max_length=100)
	    price = models.DecimalField()

	    def __str__(self):
	        return self.name
	```

	*** Begin Patch
	*** Delete File: inventory/models.py
	*** End Patch
	EOF
	fresh w-move &&
	(
		cd w-move &&
		git ai-apply ../move.md &&
		git show base:inventory/models.py >expect &&
		staged_as lib/models.py expect &&
		test_path_is_missing inventory/models.py
	)
'

test_expect_success 'a genuinely new file in another directory is created (tests/test_x.py beside src/test_x.py)' '
	printf "tests/test_x.py\n\`\`\`python\nimport pytest\n\ndef test_b():\n    assert 1 + 1 == 2\n\`\`\`\n" >wf-new.md &&
	fresh w-new &&
	(
		cd w-new &&
		git ai-apply ../wf-new.md 2>err &&
		test_path_is_file tests/test_x.py &&
		git diff --cached --name-only >changed &&
		echo tests/test_x.py >expect &&
		test_cmp expect changed &&
		! grep "same name" err
	)
'

test_expect_success 'a whole file under a short name that is no file of that name: created, never silently' '
	printf "test_x.py\n\`\`\`python\nimport pytest\n\ndef test_b():\n    assert 1 + 1 == 2\n\`\`\`\n" >wf-short.md &&
	fresh w-short &&
	(
		cd w-short &&
		git ai-apply ../wf-short.md 2>err &&
		test_path_is_file test_x.py &&
		git diff --cached --name-only >changed &&
		echo test_x.py >expect &&
		test_cmp expect changed &&
		test_grep "test_x.py: .*is a new file, created beside src/test_x.py of the same name" err
	)
'

test_expect_success 'an explicit creation names its path exactly: START-FILE models.py' '
	printf -- "--- START-FILE: models.py ---\nfrom django.db import models\n--- END-FILE: models.py ---\n" >cf-models.md &&
	fresh w-cf &&
	(
		cd w-cf &&
		git ai-apply ../cf-models.md &&
		echo "from django.db import models" >expect &&
		staged_as models.py expect
	)
'

test_expect_success 'labels with blanks, in backticks or bold, after a directory' '
	cat >spaces.md <<-\EOF &&
	**src/my file.py**
	```python
	print(1)
	```

	`docs/User Guide.md`
	```markdown
	# Guide
	```
	EOF
	fresh w-sp &&
	(
		cd w-sp &&
		git ai-apply ../spaces.md &&
		echo "print(1)" >expect && staged_as "src/my file.py" expect &&
		echo "# Guide" >expect && staged_as "docs/User Guide.md" expect
	)
'

test_expect_success 'SEARCH/REPLACE under a label with blanks' '
	fresh w-sp2 &&
	(
		cd w-sp2 &&
		mkdir -p "src" && echo "a = 1" >"src/my file.py" &&
		git add . && git commit -q -m spaced &&
		cat >../sp-sr.md <<-\EOF &&
		`src/my file.py`
		```python
		<<<<<<< SEARCH
		a = 1
		=======
		a = 2
		>>>>>>> REPLACE
		```
		EOF
		git ai-apply ../sp-sr.md &&
		echo "a = 2" >expect && staged_as "src/my file.py" expect
	)
'

test_expect_success 'dotless and dot-file labels: Makefile, Dockerfile, .gitignore' '
	printf "Makefile\n\`\`\`make\nall:\n\techo hi\n\`\`\`\n\n" >dotless.md &&
	cat >>dotless.md <<-\EOF &&
	**Dockerfile**
	```dockerfile
	FROM python
	```

	`.gitignore`:
	```
	*.pyc
	```
	EOF
	fresh w-dl &&
	(
		cd w-dl &&
		git ai-apply ../dotless.md &&
		echo "FROM python" >expect && staged_as Dockerfile expect &&
		echo "*.pyc" >expect && staged_as .gitignore expect &&
		printf "all:\n\techo hi\n" >expect && staged_as Makefile expect
	)
'

test_expect_success 'prose words before a fence stay prose: Here:, Update, **Update app.py**' '
	for label in "Here:" "Update" "**Update app.py**" "\`python app.py\`"
	do
		printf "%s\n\`\`\`python\nprint(1)\n\`\`\`\n" "$label" >prose.md &&
		fresh w-prose &&
		(
			cd w-prose &&
			test_rejected ../prose.md &&
			test_grep "no change found" err
		) || return 1
	done
'

test_expect_success 'a Markdown heading "# README" is no first-line path comment' '
	printf "Example:\n\`\`\`markdown\n# README\n\nHello\n\`\`\`\n" >heading.md &&
	fresh w-head &&
	(
		cd w-head &&
		test_rejected ../heading.md &&
		test_grep "no change found" err
	)
'

test_expect_success 'a shebang is no path: "Run this:" and a bash fence is prose' '
	printf "Run this:\n\`\`\`bash\n#!/bin/bash\necho hi\n\`\`\`\n" >shebang.md &&
	fresh w-sh &&
	(
		cd w-sh &&
		test_rejected ../shebang.md &&
		test_grep "no change found" err &&
		test_path_is_missing "!"
	)
'

test_expect_success 'a shebang under a label lands on the label, shebang kept' '
	printf "scripts/run.sh\n\`\`\`bash\n#!/bin/bash\necho hi\n\`\`\`\n" >shebang-label.md &&
	fresh w-sh2 &&
	(
		cd w-sh2 &&
		git ai-apply ../shebang-label.md &&
		printf "#!/bin/bash\necho hi\n" >expect &&
		staged_as scripts/run.sh expect
	)
'

test_done
