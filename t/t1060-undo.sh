#!/bin/sh

test_description='--undo: the last staged landing put back, path by path refusing what changed since, all or nothing, under the landing lock and journal'

. "$(dirname "$0")/test-lib.sh"

# state: the index (every stage) and the work tree (types, modes,
# contents), one fact a line, for comparing before and after.
state () {
	git ls-files -s &&
	work_tree_listing >"$TRASH/wt.list" &&
	with_hashes "$TRASH/wt.list" | LC_ALL=C sort
}

# The repository: a.txt to edit, gone.txt to delete, old.txt to move,
# run.sh to make executable; ../change.diff does all of it and creates
# new/deep/n.txt (two directories the landing makes).
test_expect_success 'setup: an answer that edits, creates, deletes, renames and changes a mode' '
	git init -q repo &&
	(
		cd repo &&
		printf "one\ntwo\nthree\n" >a.txt &&
		echo gone >gone.txt &&
		printf "old\nfile\n" >old.txt &&
		printf "#!/bin/sh\necho hi\n" >run.sh &&
		git add . &&
		git commit -q -m initial &&
		git tag base &&
		printf "one\nTWO\nthree\n" >a.txt &&
		git rm -q gone.txt &&
		mkdir moved && git mv old.txt moved/old.txt &&
		chmod +x run.sh &&
		mkdir -p new/deep && echo new >new/deep/n.txt &&
		git add -A &&
		git diff --cached -M >../change.diff &&
		git reset -q --hard base &&
		git clean -q -f -d
	) &&
	grep "^rename from old.txt" change.diff &&
	grep "^new mode 100755" change.diff &&
	grep "^deleted file mode" change.diff
'

TRASH=$SHARNESS_TRASH_DIRECTORY

test_expect_success 'default mode: every kind of path put back, the record consumed' '
	fresh def &&
	(
		cd def &&
		state >../before &&
		git ai-apply ../change.diff 2>/dev/null &&
		test_path_is_file new/deep/n.txt &&
		git ai-apply --undo >../out &&
		state >../after &&
		test_cmp ../before ../after &&
		test_path_is_missing new &&
		test_path_is_missing moved &&
		test_path_is_missing .git/ai-apply/review &&
		git ai-apply --review >../review &&
		test_grep "^no staged AI change to review\$" ../review
	) &&
	test_grep "^M a.txt\$" out &&
	test_grep "^D new/deep/n.txt (created by the landing: removed)\$" out &&
	test_grep "^A gone.txt (deleted by the landing: restored)\$" out &&
	test_grep "^A old.txt (deleted by the landing: restored)\$" out &&
	test_grep "^D moved/old.txt (created by the landing: removed)\$" out &&
	test_grep "^M run.sh (content and mode put back)\$" out &&
	test_grep "^Undone: 6 paths put back as before the landing of answer ../change.diff (the index and the work tree).\$" out
'

test_expect_success 'a restored file has its mode; an executable stays one' '
	fresh mode &&
	(
		cd mode &&
		chmod +x a.txt &&
		git add a.txt &&
		git ai-apply ../change.diff 2>/dev/null &&
		git ai-apply --undo >/dev/null &&
		test -x a.txt &&
		test "$(git ls-files -s a.txt | cut -c1-6)" = 100755 &&
		test ! -x run.sh &&
		test "$(git ls-files -s run.sh | cut -c1-6)" = 100644
	)
'

test_expect_success 'the index before the landing comes back, staged changes included' '
	fresh staged &&
	(
		cd staged &&
		printf "one\ntwo\nthree\nfour\n" >a.txt &&
		git add a.txt &&
		printf "%s\n" "--- a/a.txt" "+++ b/a.txt" "@@ -1,3 +1,3 @@" \
			" one" "-two" "+2" " three" >../two.diff &&
		state >../before &&
		git ai-apply ../two.diff 2>/dev/null &&
		git ai-apply --undo >/dev/null &&
		state >../after &&
		test_cmp ../before ../after
	)
'

test_expect_success '--cached: the index put back, the work tree untouched' '
	fresh cached &&
	(
		cd cached &&
		echo "mine, not staged" >>a.txt &&
		state >../before &&
		git ai-apply --cached ../change.diff 2>/dev/null &&
		test "$(git cat-file -p :a.txt | sed -n 2p)" = TWO &&
		git ai-apply --undo >../out &&
		state >../after &&
		test_cmp ../before ../after
	) &&
	test_grep "(the index).\$" out
'

test_expect_success '--undo --check says what would be put back and writes nothing' '
	fresh check &&
	(
		cd check &&
		git ai-apply ../change.diff 2>/dev/null &&
		repo_snapshot undo-check &&
		cp .git/ai-apply/review ../record &&
		git ai-apply --undo --check >../out &&
		repo_unchanged undo-check &&
		test_cmp ../record .git/ai-apply/review
	) &&
	test_grep "^M a.txt\$" out &&
	test_grep "^Would put back 6 paths as before the landing of answer ../change.diff (the index and the work tree); nothing written (--check).\$" out
