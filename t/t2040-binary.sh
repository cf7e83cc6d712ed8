#!/bin/sh

test_description='GIT binary patches and "Binary files differ": parsed as git apply, checked by the index line ids, landed through the object model'

. "$(dirname "$0")/test-lib.sh"

# rand N FILE: N random bytes (a binary file that does not compress).
rand () {
	head -c "$1" /dev/urandom >"$2"
}

# patch_of NAME CMD...: in a fresh copy "src" of repo, runs CMD (the
# change), stages it all and writes git diff --cached --binary -M to
# NAME (outside the repositories).
patch_of () {
	name=$1 && shift &&
	rm -rf src && cp -R repo src &&
	(
		cd src &&
		"$@" &&
		git add -A &&
		git diff --cached --binary -M >"../$name"
	) &&
	git -C src write-tree >"$name.tree"
}

# lands_as_git NAME ARGS...: the patch NAME lands with ARGS in a fresh
# copy "us" of repo, to the tree git apply --index gives in "them" and
# that "src" had; the work tree matches the index.
lands_as_git () {
	name=$1 && shift &&
	rm -rf us them && cp -R repo us && cp -R repo them &&
	git -C them update-index -q --refresh &&
	git -C them apply --index "../$name" &&
	(cd us && git ai-apply "$@" "../$name" >../out 2>../err) &&
	test "$(git -C us write-tree)" = "$(git -C them write-tree)" &&
	test "$(git -C us write-tree)" = "$(cat "$name.tree")" &&
	git -C us diff --exit-code >/dev/null
}

# round_trip NAME: --diff of the landing, re-applied in a fresh copy,
# gives the same tree, byte for byte.
round_trip () {
	name=$1 &&
	rm -rf rt && cp -R repo rt &&
	(cd rt && git ai-apply --check --diff "../$name" >"../$name.again") &&
	test_grep "^GIT binary patch\|^diff --git" "$name.again" &&
	(cd rt && git ai-apply "../$name.again") &&
	test "$(git -C rt write-tree)" = "$(cat "$name.tree")"
}

# rejected_at PATCH LINE PATH PATTERN ARGS...: refused in a fresh copy
# "rj", nothing written, the error names PATH, PATCH:LINE and PATTERN.
rejected_at () {
	patch=$1 at=$2 path=$3 pattern=$4 && shift 4 &&
	rm -rf rj && cp -R repo rj &&
	(
		cd rj &&
		test_rejected "$@" "../$patch" &&
		test_grep "error: $path: ../$patch:$at: $pattern" err
	)
}

test_expect_success 'setup' '
	git init -q repo &&
	(
		cd repo &&
		rand 3000 small.bin &&
		rand 200000 big.bin &&
		printf "\000\001\002zero\n" >tiny.bin &&
		: >empty.bin &&
		printf "one\ntwo\nthree\n" >text.txt &&
		git add . &&
		git commit -q -m base &&
		git tag base
	)
'

test_expect_success 'a modification (a delta hunk) lands as git apply lands it' '
	patch_of mod.diff sh -c "head -c 100 /dev/urandom >>small.bin" &&
	test_grep "^delta " mod.diff &&
	lands_as_git mod.diff &&
	round_trip mod.diff
'

test_expect_success 'a new content (a literal hunk) and its reverse hunk' '
	patch_of lit.diff sh -c "head -c 3000 /dev/urandom >small.bin" &&
	test_grep "^literal 3000" lit.diff &&
	test "$(grep -c "^literal " lit.diff)" = 2 &&
	lands_as_git lit.diff &&
	round_trip lit.diff
'

test_expect_success 'a file over 64 KiB: delta copies of 0x10000 bytes' '
	patch_of big.diff sh -c "printf XYZ | dd of=big.bin bs=1 seek=100000 conv=notrunc 2>/dev/null" &&
	test_grep "^delta " big.diff &&
	lands_as_git big.diff &&
	round_trip big.diff
'

