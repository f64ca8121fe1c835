#!/bin/bash
# Run the tree's checkpatch.pl --strict over patches/series. Prints one
# line per problem and fails if there is any. Debian's python3 is put first
# on PATH so that spdxcheck.py finds python3-ply and python3-git.
set -eu
. "$(dirname "$0")/lib.sh"

[ -x "$SRC/scripts/checkpatch.pl" ] || die "no tree at $SRC (run 'make tree')"
cd "$TOP/patches"
mapfile -t series < <(grep -v '^\s*#' series | grep .)
[ ${#series[@]} -gt 0 ] || die "patches/series is empty"
out=$(PATH=/usr/bin:$PATH "$SRC/scripts/checkpatch.pl" --strict --terse --no-summary \
	--root="$SRC" "${series[@]}" 2>&1) || true
if [ -n "$out" ]; then
	echo "$out"
	echo "checkpatch: $(echo "$out" | wc -l) problem(s) in ${#series[@]} patches"
	exit 1
fi
echo "checkpatch --strict: ${#series[@]} patches clean"
