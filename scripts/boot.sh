#!/bin/bash
# boot.sh BZIMAGE PREEMPT RUN LOG [TIMEOUT_S] [EXTRA_CMDLINE]
# Boot BZIMAGE under QEMU TCG with the test initramfs and preempt=PREEMPT,
# run the guest programs RUN (comma separated, see guest/init), and save
# the serial console in LOG and the KTAP results that guest/init writes on
# the second serial port next to it (X.console.log -> X.ktap). Exits 0 when
# the guest reported HARNESS-DONE, 2 if it panicked, 3 if it timed out
# (hung), 4 if it stopped with no result.
set -u
. "$(dirname "$0")/lib.sh"

img=$1 preempt=$2 run=$3 log=$4 limit=${5:-600} extra=${6:-}
initrd=${INITRD:-$BUILD/initramfs.cpio.gz}
ktap=${log%.console.log}.ktap
[ "$ktap" != "$log" ] || ktap=$log.ktap
[ -f "$img" ] || die "no kernel image $img"
[ -f "$initrd" ] || die "no initramfs $initrd"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (apt-get install qemu-system-x86)"

rm -f "$log" "$ktap"
# Two NUMA nodes of equal size, a CPU each, so that huge folios can be
# migrated between nodes (GUEST_NODES=1: one node, as before). A node is
# a socket: CPUs of one socket share a last level cache, and the kernel
# warns when cache siblings are on different nodes.
# Two 1 GiB pages, one per node, so that a 1 GiB folio can be migrated.
# 10 GiB: node 0 is then 0-3 GiB plus 4-6 GiB, and 4-5 GiB stays free for
# the boot-time 1 GiB page: below 3 GiB the kernel, the initramfs and the
# firmware's tables leave no free aligned GiB, and the node's own memmap
# and pg_data_t are allocated at its top (with 8 GiB, in 4-5 GiB). QEMU
# allocates guest memory only as it is touched.
cpus=${GUEST_CPUS:-2} mem=${GUEST_MEM:-10G} nodes=${GUEST_NODES:-2}
numa=() smp=$cpus gig=2
if [ "$nodes" -gt 1 ]; then
	gig=$(seq -s, -f '%g:1' 0 $((nodes - 1)))
	mem_m=$(numfmt --from=iec "${mem%B}" | awk '{ print int($1 / 1048576) }')
	[ $((mem_m % nodes)) -eq 0 ] && [ "$cpus" -ge "$nodes" ] ||
		die "GUEST_MEM=$mem and GUEST_CPUS=$cpus do not split into $nodes nodes"
	smp=$cpus,sockets=$nodes
	for ((n = 0; n < nodes; n++)); do
		first=$((n * cpus / nodes)) last=$(((n + 1) * cpus / nodes - 1))
		numa+=(-object "memory-backend-ram,id=mem$n,size=$((mem_m / nodes))M"
			-numa "node,nodeid=$n,cpus=$first-$last,memdev=mem$n")
	done
fi
# TCG only: /dev/kvm here is a nested hypervisor that cannot run a stock kernel.
timeout -k 5 "$limit" qemu-system-x86_64 -accel "${QEMU_ACCEL:-tcg}" -cpu max -smp "$smp" \
	-m "$mem" "${numa[@]}" -display none -monitor none -no-reboot \
	-serial "file:$log" -serial "file:$ktap" -kernel "$img" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 tsc=reliable preempt=$preempt hugepagesz=1G hugepages=$gig hugepagesz=2M hugepages=64 run=$run $extra" \
	</dev/null
rc=$?
if grep -q '^HARNESS-DONE' "$log"; then
	exit 0
elif grep -q 'Kernel panic' "$log"; then
	echo "guest panicked: $(grep -m1 'Kernel panic' "$log")"
	exit 2
elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	echo "guest hung: no result within ${limit}s (last console line: $(tail -n 1 "$log"))"
	exit 3
fi
echo "guest stopped without a result (qemu exit status $rc)"
exit 4
