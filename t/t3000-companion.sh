#!/bin/sh

test_description='companion format (seed 000): START-FILE, START-PATCH, DELETE-FILE, START-REPLACE-FILE'

. "$(dirname "$0")/test-lib.sh"

# line_of PATTERN FILE: the number of the first line of FILE matching
# the fixed string PATTERN.
line_of () {
	grep -n -F -e "$1" "$2" | head -n 1 | cut -d: -f1
}

test_expect_success 'setup: a PHP project' '
	make_repo repo &&
	(
		cd repo &&
		mkdir -p src/Entity config templates/legacy bin &&
		cat >src/Entity/User.php <<-\EOF &&
		<?php
		declare(strict_types=1);

		namespace App\Entity;

		use Doctrine\ORM\Mapping as ORM;

		/**
		 * A registered user.
		 *
		 * @ORM\Entity
		 */
		#[ORM\Entity]
		#[ORM\Table(name: '"'"'users'"'"')]
		class User
		{
		    private ?string $name = null;

		    // ...
		}
		EOF
		cat >config/services.yaml <<-\EOF &&
		services:
		    _defaults:
		        autowire: true
		    App\:
		        resource: '"'"'../src/'"'"'
		EOF
		printf "{%% extends \"base.html.twig\" %%}\n<p>old</p>\n" \
			>templates/legacy/old_template.html.twig &&
		printf "#!/bin/sh\nexec php bin/console \"\$@\"\n" >bin/run &&
		chmod +x bin/run &&
		git add . &&
		git commit -q -m "the project" &&
		git tag base
	) &&
	test "$(sed -n 15p repo/src/Entity/User.php)" = "class User"
'

# The seed's four examples, in one answer, as an assistant writes it.
test_expect_success 'setup: the answer with the seed examples' '
	cat >seed.md <<-\EOF &&
	Sure! Here are the changes for the mailer feature.

	### 1. New service

	--- START-FILE: src/Services/MailerService.php ---
	<?php
	declare(strict_types=1);

	namespace App\Services;

	class MailerService
	{
	    // ...
	}
	--- END-FILE: src/Services/MailerService.php ---

	### 2. Track when a user was created

	--- START-PATCH: src/Entity/User.php ---
	--- a/src/Entity/User.php
	+++ b/src/Entity/User.php
	@@ -15,6 +15,7 @@
	 class User
	 {
	     private ?string $name = null;
	+    private ?\DateTimeImmutable $createdAt = null;

	     // ...
	 }
	--- END-PATCH: src/Entity/User.php ---

	### 3. Remove the legacy template

	--- DELETE-FILE: templates/legacy/old_template.html.twig ---

	### 4. New service configuration

	--- START-REPLACE-FILE: config/services.yaml ---
	parameters:
	    # ... completely new structure
	services:
	    # ...
	--- END-REPLACE-FILE: config/services.yaml ---

	Let me know if you also want the tests.
	EOF
	cat >expect-mailer <<-\EOF &&
	<?php
	declare(strict_types=1);

	namespace App\Services;

	class MailerService
	{
	    // ...
	}
	EOF
	cat >expect-user <<-\EOF &&
	<?php
	declare(strict_types=1);

	namespace App\Entity;

	use Doctrine\ORM\Mapping as ORM;

	/**
	 * A registered user.
	 *
	 * @ORM\Entity
	 */
	#[ORM\Entity]
	#[ORM\Table(name: '"'"'users'"'"')]
	class User
	{
	    private ?string $name = null;
	    private ?\DateTimeImmutable $createdAt = null;

	    // ...
	}
	EOF
	cat >expect-services <<-\EOF &&
	parameters:
	    # ... completely new structure
	services:
	    # ...
	EOF
	printf "M\tconfig/services.yaml\nM\tsrc/Entity/User.php\nA\tsrc/Services/MailerService.php\nD\ttemplates/legacy/old_template.html.twig\n" \
		>expect-status