'

test_expect_success 'a second --undo: nothing to undo, exit 1' '
	(
		cd def &&
		repo_snapshot twice &&
		test_expect_code 1 git ai-apply --undo >../out 2>../err &&
		repo_unchanged twice
	) &&
	test_must_be_empty out &&
	test_grep "^error: nothing to undo in the index: no staged landing is recorded" err
'

test_expect_success '-q: nothing on standard output' '
	fresh quiet &&
	(
		cd quiet &&
		git ai-apply ../change.diff 2>/dev/null &&
		git ai-apply --undo -q >../out
	) &&
	test_must_be_empty out
'

test_expect_success 'other paths, staged or not, stay as they are' '
	fresh others &&
	(
		cd others &&
		echo extra >extra.txt &&
		git add extra.txt &&
		echo unstaged >>extra.txt &&
		git ai-apply ../change.diff 2>/dev/null &&
		git ai-apply --undo >/dev/null &&
		git diff --cached --name-status base >../others.staged &&
		printf "A\textra.txt\n" >../expect &&
		test_cmp ../expect ../others.staged &&
		printf "extra\nunstaged\n" >../expect &&
		test_cmp ../expect extra.txt
	)
'

test_expect_success 'a bare repository: --cached undone in the index' '
	git clone -q --bare repo bare.git &&
	(
		cd bare.git &&
		git read-tree HEAD &&
		git ls-files -s >../bare.before &&
		git ai-apply --cached ../change.diff 2>/dev/null &&
		git ai-apply --undo >../out &&
		git ls-files -s >../bare.after
	) &&
	test_cmp bare.before bare.after &&
	test_grep "(the index).\$" out
'

# ---- refusals: nothing written, the path and what changed named ----

test_expect_success 'a path changed in the index since: refused, nothing written' '
	fresh ix &&
	(
		cd ix &&
		git ai-apply ../change.diff 2>/dev/null &&
		echo again >>a.txt &&
		git add a.txt &&
		test_rejected --undo &&
		test_grep "^error: a.txt: changed in the index since the landing: the landing staged 100644 [0-9a-f]\{7\}, the index holds 100644 [0-9a-f]\{7\}; not undone\$" err &&
		! grep "new/deep/n.txt" err &&
		test_path_is_file .git/ai-apply/review
	)
'

test_expect_success 'a path changed in the work tree since: refused, nothing written' '
	fresh wt &&
	(
		cd wt &&
		git ai-apply ../change.diff 2>/dev/null &&
		echo mine >>new/deep/n.txt &&
		test_rejected --undo &&
		test_grep "^error: new/deep/n.txt: changed in the work tree since the landing: its content differs from what the landing wrote; not undone" err
	)
'

test_expect_success 'a file made where the landing deleted one, a file removed, a mode changed: each named' '
	fresh wt2 &&
	(
		cd wt2 &&
		git ai-apply ../change.diff 2>/dev/null &&
		echo back >gone.txt &&
		rm a.txt &&
		chmod -x run.sh &&
		test_rejected --undo &&
		test_grep "^error: gone.txt: changed in the work tree since the landing: a file stands where the landing deleted one;" err &&
		test_grep "^error: a.txt: changed in the work tree since the landing: the file was removed;" err &&
		test_grep "^error: run.sh: changed in the work tree since the landing: its mode changed;" err
	)
'

test_expect_success 'a path removed from the index since: refused' '
	fresh rm &&
	(
		cd rm &&
		git ai-apply ../change.diff 2>/dev/null &&
		git rm -q --cached new/deep/n.txt &&
		test_rejected --undo &&
		test_grep "^error: new/deep/n.txt: changed in the index since the landing: the landing staged 100644 [0-9a-f]\{7\}, the index holds nothing; not undone\$" err
	)
'

test_expect_success 'a path already back as before is skipped, the others put back' '
	fresh partly &&
	(
		cd partly &&
		git ai-apply ../change.diff 2>/dev/null &&
		git checkout -q base -- a.txt &&
		git ai-apply --undo >../out 2>../err &&
		git diff --exit-code base &&
		git diff --cached --exit-code base
	) &&
	test_grep "^note: a.txt: already as it was before the landing\$" err &&
	test_grep "^Undone: 5 paths" out
'

test_expect_success 'committed since the landing: refused, git revert named' '
	fresh committed &&
	(
		cd committed &&
		git ai-apply ../change.diff 2>/dev/null &&
		git commit -q -m "the AI change" &&
		test_rejected --undo &&
		test_grep "^error: a.txt: committed since the landing (HEAD holds what it staged); not undone: .git revert. or .git reset. the commit instead\$" err
	)
'

