#!/bin/bash
# export-series.sh DEVTREE [OUTDIR]: write the commits of DEVTREE since tag
# "base" to OUTDIR (default patches/) as git format-patch files plus a
# series file. For developers who edit the series as commits; the harness
# itself only reads the exported files. patches/ gets a cover letter whose
# subject and text are kept from the one already there: edit them in
# patches/0000-cover-letter.patch, and the export refreshes the rest.
# If DEVTREE has a tag "product", the commits up to it are the product
# series (OUTDIR) and those after it the evaluation series (OUTDIR/eval).
set -eu
. "$(dirname "$0")/lib.sh"
dev=$(realpath "${1:?usage: export-series.sh DEVTREE [OUTDIR]}")
out=$(realpath -m "${2:-$TOP/patches}")
cover=$out/0000-cover-letter.patch
mkdir -p "$out"
opts=()
if [ "$out" = "$TOP/patches" ]; then
	[ -f "$cover" ] || die "$cover is missing: it holds the cover letter's text"
	# The subject, with its folded continuation lines.
	subject=$(awk '/^Subject: / {s=$0; next} s && /^ / {s=s $0; next} s {print s; exit}' \
		"$cover" | sed 's/^Subject: \[PATCH[^]]*\] //')
	# The text: from after the headers up to the shortlog ("Name (N):").
	awk 'body && /^[^ ].* \([0-9]+\):$/ {exit} body {print} /^$/ && !body {body=1}' \
		"$cover" >"$out/.blurb"
	opts=(--cover-letter --base=base)
fi
upto=HEAD
if git -C "$dev" rev-parse -q --verify product >/dev/null; then
	upto=product
	mkdir -p "$out/eval"
	rm -f "$out"/eval/0*.patch
	git -C "$dev" -c diff.suppressBlankEmpty=true format-patch -q --no-signature \
		--zero-commit -o "$out/eval" product..HEAD
	(cd "$out/eval" && ls -- 0*.patch >series)
fi
rm -f "$out"/0*.patch
# suppressBlankEmpty: a blank context line is written empty, not as one
# space, so that checkpatch stays clean even where it takes a git-tracked
# .patch for a source file (run from the top of this repository).
git -C "$dev" -c diff.suppressBlankEmpty=true format-patch -q --no-signature \
	--zero-commit "${opts[@]}" -o "$out" "base..$upto"
if [ ${#opts[@]} -gt 0 ]; then
	SUBJECT=$subject BLURB=$out/.blurb perl -0pi -e '
		open(my $f, "<", $ENV{BLURB}) or die; my $b = do { local $/; <$f> }; $b =~ s/\n+\z/\n/;
		s/\*\*\* SUBJECT HERE \*\*\*/$ENV{SUBJECT}/;
		s/\*\*\* BLURB HERE \*\*\*\n/$b/' "$cover"
	rm -f "$out/.blurb"
fi
(cd "$out" && ls -- 0*.patch | grep -v '^0000-cover-letter' >series)
cat "$out/series"
