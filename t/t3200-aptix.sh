#!/bin/sh

test_description='aptix format (seed 002): file bundle, structured patch, git patch, mixed answers'

. "$(dirname "$0")/test-lib.sh"

# line_of PATTERN FILE: the number of the first line of FILE holding
# the fixed string PATTERN.
line_of () {
	grep -n -F -e "$1" "$2" | head -n 1 | cut -d: -f1
}

test_expect_success 'setup: a C# project' '
	make_repo repo &&
	(
		cd repo &&
		mkdir -p src docs &&
		cat >src/MyFile.cs <<-\EOF &&
		using System;

		namespace App
		{
		    public class MyFile
		    {
		        private readonly ILogger _adminLogger;

		        public void OldMethod()
		        {
		            _adminLogger.Trace("[OldTag]");
		        }

		        public void Other()
		        {
		            _adminLogger.Trace("[OldTag]");
		        }
		    }
		}
		EOF
		cat >src/Foo.cs <<-\EOF &&
		// Foo.cs
		using System;

		namespace App;

		/// <summary>
		/// Counts things.
		/// </summary>
		public class Foo
		{
		    public int Count;
		}
		EOF
		printf "# App\n\nBuild with dotnet.\n" >README.md &&
		printf "obsolete\n" >docs/old.txt &&
		git add . &&
		git commit -q -m "the project" &&
		git tag base
	) &&
	test "$(sed -n 10p repo/src/Foo.cs)" = "{"
'

test_expect_success 'file bundle: create and replace, with the default operation' '
	cat >bundle.md <<-\EOF &&
	Here is an Aptix file bundle with the new service and an updated README.

	```json
	{
	  "root": ".",
	  "files": [
	    {
	      "path": "src/Greeter.cs",
	      "content": "namespace App;\n\npublic static class Greeter\n{\n\tpublic static string Hello(string name) => $\"Hello, {name}!\";\n}\n"
	    },
	    {
	      "path": "README.md",
	      "content": "# App\n\nBuild with `dotnet build`.\n"
	    }
	  ]
	}
	```

	Feel free to replace the whole files.
	EOF
	printf "namespace App;\n\npublic static class Greeter\n{\n\tpublic static string Hello(string name) => \$\"Hello, {name}!\";\n}\n" >expect-greeter &&
	printf "# App\n\nBuild with \`dotnet build\`.\n" >expect-readme &&
	fresh w-bundle &&
	(
		cd w-bundle &&
		git ai-apply ../bundle.md >../out &&
		staged_as src/Greeter.cs ../expect-greeter &&
		staged_as README.md ../expect-readme &&
		clean_result &&
		git diff --cached --name-status >../status
	) &&
	printf "M\tREADME.md\nA\tsrc/Greeter.cs\n" >expect &&
	test_cmp expect status
'

test_expect_success 'file bundle: the same on a branch and under --check' '
	fresh w-bundle-branch &&
	(
		cd w-bundle-branch &&
		repo_snapshot check &&
		git ai-apply --check ../bundle.md &&
		repo_unchanged check &&
		git ai-apply --branch=ai/greeter ../bundle.md &&
		test "$(git rev-parse ai/greeter^{tree})" = "$(git -C ../w-bundle write-tree)" &&
		test -z "$(git status --porcelain)"
	)
'

test_expect_success 'file bundle: create, replace and delete operations' '
	cat >ops.md <<-\EOF &&
	```json
	{
	  "root": ".",
	  "files": [
	    { "path": "src/New.cs", "operation": "create", "content": "// new\n" },
	    { "path": "src/Foo.cs", "operation": "replace", "content": "// replaced\n" },
	    { "path": "docs/old.txt", "operation": "delete", "content": null },
	    { "path": "a.txt", "operation": "delete" }
	  ]
	}
	```
	EOF
	echo "// new" >expect-new &&
	echo "// replaced" >expect-foo &&
	fresh w-ops &&
	(
		cd w-ops &&
		git ai-apply ../ops.md &&
		staged_as src/New.cs ../expect-new &&
		staged_as src/Foo.cs ../expect-foo &&
		test_path_is_missing docs/old.txt &&
		test_path_is_missing a.txt &&
		clean_result
	)
