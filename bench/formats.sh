#!/bin/sh
# Format benchmark (issue 4): one change set of 1,000 files (500 new,
# 500 patched with 10 edits each; about 10 MB of answer) written as a
# chat answer in each format, checked with `git ai-apply --check`:
# parse-and-plan throughput (input bytes / median time, hyperfine) and
# peak resident memory (GNU time -v), side by side with git apply --check
# and patch --dry-run on the same diffs.
#
# Before timing, each answer must pass --check, and --branch must give
# exactly the expected tree (the same for every format).
#
# Usage: bench/formats.sh
# Environment: RUNS (default 10), FORMATS (default all eight),
# AA_BIN_DIR (directory holding the git-ai-apply to measure; default the
# top of the source tree).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
PATH="${AA_BIN_DIR:-$top}:$PATH"
runs=${RUNS:-10}
formats=${FORMATS:-companion file-changes aptix ap diff v4a search-replace whole-file}
w=$top/bench/work/formats
gen=$top/bench/gen_formats.py

sudo=; test "$(id -u)" = 0 || sudo=sudo
need () {	# need COMMAND PACKAGE
	test -x "$1" || command -v "$1" >/dev/null 2>&1 ||
		$sudo apt-get install -y -qq "$2" >/dev/null
}
need hyperfine hyperfine
need patch patch
need /usr/bin/time time

setup () {
	stamp=$(cksum <"$gen")
	test "$(cat "$w/stamp" 2>/dev/null)" = "$stamp" && return 0
	rm -rf "$w" && mkdir -p "$w"
	python3 "$gen" "$w"
	git init -q "$w/repo" && cd "$w/repo"
	git config user.name bench && git config user.email bench@example.com
	cp -R ../base/. .
	git add -A && git commit -q -m base
	# The tree every answer must produce.
	cd ../expected
	GIT_DIR=$w/repo/.git GIT_INDEX_FILE=$w/expected.index git add -A .
	GIT_DIR=$w/repo/.git GIT_INDEX_FILE=$w/expected.index git write-tree \
		>../expected.tree
	echo "$stamp" >../stamp
}

rss () {
	/usr/bin/time -v "$@" 2>&1 >/dev/null |
		sed -n 's/.*Maximum resident set size (kbytes): //p'
}

(setup)
cd "$w/repo"
git read-tree HEAD
echo "git-ai-apply: $(command -v git-ai-apply)"
echo "answers: $(ls ../answers/*.md | wc -l) files in $w/answers"

# Every answer must pass --check and land the expected tree.
set -- -n 'ai-apply --check tiny' 'git ai-apply -q --check ../answers/tiny.md'
ok=
for f in $formats; do
	a=../answers/$f.md
	if git ai-apply -q --check "$a" 2>"../$f.err"; then
		if git ai-apply -q --force --branch="bench/$f" "$a" 2>/dev/null &&
		   test "$(git rev-parse "bench/$f^{tree}")" = "$(cat ../expected.tree)"
		then res="passes --check; --branch gives the expected tree"
		else res="passes --check; --branch does NOT give the expected tree"
		fi
		ok="$ok $f"
		set -- "$@" -n "ai-apply --check $f" "git ai-apply -q --check $a"
	else
		res="FAILS --check (exit $?): $(head -n 1 "../$f.err")"
	fi
	printf '%-15s %8d bytes: %s\n' "$f" "$(wc -c <"$a")" "$res"
done
if git apply --check ../answers/diff.raw && patch -p1 -s --dry-run <../answers/diff.raw >/dev/null
then
	set -- "$@" -n 'git apply --check diff' 'git apply --check ../answers/diff.raw' \
		-n 'patch --dry-run diff' 'patch -p1 -s --dry-run <../answers/diff.raw'
fi
test -n "$ok" || { echo "no answer passes --check"; exit 1; }

hyperfine --style basic --runs "$runs" --warmup 1 \
	--export-json ../time.json "$@"

{
	echo "baseline $(wc -c <../answers/tiny.md) $(rss git-ai-apply -q --check ../answers/tiny.md)"
	for f in $ok; do
		echo "$f $(wc -c <../answers/$f.md) $(rss git-ai-apply -q --check ../answers/$f.md)"
	done
	echo "git-apply-diff $(wc -c <../answers/diff.raw) $(rss git apply --check ../answers/diff.raw)"
	echo "patch-diff $(wc -c <../answers/diff.raw) $(rss sh -c 'patch -p1 -s --dry-run <../answers/diff.raw')"
} >../rss.txt

python3 - "$w" <<'PY'
import json, sys
w = sys.argv[1]
t = {r["command"]: r["median"] for r in json.load(open(f"{w}/time.json"))["results"]}
rss = {l.split()[0]: (int(l.split()[1]), int(l.split()[2])) for l in open(f"{w}/rss.txt")}
base = rss["baseline"][1]
target = {"companion": 50, "file-changes": 50, "aptix": 50, "ap": 10,
          "v4a": 50, "search-replace": 50, "whole-file": 50}
print(f"\nbaseline (--check on a one-file answer): {t['ai-apply --check tiny'] * 1000:.1f} ms, "
      f"peak RSS {base / 1024:.1f} MiB")
print("(limit = 4 x input + baseline, in MiB)")
print(f"{'format':14}{'input MB':>9}{'median ms':>10}{'MB/s':>8}{'target':>8}"
      f"{'':>5}{'peak MiB':>9}{'peak/in':>8}{'limit':>7}{'':>8}")
rows = [(f, f"ai-apply --check {f}") for f in target] + [("diff", "ai-apply --check diff"),
        ("git-apply-diff", "git apply --check diff"), ("patch-diff", "patch --dry-run diff")]
for name, cmd in rows:
    if cmd not in t or name not in rss:
        print(f"{name:14}  (not measured)")
        continue
    size, peak = rss[name][0], rss[name][1] * 1024
    mbs = size / 1e6 / t[cmd]
    tg = target.get(name)
    met = "" if tg is None else ("met" if mbs >= tg else "NOT met")
    limit = 4 * size + base * 1024      # 4x input + baseline
    peer = name.startswith(("git", "patch"))
    mem = "" if peer else ("met" if peak < limit else "NOT met")
    print(f"{name:14}{size / 1e6:9.2f}{t[cmd] * 1000:10.1f}{mbs:8.1f}"
          f"{(str(tg) if tg else '-'):>8}{met:>8} {peak / 2**20:8.1f}"
          f"{peak / size:8.2f}{'' if peer else f'{limit / 2**20:7.1f}':>7}{mem:>8}")
if "ai-apply --check diff" in t and "git apply --check diff" in t:
    a = t["ai-apply --check diff"]
    print(f"\ndiff: ai-apply/git apply = {a / t['git apply --check diff']:.2f}, "
          f"ai-apply/patch = {a / t['patch --dry-run diff']:.2f} (median times)")
PY
