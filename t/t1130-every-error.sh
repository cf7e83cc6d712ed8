#!/bin/sh

test_description='every failing operation in one run, follow-ons said once, errors capped, read errors named'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	make_repo repo &&
	for i in $(seq 1 60)
	do
		echo "--- DELETE-FILE: missing$i.txt ---" || return 1
	done >sixty.md
'

test_expect_success 'every independent failure is reported, a follow-on once' '
	cat >answer.md <<-\EOF &&
	--- START-FILE: a.txt/x ---
	x
	--- END-FILE: a.txt/x ---
	--- START-REPLACE-FILE: a.txt/x ---
	y
	--- END-REPLACE-FILE: a.txt/x ---
	--- DELETE-FILE: a.txt/x ---
	--- DELETE-FILE: missing.txt ---
	--- START-REPLACE-FILE: dir/b.txt ---
	fine
	--- END-REPLACE-FILE: dir/b.txt ---
	--- START-REPLACE-FILE: gone.txt ---
	z
	--- END-REPLACE-FILE: gone.txt ---
	EOF
	(
		cd repo &&
		test_rejected ../answer.md &&
		grep "^error: " err >../errors &&
		test $(wc -l <../errors) = 3 &&
		test_grep "error: a.txt/x: .*answer.md:1: a.txt is a file" err &&
		test_grep "error: missing.txt: .*answer.md:8: " err &&
		test_grep "error: gone.txt: .*answer.md:12: " err &&
		# (the same path written whole twice also notes the alternatives)
		grep "^note: " err | grep -v "alternative" >../notes &&
		test $(wc -l <../notes) = 1 &&
		test_grep "note: a.txt/x: .*answer.md:4: not checked: it depends on a.txt/x, which the failed operation at .*answer.md:1" err
	)
'

test_expect_success 'the human output shows 50 errors, then how many more' '
	(
		cd repo &&
		test_rejected ../sixty.md &&
		grep "^error: missing" err >../shown &&
		test $(wc -l <../shown) = 50 &&
		test_grep "error: missing50.txt" err &&
		! test_grep "missing51.txt" err &&
		test_grep "^error: ... and 10 more errors (--json lists them all)" err
	)
'

test_expect_success '--json keeps every error' '
	(
		cd repo &&
		test_expect_code 1 git ai-apply --json ../sixty.md >../report.json 2>/dev/null
	) &&
	jq ".errors | length" report.json >count &&
	echo 60 >expect &&
	test_cmp expect count
'

if strace -o /dev/null -e inject=read:error=EIO:when=60000 true 2>/dev/null
then
	test_set_prereq STRACE_INJECT
fi

test_expect_success STRACE_INJECT 'an I/O error reading a blob is fatal and named, not "not found"' '
	printf -- "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n" >edit.diff &&
	(
		cd repo &&
		obj=$(git rev-parse --git-path objects)/$(git rev-parse HEAD:a.txt | sed "s|^..|&/|") &&
		test_path_is_file "$obj" &&
		# a clean index entry is read from the work tree, not the
		# object (locating.md, "Cost of locating"): racily clean, it is not
		touch -d "@$(($(date +%s) + 100))" a.txt &&
		git update-index -q --refresh &&
		repo_snapshot eio &&
		# LeakSanitizer cannot run under ptrace (sanitizer builds)
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		test_expect_code 128 strace -f -o /dev/null -P "$PWD/$obj" -e trace=read \
			-e inject=read:error=EIO git ai-apply ../edit.diff 2>../err.eio &&
		repo_unchanged eio
	) &&
	test_grep "error: a.txt: cannot read the object: .*Input/output error" err.eio &&
	! test_grep "not found" err.eio
'

test_done
