#!/bin/sh

test_description='--branch and --each killed, raced and failing at every step of the suggestion side: the next run leaves a clean repository, no lock, no keep, and each suggestion with both its branch and its note or neither'

. "$(dirname "$0")/test-lib.sh"

# Steps of the test hook (AA_TEST_HOOK=<step>[#n]:kill|pause:<file>) on
# the suggestion side: refjournal (the ref journal written), keep (the
# pack's .keep made, the pack not yet visible), pack (the pack and its
# index visible), branch (before a suggestion's ref transaction), ref
# (after each ref of a transaction: between the two refs, and after the
# second), unkeep (every ref written, the .keep about to go).

TRASH=$(pwd)

wait_for () {
	i=0
	while ! test -e "$1"
	do
		i=$((i + 1))
		test $i -lt 6000 || { echo "timed out waiting for $1"; return 1; }
		sleep 0.01
	done
}

start_paused () {
	step=$1 && shift &&
	rm -f "$TRASH/go" "$TRASH/go.waiting" &&
	{ AA_TEST_HOOK="$step:pause:$TRASH/go" git-ai-apply "$@" \
		>"$TRASH/paused.out" 2>"$TRASH/paused.err" & } &&
	paused_pid=$! &&
	wait_for "$TRASH/go.waiting"
}

resume () {
	: >"$TRASH/go" &&
	paused_code=0 &&
	{ wait $paused_pid || paused_code=$?; }
}

# settled: no lock, no keep, no journal of ours; git fsck --full clean;
# every suggestion branch has its note and every note its branch.
settled () {
	{ find .git -name "*.lock" || :; } >"$TRASH/left" &&
	{ find .git/objects/pack -name "*.keep" || :; } >>"$TRASH/left" &&
	{ ls .git/ai-apply 2>/dev/null || :; } >>"$TRASH/left" &&
	test_must_be_empty "$TRASH/left" &&
	git fsck --full --no-dangling --no-progress 2>"$TRASH/fsck.err" &&
	test_must_be_empty "$TRASH/fsck.err" &&
	both_or_neither
}

both_or_neither () {
	for b in $(git for-each-ref --format="%(refname:short)" "refs/heads/s*")
	do
		git notes --ref=ai-apply show "$b" >/dev/null 2>&1 ||
		{ echo "$b has no note"; return 1; }
	done &&
	{ git notes --ref=ai-apply list 2>/dev/null || :; } >"$TRASH/notes" &&
	while read blob commit
	do
		test -n "$(git for-each-ref --points-at=$commit refs/heads)" ||
		{ echo "a note for $commit, which no branch names"; return 1; }
	done <"$TRASH/notes"
}

test_expect_success 'setup' '
	make_repo repo &&
	git -C repo tag base &&
	mkdir answers &&
	for i in 1 2 3
	do
		printf -- "--- START-FILE: new$i.txt ---\nsuggestion $i\n--- END-FILE: new$i.txt ---\n" \
			>answers/a$i.md || return 1
	done
'

test_expect_success 'a plain --each leaves no keep and no journal' '
	fresh plain &&
	(
		cd plain &&
		git ai-apply --each --branch=s ../answers/a1.md ../answers/a2.md &&
		settled &&
		git rev-parse --verify s-1 && git rev-parse --verify s-2
	)
'

test_expect_success 'the keep is made before the pack is visible, with a reason' '
	fresh keep &&
	(
		cd keep &&
		start_paused keep --branch=s ../answers/a1.md &&
		ls .git/objects/pack/ >../listing &&
		resume &&
		test $paused_code = 0 &&
		settled
	) &&
	grep "\.keep$" listing >keeps &&
	test "$(wc -l <keeps)" = 1 &&
	! grep "^$(sed "s/keep$/idx/" keeps)\$" listing
'

