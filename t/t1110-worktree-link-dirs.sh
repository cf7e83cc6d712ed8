#!/bin/sh

test_description='directory operations at or beyond a symbolic link of the work tree'

. "$(dirname "$0")/test-lib.sh"

# A tracked directory sub/ (and top/sub/) replaced in the work tree by a
# link to a directory outside the repository, holding the same files.
test_expect_success 'setup' '
	make_repo repo &&
	(
		cd repo &&
		mkdir -p sub top/sub &&
		echo b >sub/b.txt &&
		echo c >sub/c.txt &&
		echo d >top/sub/d.txt &&
		echo e >top/e.txt &&
		git add . &&
		git commit -q -m dirs &&
		git tag base
	) &&
	outside="$SHARNESS_TRASH_DIRECTORY/outside" &&
	mkdir -p "$outside/sub" "$outside/topsub" &&
	mv repo/sub/* "$outside/sub/" && rmdir repo/sub &&
	mv repo/top/sub/* "$outside/topsub/" && rmdir repo/top/sub &&
	ln -s "$outside/sub" repo/sub &&
	ln -s "$outside/topsub" repo/top/sub &&
	(cd "$outside" && find . -type f | sort | xargs cat) >outside.before &&
	cat >del.md <<-\EOF &&
	<FILE_CHANGES>
	<FILE_DELETE file_path="sub" />
	</FILE_CHANGES>
	EOF
	cat >ren.md <<-\EOF &&
	<FILE_CHANGES>
	<FILE_RENAME from_path="sub" to_path="moved" />
	</FILE_CHANGES>
	EOF
	cat >deltop.md <<-\EOF &&
	<FILE_CHANGES>
	<FILE_DELETE file_path="top" />
	</FILE_CHANGES>
	EOF
	cat >rentop.md <<-\EOF &&
	<FILE_CHANGES>
	<FILE_RENAME from_path="top" to_path="newtop" />
	</FILE_CHANGES>
	EOF
	cat >delfile.md <<-\EOF
	<FILE_CHANGES>
	<FILE_DELETE file_path="sub/b.txt" />
	</FILE_CHANGES>
	EOF
'

outside_unchanged () {
	(cd "$SHARNESS_TRASH_DIRECTORY/outside" && find . -type f | sort | xargs cat) >outside.after &&
	test_cmp outside.before outside.after
}

test_expect_success 'a file beyond the link is refused (the reference message)' '
	(
		cd repo &&
		test_rejected ../delfile.md &&
		test_grep "sub/b.txt: .*beyond a symbolic link in the work tree (sub)" err
	)
'

for answer in del ren deltop rentop
do
	for mode in "" --cached --check
	do
		test_expect_success "directory ${answer%top} ($answer.md) through a work-tree link is refused: ${mode:-default}" '
			(
				cd repo &&
				test_rejected $mode ../$answer.md &&
				test_grep "beyond a symbolic link in the work tree" err &&
				! test_grep "Not a directory" err
			) &&
			outside_unchanged
		'
	done
done

test_expect_success '--branch never looks at the work tree: the tree has directories there' '
	(
		cd repo &&
		git ai-apply --branch=ai/del ../del.md &&
		test_must_fail git cat-file -e ai/del:sub &&
		git cat-file -e ai/del:top/sub/d.txt &&
		git ai-apply --branch=ai/ren ../rentop.md &&
		git cat-file -e ai/ren:newtop/sub/d.txt &&
		test_must_fail git cat-file -e ai/ren:top
	) &&
	outside_unchanged
'

test_done
