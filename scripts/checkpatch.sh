#!/bin/bash
# checkpatch.sh [SERIES [TREE]]: run the tree's checkpatch.pl --strict over
# a series (default patches/series). Prints one line per problem and fails
# if there is any. Debian's python3 is put first on PATH so that
# spdxcheck.py finds python3-ply and python3-git.
#
# checkpatch asks "does MAINTAINERS need updating?" of every patch that
# adds a file. Instead of that question (FILE_PATH_CHANGES), when TREE (the
# series applied) is given, every file the series adds must have a
# maintainer in TREE's MAINTAINERS other than the catch-all list.
#
# A series may list problems it keeps on purpose in checkpatch-known next
# to its series file, one checkpatch line each (its line number is not
# compared), with a # comment that says why: those are printed as known
# and do not fail.
set -eu
. "$(dirname "$0")/lib.sh"

series_file=$(realpath "${1:-$TOP/patches/series}")
tree=${2:+$(realpath "$2")}
[ -x "$SRC/scripts/checkpatch.pl" ] || die "no tree at $SRC (run 'make tree')"
[ -f "$series_file" ] || die "no series file $series_file"
# Run from the series' directory: outside git, checkpatch reads the files
# as patches (inside a work tree it takes a tracked file for source).
cd "$(dirname "$series_file")"
mapfile -t series < <(grep -v '^\s*#' "$series_file" | grep .)
[ ${#series[@]} -gt 0 ] || die "$series_file is empty"
out=$(PATH=/usr/bin:$PATH "$SRC/scripts/checkpatch.pl" --strict --terse --no-summary \
	--ignore FILE_PATH_CHANGES --root="$SRC" "${series[@]}" 2>&1) || true
if [ -n "$tree" ]; then
	for f in $(awk '/^diff --git /{f=$4} /^new file mode/{sub("^b/", "", f); print f}' \
		"${series[@]}" | sort -u); do
		m=$(cd "$tree" && perl scripts/get_maintainer.pl --no-git --no-git-fallback \
			--no-rolestats --no-l --no-r -f "$f" 2>/dev/null) || true
		[ -n "$m" ] || out+="${out:+$'\n'}$f: added, but no MAINTAINERS entry covers it"
	done
fi
kept=""
known=$(dirname "$series_file")/checkpatch-known
# Compared without the line numbers, which move when a patch is edited.
nolines() { sed -E 's/^([^:]*):[0-9]+: /\1: /'; }
if [ -n "$out" ] && [ -f "$known" ]; then
	out=$(echo "$out" | nolines)
	kept=$(echo "$out" | grep -Fx -f <(grep -v '^#' "$known" | grep . | nolines) || true)
	[ -z "$kept" ] || echo "$kept" | sed 's/^/known (see checkpatch-known): /'
	out=$(echo "$out" | grep -Fxv -f <(grep -v '^#' "$known" | grep . | nolines) || true)
fi
if [ -n "$out" ]; then
	echo "$out"
	echo "checkpatch: $(echo "$out" | wc -l) problem(s) in ${#series[@]} patches"
	exit 1
fi
echo "checkpatch --strict: ${#series[@]} patches clean${kept:+ but for $(echo "$kept" | wc -l) known}${tree:+, every added file has a maintainer}"
