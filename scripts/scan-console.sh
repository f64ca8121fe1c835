#!/bin/bash
# scan-console.sh LOG LABEL
# Scan one guest console for kernel splats: one FAIL line per report
# (BUG, WARNING, Oops, lockdep, sleeping in atomic, KASAN, panic), as
# ktest counts one bug per call trace: a report starts at its first line
# and ends at "---[ end ...", so the Oops and panic that follow a BUG
# count once. PASS if there is none. Test results are results.sh's job.
# Exits 1 if any line is FAIL.
set -u
log=$1 label=$2
[ -f "$log" ] || { echo "FAIL $label: no console log $log"; exit 1; }

tr -d '\r' <"$log" | awk -v label="$label" '
/BUG:|WARNING:|Oops|general protection fault|Kernel panic|possible recursive locking|possible circular locking|inconsistent lock state/ {
	if (!open) { print "FAIL " label ": splat: " $0; n++ }
	open = 1
}
/---\[ end / { open = 0 }
END {
	if (!n) print "PASS " label ": console free of splats"
	exit n > 0
}'
