#!/bin/sh

test_description='Codex apply_patch test cases, translated to our rules

Cases from codex-rs/apply-patch/src/lib.rs (tests module), its parser and
seek_sequence tests. Where our rules differ on purpose (one unique place,
no Unicode folding) the expected result is a refusal with nothing written.'

. "$(dirname "$0")/test-lib.sh"

# seed DIR PATH FORMAT: a repository whose one commit holds PATH with
# the bytes printf FORMAT gives.
seed () {
	git init -q "$1" &&
	(
		cd "$1" &&
		mkdir -p "$(dirname "$2")" &&
		printf "$3" >"$2" &&
		git add . &&
		git commit -q -m base
	)
}

# lands DIR PATH FORMAT: git ai-apply ../DIR.patch in DIR stages PATH
# with the bytes printf FORMAT gives.
lands () {
	(
		cd "$1" &&
		git ai-apply "../$1.patch" &&
		printf "$3" >"$SHARNESS_TRASH_DIRECTORY/$1.expect" &&
		staged_as "$2" "$SHARNESS_TRASH_DIRECTORY/$1.expect"
	)
}

# refused DIR: git ai-apply ../DIR.patch in DIR is refused, nothing written.
refused () {
	(
		cd "$1" &&
		test_rejected "../$1.patch"
	)
}

test_expect_success 'add file creates the file with its contents' '
	git init -q add && (cd add && git commit -q --allow-empty -m base) &&
	printf "*** Begin Patch\n*** Add File: add.txt\n+ab\n+cd\n*** End Patch" >add.patch &&
	lands add add.txt "ab\ncd\n"
'

test_expect_success 'delete file removes the file' '
	seed del del.txt "x" &&
	printf "*** Begin Patch\n*** Delete File: del.txt\n*** End Patch" >del.patch &&
	(cd del && git ai-apply ../del.patch && test_path_is_missing del.txt &&
	 test_must_fail git cat-file -e :del.txt)
'

test_expect_success 'update file modifies content' '
	seed upd update.txt "foo\nbar\n" &&
	printf "*** Begin Patch\n*** Update File: update.txt\n@@\n foo\n-bar\n+baz\n*** End Patch" >upd.patch &&
	lands upd update.txt "foo\nbaz\n"
'

test_expect_success 'update file can move the file' '
	seed mv src.txt "line\n" &&
	printf "*** Begin Patch\n*** Update File: src.txt\n*** Move to: dst.txt\n@@\n-line\n+line2\n*** End Patch" >mv.patch &&
	lands mv dst.txt "line2\n" &&
	(cd mv && test_path_is_missing src.txt)
'

test_expect_success 'multiple chunks update one file' '
	seed multi multi.txt "foo\nbar\nbaz\nqux\n" &&
	printf "*** Begin Patch\n*** Update File: multi.txt\n@@\n foo\n-bar\n+BAR\n@@\n baz\n-qux\n+QUX\n*** End Patch" >multi.patch &&
	lands multi multi.txt "foo\nBAR\nbaz\nQUX\n"
'

test_expect_success 'interleaved changes and an append at End of File' '
	seed inter interleaved.txt "a\nb\nc\nd\ne\nf\n" &&
	printf "*** Begin Patch\n*** Update File: interleaved.txt\n@@\n a\n-b\n+B\n@@\n c\n d\n-e\n+E\n@@\n f\n+g\n*** End of File\n*** End Patch" >inter.patch &&
	lands inter interleaved.txt "a\nB\nc\nd\nE\nf\ng\n"
'

test_expect_success 'interleaved changes, second chunk with one context line' '
	seed inter2 interleaved.txt "a\nb\nc\nd\ne\nf\n" &&
	printf "*** Begin Patch\n*** Update File: interleaved.txt\n@@\n a\n-b\n+B\n@@\n d\n-e\n+E\n@@\n f\n+g\n*** End of File\n*** End Patch" >inter2.patch &&
	lands inter2 interleaved.txt "a\nB\nc\nd\nE\nf\ng\n"
'

test_expect_success 'CRLF line endings are kept on update' '
	seed crlf crlf.txt "a\r\nb\r\nc\r\n" &&
	printf "*** Begin Patch\n*** Update File: crlf.txt\n@@\n a\n-b\n+B\n@@\n c\n+d\n*** End of File\n*** End Patch" >crlf.patch &&
	lands crlf crlf.txt "a\r\nB\r\nc\r\nd\r\n"
'

