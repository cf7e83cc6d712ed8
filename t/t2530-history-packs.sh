#!/bin/sh

test_description='the revision the answer saw, read from packs: the same version chosen with loose objects, offset deltas and ref deltas, CRLF files and shallow clones'

. "$(dirname "$0")/test-lib.sh"

# text N [SED]: "line 1 of the file".."line N of the file", then SED.
text () {
	i=1
	while test $i -le $1
	do
		echo "line $i of the file, long enough for a delta"
		i=$((i + 1))
	done | sed "${2:-}"
}

# setup_versions REPO: f.txt in 6 versions (a commit each, other.txt in
# between): v1; v2..v4 each change a line far from line 100 (so an
# answer written at v1 also applies exactly to each of them); v5
# changes line 97, which the answer's hunk shows; HEAD is v5. The
# answer changes line 100 and has no index line, so the history walk
# decides. ../REPO.diff is that answer, ../REPO.expect the merge.
setup_versions () {
	rm -rf "$1" &&
	git init -q "$1" &&
	(
		cd "$1" &&
		text 300 >f.txt &&
		git add f.txt &&
		git commit -q -m v1 &&
		git tag v1 &&
		sed "s/^line 100 of.*/line 100 answer/" f.txt >../theirs &&
		cp ../theirs f.txt &&
		git diff | sed "/^index /d" >"../$1.diff" &&
		git checkout -q f.txt &&
		for n in 200 250 280
		do
			sed "s/^line $n of.*/line $n changed/" f.txt >f.new &&
			mv f.new f.txt &&
			echo $n >other.txt &&
			git add . &&
			git commit -q -m "change $n" &&
			echo $n >>other.txt &&
			git commit -q -a -m "other $n" || return 1
		done &&
		git tag newest-fit &&
		sed "s/^line 97 of.*/line 97 upstream/" f.txt >f.new &&
		mv f.new f.txt &&
		git commit -q -a -m upstream &&
		sed "s/^line 100 of.*/line 100 answer/" f.txt >"../$1.expect"
	)
}

# apply_in COPY: a copy of repo-base stored as asked, the answer landed
# with --cached; the note naming the version goes to ../COPY.version.
apply_in () {
	rm -rf "$1" &&
	cp -R repo-base "$1" &&
	(
		cd "$1" &&
		case "$2" in
		loose) ;;
		ofs) git repack -q -a -d -f --depth=50 --window=10 ;;
		ref) git -c repack.useDeltaBaseOffset=false repack -q -a -d -f --depth=50 --window=10 ;;
		esac &&
		git ai-apply --cached ../repo-base.diff 2>err &&
		git show :f.txt >actual &&
		test_cmp ../repo-base.expect actual &&
		sed -n "s/.*hunks applied to \(commit [0-9a-f]*\),.*/\1/p" err >"../$1.version" &&
		test -s "../$1.version"
	)
}

test_expect_success 'setup: six versions, the answer fits the oldest four' '
	setup_versions repo-base
'

test_expect_success 'loose objects: the newest version the hunks fit is chosen' '
	apply_in loose loose &&
	echo "commit $(git -C repo-base rev-parse --short=7 newest-fit)" >expect &&
	test_cmp expect loose.version
'

test_expect_success 'packed with offset deltas: the same version, the same result' '
	apply_in ofs ofs &&
	(cd ofs && git verify-pack -v .git/objects/pack/*.idx) >ofs.pack &&
	awk "NF == 7 && \$2 == \"blob\"" ofs.pack >deltas &&
	test -s deltas &&
	test_cmp loose.version ofs.version
'

test_expect_success 'packed with ref deltas: the same version, the same result' '
	apply_in ref ref &&
	test_cmp loose.version ref.version
'

test_expect_success 'an answer only the oldest version takes: found past the delta versions' '
	rm -rf old &&
	cp -R repo-base old &&
	(
		cd old &&
		git repack -q -a -d -f --depth=50 --window=10 &&
		git show v1:f.txt | sed "s/^line 203 of.*/line 203 answer/" >../theirs200 &&
		git show v1:f.txt >../base200 &&
		{
			echo "--- a/f.txt" &&
			echo "+++ b/f.txt" &&
			diff -u ../base200 ../theirs200 | sed 1,2d
		} >../old.diff &&
		git ai-apply --cached ../old.diff 2>err &&
		test_grep "hunks applied to commit $(git rev-parse --short=7 v1)" err &&
		sed "s/^line 203 of.*/line 203 answer/" f.txt >../old.expect &&
		git show :f.txt >actual &&
		test_cmp ../old.expect actual
	)
'

# crlf_text SED: text 300 SED with a CR ending every line.
crlf_text () {
	text 300 "$1" | sed "s/\$/$(printf '\r')/"
}

# A file with CRs on every line: the reader cannot carry the CR's
# places through the deltas (too many), so it makes each version and
# tests its bytes; the version and the result are those of loose objects.
test_expect_success 'CRLF versions, packed: the same version as loose objects' '
	rm -rf crlf &&
	git init -q crlf &&
	(
		cd crlf &&
		edits= &&
		for e in "" "s/^line 200 of.*/line 200 changed/" \
			 "s/^line 250 of.*/line 250 changed/" \
			 "s/^line 97 of.*/line 97 upstream/"
		do
			edits="$edits${e:+;$e}" &&
			crlf_text "${edits#;}" >f.txt &&
			echo "$e" >>other.txt &&
			git add . &&
			git commit -q -m "v: $e" || return 1
		done &&
		crlf_text "" >../crlf.base &&
		crlf_text "s/^line 100 of.*/line 100 answer/" >../crlf.theirs &&
		{
			echo "--- a/f.txt" &&
			echo "+++ b/f.txt" &&
			diff -u ../crlf.base ../crlf.theirs | sed 1,2d
		} >../crlf.diff &&
		crlf_text "${edits#;};s/^line 100 of.*/line 100 answer/" >../crlf.expect &&
		git ai-apply --cached ../crlf.diff 2>../crlf.loose.err &&
		git show :f.txt >../crlf.loose.out &&
		git read-tree HEAD &&
		git repack -q -a -d -f --depth=50 --window=10 &&
		git ai-apply --cached ../crlf.diff 2>../crlf.packed.err &&
		git show :f.txt >../crlf.packed.out &&
		test_grep "hunks applied to commit $(git rev-parse --short=7 HEAD~1)" ../crlf.packed.err
	) &&
	test_cmp crlf.loose.err crlf.packed.err &&
	test_cmp crlf.expect crlf.packed.out &&
	test_cmp crlf.loose.out crlf.packed.out
'

# A shallow clone: the walk reads no commit from the packs itself there
# (libgit2 reads the shallow file); a version within the clone's depth
# is found, none past it (libgit2 then fails on the missing parent: the
# search says it cannot search, as it did before the packs were read).
test_expect_success 'shallow clone: the walk stops at the shallow boundary' '
	rm -rf shallow1 shallow2 &&
	git clone -q --no-local --depth=2 repo-base shallow2 &&
	git clone -q --no-local --depth=1 repo-base shallow1 &&
	(
		cd shallow2 &&
		git ai-apply --cached ../repo-base.diff 2>err &&
		test_grep "hunks applied to commit $(git rev-parse --short=7 HEAD~1)" err &&
		! grep "cannot search" err
	) &&
	(
		cd shallow1 &&
		test_might_fail git ai-apply --cached ../repo-base.diff 2>err &&
		! grep "hunks applied to commit" err
	)
'

test_done