test_expect_success 'creation, deletion, empty files' '
	patch_of create.diff sh -c "head -c 5000 /dev/urandom >new.bin && mkdir -p d && printf \"\\000\" >d/one.bin" &&
	test_grep "^new file mode" create.diff &&
	lands_as_git create.diff &&
	round_trip create.diff &&
	patch_of delete.diff git rm -q small.bin tiny.bin &&
	test_grep "^deleted file mode" delete.diff &&
	lands_as_git delete.diff &&
	round_trip delete.diff &&
	patch_of toempty.diff sh -c ": >tiny.bin" &&
	lands_as_git toempty.diff &&
	round_trip toempty.diff &&
	patch_of fromempty.diff sh -c "printf \"\\000\\377\" >empty.bin" &&
	lands_as_git fromempty.diff &&
	round_trip fromempty.diff
'

test_expect_success 'a copy with a modification; a deletion as "Binary files differ"' '
	rm -rf src && cp -R repo src &&
	(
		cd src &&
		cp small.bin copy.bin && printf Z >>copy.bin &&
		git add -A &&
		git diff --cached --binary -C -C >../copy.diff &&
		git write-tree >../copy.diff.tree
	) &&
	test_grep "^copy from small.bin" copy.diff &&
	lands_as_git copy.diff &&
	rm -rf src && cp -R repo src &&
	(
		cd src &&
		git rm -q small.bin &&
		git diff --cached --full-index >../deldiffer.diff &&
		git write-tree >../deldiffer.diff.tree
	) &&
	test_grep "^Binary files a/small.bin and /dev/null differ" deldiffer.diff &&
	lands_as_git deldiffer.diff
'

test_expect_success 'a rename with a modification, a mode change with a binary change' '
	patch_of rename.diff sh -c "git mv big.bin moved.bin && printf ABC >>moved.bin" &&
	test_grep "^rename from big.bin" rename.diff &&
	test_grep "^GIT binary patch" rename.diff &&
	lands_as_git rename.diff &&
	round_trip rename.diff &&
	patch_of mode.diff sh -c "chmod +x small.bin && printf Q >>small.bin" &&
	test_grep "^new mode 100755" mode.diff &&
	lands_as_git mode.diff &&
	round_trip mode.diff
'

test_expect_success 'text and binary files in one diff' '
	patch_of mixed.diff sh -c "printf \"one\\nTWO\\nthree\\n\" >text.txt && printf R >>small.bin && head -c 10 /dev/urandom >n.bin" &&
	lands_as_git mixed.diff &&
	round_trip mixed.diff
'

test_expect_success 'every mode: --cached, --branch, --each, --check writes nothing' '
	rm -rf m && cp -R repo m &&
	(
		cd m &&
		git ai-apply --cached ../mixed.diff &&
		test "$(git write-tree)" = "$(cat ../mixed.diff.tree)" &&
		git diff --quiet base -- small.bin &&
		git reset -q --hard base &&
		git ai-apply --branch=ai/bin ../mixed.diff &&
		test "$(git rev-parse ai/bin^{tree})" = "$(cat ../mixed.diff.tree)" &&
		git diff --quiet base &&
		git ai-apply --each --branch=e ../mod.diff ../mixed.diff &&
		test "$(git rev-parse e-1^{tree})" = "$(cat ../mod.diff.tree)" &&
		test "$(git rev-parse e-2^{tree})" = "$(cat ../mixed.diff.tree)" &&
		repo_snapshot check &&
		git ai-apply --check ../lit.diff >/dev/null &&
		repo_unchanged check
	)
'

test_expect_success 'git format-patch --binary output lands' '
	rm -rf src && cp -R repo src &&
	(
		cd src &&
		head -c 777 /dev/urandom >>small.bin &&
		head -c 100 /dev/urandom >fp.bin &&
		git add -A && git commit -q -m "binary things" &&
		git format-patch -q --binary -1 --stdout >../fp.patch &&
		git write-tree >../fp.patch.tree
	) &&
	lands_as_git fp.patch
'

# git's own output for random and compressible content of many sizes:
# empty, one byte, one data line, many lines, over 64 KiB.
test_expect_success 'git diff --binary of random content of several sizes' '
	for n in 0 1 40 52 53 5000 70000 300000
	do
		patch_of "r$n.diff" sh -c "rand_to() { head -c \$1 /dev/urandom >\$2; }; rand_to $n small.bin; rand_to $n sized-$n.bin; head -c $n /dev/zero >zeros-$n.bin" &&
		lands_as_git "r$n.diff" &&
		round_trip "r$n.diff" || return 1
	done