test_expect_success 'a CR inside a CRLF line is content, kept on append' '
	seed cr crlf_cr_content.txt "foo\r\r\nbar\r\n" &&
	printf "*** Begin Patch\n*** Update File: crlf_cr_content.txt\n@@\n+BAZ\n*** End of File\n*** End Patch" >cr.patch &&
	lands cr crlf_cr_content.txt "foo\r\r\nbar\r\nBAZ\r\n"
'

# Codex lands the first chunk (a pure addition) at the end of the file,
# the second chunk at its place; chunks are sorted by position.
test_expect_success 'a pure addition chunk followed by a removal' '
	seed pure panic.txt "line1\nline2\nline3\n" &&
	printf "*** Begin Patch\n*** Update File: panic.txt\n@@\n+after-context\n+second-line\n@@\n line1\n-line2\n-line3\n+line2-replacement\n*** End Patch" >pure.patch &&
	lands pure panic.txt "line1\nline2-replacement\nafter-context\nsecond-line\n"
'

# Codex folds the EN DASH and NON-BREAKING HYPHEN to "-"; we do not fold
# (differences-from-peers.md "Unicode folding"): refused, nothing written.
test_expect_success 'ASCII dashes do not match Unicode dashes: refused' '
	seed uni unicode.py "import asyncio  # local import \342\200\223 avoids top\342\200\221level dep\n" &&
	printf "*** Begin Patch\n*** Update File: unicode.py\n@@\n-import asyncio  # local import - avoids top-level dep\n+import asyncio  # HELLO\n*** End Patch" >uni.patch &&
	refused uni &&
	test_grep "unicode.py" uni/err
'

test_expect_success 'first line replacement' '
	seed first first.txt "foo\nbar\nbaz\n" &&
	printf "*** Begin Patch\n*** Update File: first.txt\n@@\n-foo\n+FOO\n bar\n\n*** End Patch" >first.patch &&
	lands first first.txt "FOO\nbar\nbaz\n"
'

test_expect_success 'last line replacement' '
	seed last last.txt "foo\nbar\nbaz\n" &&
	printf "*** Begin Patch\n*** Update File: last.txt\n@@\n foo\n bar\n-baz\n+BAZ\n\n*** End Patch" >last.patch &&
	lands last last.txt "foo\nbar\nBAZ\n"
'

test_expect_success 'LF file with a trailing newline' '
	seed lf lf.txt "foo\nbar\n" &&
	printf "*** Begin Patch\n*** Update File: lf.txt\n@@\n foo\n-bar\n+BAR\n\n*** End Patch" >lf.patch &&
	lands lf lf.txt "foo\nBAR\n"
'

test_expect_success 'insert at End of File' '
	seed eof insert.txt "foo\nbar\nbaz\n" &&
	printf "*** Begin Patch\n*** Update File: insert.txt\n@@\n+quux\n*** End of File\n*** End Patch\n" >eof.patch &&
	lands eof insert.txt "foo\nbar\nbaz\nquux\n"
'

test_expect_success 'update without a trailing newline in the patch text' '
	seed src source.txt "session directory content\n" &&
	printf "*** Begin Patch\n*** Update File: source.txt\n@@\n-session directory content\n+updated session directory content\n*** End Patch" >src.patch &&
	lands src source.txt "updated session directory content\n"
'

test_expect_success 'the first chunk of an update may omit the @@ line' '
	seed noat file.txt "import foo\nbar\n" &&
	printf "*** Begin Patch\n*** Update File: file.txt\n import foo\n+bar2\n*** End Patch" >noat.patch &&
	lands noat file.txt "import foo\nbar2\nbar\n"
'

test_expect_success '@@ with a context line selects the region' '
	seed ctx f.py "def a():\n    return 1\n\ndef b():\n    return 1\n" &&
	printf "*** Begin Patch\n*** Update File: f.py\n@@ def b():\n-    return 1\n+    return 2\n*** End Patch" >ctx.patch &&
	lands ctx f.py "def a():\n    return 1\n\ndef b():\n    return 2\n"
'

# Codex takes the first match; the same lines twice with no anchor have
# two places here: refused (differences-from-peers.md "Placement").
test_expect_success 'the same lines twice without an anchor: refused' '
	seed twice t.txt "x\ny\nx\ny\n" &&
	printf "*** Begin Patch\n*** Update File: t.txt\n@@\n x\n-y\n+Y\n*** End Patch" >twice.patch &&
	refused twice
'

test_expect_success 'seek_sequence: trailing white space in the file is tolerated' '
	seed rs ws.txt "foo   \nbar\t\n" &&
	printf "*** Begin Patch\n*** Update File: ws.txt\n@@\n foo\n-bar\n+BAR\n*** End Patch" >rs.patch &&
	lands rs ws.txt "foo   \nBAR\n"
'

