#!/bin/sh

test_description='shared rules: paths, modes, renames, symlinks, submodules, existence, binary'

. "$(dirname "$0")/test-lib.sh"

# write_diff FILE: the here-document on stdin, as is.
write_diff () {
	cat >"$1"
}

test_expect_success 'setup' '
	make_repo repo &&
	(
		cd repo &&
		printf "#!/bin/sh\necho hi\n" >run.sh &&
		chmod +x run.sh &&
		ln -s dir link &&
		ln -s a.txt alink &&
		printf "a\000b\n" >nul.bin &&
		printf "plain text\n" >data.dat &&
		echo "*.dat binary" >.gitattributes &&
		git add . &&
		git commit -q -m more
	)
'

test_expect_success 'invalid paths are refused before anything else' '
	for p in ../x .git/hooks/pre-commit .GIT/config "dir/.git/x" "git~1/x" \
		"a//b" "./a" ".git./x" "/etc/passwd"
	do
		write_diff p.diff <<-EOF &&
		--- /dev/null
		+++ b/$p
		@@ -0,0 +1 @@
		+evil
		EOF
		(
			cd repo &&
			test_rejected ../p.diff &&
			test_grep "invalid path" err
		) || return 1
	done
'

test_expect_success 'an edit keeps the executable bit' '
	write_diff x.diff <<-\EOF &&
	--- a/run.sh
	+++ b/run.sh
	@@ -1,2 +1,2 @@
	 #!/bin/sh
	-echo hi
	+echo hello
	EOF
	rm -rf m && cp -R repo m &&
	(
		cd m &&
		git ai-apply ../x.diff &&
		git ls-files -s run.sh >mode &&
		test_grep "^100755" mode &&
		test -x run.sh
	)
'

test_expect_success 'old mode / new mode changes the mode only' '
	write_diff mode.diff <<-\EOF &&
	diff --git a/run.sh b/run.sh
	old mode 100755
	new mode 100644
	EOF
	(
		cd m &&
		git ai-apply --cached ../mode.diff &&
		git ls-files -s run.sh >mode &&
		test_grep "^100644" mode
	)
'

test_expect_success 'a rename keeps the blob and the mode' '
	write_diff r.diff <<-\EOF &&
	diff --git a/run.sh b/bin/run.sh
	similarity index 100%
	rename from run.sh
	rename to bin/run.sh
	EOF
	rm -rf r && cp -R repo r &&
	(
		cd r &&
		old=$(git rev-parse :run.sh) &&
		git ai-apply ../r.diff >out &&
		test_grep "^R run.sh -> bin/run.sh" out &&
		test "$(git rev-parse :bin/run.sh)" = "$old" &&
		git ls-files -s bin/run.sh >mode &&
		test_grep "^100755" mode &&
		test_path_is_missing run.sh &&
		test -x bin/run.sh
	)
'

test_expect_success 'a rename onto an existing path is refused' '
	write_diff r2.diff <<-\EOF &&
	diff --git a/run.sh b/a.txt
	rename from run.sh
	rename to a.txt
	EOF
	(
		cd repo &&
		test_rejected ../r2.diff &&
		test_grep "a.txt: .*already exists" err
	)
'

test_expect_success 'creating an existing file with other content is refused' '
	write_diff c.diff <<-\EOF &&
	--- /dev/null
	+++ b/a.txt
	@@ -0,0 +1 @@
	+other
	EOF
	(
		cd repo &&
		test_rejected ../c.diff &&
		test_grep "a.txt: .*already exists" err
	)
'

test_expect_success 'deleting or editing a missing file is refused' '
	write_diff del.diff <<-\EOF &&
	--- a/missing.txt
	+++ /dev/null
	@@ -1 +0,0 @@
	-gone
	EOF
	write_diff ed.diff <<-\EOF &&
	--- a/missing.txt
	+++ b/missing.txt
	@@ -1 +1 @@
	-gone
	+here
	EOF
	(
		cd repo &&
		test_rejected ../del.diff &&
		test_grep "missing.txt: .*does not exist" err &&
		test_rejected ../ed.diff &&
		test_grep "missing.txt: .*does not exist" err
	)