'

test_expect_success 'the four commands apply to index and work tree' '
	fresh w-seed &&
	(
		cd w-seed &&
		git ai-apply ../seed.md >../out 2>../err &&
		git diff --cached --name-status >../status &&
		staged_as src/Services/MailerService.php ../expect-mailer &&
		staged_as src/Entity/User.php ../expect-user &&
		staged_as config/services.yaml ../expect-services &&
		test_path_is_missing templates/legacy/old_template.html.twig &&
		git diff --exit-code &&
		test -z "$(git ls-files --others --exclude-standard)" &&
		test "$(git rev-parse HEAD)" = "$(git rev-parse base)"
	) &&
	test_cmp expect-status status &&
	! grep "^error" err &&
	for p in src/Services/MailerService.php src/Entity/User.php \
		templates/legacy/old_template.html.twig config/services.yaml
	do
		test_grep -F "$p" out || return 1
	done
'

test_expect_success '--cached changes the index only' '
	fresh w-cached &&
	(
		cd w-cached &&
		git ai-apply --cached ../seed.md &&
		git diff --cached --name-status >../status &&
		test "$(git write-tree)" = "$(git -C ../w-seed write-tree)" &&
		# the work tree is base, file for file (deletions included)
		git ls-tree -r --name-only base >../base-files &&
		while read f
		do
			git cat-file blob "base:$f" | cmp -s - "$f" || return 1
		done <../base-files &&
		test_path_is_missing src/Services/MailerService.php &&
		test_path_is_file templates/legacy/old_template.html.twig
	) &&
	test_cmp expect-status status
'

test_expect_success '--branch makes a commit and touches nothing else' '
	fresh w-branch &&
	(
		cd w-branch &&
		index=$(git hash-object .git/index) &&
		head=$(git symbolic-ref HEAD) &&
		git ai-apply --branch=ai/mailer ../seed.md &&
		test "$(git rev-parse ai/mailer^)" = "$(git rev-parse base)" &&
		test "$(git rev-parse ai/mailer^{tree})" = "$(git -C ../w-seed write-tree)" &&
		git diff --name-status base ai/mailer >../status &&
		test "$(git hash-object .git/index)" = "$index" &&
		test -z "$(git status --porcelain)" &&
		test "$(git symbolic-ref HEAD)" = "$head" &&
		test "$(git rev-parse HEAD)" = "$(git rev-parse base)"
	) &&
	test_cmp expect-status status
'

test_expect_success '--check validates and writes nothing' '
	fresh w-check &&
	(
		cd w-check &&
		repo_snapshot check &&
		git ai-apply --check ../seed.md &&
		repo_unchanged check
	)
'

test_expect_success 'commands inside a code fence and inside list items' '
	cat >listed.md <<-\EOF &&
	Two steps:

	1. Add the mailer:

	   ```text
	   --- START-FILE: src/Services/MailerService.php ---
	   <?php
	   declare(strict_types=1);

	   namespace App\Services;

	   class MailerService
	   {
	       // ...
	   }
	   --- END-FILE: src/Services/MailerService.php ---
	   ```

	2. Replace the configuration:

	```
	--- START-REPLACE-FILE: config/services.yaml ---
	parameters:
	    # ... completely new structure
	services:
	    # ...
	--- END-REPLACE-FILE: config/services.yaml ---
	```

	That is all.
	EOF
	fresh w-listed &&
	(
		cd w-listed &&
		git ai-apply ../listed.md &&
		staged_as src/Services/MailerService.php ../expect-mailer &&
		staged_as config/services.yaml ../expect-services
	)
'

