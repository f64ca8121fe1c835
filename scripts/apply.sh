#!/bin/bash
# apply.sh [N]: apply the first N patches of patches/series (default: all)
# to the base tree with git am, and check the result out in $SRC_PATCHED.
# SERIES names other series files, space separated (absolute or relative
# to the top), applied one after the other, N counting through all: e.g.
# "patches/series patches/eval/series" (the patched kernel: the product
# with the evaluation series on top) or patches/seed/series. Each file's
# patches are read from its directory.
# The patches are applied in a scratch worktree; the build worktree then
# moves to the new commit with git checkout, which rewrites only the files
# that differ, so that an edit to one patch rebuilds only what it touches.
# APPLY_SCRATCH and APPLY_DEST name other worktrees, so that make bisect
# can run next to make check or make bench.
set -eu
. "$(dirname "$0")/lib.sh"

scratch=${APPLY_SCRATCH:-$BUILD/src-apply}
[ -d "$SRC/.git" ] || die "no tree at $SRC (run 'make tree')"
series=()
for f in ${SERIES:-$TOP/patches/series}; do
	[[ $f == /* ]] || f=$TOP/$f
	[ -f "$f" ] || die "no series file $f"
	mapfile -t -O ${#series[@]} series < <(grep -v '^\s*#' "$f" | grep . |
		sed "s|^|$(dirname "$f")/|")
done
n=${1:-${#series[@]}}
[ "$n" -le ${#series[@]} ] || die "series has ${#series[@]} patches, asked for $n"

[ -d "$scratch" ] || git -C "$SRC" worktree add -q --detach "$scratch" base
cd "$scratch"
git am --abort >/dev/null 2>&1 || true
git reset -q --hard base
git clean -fdqx
for p in "${series[@]:0:$n}"; do
	git am -q --whitespace=nowarn "$p" ||
		{ git am --abort; die "patch ${p#"$TOP"/} does not apply"; }
done
head=$(git rev-parse HEAD)

dest=${APPLY_DEST:-$SRC_PATCHED}
[ -d "$dest" ] || git -C "$SRC" worktree add -q --detach "$dest" base
git -C "$dest" checkout -q --detach "$head"
echo "$dest at $(git -C "$dest" log --oneline -1) ($n of ${#series[@]} patches)"
