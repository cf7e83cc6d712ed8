#!/bin/sh
# Writes the seed corpus of every fuzz target into build-fuzz/seeds/<t>/
# and its dictionary into build-fuzz/dict/<t>.dict, from:
#   - the example answers (Documentation/examples/*.md);
#   - every here-document of the sharness scripts (t/t*.sh): answers,
#     diffs and base files, a few hundred small inputs;
#   - the files of Documentation/examples/base/ (text model);
#   - contrib/fuzz/seeds/<t>/ (hand-written: diffs with their base for
#     the hunk engine, reproducers of past findings);
#   - contrib/fuzz/dict/*.dict, combined per target.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. contrib/fuzz/targets.sh
out=build-fuzz
rm -rf "$out/seeds" "$out/dict"
mkdir -p "$out/seeds/heredocs" "$out/dict"

# Each here-document body (<<EOF, <<-EOF, <<\EOF...) to its own file;
# with <<- the leading tabs are removed, as the shell does.
for f in t/t[0-9]*.sh; do
	awk -v dir="$out/seeds/heredocs" -v base="$(basename "$f" .sh)" '
		!inside && /<<-?\\?'"'"'?EOF/ {
			inside = 1; strip = ($0 ~ /<<-/); n++
			file = sprintf("%s/%s-%03d", dir, base, n); next
		}
		inside {
			line = $0
			if (strip) sub(/^\t+/, "", line)
			if (line == "EOF") { inside = 0; close(file); next }
			print line > file
		}' "$f"
done

seed_dir() { mkdir -p "$out/seeds/$1"; echo "$out/seeds/$1"; }
add_answers() {
	d=$(seed_dir "$1")
	cp Documentation/examples/*.md "$out"/seeds/heredocs/* "$d"/
}

for t in $FUZZ_TARGETS; do
	case $t in
	path|text|binary) ;;
	*) add_answers "$t" ;;
	esac
	if test -d "contrib/fuzz/seeds/$t"; then
		d=$(seed_dir "$t")
		cp contrib/fuzz/seeds/"$t"/* "$d"/
	fi
done

# text: 13 control bytes (see fuzz-text.c), then a file.
d=$(seed_dir text)
i=0
find Documentation/examples/base -type f | sort | while read -r f; do
	i=$((i + 1))
	{ printf '\003\001\002\005\007\000\001\377\020\002\003\011\100'; cat "$f"; } \
		>"$d/base-$i"
done
printf '\001\002\003\004\005\006\007\010\011\012\013\014\200ab\r\ncd\r\n' >"$d/crlf"
printf '\001\002\003\004\005\006\007\010\011\012\013\014\200ab\rcd\r' >"$d/cr"
printf '\001\002\003\004\005\006\007\010\011\012\013\014\200\357\273\277ab\ncd' >"$d/bom"
printf '\001\002\003\004\005\006\007\010\011\012\013\014\200\377\376a\000\n\000' >"$d/utf16le"
printf '\001\002\003\004\005\006\007\010\011\012\013\014\200\376\377\000a\000\n' >"$d/utf16be"

# path: one path a file.
d=$(seed_dir path)
i=0
for p in a.txt src/main.rs a/b/c.d .gitignore .github/x .git/config \
	 ../x a/../b /etc/passwd 'C:x' 'a\b' 'GIT~1/x' '.git. /x' \
	 '.git::$INDEX_ALLOCATION/x' 'a//b' 'a/' 'dir/.Git' 'x/./y'; do
	i=$((i + 1))
	printf '%s' "$p" >"$d/p$i"
done

# dictionaries
for t in $FUZZ_TARGETS; do
	case $t in
	extract|input) parts="companion file-changes aptix ap diff" ;;
	hunks) parts="diff text" ;;
	edit) parts="aptix ap text" ;;
	*) parts=$t ;;
	esac
	# a target without a dictionary of its own (newformats,
	# alternatives, index-ext) runs with an empty one
	for p in $parts; do
		if test -f "contrib/fuzz/dict/$p.dict"; then
			cat "contrib/fuzz/dict/$p.dict"
		fi
	done >"$out/dict/$t.dict"
done
rm -rf "$out/seeds/heredocs"
