#!/bin/sh

test_description='a numbered hunk exact at its header line and at that line moved by the earlier hunks'"'"' offset: two places, refused unless history decides'

. "$(dirname "$0")/test-lib.sh"

# seen: what the assistant saw; lines 11-30 repeat every 5 lines, so a
# hunk there matches at its line and 5 lines away. base: upstream put 5
# lines at the top since.
test_expect_success 'setup' '
	git init -q repo &&
	(
		cd repo &&
		printf "%s\n" alpha beta gamma delta epsilon zeta eta theta iota kappa >f.txt &&
		for i in 1 2 3 4
		do
			printf "%s\n" r s t u v >>f.txt || return 1
		done &&
		echo omega >>f.txt &&
		git add f.txt &&
		git commit -q -m seen &&
		git tag seen &&
		{ printf "%s\n" new1 new2 new3 new4 new5 && git show seen:f.txt; } >f.txt &&
		git commit -q -a -m upstream &&
		git tag base
	) &&
	cat >two.diff <<-\EOF
	--- a/f.txt
	+++ b/f.txt
	@@ -1,6 +1,6 @@
	 alpha
	 beta
	-gamma
	+GAMMA
	 delta
	 epsilon
	 zeta
	@@ -18,7 +18,7 @@
	 t
	 u
	 v
	-r
	+R
	 s
	 t
	 u
	EOF
'

test_expect_success 'the revision the answer saw decides: the place 5 lines down, merged' '
	fresh hist &&
	(
		cd hist &&
		git ai-apply ../two.diff 2>../hist.err &&
		test_grep "merged into the current content" ../hist.err &&
		git show seen:f.txt | sed -e "3s/gamma/GAMMA/" -e "21s/r/R/" >../seen-answer &&
		{ printf "%s\n" new1 new2 new3 new4 new5 && cat ../seen-answer; } >expect &&
		staged_as f.txt expect
	)
'

test_expect_success 'without history: refused, naming both lines, nothing written' '
	fresh nohist &&
	(
		cd nohist &&
		AIAPPLY_HISTORY_MAX_VERSIONS=0 &&
		export AIAPPLY_HISTORY_MAX_VERSIONS &&
		test_rejected ../two.diff &&
		test_grep "error: f.txt: ../two.diff:11: hunk is ambiguous: it matches exactly at line 18, where its header says, and at line 23, where the offset of the hunks before it (+5 lines) puts it" err
	)
'

test_expect_success 'without history, --json: refused, the two lines in the message' '
	(
		cd nohist &&
		AIAPPLY_HISTORY_MAX_VERSIONS=0 &&
		export AIAPPLY_HISTORY_MAX_VERSIONS &&
		repo_snapshot json &&
		test_expect_code 1 git ai-apply --json ../two.diff >../two.json 2>/dev/null &&
		repo_unchanged json &&
		test_grep "line 18, where its header says, and at line 23" ../two.json
	)
'

test_expect_success 'a hunk exact only at its line moved by the offset lands there, with the offset warning' '
	fresh moved &&
	cat >moved.diff <<-\EOF &&
	--- a/f.txt
	+++ b/f.txt
	@@ -1,6 +1,6 @@
	 alpha
	 beta
	-gamma
	+GAMMA
	 delta
	 epsilon
	 zeta
	@@ -8,3 +8,3 @@
	 theta
	-iota
	+IOTA
	 kappa
	EOF
	(
		cd moved &&
		AIAPPLY_HISTORY_MAX_VERSIONS=0 git ai-apply ../moved.diff 2>../moved.err &&
		test_grep "moved.diff:11: hunk applied at line 13, +5 lines from its header.s line 8 (rung 2" ../moved.err &&
		test "$(sed -n 14p f.txt)" = IOTA
	)
'

test_expect_success 'a hunk exact only at its header line (the offset place differs) lands there' '
	fresh header &&
	cat >header.diff <<-\EOF &&
	--- a/f.txt
	+++ b/f.txt
	@@ -1,6 +1,6 @@
	 alpha
	 beta
	-gamma
	+GAMMA
	 delta
	 epsilon
	 zeta
	@@ -35,2 +35,2 @@
	 v
	-omega
	+OMEGA
	EOF
	(
		cd header &&
		AIAPPLY_HISTORY_MAX_VERSIONS=0 git ai-apply ../header.diff 2>../header.err &&
		test $(grep -c "rung 2" ../header.err) = 1 &&
		test "$(tail -n 1 f.txt)" = OMEGA &&
		test "$(sed -n 8p f.txt)" = GAMMA
	)
'

test_done
