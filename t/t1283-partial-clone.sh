#!/bin/sh

test_description='partial clone: a blob the clone lacks is fetched through git as its promisor remote gives it; --check names the command instead'

. "$(dirname "$0")/test-lib.sh"

edit_out () {
	printf -- "--- a/out/b.txt\n+++ b/out/b.txt\n@@ -1,2 +1,2 @@\n x\n-y\n+Y\n"
}

# missing ID: the object is not in the clone (no lazy fetch to find out)
missing () {
	GIT_NO_LAZY_FETCH=1 git rev-list --objects --missing=print HEAD | grep -q "^?$1"
}

test_expect_success 'setup: a server and blobless clones of it' '
	git init -q server &&
	(
		cd server &&
		mkdir in out &&
		printf "one\ntwo\n" >in/a.txt &&
		printf "x\ny\n" >out/b.txt &&
		git add . &&
		git commit -q -m initial &&
		git config uploadpack.allowFilter true &&
		git config uploadpack.allowAnySHA1InWant true
	) &&
	blob=$(git -C server rev-parse HEAD:out/b.txt) &&
	echo $blob >blob &&
	edit_out >edit.diff &&
	printf "x\nY\n" >edited &&
	git clone -q --filter=blob:none --sparse "file://$PWD/server" sparse &&
	git -C sparse sparse-checkout set in &&
	git clone -q --filter=blob:none --no-checkout "file://$PWD/server" bare-ish &&
	(cd sparse && missing $blob) &&
	(cd bare-ish && missing $blob)
'

test_expect_success '--check does not fetch: exit 128, the blob and the command named, nothing written' '
	(
		cd sparse &&
		repo_snapshot check &&
		test_expect_code 128 git ai-apply --check ../edit.diff 2>"$(snapshot_dir)/err" &&
		repo_unchanged check &&
		cp "$(snapshot_dir)/err" ../err &&
		missing $(cat ../blob)
	) &&
	test_grep "out/b.txt" err &&
	test_grep "blob $(cat blob) is not in this partial clone" err &&
	test_grep "git -c fetch.negotiationAlgorithm=noop fetch origin .* $(cat blob)" err
'

test_expect_success 'the command the message names fetches it; --check then passes' '
	rm -rf named && cp -R sparse named &&
	(
		cd named &&
		cmd=$(sed -n "s/.*fetch it first: //p" ../err) &&
		eval "$cmd" &&
		! missing $(cat ../blob) &&
		git ai-apply --check ../edit.diff
	)
'

test_expect_success 'the default mode fetches the base blob and lands (outside the cone: index only)' '
	rm -rf land && cp -R sparse land &&
	(
		cd land &&
		git ai-apply ../edit.diff &&
		git show :out/b.txt >../got &&
		git ls-files -t out/b.txt >../tags
	) &&
	test_cmp edited got &&
	echo "S out/b.txt" >want && test_cmp want tags
'

test_expect_success 'a rename into the cone fetches the moved blob for the work tree' '
	rm -rf moved && cp -R sparse moved &&
	printf "diff --git a/out/b.txt b/in/b.txt\nsimilarity index 100%%\nrename from out/b.txt\nrename to in/b.txt\n" >rename.diff &&
	(
		cd moved &&
		git ai-apply ../rename.diff &&
		printf "x\ny\n" >../want && test_cmp ../want in/b.txt &&
		git ls-files -t >../tags
	) &&
	test_grep "^H in/b.txt" tags &&
	! grep out/b.txt tags
'

test_expect_success '--branch fetches it too' '
	(
		cd bare-ish &&
		git ai-apply --branch=fix ../edit.diff &&
		git show fix:out/b.txt >../got
	) &&
	test_cmp edited got
'

test_expect_success 'the promisor remote is gone: exit 128, the reason, nothing written' '
	rm -rf gone && cp -R sparse gone &&
	git -C gone config remote.origin.url "file://$PWD/no-such-server" &&
	(
		cd gone &&
		repo_snapshot gone &&
		test_expect_code 128 git ai-apply ../edit.diff 2>"$(snapshot_dir)/err" &&
		repo_unchanged gone &&
		cp "$(snapshot_dir)/err" ../err
	) &&
	test_grep "fetching it from origin failed" err
'

test_done
