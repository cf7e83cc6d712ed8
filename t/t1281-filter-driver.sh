#!/bin/sh

test_description='filter drivers: the answer edits the smudged (work-tree) text, the index gets the cleaned blob, as git add would make it'

. "$(dirname "$0")/test-lib.sh"

# rot13 both ways: the index holds "uryyb", the work tree "hello"
rot13 () {
	tr a-zA-Z n-za-mN-ZA-M
}

edit_t () {
	printf -- "--- a/t.r\n+++ b/t.r\n@@ -1,2 +1,2 @@\n hello\n-world\n+there\n"
}

test_expect_success 'setup: a rot13 driver; each run of it logged outside the repository' '
	git init -q repo &&
	(
		cd repo &&
		git config filter.rot.clean "echo clean >>\"$SHARNESS_TRASH_DIRECTORY/calls\"; tr a-zA-Z n-za-mN-ZA-M" &&
		git config filter.rot.smudge "echo smudge >>\"$SHARNESS_TRASH_DIRECTORY/calls\"; tr a-zA-Z n-za-mN-ZA-M" &&
		echo "*.r filter=rot" >.gitattributes &&
		printf "hello\nworld\n" >t.r &&
		printf "plain\ntext\n" >p.txt &&
		git add . &&
		git commit -q -m initial &&
		git show :t.r >../stored
	) &&
	printf "hello\nworld\n" | rot13 >want && test_cmp want stored &&
	edit_t >edit.diff &&
	printf "hello\nthere\n" >edited &&
	rot13 <edited >edited.clean
'

test_expect_success 'a diff written against the work-tree text lands: cleaned blob, smudged work tree' '
	fresh r1 &&
	(
		cd r1 &&
		git ai-apply ../edit.diff &&
		git show :t.r >../got.index &&
		cp t.r ../got.wt &&
		git status --porcelain >../status
	) &&
	test_cmp edited.clean got.index &&
	test_cmp edited got.wt &&
	echo "M  t.r" >want && test_cmp want status
'

test_expect_success '--cached and --branch store the cleaned blob too' '
	fresh r2 &&
	(
		cd r2 &&
		git ai-apply --branch=fix ../edit.diff &&
		git show fix:t.r >../got.branch &&
		git ai-apply --cached ../edit.diff &&
		git show :t.r >../got.cached &&
		cp t.r ../got.wt
	) &&
	test_cmp edited.clean got.branch &&
	test_cmp edited.clean got.cached &&
	printf "hello\nworld\n" >want && test_cmp want got.wt
'

test_expect_success 'a whole file for a new filtered path: cleaned in the index, as written in the work tree' '
	fresh r3 &&
	printf "new.r\n\`\`\`\nfresh words\n\`\`\`\n" >new.md &&
	(
		cd r3 &&
		git ai-apply ../new.md &&
		git show :new.r >../got.index &&
		cp new.r ../got.wt &&
		git diff --exit-code
	) &&
	echo "fresh words" >want && test_cmp want got.wt &&
	rot13 <want >want.clean && test_cmp want.clean got.index
'

test_expect_success 'a work-tree file changed since: "has unstaged changes", nothing written' '
	fresh r4 &&
	(
		cd r4 &&
		echo more >>t.r &&
		test_rejected ../edit.diff
	) &&
	test_grep "t.r: has unstaged changes" r4/err
'

test_expect_success 'a file whose stat data the index still matches is clean, whatever its age' '
	fresh r5 &&
	(
		cd r5 &&
		test-tool chmtime -10 t.r 2>/dev/null || touch -d "1 hour ago" t.r &&
		git update-index --refresh &&
		git ai-apply ../edit.diff
	)
'

test_expect_success '--check runs smudge only (to read the base), never clean' '
	fresh r6 &&
	(
		cd r6 &&
		rm -f ../calls &&
		repo_snapshot check &&
		git ai-apply --check ../edit.diff &&
		repo_unchanged check &&
		! grep clean ../calls &&
		grep smudge ../calls
	)
'

test_expect_success 'a landing rejected by another path: .git/objects unchanged' '
	fresh r6b &&
	(
		cd r6b &&
		printf "x\n" >>p.txt &&
		printf -- "--- a/p.txt\n+++ b/p.txt\n@@ -1,2 +1,2 @@\n plain\n-text\n+TEXT\n" >../p.diff &&
		cat ../edit.diff ../p.diff >../both.diff &&
		test_rejected ../both.diff
	) &&
	test_grep "p.txt: has unstaged changes" r6b/err
'

test_expect_success 'paths without the attribute never run the driver' '
	fresh r7 &&
	(
		cd r7 &&
		rm -f ../calls &&
		printf -- "--- a/p.txt\n+++ b/p.txt\n@@ -1,2 +1,2 @@\n plain\n-text\n+TEXT\n" >../p.diff &&
		git ai-apply ../p.diff &&
		test_path_is_missing ../calls
	)
