#!/bin/bash
# results.sh KTAP CONSOLE LABEL [KUNIT_SUITE...]
# Turn one boot's results into lines "PASS|FAIL|SKIP LABEL: what", read
# with the tree's own KTAP parser (tools/testing/kunit/kunit.py parse
# --json), as kunit.py reads a QEMU run:
#  - KUnit: the KTAP that the kernel printed on CONSOLE before /init
#    started; every case counts, each parameter of a parameterized case
#    too; every KUNIT_SUITE named must have run;
#  - the guest programs: KTAP, the document guest/init wrote on the
#    results port; each program is a subtest with its own results. A
#    program that exited non-zero with no failed result fails, and so does
#    a document with fewer programs than it planned (the guest stopped).
# Splats are scan-console.sh's job. Exits 1 if any line is FAIL.
set -u
. "$(dirname "$0")/lib.sh"

ktap=$1 console=$2 label=$3
shift 3
kunit=$SRC/tools/testing/kunit/kunit.py
[ -f "$kunit" ] || die "no $kunit: run scripts/unpack.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# parse NAME: KTAP on stdin -> $tmp/NAME.json ("" when unreadable).
parse() {
	tr -d '\r' | python3 "$kunit" parse --json="$tmp/$1.json" >"$tmp/$1.log" 2>&1
	[ -s "$tmp/$1.json" ] || { : >"$tmp/$1.json"; return 1; }
}

# leaves PREFIX: "STATUS<tab>PREFIXpath/to/case" for every leaf of the JSON
# on stdin; kunit.py says PASS, SKIP, FAIL or ERROR (a crashed test).
leaves() {
	jq -r --arg p "$1" 'def l(p): (.test_cases[] | "\(.status)\t\(p)\(.name)"),
		(.sub_groups[] | .name as $n | l(p + $n + "/")); l($p)'
}

# out [KTAP]: the leaves as PASS/FAIL/SKIP lines; a FAIL line ends with
# the reason its "not ok" line in KTAP gave, so that a failure in a
# summary says why.
out() {
	awk -F'\t' -v label="$label" -v ktap="${1:-/dev/null}" '
	BEGIN { while ((getline l < ktap) > 0) {
		sub(/\r$/, "", l)
		if (l !~ /^[ \t]*not ok [0-9]+ .* # /) continue
		sub(/^[ \t]*not ok [0-9]+ /, "", l)
		k = index(l, " # ")
		why[substr(l, 1, k - 1)] = substr(l, k + 3)
	} }
	{
		s = $1 == "PASS" || $1 == "SKIP" ? $1 : "FAIL"
		what = $2 ~ /(^|\/)$/ ? $2 "(a result is missing)" : $2
		line = s " " label ": " what ($1 == "ERROR" ? " (crashed)" : "")
		if (s == "FAIL")
			for (n in why)
				if (what == n || substr(what, length(what) - length(n)) == "/" n) {
					line = line " (" why[n] ")"
					break
				}
		print line
	}'
}

# KUnit runs at boot, before /init prints its first line.
if [ -f "$console" ]; then
	sed -n '/^HARNESS: /q; p' "$console" | parse kunit
	leaves kunit/ <"$tmp/kunit.json" | out
	for s in "$@"; do
		jq -e --arg s "$s" 'any(.sub_groups[]; .name == $s)' "$tmp/kunit.json" >/dev/null 2>&1 ||
			echo "FAIL $label: kunit suite $s did not run"
	done
else
	echo "FAIL $label: no console log $console"
fi

if [ ! -s "$ktap" ]; then
	echo "FAIL $label: no results from the guest ($ktap empty or missing)"
elif ! parse guest <"$ktap"; then
	echo "FAIL $label: kunit.py could not read $ktap: $(tail -n 1 "$tmp/guest.log")"
else
	leaves "" <"$tmp/guest.json" | tee "$tmp/guest.leaves" | out "$ktap"
	# The programs' own lines: the unindented results of the document.
	tr -d '\r' <"$ktap" | awk -v label="$label" -v leaves="$tmp/guest.leaves" '
		BEGIN { while ((getline l < leaves) > 0) if (l !~ /^(PASS|SKIP)\t/) {
			split(l, f, "\t"); sub(/\/.*/, "", f[2]); failed[f[2]] = 1 } }
		/^1\.\.[0-9]+/ && plan == "" { plan = substr($1, 4) + 0 }
		/^(not )?ok [0-9]+ / {
			n++
			name = $0; sub(/^(not )?ok [0-9]+ /, "", name); sub(/ # .*/, "", name)
			rc = $0; sub(/.*# exit=/, "", rc)
			if ($1 == "not" && !(name in failed))
				print "FAIL " label ": " name ": exit status " rc " with no failed result"
		}
		END {
			if (plan == "") print "FAIL " label ": the results have no plan"
			else if (n < plan) print "FAIL " label ": the guest stopped after " n " of " plan " programs"
		}'
fi | tee "$tmp/all"
! grep -q '^FAIL' "$tmp/all"