'

test_expect_success 'operation "create" of an existing file with other content is refused' '
	cat >create-exists.md <<-\EOF &&
	```json
	{ "files": [ { "path": "src/Foo.cs", "operation": "create", "content": "// other\n" } ] }
	```
	EOF
	(
		cd repo &&
		test_rejected ../create-exists.md &&
		test_grep "src/Foo.cs: .*already exists" err
	)
'

test_expect_success 'operation "create" with identical content is already applied' '
	cat >create-same.md <<-\EOF &&
	```json
	{ "files": [ { "path": "a.txt", "operation": "create", "content": "one\ntwo\nthree\n" } ] }
	```
	EOF
	(
		cd repo &&
		repo_snapshot same &&
		git ai-apply ../create-same.md >../out 2>&1 &&
		repo_unchanged same
	) &&
	test_grep -i "already applied" out
'

test_expect_success 'operations "replace" and "delete" need an existing file' '
	cat >replace-missing.md <<-\EOF &&
	```json
	{ "files": [ { "path": "src/Missing.cs", "operation": "replace", "content": "x\n" } ] }
	```
	EOF
	cat >delete-missing.md <<-\EOF &&
	```json
	{ "files": [ { "path": "src/Missing.cs", "operation": "delete" } ] }
	```
	EOF
	(
		cd repo &&
		test_rejected ../replace-missing.md &&
		test_grep "src/Missing.cs: .*does not exist" err &&
		test_rejected ../delete-missing.md &&
		test_grep "src/Missing.cs: .*does not exist" err
	)
'

test_expect_success 'an unknown operation is refused' '
	cat >unknown-op.md <<-\EOF &&
	```json
	{ "files": [ { "path": "src/Foo.cs", "operation": "truncate" } ] }
	```
	EOF
	(
		cd repo &&
		test_rejected ../unknown-op.md &&
		test_grep "truncate" err
	)
'

# Seed 002 section 2.1, verbatim: the second find occurs twice. Seed
# 002 makes a unique find the answer's duty; limit "once" with several
# matches is refused, listing the places (issue 7.6).
test_expect_success 'structured patch: the seed example, a "once" find with two matches is refused' '
	cat >patch.md <<-\EOF &&
	Here is the Aptix file patch:

	```json
	{
	  "root": ".",
	  "patches": [
	    {
	      "path": "src/MyFile.cs",
	      "replacements": [
	        {
	          "find": "public void OldMethod()",
	          "replace": "public void NewMethod()"
	        },
	        {
	          "find": "_adminLogger.Trace(\"[OldTag]\")",
	          "replace": "_adminLogger.Trace(\"[NewTag]\")"
	        }
	      ]
	    }
	  ]
	}
	```
	EOF
	lines=$(grep -n "OldTag" repo/src/MyFile.cs | cut -d: -f1 | paste -sd, - | sed "s/,/, /g") &&
	test $(grep -c "OldTag" repo/src/MyFile.cs) = 2 &&
	(
		cd repo &&
		test_rejected ../patch.md &&
		test_grep "^error: src/MyFile.cs: ../patch.md:[0-9]*: replacement 2: .*2 places (lines $lines)" err &&
		test_grep "\"all\"" err
	)
'

test_expect_success 'structured patch: limit "all" replaces every occurrence, silently' '
	cat >all.md <<-\EOF &&
	```json
	{
	  "patches": [
	    {
	      "path": "src/MyFile.cs",
	      "replacements": [
	        { "find": "[OldTag]", "replace": "[NewTag]", "limit": "all" }
	      ]
	    }
	  ]
	}
	```
	EOF
	sed -e "s/\[OldTag\]/[NewTag]/" repo/src/MyFile.cs >expect-all &&
	test $(grep -c "NewTag" expect-all) = 2 &&
	fresh w-all &&
	(
		cd w-all &&
		git ai-apply ../all.md 2>../err &&
		staged_as src/MyFile.cs ../expect-all
	) &&
	! grep "^warning" err
