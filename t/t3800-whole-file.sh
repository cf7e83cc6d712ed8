#!/bin/sh

test_description='whole-file format: labelled fences, "... existing code ..." elisions in every format'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup: a small project' '
	make_repo repo &&
	(
		cd repo &&
		mkdir -p app &&
		cat >app/util.js <<-\EOF &&
		import fs from "fs";

		export function a() {
		  return 1;
		}

		export function b() {
		  return 2;
		}

		export function c() {
		  return 3;
		}
		EOF
		printf "def f():\n    ...\n" >app/stub.py &&
		printf "one\r\ntwo\r\nthree\r\nfour\r\n" >app/crlf.txt &&
		git add . &&
		git commit -q -m "the project" &&
		git tag base
	)
'

test_expect_success 'the path on the line before the fence, in every decoration' '
	for label in "app/new1.py" "**app/new1.py**" "\`app/new1.py\`" "File: app/new1.py" "### app/new1.py"
	do
		printf "Here it is:\n\n%s\n\`\`\`python\nprint(1)\n\`\`\`\n" "$label" >label.md &&
		rm -rf w-label && fresh w-label &&
		(
			cd w-label &&
			git ai-apply ../label.md &&
			echo "print(1)" >expect &&
			staged_as app/new1.py expect
		) || return 1
	done
'

test_expect_success 'the path in the info string or in a first-line comment' '
	printf "\`\`\`app/i1.py\nx = 1\n\`\`\`\n\`\`\`python:app/i2.py\nx = 2\n\`\`\`\n\`\`\`python title=\"app/i3.py\"\nx = 3\n\`\`\`\n\`\`\`python\n# app/i4.py\nx = 4\n\`\`\`\n" >info.md &&
	fresh w-info &&
	(
		cd w-info &&
		git ai-apply ../info.md &&
		echo "x = 1" >expect && staged_as app/i1.py expect &&
		echo "x = 2" >expect && staged_as app/i2.py expect &&
		echo "x = 3" >expect && staged_as app/i3.py expect &&
		printf "# app/i4.py\nx = 4\n" >expect && staged_as app/i4.py expect
	)
'

test_expect_success 'a first-line comment naming the path: content of a new file or of a file that starts with it, a label otherwise' '
	printf "x = 1\ny = 2\n" >expect.plain &&
	printf "\`\`\`python\n# app/lab.py\nx = 1\ny = 2\n\`\`\`\n" >lab.md &&
	fresh w-lab-new &&
	(
		cd w-lab-new &&
		git ai-apply ../lab.md &&
		printf "# app/lab.py\nx = 1\ny = 2\n" >expect &&
		staged_as app/lab.py expect
	) &&
	fresh w-lab-old &&
	(
		cd w-lab-old &&
		printf "x = 0\ny = 2\n" >app/lab.py &&
		git add app/lab.py &&
		git commit -q -m lab &&
		git ai-apply ../lab.md 2>err &&
		staged_as app/lab.py ../expect.plain &&
		test_grep "note: app/lab.py: ../lab.md:2: the block.s first line \"# app/lab.py\" names the file; it is not written into it" err
	) &&
	fresh w-lab-kept &&
	(
		cd w-lab-kept &&
		printf "# app/lab.py\r\nx = 0\r\n" >app/lab.py &&
		git add app/lab.py &&
		git commit -q -m lab &&
		git ai-apply ../lab.md 2>err &&
		printf "# app/lab.py\r\nx = 1\r\ny = 2\r\n" >expect &&
		staged_as app/lab.py expect &&
		! grep "names the file" err
	)
'

test_expect_success 'a first-line label is not written into a file either when the block has elisions' '
	printf "\`\`\`js\n// app/util.js\n// ... existing code ...\nexport function c() {\n  return 30;\n}\n\`\`\`\n" >lab-elided.md &&
	fresh w-lab-elided &&
	(
		cd w-lab-elided &&
		git ai-apply ../lab-elided.md 2>err &&
		git show HEAD:app/util.js | sed "s/return 3;/return 30;/" >expect &&
		staged_as app/util.js expect &&
		test_grep "names the file" err
	)
'

test_expect_success 'a fence without a path is prose, not an edit' '
	printf "Try this:\n\n\`\`\`js\nconsole.log(1);\n\`\`\`\n\nHere is the updated file:\n\`\`\`js\nx();\n\`\`\`\n" >sample.md &&
	(
		cd repo &&
		test_rejected ../sample.md &&
		test_grep "no change" err
	)
'

