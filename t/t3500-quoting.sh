#!/bin/sh

test_description='no raw control byte from an answer reaches the terminal

Paths and text from an answer are printed as git prints paths
(quote_c_style: \t \n \r \a, octal for ESC and the rest, and bytes of
a UTF-8 name as octal, core.quotePath being true by default). Every
format, every kind of message: invalid paths, missing and existing
files, text that is not found, malformed blocks.'

. "$(dirname "$0")/test-lib.sh"

ESC=$(printf "\033")
BEL=$(printf "\007")
CR=$(printf "\r")
TAB=$(printf "\t")
# a path that paints the screen red, rings, and returns to column 0
EVIL="x${ESC}[31mred${BEL}${CR}fake"
UTF="caf$(printf "\303\251").txt"

# no_raw_control FILE...: no control byte but the newline ending lines,
# and no C1 control, in any of the files.
no_raw_control () {
	for f
	do
		if LC_ALL=C grep -n -a -P "[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]" "$f"
		then
			echo "raw control bytes in $f:" && od -c "$f" | head -n 20
			return 1
		fi
	done
}

# json_clean FILE: --json output is valid JSON whose strings escape
# every control byte (the TAB and LF of cJSON's layout are not in strings).
json_clean () {
	jq . "$1" >/dev/null &&
	if LC_ALL=C grep -n -a -P "[\x00-\x08\x0b-\x1f]" "$1"
	then
		echo "raw control bytes in $1" && return 1
	fi
}

# refused ANSWER: rejected in every mode; stderr and stdout (also of
# --json, which is JSON-escaped) free of raw control bytes; the error
# is in "err" for the caller.
refused () {
	(
		cd repo &&
		test_rejected "../$1" &&
		no_raw_control err "$(snapshot_dir)/out" &&
		test_expect_code 1 git ai-apply --check "../$1" >../out.check 2>../err.check &&
		test_expect_code 1 git ai-apply --json "../$1" >../out.json 2>../err.json &&
		no_raw_control ../out.check ../err.check ../err.json &&
		json_clean ../out.json &&
		cp err ../err
	)
}

test_expect_success 'setup' '
	make_repo repo &&
	(
		cd repo &&
		printf "caf\n" >"$UTF" &&
		printf "one\ntwo\n" >plain.txt &&
		git add . && git commit -q -m files
	)
'

test_expect_success 'companion: START-FILE and DELETE-FILE with a hostile path' '
	printf -- "--- START-FILE: %s ---\nx\n--- END-FILE: %s ---\n" "$EVIL" "$EVIL" >c1.md &&
	refused c1.md &&
	test_grep "x\\\\033\[31mred\\\\a\\\\rfake" err &&
	printf -- "--- DELETE-FILE: %s ---\n" "$EVIL" >c2.md &&
	refused c2.md &&
	test_grep "\\\\033" err
'

test_expect_success 'companion: a UTF-8 name that is missing, or exists' '
	printf -- "--- DELETE-FILE: new-%s ---\n" "$UTF" >c3.md &&
	refused c3.md &&
	test_grep "\"new-caf\\\\303\\\\251.txt\"" err &&
	printf -- "--- START-FILE: %s ---\nother\n--- END-FILE: %s ---\n" "$UTF" "$UTF" >c4.md &&
	refused c4.md &&
	test_grep "\"caf\\\\303\\\\251.txt\"" err
'

test_expect_success 'companion: an END line with control bytes is quoted' '
	printf -- "--- START-FILE: a.txt ---\nx\n--- END-FILE: b${ESC}]0;title${BEL} ---\n" >c5.md &&
	refused c5.md &&
	test_grep "does not close" err &&
	printf -- "--- START-PATCH: plain.txt ---\n@@ -1 +1 @@\n-on${ESC}e\n+1\n--- END-PATCH: plain.txt ---\n" >c6.md &&
	refused c6.md
'

test_expect_success 'file-changes: FILE_NEW, FILE_RENAME, FILE_PATCH, FILE_DELETE' '
	printf "<FILE_NEW file_path=\"%s\">\nx\n</FILE_NEW>\n" "$EVIL" >f1.md &&
	refused f1.md &&
	test_grep "\\\\033" err &&
	printf "<FILE_NEW file_path=\"a\nb${TAB}c\">\nx\n</FILE_NEW>\n" >f2.md &&
	refused f2.md &&
	test_grep "a\\\\nb\\\\tc" err &&
	printf "<FILE_RENAME from_path=\"plain.txt\" to_path=\"%s\" />\n" "$EVIL" >f3.md &&
	refused f3.md &&
	printf "<FILE_RENAME from_path=\"%s\" to_path=\"n.txt\" />\n" "$EVIL" >f4.md &&
	refused f4.md &&
	printf "<FILE_RENAME from_path=\"m-%s\" to_path=\"n.txt\" />\n" "$UTF" >f5.md &&
	refused f5.md &&
	test_grep "\\\\303\\\\251" err &&
	printf "<FILE_PATCH file_path=\"%s\">\n@@ -1 +1 @@\n-one\n+1\n</FILE_PATCH>\n" "$EVIL" >f6.md &&
	refused f6.md &&
	printf "<FILE_PATCH file_path=\"m-%s\">\n@@ -1 +1 @@\n-one\n+1\n</FILE_PATCH>\n" "$UTF" >f7.md &&
	refused f7.md &&
	printf "<FILE_DELETE file_path=\"%s\" />\n" "$EVIL" >f8.md &&
	refused f8.md &&
	printf "<FILE_CHANGES>\n<FILE_${ESC}X />\n</FILE_CHANGES>\n" >f9.md &&
	refused f9.md
