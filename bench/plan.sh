#!/bin/sh
# Planning benchmark (issue 11 point 6): N creates, N deletes and N
# renames in one answer, over a repository of 2N files, with --check (parse,
# plan, every rule, work-tree checks; nothing written). Before
# the fix the planner scanned every touched path for each operation
# (40,000 START-FILEs took 21 s); the target is N = 100,000 of each kind
# planned in under a second.
#
#   creates: companion START-FILE, new files in 1,000 new directories
#   deletes: companion DELETE-FILE of N existing files
#   renames: file-changes FILE_RENAME of N other existing files
#   all:     the three in one answer
#
# Usage: bench/plan.sh [N]   (default 100000). Needs hyperfine.
# Environment: RUNS (default 10), AA_BIN_DIR (as in land.sh).
set -e
command -v hyperfine >/dev/null 2>&1 || {
	sudo=; test "$(id -u)" = 0 || sudo=sudo
	$sudo apt-get install -y -qq hyperfine
}
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-100000}
work=$top/bench/work/plan-$n
runs=${RUNS:-10}
PATH="${AA_BIN_DIR:-$top}:$PATH"

make_repo () {
	rm -rf "$work" && mkdir -p "$work" && cd "$work"
	git init -q repo && cd repo
	git config user.name bench && git config user.email bench@example.com
	# 2N files in 1,000 directories: d*/f*.txt (deleted), d*/g*.txt (renamed).
	awk -v n="$n" 'BEGIN {
		print "commit refs/heads/main"
		print "committer bench <bench@example.com> 1700000000 +0000"
		print "data 5"; print "base"
		for (i = 0; i < n; i++) {
			printf "M 100644 inline d%03d/f%06d.txt\n", i % 1000, i
			printf "data %d\nf %d\n", length(i) + 3, i
			printf "M 100644 inline d%03d/g%06d.txt\n", i % 1000, i
			printf "data %d\ng %d\n", length(i) + 3, i
		}
	}' | git fast-import --quiet
	git checkout -q -f main
	cd ..
	awk -v n="$n" 'BEGIN {
		for (i = 0; i < n; i++) {
			p = sprintf("new%03d/n%06d.txt", i % 1000, i)
			printf "--- START-FILE: %s ---\nnew %d\n--- END-FILE: %s ---\n", p, i, p
		}
	}' >creates.md
	awk -v n="$n" 'BEGIN {
		for (i = 0; i < n; i++)
			printf "--- DELETE-FILE: d%03d/f%06d.txt ---\n", i % 1000, i
	}' >deletes.md
	awk -v n="$n" 'BEGIN {
		print "<FILE_CHANGES>"
		for (i = 0; i < n; i++)
			printf "<FILE_RENAME from_path=\"d%03d/g%06d.txt\" to_path=\"moved%03d/g%06d.txt\" />\n", i % 1000, i, i % 1000, i
		print "</FILE_CHANGES>"
	}' >renames.md
	cat creates.md deletes.md renames.md >all.md
}

if ! test -f "$work/all.md"; then
	(make_repo)
fi
cd "$work/repo"

# Each answer must plan to exactly the expected changes before timing.
for kind in creates deletes renames all; do
	git ai-apply --check --stat ../$kind.md >../$kind.stat
	got=$(grep -c '|' ../$kind.stat)
	want=$n
	test $kind != all || want=$((n * 3))
	if test "$got" != "$want"; then
		echo "plan.sh: $kind: $got paths in the plan, want $want" >&2
		exit 1
	fi
done

for kind in creates deletes renames all; do
	hyperfine -N -r "$runs" --style basic \
		-n "check $kind" "git ai-apply -q --check ../$kind.md"
done