test_expect_success 'seek_sequence: leading and trailing white space tolerated' '
	seed trim ws.txt "    foo   \n   bar\t\n" &&
	printf "*** Begin Patch\n*** Update File: ws.txt\n@@\n foo\n-bar\n+BAR\n*** End Patch" >trim.patch &&
	(cd trim && git ai-apply ../trim.patch && git show :ws.txt >../trim.out) &&
	head -n 1 trim.out >trim.first &&
	printf "    foo   \n" >trim.first.expect &&
	test_cmp trim.first.expect trim.first &&
	grep "BAR" trim.out
'

test_expect_success 'seek_sequence: a pattern longer than the file is refused' '
	seed long l.txt "just one line\n" &&
	printf "*** Begin Patch\n*** Update File: l.txt\n@@\n-just one line\n-and another\n+x\n*** End Patch" >long.patch &&
	refused long
'

test_expect_success 'parser: a patch without Begin Patch is refused' '
	seed nobeg f.txt "a\n" &&
	printf "bad\n*** Update File: f.txt\n@@\n-a\n+b\n*** End Patch" >nobeg.patch &&
	refused nobeg
'

test_expect_success 'parser: an update with no chunks is refused' '
	seed empty test.py "a\n" &&
	printf "*** Begin Patch\n*** Update File: test.py\n*** End Patch" >empty.patch &&
	refused empty
'

test_expect_success 'parser: an unknown operation line is refused' '
	seed bogus f.txt "a\n" &&
	printf "*** Begin Patch\n*** Frobnicate File: f.txt\n*** End Patch" >bogus.patch &&
	refused bogus
'

test_expect_success 'parser: add, delete and update in one patch' '
	seed all path/update.py "import foo\n" &&
	(cd all && printf "x\n" >path/to/del.py 2>/dev/null || (mkdir -p path/to && printf "x\n" >path/to/del.py)) &&
	(cd all && git add . && git commit -q -m more) &&
	printf "*** Begin Patch\n*** Add File: path/add.py\n+abc\n+def\n*** Delete File: path/to/del.py\n*** Update File: path/update.py\n*** Move to: path/update2.py\n@@ import foo\n+bar\n*** End Patch" >all.patch &&
	lands all path/add.py "abc\ndef\n" &&
	(cd all && test_path_is_missing path/to/del.py && test_path_is_missing path/update.py &&
	 printf "import foo\nbar\n" >../all.up && staged_as path/update2.py ../all.up)
'

test_expect_success 'parser: a patch that changes nothing on a missing file is refused' '
	seed miss f.txt "a\n" &&
	printf "*** Begin Patch\n*** Update File: nope.txt\n@@\n-a\n+b\n*** End Patch" >miss.patch &&
	refused miss
'

# Codex's parser test has no files; here each @@ anchor is a whole line
# of the file, as Codex's seek_sequence needs (a part of a line is not
# an anchor, there or here).
test_expect_success 'parser: the streaming test patch, seven operations' '
	git init -q big &&
	(
		cd big &&
		mkdir -p src crates/cli/src docs &&
		printf "impl Config\n{\n    pub apply_patch_progress: bool,\n    pub include_diagnostics: bool,\n}\n\nfn default_progress_interval()\n{\n    Duration::from_millis(500)\n}\n" >src/config.rs &&
		printf "old\n" >src/legacy_patch_progress.rs &&
		printf "fn run()\n{\n    let args = Args::parse();\n    dispatch(args)\n}\n" >crates/cli/src/main.rs &&
		printf "# Project\n\nDevelopment workflow\n\nBuild the Rust workspace before opening a pull request.\n" >README.md &&
		printf "gone\n" >docs/old-apply-patch-progress.md &&
		git add . && git commit -q -m base
	) &&
	cat >big.patch <<-\EOF &&
	*** Begin Patch
	*** Add File: docs/release-notes.md
	+# Release notes
	+
	+## CLI
	+- Surface apply_patch progress while arguments stream.
	*** Update File: src/config.rs
	@@ impl Config
	-    pub apply_patch_progress: bool,
	+    pub stream_apply_patch_progress: bool,
	     pub include_diagnostics: bool,
	@@ fn default_progress_interval()
	-    Duration::from_millis(500)
	+    Duration::from_millis(250)
	*** Delete File: src/legacy_patch_progress.rs
	*** Update File: crates/cli/src/main.rs
	*** Move to: crates/cli/src/bin/codex.rs
	@@ fn run()
	-    let args = Args::parse();
	-    dispatch(args)
	+    let cli = Cli::parse();
	+    dispatch(cli)
	*** Add File: tests/fixtures/apply_patch_progress.json
	+{
	+  "type": "apply_patch_progress"
	+}
	*** Update File: README.md
	@@ Development workflow
	 Build the Rust workspace before opening a pull request.
	+When touching streamed tool calls, include parser coverage for partial input.
	*** Delete File: docs/old-apply-patch-progress.md
	*** End Patch
	EOF
	(
		cd big &&
		git ai-apply ../big.patch &&
		printf "impl Config\n{\n    pub stream_apply_patch_progress: bool,\n    pub include_diagnostics: bool,\n}\n\nfn default_progress_interval()\n{\n    Duration::from_millis(250)\n}\n" >../big.config &&
		staged_as src/config.rs ../big.config &&
		printf "fn run()\n{\n    let cli = Cli::parse();\n    dispatch(cli)\n}\n" >../big.main &&
		staged_as crates/cli/src/bin/codex.rs ../big.main &&
		test_path_is_missing crates/cli/src/main.rs &&
		test_path_is_missing src/legacy_patch_progress.rs &&
		test_path_is_missing docs/old-apply-patch-progress.md &&
		test_path_is_file tests/fixtures/apply_patch_progress.json &&
		printf "# Release notes\n\n## CLI\n- Surface apply_patch progress while arguments stream.\n" >../big.notes &&
		staged_as docs/release-notes.md ../big.notes &&
		tail -n 1 README.md >../big.readme &&
		test_grep "When touching streamed tool calls" ../big.readme
	)
