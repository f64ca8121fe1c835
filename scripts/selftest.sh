#!/bin/bash
# selftest.sh: does the harness read results right? Feeds results.sh and
# scan-console.sh the boot in scripts/selftest/ (a real patched/none boot
# of make check, with three faults put in: the KUnit parameter case
# x86_clear_pages/clear_pages_test/erms fails, the guest program "faults"
# exits 3 after passing all its results, mm-selftests.sh reports a
# failed run with its reason, and a WARN with its call trace is on the
# console) and checks that each is one FAIL with its name (and reason)
# and that nothing else fails. Prints PASS/FAIL lines; exits 1 on a FAIL.
set -u
. "$(dirname "$0")/lib.sh"

dir=$TOP/scripts/selftest
res=$("$TOP/scripts/results.sh" "$dir/results.ktap" "$dir/console.log" selftest \
	x86_clear_pages folio_zero_user resched_ranges)
splats=$("$TOP/scripts/scan-console.sh" "$dir/console.log" selftest)
rc=0

# expect WHAT COUNT PATTERN TEXT: TEXT has COUNT lines matching PATTERN.
expect() {
	local n
	n=$(grep -c -- "$3" <<<"$4")
	if [ "$n" -eq "$2" ]; then
		echo "PASS harness: $1"
	else
		echo "FAIL harness: $1: $n lines match '$3', want $2"
		rc=1
	fi
}
expect "a failing KUnit parameter is one FAIL, by name" 1 \
	'^FAIL selftest: kunit/x86_clear_pages/clear_pages_test/erms$' "$res"
expect "a program exiting 3 with no failed result is one FAIL" 1 \
	'^FAIL selftest: faults: exit status 3 with no failed result$' "$res"
expect "a failed program result is one FAIL, with its reason" 1 \
	'^FAIL selftest: mm-selftests.sh/split_huge_page_test /tmp/mm-ro (exit status 1: No THP is allocated)$' "$res"
expect "nothing else fails" 3 '^FAIL' "$res"
# The fixture's KUnit results have 58 leaves: 54 parameters of 8
# parameterized cases and 4 plain cases; one fails, one skips.
expect "every parameter of every KUnit case is read (56 passed)" 56 \
	'^PASS selftest: kunit/' "$res"
expect "the CPU-dependent case is read as skipped" 1 \
	'^SKIP selftest: kunit/x86_clear_pages/clear_pages_test/clzero$' "$res"
expect "a WARN and its call trace are one FAIL" 1 \
	'^FAIL selftest: splat: WARNING: CPU: 1 PID: 1 at kernel/entry/common.c' "$splats"
expect "the WARN is the only splat" 1 '^FAIL' "$splats"
exit $rc