test_expect_success 'the content is every line between START and END' '
	cat >content.md <<-\EOF &&
	The notes file, verbatim:

	--- START-FILE: docs/notes.md ---

	# Notes

	```sh
	make test
	```
	--- a/not/a/command
	    indented line	with a tab

	--- END-FILE: docs/notes.md ---
	EOF
	printf "\n# Notes\n\n\`\`\`sh\nmake test\n\`\`\`\n--- a/not/a/command\n    indented line\twith a tab\n\n" \
		>expect-notes &&
	fresh w-content &&
	(
		cd w-content &&
		git ai-apply ../content.md &&
		staged_as docs/notes.md ../expect-notes
	)
'

test_expect_success 'an empty body makes an empty file' '
	printf "Empty marker file:\n\n--- START-FILE: .keep ---\n--- END-FILE: .keep ---\n" \
		>empty.md &&
	fresh w-empty &&
	(
		cd w-empty &&
		git ai-apply ../empty.md &&
		test "$(git rev-parse :.keep)" = "$(git hash-object -t blob /dev/null)" &&
		test_path_is_file .keep &&
		! test -s .keep
	)
'

test_expect_success 'CRLF in the answer is a line ending, not content' '
	printf "Here:\r\n\r\n--- START-FILE: crlf.txt ---\r\nfirst\r\nsecond\r\n--- END-FILE: crlf.txt ---\r\n" \
		>crlf.md &&
	printf "first\nsecond\n" >expect-crlf &&
	fresh w-crlf &&
	(
		cd w-crlf &&
		git ai-apply ../crlf.md &&
		staged_as crlf.txt ../expect-crlf
	)
'

test_expect_success 'commands work from a subdirectory (paths are from the root)' '
	fresh w-sub &&
	(
		cd w-sub/src/Entity &&
		git ai-apply ../../../seed.md &&
		cd ../.. &&
		git diff --cached --name-status >../status &&
		staged_as src/Services/MailerService.php ../expect-mailer
	) &&
	test_cmp expect-status status
'

test_expect_success 'START-FILE with the same content is already applied' '
	cat >same.md <<-\EOF &&
	You already have this file; for reference:

	--- START-FILE: a.txt ---
	one
	two
	three
	--- END-FILE: a.txt ---
	EOF
	(
		cd repo &&
		repo_snapshot same &&
		git ai-apply ../same.md >../out 2>&1 &&
		repo_unchanged same
	) &&
	test_grep -i "already applied" out
'

test_expect_success 'an answer applied a second time is already applied' '
	sed -e "/^### 3/,/^### 4/d" seed.md >again.md &&
	! grep DELETE-FILE again.md &&
	(
		cd w-seed &&
		repo_snapshot again &&
		git ai-apply ../again.md >../out 2>&1 &&
		repo_unchanged again
	) &&
	test_grep -i "already applied" out
'

test_expect_success 'START-FILE over an existing file with other content is refused' '
	cat >exists.md <<-\EOF &&
	--- START-FILE: a.txt ---
	something else
	--- END-FILE: a.txt ---
	EOF
	(
		cd repo &&
		test_rejected ../exists.md &&
		test_grep "a.txt: .*already exists" err &&
		test_rejected --cached ../exists.md &&
		test_rejected --branch=ai/exists ../exists.md &&
		test_rejected --check ../exists.md
	)
'

test_expect_success 'START-REPLACE-FILE of a missing path is refused' '
	cat >replace-missing.md <<-\EOF &&
	Replace the settings:

	--- START-REPLACE-FILE: config/settings.yaml ---
	debug: false
	--- END-REPLACE-FILE: config/settings.yaml ---
	EOF
	(
		cd repo &&
		test_rejected ../replace-missing.md &&
		test_grep "config/settings.yaml: .*does not exist" err
	)
'

test_expect_success 'DELETE-FILE of a missing path is refused' '
	cat >delete-missing.md <<-\EOF &&
	Remove the old template:

	--- DELETE-FILE: templates/legacy/gone.html.twig ---
	EOF
	(
		cd repo &&
		test_rejected ../delete-missing.md &&
		test_grep "templates/legacy/gone.html.twig: .*does not exist" err
	)
'

