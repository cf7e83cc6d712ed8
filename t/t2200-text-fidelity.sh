#!/bin/sh

test_description='text fidelity: line endings, BOM, UTF-16, final newline'

. "$(dirname "$0")/test-lib.sh"
. "$AA_TEST_DIR/fixtures/sources.sh"

# The assistant always sees (and patches) plain UTF-8 text with LF line
# endings; the files in the repository are not always that. Each test
# writes the expected bytes itself (printf, iconv, sed) and compares the
# work-tree file and the staged blob with cmp.

# ai_patch NAME PATH EDIT: the text on stdin is PATH as the assistant saw
# it; NAME.diff is git's diff of EDIT (a function run on PATH) on it.
ai_patch () {
	rm -rf view && git init -q view &&
	mkdir -p "view/$(dirname "$2")" &&
	cat >"view/$2" &&
	(
		cd view &&
		git add . &&
		git commit -q -m seen &&
		$3 "$2" &&
		git diff
	) >"$1.diff"
}

# same_bytes EXPECT PATH: the work-tree file and the staged blob of PATH
# (run inside the repository) are EXPECT byte for byte.
same_bytes () {
	git cat-file blob ":$2" >../staged.tmp &&
	if ! cmp "$1" "$2" || ! cmp "$1" ../staged.tmp
	then
		echo "expected:" && od -c "$1" | tail -n 8 &&
		echo "work tree:" && od -c "$2" | tail -n 8 &&
		echo "staged:" && od -c ../staged.tmp | tail -n 8
		return 1
	fi
}

to_crlf () {
	sed 's/$/\r/' "$@"
}

program_cs () {
	cat <<\EOF
using System;
using System.Collections.Generic;

namespace Greeter
{
    internal static class Program
    {
        private static readonly Dictionary<string, string> Greetings = new()
        {
            ["en"] = "Hello",
            ["fr"] = "Bonjour",
            ["de"] = "Hallo",
        };

        private static int Main(string[] args)
        {
            var lang = args.Length > 1 ? args[1] : "en";
            var name = args.Length > 0 ? args[0] : "world";

            if (!Greetings.TryGetValue(lang, out var greeting))
            {
                Console.Error.WriteLine("unknown language: " + lang);
                return 2;
            }

            Console.WriteLine(greeting + ", " + name);
            return 0;
        }
    }
}
EOF
}

edit_program () {
	sed -i -e 's/            \["de"\] = "Hallo",/&\n            ["es"] = "Hola",/' \
		-e 's/Console.WriteLine(greeting + ", " + name);/Console.WriteLine($"{greeting}, {name}!");/' "$1"
}

messages_txt () {
	cat <<\EOF
[de]
size=Größe
price=Preis: 10 €
close=Schließen
[fr]
size=Taille
price=Prix : 10 €
close=Fermer
EOF
}

edit_messages () {
	sed -i -e 's/^close=Schließen$/close=Schließen\nopen=Öffnen/' \
		-e 's/^price=Prix : 10 €$/price=Prix : 10,00 €/' "$1"
}

add_after_mode () {
	sed -i 's/^mode = fast$/&\ncache = on/' "$1"
}

add_after_c () {
	sed -i 's/^c = 3$/&\ne = 5/' "$1"
}

edit_cart_head () {
	sed -i "1s/^'use strict';\$/'use strict'; \/\/ eslint-disable-line strict/" "$1"
}

edit_main_print () {
	sed -i 's/print(sys.argv)/print(sys.argv[1:])/' "$1"
}

edit_exit_line () {
	sed -i 's/^sys.exit(main())$/if __name__ == "__main__":\n    sys.exit(main())/' "$1"
}

# the same, on a file without a final newline, adding one
edit_exit_line_nl () {
	perl -0pi -e 's/sys\.exit\(main\(\)\)\z/if __name__ == "__main__":\n    sys.exit(main())\n/' "$1"
}

drop_final_newline () {
	perl -0pi -e 's/\n\z//' "$1"
}

append_line () {
	perl -0pi -e 's/\z/\nreally the last\n/' "$1"
}