test_expect_success 'two different paths for one fence are refused' '
	printf "app/one.py\n\`\`\`app/two.py\nx\n\`\`\`\n" >twopaths.md &&
	(
		cd repo &&
		test_rejected ../twopaths.md &&
		test_grep "twopaths.md:3: whole-file: the fence names two files" err
	)
'

test_expect_success 'elisions stand for the original lines between unique anchors' '
	cat >elide.md <<-\EOF &&
	**app/util.js**
	```js
	import fs from "fs";

	// ... existing code ...

	export function b() {
	  return 20;
	}

	export function c() {
	// ... rest of the file unchanged
	```
	EOF
	fresh w-elide &&
	(
		cd w-elide &&
		git ai-apply ../elide.md &&
		sed "s/return 2;/return 20;/" ../repo/app/util.js >expect &&
		staged_as app/util.js expect &&
		! grep "existing code" app/util.js
	)
'

test_expect_success 'an elision at the start and one at the end' '
	cat >edges.md <<-\EOF &&
	app/util.js
	```js
	/* ... */
	export function b() {
	  return 22;
	}

	export function c() {
	// ...
	```
	EOF
	fresh w-edges &&
	(
		cd w-edges &&
		git ai-apply ../edges.md &&
		sed "s/return 2;/return 22;/" ../repo/app/util.js >expect &&
		staged_as app/util.js expect
	)
'

test_expect_success 'an elision whose anchor occurs several times is refused, naming its line' '
	cat >ambig.md <<-\EOF &&
	app/util.js
	```js
	import fs from "fs";

	// ... existing code ...

	export function b() {
	  return 20;
	}

	// ... rest of the file unchanged
	```
	EOF
	(
		cd repo &&
		test_rejected ../ambig.md &&
		test_grep "error: app/util.js: ../ambig.md:11: the elision \"// ... rest of the file unchanged\" cannot be resolved: the line \"}\" it follows occurs 3 times in the file (lines 5, 9, 13)" err
	)
'

test_expect_success 'an elision next to lines that are not in the file is refused' '
	cat >missing.md <<-\EOF &&
	app/util.js
	```js
	import os from "os";
	// ... existing code ...
	```
	EOF
	(
		cd repo &&
		test_rejected ../missing.md &&
		test_grep "missing.md:4: the elision .* the line \"import os from \\\\\"os\\\\\";\" it follows is not in the file" err
	)
'

test_expect_success 'an elision in a new file is refused, never written' '
	printf "app/brand-new.js\n\`\`\`js\nexport const x = 1;\n// ... existing code ...\n\`\`\`\n" >newelide.md &&
	(
		cd repo &&
		test_rejected ../newelide.md &&
		test_grep "app/brand-new.js" err
	)
'

test_expect_success '"..." alone is content in a Python file' '
	printf "app/stub.py\n\`\`\`python\ndef f():\n    ...\n\ndef g():\n    ...\n\`\`\`\n" >stub.md &&
	fresh w-stub &&
	(
		cd w-stub &&
		git ai-apply ../stub.md &&
		printf "def f():\n    ...\n\ndef g():\n    ...\n" >expect &&
		staged_as app/stub.py expect
	)
'

test_expect_success 'a CRLF file: put-back lines keep their endings, new lines take CRLF' '
	printf "app/crlf.txt\n\`\`\`\none\n// ...\nfour\nfive\n\`\`\`\n" >crlf.md &&
	fresh w-crlf &&
	(
		cd w-crlf &&
		git ai-apply ../crlf.md &&
		printf "one\r\ntwo\r\nthree\r\nfour\r\nfive\r\n" >expect &&
		staged_as app/crlf.txt expect
	)
'

test_expect_success 'elisions in a SEARCH/REPLACE block stand for SEARCH lines' '
	cat >sr.md <<-\EOF &&
	app/util.js
	```js
	<<<<<<< SEARCH
	export function a() {
	  return 1;
	}

	export function b() {
	=======
	export function a() {
	  // ... existing code ...
	}

	export function bb() {
	>>>>>>> REPLACE
	```
	EOF
	fresh w-sr &&
	(
		cd w-sr &&
		git ai-apply ../sr.md &&
		sed "s/function b()/function bb()/" ../repo/app/util.js >expect &&
		staged_as app/util.js expect
	)
'

test_expect_success 'a SEARCH/REPLACE elision it cannot resolve is refused, naming its REPLACE line' '
	cat >sr-bad.md <<-\EOF &&
	app/util.js
	```js
	<<<<<<< SEARCH
	export function a() {
	  return 1;
	}
	=======
	export function aa() {
	  // ... existing code ...
	}
	>>>>>>> REPLACE
	```
	EOF
	fresh w-sr-bad &&
	(
		cd w-sr-bad &&
		test_rejected ../sr-bad.md &&
		test_grep "error: app/util.js: ../sr-bad.md:9: the elision \"  // ... existing code ...\" cannot be resolved: the line \"export function aa() {\" it follows is not in the file" err
	)
