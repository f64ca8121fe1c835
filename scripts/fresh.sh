#!/bin/bash
# fresh.sh [CMD...]: run CMD (default: bash .ci/run, the README's test
# command) as root in a fresh, minimal Debian 12 root, to prove that the
# harness installs all it needs (scripts/deps.sh) on a bare machine.
#  - $BUILD/fresh/root is made anew each time: mmdebstrap --variant=minbase
#    bookworm (Essential, Priority required and apt), with bookworm-updates
#    and bookworm-security (linux-source-6.12 is there);
#  - the repository is git cloned into it at the same absolute path as
#    here ($TOP), so that the kernels build at the same paths: only
#    committed work (HEAD, or FRESH_REF) is in the clone, not the work
#    tree's changes (FRESH_REF=$(git stash create) takes those of tracked
#    files);
#  - /proc, /sys, /dev, /dev/pts and this host's ccache directory are bind
#    mounted (FRESH_CCACHE=0: not the cache, for a cold run);
#  - CMD runs in the clone's top with a clean environment, its output in
#    $BUILD/logs/fresh.log; the harness's own logs stay in the root.
# Whatever was mounted is unmounted on every exit; the root is kept, so
# that it can be looked at (chroot $BUILD/fresh/root) until the next run.
# Exits with CMD's status. FRESH_MIRROR and FRESH_SECURITY name other
# Debian mirrors.
set -u
. "$(dirname "$0")/lib.sh"

root=$BUILD/fresh/root
mirror=${FRESH_MIRROR:-http://deb.debian.org/debian}
security=${FRESH_SECURITY:-http://deb.debian.org/debian-security}
[ $# -gt 0 ] || set -- bash .ci/run
[ "$(id -u)" -eq 0 ] || die "fresh.sh needs root (mmdebstrap, mount, chroot)"

# mounted_under DIR: the mount points at or below DIR, deepest first.
mounted_under() {
	findmnt -rn -o TARGET | awk -v d="$1" 'index($0, d) == 1 &&
		(length($0) == length(d) || substr($0, length(d) + 1, 1) == "/")' | sort -r
}

# unmount: everything under the root, on every exit (it only unmounts).
unmount() {
	mounted_under "$root" | while read -r m; do
		umount "$m" || echo "error: cannot unmount $m" >&2
	done
	[ -z "$(mounted_under "$root")" ] ||
		{ echo "error: still mounted under $root: $(mounted_under "$root" | xargs)" >&2; return 1; }
}

# bind SRC: mount SRC at the same path in the root, kept from propagating.
bind() {
	mkdir -p "$root$1" && mount --bind "$1" "$root$1" && mount --make-private "$root$1"
}

if ! command -v mmdebstrap >/dev/null; then
	step install mmdebstrap "$LOGS/fresh-install.log" sh -c \
		'apt-get update -q && apt-get install -y -q --no-install-recommends mmdebstrap' ||
		die "cannot install mmdebstrap with apt-get (no network or mirror? log: $LOGS/fresh-install.log)"
fi

unmount || die "$root: something is still mounted under it, not removing it"
rm -rf --one-file-system "$root"
trap unmount EXIT
mkdir -p "$(dirname "$root")"
if ! step mmdebstrap "bookworm minbase" "$LOGS/fresh-mmdebstrap.log" mmdebstrap --mode=root \
	--variant=minbase bookworm "$root" "deb $mirror bookworm main" \
	"deb $mirror bookworm-updates main" "deb $security bookworm-security main"; then
	grep -qE 'Failed to fetch|Could not resolve|Could not connect|Temporary failure|Unable to connect' \
		"$LOGS/fresh-mmdebstrap.log" &&
		die "cannot reach the Debian mirror $mirror (no network?): $LOGS/fresh-mmdebstrap.log"
	die "mmdebstrap failed: $LOGS/fresh-mmdebstrap.log"
fi
rev=$(git -C "$TOP" rev-parse --verify "${FRESH_REF:-HEAD}^{commit}") || die "no commit ${FRESH_REF:-HEAD}"
clone() {
	git clone --no-hardlinks -n "$TOP" "$root$TOP" && git -C "$root$TOP" checkout -q --detach "$rev"
}
step clone "${rev:0:7}" "$LOGS/fresh-clone.log" clone || die "git clone of $TOP failed"
echo "the root has $TOP at $(git -C "$TOP" log --oneline -1 "$rev") (committed work only)"

cp -L --remove-destination /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc" || die "cannot mount /proc in $root"
for d in /sys /dev /dev/pts; do
	bind "$d" || die "cannot bind mount $d in $root"
done
env=(HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8)
if [ "${FRESH_CCACHE:-1}" != 0 ]; then
	cache=$(ccache -k cache_dir 2>/dev/null) || cache=$HOME/.cache/ccache
	mkdir -p "$cache"
	bind "$cache" || die "cannot bind mount $cache in $root"
	env+=(CCACHE_DIR="$cache")
fi

cmd=$*
echo "running in the root: ${cmd%%$'\n'*} (follow: tail -f $LOGS/fresh.log)"
step run "fresh root" "$LOGS/fresh.log" chroot "$root" /usr/bin/env -i "${env[@]}" \
	/bin/bash -c 'cd "$0" && exec "$@"' "$TOP" "$@"
rc=$?
echo "last line: $(tail -n 1 "$LOGS/fresh.log")"
echo "log: $LOGS/fresh.log (the run's own logs: $root$TOP/build/logs)"
exit $rc