'

test_expect_success 'parser: an update chunk followed by an Add File' '
	seed upadd file.py "x\n" &&
	printf "*** Begin Patch\n*** Update File: file.py\n@@\n+line\n*** Add File: other.py\n+content\n*** End Patch" >upadd.patch &&
	lands upadd other.py "content\n" &&
	(cd upadd && printf "x\nline\n" >../upadd.file && staged_as file.py ../upadd.file)
'

# Scenarios from codex-rs/apply-patch/tests/fixtures/scenarios.

test_expect_success 'scenario 021: an update that only deletes a line' '
	seed s021 lines.txt "line1\nline2\nline3\n" &&
	printf "*** Begin Patch\n*** Update File: lines.txt\n@@\n line1\n-line2\n line3\n*** End Patch\n" >s021.patch &&
	lands s021 lines.txt "line1\nline3\n"
'

test_expect_success 'scenario 007: deleting a missing file is refused' '
	seed s007 foo.txt "stable\n" &&
	printf "*** Begin Patch\n*** Delete File: missing.txt\n*** End Patch\n" >s007.patch &&
	refused s007
'

# Codex overwrites the destination of a move and the target of an Add
# File; here a path that holds other content is not overwritten (it may
# be work the answer never saw): refused, nothing written.
test_expect_success 'scenario 010: a move onto an existing file is refused' '
	seed s010 old/name.txt "from\n" &&
	(cd s010 && mkdir -p renamed/dir && printf "existing\n" >renamed/dir/name.txt &&
	 git add . && git commit -q -m dest) &&
	printf "*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: renamed/dir/name.txt\n@@\n-from\n+new\n*** End Patch\n" >s010.patch &&
	refused s010 &&
	test_grep "already exists" s010/err
'

test_expect_success 'scenario 011: adding a file that exists with other content is refused' '
	seed s011 duplicate.txt "old content\n" &&
	printf "*** Begin Patch\n*** Add File: duplicate.txt\n+new content\n*** End Patch\n" >s011.patch &&
	refused s011 &&
	test_grep "already exists" s011/err
'

test_expect_success 'scenario 012: deleting a directory is refused' '
	seed s012 dir/foo.txt "x\n" &&
	printf "*** Begin Patch\n*** Delete File: dir\n*** End Patch\n" >s012.patch &&
	refused s012
'

# Codex leaves created.txt behind when the next operation fails; here
# the answer lands all or nothing.
test_expect_success 'scenario 015: a failure after a success leaves nothing' '
	seed s015 keep.txt "k\n" &&
	printf "*** Begin Patch\n*** Add File: created.txt\n+hello\n*** Update File: missing.txt\n@@\n-old\n+new\n*** End Patch\n" >s015.patch &&
	refused s015 &&
	test_path_is_missing s015/created.txt
'

# Codex writes every updated file with a final newline; here a file
# without one keeps that state (Documentation/format-v4a.md: no final newline is added).
test_expect_success 'scenario 014: an update keeps the missing final newline' '
	seed s014 no_newline.txt "no newline at end" &&
	printf "*** Begin Patch\n*** Update File: no_newline.txt\n@@\n-no newline at end\n+first line\n+second line\n*** End Patch\n" >s014.patch &&
	lands s014 no_newline.txt "first line\nsecond line"
'

test_done
