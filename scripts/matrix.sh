#!/bin/bash
# matrix.sh: make matrix. Build the product kernel (patches/series alone,
# what a distribution applies)
#  - without PREEMPT_DYNAMIC as PREEMPT_NONE, PREEMPT_VOLUNTARY and PREEMPT
#    (full), boot each and run the test suite (KUnit, hugezero, faults,
#    console scan); the dynamic kernel is covered by make check;
#  - build only, where the series' generic code matters: i386 with HIGHMEM
#    (folio_zero_user()'s HIGHMEM path), x86-64 without THP and without
#    hugetlbfs (folio_zero_user() exists with either);
#  - with Debian's own 6.12 amd64 config, the kernel our users run: check
#    that the series' options come up as expected and that the evaluation
#    series' option does not exist, boot it under
#    preempt=none|voluntary|full and run hugezero and faults (Debian's
#    config has no KUnit).
# One result file per configuration in results/matrix/. The tree, the
# initramfs and the Debian config are matrix's own (build/src-matrix,
# build/matrix/), so that it can run next to make check.
set -u
. "$(dirname "$0")/lib.sh"

out=$RESULTS/matrix
src=$BUILD/src-matrix
mdir=$BUILD/matrix
cfg=$TOP/config
export INITRD=$mdir/initramfs.cpio.gz	# for boot.sh
debian_xz=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
rm -rf "$out"
mkdir -p "$out" "$mdir"
prepare || exit 1
step apply matrix "$LOGS/apply-matrix.log" env APPLY_SCRATCH="$BUILD/src-matrix-apply" \
	APPLY_DEST="$src" "$TOP/scripts/apply.sh" || exit 1

# build NAME FRAGMENT...: build the patched tree in obj-matrix-NAME and
# write "PASS|FAIL matrix-NAME: builds" to NAME.txt. Environment
# assignments before the call (ARCH, BASE_CONFIG) reach build-kernel.sh.
build() {
	local name=$1
	shift
	if step build "matrix-$name" "$LOGS/build-matrix-$name.log" \
		"$TOP/scripts/build-kernel.sh" "$src" "$BUILD/obj-matrix-$name" "$@"; then
		echo "PASS matrix-$name: builds" >"$out/$name.txt"
	else
		echo "FAIL matrix-$name: builds" >"$out/$name.txt"
		return 1
	fi
}

# boot NAME PREEMPT RESULT [KUNIT_SUITE...]: boot obj-matrix-NAME with
# preempt=PREEMPT, run hugezero and faults, scan the console into RESULT.txt.
boot() {
	local img=$BUILD/obj-matrix-$1/arch/x86/boot/bzImage m=$2 r=$3
	shift 3
	step boot "matrix-$r" "$out/$r.boot.log" "$TOP/scripts/boot.sh" "$img" "$m" \
		hugezero,faults,copies "$out/$r.console.log" "${BOOT_TIMEOUT:-600}" ||
		echo "FAIL matrix-$r: boot" >>"$out/$r.txt"
	judge "$out/$r.console.log" "matrix-$r" "$@" >>"$out/$r.txt"
}

# preempt= is ignored without PREEMPT_DYNAMIC; the model is built in.
for m in none voluntary full; do
	build "$m" "$cfg/guest.config" "$cfg/patched.config" "$cfg/preempt-$m.config" &&
		boot "$m" "$m" "$m" x86_clear_pages folio_zero_user
done

ARCH=i386 build i386-highmem "$cfg/guest.config" "$cfg/patched.config" \
	"$cfg/matrix-i386-highmem.config"
for v in nothp nohugetlbfs; do
	build "$v" "$cfg/guest.config" "$cfg/patched.config" "$cfg/matrix-$v.config"
done

# Debian's config as shipped, plus what building it here needs (see the
# fragment); the series' options must come up with their defaults.
xz -dc "$debian_xz" >"$mdir/debian-amd64.config" ||
	echo "FAIL matrix-debian: no Debian config ($debian_xz)" >"$out/debian.txt"
if [ ! -s "$out/debian.txt" ] &&
	BASE_CONFIG=$mdir/debian-amd64.config build debian "$cfg/matrix-debian.config"; then
	for opt in PREEMPT_DYNAMIC=y PREEMPT_VOLUNTARY=y TRANSPARENT_HUGEPAGE_ALWAYS=y \
		PREEMPT_RESCHED_RANGES=y; do
		if grep -qx "CONFIG_$opt\|# CONFIG_$opt" "$BUILD/obj-matrix-debian/.config"; then
			echo "PASS matrix-debian: CONFIG_$opt"
		else
			echo "FAIL matrix-debian: CONFIG_$opt, got: $(grep "CONFIG_${opt%%[= ]*}[= ]" \
				"$BUILD/obj-matrix-debian/.config")"
		fi
	done >>"$out/debian.txt"
	# The product has no evaluation knobs, not even as an option.
	if grep -q 'FOLIO_ZERO_USER_DEBUGFS' "$BUILD/obj-matrix-debian/.config"; then
		echo "FAIL matrix-debian: the product has CONFIG_FOLIO_ZERO_USER_DEBUGFS"
	else
		echo "PASS matrix-debian: no CONFIG_FOLIO_ZERO_USER_DEBUGFS (evaluation only)"
	fi >>"$out/debian.txt"
	for m in none voluntary full; do
		boot debian "$m" "debian-$m"
	done
fi

tally "$out"