test_expect_success 'while paused at the refs, the keep holds a reason as git writes it' '
	fresh reason &&
	(
		cd reason &&
		start_paused branch --branch=s ../answers/a1.md &&
		cat .git/objects/pack/*.keep >../keep.text &&
		resume
	) &&
	test_grep "^ai-apply [0-9]* on " keep.text
'

# next RUN: the run after a kill. --list, --recover and a --branch of
# another name must all settle the dead run first.
next_run () {
	case $1 in
	list) git ai-apply --list >/dev/null 2>"$TRASH/next.err" ;;
	recover) git ai-apply --recover >/dev/null 2>"$TRASH/next.err" ;;
	branch) git ai-apply --branch=other ../answers/a3.md >/dev/null 2>"$TRASH/next.err" ;;
	esac
}

for step in refjournal keep pack branch ref ref#2 unkeep
do
	for next in list recover branch
	do
		test_expect_success "--branch killed at '$step', then $next: clean, both or neither" '
			fresh kb &&
			(
				cd kb &&
				test_expect_code 137 env AA_TEST_HOOK="$step:kill" \
					git-ai-apply --branch=s ../answers/a1.md &&
				next_run $next &&
				settled &&
				git ai-apply --branch=s2 ../answers/a2.md >/dev/null &&
				settled
			)
		'
	done
done

# --each renames every ref in one round: three branches and the notes
# ref, four "ref" steps (Documentation/landing.md, "--each: one ref round").
for step in refjournal keep pack branch branch#2 branch#3 ref ref#2 ref#3 ref#4 unkeep
do
	test_expect_success "--each killed at '$step': the next run settles it" '
		fresh ke &&
		(
			cd ke &&
			test_expect_code 137 env AA_TEST_HOOK="$step:kill" \
				git-ai-apply --each --branch=s ../answers/a1.md \
				../answers/a2.md ../answers/a3.md &&
			git ai-apply --list >/dev/null 2>../next.err &&
			settled &&
			git ai-apply --each --branch=t ../answers/a1.md >/dev/null &&
			settled
		)
	'
done

test_expect_success 'killed between the two refs: the next run completes the suggestion' '
	fresh half &&
	(
		cd half &&
		test_expect_code 137 env AA_TEST_HOOK="ref:kill" \
			git-ai-apply --branch=s ../answers/a1.md &&
		find .git -name "*.lock" >../locks &&
		test -s ../locks &&
		git ai-apply --recover 2>../recover.err &&
		settled &&
		git rev-parse --verify s &&
		git notes --ref=ai-apply show s >../note &&
		test_cmp ../answers/a1.md ../note
	) &&
	test_grep "removed the lock .*\.lock of process" recover.err &&
	test_grep "s: completed" recover.err &&
	test_grep "recovered the suggestions interrupted in process" recover.err
'

test_expect_success 'SIGTERM between the two refs waits: the refs are finished, then the run ends' '
	fresh term &&
	(
		cd term &&
		start_paused ref --each --branch=s ../answers/a1.md ../answers/a2.md &&
		kill -TERM $paused_pid &&
		resume &&
		test $paused_code = 143 &&
		settled &&
		git notes --ref=ai-apply show s-1 >/dev/null
	)
'

test_expect_success 'a journal of a live run is left alone' '
	fresh live &&
	(
		cd live &&
		start_paused ref --branch=s ../answers/a1.md &&
		git ai-apply --list >/dev/null 2>../list.err &&
		ls .git/ai-apply >../journals &&
		resume &&
		test $paused_code = 0 &&
		settled
	) &&
	test -s journals &&
	! test_grep recovered list.err
'

test_expect_success 'a ref lock not recorded by a dead run of ours is respected' '
	fresh foreign &&
	(
		cd foreign &&
		test_expect_code 137 env AA_TEST_HOOK="refjournal:kill" \
			git-ai-apply --branch=s ../answers/a1.md &&
		mkdir -p .git/refs/notes &&
		: >.git/refs/notes/ai-apply.lock &&
		git ai-apply --list >/dev/null &&
		test_path_is_file .git/refs/notes/ai-apply.lock &&
		rm .git/refs/notes/ai-apply.lock &&
		settled
	)
'

# Races: git's maintenance while a run pauses at each window.
for step in refjournal keep pack branch ref unkeep
do
	for maint in "repack -a -d" "gc --prune=now" "gc" "commit"
	do
		test_expect_success "--each paused at '$step' while git $maint runs: fsck clean" '
			fresh race &&
			(
				cd race &&
				start_paused $step --each --branch=s ../answers/a1.md ../answers/a2.md &&
				if test "$maint" = commit
				then
					git commit -q --allow-empty -m meanwhile
				else
					git $maint -q 2>../maint.err || :
				fi &&
				resume &&
				test $paused_code = 0 &&
				settled &&
				git rev-parse --verify s-1 && git rev-parse --verify s-2
			)
		'
	done
	test_expect_success "--branch paused at '$step' while git gc --prune=now and repack -a -d run: fsck clean" '
		fresh raceb &&
		(
			cd raceb &&
			start_paused $step --branch=s ../answers/a1.md &&
			{ git gc -q --prune=now 2>../maint.err || :; } &&
			git repack -q -a -d &&
			resume &&
			test $paused_code = 0 &&
			settled &&
			git notes --ref=ai-apply show s >/dev/null
		)
	'
done

# strace -e inject makes one system call fail on demand (LeakSanitizer
# cannot run under ptrace: the sanitizer builds skip leak checks there).
if command -v strace >/dev/null 2>&1 &&
	strace -f -o /dev/null -e inject=unlink:error=EIO true 2>/dev/null
then
	test_set_prereq STRACE
fi

# ref_calls CALL PATTERN ARGS...: into "calls", the numbers N (strace's
# when=N) of the CALLs a plain run makes on a file matching PATTERN.
ref_calls () {
	call=$1 pattern=$2 && shift 2 &&
	fresh probe &&
	(
		cd probe &&
		env ASAN_OPTIONS=detect_leaks=0 strace -f -y -o ../calls.trace \
			-e trace=$call git-ai-apply "$@" >/dev/null
	) &&
	awk -v call="$call" -v pat="$pattern" '
		$2 ~ "^" call "\\(" { n++; if ($0 ~ pat) print n }
	' calls.trace >calls
}

test_expect_success STRACE 'a failed unlink of a ref lock: removed all the same, exit 0, git branch -D works' '
	ref_calls unlink "refs/heads/s\\.lock" --branch=s ../answers/a1.md &&
	test -s calls &&
	fresh ul &&
	(
		cd ul &&
		env ASAN_OPTIONS=detect_leaks=0 strace -f -o /dev/null \
			-e inject=unlink:error=EIO:when=$(head -n 1 ../calls) \
			git-ai-apply --branch=s ../answers/a1.md >/dev/null 2>../err &&
		settled &&
		git branch -D s
	)
'

test_expect_success STRACE 'a ref lock that cannot be removed at all: exit 128 naming it; the next run removes it' '
	ref_calls unlink "refs/heads/s\\.lock" --branch=s ../answers/a1.md &&
	fresh ul2 &&
	(
		cd ul2 &&
		test_expect_code 128 env ASAN_OPTIONS=detect_leaks=0 strace -f -o /dev/null \
			-e inject=unlink:error=EIO:when=$(head -n 1 ../calls)+ \
			git-ai-apply --branch=s ../answers/a1.md >/dev/null 2>../err &&
		test_path_is_file .git/refs/heads/s.lock &&
		git ai-apply --list >/dev/null 2>../next.err &&
		settled &&
		git branch -D s
	) &&
	test_grep "cannot remove the lock .*refs/heads/s\.lock: Input/output error" err &&
	test_grep "the branch s was written; the next git ai-apply removes the lock" err
'

for call in write link openat
do
	test_expect_success STRACE "each $call on the refs or their logs failing in turn: both or neither, at once" '
		ref_calls $call "(refs/heads/s|refs/notes/ai-apply)" --branch=s ../answers/a1.md &&
		test -s calls &&
		for n in $(cat calls)
		do
			fresh inj &&
			(
				cd inj &&
				code=0 &&
				env ASAN_OPTIONS=detect_leaks=0 strace -f -o /dev/null \
					-e inject=$call:error=EIO:when=$n \
					git-ai-apply --branch=s ../answers/a1.md >/dev/null 2>../err ||
				code=$? &&
				case $code in
				0) git rev-parse -q --verify s >/dev/null ;;
				128) test_grep "error: " ../err ;;
				*) false ;;
				esac &&
				settled
			) || { echo "failed at $call #$n"; cat err; return 1; }
		done
	'
done

test_expect_success STRACE 'a failed write of the notes ref: completed on a second try or rolled back, and said' '
	ref_calls write "refs/notes/ai-apply\\.lock" --branch=s ../answers/a1.md &&
	test -s calls &&
	fresh wn &&
	(
		cd wn &&
		code=0 &&
		env ASAN_OPTIONS=detect_leaks=0 strace -f -o /dev/null \
			-e inject=write:error=ENOSPC:when=$(head -n 1 ../calls) \
			git-ai-apply --branch=s ../answers/a1.md >/dev/null 2>../err ||
		code=$? &&
		settled &&
		case $code in
		0)
			test_grep "No space left on device.*completed on a second try: both are written" ../err &&
			git notes --ref=ai-apply show s >/dev/null ;;
		128)
			test_grep "rolled back: neither the branch nor its note was written" ../err &&
			test_must_fail git rev-parse -q --verify s ;;
		*) false ;;
		esac
	)
'

test_expect_success 'one --each suggestion that fails does not speak of others' '
	fresh one &&
	(
		cd one &&
		git branch s-1 &&
		test_expect_code 1 git ai-apply --each --branch=s ../answers/a1.md 2>../err
	) &&
	test_grep "the suggestion failed" err &&
	! test_grep "the others landed" err
'

test_done