'

test_expect_success 'a deletion hunk must match the whole file' '
	write_diff part.diff <<-\EOF &&
	--- a/a.txt
	+++ /dev/null
	@@ -1,2 +0,0 @@
	-one
	-two
	EOF
	(
		cd repo &&
		test_rejected ../part.diff &&
		test_grep "a.txt" err
	)
'

test_expect_success 'a file under an existing file is refused' '
	write_diff df.diff <<-\EOF &&
	--- /dev/null
	+++ b/a.txt/inner
	@@ -0,0 +1 @@
	+x
	EOF
	(
		cd repo &&
		test_rejected ../df.diff &&
		test_grep "is a file" err
	)
'

test_expect_success '... unless that file is deleted earlier in the set' '
	write_diff df2.diff <<-\EOF &&
	--- a/a.txt
	+++ /dev/null
	@@ -1,3 +0,0 @@
	-one
	-two
	-three
	--- /dev/null
	+++ b/a.txt/inner
	@@ -0,0 +1 @@
	+x
	EOF
	rm -rf df && cp -R repo df &&
	(
		cd df &&
		git ai-apply ../df2.diff &&
		echo x >expect &&
		test_cmp expect a.txt/inner &&
		git cat-file -e :a.txt/inner
	)
'

test_expect_success 'a file where a directory is is refused' '
	write_diff fd.diff <<-\EOF &&
	--- /dev/null
	+++ b/dir
	@@ -0,0 +1 @@
	+x
	EOF
	(
		cd repo &&
		test_rejected ../fd.diff &&
		test_grep "dir: .*is a directory" err
	)
'

test_expect_success 'text edits of a symbolic link are refused' '
	write_diff l.diff <<-\EOF &&
	--- a/alink
	+++ b/alink
	@@ -1 +1 @@
	-a.txt
	+b.txt
	EOF
	(
		cd repo &&
		test_rejected ../l.diff &&
		test_grep "symbolic link" err
	)
'

test_expect_success 'a path beyond a symbolic link (in the base) is refused' '
	write_diff bl.diff <<-\EOF &&
	--- /dev/null
	+++ b/link/evil
	@@ -0,0 +1 @@
	+x
	EOF
	for mode in "" --cached --branch=ai/l
	do
		(
			cd repo &&
			test_rejected $mode ../bl.diff &&
			test_grep "beyond a symbolic link" err
		) || return 1
	done
'

test_expect_success 'a path beyond a symbolic link in the work tree is refused' '
	write_diff wl.diff <<-\EOF &&
	--- /dev/null
	+++ b/wtlink/evil
	@@ -0,0 +1 @@
	+x
	EOF
	outside=$(mktemp -d) &&
	test_when_finished "rm -rf \"$outside\"" &&
	rm -rf w && cp -R repo w &&
	(
		cd w &&
		ln -s "$outside" wtlink &&
		test_rejected ../wl.diff &&
		test_grep "beyond a symbolic link in the work tree" err
	) &&
	test_path_is_missing "$outside/evil"
'

test_expect_success 'a symbolic link can be deleted and renamed' '
	write_diff ld.diff <<-\EOF &&
	diff --git a/alink b/alink
	deleted file mode 120000
	--- a/alink
	+++ /dev/null
	@@ -1 +0,0 @@
	-a.txt
	\ No newline at end of file
	diff --git a/link b/newlink
	similarity index 100%
	rename from link
	rename to newlink
	EOF
	rm -rf sl && cp -R repo sl &&
	(
		cd sl &&
		git ai-apply ../ld.diff &&
		test_path_is_missing alink &&
		test -h newlink &&
		test "$(readlink newlink)" = dir
	)
'