'

test_expect_success 'structured patch: replacements run in order on the result so far' '
	cat >chain.md <<-\EOF &&
	```json
	{
	  "patches": [
	    {
	      "path": "src/Foo.cs",
	      "replacements": [
	        { "find": "public int Count;", "replace": "public int Total;" },
	        { "find": "public int Total;", "replace": "public long Total;" }
	      ]
	    }
	  ]
	}
	```
	EOF
	sed -e "s/public int Count;/public long Total;/" repo/src/Foo.cs >expect-chain &&
	fresh w-chain &&
	(
		cd w-chain &&
		git ai-apply ../chain.md &&
		staged_as src/Foo.cs ../expect-chain
	)
'

test_expect_success 'structured patch: a find that is not found rejects everything' '
	cat >notfound.md <<-\EOF &&
	First the new file:

	```json
	{ "files": [ { "path": "src/New.cs", "content": "// new\n" } ] }
	```

	Then the patch:

	```json
	{
	  "patches": [
	    {
	      "path": "src/MyFile.cs",
	      "replacements": [
	        { "find": "public void OldMethod()", "replace": "public void NewMethod()" },
	        { "find": "public void Missing()", "replace": "public void Found()" }
	      ]
	    }
	  ]
	}
	```
	EOF
	for mode in "" --cached --branch=ai/nf --check
	do
		(
			cd repo &&
			test_rejected $mode ../notfound.md &&
			test_grep "src/MyFile.cs: .*notfound.md:[0-9]" err &&
			test_grep -F "public void Missing()" err
		) || return 1
	done
'

test_expect_success 'structured patch of a missing file is refused' '
	cat >patch-missing.md <<-\EOF &&
	```json
	{ "patches": [ { "path": "src/Nope.cs", "replacements": [ { "find": "a", "replace": "b" } ] } ] }
	```
	EOF
	(
		cd repo &&
		test_rejected ../patch-missing.md &&
		test_grep "src/Nope.cs: .*does not exist" err
	)
'

# Seed 002 section 3.1, verbatim (its header counts are wrong: 7 lines
# announced, 3 given).
test_expect_success 'git patch: the seed example in a patch fence' '
	cat >gitpatch.md <<-\EOF &&
	Here is a Git patch you can apply locally:

	```patch
	diff --git a/src/Foo.cs b/src/Foo.cs
	index 1234567..89abcde 100644
	--- a/src/Foo.cs
	+++ b/src/Foo.cs
	@@ -10,7 +10,7 @@ public class Foo
	 {
	-    public int Count;
	+    public int TotalCount;
	 }
	```
	EOF
	sed -e "s/public int Count;/public int TotalCount;/" repo/src/Foo.cs >expect-foo &&
	fresh w-gitpatch &&
	(
		cd w-gitpatch &&
		git ai-apply ../gitpatch.md &&
		staged_as src/Foo.cs ../expect-foo &&
		clean_result
	) &&
	sed -e "s/^\`\`\`patch$/\`\`\`diff/" gitpatch.md >gitdiff.md &&
	test_grep "^\`\`\`diff$" gitdiff.md &&
	fresh w-gitdiff &&
	(
		cd w-gitdiff &&
		git ai-apply --cached ../gitdiff.md &&
		git show :src/Foo.cs >../actual
	) &&
	test_cmp expect-foo actual
'

