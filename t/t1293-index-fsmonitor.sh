#!/bin/sh

test_description='the fsmonitor data (FSMN) kept as git keeps it through a landing: dropped when core.fsmonitor is off, the hook asked as git asks it (protocol 2, then 1), a bit for each entry not known clean at its new position; byte for byte what git apply --cached writes, and in the default mode what git apply --index writes (stat data of the written files aside)'

. "$(dirname "$0")/test-lib.sh"

. "$AA_TEST_DIR/lib/index-compare.sh"

# The hook: protocol 2 answers the token in $TRASH/token and the paths
# in $TRASH/answer (a file, a directory with its trailing slash, an
# untracked file); each call is logged.
test_expect_success 'setup' '
	index_compare_setup &&
	echo one >token &&
	printf "a/f0\0e/\0b/d/nested/deep/u3\0" >answer &&
	cat >hook <<-EOF &&
	#!/bin/sh
	echo "\$*" >>"$PWD/hook.log"
	if test "\$1" = 2
	then
		printf "%s\0" "\$(cat "$PWD/token")"
	fi
	cat "$PWD/answer"
	EOF
	chmod +x hook &&
	(
		cd repo &&
		git config core.fsmonitor "\"$PWD/../hook\"" &&
		git status >/dev/null &&
		grep -q FSMN .git/index &&
		git config --unset core.fsmonitor
	) &&
	echo two >token
'

has_fsmn () {
	test -f "$1" && grep -q "^FSMN" "$1"
}

no_fsmn () {
	test -f "$1" && ! grep -q "^FSMN" "$1"
}

# (the path quoted for the shell git runs the hook with: the trash
# directory's name has a space)
HOOK="git config core.fsmonitor '\"$PWD/hook\"'"
NOHOOK="git config core.fsmonitor '\"$PWD/no-such-hook\"'"
HOOK12="git config core.fsmonitor '\"$PWD/hook12\"'"

test_expect_success 'core.fsmonitor unset: dropped, as git drops it' '
	land unset --cached ":" && same unset && no_fsmn unset.ai.dump &&
	land unseti --index ":" && same_but_stat unseti && no_fsmn unseti.ai.dump
'

test_expect_success 'core.fsmonitor=false: dropped' '
	land false --cached "git config core.fsmonitor false" &&
	same false && no_fsmn false.ai.dump
'

test_expect_success 'a hook: asked with the old token, its token and paths as git takes them (--cached)' '
	: >hook.log &&
	land hook --cached "$HOOK" && same hook && has_fsmn hook.ai.dump &&
	grep "^FSMN 2 token two " hook.ai.dump &&
	test_grep "^2 one$" hook.log
'

test_expect_success 'a hook: the default mode (the written files clean)' '
	land hooki --index "$HOOK" && same_but_stat hooki && has_fsmn hooki.ai.dump
'

test_expect_success 'a hook and the untracked cache: the paths it names invalidated too' '
	setup="$HOOK && git update-index --untracked-cache &&
		git -c core.fsmonitor= status >/dev/null" &&
	land hookuntr --cached "$setup" && same hookuntr &&
	has_fsmn hookuntr.ai.dump && grep -q "^UNTR" hookuntr.ai.dump &&
	land hookuntri --index "$setup" && same_but_stat hookuntri
'

test_expect_success 'v4 and v3 indexes with a hook' '
	land hook4 --cached "$HOOK && git update-index --index-version 4" &&
	same hook4 && grep "^version 4" hook4.ai.dump &&
	land hook3 --cached "$HOOK && echo ita >b/c/ita && git add -N b/c/ita &&
		git update-index --skip-worktree e/f0" &&
	same hook3 && grep "^version 3" hook3.ai.dump
'

test_expect_success 'core.fsmonitorHookVersion=2' '
	land hookv2 --cached "$HOOK && git config core.fsmonitorHookVersion 2" &&
	same hookv2
'

test_expect_success 'a hook that answers "/" (it knows nothing): every entry dirty' '
	printf / >answer.trivial &&
	cp answer answer.saved && cp answer.trivial answer &&
	land trivial --cached "$HOOK" &&
	cp answer.saved answer &&
	same trivial && has_fsmn trivial.ai.dump
'

test_expect_success 'no fsmonitor data yet: git adds it (every entry dirty, the hook asked)' '
	land added --cached "$HOOK && git update-index --no-fsmonitor" &&
	same added && has_fsmn added.ai.dump &&
	land addedi --index "$HOOK && git update-index --no-fsmonitor" &&
	same_but_stat addedi
'

test_expect_success 'no fsmonitor data yet, an untracked cache of another work tree: replaced, as git replaces it' '
	rm -rf other && cp -pR repo other &&
	(cd other && git update-index --untracked-cache && git status >/dev/null) &&
	land addeduntr --cached "cp ../other/.git/index .git/index && $HOOK" &&
	same addeduntr && grep -q "^UNTR" addeduntr.ai.dump
'

# no_token NAME: the dumps without the FSMN token (a time in nanoseconds
# where git makes one).
no_token () {
	for who in git ai; do
		dump "$1.$who/.git/index" --no-stat |
		sed "s/^FSMN 2 token [0-9]* /FSMN 2 token TIME /" >"$1.$who.notoken" || return 1
	done &&
	test_cmp "$1.git.notoken" "$1.ai.notoken"
}

test_expect_success 'core.fsmonitorHookVersion=1: the token is the time, the rest as git' '
	land hookv1 --cached "$HOOK && git config core.fsmonitorHookVersion 1" &&
	no_token hookv1 && grep "^FSMN 2 token TIME " hookv1.ai.notoken
'

test_expect_success 'a hook that fails: every entry dirty, as git' '
	land failing --cached "$NOHOOK" 2>/dev/null &&
	no_token failing
'

test_expect_success 'a hook that fails protocol 2: asked again with 1, both answers read, as git' '
	cat >hook12 <<-EOF &&
	#!/bin/sh
	if test "\$1" = 2
	then
		printf "junk\\0a/f0\\0"
		exit 1
	fi
	printf "e/f0\\0"
	EOF
	chmod +x hook12 &&
	land hook12 --cached "$HOOK12" &&
	no_token hook12 &&
	grep "^FSMN" hook12.ai.notoken >fsmn.12 &&
	grep "^FSMN" hookv1.ai.notoken >fsmn.1 &&
	! test_cmp fsmn.1 fsmn.12 >/dev/null
'

test_expect_success 'core.fsmonitor=true (the built-in daemon, not running): what git does without its answer' '
	land daemon --cached "git config core.fsmonitor true" &&
	same daemon && grep "^FSMN 2 token builtin:fake " daemon.ai.dump
'

# damage_fsmn: the bitmap size in the fsmonitor data made larger than
# the extension: git keeps the token, every entry dirty.
damage_fsmn () {
	perl -e '
		open(my $f, "+<:raw", ".git/index") or die;
		local $/; my $d = <$f>;
		my $at = index($d, "FSMN", 12) + 8;
		my $nul = index($d, "\0", $at + 4);
		seek($f, $nul + 1, 0); print $f pack("N", 100000); close $f;
	'
}

test_expect_success 'damaged fsmonitor data: the token kept, every entry dirty, as git' '
	land damaged --cached "$HOOK && damage_fsmn" 2>/dev/null &&
	same damaged && grep "^FSMN 2 token one " damaged.ai.dump
'

test_done