'

test_expect_success 'an elision among the SEARCH/REPLACE blocks of one file resolves in its own block' '
	cat >sr-two.md <<-\EOF &&
	app/util.js
	```js
	<<<<<<< SEARCH
	export function a() {
	  return 1;
	}
	=======
	export function a() {
	  return 10;
	}
	>>>>>>> REPLACE
	<<<<<<< SEARCH
	export function c() {
	  return 3;
	}
	=======
	// c returns three
	export function c() {
	  // ... existing code ...
	}
	>>>>>>> REPLACE
	```
	EOF
	fresh w-sr-two &&
	(
		cd w-sr-two &&
		git ai-apply ../sr-two.md &&
		sed -e "s/return 1;/return 10;/" -e "s|^export function c()|// c returns three\\
&|" ../repo/app/util.js >expect &&
		staged_as app/util.js expect
	)
'

test_expect_success 'an elision line added by a unified diff is content, written as it stands' '
	cat >diff-elide.md <<-\EOF &&
	--- a/app/util.js
	+++ b/app/util.js
	@@ -1,5 +1,5 @@
	 import fs from "fs";
	 
	 export function a() {
	-  return 1;
	+  // ... existing code ...
	 }
	EOF
	fresh w-diff-elide &&
	(
		cd w-diff-elide &&
		git ai-apply ../diff-elide.md &&
		sed "s|  return 1;|  // ... existing code ...|" ../repo/app/util.js >expect &&
		staged_as app/util.js expect
	)
'

test_expect_success 'elisions in a seed format replacement (companion START-REPLACE-FILE)' '
	cat >comp.md <<-\EOF &&
	--- START-REPLACE-FILE: app/util.js ---
	import fs from "fs";

	// ... existing code ...

	export function c() {
	  return 30;
	}
	--- END-REPLACE-FILE: app/util.js ---
	EOF
	fresh w-comp &&
	(
		cd w-comp &&
		git ai-apply ../comp.md &&
		sed "s/return 3;/return 30;/" ../repo/app/util.js >expect &&
		staged_as app/util.js expect
	)
'

test_expect_success 'a seed replacement with an elision it cannot resolve: as it stands, with a warning' '
	cat >seedlit.md <<-\EOF &&
	--- START-REPLACE-FILE: app/util.js ---
	parameters:
	    # ... completely new structure
	--- END-REPLACE-FILE: app/util.js ---
	EOF
	fresh w-seedlit &&
	(
		cd w-seedlit &&
		git ai-apply ../seedlit.md 2>err &&
		test_grep "warning: app/util.js: .*written as it stands" err &&
		printf "parameters:\n    # ... completely new structure\n" >expect &&
		staged_as app/util.js expect
	)
'

test_expect_success 'a replacement whose placeholder line is in the original is plain content' '
	printf "// ... existing code ...\nx\n" >orig.txt &&
	fresh w-real &&
	(
		cd w-real &&
		cp ../orig.txt app/doc.js &&
		git add app/doc.js && git commit -q -m doc &&
		printf "app/doc.js\n\`\`\`js\n// ... existing code ...\ny\n\`\`\`\n" >../real.md &&
		git ai-apply ../real.md &&
		printf "// ... existing code ...\ny\n" >expect &&
		staged_as app/doc.js expect
	)
'

test_expect_success '--format=whole-file takes only labelled fences' '
	fresh w-forced &&
	(
		cd w-forced &&
		git ai-apply --format=whole-file ../info.md &&
		echo "x = 1" >expect && staged_as app/i1.py expect
	)
'

# Chat answers often show one function under the file's name: written
# as the whole file, that would gut it.
test_expect_success 'a labelled block that is an excerpt of the file is refused' '
	cat >excerpt.md <<-\EOF &&
	Change b like this:

	`app/util.js`
	```js
	export function b() {
	  return 20;
	}
	```
	EOF
	fresh w-excerpt &&
	(
		cd w-excerpt &&
		test_rejected ../excerpt.md &&
		test_grep "app/util.js: .*excerpt.md:5: the block looks like an excerpt of the file" err &&
		test_grep "from the file.s line 7 to its line 9" err
	)
'

