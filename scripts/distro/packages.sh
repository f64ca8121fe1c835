# The Debian packages of make distro, sourced by distro.sh (which checks
# that apt can get each before anything is built) and distro/rootfs.sh.
# shellcheck shell=bash disable=SC2034

# On the host: the image and the kernel package.
DISTRO_HOST_PACKAGES=(
	mmdebstrap		# the Debian 12 root file system
	e2fsprogs		# mkfs.ext4 -d: the disk image from it
	dpkg-dev debhelper kmod	# make bindeb-pkg's build dependencies
	linux-config-6.12	# Debian's own kernel configs
)

# In the image: a systemd system with Debian's own kernel and the
# applications that fault huge pages.
DISTRO_IMAGE_PACKAGES=(
	systemd-sysv udev dbus initramfs-tools kmod procps util-linux e2fsprogs
	linux-image-6.12.118+deb12-amd64
	postgresql-15
	qemu-system-x86
	openjdk-17-jdk-headless
	numactl
)
