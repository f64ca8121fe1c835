#!/bin/bash
# distro/kernel.sh SRCDIR OBJDIR: build the product kernel in SRCDIR as a
# Debian package, the way a distribution kernel maintainer would try it:
# Debian's own 6.12 amd64 config (linux-config-6.12), merged with
# config/matrix-debian.config and config/distro/kernel.config, its modules
# trimmed by make localmodconfig to config/distro/modules.lsmod, packaged
# by the kernel's own make bindeb-pkg without the headers and debug
# packages. The package lands beside OBJDIR (dpkg-buildpackage writes to
# the parent of debian/); its path is printed last.
# ccache and an object directory kept between runs make a second build
# cheap and an interrupted one resumable.
set -eu
. "$(dirname "$0")/../lib.sh"

src=$(realpath "$1") obj=$(realpath -m "$2")
cfg=$TOP/config
debian_xz=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
[ -f "$src/Makefile" ] || die "no kernel tree at $src"
[ -f "$debian_xz" ] || die "no Debian config at $debian_xz (package linux-config-6.12)"
mkdir -p "$obj"

export KBUILD_BUILD_TIMESTAMP="1970-01-01" KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=harness
export CCACHE_BASEDIR=$TOP
cc="gcc"
command -v ccache >/dev/null && cc="ccache gcc"
# LOCALVERSION set (empty) keeps setlocalversion from appending "+" for a
# git tree: the release is the version plus CONFIG_LOCALVERSION.
kmake() { make -C "$src" O="$obj" CC="$cc" LOCALVERSION= -j"$(nproc)" "$@"; }

# Configure again when Debian's config, a fragment, the module list or
# the tree's Kconfig files change.
stamp=$obj/distro-config.stamp
{
	xz -dc "$debian_xz" | md5sum
	cat "$cfg/matrix-debian.config" "$cfg/distro/kernel.config" "$cfg/distro/modules.lsmod"
	(cd "$src" && find . -path ./.git -prune -o -name 'Kconfig*' -type f -print0 |
		sort -z | xargs -0 cat) | md5sum
} >"$stamp.new"
if ! cmp -s "$stamp.new" "$stamp" || [ ! -f "$obj/.config" ]; then
	xz -dc "$debian_xz" >"$obj/.config"
	KCONFIG_CONFIG="$obj/.config" "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/.config" "$cfg/matrix-debian.config" "$cfg/distro/kernel.config"
	kmake olddefconfig
	# localmodconfig asks about options its changes uncover: defaults.
	yes '' | kmake LSMOD="$cfg/distro/modules.lsmod" localmodconfig >/dev/null
	kmake olddefconfig
	mv "$stamp.new" "$stamp"
fi
rm -f "$stamp.new"

# What the package is for: the series' option, Debian's preemption
# default, the modules the Debian image needs to mount its root.
for want in CONFIG_PREEMPT_RESCHED_RANGES=y CONFIG_PREEMPT_DYNAMIC=y \
	CONFIG_PREEMPT_VOLUNTARY=y CONFIG_VIRTIO_BLK=m CONFIG_EXT4_FS=m CONFIG_HUGETLBFS=y; do
	grep -qx "$want" "$obj/.config" ||
		die "the package's .config lacks $want (got: $(grep "^${want%=*}=" "$obj/.config"))"
done
! grep -q '^CONFIG_FOLIO_ZERO_USER_DEBUGFS=' "$obj/.config" ||
	die "the package has the evaluation series' CONFIG_FOLIO_ZERO_USER_DEBUGFS"

release=$(kmake -s kernelrelease)
rm -f "$obj"/../linux-image-"$release"_*.deb
DEB_BUILD_PROFILES="pkg.linux-upstream.nokernelheaders pkg.linux-upstream.nokerneldbg" \
	kmake KDEB_PKGVERSION="${release%%-*}-1" bindeb-pkg
deb=$(ls "$obj"/../linux-image-"$release"_*.deb)
echo "package: $(realpath "$deb")"