test_expect_success 'an END naming another path is malformed' '
	cat >mismatch.md <<-\EOF &&
	Here is the file:

	--- START-FILE: src/a.php ---
	<?php
	--- END-FILE: src/b.php ---
	EOF
	n=$(line_of "END-FILE: src/b.php" mismatch.md) &&
	(
		cd repo &&
		test_rejected ../mismatch.md &&
		test_grep "mismatch.md:$n:" err &&
		test_grep "src/b.php" err
	)
'

test_expect_success 'an END of another verb is malformed' '
	cat >verb.md <<-\EOF &&
	--- START-FILE: src/a.php ---
	<?php
	--- END-REPLACE-FILE: src/a.php ---
	EOF
	(
		cd repo &&
		test_rejected ../verb.md &&
		test_grep "verb.md:3:" err
	)
'

test_expect_success 'a missing END is malformed' '
	cat >noend.md <<-\EOF &&
	I will create the file:

	--- START-FILE: src/a.php ---
	<?php
	echo "hi";
	EOF
	(
		cd repo &&
		test_rejected ../noend.md &&
		test_grep "noend.md:3:" err
	)
'

test_expect_success 'a missing END before the next command is malformed' '
	cat >noend2.md <<-\EOF &&
	--- START-FILE: src/a.php ---
	<?php
	--- START-FILE: src/b.php ---
	<?php
	--- END-FILE: src/b.php ---
	EOF
	(
		cd repo &&
		test_rejected ../noend2.md &&
		test_grep "noend2.md:1:" err
	)
'

test_expect_success 'one failing command rejects the whole answer' '
	cat >partial.md <<-\EOF &&
	--- START-FILE: src/Services/MailerService.php ---
	<?php
	--- END-FILE: src/Services/MailerService.php ---

	--- START-REPLACE-FILE: config/services.yaml ---
	services: ~
	--- END-REPLACE-FILE: config/services.yaml ---

	--- DELETE-FILE: templates/legacy/missing.html.twig ---
	EOF
	n=$(line_of "DELETE-FILE:" partial.md) &&
	for mode in "" --cached --branch=ai/partial
	do
		(
			cd repo &&
			test_rejected $mode ../partial.md &&
			test_grep "templates/legacy/missing.html.twig: .*partial.md:$n:" err
		) || return 1
	done
'

