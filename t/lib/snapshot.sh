# Repository snapshots: prove that a rejected change set wrote nothing.
#
#   repo_snapshot NAME    record index, refs, objects and work tree
#   repo_unchanged NAME   fail (showing the difference) if any changed

# Prints everything a change could touch, one fact per line.
repo_state () {
	gitdir=$(git rev-parse --git-dir) || return 1
	echo "# index"
	if test -f "$gitdir/index"
	then
		git hash-object --no-filters "$gitdir/index"
	else
		echo "(no index)"
	fi
	test -e "$gitdir/index.lock" && echo "index.lock present"
	echo "# HEAD"
	cat "$gitdir/HEAD"
	echo "# refs"
	(cd "$gitdir" && find refs logs -type f 2>/dev/null | LC_ALL=C sort |
		while read -r f; do echo "$f $(git hash-object --no-filters "$f")"; done)
	test -f "$gitdir/packed-refs" &&
		echo "packed-refs $(git hash-object --no-filters "$gitdir/packed-refs")"
	echo "# objects"
	(cd "$gitdir/objects" && find . -type f | LC_ALL=C sort)
	echo "# work tree"
	find . -path ./.git -prune -o -print | LC_ALL=C sort |
	while read -r p
	do
		if test -h "$p"
		then
			echo "$p link -> $(readlink "$p")"
		elif test -d "$p"
		then
			echo "$p dir $(stat -c %a "$p")"
		else
			echo "$p file $(stat -c %a "$p") $(git hash-object --no-filters "$p")"
		fi
	done
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
