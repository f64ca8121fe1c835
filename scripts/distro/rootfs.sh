#!/bin/bash
# distro/rootfs.sh TARBALL: a Debian 12 system as a tarball, built by
# mmdebstrap from Debian's own packages: systemd, udev, initramfs-tools,
# Debian's kernel (linux-image-6.12.118+deb12-amd64, whose package builds
# its initramfs here) and the applications make distro runs on huge pages
# (PostgreSQL 15, QEMU, OpenJDK 17, numactl's migratepages).
# Downloaded packages are kept in $BUILD/distro/apt-cache for the next run.
# Nothing of the harness is in it: distro/image.sh adds that.
set -eu
. "$(dirname "$0")/../lib.sh"

out=$(realpath -m "$1")
cache=$BUILD/distro/apt-cache
mkdir -p "$cache" "$(dirname "$out")"
. "$TOP/scripts/distro/packages.sh"

mirrors=(
	"deb http://deb.debian.org/debian bookworm main"
	"deb http://deb.debian.org/debian bookworm-updates main"
	"deb http://deb.debian.org/debian-security bookworm-security main"
)
include=$(printf '%s,' "${DISTRO_IMAGE_PACKAGES[@]}")
rm -f "$out.tmp"
mmdebstrap --mode=root --variant=apt --format=tar --include="${include%,}" \
	--skip=essential/unlink \
	--setup-hook='mkdir -p "$1"/var/cache/apt/archives/' \
	--setup-hook="sync-in $cache /var/cache/apt/archives/" \
	--customize-hook="sync-out /var/cache/apt/archives $cache" \
	--customize-hook='echo distro >"$1/etc/hostname"' \
	--customize-hook='chroot "$1" passwd -d root' \
	bookworm "$out.tmp" "${mirrors[@]}"
mv "$out.tmp" "$out"
echo "rootfs: $out ($(du -h "$out" | cut -f1))"