test_expect_success 'START-PATCH finds its hunk away from the stated line, with a warning' '
	cat >offset.md <<-\EOF &&
	--- START-PATCH: src/Entity/User.php ---
	--- a/src/Entity/User.php
	+++ b/src/Entity/User.php
	@@ -5,3 +5,3 @@
	 class User
	 {
	-    private ?string $name = null;
	+    private string $name = '"'"''"'"';
	--- END-PATCH: src/Entity/User.php ---
	EOF
	sed -e "s/private ?string \$name = null;/private string \$name = '"'"''"'"';/" \
		repo/src/Entity/User.php >expect-offset &&
	! test_cmp repo/src/Entity/User.php expect-offset >/dev/null &&
	fresh w-offset &&
	(
		cd w-offset &&
		git ai-apply ../offset.md 2>../err &&
		staged_as src/Entity/User.php ../expect-offset
	) &&
	test_grep "^warning: src/Entity/User.php" err
'

test_expect_success 'START-PATCH of a missing file is refused' '
	cat >patch-missing.md <<-\EOF &&
	--- START-PATCH: src/Entity/Post.php ---
	--- a/src/Entity/Post.php
	+++ b/src/Entity/Post.php
	@@ -1,2 +1,2 @@
	 class Post
	-{}
	+{ }
	--- END-PATCH: src/Entity/Post.php ---
	EOF
	(
		cd repo &&
		test_rejected ../patch-missing.md &&
		test_grep "src/Entity/Post.php: .*does not exist" err
	)
'

test_expect_success 'START-PATCH: the command names the file, not the diff header' '
	cat >patch-short.md <<-\EOF &&
	--- START-PATCH: src/Entity/User.php ---
	--- a/User.php
	+++ b/User.php
	@@ -16,3 +16,3 @@
	 {
	-    private ?string $name = null;
	+    private ?string $name = '"'"'anonymous'"'"';

	--- END-PATCH: src/Entity/User.php ---
	EOF
	sed -e "s/private ?string \$name = null;/private ?string \$name = '"'"'anonymous'"'"';/" \
		repo/src/Entity/User.php >expect-short &&
	test_grep anonymous expect-short &&
	fresh w-short &&
	(
		cd w-short &&
		git ai-apply ../patch-short.md 2>../err &&
		staged_as src/Entity/User.php ../expect-short &&
		test_path_is_missing User.php
	) &&
	test_grep "^warning: .*User.php" err
'

test_expect_success 'START-PATCH holding the diffs of two files is refused' '
	cat >patch-two.md <<-\EOF &&
	--- START-PATCH: a.txt ---
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+2
	 three
	--- a/dir/b.txt
	+++ b/dir/b.txt
	@@ -1,2 +1,2 @@
	-alpha
	+ALPHA
	 beta
	--- END-PATCH: a.txt ---
	EOF
	(
		cd repo &&
		test_rejected ../patch-two.md &&
		test_grep "dir/b.txt" err
	)
'

test_expect_success 'START-PATCH whose hunk does not match is refused' '
	cat >patch-nomatch.md <<-\EOF &&
	--- START-PATCH: a.txt ---
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 uno
	-dos
	+two
	 tres
	--- END-PATCH: a.txt ---
	EOF
	(
		cd repo &&
		test_rejected ../patch-nomatch.md &&
		# the error names the hunk line (the @@ line, line 4)
		test_grep "a.txt: .*patch-nomatch.md:4:" err
	)
'

test_expect_success 'START-REPLACE-FILE keeps the executable bit' '
	cat >exec.md <<-\EOF &&
	--- START-REPLACE-FILE: bin/run ---
	#!/bin/sh
	set -e
	exec php bin/console "$@"
	--- END-REPLACE-FILE: bin/run ---
	EOF
	printf "#!/bin/sh\nset -e\nexec php bin/console \"\$@\"\n" >expect-run &&
	fresh w-exec &&
	(
		cd w-exec &&
		git ai-apply ../exec.md &&
		staged_as bin/run ../expect-run &&
		git ls-files -s bin/run >mode &&
		test_grep "^100755" mode &&
		test -x bin/run
	)
'

test_expect_success 'invalid paths in commands are refused' '
	for p in ../evil.php /etc/passwd .git/config "src\\\\x.php" src//a.php
	do
		printf -- "--- START-FILE: %s ---\nx\n--- END-FILE: %s ---\n" "$p" "$p" >bad-path.md &&
		(
			cd repo &&
			test_rejected ../bad-path.md &&
			test_grep "invalid path" err
		) || return 1
	done &&
	printf -- "--- DELETE-FILE: ../a.txt ---\n" >bad-delete.md &&
	(
		cd repo &&
		test_rejected ../bad-delete.md &&
		test_grep "invalid path" err
	)
'

test_expect_success 'an answer without commands has no change' '
	cat >prose.md <<-\EOF &&
	I looked at the code and everything seems fine. Use the
	--- START-FILE --- command when you want me to create a file.
	EOF
	(
		cd repo &&
		test_rejected ../prose.md
	)
'

# Assistants wrap file bodies in code fences; outside --strict a fence
# whose lines are the body's first and last is a wrapper (issue 7.5).
test_expect_success 'a fence around a START-REPLACE-FILE body is stripped, with a warning' '
	cat >fenced.md <<-\EOF &&
	Here is the updated file:

	--- START-REPLACE-FILE: config/services.yaml ---
	```yaml
	services:
	    _defaults:
	        autowire: false
	```
	--- END-REPLACE-FILE: config/services.yaml ---

	--- START-FILE: src/new.php ---
	~~~~php
	<?php
	```
	~~~~
	--- END-FILE: src/new.php ---
	EOF
	printf "services:\n    _defaults:\n        autowire: false\n" >expect-fenced &&
	printf "<?php\n\`\`\`\n" >expect-fenced-new &&
	fresh w-fenced &&
	(
		cd w-fenced &&
		git ai-apply ../fenced.md 2>../err &&
		staged_as config/services.yaml ../expect-fenced &&
		staged_as src/new.php ../expect-fenced-new
	) &&
	test_grep "^warning: config/services.yaml: ../fenced.md:3: .*code fence (lines 4 and 8)" err &&
	test_grep "^warning: src/new.php: ../fenced.md:11: .*code fence (lines 12 and 15)" err
'

test_expect_success 'a fenced body of a Markdown-like file stays content, with a note' '
	for ext in md markdown mdx rst
	do
		cat >fenced-doc.md <<-EOF &&
		--- START-FILE: docs/usage.$ext ---
		\`\`\`sh
		make test
		\`\`\`
		--- END-FILE: docs/usage.$ext ---
		EOF
		printf "\`\`\`sh\nmake test\n\`\`\`\n" >expect-doc &&
		fresh w-doc &&
		(
			cd w-doc &&
			git ai-apply ../fenced-doc.md 2>../err &&
			staged_as docs/usage.$ext ../expect-doc
		) &&
		test_grep "^note: docs/usage.$ext: .*fence" err || return 1
	done
'

test_expect_success 'a body that only starts with a fence is content' '
	cat >half-fenced.md <<-\EOF &&
	--- START-FILE: notes.txt ---
	```
	not closed at the end
	--- END-FILE: notes.txt ---
	EOF
	printf "\`\`\`\nnot closed at the end\n" >expect-half &&
	fresh w-half &&
	(
		cd w-half &&
		git ai-apply ../half-fenced.md 2>../err &&
		staged_as notes.txt ../expect-half
	) &&
	! grep fence err
'

# Blocks do not nest, so an END without its path closes the open block
# (issue 7.7).
test_expect_success 'END-FILE and END-PATCH without the path close the open block, with a note' '
	cat >bare-end.md <<-\EOF &&
	--- START-FILE: src/bare.php ---
	<?php
	--- END-FILE ---

	--- START-PATCH: config/services.yaml ---
	@@ -3 +3 @@
	-        autowire: true
	+        autowire: false
	--- END-PATCH ---
	EOF
	printf "<?php\n" >expect-bare &&
	fresh w-bare &&
	(
		cd w-bare &&
		git ai-apply ../bare-end.md 2>../err &&
		staged_as src/bare.php ../expect-bare &&
		grep -q "autowire: false" config/services.yaml
	) &&
	test_grep "^note: .*bare-end.md:3: .*END-FILE" err &&
	test_grep "^note: .*bare-end.md:9: .*END-PATCH" err
'

test_expect_success 'a bare END of another verb, or one without a START, is refused' '
	printf -- "--- START-FILE: src/a.php ---\n<?php\n--- END-PATCH ---\n" >bare-other.md &&
	printf -- "Done.\n--- END-FILE ---\n" >bare-alone.md &&
	(
		cd repo &&
		test_rejected ../bare-other.md &&
		test_grep "bare-other.md:3: .*\"--- END-PATCH ---\"" err &&
		test_rejected ../bare-alone.md &&
		test_grep "bare-alone.md:2: .*without a START" err
	)
'

test_expect_success 'companion errors quote the line that was seen' '
	(
		cd repo &&
		test_rejected ../mismatch.md &&
		test_grep "\"--- END-FILE: src/b.php ---\"" err &&
		test_rejected ../noend2.md &&
		test_grep "\"--- START-FILE: src/b.php ---\"" err
	)
'

test_done