test_expect_success 'the first part of the file alone is refused too; a short rewrite lands' '
	cat >head.md <<-\EOF &&
	`app/util.js`
	```js
	import fs from "fs";

	export function a() {
	  return 1;
	}
	```
	EOF
	cat >rewrite.md <<-\EOF &&
	`app/util.js`
	```js
	import fs from "fs";

	export const all = [1, 2, 3];
	```
	EOF
	fresh w-shorter &&
	(
		cd w-shorter &&
		test_rejected ../head.md &&
		test_grep "from the file.s line 1 to its line 5" err &&
		git ai-apply ../rewrite.md &&
		test $(wc -l <app/util.js) = 3
	)
'

test_expect_success 'a whole file with its functions reordered is not an excerpt' '
	cat >moved.md <<-\EOF &&
	`app/util.js`
	```js
	export function c() {
	  return 3;
	}

	export function b() {
	  return 2;
	}

	import fs from "fs";
	export function a() {
	  return 1;
	}
	```
	EOF
	fresh w-moved &&
	(
		cd w-moved &&
		git ai-apply ../moved.md &&
		test "$(head -n 1 app/util.js)" = "export function c() {"
	)
'

# ---- a sentence that names the file ----

test_expect_success 'a sentence naming the file lands the whole file: "Update `app/util.js` as follows:"' '
	sed "s/return 2;/return 20;/" repo/app/util.js >util.new &&
	for intro in "Update \`app/util.js\` as follows:" "Here is the updated \`app/util.js\`:" "**Update \`app/util.js\`:**"
	do
		{ echo "$intro" && echo && echo "\`\`\`js" && cat util.new && echo "\`\`\`"; } >sentence.md &&
		rm -rf w-sentence && fresh w-sentence &&
		(
			cd w-sentence &&
			git ai-apply ../sentence.md 2>../err &&
			staged_as app/util.js ../util.new
		) || return 1
	done
'

test_expect_success 'a sentence creates a new file' '
	printf "Create \`app/new.py\`:\n\`\`\`python\nprint(1)\n\`\`\`\n" >create.md &&
	fresh w-sentence-new &&
	(
		cd w-sentence-new &&
		git ai-apply ../create.md &&
		echo "print(1)" >expect &&
		staged_as app/new.py expect
	)
'

test_expect_success 'a sentence and a part of the file: refused, nothing written' '
	printf "Add this to \`app/util.js\`:\n\`\`\`js\nexport function d() {\n  return 4;\n}\n\`\`\`\n" >part.md &&
	fresh w-part &&
	(
		cd w-part &&
		test_rejected ../part.md &&
		test_grep "app/util.js: ../part.md:3: only the sentence before the fence names this file, and the block keeps 3 of its 10 non-blank lines" err &&
		test_grep "put the path on a line of its own before the fence" err
	)
'

test_expect_success 'the same part under a label line is the whole file (the label says so)' '
	printf "app/util.js\n\`\`\`js\nexport function d() {\n  return 4;\n}\n\`\`\`\n" >labelled-part.md &&
	fresh w-labelled-part &&
	(
		cd w-labelled-part &&
		git ai-apply ../labelled-part.md 2>../err &&
		test "$(wc -l <app/util.js)" = 3
	)
'

test_expect_success 'a sentence about a command or two code spans names no file' '
	for intro in "Run \`app/util.js\`:" "Replace \`b\` in \`app/util.js\`:" "The output of \`app/util.js\`:"
	do
		{ echo "$intro" && echo "\`\`\`" && echo "x" && echo "\`\`\`"; } >cmd.md &&
		rm -rf w-cmd && fresh w-cmd &&
		(
			cd w-cmd &&
			test_rejected ../cmd.md &&
			test_grep "no change found in the input: the code fence at line 2" err
		) || return 1
	done
'

test_expect_success 'a label line, an info string or a comment wins over the sentence' '
	printf "Update \`app/util.js\`:\n\`\`\`python\n# app/other.py\nx = 1\n\`\`\`\n" >both.md &&
	fresh w-both &&
	(
		cd w-both &&
		git ai-apply ../both.md &&
		printf "# app/other.py\nx = 1\n" >expect &&
		staged_as app/other.py expect &&
		git diff --cached --quiet -- app/util.js
	)
'

test_expect_success 'a sentence names the file of a SEARCH/REPLACE fence' '
	printf "Update \`app/util.js\`:\n\`\`\`js\n<<<<<<< SEARCH\n  return 3;\n=======\n  return 30;\n>>>>>>> REPLACE\n\`\`\`\n" >sr.md &&
	fresh w-sr &&
	(
		cd w-sr &&
		git ai-apply ../sr.md &&
		grep "return 30;" app/util.js
	)
'

test_done
