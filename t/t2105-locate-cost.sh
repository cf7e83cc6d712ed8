#!/bin/sh

test_description='the cost of locating: the work-tree file read for a clean index entry (and only then), --check -q without the result built'

. "$(dirname "$0")/test-lib.sh"

# numbered N: "line 1".."line N"
numbered () {
	i=1
	while test $i -le $1
	do
		echo "line $i"
		i=$((i + 1))
	done
}

# The answer: line 15 changed, a git diff of f.txt.
write_answer () {
	cat >"$1" <<-\EOF
	--- a/f.txt
	+++ b/f.txt
	@@ -14,3 +14,3 @@
	 line 14
	-line 15
	+line 15 answer
	 line 16
	EOF
}

# setup_clean NAME: f.txt committed, its mtime 100 s in the past and the
# index refreshed now, so the entry is clean and not racy; then the
# blob's loose object is removed: the base bytes can only come from the
# work-tree file. (Nothing else in these repositories is read from the
# object database after that: the tests only --check.)
setup_clean () {
	rm -rf "$1" &&
	git init -q "$1" &&
	(
		cd "$1" &&
		numbered 30 >f.txt &&
		git add f.txt &&
		git commit -q -m base &&
		touch -d "@$(($(date +%s) - 100))" f.txt &&
		git update-index -q --refresh
	) &&
	write_answer "$1.diff"
}

drop_blob () {
	blob=$(git rev-parse :f.txt) &&
	rm "$(git rev-parse --git-path objects)/$(echo $blob | cut -c1-2)/$(echo $blob | cut -c3-)" &&
	test_must_fail git cat-file -e $blob
}

test_expect_success 'a clean index entry reads the work-tree file, not the blob' '
	setup_clean clean &&
	(
		cd clean &&
		drop_blob &&
		git ai-apply -q --check ../clean.diff &&
		git ai-apply --check ../clean.diff
	)
'

# Each case: the same repository with one thing that makes git re-hash
# the file or convert it; the missing blob must then be asked for.
not_from_worktree () {
	setup_clean "$1" &&
	(
		cd "$1" &&
		eval "$2" &&
		drop_blob &&
		test_must_fail git ai-apply -q --check "../$1.diff" 2>err &&
		test_grep "f.txt" err
	)
}

test_expect_success 'a racily clean entry (file as new as the index) reads the blob' '
	not_from_worktree racy "touch -d @\$((\$(date +%s) + 100)) f.txt && git update-index -q --refresh"
'

test_expect_success 'other stat data than the entry (same size) reads the blob' '
	not_from_worktree changed "sed s/14/XY/ f.txt >g && cat g >f.txt && rm g && touch -d @\$((\$(date +%s) - 100)) f.txt"
'

test_expect_success 'core.autocrlf reads the blob' '
	not_from_worktree autocrlf "git config core.autocrlf true"
'

test_expect_success 'an eol attribute reads the blob' '
	not_from_worktree eol "echo \"f.txt eol=crlf\" >.gitattributes"
'

test_expect_success 'the ident attribute reads the blob' '
	not_from_worktree ident "echo \"f.txt ident\" >.gitattributes"
'

test_expect_success 'a filter driver reads the blob' '
	not_from_worktree filter "echo \"f.txt filter=x\" >.gitattributes && git config filter.x.clean cat && git config filter.x.smudge cat"
'

test_expect_success 'working-tree-encoding reads the blob' '
	not_from_worktree wtenc "echo \"f.txt working-tree-encoding=UTF-16\" >.gitattributes"
'

test_expect_success 'assume-unchanged and skip-worktree entries read the blob' '
	not_from_worktree assume "git update-index --assume-unchanged f.txt" &&
	not_from_worktree skip "git update-index --skip-worktree f.txt"
'

test_expect_success 'the index content, not a changed work tree, is what --cached edits' '
	setup_clean cached &&
	(
		cd cached &&
		sed "s/^line 16\$/line 16 local/" f.txt >g && cat g >f.txt && rm g &&
		git ai-apply -q --cached ../cached.diff &&
		numbered 30 | sed "s/^line 15\$/line 15 answer/" >expect &&
		git show :f.txt >actual &&
		test_cmp expect actual &&
		test_grep "line 16 local" f.txt
	)
'

# --check -q builds no result: its exit status and messages are those
# of --check (less the closing line, which -q leaves out), whatever the
# answer does to the file.
check_q_as_check () {
	cq_code=$1 &&
	shift &&
	test_expect_code $cq_code git ai-apply --check "$@" >/dev/null 2>err.full &&
	test_expect_code $cq_code git ai-apply -q --check "$@" >out.q 2>err.q &&
	{ grep -v "nothing written" err.full >err.check || :; } &&
	test_cmp err.check err.q &&
	test_must_be_empty out.q
}

test_expect_success '--check -q: an edit, a second edit of the same file, a rename after it' '
	setup_clean q &&
	(
		cd q &&
		check_q_as_check 0 ../q.diff &&
		cat ../q.diff >two.diff &&
		cat >>two.diff <<-\EOF &&
		--- a/f.txt
		+++ b/f.txt
		@@ -20,3 +20,3 @@
		 line 20
		-line 21
		+line 21 answer
		 line 22
		EOF
		check_q_as_check 0 two.diff &&
		printf "diff --git a/f.txt b/g.txt\nsimilarity index 100%%\nrename from f.txt\nrename to g.txt\n" >moved.diff &&
		check_q_as_check 0 ../q.diff moved.diff &&
		git diff --exit-code &&
		git diff --cached --exit-code
	)
'

test_expect_success '--check -q: already applied is exit 0, a miss is exit 1 naming the line' '
	setup_clean q2 &&
	(
		cd q2 &&
		git ai-apply -q ../q2.diff &&
		git commit -q -a -m applied &&
		check_q_as_check 0 ../q2.diff &&
		test_grep "already" err.q &&
		sed "s/line 14/line 14 gone/" ../q2.diff >miss.diff &&
		sed "s/^line 14\$/other/" f.txt >g && cat g >f.txt && rm g &&
		git commit -q -a -m other &&
		check_q_as_check 1 miss.diff &&
		test_grep "miss.diff:3" err.q
	)
'

test_done
