#!/bin/sh

test_description='the manual'"'"'s EXAMPLES: every command run against the built tool, every line it shows printed'

. "$(dirname "$0")/test-lib.sh"

manual="$AA_TEST_DIR/../Documentation/git-ai-apply.adoc"

# The manual marks what this script reads with comment lines (asciidoctor
# does not render them), each right before a ---- listing:
#
#   // example-file: <path>   the listing is <path> in the base repository
#   // example: <title>       the listing is a session run in a fresh copy
#                             of the base repository
#   // example: <title> (not checked: <why>)
#                             shown, not run (an option not built yet)
#
# In a session, a line "$ <command>" is a command, run by sh in the copy
# on a terminal of its own (one shell per command: the files carry the
# state, not the shell); the lines under it are what it prints, standard
# output and error together. "$ cat <file>" of a file that does not exist yet writes
# the lines under it to <file> first: that is how an example shows its
# answer. A line "..." stands for lines left out.
#
# Every line shown must be printed, in order, runs of blanks counting as
# one (a column widened is not a change); the tool may print more (a
# line another change adds must not turn this red before the manual
# catches up). AA_MANUAL_EXACT=1 asks for the output exactly, "..."
# aside: run it after changing what the tool prints, to find the
# examples to update. AA_MANUAL_SHOW=1 prints each command's real
# output (test_expect_success -v) to paste.

# split_examples DIR: DIR/base/<path> for each example-file; DIR/<n>/title,
# DIR/<n>/<k>.cmd and DIR/<n>/<k>.out for each example, k = 1, 2, ...
split_examples () {
	awk -v dir="$1" '
	function flush() { if (out != "") close(out); out = "" }
	/^\/\/ example-file: / { want = "file"; path = substr($0, 18); next }
	/^\/\/ example: / {
		want = "example"; title = substr($0, 13)
		next
	}
	/^----$/ && inlist { inlist = 0; flush(); next }
	/^----$/ && want != "" {
		inlist = 1
		if (want == "file") {
			out = dir "/base/" path; printf "" >out
			mode = "file"
		} else {
			n++; k = 0; mode = "example"
			system("mkdir -p \"" dir "/" n "\"")
			print title >(dir "/" n "/title"); close(dir "/" n "/title")
		}
		want = ""
		next
	}
	{ want = "" }
	inlist && mode == "file" { print >>out; next }
	inlist && /^\$ / {
		flush(); k++
		print substr($0, 3) >(dir "/" n "/" k ".cmd")
		close(dir "/" n "/" k ".cmd")
		out = dir "/" n "/" k ".out"; printf "" >out
		next
	}
	inlist { print >>out }
	' "$manual"
}

# shown_in EXPECTED ACTUAL: every line of EXPECTED is a line of ACTUAL, in
# order ("..." lines skipped); with AA_MANUAL_EXACT, ACTUAL is EXPECTED
# with each "..." standing for any lines (none at all too).
shown_in () {
	awk -v exact="${AA_MANUAL_EXACT:-}" '
	function norm(s) {
		if (exact) return s
		gsub(/[ \t]+/, " ", s); sub(/ $/, "", s)
		return s
	}
	NR == FNR { want[++ne] = norm($0); next }
	{ got[++na] = norm($0) }
	END {
		if (!exact) {
			j = 1
			for (i = 1; i <= ne; i++) {
				if (want[i] == "...") continue
				while (j <= na && got[j] != want[i]) j++
				if (j > na) { print "not printed: " want[i]; exit 1 }
				j++
			}
			exit 0
		}
		# segments between "..." lines; the first is anchored at the
		# start unless "..." opens, the last at the end unless it closes
		j = 1; i = 1; free = 0
		while (i <= ne) {
			if (want[i] == "...") { free = 1; i++; continue }
			s = i; while (i <= ne && want[i] != "...") i++
			len = i - s
			last = (i > ne)
			for (start = j; start + len - 1 <= na; start++) {
				if (!free && start != j) break
				if (last && start + len - 1 != na) continue
				ok = 1
				for (m = 0; m < len; m++)
					if (got[start + m] != want[s + m]) { ok = 0; break }
				if (ok) break
			}
			if (!ok || start + len - 1 > na || (!free && start != j)) {
				print "differs from line " s ": " want[s]; exit 1
			}
			j = start + len; free = 0
		}
		if (!free && j <= na) { print "printed beyond: " got[j]; exit 1 }
	}' "$1" "$2"
}

