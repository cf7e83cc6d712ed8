#!/bin/sh
# Locate benchmark (issue 3): 500 hunks in one big C-looking file whose
# hunk headers are off by up to +-50 lines, and the same hunks with bare
# "@@" headers, timed side by side with git apply and GNU patch in one
# hyperfine run per file size; then the 400k/200k time ratios and the
# peak resident memory of each tool.
#
#   git ai-apply --check numbered.diff   vs  patch --dry-run, git apply --check
#   git ai-apply --check bare.diff       (no peer takes bare @@ hunks)
#   git ai-apply --cached numbered.diff  vs  patch -o FILE, git apply --cached
#   git ai-apply --check tiny.diff       (one hunk in a 4-line file: the
#                                        fixed cost, and the memory baseline)
#                                        vs git apply --check tiny.diff
#
# Usage: bench/locate.sh [lines...]   (default: 200000 400000)
# Environment: RUNS (default 10), AA_BIN_DIR (directory holding the
# git-ai-apply to measure; default the top of the source tree).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
PATH="${AA_BIN_DIR:-$top}:$PATH"
runs=${RUNS:-10}
hunks=500
sizes=${*:-200000 400000}
out=$top/bench/work/locate
gen=$top/bench/gen_locate.py

sudo=; test "$(id -u)" = 0 || sudo=sudo
need () {	# need COMMAND PACKAGE
	test -x "$1" || command -v "$1" >/dev/null 2>&1 ||
		$sudo apt-get install -y -qq "$2" >/dev/null
}
need hyperfine hyperfine
need patch patch
need /usr/bin/time time

# The file, the edit, the three diffs and a committed repository.
setup () {
	w=$out-$1
	stamp="$(cksum <"$gen") $1 $hunks"
	test "$(cat "$w/stamp" 2>/dev/null)" = "$stamp" && return 0
	rm -rf "$w" && mkdir -p "$w" && cd "$w"
	python3 "$gen" source "$1" "$hunks" .
	diff -u --label a/src/big.c --label b/src/big.c orig.c edited.c \
		>exact.diff || test $? = 1
	python3 "$gen" variants exact.diff numbered.diff bare.diff 2>/dev/null
	git init -q repo && cd repo
	git config user.name bench && git config user.email bench@example.com
	mkdir src && cp ../orig.c src/big.c
	printf 'int small(void)\n{\n\treturn 0;\n}\n' >src/small.c
	git add src && git commit -q -m base
	printf -- '--- a/src/small.c\n+++ b/src/small.c\n@@ -1,4 +1,4 @@\n int small(void)\n {\n-\treturn 0;\n+\treturn 1;\n }\n' >../tiny.diff
	echo "$stamp" >../stamp
}

# Every run starts from HEAD's index with its stat data refreshed, as
# after any git status: git read-tree alone leaves the entries without
# stat data, and the tool would then never read a clean work-tree file
# for its blob (Documentation/locating.md, "Cost of locating").

# Maximum resident set size, in KiB, of one command (GNU time -v).
rss () {
	/usr/bin/time -v "$@" 2>&1 >/dev/null |
		sed -n 's/.*Maximum resident set size (kbytes): //p'
}

same () { if cmp -s "$1" "$2"; then echo identical; else echo DIFFERENT; fi; }

