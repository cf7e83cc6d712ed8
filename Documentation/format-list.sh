#!/bin/sh
# format-list.sh TOP: the formats of the registry as an AsciiDoc list,
# for the manual (make doc includes it; t0110 checks it).
#
# The names, and their order, are the table of src/format/registry.c
# (the order in which --format=auto tries them); each one's line is the
# parenthesised part of the title of Documentation/format-<name>.md, the
# page that says how that format is read. A format without such a page
# or title is an error: the manual cannot leave a format out.
set -e
top=${1:-.}
names=$(sed -n 's/.*\.name = "\([a-z0-9-]*\)".*/\1/p' "$top/src/format/registry.c")
test -n "$names" || {
	echo "format-list.sh: no format in $top/src/format/registry.c" >&2
	exit 1
}
for name in $names
do
	page="$top/Documentation/format-$name.md"
	title=
	test -f "$page" && title=$(sed -n 1p "$page")
	what=$(printf '%s\n' "$title" | sed -n 's/^# The `[^`]*` format (\(.*\)).*$/\1/p' |
		sed 's/).*//')
	test -n "$what" || {
		echo "format-list.sh: $page: no title \"# The \`$name\` format (...)\"" >&2
		exit 1
	}
	what=$(printf "%s" "$what" | awk "{ print toupper(substr(\$0, 1, 1)) substr(\$0, 2) }")
	printf '`%s`::\n\t%s; `Documentation/format-%s.md`.\n' "$name" "$what" "$name"
done
