#!/bin/sh

test_description='new objects: written whole and durable, an error when they cannot be, and no temporary object file left behind'

. "$(dirname "$0")/test-lib.sh"

# strace -e inject makes one system call fail on demand (LeakSanitizer
# cannot run under ptrace: the sanitizer builds skip leak checks there).
if command -v strace >/dev/null 2>&1 &&
	strace -f -o /dev/null -e inject=unlink:error=EIO true 2>/dev/null
then
	test_set_prereq STRACE
fi

# temps_left: every temporary object file under .git/objects (libgit2's
# tmp_object_git2_*, git's and ours tmp_obj_*), one per line.
temps_left () {
	find .git/objects -name "tmp_*" -print &&
	{ test ! -d .git/ai-apply || find .git/ai-apply -name "tmp_*" -print; }
}

# state: index tree, work tree, branches, leftovers.
state () {
	echo "tree $(git write-tree)" &&
	git diff --name-status &&
	git ls-files --others &&
	git for-each-ref --format="%(refname) %(objectname)" refs/heads &&
	temps_left &&
	{ test ! -e .git/index.lock || echo "index.lock left"; } &&
	{ test ! -e .git/ai-apply/journal || echo "journal left"; }
}

# injected SYSCALL N ARGS...: git-ai-apply ARGS with the N-th SYSCALL
# failing with EIO; $code is its exit status.
injected () {
	call=$1 n=$2 && shift 2 &&
	code=0 &&
	env ASAN_OPTIONS=detect_leaks=0 strace -f -o /dev/null \
		-e inject=$call:error=EIO:when=$n \
		git-ai-apply "$@" >../out 2>../err || code=$?
}

# landed_or_refused: exit 0 with every new object whole on disk, or exit
# 128 with a message; never a temporary object file.
landed_or_refused () {
	temps_left >../temps &&
	test_must_be_empty ../temps &&
	case $code in
	0)
		git cat-file -e $new_a && git cat-file -e $new_n ;;
	128)
		test_grep "error: " ../err ;;
	*)
		echo "exit $code" && cat ../err && false ;;
	esac &&
	git fsck --no-dangling 2>../fsck.err &&
	test_must_be_empty ../fsck.err
}

# core.fsync=all: every object file fsynced (git's default fsyncs no
# loose object), so that the fsync sweep below has calls to fail.
test_expect_success 'setup: a change that makes two new blobs' '
	make_repo repo &&
	(cd repo && git tag base && git config core.fsync all) &&
	cat >change.diff <<-\EOF &&
	diff --git a/a.txt b/a.txt
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	diff --git a/n.txt b/n.txt
	new file mode 100644
	--- /dev/null
	+++ b/n.txt
	@@ -0,0 +1 @@
	+brand new
	EOF
	new_a=$(printf "one\nTWO\nthree\n" | git hash-object --stdin) &&
	new_n=$(printf "brand new\n" | git hash-object --stdin) &&
	(cd repo && state >../state.old)
'

test_expect_success 'the new objects are loose objects git reads, and no temp is left' '
	fresh ok &&
	(
		cd ok &&
		git ai-apply ../change.diff &&
		test "$(git cat-file -t $new_a)" = blob &&
		printf "brand new\n" >expect &&
		git cat-file blob $new_n >actual &&
		test_cmp expect actual &&
		rm expect actual &&
		temps_left >../temps &&
		git fsck --no-dangling
	) &&
	test_must_be_empty temps
'

# object_calls CALL ARGS...: into "calls", the numbers N (for strace's
# inject when=N) of the CALLs a plain run of git-ai-apply ARGS makes on
# a file or directory under .git/objects (strace -y names an fd's file).
object_calls () {
	call=$1 && shift &&
	fresh probe &&
	(
		cd probe &&
		env ASAN_OPTIONS=detect_leaks=0 strace -f -y -o ../calls.trace \
			-e trace=$call git-ai-apply "$@" >/dev/null
	) &&
	awk -v call="$call" '
		$2 ~ "^" call "\\(" { n++; if (index($0, "/.git/objects/")) print n }
	' calls.trace >calls
}