test_expect_success 'setup' '
	make_repo repo &&
	(
		cd repo &&
		mkdir -p win conf web res &&
		program_cs | to_crlf >win/Program.cs &&
		printf "[core]\nname = demo\r\npath = /srv/demo\nmode = fast\nlevel = 3\n" >conf/app.ini &&
		printf "a = 1\r\nb = 2\nc = 3\r\nd = 4\r\n" >conf/win.ini &&
		printf "\357\273\277" >web/index.js &&
		write_cart_js cart.tmp &&
		cat cart.tmp >>web/index.js &&
		rm cart.tmp &&
		printf "\377\376" >res/messages.txt &&
		messages_txt | to_crlf | iconv -f UTF-8 -t UTF-16LE >>res/messages.txt &&
		printf "\376\377" >res/messages-be.txt &&
		messages_txt | iconv -f UTF-8 -t UTF-16BE >>res/messages-be.txt &&
		printf "import sys\n\n\ndef main():\n    print(sys.argv)\n    return 0\n\n\nsys.exit(main())" >nonl.py &&
		printf "line one\r\nline two\r\nlast line" >nonl-crlf.txt &&
		git add . &&
		git commit -q -m files &&
		git tag base
	) &&
	test_grep -c "$(printf "\r")\$" repo/win/Program.cs
'

test_expect_success 'CRLF file, LF patch: every line keeps CRLF, new lines get CRLF' '
	program_cs | ai_patch crlf win/Program.cs edit_program &&
	test_grep "^+            \[\"es\"\] = \"Hola\",\$" crlf.diff &&
	! grep "$(printf "\r")" crlf.diff &&
	program_cs >expect.lf &&
	edit_program expect.lf &&
	to_crlf expect.lf >expect &&
	rm -rf w && cp -R repo w &&
	(
		cd w &&
		git ai-apply ../crlf.diff &&
		same_bytes ../expect win/Program.cs
	)
'

test_expect_success 'CRLF answer on a CRLF file' '
	chat_answer diff crlf.diff | to_crlf >answer.md &&
	rm -rf w2 && cp -R repo w2 &&
	(
		cd w2 &&
		git ai-apply ../answer.md &&
		same_bytes ../expect win/Program.cs
	)
'

test_expect_success 'mixed line endings: each untouched line keeps its own, new lines the dominant one' '
	printf "[core]\nname = demo\npath = /srv/demo\nmode = fast\nlevel = 3\n" |
	ai_patch mixed conf/app.ini add_after_mode &&
	printf "a = 1\nb = 2\nc = 3\nd = 4\n" |
	ai_patch mixed2 conf/win.ini add_after_c &&
	rm -rf w3 && cp -R repo w3 &&
	(
		cd w3 &&
		git ai-apply ../mixed.diff ../mixed2.diff &&
		printf "[core]\nname = demo\r\npath = /srv/demo\nmode = fast\ncache = on\nlevel = 3\n" >../expect &&
		same_bytes ../expect conf/app.ini &&
		printf "a = 1\r\nb = 2\nc = 3\r\ne = 5\r\nd = 4\r\n" >../expect &&
		same_bytes ../expect conf/win.ini
	)
'

test_expect_success 'UTF-8 BOM is kept when the first line is patched' '
	write_cart_js cart.js &&
	ai_patch bom web/index.js edit_cart_head <cart.js &&
	test_grep "^-.use strict.;" bom.diff &&
	rm -rf w4 && cp -R repo w4 &&
	(
		cd w4 &&
		git ai-apply ../bom.diff &&
		cp ../cart.js ../expect.nobom &&
		edit_cart_head ../expect.nobom &&
		{ printf "\357\273\277" && cat ../expect.nobom; } >../expect &&
		same_bytes ../expect web/index.js &&
		head -c 3 web/index.js | od -An -tx1 >../head &&
		echo " ef bb bf" >../expect.head &&
		test_cmp ../expect.head ../head
	)
'

test_expect_success 'UTF-16LE file with BOM patched by a UTF-8 patch' '
	messages_txt | ai_patch utf16 res/messages.txt edit_messages &&
	test_grep "^+open=Öffnen" utf16.diff &&
	messages_txt >expect.utf8 &&
	edit_messages expect.utf8 &&
	{ printf "\377\376" && to_crlf expect.utf8 | iconv -f UTF-8 -t UTF-16LE; } >expect &&
	rm -rf w5 && cp -R repo w5 &&
	(
		cd w5 &&
		git ai-apply ../utf16.diff &&
		same_bytes ../expect res/messages.txt
	)
