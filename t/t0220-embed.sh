#!/bin/sh

test_description='a program embedding the library builds against what make install installed, and nothing else

make install puts libaiapply.a, aiapply.h with aiapply/*.h and aiapply.pc
under the prefix; a small C program compiled with pkg-config --cflags
--libs aiapply alone (no -Isrc, no -Iinclude of the source tree) calls
aa_apply on a repository and prints the result.'

. "$(dirname "$0")/test-lib.sh"

top=$(cd "$AA_TEST_DIR/.." && pwd)
command -v make >/dev/null 2>&1 && test -f "$top/Makefile" &&
	command -v pkg-config >/dev/null 2>&1 && test_set_prereq MAKE

# The prefix: outside the trash directory, whose name has a space that
# neither make nor pkg-config's output would keep.
prefix="$AA_BUILD_DIR/trash/t0220-embed.prefix"
CC=${CC:-cc}

# make_lib TARGET: make TARGET of the build under test (NO_BUILD: nothing
# is rebuilt) with the prefix above.
make_lib () {
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -C "$top" \
		--no-print-directory B="$AA_BUILD_DIR" NO_BUILD=1 NO_MAN=1 \
		prefix="$prefix" "$@"
}

test_expect_success 'setup' '
	make_repo repo &&
	cat >change.diff <<-\EOF &&
	--- a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
	cat >bad.diff <<-\EOF &&
	--- "a/a.txt
	+++ b/a.txt
	@@ -1,3 +1,3 @@
	 one
	-two
	+TWO
	 three
	EOF
	cat >embed.c <<-\EOF
	/*
	 * embed ANSWER [BRANCH]: checks an answer, as git ai-apply --check
	 * would, or lands it on BRANCH, through the library.
	 */
	#include <stdio.h>
	#include <string.h>
	#include <aiapply.h>

	static void print_diags(const aa_diags *d)
	{
		size_t i;

		for (i = 0; i < d->n; i++) {
			aa_buf line = AA_BUF_INIT;

			if (aa_diag_format(&d->v[i], &line) == 0 && line.ptr)
				printf("diag %s\n", line.ptr);
			aa_buf_free(&line);
		}
	}

	int main(int argc, char **argv)
	{
		static const char *const names[] = {
			"applied", "checked", "already-applied", "rejected",
			"fatal", "conflicted"
		};
		git_repository *repo;
		aa_diags d = AA_DIAGS_INIT;
		aa_apply_opts o;
		aa_apply_result *res;
		aa_report_opts report;
		aa_outcome outcome;
		size_t i;
		int code;

		if (argc != 2 && argc != 3)
			return 2;
		git_libgit2_init();
		memset(&o, 0, sizeof(o));
		o.land.mode = argc == 3 ? AA_LAND_BRANCH : AA_LAND_CHECK;
		o.land.branch = argc == 3 ? argv[2] : NULL;
		if (aa_apply_open_repository(&repo, o.land.mode, &d) != AA_OK) {
			print_diags(&d);
			aa_diags_free(&d);
			return 128;
		}
		o.files = (const char *const *)&argv[1];
		o.nfiles = 1;
		outcome = aa_apply(repo, &o, &res);
		printf("outcome %s\n", names[outcome]);
		for (i = 0; i < aa_apply_result_nfiles(res); i++)
			printf("file %s\n", aa_apply_result_file(res, i));
		print_diags(aa_apply_result_diags(res));
		if (aa_apply_result_commit(res)) {
			char hex[GIT_OID_HEXSZ + 1];

			git_oid_tostr(hex, sizeof(hex), aa_apply_result_commit(res));
			printf("commit %s\n", hex);
		}
		memset(&report, 0, sizeof(report));
		report.mode = "check";
		aa_report_result(stdout, res, &report);
		code = aa_apply_exit_code(aa_apply_result_outcome(res));
		aa_apply_result_free(res);
		git_repository_free(repo);
		git_libgit2_shutdown();
		return code;
	}
	EOF
'

