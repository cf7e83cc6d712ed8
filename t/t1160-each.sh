#!/bin/sh

test_description='--each: every input its own suggestion branch, each all or nothing, all from one base'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	make_repo repo &&
	git -C repo tag base &&
	mkdir answers &&
	cat >answers/one.md <<-\EOF &&
	--- START-REPLACE-FILE: a.txt ---
	first suggestion
	--- END-REPLACE-FILE: a.txt ---
	EOF
	cat >answers/two.md <<-\EOF &&
	--- START-REPLACE-FILE: a.txt ---
	second suggestion
	--- END-REPLACE-FILE: a.txt ---
	EOF
	cat >answers/three.md <<-\EOF &&
	--- START-FILE: new.txt ---
	third suggestion
	--- END-FILE: new.txt ---
	EOF
	cat >answers/bad.diff <<-\EOF
	--- a/a.txt
	+++ b/a.txt
	@@ -1 +1 @@
	-not in the file
	+never lands
	EOF
'

# loose_objects: every loose object id of the repository, sorted.
loose_objects () {
	find .git/objects -type f -path "*/[0-9a-f][0-9a-f]/*" |
	sed "s|.*/\([0-9a-f][0-9a-f]\)/|\1|" | sort
}

test_expect_success 'each input lands on its own branch, all from HEAD' '
	(
		cd repo &&
		git ai-apply --each --branch=s ../answers/one.md ../answers/two.md \
			../answers/three.md >out &&
		test_grep "branch s-1" out &&
		test_grep "branch s-3" out &&
		for i in 1 2 3
		do
			test "$(git rev-parse s-$i^)" = "$(git rev-parse HEAD)" || return 1
		done &&
		echo "first suggestion" >expect &&
		git show s-1:a.txt >actual &&
		test_cmp expect actual &&
		echo "second suggestion" >expect &&
		git show s-2:a.txt >actual &&
		test_cmp expect actual &&
		git diff --name-only HEAD s-3 >names &&
		echo new.txt >expect &&
		test_cmp expect names &&
		git log -1 --format=%B s-2 | git interpret-trailers --parse >trailers &&
		test_grep "^AI-Answer: two.md$" trailers &&
		git diff --exit-code HEAD
	)
'

test_expect_success 'a failing suggestion among good ones leaves no ref, note or object of its own' '
	(
		cd repo &&
		git for-each-ref --format="%(refname)" refs/heads >refs.before &&
		notes_before=$(git rev-parse refs/notes/ai-apply) &&
		loose_objects >objects.before &&
		test_expect_code 1 git ai-apply --each --branch=f ../answers/one.md \
			../answers/bad.diff ../answers/three.md >out 2>err &&
		test_grep "error: a.txt: .*bad.diff:3: hunk does not apply" err &&
		test_grep "1 of 3 suggestions failed" err &&
		git rev-parse --verify f-1 &&
		git rev-parse --verify f-3 &&
		test_must_fail git rev-parse --verify -q f-2 &&
		test $(git rev-list --count $notes_before..refs/notes/ai-apply) = 2 &&
		git notes --ref=ai-apply show f-1 >note &&
		test_cmp ../answers/one.md note &&
		git notes --ref=ai-apply show f-3 >note &&
		test_cmp ../answers/three.md note &&
		git for-each-ref --format="%(refname)" refs/heads >refs.after &&
		printf "refs/heads/f-1\nrefs/heads/f-3\n" >expect &&
		comm -13 refs.before refs.after >new.refs &&
		test_cmp expect new.refs &&
		loose_objects >objects.after &&
		comm -13 objects.before objects.after >new.objects &&
		git rev-list --objects base..f-1 base..f-3 refs/notes/ai-apply |
			cut -d" " -f1 |
			sort -u >reachable &&
		comm -23 new.objects reachable >stray &&
		test_must_be_empty stray
	)
'

test_expect_success 'an existing branch refuses that suggestion only; it stays where it was' '
	(
		cd repo &&
		git branch e-2 base &&
		test_expect_code 1 git ai-apply --each --branch=e ../answers/one.md \
			../answers/two.md ../answers/three.md 2>err &&
		test_grep "branch .e-2. already exists" err &&
		test "$(git rev-parse e-2)" = "$(git rev-parse base)" &&
		git rev-parse --verify e-1 &&
		git rev-parse --verify e-3
	)
