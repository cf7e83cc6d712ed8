#!/bin/sh

test_description='core.fsync and core.fsyncMethod: what a landing makes durable, counted with strace, and kill-safety without any fsync'

. "$(dirname "$0")/test-lib.sh"

# strace counts the calls (LeakSanitizer cannot run under ptrace: the
# sanitizer builds skip leak checks there).
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null
then
	test_set_prereq STRACE
else
	say "strace cannot run here: the counts of fsync calls are skipped"
fi

TRASH=$(pwd)

# classify.awk: strace -y lines into "<call> <what>", what one of the
# things a landing writes (Documentation/landing.md, "fsync").
cat >classify.awk <<\EOF
{
	line = $0
	sub(/^[0-9]+ +/, "", line)
	call = line
	sub(/\(.*/, "", call)
	if (!match(line, /<[^>]*>/))
		next
	p = substr(line, RSTART + 1, RLENGTH - 2)
	if (p ~ /\/objects\/[0-9a-f][0-9a-f]\/tmp_obj_/) what = "loose-object"
	else if (p ~ /\/objects\/[0-9a-f][0-9a-f]$/ || p ~ /\/objects$/) what = "loose-object-dir"
	else if (p ~ /tmp_pack_/) what = "pack"
	else if (p ~ /tmp_idx_/) what = "pack-index"
	else if (p ~ /\/objects\/pack$/) what = "pack-dir"
	else if (p ~ /\/logs\/refs\/(heads|notes)$/) what = "reflog-dir"
	else if (p ~ /\/logs\/refs\//) what = "reflog"
	else if (p ~ /\/refs\/(heads|notes)$/) what = "ref-dir"
	else if (p ~ /\/refs\/.*\.lock$/) what = "ref"
	else if (p ~ /\/ai-apply\/[^\/]*\.tmp$/) what = "journal"
	else if (p ~ /\.git\/ai-apply$/) what = "journal-dir"
	else if (p ~ /\/index\.lock/) what = "index"
	else if (p ~ /\.git$/) what = "index-dir"
	else what = "other:" p
	print call, what
}
EOF

# synced SETTING... -- ARGS...: in a fresh copy of repo configured with
# each SETTING (name=value), the fsync, fdatasync and sync_file_range
# calls of git-ai-apply ARGS as "<call> <what> <count>" lines, into
# "synced".
synced () {
	fresh run &&
	while test "$1" != --
	do
		git -C run config "${1%%=*}" "${1#*=}" && shift || return 1
	done &&
	shift &&
	(
		cd run &&
		env ASAN_OPTIONS=detect_leaks=0 strace -f -y -o ../trace \
			-e trace=fsync,fdatasync,sync_file_range git-ai-apply "$@" \
			>/dev/null
	) &&
	awk -f classify.awk trace | sort | uniq -c |
		awk "{ print \$2, \$3, \$1 }" >synced
}

test_expect_success 'setup: a change making one new blob; every object packed' '
	make_repo repo &&
	(
		cd repo &&
		git repack -a -d -q &&
		git prune-packed
	) &&
	cat >change.diff <<-\EOF
	diff --git a/a.txt b/a.txt
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
'

# The expected counts of one landing: the default mode writes a loose
# blob (its file, its new fan-out directory and objects/), the journal
# (file and directory; its removal syncs the directory again) and the
# index (the lock and the git dir); --branch a pack and its index (the
# directory once for both, once when the .keep goes), the ref journal,
# and two refs (branch, notes), each with its reflog, by libgit2.
expect_index () {
	case "$1" in
	unset|-pack)
		printf "fsync journal 1\nfsync journal-dir 2\n" ;;
	none)
		: ;;
	all)
		printf "fsync %s\n" "index 1" "index-dir 1" "journal 1" \
			"journal-dir 2" "loose-object 1" "loose-object-dir 2" ;;
	committed)
		printf "fsync %s\n" "journal 1" "journal-dir 2" \
			"loose-object 1" "loose-object-dir 2" ;;
	writeout-only)
		printf "sync_file_range %s\n" "journal 1" "journal-dir 2" ;;
	batch)
		# one write-out of the object, one flush, no directory
		printf "fsync %s\n" "journal 1" "journal-dir 2" "loose-object 1" &&
		echo "sync_file_range loose-object 1" ;;
	esac
}

