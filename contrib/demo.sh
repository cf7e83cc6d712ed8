#!/bin/sh
# make demo: a throw-away repository, every example answer in
# Documentation/examples/ applied in the default mode and with --branch.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
PATH="$top:$PATH"
demo=$(mktemp -d "${TMPDIR:-/tmp}/ai-apply-demo.XXXXXX")
trap 'rm -rf "$demo"' EXIT
cd "$demo"
git init -q -b main .
git config user.name "Demo User"
git config user.email "demo@example.com"
# The files the examples talk about, as they stand before the change.
if test -d "$top/Documentation/examples/base"
then
	cp -R "$top/Documentation/examples/base/." .
fi
git add -A
git commit -q --allow-empty -m "demo: base"

for answer in "$top"/Documentation/examples/*.md
do
	name=$(basename "$answer" .md)
	echo "=== $name: git ai-apply --branch=demo/$name"
	git ai-apply --branch="demo/$name" "$answer" || echo "(failed: $?)"
	git log --stat --format='%h %s' -1 "demo/$name" 2>/dev/null || true
	echo
done

for answer in "$top"/Documentation/examples/*.md
do
	name=$(basename "$answer" .md)
	echo "=== $name: git ai-apply (index + work tree)"
	git ai-apply "$answer" || echo "(failed: $?)"
	git diff --cached --stat
	git commit -q -m "demo: $name" || true
	echo
done