'

test_expect_success 'UTF-16BE file with BOM patched by a UTF-8 patch' '
	messages_txt | ai_patch utf16be res/messages-be.txt edit_messages &&
	{ printf "\376\377" && iconv -f UTF-8 -t UTF-16BE expect.utf8; } >expect &&
	rm -rf w6 && cp -R repo w6 &&
	(
		cd w6 &&
		git ai-apply ../utf16be.diff &&
		same_bytes ../expect res/messages-be.txt
	)
'

test_expect_success 'missing final newline kept by an edit elsewhere' '
	printf "import sys\n\n\ndef main():\n    print(sys.argv)\n    return 0\n\n\nsys.exit(main())\n" |
	ai_patch nonl nonl.py edit_main_print &&
	! grep "No newline" nonl.diff &&
	rm -rf w7 && cp -R repo w7 &&
	(
		cd w7 &&
		git ai-apply ../nonl.diff &&
		printf "import sys\n\n\ndef main():\n    print(sys.argv[1:])\n    return 0\n\n\nsys.exit(main())" >../expect &&
		same_bytes ../expect nonl.py
	)
'

test_expect_success 'missing final newline kept when the last line is patched without a marker' '
	printf "import sys\n\n\ndef main():\n    print(sys.argv)\n    return 0\n\n\nsys.exit(main())\n" |
	ai_patch nonl2 nonl.py edit_exit_line &&
	! grep "No newline" nonl2.diff &&
	rm -rf w8 && cp -R repo w8 &&
	(
		cd w8 &&
		git ai-apply ../nonl2.diff &&
		printf "import sys\n\n\ndef main():\n    print(sys.argv)\n    return 0\n\n\nif __name__ == \"__main__\":\n    sys.exit(main())" >../expect &&
		same_bytes ../expect nonl.py
	)
'

test_expect_success '"\ No newline" on the old side only: the final newline is added' '
	printf "import sys\n\n\ndef main():\n    print(sys.argv)\n    return 0\n\n\nsys.exit(main())" |
	ai_patch addnl nonl.py edit_exit_line_nl &&
	test $(grep -c "^\\\\ No newline at end of file" addnl.diff) = 1 &&
	rm -rf w9 && cp -R repo w9 &&
	(
		cd w9 &&
		git ai-apply ../addnl.diff &&
		printf "import sys\n\n\ndef main():\n    print(sys.argv)\n    return 0\n\n\nif __name__ == \"__main__\":\n    sys.exit(main())\n" >../expect &&
		same_bytes ../expect nonl.py
	)
'

test_expect_success '"\ No newline" on the new side only: the final newline is removed' '
	write_cart_js cart.js &&
	rm -rf w10 && cp -R repo w10 &&
	(
		cd w10 &&
		cp ../cart.js web/cart.js &&
		git add web/cart.js &&
		git commit -q -m cart
	) &&
	ai_patch rmnl web/cart.js drop_final_newline <cart.js &&
	test_grep -A1 "^+module.exports" rmnl.diff | test_grep "No newline" &&
	(
		cd w10 &&
		git ai-apply ../rmnl.diff &&
		cp ../cart.js ../expect &&
		drop_final_newline ../expect &&
		same_bytes ../expect web/cart.js &&
		test "$(tail -c 1 web/cart.js)" = ";"
	)
'

test_expect_success 'a CRLF file without final newline gets CRLF when "\ No newline" says so' '
	printf "line one\nline two\nlast line" |
	ai_patch crlfnl nonl-crlf.txt append_line &&
	test_grep "No newline" crlfnl.diff &&
	rm -rf w11 && cp -R repo w11 &&
	(
		cd w11 &&
		git ai-apply ../crlfnl.diff &&
		printf "line one\r\nline two\r\nlast line\r\nreally the last\r\n" >../expect &&
		same_bytes ../expect nonl-crlf.txt
	)
'

test_expect_success 'a new file from "\ No newline" has no final newline' '
	cat >create.diff <<-\EOF &&
	diff --git a/VERSION b/VERSION
	new file mode 100644
	index 0000000..8b8b2ba
	--- /dev/null
	+++ b/VERSION
	@@ -0,0 +1 @@
	+2.4.1
	\ No newline at end of file
	EOF
	rm -rf w12 && cp -R repo w12 &&
	(
		cd w12 &&
		git ai-apply ../create.diff &&
		printf "2.4.1" >../expect &&
		same_bytes ../expect VERSION
	)
