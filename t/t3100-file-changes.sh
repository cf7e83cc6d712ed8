#!/bin/sh

test_description='file-changes format (seed 001): FILE_NEW, FILE_PATCH, FILE_RENAME, FILE_DELETE'

. "$(dirname "$0")/test-lib.sh"

# unfence_seed: the answer without the ```xml fence around FILE_CHANGES.
unfence_seed () {
	awk '/^```xml$/ { next }
		prev == "</FILE_CHANGES>" && /^```$/ { prev = $0; next }
		{ print; prev = $0 }'
}

test_expect_success 'setup: a Rust project' '
	make_repo repo &&
	(
		cd repo &&
		mkdir -p src/util docs/old &&
		cat >src/main.rs <<-\EOF &&
		mod core_mod;
		mod helpers;

		fn main() {
		    println!("Starting...");
		    core_mod::init();
		}
		EOF
		cat >src/legacy_mod.rs <<-\EOF &&
		pub fn init() {
		    println!("init");
		}
		EOF
		printf "{ \"debug\": true }\n" >temp_config.json &&
		printf "pub fn clamp(x: i32) -> i32 {\n    x.max(0)\n}\n" >src/util/math.rs &&
		printf "pub mod math;\n" >src/util/mod.rs &&
		printf "# Old guide\n" >docs/old/guide.md &&
		printf "# Old FAQ\n" >docs/old/faq.md &&
		cat >src/config.rs <<-\EOF &&
		pub struct Config {
		    pub verbose: bool,
		}

		pub fn load() -> Config {
		    let c = Config { verbose: false };
		    c
		}

		pub fn reload() -> Config {
		    let c = Config { verbose: false };
		    c
		}
		EOF
		git add . &&
		git commit -q -m "the project" &&
		git tag base
	)
'

# The seed's unified example, verbatim, inside a chat answer.
test_expect_success 'setup: the seed example and its expected result' '
	cat >seed.md <<-\EOF &&
	Here is the refactoring. I renamed the legacy module, removed the
	temporary configuration and added a version helper.

	```xml
	<FILE_CHANGES>

	<FILE_RENAME from_path="src/legacy_mod.rs" to_path="src/core_mod.rs" />

	<FILE_DELETE file_path="temp_config.json" />

	<FILE_NEW file_path="src/helpers.rs">
	```rust
	pub fn get_version() -> &'"'"'static str {
	    "0.1.0"
	}
	```
	</FILE_NEW>

	<FILE_PATCH file_path="src/main.rs">
	@@
	 fn main() {
	-    println!("Starting...");
	+    println!("App v{}", helpers::get_version());
	     core_mod::init();
	 }
	</FILE_PATCH>

	</FILE_CHANGES>
	```

	Run `cargo build` afterwards.
	EOF
	cat >expect-helpers <<-\EOF &&
	pub fn get_version() -> &'"'"'static str {
	    "0.1.0"
	}
	EOF
	cat >expect-main <<-\EOF &&
	mod core_mod;
	mod helpers;

	fn main() {
	    println!("App v{}", helpers::get_version());
	    core_mod::init();
	}
	EOF
	printf "A\tsrc/helpers.rs\nM\tsrc/main.rs\nR100\tsrc/legacy_mod.rs\tsrc/core_mod.rs\nD\ttemp_config.json\n" |
		LC_ALL=C sort >expect-status
'

test_expect_success 'the seed example applies with the right final files' '
	fresh w-seed &&
	(
		cd w-seed &&
		old=$(git rev-parse :src/legacy_mod.rs) &&
		git ai-apply ../seed.md >../out 2>../err &&
		test "$(git rev-parse :src/core_mod.rs)" = "$old" &&
		test_path_is_missing src/legacy_mod.rs &&
		test_path_is_missing temp_config.json &&
		staged_as src/helpers.rs ../expect-helpers &&
		staged_as src/main.rs ../expect-main &&
		git show base:src/legacy_mod.rs >../expect-core &&
		staged_as src/core_mod.rs ../expect-core &&
		clean_result &&
		git diff --cached -M --name-status | LC_ALL=C sort >../status
	) &&
	test_cmp expect-status status &&
	! grep "^error" err
'

test_expect_success 'the seed example unfenced, as a commit on a branch' '
	unfence_seed <seed.md >seed-bare.md &&
	! grep "^\`\`\`xml" seed-bare.md &&
	fresh w-seed-branch &&
	(
		cd w-seed-branch &&
		git ai-apply --branch=ai/version ../seed-bare.md &&
		test "$(git rev-parse ai/version^{tree})" = "$(git -C ../w-seed write-tree)" &&
		test "$(git rev-parse ai/version^)" = "$(git rev-parse base)" &&
		test -z "$(git status --porcelain)" &&
		test_path_is_file src/legacy_mod.rs
	)
'

test_expect_success '--check accepts the seed example and writes nothing' '
	(
		cd repo &&
		repo_snapshot check &&
		git ai-apply --check ../seed.md &&
		repo_unchanged check
	)
'

test_expect_success 'the root tag is optional' '
	cat >noroot.md <<-\EOF &&
	Just two changes:

	<FILE_DELETE file_path="temp_config.json" />
	<FILE_NEW file_path="src/helpers.rs">
	pub fn get_version() -> &'"'"'static str {
	    "0.1.0"
	}
	</FILE_NEW>
	EOF
	fresh w-noroot &&
	(
		cd w-noroot &&
		git ai-apply ../noroot.md &&
		staged_as src/helpers.rs ../expect-helpers &&
		test_path_is_missing temp_config.json &&
		clean_result
	)
'

test_expect_success 'FILE_NEW overwrites an existing file' '
	cat >overwrite.md <<-\EOF &&
	<FILE_CHANGES>
	<FILE_NEW file_path="src/legacy_mod.rs">
	pub fn init() {}
	</FILE_NEW>
	</FILE_CHANGES>
	EOF
	printf "pub fn init() {}\n" >expect-overwrite &&
	fresh w-overwrite &&
	(
		cd w-overwrite &&
		git ai-apply ../overwrite.md &&
		staged_as src/legacy_mod.rs ../expect-overwrite &&
		git diff --cached --name-status >../status
	) &&
	printf "M\tsrc/legacy_mod.rs\n" >expect &&
	test_cmp expect status
'

test_expect_success 'attributes in single quotes' '
	# a double quote inside single quotes is part of the value
	cat >single.md <<-\EOF &&
	<FILE_CHANGES>
	<FILE_RENAME from_path='"'"'src/legacy_mod.rs'"'"' to_path='"'"'src/core_mod.rs'"'"' />
	<FILE_NEW file_path='"'"'docs/say "hi".txt'"'"'>
	hi
	</FILE_NEW>
	<FILE_DELETE file_path='"'"'temp_config.json'"'"'/>
	</FILE_CHANGES>
	EOF
	echo hi >expect-hi &&
	fresh w-single &&
	(
		cd w-single &&
		git ai-apply ../single.md &&
		test_path_is_missing src/legacy_mod.rs &&
		test_path_is_file src/core_mod.rs &&
		test_path_is_missing temp_config.json &&
		staged_as "docs/say \"hi\".txt" ../expect-hi &&
		clean_result
	)
'

test_expect_success 'nothing is XML-unescaped, in content or in paths' '
	cat >escape.md <<-\EOF &&
	<FILE_CHANGES>
	<FILE_NEW file_path="web/index.html">
	<p>&lt;b&gt; &amp; &quot;x&quot; &#39;y&#39; <b>bold</b></p>
	</FILE_NEW>
	<FILE_NEW file_path="docs/Q&amp;A.md">
	Q & A
	</FILE_NEW>
	</FILE_CHANGES>
	EOF
	printf "<p>&lt;b&gt; &amp; &quot;x&quot; &#39;y&#39; <b>bold</b></p>\n" >expect-html &&
	printf "Q & A\n" >expect-qa &&
	fresh w-escape &&
	(
		cd w-escape &&
		git ai-apply ../escape.md &&
		staged_as web/index.html ../expect-html &&
		staged_as "docs/Q&amp;A.md" ../expect-qa &&
		test_path_is_missing "docs/Q&A.md"
	)
'

test_expect_success 'one leading newline and one enclosing fence are dropped' '
	cat >fences.md <<-\EOF &&
	<FILE_CHANGES>
	<FILE_NEW file_path="plain.txt">
	line one
	line two
	</FILE_NEW>
	<FILE_NEW file_path="blank-first.txt">

	after a blank line
	</FILE_NEW>
	<FILE_NEW file_path="fenced.txt">
	```
	fenced, no language
	```
	</FILE_NEW>
	<FILE_NEW file_path="README.md">
	````markdown
	# Title

	```sh
	make
	```
	````
	</FILE_NEW>
	<FILE_NEW file_path="middle.md">
	Text before
	```
	code
	```
	</FILE_NEW>
	</FILE_CHANGES>
	EOF
	printf "line one\nline two\n" >expect-plain &&
	printf "\nafter a blank line\n" >expect-blank &&
	printf "fenced, no language\n" >expect-fenced &&
	printf "# Title\n\n\`\`\`sh\nmake\n\`\`\`\n" >expect-readme &&
	printf "Text before\n\`\`\`\ncode\n\`\`\`\n" >expect-middle &&
	fresh w-fences &&
	(
		cd w-fences &&
		git ai-apply ../fences.md &&
		staged_as plain.txt ../expect-plain &&
		staged_as blank-first.txt ../expect-blank &&
		staged_as fenced.txt ../expect-fenced &&
		staged_as README.md ../expect-readme &&
		staged_as middle.md ../expect-middle
	)
'

test_expect_success 'CRLF in the answer is a line ending, not content' '
	printf "<FILE_CHANGES>\r\n<FILE_NEW file_path=\"crlf.txt\">\r\n\`\`\`text\r\nfirst\r\nsecond\r\n\`\`\`\r\n</FILE_NEW>\r\n</FILE_CHANGES>\r\n" \
		>crlf.md &&
	printf "first\nsecond\n" >expect-crlf &&
	fresh w-crlf &&
	(
		cd w-crlf &&
		git ai-apply ../crlf.md &&
		staged_as crlf.txt ../expect-crlf
	)
'

test_expect_success 'FILE_PATCH with a full unified diff' '
	cat >udiff.md <<-\EOF &&
	<FILE_CHANGES>
	<FILE_PATCH file_path="src/config.rs">
	```diff
	--- a/src/config.rs
	+++ b/src/config.rs
	@@ -1,3 +1,4 @@
	 pub struct Config {
	     pub verbose: bool,
	+    pub color: bool,
	 }
	```
	</FILE_PATCH>
	</FILE_CHANGES>
	EOF
	sed -e "s/^    pub verbose: bool,\$/&\n    pub color: bool,/" repo/src/config.rs >expect-config &&
	test $(wc -l <expect-config) = 14 &&
	fresh w-udiff &&
	(
		cd w-udiff &&
		git ai-apply ../udiff.md &&
		staged_as src/config.rs ../expect-config
	)
'

test_expect_success 'FILE_PATCH with several bare @@ hunks' '
	cat >bare.md <<-\EOF &&
	<FILE_PATCH file_path="src/config.rs">
	@@
	 pub struct Config {
	-    pub verbose: bool,
	+    pub verbose: u8,
	 }
	@@
	 pub fn load() -> Config {
	-    let c = Config { verbose: false };
	+    let c = Config { verbose: 0 };
	     c
	@@
	 pub fn reload() -> Config {
	-    let c = Config { verbose: false };
	-    c
	+    load()
	 }
	</FILE_PATCH>
	EOF
	cat >expect-bare <<-\EOF &&
	pub struct Config {
	    pub verbose: u8,
	}

	pub fn load() -> Config {
	    let c = Config { verbose: 0 };
	    c
	}

	pub fn reload() -> Config {
	    load()
	}
	EOF
	fresh w-bare &&
	(
		cd w-bare &&
		git ai-apply ../bare.md &&
		staged_as src/config.rs ../expect-bare
	)
'

test_expect_success 'a bare @@ hunk that matches twice is refused' '
	cat >twice.md <<-\EOF &&
	Make the default verbose:

	<FILE_PATCH file_path="src/config.rs">
	@@
	-    let c = Config { verbose: false };
	+    let c = Config { verbose: true };
	     c
	</FILE_PATCH>
	EOF
	(
		cd repo &&
		test_rejected ../twice.md &&
		test_grep "src/config.rs: .*twice.md:" err &&
		test_grep -i -E "ambiguous|unique|more than once|several|times" err
	)
'

test_expect_success 'directives apply in order: create, then patch, rename, then patch' '
	cat >order.md <<-\EOF &&
	<FILE_CHANGES>
	<FILE_NEW file_path="src/log.rs">
	pub fn log(msg: &str) {
	    println!("{}", msg);
	}
	</FILE_NEW>
	<FILE_PATCH file_path="src/log.rs">
	@@
	 pub fn log(msg: &str) {
	-    println!("{}", msg);
	+    eprintln!("{}", msg);
	 }
	</FILE_PATCH>
	<FILE_RENAME from_path="src/legacy_mod.rs" to_path="src/boot.rs" />
	<FILE_PATCH file_path="src/boot.rs">
	@@
	-    println!("init");
	+    crate::log::log("init");
	</FILE_PATCH>
	</FILE_CHANGES>
	EOF
	printf "pub fn log(msg: &str) {\n    eprintln!(\"{}\", msg);\n}\n" >expect-log &&
	printf "pub fn init() {\n    crate::log::log(\"init\");\n}\n" >expect-boot &&
	fresh w-order &&
	(
		cd w-order &&
		git ai-apply ../order.md &&
		staged_as src/log.rs ../expect-log &&
		staged_as src/boot.rs ../expect-boot &&
		test_path_is_missing src/legacy_mod.rs &&
		clean_result
	)
'

test_expect_success 'FILE_RENAME and FILE_DELETE of whole directories' '
	cat >dirs.md <<-\EOF &&
	Move the utilities and drop the old docs:

	<FILE_CHANGES>
	<FILE_RENAME from_path="src/util" to_path="src/common" />
	<FILE_DELETE file_path="docs/old" />
	</FILE_CHANGES>
	EOF
	fresh w-dirs &&
	(
		cd w-dirs &&
		math=$(git rev-parse :src/util/math.rs) &&
		mod=$(git rev-parse :src/util/mod.rs) &&
		git ai-apply ../dirs.md &&
		test "$(git rev-parse :src/common/math.rs)" = "$math" &&
		test "$(git rev-parse :src/common/mod.rs)" = "$mod" &&
		test_path_is_missing src/util &&
		test_path_is_missing docs/old &&
		git ls-files src/util docs >../left &&
		clean_result
	) &&
	! test -s left
'

test_expect_success 'FILE_RENAME onto an existing path is refused' '
	cat >onto.md <<-\EOF &&
	<FILE_RENAME from_path="src/legacy_mod.rs" to_path="src/main.rs" />
	EOF
	(
		cd repo &&
		test_rejected ../onto.md &&
		test_grep "src/main.rs: .*already exists" err
	)
'

test_expect_success 'FILE_RENAME or FILE_DELETE of a missing path is refused' '
	cat >gone.md <<-\EOF &&
	<FILE_DELETE file_path="src/gone.rs" />
	EOF
	cat >gone2.md <<-\EOF &&
	<FILE_RENAME from_path="src/gone.rs" to_path="src/here.rs" />
	EOF
	(
		cd repo &&
		test_rejected ../gone.md &&
		test_grep "src/gone.rs: .*does not exist" err &&
		test_rejected ../gone2.md &&
		test_grep "src/gone.rs: .*does not exist" err
	)
'

test_expect_success 'a directive without its closing tag is malformed' '
	cat >open.md <<-\EOF &&
	<FILE_CHANGES>
	<FILE_NEW file_path="src/x.rs">
	fn x() {}
	</FILE_CHANGES>
	EOF
	(
		cd repo &&
		test_rejected ../open.md &&
		test_grep "open.md:2:" err
	)
'

test_expect_success 'invalid paths in attributes are refused' '
	for p in ../x.rs /etc/../passwd .git/config "src\\\\x.rs" ""
	do
		printf "<FILE_NEW file_path=\"%s\">\nx\n</FILE_NEW>\n" "$p" >bad.md &&
		(
			cd repo &&
			test_rejected ../bad.md &&
			test_grep "bad.md:1:.*file_path" err
		) || return 1
	done &&
	printf "<FILE_RENAME from_path=\"src/main.rs\" to_path=\"../main.rs\" />\n" >bad.md &&
	(
		cd repo &&
		test_rejected ../bad.md &&
		test_grep -F "../main.rs" err
	) &&
	# absolute: the planner refuses it outside the work tree
	printf "<FILE_NEW file_path=\"/etc/passwd\">\nx\n</FILE_NEW>\n" >bad.md &&
	(
		cd repo &&
		test_rejected ../bad.md &&
		test_grep "bad.md:1: invalid path: absolute path outside the work tree" err
	)
'

test_expect_success 'one failing directive rejects all of them' '
	sed -e "s/to_path=\"src\/core_mod.rs\"/to_path=\"src\/main.rs\"/" seed.md >bad-seed.md &&
	test_grep "to_path=\"src/main.rs\"" bad-seed.md &&
	for mode in "" --cached --branch=ai/bad --check
	do
		(
			cd repo &&
			test_rejected $mode ../bad-seed.md &&
			test_grep "src/main.rs" err
		) || return 1
	done
'

test_done
