#!/bin/sh

test_description='src/ by stage: no include of a higher stage, no call to one, no circle between files'

. "$(dirname "$0")/test-lib.sh"

# The stages, lowest first (README.md "Layout", src/*/README): a stage
# includes and calls only its own and the stages before it. Two README
# rules narrow that: format/ uses of edit/ only the text model and what
# an elision line looks like; plan/ uses of format/ only its types.
stages='util change edit format plan land report workflow mcp cli'

# Include edges allowed against the rules while a change removes them,
# one "from to" a line with the reason above it (none today); the test
# fails when a listed edge no longer exists.
include_exceptions='
'

src_root="$AA_TEST_DIR/.."

# include_edges ROOT: "FILE HEADER" for every #include "..." under
# ROOT/src and ROOT/include that names a file of the tree.
include_edges () {
	(
		cd "$1" &&
		files=$(ls -d src/*/*.[ch] include/*.h include/*/*.h 2>/dev/null)
		printf '%s\n' $files | awk '
		NR == FNR { have[$0] = 1; next }
		/^[ \t]*#[ \t]*include[ \t]*"/ {
			h = $0
			sub(/^[^"]*"/, "", h)
			sub(/".*/, "", h)
			if (("src/" h) in have)
				print FILENAME, "src/" h
			else if (("include/" h) in have)
				print FILENAME, "include/" h
		}' - $files
	)
}

# call_edges BUILD SOURCES: "FILE.c FILE.c SYMBOL" for every global
# symbol an object under BUILD/src uses and another one defines, over
# the objects whose source is in SOURCES/src (a build directory keeps
# the objects of files since removed). nm -A: one line "obj:address
# type name" per symbol, "obj: U name" when undefined.
call_edges () {
	sources=$(cd "$2" && pwd) &&
	(
		cd "$1" &&
		objs= &&
		for o in src/*/*.o
		do
			if test -f "$sources/${o%.o}.c"
			then
				objs="$objs $o"
			fi
		done &&
		if test -n "$objs"
		then
			nm -A $objs
		fi
	) | awk '
		{
			f = $1
			sub(/:.*/, "", f)
			sub(/\.o$/, ".c", f)
		}
		NF == 3 && $2 ~ /^[TDBRC]$/ { def[$3] = f; next }
		NF == 3 && $2 == "U" { use[++n] = f " " $3 }
		END {
			for (i = 1; i <= n; i++) {
				split(use[i], a, " ")
				if ((a[2] in def) && def[a[2]] != a[1])
					print a[1], def[a[2]], a[2]
			}
		}'
}