echo "git-ai-apply: $(command -v git-ai-apply)"
for n in $sizes; do
	(setup "$n")
	w=$out-$n
	cd "$w/repo"
	echo
	echo "== $n lines ($(wc -c <src/big.c) bytes), $hunks hunks, headers off by up to +-50 lines"

	# Each tool must produce the edited file before it is timed.
	git read-tree HEAD && git update-index -q --refresh
	git ai-apply -q --cached ../numbered.diff 2>../numbered.err || {
		cat ../numbered.err; echo "ai-apply failed on numbered.diff"; exit 1; }
	git cat-file blob :src/big.c >../ai-numbered.c
	git read-tree HEAD && git update-index -q --refresh
	git ai-apply -q --cached ../bare.diff 2>../bare.err || {
		cat ../bare.err; echo "ai-apply failed on bare.diff"; exit 1; }
	git cat-file blob :src/big.c >../ai-bare.c
	git read-tree HEAD && git update-index -q --refresh
	git apply --cached ../numbered.diff
	git cat-file blob :src/big.c >../git-numbered.c
	git read-tree HEAD && git update-index -q --refresh
	# (patch -o refuses a relative output path with "..": use $w.)
	patch -p1 -s -o "$w/patch-out.c" <../numbered.diff >/dev/null
	echo "result = edited.c? ai-apply numbered: $(same ../ai-numbered.c ../edited.c)," \
	     "ai-apply bare: $(same ../ai-bare.c ../edited.c)," \
	     "git apply: $(same ../git-numbered.c ../edited.c)," \
	     "patch: $(same "$w/patch-out.c" ../edited.c)"
	echo "ai-apply stderr lines: numbered $(wc -l <../numbered.err), bare $(wc -l <../bare.err)"

	hyperfine --style basic --runs "$runs" --warmup 2 \
		--export-json ../time.json --prepare 'git read-tree HEAD && git update-index -q --refresh' \
		-n 'ai-apply --check tiny' 'git ai-apply -q --check ../tiny.diff' \
		-n 'git apply --check tiny' 'git apply --check ../tiny.diff' \
		-n 'ai-apply --check numbered' 'git ai-apply -q --check ../numbered.diff' \
		-n 'ai-apply --check bare' 'git ai-apply -q --check ../bare.diff' \
		-n 'ai-apply --cached numbered' 'git ai-apply -q --cached ../numbered.diff' \
		-n 'git apply --check numbered' 'git apply --check ../numbered.diff' \
		-n 'git apply --cached numbered' 'git apply --cached ../numbered.diff' \
		-n 'patch --dry-run numbered' 'patch -p1 -s --dry-run <../numbered.diff' \
		-n 'patch -o FILE numbered' "patch -p1 -s -o '$w/patch-out.c' <../numbered.diff"

	git read-tree HEAD && git update-index -q --refresh
	{
		echo "file_bytes $(wc -c <src/big.c)"
		echo "baseline $(rss git-ai-apply -q --check ../tiny.diff)"
		echo "ai_check_numbered $(rss git-ai-apply -q --check ../numbered.diff)"
		echo "ai_check_bare $(rss git-ai-apply -q --check ../bare.diff)"
		echo "ai_cached_numbered $(rss git-ai-apply -q --cached ../numbered.diff)"
		git read-tree HEAD && git update-index -q --refresh
		echo "git_apply_check $(rss git apply --check ../numbered.diff)"
		echo "patch_dry_run $(rss sh -c 'patch -p1 -s --dry-run <../numbered.diff')"
	} >../rss.txt
	git read-tree HEAD && git update-index -q --refresh
done

python3 - "$out" $sizes <<'PY'
import json, sys
out, sizes = sys.argv[1], sys.argv[2:]
res, rss = {}, {}
for n in sizes:
    res[n] = {r["command"]: r["median"] for r in
              json.load(open(f"{out}-{n}/time.json"))["results"]}
    rss[n] = dict((l.split()[0], int(l.split()[1]))
                  for l in open(f"{out}-{n}/rss.txt"))
ms = lambda s: f"{s * 1000:8.1f}"
print("\nmedian times (ms)")
print(f"{'command':30}" + "".join(f"{n + ' lines':>14}" for n in sizes)
      + (f"{'ratio':>8}" if len(sizes) == 2 else ""))
for c in res[sizes[0]]:
    row = f"{c:30}" + "".join(f"{ms(res[n][c]):>14}" for n in sizes)
    if len(sizes) == 2:
        row += f"{res[sizes[1]][c] / res[sizes[0]][c]:8.2f}"
    print(row)
print("\nratios (median times)" + " " * 38 + "".join(f"{n:>8}" for n in sizes))
pairs = [("ai-apply --check tiny", "git apply --check tiny"),
         ("ai-apply --check numbered", "patch --dry-run numbered"),
         ("ai-apply --check bare", "patch --dry-run numbered"),
         ("ai-apply --cached numbered", "patch -o FILE numbered"),
         ("ai-apply --check numbered", "git apply --check numbered"),
         ("ai-apply --cached numbered", "git apply --cached numbered")]
for a, b in pairs:
    print(f"{a:28} / {b:28}" + "".join(
        f"{res[n][a] / res[n][b]:8.2f}" for n in sizes))
print("\npeak RSS (MiB); ai-apply growth over the baseline / file size")
keys = ["baseline", "ai_check_numbered", "ai_check_bare",
        "ai_cached_numbered", "git_apply_check", "patch_dry_run"]
for n in sizes:
    r = rss[n]
    fb = r["file_bytes"]
    print(f"{n} lines, file {fb / 2**20:.1f} MiB: " + ", ".join(
        f"{k} {r[k] / 1024:.1f}" for k in keys))
    print("    (peak - baseline) / file: " + ", ".join(
        f"{k} {(r[k] - r['baseline']) * 1024 / fb:.2f}" for k in keys[1:4]))
PY
