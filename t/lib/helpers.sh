# Helpers shared by the command-line tests.

# test_rejected [ai-apply args...]: git ai-apply must exit 1, print an
# error to "err", and leave index, refs, objects and work tree unchanged.
# The error output is written outside the work tree first (so it does not
# count as a change), then copied to "err" for the caller to inspect.
test_rejected () {
	repo_snapshot rejected &&
	test_expect_code 1 git ai-apply "$@" >"$(snapshot_dir)/out" 2>"$(snapshot_dir)/err" &&
	repo_unchanged rejected &&
	cp "$(snapshot_dir)/err" err &&
	test_grep "error: " err
}

# test_grep PATTERN FILE: grep that shows the file when it fails.
test_grep () {
	if grep -a "$@"
	then
		return 0
	fi
	echo "test_grep: no match for '$1' in:"
	for last; do :; done
	cat "$last"
	return 1
}

# make_repo NAME: a repository with one commit of a few files.
make_repo () {
	git init -q "$1" &&
	(
		cd "$1" &&
		printf 'one\ntwo\nthree\n' >a.txt &&
		mkdir -p dir &&
		printf 'alpha\nbeta\n' >dir/b.txt &&
		git add . &&
		git commit -q -m initial
	)
}

# git's test-lib helpers that sharness 1.0 does not have.
test_path_is_file () {
	test -f "$1" || { echo "File $1 does not exist"; return 1; }
}

test_path_is_dir () {
	test -d "$1" || { echo "Directory $1 does not exist"; return 1; }
}

test_path_is_missing () {
	if test -e "$1" || test -h "$1"
	then
		echo "Path $1 exists"
		return 1
	fi
}

# fresh DIR: a copy of the base repository to apply into (without the
# "err" that test_rejected leaves in the repository).
fresh () {
	rm -rf "$1" && cp -R repo "$1" && rm -f "$1/err"
}

# staged_as PATH EXPECT: the index and the work tree both hold EXPECT's
# bytes at PATH (run inside a repository).
staged_as () {
	git show ":$1" >"$SHARNESS_TRASH_DIRECTORY/staged.tmp" &&
	test_cmp "$2" "$SHARNESS_TRASH_DIRECTORY/staged.tmp" &&
	test_cmp "$2" "$1"
}

# clean_result: work tree == index, nothing untracked, HEAD not moved.
clean_result () {
	git diff --exit-code &&
	test -z "$(git ls-files --others --exclude-standard)" &&
	test "$(git rev-parse HEAD)" = "$(git rev-parse base)"
}

# test_decode_color <in >out: each SGR escape sequence as a readable tag,
# as git's test_decode_color: "\033[m" <RESET>, "\033[1;31m" <BOLD;RED>,
# "\033[41m" <BRED> (a background), "\033[38;5;208m" <FG208>.
test_decode_color () {
	awk '
	function name(n) {
		if (n == 0) return "RESET"
		if (n == 1) return "BOLD"
		if (n == 2) return "FAINT"
		if (n == 3) return "ITALIC"
		if (n == 4) return "UL"
		if (n == 5) return "BLINK"
		if (n == 7) return "REVERSE"
		if (n >= 30 && n <= 37) return colors[n - 30]
		if (n >= 40 && n <= 47) return "B" colors[n - 40]
		if (n >= 90 && n <= 97) return "BRIGHT" colors[n - 90]
		if (n == 39) return "FGDEFAULT"
		if (n == 49) return "BGDEFAULT"
		return "SGR" n
	}
	function tag(params,    k, i, n, p, out) {
		if (params == "") return "<RESET>"
		n = split(params, p, ";")
		out = ""
		for (i = 1; i <= n; i++) {
			if ((p[i] == 38 || p[i] == 48) && p[i + 1] == 5) {
				k = (p[i] == 38 ? "FG" : "BG") p[i + 2]
				i += 2
			} else if ((p[i] == 38 || p[i] == 48) && p[i + 1] == 2) {
				k = (p[i] == 38 ? "FG" : "BG") "#" p[i + 2] "," p[i + 3] "," p[i + 4]
				i += 4
			} else {
				k = name(p[i] + 0)
			}
			out = out (out == "" ? "" : ";") k
		}
		return "<" out ">"
	}
	BEGIN {
		split("BLACK RED GREEN YELLOW BLUE MAGENTA CYAN WHITE", c, " ")
		for (i = 0; i < 8; i++) colors[i] = c[i + 1]
		esc = sprintf("%c", 27)
	}
	{
		line = $0
		out = ""
		while ((i = index(line, esc "[")) > 0) {
			rest = substr(line, i + 2)
			if (!match(rest, /^[0-9;]*m/)) {
				out = out substr(line, 1, i + 1)
				line = rest
				continue
			}
			out = out substr(line, 1, i - 1) tag(substr(rest, 1, RLENGTH - 1))
			line = substr(rest, RLENGTH + 1)
		}
		print out line
	}'
}
