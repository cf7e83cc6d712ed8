#!/bin/sh

test_description='the drift suite: answers written at one revision of a file, applied at later and earlier ones

A generated file history of 8 commits (v0..v7: a line changed, a function
appended at the end, a function deleted then added back, a function moved,
one of two identical twins renamed, another line changed). An answer is
written at v<k> as a git diff, and applied at v<k+1>..v<k+5> and
v<k-1>..v<k-3>. The right result is what git apply --3way would make
of it: the answer as it is when git apply takes it at v<j>, else what
git merge-file makes of (v<j>, v<k>, v<k> + the answer): a clean merge
must land byte-identical, a conflict must be refused with nothing
written, a merge that changes nothing must be a no-op. Every result is tabled in "results"; each
family must have 0 wrong results.'

. "$(dirname "$0")/test-lib.sh"

# fn NAME MUL ADD: one small C function and a blank line.
fn () {
	printf 'int %s(int x)\n{\n\tint y = x * %s;\n\ty += %s;\n\treturn y;\n}\n\n' \
		"$1" "$2" "$3"
}

# version K: the file at v<K>.
version () {
	test $1 -ge 5 || fn f1 1 1
	fn f2 2 $(test $1 -ge 1 && echo 20 || echo 2)
	fn twin_$(test $1 -ge 6 && echo alpha || echo a) 7 7
	fn twin_b 7 7
	test $1 -eq 3 || fn f4 4 4
	fn f5 $(test $1 -ge 7 && echo 55 || echo 5) 5
	test $1 -lt 5 || fn f1 1 1
	test $1 -lt 2 || fn f7 7 70
}

# The answers, as perl substitutions over the whole file.
answer_line='s/(int f2\(int x\)\r?\n\{\r?\n\tint y = x \* 2);/$1 + 1;/'
# v1's change (upstream from v1 on), and v1's change with one more
answer_upstream='s/(\ty \+= 2);/${1}0;/'
answer_partly='s/(int y = x \* 5);/${1}5;/; s/int f5\(int x\)/int f5(int x) \/* more *\//'
# v1's change and the first line of f2, at the top of the file from v5
answer_top='s/(\ty \+= 2);/${1}0;/; s/int f2\(int x\)/int f2(int x) \/* doubled *\//'
answer_twin='s/(int twin_a\(int x\)\n\{\n.*\n.*\n)\treturn y;/$1\treturn y + 1;/'
answer_eof='$_ .= "int added(int x)\n{\n\treturn x;\n}\n"'
answer_readded='s/(int f4\(int x\)\n\{\n)\tint y = x \* 4;/$1\tint y = x * 44;/'
answer_moved='s/(int f1\(int x\)\n\{\n.*\n.*\n)\treturn y;/$1\treturn y * 2;/'

# make_history DIR CRLF: the repository, tags v0..v7 (CRLF: "crlf" or "").
make_history () {
	rm -rf "$1" && git init -q "$1" &&
	(
		cd "$1" &&
		for k in 0 1 2 3 4 5 6 7
		do
			version $k >f.c &&
			if test "$2" = crlf
			then
				sed "s/\$/$(printf "\r")/" f.c >f.tmp && mv f.tmp f.c
			fi &&
			git add f.c &&
			git commit -q -m "v$k" &&
			git tag "v$k" || return 1
		done
	)
}

# one_case DIR NAME K J DIFFOPT: applies answer NAME written at v<K> at
# v<J>; appends "NAME K J expected got" to results.
one_case () {
	oc_dir=$1 oc_name=$2 oc_k=$3 oc_j=$4 oc_opt=$5 &&
	eval "oc_perl=\$answer_$oc_name" &&
	(
		cd "$oc_dir" &&
		git checkout -q -f "v$oc_k" &&
		git show "v$oc_k:f.c" >../base.c &&
		perl -0pe "$oc_perl" ../base.c >../theirs.c &&
		if cmp -s ../base.c ../theirs.c
		then
			exit 0 # the answer's target is not in v<K>
		fi &&
		cp ../theirs.c f.c &&
		if test "$oc_opt" = noindex
		then
			git diff | sed "/^index /d" >../answer.diff
		else
			git diff >../answer.diff
		fi &&
		git checkout -q -f "v$oc_j" &&
		cp f.c ../expect.c &&
		if git apply ../answer.diff 2>/dev/null
		then
			# applies as it is: git apply --3way would not merge
			cp f.c ../expect.c &&
			git checkout -q -f "v$oc_j" &&
			expected=clean
		elif git merge-file -q ../expect.c ../base.c ../theirs.c
		then
			if cmp -s f.c ../expect.c
			then
				expected=noop
			else
				expected=clean
			fi
		else
			expected=refused
		fi &&
		git ai-apply ../answer.diff >/dev/null 2>../err
		rc=$?
		if test $rc != 0
		then
			if git diff --quiet HEAD
			then
				got=refused
			else
				got=refused-but-written
			fi
		elif git diff --quiet HEAD
		then
			got=noop
		elif git diff --quiet && git show :f.c | cmp -s - ../expect.c
		then
			got=clean
		else
			got=different
		fi &&
		echo "$oc_name $oc_k $oc_j $oc_opt $expected $got" >>../results
	)
}

# run_family DIR NAME DIFFOPT [ONLY_LATER]: every k and j for one answer.
run_family () {
	for k in 0 1 2 3 4 5 6 7
	do
		for d in 1 2 3 4 5 -1 -2 -3
		do
			j=$((k + d))
			test $j -ge 0 && test $j -le 7 || continue
			test -z "$4" || test $d -gt 0 || continue
			one_case "$1" "$2" $k $j "$3" || return 1
		done
	done
}

# wrong NAME OPT: the cases of NAME whose result is not the right one.
wrong () {
	awk -v n="$1" -v o="$2" '$1 == n && $4 == o && $5 != $6' results
}

test_expect_success 'setup: the histories' '
	make_history lf "" &&
	make_history crlf crlf &&
	: >results
'

# eof and top: a hunk with no trailing context lands at the file's end
# only, one with no leading context at its start only (issue 7 point 2,
# the hunk engine's anchoring), so upstream's own lines there conflict.
for name in line twin readded moved upstream partly eof top
do
	test_expect_success "answer '$name' with its index line: 0 wrong" "
		run_family lf $name index &&
		wrong $name index >wrong.$name &&
		test_must_be_empty wrong.$name
	"
done

test_expect_success 'answer "line" in CRLF: 0 wrong' '
	run_family crlf line crlf &&
	wrong line crlf >wrong.crlf &&
	test_must_be_empty wrong.crlf
'

for name in line twin moved
do
	test_expect_success "answer '$name' without an index line, applied later: 0 wrong" "
		run_family lf $name noindex later &&
		wrong $name noindex >wrong.noindex.$name &&
		test_must_be_empty wrong.noindex.$name
	"
done

test_expect_success 'every kind of expected result occurs' '
	for e in clean refused noop
	do
		awk "\$5 == \"$e\"" results >kind.$e &&
		test -s kind.$e || return 1
	done
'

test_done
