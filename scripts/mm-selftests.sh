#!/bin/bash
# mm-selftests.sh OUTDIR: build the hugetlb and THP tests of the tree's own
# mm selftests (tools/testing/selftests/mm of $SRC) statically into OUTDIR,
# for guest/mm-selftests.sh to run from /tests/mm/ in the guest.
#
# Nothing is built in the source tree: the UAPI headers come from an out of
# tree "make O=$BUILD/mm-selftests/headers headers_install", and each test
# is compiled by hand with gcc, the way the selftests' Makefile would (same
# flags, plus vm_util.c and thp_settings.c), because that Makefile writes
# local_config.{h,mk} into the source tree and builds ~50 tests we don't want.
#
# Workarounds the 6.12.118 selftests need, applied here, never in the tree:
#  - "-include kselftest.h": khugepaged.c uses KSFT_SKIP without including
#    it;
#  - -D_GNU_SOURCE= as lib.mk does (it must come before the forced
#    kselftest.h pulls in libc headers) and -U_FORTIFY_SOURCE, as the mm
#    Makefile does (Debian's gcc enables it);
#  - -Wno-unused-function etc.: kselftest.h force-included everywhere
#    leaves unused static helpers.
#
# Tests built (hugetlb and THP, runnable in the minimal guest; how each is
# run, and why some subtests skip or are left out: guest/mm-selftests.sh):
#   hugepage-mmap hugepage-shm map_hugetlb hugepage-vmemmap hugetlb-madvise
#   hugetlb_dio hugetlb_fault_after_madv hugetlb_madv_vs_map thuge-gen
#   khugepaged split_huge_page_test transhuge-stress cow
# Left out, because the guest kernel (tinyconfig + config/guest.config) or
# the initramfs lacks what they need:
#   hugepage-mremap          userfaultfd (CONFIG_USERFAULTFD is off)
#   hugetlb-read-hwpoison,
#   hugetlb-soft-offline     CONFIG_MEMORY_FAILURE (MADV_HWPOISON/SOFT_OFFLINE)
#   charge_reserved_hugetlb.sh, hugetlb_reparenting_test.sh,
#   write_to_hugetlbfs       cgroups (CONFIG_CGROUPS off) and bash
#   uffd-stress, uffd-unit-tests  userfaultfd
#   migration, ksm_*         NUMA / libnuma, KSM
#   gup_test, gup_longterm   CONFIG_GUP_TEST
#   va_high_addr_switch      5-level paging and bash
#   compaction_test          not hugetlb/THP specific; locks most of RAM,
#                            far too slow under TCG
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 OUTDIR"
out=$(realpath -m "$1")
ksft=$SRC/tools/testing/selftests
mm=$ksft/mm
[ -f "$mm/vm_util.c" ] && [ -f "$ksft/kselftest.h" ] ||
	die "no mm selftests in $SRC (run 'make tree')"

tests="hugepage-mmap hugepage-shm map_hugetlb hugepage-vmemmap hugetlb-madvise
	hugetlb_dio hugetlb_fault_after_madv hugetlb_madv_vs_map thuge-gen
	khugepaged split_huge_page_test transhuge-stress cow"

# UAPI headers, out of tree (make headers_install in $SRC would leave
# usr/include behind and break every later O= build). Logs go to $gen.
work=$BUILD/mm-selftests
hdr=$work/headers gen=$work/gen
mkdir -p "$hdr" "$gen" "$out"
nice -n 10 make -s -C "$SRC" O="$hdr" ARCH=x86 -j2 headers_install >"$gen/headers.log" 2>&1 ||
	{ tail -n 20 "$gen/headers.log" >&2; die "make headers_install failed (log: $gen/headers.log)"; }
[ -f "$hdr/usr/include/linux/mman.h" ] || die "no UAPI headers in $hdr/usr/include"

# What the selftests' Makefile writes into the tree: cow.c includes
# local_config.h. Static liburing is not worth it; cow then skips io_uring.
echo "// No liburing support found" >"$gen/local_config.h"

cflags=(-static -O2 -Wall -D_GNU_SOURCE= -Wno-unused-function -Wno-unused-result
	-U_FORTIFY_SOURCE -I "$gen" -I "$mm" -I "$SRC"
	-isystem "$hdr/usr/include" -isystem "$SRC/tools/include/uapi"
	-include "$ksft/kselftest.h")
libs=(-lrt -lpthread -lm)

# Two at a time, niced: the machine is shared with kernel builds.
pids=() names=()
failed=""
build_one() {
	local t=$1
	nice -n 10 gcc "${cflags[@]}" -o "$out/$t" "$mm/$t.c" "$mm/vm_util.c" \
		"$mm/thp_settings.c" "${libs[@]}" >"$gen/$t.log" 2>&1
}
for t in $tests; do
	[ -f "$mm/$t.c" ] || die "$t.c is not in $mm"
	rm -f "$out/$t"
	build_one "$t" &
	pids+=($!) names+=("$t")
	if [ ${#pids[@]} -ge 2 ]; then
		wait "${pids[0]}" || failed="$failed ${names[0]}"
		pids=("${pids[@]:1}") names=("${names[@]:1}")
	fi
done
for i in "${!pids[@]}"; do
	wait "${pids[$i]}" || failed="$failed ${names[$i]}"
done
if [ -n "$failed" ]; then
	for t in $failed; do
		echo "--- $t:" >&2
		grep -m 8 -E 'error|undefined reference' "$gen/$t.log" >&2 ||
			tail -n 15 "$gen/$t.log" >&2
	done
	die "mm selftests that did not build:$failed (logs: $gen/*.log)"
fi
for t in $tests; do
	file "$out/$t" | grep -q 'statically linked' || die "$out/$t is not statically linked"
done
echo "$out: $(echo $tests | wc -w) mm selftests"