expect_branch () {
	case "$1" in
	unset)
		printf "fsync %s\n" "journal 1" "journal-dir 2" "pack 1" \
			"pack-dir 2" "pack-index 1" ;;
	none)
		: ;;
	all|committed|batch)
		printf "fsync %s\n" "journal 1" "journal-dir 2" "pack 1" \
			"pack-dir 2" "pack-index 1" "ref 2" "ref-dir 2" \
			"reflog 2" "reflog-dir 2" ;;
	-pack)
		# -pack is a prefix of pack-metadata too, as git matches it
		printf "fsync %s\n" "journal 1" "journal-dir 2" "pack-dir 1" ;;
	writeout-only)
		printf "sync_file_range %s\n" "journal 1" "journal-dir 2" \
			"pack 1" "pack-dir 2" "pack-index 1" ;;
	esac
}

settings_of () {
	case "$1" in
	unset) ;;
	none|all|committed|-pack) echo "core.fsync=$1" ;;
	writeout-only) echo "core.fsyncMethod=writeout-only" ;;
	batch) echo "core.fsyncMethod=batch core.fsync=committed" ;;
	esac
}

for setting in unset none all committed -pack writeout-only batch
do
	test_expect_success STRACE "default mode, $setting: the calls git's rules give" '
		synced $(settings_of $setting) -- ../change.diff &&
		expect_index $setting >expect &&
		test_cmp expect synced
	'

	test_expect_success STRACE "--branch, $setting: the calls git's rules give" '
		synced $(settings_of $setting) -- --branch=s ../change.diff &&
		expect_branch $setting >expect &&
		test_cmp expect synced
	'
done

test_expect_success STRACE 'core.fsyncObjectFiles=true (deprecated) still fsyncs loose objects, with git'"'"'s warning' '
	synced core.fsyncObjectFiles=true -- ../change.diff &&
	grep "^fsync loose-object 1$" synced &&
	(
		cd run &&
		git reset -q --hard &&
		git-ai-apply ../change.diff 2>../err
	) &&
	test_grep "core.fsyncObjectFiles is deprecated; use core.fsync instead" err
'

test_expect_success 'unknown names and methods: warned as git does, ignored, the landing done' '
	fresh warn &&
	(
		cd warn &&
		git config core.fsync "bogus,index" &&
		git config core.fsyncMethod sometimes &&
		git-ai-apply ../change.diff 2>../err &&
		test "$(git show :a.txt | sed -n 2p)" = TWO
	) &&
	test_grep "ignoring unknown core.fsync component .bogus." err &&
	test_grep "ignoring unknown core.fsyncMethod value .sometimes." err
'

test_expect_success '--check reads no fsync setting (it writes nothing): no warning' '
	fresh chk &&
	(
		cd chk &&
		git config core.fsync bogus &&
		git-ai-apply --check ../change.diff 2>../err
	) &&
	! grep "core.fsync" err
'

# Kill-safety holds with no fsync at all: a kill leaves what was
# written in the page cache, and the next run finishes or undoes it.
test_expect_success 'core.fsync=none: the repository for the kills, its states before and after' '
	git -C repo config core.fsync none &&
	(cd repo && git ls-files -s && git diff) >state.old &&
	fresh applied &&
	(
		cd applied &&
		git-ai-apply -q ../change.diff &&
		{ git ls-files -s && git diff; } >../state.new
	) &&
	! test_cmp state.old state.new
'

for step in journal path index rename done
do
	test_expect_success "core.fsync=none, default mode killed at '$step': --recover leaves the old or the new state" '
		fresh kill &&
		(
			cd kill &&
			test_expect_code 137 env AA_TEST_HOOK="$step:kill" \
				git-ai-apply ../change.diff &&
			git-ai-apply --recover 2>../recover.err &&
			{ git ls-files -s && git diff; } >../state.now &&
			test ! -e .git/index.lock &&
			test ! -e .git/ai-apply/journal &&
			git fsck 2>../fsck.err &&
			test_must_be_empty ../fsck.err
		) &&
		case $step in
		rename|done) test_cmp state.new state.now ;;
		*) test_cmp state.old state.now ;;
		esac
	'
done

for step in refjournal keep pack ref ref#2 unkeep
do
	test_expect_success "core.fsync=none, --branch killed at '$step': the next run settles it, both refs or neither" '
		fresh killb &&
		(
			cd killb &&
			test_expect_code 137 env AA_TEST_HOOK="$step:kill" \
				git-ai-apply --branch=s ../change.diff &&
			git-ai-apply --recover >/dev/null 2>../recover.err &&
			{ find .git -name "*.lock"; find .git/objects/pack -name "*.keep"; } >../left &&
			test_must_be_empty ../left &&
			git fsck --full --no-dangling --no-progress 2>../fsck.err &&
			test_must_be_empty ../fsck.err &&
			if git rev-parse -q --verify refs/heads/s >/dev/null
			then
				git notes --ref=ai-apply show s >/dev/null
			else
				! git rev-parse -q --verify refs/notes/ai-apply >/dev/null
			fi
		)
	'
done

test_done