# Seed 002 section 5: a bundle, then a git patch; they apply in order
# (the patch edits the file the bundle creates).
test_expect_success 'mixed answer: bundle then git patch, in order' '
	cat >mixed.md <<-\EOF &&
	### Aptix File Bundle
	```json
	{ "root": ".", "files": [ { "path": "src/Bar.cs", "content": "public class Bar\n{\n    public int Size;\n}\n" } ] }
	```

	### Git Patch
	```patch
	diff --git a/src/Bar.cs b/src/Bar.cs
	--- a/src/Bar.cs
	+++ b/src/Bar.cs
	@@ -1,4 +1,5 @@
	 public class Bar
	 {
	     public int Size;
	+    public int Capacity;
	 }
	diff --git a/src/Foo.cs b/src/Foo.cs
	--- a/src/Foo.cs
	+++ b/src/Foo.cs
	@@ -10,3 +10,3 @@
	 {
	-    public int Count;
	+    public int TotalCount;
	 }
	```
	EOF
	printf "public class Bar\n{\n    public int Size;\n    public int Capacity;\n}\n" >expect-bar &&
	sed -e "s/public int Count;/public int TotalCount;/" repo/src/Foo.cs >expect-foo &&
	fresh w-mixed &&
	(
		cd w-mixed &&
		git ai-apply ../mixed.md &&
		staged_as src/Bar.cs ../expect-bar &&
		staged_as src/Foo.cs ../expect-foo &&
		clean_result
	)
'

test_expect_success 'a bare JSON document is an aptix answer' '
	cat >bare.json <<-\EOF &&
	{
	  "root": ".",
	  "files": [
	    { "path": "src/New.cs", "content": "// new\n" }
	  ],
	  "patches": [
	    {
	      "path": "src/Foo.cs",
	      "replacements": [ { "find": "public int Count;", "replace": "public int Total;" } ]
	    }
	  ]
	}
	EOF
	echo "// new" >expect-new &&
	sed -e "s/public int Count;/public int Total;/" repo/src/Foo.cs >expect-foo &&
	fresh w-bare &&
	(
		cd w-bare &&
		git ai-apply ../bare.json &&
		staged_as src/New.cs ../expect-new &&
		staged_as src/Foo.cs ../expect-foo
	) &&
	fresh w-bare-stdin &&
	(
		cd w-bare-stdin &&
		git ai-apply --cached <../bare.json &&
		test "$(git write-tree)" = "$(git -C ../w-bare write-tree)"
	)
'

test_expect_success '"root" is a directory prefix for every path' '
	cat >root.md <<-\EOF &&
	```json
	{
	  "root": "src",
	  "files": [ { "path": "Util/Strings.cs", "content": "// strings\n" } ],
	  "patches": [
	    { "path": "Foo.cs", "replacements": [ { "find": "int Count", "replace": "int Total" } ] }
	  ]
	}
	```
	EOF
	echo "// strings" >expect-strings &&
	sed -e "s/int Count/int Total/" repo/src/Foo.cs >expect-foo &&
	fresh w-root &&
	(
		cd w-root &&
		git ai-apply ../root.md &&
		staged_as src/Util/Strings.cs ../expect-strings &&
		staged_as src/Foo.cs ../expect-foo &&
		test_path_is_missing Util &&
		clean_result
	)
'

test_expect_success 'an invalid "root" or path is refused' '
	for root in ".." "/tmp" "src/../.." ".git" "C:/x" "src\\\\x"
	do
		printf "{ \"root\": \"%s\", \"files\": [ { \"path\": \"x.cs\", \"content\": \"x\" } ] }\n" "$root" >bad-root.json &&
		(
			cd repo &&
			test_rejected ../bad-root.json &&
			test_grep "root" err
		) || return 1
	done &&
	for p in "../x.cs" "/etc/passwd" ".git/hooks/pre-commit" "src//x.cs" ""
	do
		printf "{ \"files\": [ { \"path\": \"%s\", \"content\": \"x\" } ] }\n" "$p" >bad-path.json &&
		(
			cd repo &&
			test_rejected ../bad-path.json &&
			test_grep -i "invalid\|empty" err
		) || return 1
	done