'

test_expect_success '"Binary files differ" with full ids lands when the blob is in the repository' '
	rm -rf src && cp -R repo src &&
	(
		cd src &&
		head -c 50 /dev/urandom >>small.bin &&
		git add small.bin &&
		git diff --cached --full-index >../differ.diff &&
		git write-tree >../differ.diff.tree
	) &&
	test_grep "^Binary files a/small.bin and b/small.bin differ" differ.diff &&
	rejected_at differ.diff 3 small.bin "the binary content is not in the patch and blob [0-9a-f]\{40\} is not in this repository; ask for a patch made with git diff --binary" &&
	rm -rf us && cp -R repo us &&
	git -C src cat-file blob :small.bin | git -C us hash-object -w --stdin >/dev/null &&
	(cd us && git ai-apply ../differ.diff) &&
	test "$(git -C us write-tree)" = "$(cat differ.diff.tree)" &&
	git -C us diff --exit-code
'

test_expect_success 'the pre-image must be the blob the index line names' '
	(
		cd repo &&
		printf "changed" >>small.bin &&
		git add small.bin &&
		git commit -q -m "small changed" &&
		git tag moved
	) &&
	rejected_at mod.diff 3 small.bin "the binary patch applies to blob [0-9a-f]\{40\}, but the file is blob [0-9a-f]\{40\}" &&
	rejected_at delete.diff 4 small.bin "the binary patch applies to blob" &&
	(cd repo && git reset -q --hard base && git tag -d moved >/dev/null)
'

test_expect_success '--3way: a binary conflict, as git apply --3way writes it' '
	(
		cd repo &&
		printf "changed" >>small.bin &&
		git commit -q -a -m "small changed"
	) &&
	rm -rf us them && cp -R repo us && cp -R repo them &&
	git -C them update-index -q --refresh &&
	test_expect_code 1 git -C them apply --3way ../mod.diff &&
	(
		cd us &&
		test_expect_code 1 git ai-apply --3way ../mod.diff 2>err &&
		test_grep "small.bin: ../mod.diff:3: applied with conflicts: binary files cannot be merged" err
	) &&
	git -C us ls-files -s >us.stages &&
	git -C them ls-files -s >them.stages &&
	test_cmp them.stages us.stages &&
	test "$(grep -c " [123]	small.bin" us.stages)" = 3 &&
	cmp us/small.bin repo/small.bin &&
	# a pre-image the repository lacks: no merge, refused
	rm -rf other && git init -q other &&
	(
		cd other &&
		printf "\000other" >small.bin &&
		git add small.bin &&
		printf X >>small.bin &&
		git diff --binary >../other.diff
	) &&
	rejected_at other.diff 3 small.bin "the binary patch applies to blob [0-9a-f]\{40\}, which this repository lacks" --3way &&
	(cd repo && git reset -q --hard base)
'

test_expect_success 'already applied: skipped' '
	rm -rf us && cp -R repo us &&
	(
		cd us &&
		git ai-apply ../mod.diff &&
		git ai-apply ../mod.diff 2>err &&
		test_grep "already has the binary patch.s result" err &&
		test "$(git write-tree)" = "$(cat ../mod.diff.tree)"
	)
'

test_expect_success 'a result with another id is refused, and the whole diff with it' '
	new=$(sed -n "s/^index [0-9a-f]*\.\.\([0-9a-f]*\).*/\1/p" lit.diff) &&
	sed "s/\.\.$new/..1234567890123456789012345678901234567890/" lit.diff >badid.diff &&
	rejected_at badid.diff 4 small.bin "binary patch creates incorrect result (expecting 1234567890123456789012345678901234567890, got $new)" &&
	patch_of text.diff sh -c "printf \"one\\nTWO\\nthree\\n\" >text.txt && head -c 10 /dev/urandom >n.bin" &&
	cat text.diff badid.diff >mixedbad.diff &&
	line=$(grep -n "^literal 3000" mixedbad.diff | head -n 1 | cut -d: -f1) &&
	rejected_at mixedbad.diff "$line" small.bin "binary patch creates incorrect result"
