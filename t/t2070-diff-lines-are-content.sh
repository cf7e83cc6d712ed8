#!/bin/sh

test_description='a diff is read as a diff: its hunk lines start no other block, -U0 hunks land where the index line confirms the place, history needs evidence'

. "$(dirname "$0")/test-lib.sh"

# The files hold other formats' markers, as this tool's own tests and
# documents do: a diff of them carries the markers as context.
test_expect_success 'setup: files whose lines are other formats markers' '
	git init -q repo &&
	(
		cd repo &&
		printf "intro\n*** Begin Patch\n*** Update File: x\n-old\n+new\n*** End Patch\nouttro\n" >v4a.md &&
		printf "# Title\n\n\`\`\`sh\nmake\n\`\`\`\n\nEnd\n" >README.md &&
		git add . &&
		git commit -q -m initial &&
		sed "s/intro/Intro/" v4a.md >v && mv v v4a.md &&
		sed "s/^make$/make test/" README.md >r && mv r README.md &&
		git diff >../markers.diff &&
		git diff --cached --quiet &&
		git checkout -q -- . &&
		git apply --cached ../markers.diff &&
		git write-tree >../want.tree &&
		git reset -q
	)
'

test_expect_success 'an unfenced git diff whose context holds "*** Begin Patch" lands as git apply lands it' '
	rm -rf r1 && cp -R repo r1 &&
	(
		cd r1 &&
		git ai-apply --cached ../markers.diff &&
		git write-tree >../got.tree
	) &&
	test_cmp want.tree got.tree
'

test_expect_success 'the same diff in a ```diff fence, and in a fence indented in a list item' '
	{
		echo "Here is the change:" && echo &&
		echo "\`\`\`diff" && cat markers.diff && echo "\`\`\`"
	} >fenced.md &&
	{
		echo "1. Apply this:" && echo &&
		sed "s/^/   /" fenced.md | sed "1,2d"
	} >indented.md &&
	for a in fenced indented
	do
		rm -rf r2 && cp -R repo r2 &&
		(
			cd r2 &&
			git ai-apply --cached ../$a.md &&
			git write-tree >../got.tree
		) &&
		test_cmp want.tree got.tree || return 1
	done
'

test_expect_success 'a real V4A block after the diff is still its own block' '
	cat markers.diff >both.txt &&
	cat >>both.txt <<-\EOF &&
	*** Begin Patch
	*** Add File: added.txt
	+hello
	*** End Patch
	EOF
	rm -rf r3 && cp -R repo r3 &&
	(
		cd r3 &&
		git ai-apply --cached ../both.txt >../out &&
		git show :added.txt >../added
	) &&
	echo hello >expect &&
	test_cmp expect added &&
	test_grep "^A added.txt" out
'

# ---- -U0: the place confirmed by the index line ----

test_expect_success 'setup: a -U0 diff of pure additions' '
	git init -q zero &&
	(
		cd zero &&
		printf "%s\n" a b c d e f g h >f.txt &&
		git add f.txt && git commit -q -m base &&
		printf "%s\n" a b X c d e f Y g h >f.txt &&
		git diff -U0 >../zero.diff &&
		git checkout -q -- f.txt
	) &&
	grep "^index " zero.diff &&
	printf "%s\n" a b X c d e f Y g h >zero.want
'

test_expect_success '-U0 additions land at their lines when the index line names the file, as git apply --unidiff-zero' '
	rm -rf z1 && cp -R zero z1 &&
	(
		cd z1 &&
		git ai-apply ../zero.diff &&
		git show :f.txt >../got.index
	) &&
	test_cmp zero.want got.index &&
	test_cmp zero.want z1/f.txt
'

test_expect_success 'the same hunks without the index line: refused, nothing written' '
	grep -v "^index " zero.diff >noindex.diff &&
	rm -rf z2 && cp -R zero z2 &&
	(
		cd z2 &&
		repo_snapshot z2 &&
		test_expect_code 1 git ai-apply ../noindex.diff 2>../err &&
		repo_unchanged z2
	) &&
	test_grep "nothing in the file confirms the place" err
'

test_expect_success 'an index line naming another blob confirms nothing: refused' '
	rm -rf z3 && cp -R zero z3 &&
	(
		cd z3 &&
		printf "%s\n" a b c d e f g h i >f.txt &&
		git commit -q -a -m "one more line" &&
		repo_snapshot z3 &&
		test_expect_code 1 git ai-apply ../zero.diff 2>../err &&
		repo_unchanged z3
	) &&
	test_grep "nothing in the file confirms the place" err
'

# ---- history: a pure addition is no evidence of a version ----

test_expect_success 'pure additions never pick a version from history: the current content lacks them, so no "already in the current content"' '
	rm -rf z4 && cp -R zero z4 &&
	(
		cd z4 &&
		printf "%s\n" a b X c d e f Y g h >f.txt &&
		git commit -q -a -m "the change, committed" &&
		git checkout -q HEAD~ -- f.txt &&
		repo_snapshot z4 &&
		test_expect_code 1 git ai-apply ../noindex.diff >../out 2>../err &&
		repo_unchanged z4
	) &&
	! grep "already in the current content" err &&
	test_grep "nothing in the file confirms the place" err
'

# ---- a stale git diff: its index line's blob decides before any offset ----

test_expect_success 'setup: the change made once, then the file grew above it' '
	git init -q stale &&
	(
		cd stale &&
		printf "%s\n" l1 l2 ret0 refuse l5 ret0 refuse l8 >f.txt &&
		git add f.txt && git commit -q -m preimage &&
		printf "%s\n" l1 l2 ret0 IF refuse l5 ret0 refuse l8 >f.txt &&
		git diff -U1 >../stale.diff &&
		git checkout -q -- f.txt &&
		{ printf "top %s\n" 1 2 3 4 5 6 7 8 9 10 11 12 && cat f.txt; } >g &&
		mv g f.txt && git commit -q -a -m "grew above" &&
		git rev-parse HEAD:f.txt >../grown.blob
	) &&
	grep "^index " stale.diff
'

test_expect_success 'the diff lands once, merged from its index line blob, as git apply --3way' '
	rm -rf s1 && cp -R stale s1 &&
	(
		cd s1 &&
		git ai-apply ../stale.diff 2>../err &&
		git show :f.txt >../got
	) &&
	{ printf "top %s\n" 1 2 3 4 5 6 7 8 9 10 11 12 &&
	  printf "%s\n" l1 l2 ret0 IF refuse l5 ret0 refuse l8; } >want &&
	test_cmp want got &&
	test_grep "the diff.s index line" err
'

test_expect_success 'the change already there, its old side also further on: already applied, not landed at the offset' '
	rm -rf s2 && cp -R stale s2 &&
	(
		cd s2 &&
		git ai-apply ../stale.diff &&
		git commit -q -m "applied" &&
		repo_snapshot s2 &&
		git ai-apply ../stale.diff 2>../err &&
		repo_unchanged s2
	) &&
	test_grep "already" err &&
	! grep "hunk applied at line" err
'

test_done
