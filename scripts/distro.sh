#!/bin/bash
# distro.sh: make distro. The product series where users run it: built
# with Debian's own config as a Debian package (distro/kernel.sh),
# installed by dpkg into a Debian 12 image made by mmdebstrap
# (distro/rootfs.sh, distro/image.sh), booted to multi-user.target under
# systemd on QEMU TCG, and the applications that fault huge pages run on
# it (guest/distro: PostgreSQL on 2 MiB pages, QEMU preallocating 1 GiB
# pages, on the product also from a pool zeroed on request, a JVM on
# transparent huge pages moved between NUMA nodes). The same image boots
# Debian's own kernel package, the baseline.
# Results: results/distro/KERNEL.txt (PASS/FAIL lines) and the table
# results/distro.txt. Not part of make check: the package build takes
# about an hour cold on two cores.
set -u
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/distro/packages.sh"

t_start=$(date +%s)
dir=$BUILD/distro
out=$RESULTS/distro
debian_release=6.12.118+deb12-amd64

# Every package first, so that a missing one stops the target before
# anything is built.
missing=()
for p in "${DISTRO_HOST_PACKAGES[@]}" "${DISTRO_IMAGE_PACKAGES[@]}"; do
	apt-cache show --no-all-versions "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] ||
	die "apt cannot get: ${missing[*]} (Debian 12 with bookworm-security in its sources?)"
step deps distro "$LOGS/deps-distro.log" "$TOP/scripts/deps.sh" "${DISTRO_HOST_PACKAGES[@]}" ||
	exit 1
prepare_tree || exit 1

rm -rf "$out"
mkdir -p "$out" "$dir"
step apply distro "$LOGS/apply-distro.log" env APPLY_SCRATCH="$BUILD/src-distro-apply" \
	APPLY_DEST="$BUILD/src-distro" "$TOP/scripts/apply.sh" || exit 1
step package product "$LOGS/distro-kernel.log" "$TOP/scripts/distro/kernel.sh" \
	"$BUILD/src-distro" "$dir/obj" || exit 1
deb=$(sed -n 's/^package: //p' "$LOGS/distro-kernel.log")
release=$(dpkg-deb -f "$deb" Package | sed 's/^linux-image-//')

# The root file system only changes with its package list or its script.
stamp=$(cat "$TOP/scripts/distro/packages.sh" "$TOP/scripts/distro/rootfs.sh" | md5sum)
if [ ! -f "$dir/rootfs.tar" ] || [ "$(cat "$dir/rootfs.stamp" 2>/dev/null)" != "$stamp" ]; then
	step rootfs debian-12 "$LOGS/distro-rootfs.log" "$TOP/scripts/distro/rootfs.sh" \
		"$dir/rootfs.tar" || exit 1
	echo "$stamp" >"$dir/rootfs.stamp"
fi
step image debian-12 "$LOGS/distro-image.log" "$TOP/scripts/distro/image.sh" \
	"$dir/rootfs.tar" "$dir" "$deb" || exit 1

# check KERNEL RELEASE: boot the image with the kernel of release RELEASE
# and write results/distro/KERNEL.txt.
check() {
	local k=$1 rel=$2 res=$out/$1.txt con=$out/$1.console.log
	if ! step boot "distro-$k" "$out/$k.boot.log" "$TOP/scripts/distro/boot.sh" \
		"$dir/boot/vmlinuz-$rel" "$dir/boot/initrd.img-$rel" "$dir/disk.img" "$out/$k" \
		"${DISTRO_TIMEOUT:-2400}"; then
		echo "FAIL $k: boot: $(tail -n 1 "$out/$k.boot.log")" >"$res"
	fi
	# systemd puts the checks' lines on the console after a time stamp and
	# the unit's name.
	# A failed check points at what the application printed.
	tr -d '\r' <"$con" 2>/dev/null | sed -n -e "s/.*HUGEAPPS: \(PASS\|SKIP\) /\1 $k: /p" \
		-e "s|.*HUGEAPPS: FAIL \(.*\)|FAIL $k: \1; its output: ${out#"$TOP"/}/$k.apps.log|p" >>"$res"
	# Only a kernel without the series may skip a check.
	[ "$k" = baseline ] || sed -n "s/^SKIP $k: \(.*\)/FAIL $k: skipped on the series' kernel: \1/p" \
		"$res" >>"$res"
	if tr -d '\r' <"$con" | grep -q "HUGEAPPS: kernel: $rel;"; then
		echo "PASS $k: booted $rel"
	else
		echo "FAIL $k: the guest did not run $rel"
	fi >>"$res"
	"$TOP/scripts/scan-console.sh" "$con" "$k" >>"$res"
	# The console shows only what its log level lets through: the kernel's
	# whole log, from the journal, is the apps log's last part.
	sed -n '/^=== journal -k/,$p' "$out/$k.apps.log" 2>/dev/null | tr -d '\r' >"$out/$k.journal.log"
	if [ -s "$out/$k.journal.log" ]; then
		"$TOP/scripts/scan-console.sh" "$out/$k.journal.log" "$k journal -k"
	else
		echo "FAIL $k: no journal -k in $out/$k.apps.log"
	fi >>"$res"
	# localmodconfig kept only the modules of modules.lsmod: every module
	# Debian's own kernel loads in this image must be listed there.
	if [ "$k" = baseline ]; then
		local mods lost=""
		mods=$(tr -d '\r' <"$con" | sed -n 's/.*HUGEAPPS: lsmod: //p')
		for m in $mods; do
			grep -q "^$m " "$TOP/config/distro/modules.lsmod" || lost="$lost $m"
		done
		if [ -z "$mods" ]; then
			echo "FAIL $k: no lsmod line on the console"
		elif [ -n "$lost" ]; then
			echo "FAIL $k: loaded, not in config/distro/modules.lsmod:$lost"
		else
			echo "PASS $k: every module it loaded is in config/distro/modules.lsmod"
		fi >>"$res"
	fi
}
check baseline "$debian_release"
check product "$release"

# The table: one line per kernel and check, with what was seen and how
# long it took (QEMU TCG: the times say nothing about the hardware).
{
	provenance
	echo "# Debian's kernel package and the product's, booting one Debian 12 image"
	echo "# guest: QEMU TCG (single-threaded), 2 CPUs on 2 NUMA nodes, 6 GiB; times are emulated"
	echo "# baseline: linux-image-$debian_release (Debian); product: linux-image-$release (patches/series)"
	printf '%-9s %-11s %-5s %s\n' kernel check result "what was seen (time)"
	for k in baseline product; do
		sed -n 's/^\(PASS\|FAIL\|SKIP\) [a-z]*: \([a-z-]*\): \(.*\)/\2 \1 \3/p' "$out/$k.txt" |
			while read -r name r what; do
				printf '%-9s %-11s %-5s %s\n' "$k" "$name" "$r" "$what"
			done
	done
} >"$RESULTS/distro.txt"
cat "$RESULTS/distro.txt"
echo "apps logs: ${out#"$TOP"/}/{baseline,product}.apps.log"
echo "make distro took $(($(date +%s) - t_start)) s"
tally "$out"