'

test_expect_success 'a clean filter that fails: exit 128, its reason, nothing written' '
	fresh r8 &&
	(
		cd r8 &&
		git update-index --refresh &&
		git config filter.rot.clean "echo broken driver >&2; exit 3" &&
		git config filter.rot.required true &&
		repo_snapshot broken &&
		test_expect_code 128 git ai-apply ../edit.diff 2>"$(snapshot_dir)/err" &&
		repo_unchanged broken &&
		cp "$(snapshot_dir)/err" ../err
	) &&
	test_grep "t.r: the clean filter failed" err
'

test_expect_success 'the library switch no_external_commands refuses a filtered path, saying why' '
	top=$(cd "$AA_TEST_DIR/.." && pwd) &&
	cat >embed.c <<-\EOF &&
	#include <stdio.h>
	#include <string.h>
	#include <aiapply.h>

	int main(int argc, char **argv)
	{
		git_repository *repo;
		aa_diags d = AA_DIAGS_INIT;
		aa_apply_opts o;
		aa_apply_result *res;
		const aa_diags *rd;
		size_t i;
		int code;

		(void)argc;
		git_libgit2_init();
		memset(&o, 0, sizeof(o));
		o.land.mode = AA_LAND_INDEX;
		o.land.no_external_commands = 1;
		if (aa_apply_open_repository(&repo, o.land.mode, &d) != AA_OK)
			return 128;
		o.files = (const char *const *)&argv[1];
		o.nfiles = 1;
		aa_apply(repo, &o, &res);
		rd = aa_apply_result_diags(res);
		for (i = 0; i < rd->n; i++) {
			aa_buf line = AA_BUF_INIT;

			if (aa_diag_format(&rd->v[i], &line) == 0 && line.ptr)
				printf("%s\n", line.ptr);
			aa_buf_free(&line);
		}
		code = aa_apply_exit_code(aa_apply_result_outcome(res));
		aa_apply_result_free(res);
		git_repository_free(repo);
		git_libgit2_shutdown();
		return code;
	}
	EOF
	flags=$(sed "s/^v2 //" "$AA_BUILD_DIR/build-flags") &&
	cc_flags=${flags%%|*} && libs=${flags##*|} &&
	here=$(pwd) &&
	(cd "$top" && $cc_flags -o "$here/embed" "$here/embed.c" \
		"$AA_BUILD_DIR/libaiapply.a" $libs) &&
	fresh r9 &&
	(
		cd r9 &&
		repo_snapshot off &&
		test_expect_code 128 ../embed ../edit.diff >../out &&
		repo_unchanged off &&
		../embed ../p.diff
	) &&
	test_grep "t.r: .*filter driver .rot.*no_external_commands" out
'

# A landing killed after its first work-tree path: --recover puts the
# filtered path back through the driver (smudged), as git checkout would.
for step in path rename
do
	test_expect_success "killed at $step: --recover smudges a filtered path through its driver" '
		fresh "kill-$step" &&
		(
			cd "kill-$step" &&
			test_expect_code 137 env AA_TEST_HOOK="$step:kill" \
				git ai-apply ../edit.diff &&
			git ai-apply --recover 2>../recover.err &&
			! grep "left alone" ../recover.err &&
			git show :t.r | tr a-zA-Z n-za-mN-ZA-M >../want.wt &&
			test_cmp ../want.wt t.r &&
			git status --porcelain >../status &&
			{ grep -v "^M  " ../status >../unstaged || :; } &&
			test_must_be_empty ../unstaged
		)
	'
done

test_expect_success '--3way conflict: stage 3 is the cleaned blob, as git merge-file writes' '
	git init -q r10 &&
	(
		cd r10 &&
		git config filter.red.clean "sed s/secret/REDACTED/" &&
		git config filter.red.smudge cat &&
		echo "*.s filter=red" >.gitattributes &&
		printf "hello\nworld\n" >t.s &&
		git add . && git commit -q -m initial &&
		printf "hello\nplanet\n" >t.s &&
		git commit -q -a -m planet &&
		printf -- "--- a/t.s\n+++ b/t.s\n@@ -1,2 +1,3 @@\n hello\n-world\n+there\n+secret\n" >../edit3.diff &&
		test_expect_code 1 git ai-apply --3way ../edit3.diff 2>../err.3way &&
		git show :1:t.s >../got.1 &&
		git show :2:t.s >../got.2 &&
		git show :3:t.s >../got.3 &&
		grep "^<<<<<<<" t.s
	) &&
	printf "hello\nworld\n" >want.1 && test_cmp want.1 got.1 &&
	printf "hello\nplanet\n" >want.2 && test_cmp want.2 got.2 &&
	printf "hello\nthere\nREDACTED\n" >want.3 && test_cmp want.3 got.3
'

test_done