'

# A real diff of a CRLF file (committed without autocrlf) carries the
# CRs inside its lines: "+line\r\n" in an answer whose own line breaks
# are LF. The CR is content there; git apply writes it, and so must we.
# real_crlf_diff NAME: NAME.diff, git's diff creating crlf/new.txt and
# editing crlf/old.txt, both CRLF files; NAME.expect/ is git apply's result.
real_crlf_diff () {
	rm -rf src && git init -q src &&
	(
		cd src &&
		git config core.autocrlf false &&
		mkdir crlf &&
		printf "keep 1\r\nkeep 2\r\nold line\r\nkeep 3\r\n" >crlf/old.txt &&
		printf "lf 1\nlf 2\n" >crlf/lf.txt &&
		git add . && git commit -q -m base &&
		printf "lf 1\nwin\r\nlf 2\n" >crlf/lf.txt &&
		printf "first\r\nsecond\r\n" >crlf/new.txt &&
		printf "keep 1\r\nkeep 2\r\nnew line\r\nkeep 3\r\nadded\r\n" >crlf/old.txt &&
		git add -N crlf/new.txt &&
		git diff
	) >"$1.diff" &&
	rm -rf "$1.expect" && cp -R src "$1.expect" &&
	(
		cd "$1.expect" &&
		git checkout -q -- . && git rm -q --cached crlf/new.txt &&
		rm crlf/new.txt && git apply --index "../$1.diff"
	)
}

test_expect_success 'setup: a real diff of CRLF files, LF between lines' '
	real_crlf_diff real &&
	test_grep "^+first$(printf "\r")\$" real.diff &&
	test_grep "^diff --git a/crlf/new.txt b/crlf/new.txt\$" real.diff
'

test_expect_success 'CR inside an LF answer is content: created and edited lines keep it' '
	rm -rf w13 && cp -R src w13 &&
	(
		cd w13 &&
		git checkout -q -- . && git rm -q --cached crlf/new.txt &&
		rm crlf/new.txt &&
		git ai-apply ../real.diff &&
		same_bytes ../real.expect/crlf/new.txt crlf/new.txt &&
		same_bytes ../real.expect/crlf/old.txt crlf/old.txt &&
		same_bytes ../real.expect/crlf/lf.txt crlf/lf.txt
	)
'

test_expect_success 'the created blob is the one the diff index line names' '
	(
		cd w13 &&
		short=$(sed -n "s/^index 0000000\.\.\([0-9a-f]*\)\$/\1/p" ../real.diff) &&
		test -n "$short" &&
		case "$(git rev-parse :crlf/new.txt)" in
		$short*) : ;;
		*) echo "blob $(git rev-parse :crlf/new.txt) is not $short"; false ;;
		esac
	)
'

test_expect_success 'CR inside an LF companion or file-changes body is content' '
	cat >cbody.md <<-EOF &&
	Here you go:

	--- START-FILE: win/new.bat ---
	@echo off$(printf "\r")
	echo hi$(printf "\r")
	--- END-FILE: win/new.bat ---

	<FILE_CHANGES>
	<FILE_NEW file_path="win/two.bat">
	rem two$(printf "\r")
	</FILE_NEW>
	</FILE_CHANGES>
	EOF
	rm -rf w14 && cp -R repo w14 &&
	(
		cd w14 &&
		git ai-apply ../cbody.md &&
		printf "@echo off\r\necho hi\r\n" >../expect &&
		same_bytes ../expect win/new.bat &&
		printf "rem two\r\n" >../expect &&
		same_bytes ../expect win/two.bat
	)
'

test_expect_success 'an answer that is CRLF throughout: CRLF is only its line break' '
	to_crlf cbody.md >cbody-crlf.md &&
	rm -rf w15 && cp -R repo w15 &&
	(
		cd w15 &&
		git ai-apply ../cbody-crlf.md &&
		printf "@echo off\r\necho hi\r\n" >../expect &&
		same_bytes ../expect win/new.bat
	) &&
	sed "s/\r\$//" cbody.md | to_crlf >plain-crlf.md &&
	rm -rf w16 && cp -R repo w16 &&
	(
		cd w16 &&
		git ai-apply ../plain-crlf.md &&
		printf "@echo off\necho hi\n" >../expect &&
		same_bytes ../expect win/new.bat
	)
