#!/bin/bash
# distro/image.sh ROOTFS_TAR OUTDIR [DEB...]: the disk image make distro
# boots. The Debian system of ROOTFS_TAR (distro/rootfs.sh) with
#  - the kernel packages DEB installed by dpkg, whose scripts build their
#    initramfs, as on a user's machine;
#  - guest/distro/rootfs copied over it: the huge page settings
#    (sysctl.d, PostgreSQL's conf.d, fstab) and hugeapps, the checks,
#    enabled as a service; FillHeap.java compiled by the image's javac.
# Writes OUTDIR/disk.img (ext4, sparse) and OUTDIR/boot/ (every kernel
# and initrd of the image's /boot, for QEMU's -kernel and -initrd).
set -eu
. "$(dirname "$0")/../lib.sh"

tarball=$(realpath "$1") out=$(realpath -m "$2")
shift 2
[ -f "$tarball" ] || die "no root file system $tarball"
debs=()
for d; do
	[ -f "$d" ] || die "no kernel package $d"
	debs+=("/tmp/$(basename "$d")")
done
root=$out/root
rm -rf --one-file-system "$root" "${out:?}/boot" "$out/disk.img"
mkdir -p "$root"
tar -C "$root" --xattrs --xattrs-include='*' --numeric-owner -xpf "$tarball"
cp -r --preserve=mode "$TOP/guest/distro/rootfs/." "$root/"
[ $# -eq 0 ] || cp "$@" "$root/tmp/"

# dpkg's maintainer scripts and javac want /proc, /sys and /dev: mounted
# in a mount namespace of their own, so that nothing stays mounted under
# $BUILD whatever happens.
unshare --mount --propagation private /bin/sh -eu -c '
	root=$1
	shift
	mount -t proc proc "$root/proc"
	mount -t sysfs sysfs "$root/sys"
	mount --rbind /dev "$root/dev"
	[ $# -eq 0 ] || chroot "$root" dpkg -i "$@"
	chroot "$root" javac -d /usr/local/share/hugeapps /usr/local/share/hugeapps/FillHeap.java
	chroot "$root" systemctl enable hugeapps.service
' sh "$root" "${debs[@]}"
for d in "${debs[@]}"; do rm -f "$root$d"; done

mkdir -p "$out/boot"
cp "$root"/boot/vmlinuz-* "$root"/boot/initrd.img-* "$out/boot/"
mkfs.ext4 -q -F -L distro -d "$root" "$out/disk.img" 8G
rm -rf --one-file-system "$root"
ls -1 "$out/boot"
echo "image: $out/disk.img"