'

test_expect_success 'aptix: bundle and patch paths, find text, root' '
	cat >a1.md <<-\EOF &&
	```json
	{"files": [{"path": "x\u001b[31mred\u0007\r\nfake", "content": "x"}]}
	```
	EOF
	refused a1.md &&
	test_grep "\\\\033" err &&
	cat >a2.md <<-\EOF &&
	```json
	{"patches": [{"path": "plain.txt", "replacements": [{"find": "\u001b[2J\u0007", "replace": "x"}]}]}
	```
	EOF
	refused a2.md &&
	cat >a3.md <<-\EOF &&
	```json
	{"patches": [{"path": "m-caf\u00e9.txt", "replacements": [{"find": "a", "replace": "b"}]}]}
	```
	EOF
	refused a3.md &&
	test_grep "\\\\303\\\\251" err &&
	cat >a4.md <<-\EOF &&
	```json
	{"root": "\u001b[31m", "files": [{"path": "a", "content": "x"}]}
	```
	EOF
	refused a4.md &&
	printf "\`\`\`json\n{\"files\": [{\"path\": \"a\", \"content\": \"x\", \"k${ESC}ey\": 1, \"${ESC}\": }]}\n\`\`\`\n" >a5.md &&
	refused a5.md
'

test_expect_success 'ap: file_path, snippets and keys' '
	cat >p1.ap <<-\EOF &&
	version: "2.0"
	changes:
	  - file_path: "x\e[31mred\a\r\nfake"
	    modifications:
	      - action: DELETE
	        snippet: "one"
	EOF
	refused p1.ap &&
	test_grep "\\\\033" err &&
	cat >p2.ap <<-\EOF &&
	version: "2.0"
	changes:
	  - file_path: "plain.txt"
	    modifications:
	      - action: REPLACE
	        snippet: "\e]0;pwned\a"
	        content: "x"
	EOF
	refused p2.ap &&
	cat >p3.ap <<-\EOF &&
	version: "2.0"
	changes:
	  - file_path: "m-caf\u00e9.txt"
	    modifications:
	      - action: DELETE
	        snippet: "one"
	EOF
	refused p3.ap &&
	test_grep "\\\\303\\\\251" err &&
	printf "version: \"2.0\"\nchanges:\n  - file_path: a\n    k${ESC}ey: 1\n" >p4.ap &&
	refused p4.ap &&
	printf "version: \"2.0\"\nchanges:\n  - file_path: \"${ESC}[2J\n" >p5.ap &&
	refused p5.ap
'

test_expect_success 'diff: quoted and plain hostile names, hunk text' '
	cat >d1.diff <<-\EOF &&
	diff --git "a/x\033[31mred\a\r\nfake" "b/x\033[31mred\a\r\nfake"
	new file mode 100644
	--- /dev/null
	+++ "b/x\033[31mred\a\r\nfake"
	@@ -0,0 +1 @@
	+x
	EOF
	refused d1.diff &&
	test_grep "\\\\033" err &&
	printf -- "--- a/m-%s\n+++ b/m-%s\n@@ -1 +1 @@\n-one\n+1\n" "$UTF" "$UTF" >d2.diff &&
	refused d2.diff &&
	test_grep "\\\\303\\\\251" err &&
	printf -- "--- a/plain.txt\n+++ b/plain.txt\n@@ -1 +1 @@\n-on${ESC}[2Je\n+1${BEL}\n" >d3.diff &&
	refused d3.diff &&
	printf -- "--- a/plain.txt\n+++ b/plain.txt\n@@ -1 +1 @${ESC}[2J\n-one\n+1\n" >d4.diff &&
	refused d4.diff
'

test_expect_success 'the refusal sentence and prose are quoted' '
	printf "A patch cannot be safely generated${ESC}[2J with the information provided.\n" >r1.md &&
	refused r1.md &&
	test_grep "\\\\033" err
'

test_expect_success 'a UTF-8 name that lands is printed quoted, as git does' '
	printf -- "--- START-REPLACE-FILE: %s ---\nnew\n--- END-REPLACE-FILE: %s ---\n" "$UTF" "$UTF" >ok.md &&
	(
		cd repo &&
		git ai-apply --check ../ok.md >../out 2>../err &&
		git ai-apply --check --stat ../ok.md >>../out 2>>../err &&
		git ai-apply --check --diff ../ok.md >>../out 2>>../err
	) &&
	no_raw_control out err &&
	test_grep "^M \"caf\\\\303\\\\251.txt\" (+1 -1)" out &&
	test_grep "^ \"caf\\\\303\\\\251.txt\" | " out &&
	test_grep "^diff --git \"a/caf\\\\303\\\\251.txt\" \"b/caf\\\\303\\\\251.txt\"" out
'

test_expect_success '--diff output with a quoted name is taken by git apply' '
	rm -rf w-apply && cp -R repo w-apply &&
	(
		cd w-apply &&
		git update-index -q --refresh &&
		git ai-apply --check --diff ../ok.md >../ok.diff &&
		git apply --index ../ok.diff &&
		printf "new\n" >../expect &&
		test_cmp ../expect "$UTF"
	)
'

test_expect_success '--json keeps the raw path (JSON-escaped)' '
	(
		cd repo &&
		test_expect_code 1 git ai-apply --json ../c3.md >../out.json 2>/dev/null &&
		test_expect_code 1 git ai-apply --json ../f3.md >../out3.json 2>/dev/null
	) &&
	jq -r ".errors[].path" out.json >paths &&
	echo "new-$UTF" >expect &&
	test_cmp expect paths &&
	json_clean out3.json
'

test_done
