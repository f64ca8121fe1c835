#!/bin/bash
# Unpack Debian's linux-source-6.12 tarball into $BUILD/src as a git
# repository whose first commit is tagged "base", so that the series can be
# applied (and each prefix rebuilt) with git.
set -eu
. "$(dirname "$0")/lib.sh"

tarball=${LINUX_TARBALL:-$(dpkg -L linux-source-6.12 2>/dev/null | grep '\.tar\.xz$' | head -n 1)}
[ -n "$tarball" ] && [ -f "$tarball" ] ||
	die "linux-source-6.12 tarball not found (is the package installed? run 'make deps')"

if git -C "$SRC" rev-parse -q --verify base >/dev/null 2>&1; then
	exit 0
fi
rm -rf "$SRC"
mkdir -p "$SRC"
tar -xf "$tarball" -C "$SRC" --strip-components=1
cd "$SRC"
git init -q
git config user.name harness
git config user.email harness@localhost
git config gc.auto 0
git add -A -f  # Debian's .gitignore ignores the whole top level
# Fixed dates, so that the same tarball gives the same commit everywhere
# and the cover letter's base-commit names it.
GIT_AUTHOR_DATE=1970-01-01T00:00:00Z GIT_COMMITTER_DATE=1970-01-01T00:00:00Z \
	git commit -q -m "Debian linux-source-6.12 ($(basename "$tarball"))"
git tag base
