#!/bin/bash
# export-series.sh DEVTREE: write the commits of DEVTREE since tag "base"
# to patches/ as git format-patch files plus a series file. For developers
# who edit the series as commits; the harness itself only reads patches/.
set -eu
. "$(dirname "$0")/lib.sh"
dev=$(realpath "${1:?usage: export-series.sh DEVTREE}")
rm -f "$TOP"/patches/*.patch
# suppressBlankEmpty: a blank context line is written empty, not as one
# space, so that checkpatch stays clean even where it takes a git-tracked
# .patch for a source file (run from the top of this repository).
git -C "$dev" -c diff.suppressBlankEmpty=true format-patch -q --no-signature --zero-commit -o "$TOP/patches" base
(cd "$TOP/patches" && ls -- *.patch >series)
cat "$TOP/patches/series"
