#!/bin/bash
# distro/boot.sh VMLINUZ INITRD DISK OUTPREFIX [TIMEOUT]: boot the Debian
# image DISK with one of its kernels on QEMU TCG and wait for hugeapps
# (guest/distro) to power it off. Two CPUs on two NUMA nodes (3 GiB each:
# migratepages moves between them), 2 MiB and 1 GiB pages reserved as a
# user would. The disk is opened with snapshot=on: every boot starts from
# the same image. Writes OUTPREFIX.console.log (the kernel's and the
# checks' console) and OUTPREFIX.apps.log (what the applications printed).
# Fails when QEMU fails or the guest runs past TIMEOUT seconds (default
# 1800), saying so.
set -u
. "$(dirname "$0")/../lib.sh"

vmlinuz=$1 initrd=$2 disk=$3 prefix=$4 limit=${5:-1800}
for f in "$vmlinuz" "$initrd" "$disk"; do
	[ -f "$f" ] || die "no $f"
done
case $limit in
'' | *[!0-9]*) die "timeout '$limit' is not a number of seconds" ;;
esac
rm -f "$prefix.console.log" "$prefix.apps.log"

# Single-threaded TCG: the kernel patches its text at run time (static
# keys, preempt=), which multi-threaded TCG does not survive.
timeout --foreground "$limit" qemu-system-x86_64 \
	-accel tcg,thread=single -cpu max -smp 2,sockets=2,cores=1,threads=1 -m 6G \
	-object memory-backend-ram,id=m0,size=3G -object memory-backend-ram,id=m1,size=3G \
	-numa node,nodeid=0,cpus=0,memdev=m0 -numa node,nodeid=1,cpus=1,memdev=m1 \
	-nodefaults -display none -no-reboot \
	-serial "file:$prefix.console.log" -serial "file:$prefix.apps.log" \
	-drive "file=$disk,format=raw,if=virtio,snapshot=on" \
	-kernel "$vmlinuz" -initrd "$initrd" \
	-append "root=/dev/vda rw console=ttyS0 hugepagesz=1G hugepages=2 panic=-1"
rc=$?
if [ $rc -eq 124 ]; then
	die "the guest did not power off within $limit s: see $prefix.console.log"
elif [ $rc -ne 0 ]; then
	die "QEMU failed ($rc): see $prefix.console.log"
fi
grep -q 'HUGEAPPS: done' "$prefix.console.log" ||
	die "the guest stopped before the checks ended: see $prefix.console.log"