test_expect_success 'paths inside a submodule are refused' '
	rm -rf sm && cp -R repo sm &&
	(
		cd sm &&
		git update-index --add --cacheinfo 160000,$(git rev-parse HEAD),sub &&
		git commit -q -m sub &&
		write_diff ../sm.diff <<-\EOF &&
		--- /dev/null
		+++ b/sub/file
		@@ -0,0 +1 @@
		+x
		EOF
		test_rejected --cached ../sm.diff &&
		test_grep "inside submodule" err
	)
'

test_expect_success 'binary files (attributes or NUL) refuse text edits' '
	write_diff bin.diff <<-\EOF &&
	--- a/data.dat
	+++ b/data.dat
	@@ -1 +1 @@
	-plain text
	+changed
	EOF
	write_diff nul.diff <<-\EOF &&
	--- a/nul.bin
	+++ b/nul.bin
	@@ -1 +1 @@
	-ab
	+cd
	EOF
	(
		cd repo &&
		test_rejected ../bin.diff &&
		test_grep "data.dat: .*binary" err &&
		test_rejected ../nul.diff &&
		test_grep "nul.bin: .*binary" err
	)
'

test_expect_success 'attributes come from the base: the commit for --branch, the index otherwise' '
	(
		cd repo &&
		test_rejected --branch=ai/bin ../bin.diff &&
		test_grep "data.dat: .*binary" err &&
		test_must_fail git rev-parse --verify -q refs/heads/ai/bin &&
		# staged, not committed: a.txt is binary for the index only
		echo "a.txt binary" >>.gitattributes &&
		git add .gitattributes &&
		write_diff ../a.diff <<-\EOF &&
		--- a/a.txt
		+++ b/a.txt
		@@ -1,3 +1,3 @@
		 one
		-two
		+TWO
		 three
		EOF
		test_rejected --cached ../a.diff &&
		test_grep "a.txt: .*binary" err &&
		git ai-apply -q --branch=ai/text ../a.diff &&
		git show ai/text:a.txt >../a.out &&
		git reset -q --hard HEAD
	) &&
	printf "one\nTWO\nthree\n" >a.expect &&
	test_cmp a.expect a.out
'

test_expect_success 'binary files can be deleted' '
	write_diff bd.diff <<-\EOF &&
	diff --git a/nul.bin b/nul.bin
	deleted file mode 100644
	EOF
	rm -rf bd && cp -R repo bd &&
	(
		cd bd &&
		# --diff shows it as git does, so git apply takes it
		git ai-apply --check --diff ../bd.diff >../bd.out &&
		git apply --check ../bd.out &&
		git ai-apply --cached ../bd.diff &&
		test_must_fail git cat-file -e :nul.bin
	) &&
	test_grep "^GIT binary patch" bd.out &&
	test_grep "^index [0-9a-f]\{40\}\.\.0\{40\}" bd.out
'

test_expect_success 'a GIT binary patch with an abbreviated index line is refused, as git does' '
	write_diff gb.diff <<-\EOF &&
	diff --git a/img.png b/img.png
	new file mode 100644
	index 0000000..e69de29
	GIT binary patch
	literal 0
	HcmV?d00001

	literal 0
	HcmV?d00001

	EOF
	(
		cd repo &&
		test_rejected ../gb.diff &&
		test_grep "img.png: ../gb.diff:4: cannot apply binary patch without full index line" err
	)
'
test_expect_success 'a path written whole twice: the second wins, with a warning naming the first' '
	cat >twice.md <<-\EOF &&
	Option 1:

	--- START-REPLACE-FILE: a.txt ---
	one
	--- END-REPLACE-FILE: a.txt ---

	Option 2:

	--- START-REPLACE-FILE: a.txt ---
	two
	--- END-REPLACE-FILE: a.txt ---
	EOF
	rm -rf twice && cp -R repo twice && rm -f twice/err &&
	(
		cd twice &&
		git ai-apply ../twice.md 2>../twice.err &&
		echo two >expect &&
		test_cmp expect a.txt
	) &&
	test_grep "warning: a.txt: ../twice.md:9: is written whole a second time in this change set (first at ../twice.md:3)" twice.err
'

test_done
