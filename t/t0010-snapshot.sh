#!/bin/sh

test_description='t/lib/snapshot.sh: repo_unchanged sees every kind of change

test_rejected relies on it; each change below must make it fail.'

. "$(dirname "$0")/test-lib.sh"

test_expect_success 'setup' '
	make_repo repo &&
	(
		cd repo &&
		printf "#!/bin/sh\n" >run.sh &&
		ln -s a.txt link &&
		git add . &&
		git commit -q -m more &&
		git tag base &&
		git pack-refs --all --prune &&
		git branch side
	)
'

# changed NAME COMMAND: a snapshot of a fresh copy, COMMAND run in it,
# then repo_unchanged must fail; and it must pass without the change.
changed () {
	rm -rf work && cp -R repo work &&
	(
		cd work &&
		repo_snapshot "$1" &&
		repo_unchanged "$1" &&
		eval "$2" &&
		! repo_unchanged "$1" >/dev/null
	)
}

test_expect_success 'an unchanged repository passes' '
	rm -rf work && cp -R repo work &&
	(cd work && repo_snapshot same && git rev-parse HEAD >/dev/null &&
	 repo_unchanged same)
'

test_expect_success 'the index' '
	changed index "git update-index --chmod=+x a.txt"
'

test_expect_success 'an index.lock' '
	changed lock ": >.git/index.lock"
'

test_expect_success 'HEAD' '
	changed head "git symbolic-ref HEAD refs/heads/side"
'

test_expect_success 'a loose ref' '
	changed ref "git update-ref --no-deref refs/heads/side HEAD^"
'

test_expect_success 'a reflog only' '
	changed reflog "echo extra >>.git/logs/HEAD"
'

test_expect_success 'packed-refs' '
	changed packed "echo \"# x\" >>.git/packed-refs"
'

test_expect_success 'a new object' '
	changed object "echo new | git hash-object -w --stdin >/dev/null"
'

test_expect_success 'a work-tree file'"'"'s content' '
	changed content "echo x >>dir/b.txt"
'

test_expect_success 'a work-tree file'"'"'s mode' '
	changed mode "chmod +x a.txt"
'

test_expect_success 'a directory'"'"'s mode' '
	changed dirmode "chmod 700 dir"
'

test_expect_success 'a link'"'"'s target' '
	changed link "ln -sfn dir/b.txt link"
'

test_expect_success 'a link replaced by its target'"'"'s copy' '
	changed linkfile "rm link && cp a.txt link"
'

test_expect_success 'a new empty file and a new empty directory' '
	changed newfile ": >new.txt" &&
	changed newdir "mkdir empty"
'

test_expect_success 'a file with a space in its name' '
	changed space "echo x >\"dir/with space\""
'

test_expect_success 'a deleted file' '
	changed deleted "rm dir/b.txt"
'

test_done