# on_terminal DIR CMD: CMD run in DIR as on a terminal (script(1) gives
# it one), so that standard output and error interleave as a user sees
# them; a dumb terminal has no color, and no pager.
on_terminal () {
	(
		cd "$1" &&
		TERM=dumb GIT_PAGER=cat PAGER=cat script -qec "$2" /dev/null </dev/null
	) | tr -d "\r"
}

# run_example N: the session of example N in a fresh copy of the base.
run_example () {
	ex="examples/$1" &&
	rm -rf "$ex/repo" && cp -R base-repo "$ex/repo" &&
	k=1 &&
	while test -f "$ex/$k.cmd"
	do
		cmd=$(cat "$ex/$k.cmd") &&
		case "$cmd" in
		"cat "*)
			file=${cmd#cat } &&
			if ! test -e "$ex/repo/$file"
			then
				grep -v "^\.\.\.\$" "$ex/$k.out" >"$ex/repo/$file"
			fi
			;;
		esac &&
		on_terminal "$ex/repo" "$cmd" >"$ex/$k.actual"
		if test -n "$AA_MANUAL_SHOW"
		then
			echo "\$ $cmd" && cat "$ex/$k.actual"
		fi
		shown_in "$ex/$k.out" "$ex/$k.actual" || {
			echo "example: $(cat "$ex/title")" &&
			echo "command: $cmd" &&
			echo "printed:" && cat "$ex/$k.actual"
			return 1
		}
		k=$((k + 1))
	done
}

command -v script >/dev/null 2>&1 && test_set_prereq SCRIPT

test_expect_success 'the manual'"'"'s examples and base repository are read' '
	mkdir -p examples/base &&
	split_examples examples &&
	test_path_is_file examples/base/greet.py &&
	test $(ls examples | grep -c "^[0-9]") -ge 12 &&
	git init -q base-repo &&
	cp -R examples/base/. base-repo/ &&
	git -C base-repo add . &&
	git -C base-repo commit -q -m "Greet and say goodbye"
'

# loosely, exactly EXPECTED ACTUAL: shown_in in each mode.
loosely () { (AA_MANUAL_EXACT= && shown_in "$@") }
exactly () { (AA_MANUAL_EXACT=1 && shown_in "$@") }

test_expect_success 'the matcher: shown lines in order, more allowed, exact on demand' '
	printf "a\nb\nc\n" >act &&
	printf "a\nc\n" >exp && loosely exp act &&
	printf "c\na\n" >exp && ! loosely exp act &&
	printf "a\nc\n" >exp && ! exactly exp act &&
	printf "a\n...\nc\n" >exp && exactly exp act &&
	printf "a\n...\n" >exp && exactly exp act &&
	printf "a\nb\n" >exp && ! exactly exp act &&
	printf "...\nb\n" >exp && ! exactly exp act &&
	printf "a\nb\nc\n" >exp && exactly exp act &&
	printf "x  y\n" >act && printf "x y \n" >exp && loosely exp act &&
	! exactly exp act
'

for n in $(ls examples 2>/dev/null | grep "^[0-9]" | sort -n)
do
	title=$(cat "examples/$n/title")
	case "$title" in
	*"(not checked:"*)
		say "example $n: $title: shown, not run"
		;;
	*)
		test_expect_success SCRIPT "example $n: $title" "run_example $n"
		;;
	esac
done

test_done
