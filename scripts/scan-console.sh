#!/bin/bash
# scan-console.sh LOG LABEL [KUNIT_SUITE...]
# Turn one guest console log into result lines "PASS|FAIL|SKIP LABEL: what":
#  - every KUnit test case (KTAP, printed at boot);
#  - every KUnit suite named on the command line must have run;
#  - every TAP result of the guest programs between HARNESS-BEGIN/END, and
#    each program must have printed as many results as it planned and
#    exited 0 unless a result failed;
#  - the console must hold no splat (BUG, WARNING, Oops, lockdep report,
#    sleeping in atomic, panic); each one found is printed.
# Exits 1 if any line is FAIL.
set -u
log=$1 label=$2
shift 2

awk -v label="$label" -v want="$*" '
function res(kind, what) { print kind " " label ": " what; if (kind == "FAIL") bad = 1 }
BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) need[w[i]] = 1 }
{ sub(/\r$/, "") }
/^HARNESS-BEGIN / { prog = $2; plan = -1; got = 0; failed = 0; next }
/^HARNESS-END / {
	rc = $3; sub(/^rc=/, "", rc)
	if (plan < 0) res("FAIL", prog ": printed no TAP plan (exit status " rc ")")
	else if (got != plan) res("FAIL", prog ": " got " of " plan " planned results (exit status " rc ")")
	else if (rc != 0 && !failed) res("FAIL", prog ": exit status " rc " with no failed result")
	prog = ""; next
}
prog != "" && /^1\.\.[0-9]+/ { plan = substr($1, 4) + 0; next }
prog != "" && /^(not )?ok [0-9]+/ {
	got++
	line = $0; sub(/^(not )?ok [0-9]+ /, "", line)
	if ($1 == "not") { res("FAIL", prog "/" line); failed = 1 }
	else if (line ~ /# [Ss][Kk][Ii][Pp]/) res("SKIP", prog "/" line)
	else res("PASS", prog "/" line)
	next
}
/^    # Subtest: / { suite = $3; ran[suite] = 1; next }
/^    (not )?ok [0-9]+ / {
	line = $0; sub(/^    (not )?ok [0-9]+ /, "", line)
	if ($1 == "not") res("FAIL", "kunit/" suite "/" line)
	else if (line ~ /# SKIP/) res("SKIP", "kunit/" suite "/" line)
	else res("PASS", "kunit/" suite "/" line)
	next
}
/^HARNESS-DONE/ { done = 1 }
/BUG:|WARNING:|Oops|scheduling while atomic|sleeping function called from invalid context|possible recursive locking|possible circular locking|inconsistent lock state|Kernel panic|general protection fault|Call Trace:/ {
	splats++; res("FAIL", "splat: " $0)
}
END {
	for (s in need) if (!(s in ran)) res("FAIL", "kunit suite " s " did not run")
	if (!done) res("FAIL", "guest did not finish (no HARNESS-DONE)")
	if (!splats) res("PASS", "console free of splats")
	exit bad
}' "$log"