'

test_expect_success 'JSON escapes are decoded and written exactly' '
	cat >unicode.md <<-\EOF &&
	```json
	{
	  "files": [
	    {
	      "path": "docs/caf\u00e9.md",
	      "content": "Caf\u00e9 \ud83d\ude00 \u2014 tab:\there \"quoted\" back\\slash\r\nnext\u0021\n"
	    }
	  ],
	  "patches": [
	    {
	      "path": "README.md",
	      "replacements": [ { "find": "Build with dotnet.", "replace": "Build with dotnet \ud83d\ude80." } ] }
	  ]
	}
	```
	EOF
	printf "Caf\303\251 \360\237\230\200 \342\200\224 tab:\there \"quoted\" back\\\\slash\r\nnext!\n" >expect-cafe &&
	printf "# App\n\nBuild with dotnet \360\237\232\200.\n" >expect-readme &&
	fresh w-unicode &&
	(
		cd w-unicode &&
		git ai-apply ../unicode.md &&
		staged_as "docs/caf$(printf "\303\251").md" ../expect-cafe &&
		staged_as README.md ../expect-readme
	)
'

test_expect_success 'malformed JSON in an aptix block is an error with its line' '
	cat >broken.md <<-\EOF &&
	Here you go:

	```json
	{
	  "files": [
	    { "path": "src/A.cs", "content": "// a\n" },
	    { "path": "src/B.cs" "content": "// b\n" }
	  ]
	}
	```
	EOF
	n=$(line_of "\"src/B.cs\" \"content\"" broken.md) &&
	test "$n" = 7 &&
	(
		cd repo &&
		test_rejected ../broken.md &&
		test_grep "broken.md:$n:" err
	)
'

test_expect_success 'a json block that is not aptix is prose' '
	cat >pkg.md <<-\EOF &&
	Your package.json is fine:

	```json
	{ "name": "app", "files": ["dist", "lib"] }
	```

	and here is the fix:

	```json
	{ "files": [ { "path": "src/New.cs", "content": "// new\n" } ] }
	```
	EOF
	echo "// new" >expect-new &&
	fresh w-pkg &&
	(
		cd w-pkg &&
		git ai-apply ../pkg.md &&
		staged_as src/New.cs ../expect-new &&
		git diff --cached --name-only >../names
	) &&
	echo src/New.cs >expect &&
	test_cmp expect names
'

test_expect_success 'a bare JSON document nested too deep says so' '
	awk "BEGIN { s = \"{\\\"files\\\": \"; for (i = 0; i < 200; i++) s = s \"[\"; for (i = 0; i < 200; i++) s = s \"]\"; print s \"}\" }" >deep.json &&
	awk "BEGIN { s = \"\"; for (i = 0; i < 200; i++) s = s \"[\"; for (i = 0; i < 200; i++) s = s \"]\"; print s }" >deep-array.json &&
	(
		cd repo &&
		for f in deep.json deep-array.json
		do
			test_rejected ../$f &&
			test_grep "^error: ../$f:1: .*nested deeper than 64" err &&
			! grep "no change found" err || return 1
		done
	)
'

test_expect_success 'the refusal sentence is rejected and quoted' '
	cat >refusal.md <<-\EOF &&
	I looked at the file you pasted, but two methods are called `Trace`.

	> `A patch cannot be safely generated with the information provided.`

	Please send me the whole file.
	EOF
	(
		cd repo &&
		test_rejected ../refusal.md &&
		test_grep -F "A patch cannot be safely generated with the information provided." err
	)
'

test_expect_success 'the git patch refusal is rejected and quoted too' '
	cat >refusal2.md <<-\EOF &&
	Unable to generate a safe Git patch; fallback to Aptix file bundle.
	EOF
	(
		cd repo &&
		test_rejected ../refusal2.md &&
		test_grep -F "Unable to generate a safe Git patch" err
	)
'

test_done