# sweep CALL ARGS...: each CALL on an object file failing in turn
sweep () {
	call=$1 && shift &&
	for n in $(cat calls)
	do
		fresh inj &&
		(
			cd inj &&
			injected $call $n "$@" &&
			landed_or_refused &&
			state >../state.now &&
			if test $code = 0
			then
				! cmp -s ../state.old ../state.now
			else
				test_cmp ../state.old ../state.now
			fi
		) || { echo "failed at $call #$n"; return 1; }
	done
}

for call in unlink rename link write fsync close
do
	test_expect_success STRACE "each $call on an object file failing in turn: landed or refused, no temporary left" '
		object_calls $call ../change.diff &&
		case $call in
		write|fsync|close|rename) test -s calls ;;
		esac &&
		sweep $call ../change.diff
	'

	test_expect_success STRACE "the same with --branch ($call)" '
		object_calls $call --branch=ai/x ../change.diff &&
		case $call in
		write|fsync|close|rename) test -s calls ;;
		esac &&
		sweep $call --branch=ai/x ../change.diff
	'
done

test_expect_success STRACE 'core.fsyncMethod=batch: each write-out, flush and rename of an object file failing in turn' '
	git -C repo config core.fsyncMethod batch &&
	test_when_finished "git -C repo config --unset core.fsyncMethod" &&
	for call in sync_file_range fsync rename
	do
		object_calls $call ../change.diff &&
		test -s calls &&
		sweep $call ../change.diff || return 1
	done
'

test_expect_success STRACE 'an object that cannot be renamed into place: exit 128 naming it, nothing landed' '
	object_calls rename ../change.diff &&
	first=$(head -n 1 calls) &&
	fresh mv &&
	(
		cd mv &&
		injected rename $first ../change.diff &&
		test $code = 128 &&
		state >../state.now
	) &&
	test_grep -E "cannot write object ($new_a|$new_n): rename to .*/\.git/objects/../[0-9a-f]{38}\"?: Input/output error" err &&
	test_cmp state.old state.now
'

test_expect_success STRACE 'the same with --branch (its kept pack): no branch, no temporary' '
	object_calls rename --branch=ai/x ../change.diff &&
	first=$(head -n 1 calls) &&
	fresh mvb &&
	(
		cd mvb &&
		injected rename $first --branch=ai/x ../change.diff &&
		test $code = 128 &&
		state >../state.now
	) &&
	test_grep -E "cannot rename .*/\.git/ai-apply/tmp_pack_[^ ]*: Input/output error" err &&
	test_cmp state.old state.now
'

test_expect_success STRACE 'a temporary that cannot be removed either is named in the message' '
	object_calls rename --branch=ai/x ../change.diff &&
	first=$(head -n 1 calls) &&
	fresh mvu &&
	(
		cd mvu &&
		test_expect_code 128 env ASAN_OPTIONS=detect_leaks=0 strace -f -o /dev/null \
			-e inject=rename:error=EIO:when=$first -e inject=unlink:error=EPERM \
			git-ai-apply --branch=ai/x ../change.diff 2>../err &&
		temps_left >../temps &&
		test_must_fail git rev-parse --verify -q ai/x
	) &&
	test -s temps &&
	for t in $(sed "s|^.git/[a-z-]*/||" temps)
	do
		test_grep "its temporary file .*$t\"\? is left and could not be removed: Operation not permitted" err || return 1
	done
'

test_expect_success STRACE 'the same for a loose object (default mode): its one temporary named' '
	object_calls rename ../change.diff &&
	first=$(head -n 1 calls) &&
	fresh mvl &&
	(
		cd mvl &&
		test_expect_code 128 env ASAN_OPTIONS=detect_leaks=0 strace -f -o /dev/null \
			-e inject=rename:error=EIO:when=$first -e inject=unlink:error=EPERM \
			git-ai-apply ../change.diff 2>../err &&
		temps_left >../temps
	) &&
	test "$(wc -l <temps)" = 1 &&
	test_grep "its temporary file .*$(cat temps | sed "s|^.git/objects/||")\"\? is left and could not be removed: Operation not permitted" err
'

test_done