test_expect_success 'a conflict --3way left: refused with the way out' '
	git init -q tw &&
	(
		cd tw &&
		printf "a\nb\nc\n" >f.txt &&
		git add f.txt &&
		git commit -q -m v1 &&
		sed "s/^b\$/B answer/" f.txt >f.new && mv f.new f.txt &&
		git diff >../conflict.diff &&
		git checkout -q f.txt &&
		sed "s/^b\$/b upstream/" f.txt >f.new && mv f.new f.txt &&
		git commit -q -a -m upstream &&
		state >../tw.before &&
		test_expect_code 1 git ai-apply --3way ../conflict.diff 2>/dev/null &&
		test_rejected --undo &&
		test_grep "^error: f.txt: the --3way landing left a conflict here: resolve it first" err &&
		rm err &&
		git checkout --ours -- f.txt &&
		git add f.txt &&
		test_expect_code 1 git ai-apply --undo 2>../err &&
		test_grep "nothing to undo in the index: every path is as it was before the landing" ../err &&
		state >../tw.after &&
		test_cmp ../tw.before ../tw.after
	)
'

test_expect_success 'a record of version 2 cannot be undone: said, nothing written' '
	fresh v2 &&
	(
		cd v2 &&
		git ai-apply ../change.diff 2>/dev/null &&
		grep -v -E "^(landing|head|before|worktree|conflict)	" .git/ai-apply/review |
			sed "1s/.*/ai-apply-review 2/" >../v2.record &&
		cp ../v2.record .git/ai-apply/review &&
		test_rejected --undo &&
		test_grep "written by an earlier git ai-apply" err
	)
'

# ---- --branch and --each: nothing in the index; git branch -D shown ----

test_expect_success 'after --branch: nothing to undo in the index, git branch -D shown' '
	fresh br &&
	(
		cd br &&
		git ai-apply --branch=ai/one ../change.diff 2>/dev/null &&
		test_expect_code 1 git ai-apply --undo 2>../err
	) &&
	test_grep "^error: nothing to undo in the index" err &&
	test_grep "git branch -D ai/one\$" err
'

test_expect_success 'after --each: every branch of the run named' '
	fresh each &&
	(
		cd each &&
		printf "%s\n" "--- a/a.txt" "+++ b/a.txt" "@@ -1,3 +1,3 @@" \
			" one" "-two" "+2" " three" >../two.diff &&
		git ai-apply --each --branch=s ../change.diff ../two.diff 2>/dev/null &&
		test_expect_code 1 git ai-apply --undo 2>../err
	) &&
	test_grep "git branch -D s-1 s-2\$" err
'

# ---- a kill during --undo is recovered as a landing's ----

# kill_undo STEP EXPECT: --undo killed at STEP, then --recover leaves the
# landed state (landed) or the state before the landing (before).
kill_undo () {
	fresh "kill-$1" &&
	(
		cd "kill-$1" &&
		state >../kill.before &&
		git ai-apply ../change.diff 2>/dev/null &&
		state >../kill.landed &&
		test_expect_code 137 env AA_TEST_HOOK="$1:kill" git-ai-apply --undo &&
		git ai-apply --recover 2>../recover.err &&
		state >../kill.now &&
		test_path_is_missing .git/index.lock &&
		test_path_is_missing .git/ai-apply/journal
	) &&
	test_cmp "kill.$2" kill.now
}

for step in journal path#2 index
do
	test_expect_success "--undo killed at '$step': --recover rolls back to the landed state" '
		kill_undo $step landed &&
		test_grep "rolled back" recover.err
	'
done

test_expect_success '... and --undo then puts it all back' '
	(
		cd kill-path#2 &&
		git ai-apply --undo >/dev/null &&
		state >../kill.now
	) &&
	test_cmp kill.before kill.now
'

test_expect_success "--undo killed at 'rename': --recover completes it" '
	kill_undo rename before
'

test_expect_success '... and the record that stayed: nothing to undo, then none' '
	(
		cd kill-rename &&
		test_expect_code 1 git ai-apply --undo 2>../err &&
		test_grep "every path is as it was before the landing" ../err &&
		test_path_is_missing .git/ai-apply/review
	)
'

test_expect_success '--undo waits for no lock: a held index.lock is fatal, nothing written' '
	fresh locked &&
	(
		cd locked &&
		git ai-apply ../change.diff 2>/dev/null &&
		: >.git/index.lock &&
		repo_snapshot locked &&
		test_expect_code 128 git ai-apply --undo 2>../err &&
		repo_unchanged locked &&
		rm .git/index.lock
	) &&
	test_grep "index.lock" err
'

# ---- options ----

test_expect_success '--undo takes no input and no landing option' '
	(
		cd repo &&
		for args in "--undo ../change.diff" "--undo --cached" \
			"--undo --branch=x" "--undo --review" "--undo --json" \
			"--undo --stat" "--undo --3way" "--undo --format=diff" \
			"--undo -m msg" "--undo --force" "--undo -p1"
		do
			test_expect_code 128 git ai-apply $args 2>../err &&
			test_grep "^fatal: --undo takes no input and no option but --check and -q\$" ../err ||
			return 1
		done
	)
'

test_done
