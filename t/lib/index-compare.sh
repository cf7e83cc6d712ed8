# Comparing the index git ai-apply writes with the one git apply writes
# for the same change from the same state (t1292, t1293). The caller
# has a repository "repo" and a change "change.diff".

# A work tree with tracked files in nested directories and untracked
# files in several of them (one a whole untracked directory), every file
# a minute old so that no entry is racily clean. core.checkStat=minimal
# and core.trustctime=false let a copy (cp -pR: same mtimes, other
# inodes and ctimes) stay clean for git apply --index.
#
# The change: an edit in a directory with an untracked file, a new file
# in a new directory, a deletion in a nested directory, a rename into an
# untracked directory, an edit at the top.
index_compare_setup () {
	git init -q repo &&
	(
		cd repo &&
		git config core.checkStat minimal &&
		git config core.trustctime false &&
		for d in a b/c b/d e e/f/g; do
			mkdir -p $d &&
			for i in 0 1 2; do
				echo "$d $i" >$d/f$i || return 1
			done || return 1
		done &&
		echo top >top &&
		git add . && git commit -q -m initial &&
		echo u >a/u1 && echo u >b/c/u2 && echo u >e/f/u4 && echo u >top.u &&
		mkdir -p b/d/nested/deep && echo u >b/d/nested/deep/u3 &&
		find . -path ./.git -prune -o -type f -exec touch -d "@$(($(date +%s) - 60))" {} + &&
		git update-index -q --refresh
	) &&
	cat >change.diff <<-\EOF
	diff --git a/a/f1 b/a/f1
	--- a/a/f1
	+++ b/a/f1
	@@ -1 +1 @@
	-a 1
	+A
	diff --git a/new/dir/x b/new/dir/x
	new file mode 100644
	--- /dev/null
	+++ b/new/dir/x
	@@ -0,0 +1 @@
	+x
	diff --git a/e/f/g/f0 b/e/f/g/f0
	deleted file mode 100644
	--- a/e/f/g/f0
	+++ /dev/null
	@@ -1 +0,0 @@
	-e/f/g 0
	diff --git a/b/c/f2 b/b/d/nested/f2
	similarity index 100%
	rename from b/c/f2
	rename to b/d/nested/f2
	diff --git a/top b/top
	--- a/top
	+++ b/top
	@@ -1 +1 @@
	-top
	+TOP
	EOF
}

dump () {
	perl "$AA_TEST_DIR/lib/index-dump.pl" "$@"
}

# land NAME MODE SETUP: SETUP run in a copy of repo, saved; then the
# change landed from that state by git apply (MODE --cached or --index)
# and by git ai-apply (--cached or the default mode), each in a work tree
# at the same path "w" (the untracked cache names its work tree), leaving
# NAME.git and NAME.ai with their indexes, status and fsck results.
land () {
	rm -rf w "$1.saved" "$1.git" "$1.ai" &&
	cp -pR repo w &&
	(cd w && eval "$3") &&
	mv w "$1.saved" &&
	for who in git ai; do
		cp -pR "$1.saved" w &&
		(
			cd w &&
			if test $who = git
			then
				git apply $2 ../change.diff
			elif test $2 = --cached
			then
				git ai-apply -q --cached ../change.diff
			else
				git ai-apply -q ../change.diff
			fi &&
			git -c core.fsmonitor=false fsck 2>../fsck.err &&
			test_must_be_empty ../fsck.err &&
			git --no-optional-locks status --porcelain >../$1.$who.status &&
			git -c core.untrackedCache=false --no-optional-locks \
				status --porcelain >../$1.$who.status-nocache &&
			test_cmp ../$1.$who.status-nocache ../$1.$who.status
		) &&
		mv w "$1.$who" || return 1
	done &&
	test_cmp "$1.git.status" "$1.ai.status"
}

# same NAME: the two indexes equal byte for byte (and dumped, as below).
same () {
	cmp "$1.git/.git/index" "$1.ai/.git/index" &&
	dump "$1.ai/.git/index" --no-stat >"$1.ai.dump"
}

# same_but_stat NAME: equal but for the ctime, mtime, dev and ino of
# each entry (the default mode writes the files at other instants);
# every extension byte for byte.
same_but_stat () {
	dump "$1.git/.git/index" --no-stat >"$1.git.dump" &&
	dump "$1.ai/.git/index" --no-stat >"$1.ai.dump" &&
	test_cmp "$1.git.dump" "$1.ai.dump"
}
