#!/bin/bash
# deps.sh [PACKAGE...]: install with apt-get every Debian package the
# harness uses (or the PACKAGEs named: make distro's), if it is missing.
# Fails with the names of the packages it could not get.
set -eu
. "$(dirname "$0")/lib.sh"

pkgs=(
	linux-source-6.12			# the tree
	linux-config-6.12			# Debian's own configs (make matrix)
	gcc make bc flex bison libelf-dev libssl-dev cpio xz-utils git ccache file
	libc6-dev				# headers, static libc (gcc only recommends it)
	perl					# checkpatch.pl's Term::ANSIColor (not in perl-base)
	openssl zstd				# make matrix, Debian's config: key, zstd bzImage
	rsync					# make headers_install (mm selftests)
	python3 python3-ply python3-git	# checkpatch's spdxcheck.py; kunit.py
	jq					# results.sh reads kunit.py's JSON
	qemu-system-x86 busybox-static		# the guest
	rt-tests stress-ng			# latency and torture workloads
	gnuplot-nox				# plots
	bsdextrautils				# column (make bench, make latency)
)
[ $# -eq 0 ] || pkgs=("$@")
mapfile -t pkgs < <(printf '%s\n' "${pkgs[@]}" | sed 's/#.*//' | tr ' \t' '\n\n' | grep .)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "all ${#pkgs[@]} packages present"
	exit 0
fi
echo "installing: ${missing[*]}"
[ "$(id -u)" -eq 0 ] || die "packages missing (${missing[*]}) and not root: install them with apt-get"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q || die "apt-get update failed"
apt-get install -y -q --no-install-recommends "${missing[@]}" ||
	die "apt-get could not install: ${missing[*]}"