'

# start_paused ARGS...: git ai-apply in the background, paused just
# before it writes its first branch; "resume" lets it go on.
start_paused () {
	rm -f "$TRASH/go" "$TRASH/go.waiting" &&
	{ AA_TEST_HOOK="branch:pause:$TRASH/go" git-ai-apply "$@" \
		>"$TRASH/paused.out" 2>"$TRASH/paused.err" & } &&
	paused_pid=$! &&
	i=0 &&
	while ! test -e "$TRASH/go.waiting"
	do
		i=$((i + 1)) &&
		test $i -lt 1000 || return 1
		sleep 0.01
	done
}

resume () {
	: >"$TRASH/go" &&
	paused_code=0 &&
	{ wait $paused_pid || paused_code=$?; }
}

TRASH=$(pwd)

test_expect_success 'two --each runs racing on the same names: one wins, the other refuses cleanly' '
	(
		cd repo &&
		notes_before=$(git rev-parse refs/notes/ai-apply) &&
		start_paused --each --branch=r -m "from A" ../answers/one.md \
			../answers/three.md &&
		git ai-apply --each --branch=r -m "from B" ../answers/one.md \
			../answers/three.md &&
		resume &&
		test $paused_code = 1 &&
		test_grep "branch .r-1. already exists" "$TRASH/paused.err" &&
		test_grep "branch .r-2. already exists" "$TRASH/paused.err" &&
		for i in 1 2
		do
			git log -1 --format=%s r-$i >subject &&
			echo "from B" >expect &&
			test_cmp expect subject || return 1
		done &&
		test $(git rev-list --count $notes_before..refs/notes/ai-apply) = 2 &&
		git notes --ref=ai-apply show r-2 >note &&
		test_cmp ../answers/three.md note &&
		git fsck --no-progress
	)
'

test_expect_success 'a suggestion refused at its ref: the next note does not descend from its note' '
	(
		cd repo &&
		notes_before=$(git rev-parse refs/notes/ai-apply) &&
		start_paused --each --branch=q ../answers/one.md ../answers/three.md &&
		git branch q-1 base &&
		resume &&
		test $paused_code = 1 &&
		test_grep "branch .q-1. already exists" "$TRASH/paused.err" &&
		test "$(git rev-parse q-1)" = "$(git rev-parse base)" &&
		git rev-parse --verify q-2 &&
		test "$(git rev-parse refs/notes/ai-apply^)" = "$notes_before" &&
		git notes --ref=ai-apply show q-2 >note &&
		test_cmp ../answers/three.md note &&
		git fsck --no-progress
	)
'

test_expect_success 'the notes ref moved by another run meanwhile: every note goes on its tip' '
	(
		cd repo &&
		notes_before=$(git rev-parse refs/notes/ai-apply) &&
		start_paused --each --branch=mv ../answers/one.md ../answers/three.md &&
		git ai-apply --each --branch=nv ../answers/two.md &&
		resume &&
		test $paused_code = 0 &&
		test $(git rev-list --count $notes_before..refs/notes/ai-apply) = 3 &&
		git notes --ref=ai-apply show nv-1 >note &&
		test_cmp ../answers/two.md note &&
		git notes --ref=ai-apply show mv-1 >note &&
		test_cmp ../answers/one.md note &&
		git notes --ref=ai-apply show mv-2 >note &&
		test_cmp ../answers/three.md note &&
		git fsck --no-progress
	)
'