test_expect_success MAKE 'make install puts the library, its headers and aiapply.pc under the prefix' '
	rm -rf "$prefix" &&
	make_lib install >out 2>&1 &&
	test_path_is_file "$prefix/lib/libaiapply.a" &&
	test_cmp "$AA_BUILD_DIR/libaiapply.a" "$prefix/lib/libaiapply.a" &&
	test_path_is_file "$prefix/lib/pkgconfig/aiapply.pc" &&
	test_cmp "$top/include/aiapply.h" "$prefix/include/aiapply.h" &&
	(cd "$top/include/aiapply" && ls) >expect &&
	(cd "$prefix/include/aiapply" && ls) >actual &&
	test_cmp expect actual
'

pc () {
	PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config "$@"
}

test_expect_success MAKE 'pkg-config knows it: the installed include directory, the library' '
	pc --exists aiapply &&
	pc --cflags aiapply >cflags &&
	test_grep -e "-I$prefix/include" cflags &&
	! grep -e "-I$top/src" -e "-I$top/include" cflags &&
	pc --libs aiapply >libs &&
	test_grep -e "-L$prefix/lib -laiapply" libs
'

test_expect_success MAKE 'every installed header compiles alone: none reaches into src/' '
	for h in aiapply.h $(cd "$prefix/include" && ls aiapply/*.h)
	do
		echo "#include <$h>" >one.c &&
		$CC -std=c11 -Wall -Wextra -Werror -fsyntax-only \
			$(pc --cflags aiapply) one.c 2>err &&
		test_must_be_empty err || { echo "$h"; cat err; return 1; }
	done &&
	! grep -h "#include \"" "$prefix/include/aiapply.h" \
		"$prefix/include"/aiapply/*.h | grep -v "\"aiapply/"
'

test_expect_success MAKE 'a program builds against the installed library only' '
	$CC -std=c11 -Wall -Wextra -Werror -o embed embed.c \
		$(pc --cflags --libs aiapply) 2>err &&
	test_must_be_empty err
'

test_expect_success MAKE 'it checks an answer through aa_apply: nothing written' '
	(
		cd repo &&
		repo_snapshot embed &&
		../embed ../change.diff >../out &&
		repo_unchanged embed
	) &&
	cat >expect <<-\EOF &&
	outcome checked
	file a.txt
	M a.txt (+1 -1)
	EOF
	test_cmp expect out
'

test_expect_success MAKE 'it lands an answer on a branch: the commit it made, HEAD and index untouched' '
	rm -rf branch && cp -R repo branch &&
	(
		cd branch &&
		git rev-parse HEAD >../head.before &&
		git write-tree >../tree.before &&
		../embed ../change.diff ai/embed >../out &&
		git rev-parse HEAD >../head.after &&
		git write-tree >../tree.after &&
		echo "commit $(git rev-parse ai/embed)" >../expect.commit &&
		git show ai/embed:a.txt >../a.txt.landed
	) &&
	test_cmp head.before head.after &&
	test_cmp tree.before tree.after &&
	test_grep "^outcome applied" out &&
	grep "^commit " out >commit &&
	test_cmp expect.commit commit &&
	printf "one\nTWO\nthree\n" >expect &&
	test_cmp expect a.txt.landed
'

test_expect_success MAKE 'a malformed answer: rejected, exit 1, the message names the line' '
	(
		cd repo &&
		repo_snapshot embed-bad &&
		test_expect_code 1 ../embed ../bad.diff >../out &&
		repo_unchanged embed-bad
	) &&
	cat >expect <<-\EOF &&
	outcome rejected
	diag error: ../bad.diff:1: malformed quoted file name
	EOF
	test_cmp expect out
'

test_expect_success MAKE 'an input that cannot be read: fatal, exit 128' '
	(
		cd repo &&
		test_expect_code 128 ../embed ../no-such.diff >../out
	) &&
	test_grep "^outcome fatal" out &&
	test_grep "^diag error: cannot open .../no-such.diff." out
'

test_expect_success MAKE 'make uninstall removes every file it installed' '
	make_lib uninstall >out 2>&1 &&
	find "$prefix" -type f >left &&
	test_must_be_empty left &&
	test_path_is_missing "$prefix/include/aiapply" &&
	rm -rf "$prefix"
'

test_done