'

test_expect_success 'corrupt data is refused at its line' '
	line=$(grep -n "^literal 3000" lit.diff | head -n 1 | cut -d: -f1) &&
	awk -v l=$((line + 2)) "NR == l { print \"zzzz\"; next } { print }" lit.diff >corrupt1.diff &&
	rejected_at corrupt1.diff $((line + 2)) small.bin "corrupt binary patch: a data line" &&
	awk -v l=$((line + 2)) "NR == l { sub(/^./, \"A\") } { print }" lit.diff >corrupt2.diff &&
	rejected_at corrupt2.diff $((line + 2)) small.bin "corrupt binary patch: the length character" &&
	sed "s/^literal 3000/literal 2999/" lit.diff >corrupt3.diff &&
	rejected_at corrupt3.diff "$line" small.bin "corrupt binary patch: the data inflates to more bytes than stated (the hunk states 2999 bytes)" &&
	awk -v l=$((line + 2)) "NR == l { sub(/^z./, \"z,\") } { print }" lit.diff >corrupt4.diff &&
	rejected_at corrupt4.diff $((line + 2)) small.bin "corrupt binary patch: not base85" &&
	sed "s/^literal 3000/literal x/" lit.diff >corrupt5.diff &&
	rejected_at corrupt5.diff "$line" small.bin "corrupt binary patch: no size" &&
	sed "/^literal 3000/d" lit.diff >corrupt6.diff &&
	rejected_at corrupt6.diff $((line - 1)) small.bin "unrecognized binary patch"
'

test_expect_success 'an abbreviated index line is refused, as git does' '
	sed "s/^index \([0-9a-f]\{7\}\)[0-9a-f]*\.\.\([0-9a-f]\{7\}\)[0-9a-f]*/index \1..\2/" mod.diff >short.diff &&
	test_grep "^index [0-9a-f]\{7\}\.\.[0-9a-f]\{7\} " short.diff &&
	rejected_at short.diff 3 small.bin "cannot apply binary patch without full index line" &&
	grep -v "^index " mod.diff >noindex.diff &&
	rejected_at noindex.diff 2 small.bin "cannot apply binary patch without full index line"
'

# reverses_as_git NAME: NAME landed forward and committed in "fw"; -R
# there gives the tree git apply -R --index gives, which is repo's.
reverses_as_git () {
	name=$1 &&
	rm -rf fw gw && cp -R repo fw && git -C fw update-index -q --refresh &&
	(cd fw && git apply --index "../$name" && git commit -q -m fw) &&
	cp -R fw gw && git -C gw update-index -q --refresh &&
	git -C gw apply -R --index "../$name" &&
	(cd fw && git ai-apply -R "../$name" >../out 2>../err) &&
	test "$(git -C fw write-tree)" = "$(git -C gw write-tree)" &&
	test "$(git -C fw write-tree)" = "$(git -C repo write-tree)" &&
	git -C fw diff --exit-code >/dev/null
}

test_expect_success '-R: a delta, a literal, a creation and a deletion go back as git apply -R' '
	reverses_as_git mod.diff &&
	reverses_as_git lit.diff &&
	reverses_as_git big.diff &&
	reverses_as_git create.diff &&
	reverses_as_git delete.diff
'

test_expect_success '-R: a binary patch without its reverse hunk is refused, nothing written' '
	line=$(grep -n "^GIT binary patch" lit.diff | cut -d: -f1) &&
	awk "/^literal 3000/ { n++ } n < 2 { print }" lit.diff >oneway.diff &&
	test "$(grep -c "^literal " oneway.diff)" = 1 &&
	rm -rf fw && cp -R repo fw && git -C fw update-index -q --refresh &&
	(cd fw && git apply --index ../lit.diff && git commit -q -m fw &&
	 test_rejected -R ../oneway.diff &&
	 test_grep "error: small.bin: ../oneway.diff:$line: a binary patch without its reverse hunk (diff); -R cannot reverse it" err)
'

test_done