test_expect_success 'the objects of all suggestions go to disk as one pack, no loose object' '
	(
		cd repo &&
		loose_objects >objects.before &&
		ls .git/objects/pack/*.pack >packs.before &&
		git ai-apply --each --branch=p ../answers/one.md ../answers/two.md \
			../answers/three.md &&
		loose_objects >objects.after &&
		test_cmp objects.before objects.after &&
		ls .git/objects/pack/*.pack >packs.after &&
		comm -13 packs.before packs.after >new.packs &&
		test $(wc -l <new.packs) = 1 &&
		git verify-pack "$(sed "s/pack\$/idx/" new.packs)" &&
		for i in 1 2 3
		do
			git cat-file -e p-$i^{tree} &&
			git notes --ref=ai-apply show p-$i >/dev/null || return 1
		done &&
		git fsck --no-progress
	)
'

test_expect_success 'notes go in a fanned-out tree; flat notes of an older tree are fanned out' '
	git init -q fan &&
	(
		cd fan &&
		echo one >a.txt &&
		git add a.txt &&
		git commit -q -m one &&
		git notes --ref=ai-apply add -m "an old flat note" HEAD &&
		git ls-tree --name-only refs/notes/ai-apply >names &&
		test_grep "^[0-9a-f]\{40\}\$" names &&
		git ai-apply --each --branch=f ../answers/one.md ../answers/three.md &&
		git ls-tree --name-only refs/notes/ai-apply >names &&
		! grep "^[0-9a-f]\{40\}\$" names &&
		test_grep "^[0-9a-f][0-9a-f]\$" names &&
		echo "an old flat note" >expect &&
		git notes --ref=ai-apply show HEAD >actual &&
		test_cmp expect actual &&
		git notes --ref=ai-apply show f-2 >actual &&
		test_cmp ../answers/three.md actual &&
		git fsck --no-progress
	)
'

test_expect_success 'each suggestion has the tree git apply gives (new directories, names sorting around a directory, a removal)' '
	git init -q trees &&
	(
		cd trees &&
		mkdir d &&
		echo one >d/one.txt &&
		echo ab >a-b &&
		echo at >a.txt &&
		echo zero >d0 &&
		git add . &&
		git commit -q -m base &&
		cp d/one.txt old && echo two >>d/one.txt &&
		mkdir -p a d/sub e/f &&
		echo x >a/x.txt && echo new >d/sub/new.txt && echo g >e/f/g.txt &&
		echo dt >d.txt &&
		git add -N a/x.txt d/sub/new.txt e/f/g.txt d.txt &&
		git diff -- d/one.txt a/x.txt d/sub/new.txt >../t1.diff &&
		git diff -- d.txt e/f/g.txt >../t2.diff &&
		git rm -q --cached d0 &&
		git diff --cached -- d0 >../t3.diff &&
		git reset -q --hard &&
		git clean -q -fd &&
		git ai-apply --each --branch=t ../t1.diff ../t2.diff ../t3.diff &&
		for i in 1 2 3
		do
			GIT_INDEX_FILE=.git/tmp-index git read-tree HEAD &&
			GIT_INDEX_FILE=.git/tmp-index git apply --cached ../t$i.diff &&
			want=$(GIT_INDEX_FILE=.git/tmp-index git write-tree) &&
			test "$(git rev-parse t-$i^{tree})" = "$want" || return 1
		done &&
		git fsck --no-progress
	)
'

# in_pack_size BLOB: the blob's size in the newest pack (verify-pack -v).
in_pack_size () {
	git verify-pack -v "$(ls -t .git/objects/pack/*.idx | head -1)" |
	awk -v id="$1" '$1 == id { print $4 }'
}

test_expect_success 'the pack is stored uncompressed unless core.compression or pack.compression says' '
	git init -q level &&
	(
		cd level &&
		echo base >a.txt &&
		git add a.txt &&
		git commit -q -m base &&
		{
			echo "--- START-FILE: big.txt ---" &&
			for i in $(test_seq 1 200)
			do
				echo "the same line, again and again"
			done &&
			echo "--- END-FILE: big.txt ---"
		} >../big.md &&
		git ai-apply --each --branch=z ../big.md &&
		blob=$(git rev-parse z-1:big.txt) &&
		size=$(git cat-file -s $blob) &&
		test $(in_pack_size $blob) -gt $size &&
		git config core.compression 9 &&
		git ai-apply --each --branch=c ../big.md &&
		test $(in_pack_size $blob) -lt $((size / 10)) &&
		git config pack.compression 0 &&
		git ai-apply --each --branch=p ../big.md &&
		test $(in_pack_size $blob) -gt $size
	)
'

test_expect_success 'stored: a blob over one 65,535-byte block and an empty one read back whole' '
	(
		cd level &&
		git config --unset pack.compression &&
		git config --unset core.compression &&
		{
			echo "--- START-FILE: large.txt ---" &&
			test_seq 1 30000 &&
			echo "--- END-FILE: large.txt ---" &&
			echo "--- START-FILE: empty.txt ---" &&
			echo "--- END-FILE: empty.txt ---"
		} >../large.md &&
		test_seq 1 30000 >../large.expect &&
		git ai-apply --each --branch=s ../large.md &&
		git cat-file blob s-1:large.txt >../large.actual &&
		test_cmp ../large.expect ../large.actual &&
		test "$(git cat-file -s s-1:empty.txt)" = 0 &&
		blob=$(git rev-parse s-1:large.txt) &&
		size=$(git cat-file -s $blob) &&
		test $(in_pack_size $blob) -gt $size &&
		git verify-pack "$(ls -t .git/objects/pack/*.idx | head -1)" &&
		git fsck --full --no-dangling --no-progress
	)
'

test_expect_success 'an answer holding alternatives: each on <name>-<n>.<k>, shared setup in each, said once' '
	cat >answers/options.md <<-\EOF &&
	A helper first:

	--- START-FILE: helper.txt ---
	help
	--- END-FILE: helper.txt ---

	Option 1:

	--- START-REPLACE-FILE: a.txt ---
	option one
	--- END-REPLACE-FILE: a.txt ---

	Option 2:

	--- START-REPLACE-FILE: a.txt ---
	option two
	--- END-REPLACE-FILE: a.txt ---
	EOF
	(
		cd repo &&
		git ai-apply --each --branch=alt ../answers/options.md ../answers/three.md 2>../err &&
		git for-each-ref --format="%(refname:short)" "refs/heads/alt-*" >../actual &&
		printf "%s\n" alt-1.1 alt-1.2 alt-2 >../expect &&
		test_cmp ../expect ../actual &&
		echo "option one" >../expect && git show alt-1.1:a.txt >../actual &&
		test_cmp ../expect ../actual &&
		echo "option two" >../expect && git show alt-1.2:a.txt >../actual &&
		test_cmp ../expect ../actual &&
		git show alt-1.1:helper.txt && git show alt-1.2:helper.txt &&
		test "$(git rev-parse alt-1.1^)" = "$(git rev-parse HEAD)" &&
		test "$(git rev-parse alt-1.2^)" = "$(git rev-parse HEAD)" &&
		git log -1 --format=%B alt-1.2 >../msg &&
		test_grep "^AI-Alternative: 2 of 2$" ../msg &&
		test_grep "^AI-Answer: options.md$" ../msg &&
		! git log -1 --format=%B alt-2 | grep AI-Alternative
	) &&
	test $(grep -c "2 alternatives" err) = 1 &&
	test_grep "the path a.txt is written whole again" err
'

test_expect_success 'without --each such an answer lands as one change set, and says how to land each' '
	(
		cd repo &&
		git ai-apply --check ../answers/options.md 2>../err
	) &&
	test_grep "note: .*options.md: 2 alternatives" err &&
	test_grep "applied in order as one change set; --each" err
'

test_expect_success '--base: every suggestion starts from it' '
	(
		cd repo &&
		git commit -q --allow-empty -m moved &&
		git ai-apply --each --branch=b --base=base ../answers/one.md \
			../answers/three.md &&
		test "$(git rev-parse b-1^)" = "$(git rev-parse base)" &&
		test "$(git rev-parse b-2^)" = "$(git rev-parse base)"
	)
'

test_expect_success '--each --json: one document with a report per suggestion' '
	(
		cd repo &&
		test_expect_code 1 git ai-apply --each --json --branch=j \
			../answers/one.md ../answers/bad.diff >../out.json
	) &&
	jq -e ".landed == 1 and .failed == 1" out.json &&
	jq -r ".suggestions[] | .branch + \" \" + .status" out.json >actual &&
	printf "j-1 applied\nj-2 rejected\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'a missing input is that suggestion failing, fatal (128)' '
	(
		cd repo &&
		test_expect_code 128 git ai-apply --each --branch=m ../answers/one.md \
			missing.md 2>err &&
		test_grep "cannot open .missing.md." err &&
		git rev-parse --verify m-1 &&
		test_must_fail git rev-parse --verify -q m-2
	)
'

test_expect_success '--each needs --branch and answer files' '
	test_expect_code 128 git -C repo ai-apply --each ../answers/one.md 2>err &&
	test_grep "fatal: --each needs --branch" err &&
	test_expect_code 128 git -C repo ai-apply --each --branch=x </dev/null 2>err &&
	test_grep "needs the answer files" err
'

if command -v strace >/dev/null 2>&1 &&
	strace -f -o /dev/null true 2>/dev/null
then
	test_set_prereq STRACE
fi

# One ref round (Documentation/landing.md, "--each: one ref round").
test_expect_success 'every suggestion'"'"'s refs in one round: the notes ref moves once, each branch once' '
	(
		cd repo &&
		git reflog show refs/notes/ai-apply >reflog.before &&
		notes_before=$(git rev-parse refs/notes/ai-apply) &&
		git ai-apply --each --branch=round ../answers/one.md \
			../answers/two.md ../answers/three.md >out &&
		git reflog show refs/notes/ai-apply >reflog.after &&
		test $(($(wc -l <reflog.after) - $(wc -l <reflog.before))) = 1 &&
		test_grep "ai-apply: the answers of 3 suggestions" reflog.after &&
		# still one notes commit a suggestion, each on the one before
		test $(git rev-list --count $notes_before..refs/notes/ai-apply) = 3 &&
		for i in 1 2 3
		do
			git reflog show round-$i >branch.log &&
			test $(wc -l <branch.log) = 1 || return 1
		done &&
		git notes --ref=ai-apply show round-1 >note &&
		test_cmp ../answers/one.md note &&
		git notes --ref=ai-apply show round-3 >note &&
		test_cmp ../answers/three.md note &&
		git fsck --no-progress
	)
'

# (LeakSanitizer cannot run under ptrace: no leak check under strace.)
test_expect_success STRACE 'one round renames four refs for three suggestions, each lock once' '
	(
		cd repo &&
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -o ../round.trace -e trace=rename,link,openat \
			git-ai-apply --each --branch=ren ../answers/one.md \
			../answers/two.md ../answers/three.md >/dev/null
	) &&
	# libgit2 links a lock in place, and renames it when the ref exists
	sed -n "s/^[0-9]* *\(rename\|link\)(\"\([^\"]*\.lock\)\".*/\2/p" \
		round.trace | sort -u >renames &&
	test $(wc -l <renames) = 4 &&
	grep -c "ai-apply\.lock\", O_WRONLY|O_CREAT|O_EXCL" round.trace >notes.locks &&
	echo 1 >expect &&
	test_cmp expect notes.locks
'

test_expect_success 'a branch another process holds: that suggestion fails alone, the round lands the others' '
	(
		cd repo &&
		mkdir -p .git/refs/heads &&
		: >.git/refs/heads/held-2.lock &&
		test_expect_code 128 git ai-apply --each --branch=held ../answers/one.md \
			../answers/two.md ../answers/three.md >out 2>err &&
		test_path_is_file .git/refs/heads/held-2.lock &&
		rm .git/refs/heads/held-2.lock &&
		test_must_fail git rev-parse -q --verify held-2 &&
		git notes --ref=ai-apply show held-1 >note &&
		test_cmp ../answers/one.md note &&
		git notes --ref=ai-apply show held-3 >note &&
		test_cmp ../answers/three.md note &&
		! git notes --ref=ai-apply list | grep -v -e "$(git rev-parse held-1)" \
			-e "$(git rev-parse held-3)" >notes.other ||
		! grep -q "second suggestion" notes.other &&
		git fsck --no-progress
	) &&
	test_grep "held-2.lock.*File exists" repo/err
'

test_done