# The shared rules: stage(), rank[] and allowed(stage, file).
rules_awk='
function stage(p,  a) {
	if (p !~ /^src\//)
		return "api"
	split(p, a, "/")
	return a[2]
}
function allowed(S, t,  T) {
	T = stage(t)
	if (S == T || S == "cli")
		return 1
	if (!(T in rank) || rank[T] > rank[S])
		return 0
	if (S == "format" && T == "edit")
		return t == "src/edit/text.h" || t == "src/edit/elision.h"
	if (S == "plan" && T == "format")
		return t == "src/format/format.h"
	return 1
}
function init_rules(  n, s, i) {
	n = split(STAGES, s, " ")
	for (i = 1; i <= n; i++)
		rank[s[i]] = i
}
'

# check_includes: reads include edges, prints every one against the
# stages. A header of include/ (the embedding API) may be included by
# report/, workflow/ and cli/; elsewhere what it includes from src/
# counts as included by the file.
check_includes () {
	awk -v STAGES="$stages" -v EXC="$include_exceptions" "$rules_awk"'
	function check_api(f, S, h,  list, k, m, t) {
		if ((f SUBSEP h) in seen)
			return
		seen[f, h] = 1
		m = split(inc[h], list, " ")
		for (k = 1; k <= m; k++) {
			t = list[k]
			if (stage(t) == "api")
				check_api(f, S, t)
			else if (!allowed(S, t))
				print f " includes " h ", which includes " t \
				      " (" S "/ may not include " stage(t) "/)"
		}
	}
	BEGIN {
		init_rules()
		m = split(EXC, l, "\n")
		for (i = 1; i <= m; i++)
			if (l[i] != "")
				exc[l[i]] = 1
	}
	{ from[NR] = $1; to[NR] = $2; inc[$1] = inc[$1] " " $2 }
	END {
		for (i = 1; i <= NR; i++) {
			f = from[i]
			S = stage(f)
			if (S == "api" || ((f " " to[i]) in exc))
				continue
			if (stage(to[i]) != "api") {
				if (!allowed(S, to[i]))
					print f " includes " to[i] " (" S \
					      "/ may not include " stage(to[i]) "/)"
			} else if (S != "report" && S != "workflow" && S != "cli")
				check_api(f, S, to[i])
		}
	}'
}

# check_calls: reads call edges, prints every call against the stages
# (plan/ calls nothing of format/: it uses its types only).
check_calls () {
	awk -v STAGES="$stages" "$rules_awk"'
	BEGIN { init_rules() }
	{
		S = stage($1); T = stage($2)
		if (S == "cli" || S == T)
			next
		if (!(T in rank) || rank[T] > rank[S] ||
		    (S == "plan" && T == "format"))
			print $1 " calls " $3 " of " $2 " (" S "/ may not call " T "/)"
	}'
}

# check_circles: reads "FROM TO ..." edges (includes and calls) and
# prints the edges that lie on a circle between files, a .c file, its .h
# and its private X_priv.h counting as one: X includes a header of Y and
# Y calls or includes back into X. An edge is dropped while its target
# has no way out or its source no way in; what is left are the circles
# (and the edges between them). An include exception is no edge.
check_circles () {
	awk -v EXC="$include_exceptions" '
	function unit(p) {
		sub(/(_priv)?\.[ch]$/, "", p)
		return p
	}
	BEGIN {
		m = split(EXC, l, "\n")
		for (i = 1; i <= m; i++)
			if (l[i] != "")
				exc[l[i]] = 1
	}
	(($1 " " $2) in exc) { next }
	{ $1 = unit($1); $2 = unit($2) }
	!(($1 SUBSEP $2) in e) && $1 != $2 {
		e[$1, $2] = 1; out[$1]++; in_[$2]++
	}
	END {
		do {
			n = 0
			for (k in e) {
				split(k, p, SUBSEP)
				if (!out[p[2]] || !in_[p[1]])
					gone[++n] = k
			}
			for (i = 1; i <= n; i++) {
				split(gone[i], p, SUBSEP)
				delete e[gone[i]]
				out[p[1]]--; in_[p[2]]--
			}
		} while (n)
		for (k in e) {
			split(k, p, SUBSEP)
			print p[1] " -> " p[2]
		}
	}' | sort
}

if command -v nm >/dev/null 2>&1 &&
   test -n "$(ls "$AA_BUILD_DIR"/src/*/*.o 2>/dev/null)"
then
	test_set_prereq OBJECTS
fi

test_expect_success 'no file includes a header of a higher stage' '
	include_edges "$src_root" >edges &&
	test "$(wc -l <edges)" -gt 100 &&
	check_includes <edges >actual &&
	test_must_be_empty actual
'

test_expect_success 'every exception names an include that is still there' '
	include_edges "$src_root" >edges &&
	echo "$include_exceptions" | sed "/^\$/d" >exceptions &&
	while read -r from to
	do
		grep -Fx "$from $to" edges || return 1
	done <exceptions
'

test_expect_success OBJECTS 'no file calls into a higher stage' '
	call_edges "$AA_BUILD_DIR" "$src_root" >calls &&
	test "$(wc -l <calls)" -gt 100 &&
	check_calls <calls >actual &&
	test_must_be_empty actual
'

test_expect_success OBJECTS 'no circle between files, a .c and its .h as one (includes and calls)' '
	include_edges "$src_root" >edges &&
	call_edges "$AA_BUILD_DIR" "$src_root" >calls &&
	cat edges calls | check_circles >actual &&
	test_must_be_empty actual
'

# The checks themselves, on a made-up tree: each finds what it is for.

test_expect_success 'the include check finds an upward include, also through include/' '
	mkdir -p fake/src/plan fake/src/land fake/src/format fake/src/edit fake/include/x &&
	echo "#include \"land/land.h\"" >fake/src/plan/p.c &&
	: >fake/src/land/land.h &&
	echo "#include \"x/api.h\"" >fake/src/format/f.c &&
	echo "#include \"land/land.h\"" >fake/include/x/api.h &&
	echo "#include \"edit/edit.h\"" >fake/src/format/g.c &&
	: >fake/src/edit/edit.h &&
	echo "#include \"edit/edit.h\"" >fake/src/plan/q.c &&
	include_edges fake | check_includes >actual &&
	cat >expect <<-\EOF &&
	src/format/f.c includes include/x/api.h, which includes src/land/land.h (format/ may not include land/)
	src/format/g.c includes src/edit/edit.h (format/ may not include edit/)
	src/plan/p.c includes src/land/land.h (plan/ may not include land/)
	EOF
	sort actual >sorted &&
	test_cmp expect sorted
'

test_expect_success 'the call and circle checks find an upward call and a circle' '
	mkdir -p fakeb/src/util fakeb/src/land &&
	printf "int b(void);\nint a(void) { return b(); }\n" >fakeb/src/util/a.c &&
	printf "int a(void);\nint b(void) { return a(); }\n" >fakeb/src/util/b.c &&
	printf "int a(void);\nint r(void) { return a(); }\n" >fakeb/src/land/r.c &&
	printf "int r(void);\nint u(void) { return r(); }\n" >fakeb/src/util/u.c &&
	for f in fakeb/src/*/*.c
	do
		${CC:-cc} -c -o "${f%.c}.o" "$f" || return 1
	done &&
	call_edges fakeb fakeb >calls &&
	check_calls <calls >actual &&
	echo "src/util/u.c calls r of src/land/r.c (util/ may not call land/)" >expect &&
	test_cmp expect actual &&
	check_circles <calls >actual &&
	printf "%s\n" "src/util/a -> src/util/b" "src/util/b -> src/util/a" >expect &&
	test_cmp expect actual
'

test_expect_success 'the circle check finds headers that include each other' '
	mkdir -p fakec/src/util &&
	echo "#include \"util/y.h\"" >fakec/src/util/x.h &&
	echo "#include \"util/x.h\"" >fakec/src/util/y.h &&
	echo "#include \"util/x.h\"" >fakec/src/util/z.c &&
	include_edges fakec | check_circles >actual &&
	printf "%s\n" "src/util/x -> src/util/y" "src/util/y -> src/util/x" >expect &&
	test_cmp expect actual
'

test_expect_success 'the circle check takes a .c and its .h as one, and the exceptions out' '
	mkdir -p faked/src/land &&
	echo "#include \"land/land.h\"" >faked/src/land/tree.c &&
	echo "#include \"land/tree.h\"" >faked/src/land/land.c &&
	: >faked/src/land/land.h &&
	: >faked/src/land/tree.h &&
	include_edges faked | check_circles >actual &&
	printf "%s\n" "src/land/land -> src/land/tree" "src/land/tree -> src/land/land" >expect &&
	test_cmp expect actual &&
	include_exceptions="src/land/tree.c src/land/land.h" &&
	include_edges faked | check_circles >actual &&
	test_must_be_empty actual
'

test_done
