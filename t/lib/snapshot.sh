# Repository snapshots: prove that a rejected change set wrote nothing.
#
#   repo_snapshot NAME    record index, refs, objects and work tree
#   repo_unchanged NAME   fail (showing the difference) if any changed
#
# A snapshot costs a fixed number of processes, whatever the number of
# files: one find per area, and one "git hash-object --stdin-paths" for
# all the contents of an area.

# with_hashes LISTING: prints LISTING, where each "hash MODE PATH" line
# becomes "PATH file MODE HASH" (HASH: the bytes of PATH, unfiltered).
# Every path starts with "./" or the git dir, never with a quote, which
# --stdin-paths would unquote.
with_hashes () {
	sed -n 's/^hash [0-7]* //p' "$1" >"$1.paths" &&
	git hash-object --no-filters --stdin-paths <"$1.paths" >"$1.hashes" &&
	awk '
		FILENAME == ARGV[1] { hash[++n] = $0; next }
		/^hash / {
			mode = $2
			sub(/^hash [0-7]* /, "")
			print $0 " file " mode " " hash[++i]
			next
		}
		{ print }
	' "$1.hashes" "$1"
}

# git_dir_listing GITDIR: index, HEAD, refs, reflogs and objects.
git_dir_listing () {
	g=$1
	echo "# index"
	test -f "$g/index" || echo "(no index)"
	test -e "$g/index.lock" && echo "index.lock present"
	echo "# HEAD"
	cat "$g/HEAD"
	echo "# index, refs, logs, packed-refs"
	set --
	for p in index packed-refs refs logs
	do
		test -e "$g/$p" && set -- "$@" "$g/$p"
	done
	if test $# != 0
	then
		find "$@" \( -type f -printf 'hash %m %p\n' \) -o \
			\( ! -type d -printf '%p other %y\n' \) | LC_ALL=C sort
	fi
	echo "# objects"
	(cd "$g/objects" && find . -type f | LC_ALL=C sort)
}

# work_tree_listing: every path of the work tree (not .git) with its type
# and mode, a link's target; regular files are left to with_hashes.
work_tree_listing () {
	echo "# work tree"
	find . -path ./.git -prune -o \
		\( -type f -printf 'hash %m %p\n' \) -o \
		\( -type l -printf '%p link -> %l\n' \) -o \
		\( -type d -printf '%p dir %m\n' \) -o \
		-printf '%p other %y %m\n'
}

# Prints everything a change could touch, one fact per line.
repo_state () {
	gitdir=$(git rev-parse --git-dir) &&
	d=$(snapshot_dir) &&
	git_dir_listing "$gitdir" >"$d/git-dir.list" &&
	with_hashes "$d/git-dir.list" &&
	work_tree_listing >"$d/work-tree.list" &&
	with_hashes "$d/work-tree.list" >"$d/work-tree.state" &&
	LC_ALL=C sort "$d/work-tree.state"
}

# Snapshots live beside the trash directory, never inside the repository.
snapshot_dir () {
	mkdir -p "$SHARNESS_TRASH_DIRECTORY.snap" &&
	echo "$SHARNESS_TRASH_DIRECTORY.snap"
}

repo_snapshot () {
	d=$(snapshot_dir) && repo_state >"$d/$1" 2>&1
}

repo_unchanged () {
	d=$(snapshot_dir) &&
	repo_state >"$d/$1.now" 2>&1 &&
	test_cmp "$d/$1" "$d/$1.now"
}