'

# A CRLF file whose last line has no LF ends in a bare CR: with
# "\ No newline at end of file" after a line ending in CR, that CR is the
# file's last byte and must stay (context or added line alike).
test_expect_success 'a CR before "\ No newline at end of file" is the last byte of the file' '
	rm -rf eofcr && git init -q eofcr &&
	(
		cd eofcr &&
		git config core.autocrlf false &&
		printf "a\r\nb\r\nc\r" >f.txt &&
		git add f.txt && git commit -q -m base &&
		printf "a\r\nB\r\nc\r" >f.txt && git diff >../ctx.diff &&
		printf "a\r\nb\r\nc\r\nd\r" >f.txt && git diff >../add.diff &&
		git reset -q --hard &&
		for d in ctx add
		do
			git apply "../$d.diff" && cp f.txt "../$d.expect" &&
			git reset -q --hard &&
			git ai-apply "../$d.diff" &&
			same_bytes "../$d.expect" f.txt &&
			git reset -q --hard || return 1
		done
	)
'

# A whole file from a chat answer (companion, whole-file fence, aptix
# bundle) cannot carry a BOM, UTF-16 or CRLF: the file keeps its own.
test_expect_success 'whole-file replacements keep the BOM, CRLF and UTF-16 of the file they replace' '
	rm -rf whole && git init -q whole &&
	(
		cd whole &&
		git config core.autocrlf false &&
		printf "\357\273\277one\r\ntwo\r\nthree\r\n" >bom-crlf.txt &&
		printf "\377\376" >u16.txt &&
		printf "hi\r\nthere\r\n" | iconv -f UTF-8 -t UTF-16LE >>u16.txt &&
		printf "a\rb\r" >cr.txt &&
		printf "x = 1\r\ny = 2\r\n" >conf.ini &&
		printf "plain\nlf\n" >lf.txt &&
		git add . && git commit -q -m base
	) &&
	printf "%s\n" "--- START-REPLACE-FILE: bom-crlf.txt ---" one TWO three \
		"--- END-REPLACE-FILE: bom-crlf.txt ---" \
		"--- START-REPLACE-FILE: u16.txt ---" hi THERE new \
		"--- END-REPLACE-FILE: u16.txt ---" \
		"--- START-REPLACE-FILE: cr.txt ---" a B \
		"--- END-REPLACE-FILE: cr.txt ---" \
		"--- START-REPLACE-FILE: lf.txt ---" plain LF \
		"--- END-REPLACE-FILE: lf.txt ---" >whole.md &&
	printf "conf.ini\n\`\`\`ini\nx = 1\ny = 3\n\`\`\`\n" >whole2.md &&
	(
		cd whole &&
		git ai-apply ../whole.md ../whole2.md &&
		printf "\357\273\277one\r\nTWO\r\nthree\r\n" >../expect &&
		same_bytes ../expect bom-crlf.txt &&
		printf "\377\376" >../expect &&
		printf "hi\r\nTHERE\r\nnew\r\n" | iconv -f UTF-8 -t UTF-16LE >>../expect &&
		same_bytes ../expect u16.txt &&
		printf "a\rB\r" >../expect &&
		same_bytes ../expect cr.txt &&
		printf "plain\nLF\n" >../expect &&
		same_bytes ../expect lf.txt &&
		printf "x = 1\r\ny = 3\r\n" >../expect &&
		same_bytes ../expect conf.ini
	)
'

test_expect_success 'a whole file that is the current one but for its conventions is already applied' '
	(
		cd whole &&
		git commit -q -m applied &&
		git ai-apply ../whole.md ../whole2.md 2>err &&
		test_grep "already has this content; skipped" err &&
		git diff --cached --exit-code
	)
'

test_expect_success 'a whole-file CRLF answer over an LF file: the answer.s CRLF is only its line break' '
	printf "%s\r\n" "--- START-REPLACE-FILE: lf.txt ---" plain again \
		"--- END-REPLACE-FILE: lf.txt ---" >crlf-answer.md &&
	(
		cd whole &&
		git ai-apply ../crlf-answer.md &&
		printf "plain\nagain\n" >../expect &&
		same_bytes ../expect lf.txt
	)
'

test_done
