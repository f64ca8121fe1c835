#!/bin/bash
# build-kernel.sh SRCDIR OBJDIR FRAGMENT...
# Configure tinyconfig plus the given fragments out of tree in OBJDIR and
# build bzImage. Fails if a fragment option did not make it into .config,
# so that a typo or an unmet dependency cannot silently shrink the tests,
# and on objtool warnings.
# BASE_CONFIG=FILE starts from that .config (a distribution's, say)
# instead of tinyconfig. ARCH (e.g. i386) is taken from the environment,
# as kbuild does.
set -eu
. "$(dirname "$0")/lib.sh"

src=$(realpath "$1") obj=$(realpath -m "$2")
shift 2
[ -f "$src/Makefile" ] || die "no kernel tree at $src"
mkdir -p "$obj"

export KBUILD_BUILD_TIMESTAMP="1970-01-01" KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=harness
# Paths below the checkout hash as relative ones, so that a second clone
# (CI) hits the cache that the first one filled.
export CCACHE_BASEDIR=$TOP
cc="gcc"
command -v ccache >/dev/null && cc="ccache gcc"
kmake() { make -C "$src" O="$obj" CC="$cc" -j"$(nproc)" "$@"; }
# The tree's Kconfig files, NUL-separated, in a stable order.
kconfig_files() {
	(cd "$src" && find . -path ./.git -prune -o -name 'Kconfig*' -type f -print0 | sort -z)
}

# Configure again when the fragments or the tree's Kconfig files change:
# a patch that adds an option (a KUnit suite) must get it from the
# fragment, not the "n" that olddefconfig gives a new option.
frags=()
for f in "$@"; do frags+=("$(realpath "$f")"); done
stamp=$obj/config.stamp
{
	[ -z "${BASE_CONFIG:-}" ] || printf '# base config: %s\n' "$(md5sum <"$BASE_CONFIG")"
	[ -z "${ARCH:-}" ] || printf '# ARCH=%s\n' "$ARCH"
	cat "${frags[@]}"
	printf '# Kconfig files: %s\n' "$(kconfig_files | (cd "$src" && xargs -0 cat) | md5sum)"
} >"$stamp.new"
if ! cmp -s "$stamp.new" "$stamp" || [ ! -f "$obj/.config" ]; then
	if [ -n "${BASE_CONFIG:-}" ]; then
		cp "$BASE_CONFIG" "$obj/.config"
	else
		kmake tinyconfig
	fi
	KCONFIG_CONFIG="$obj/.config" "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/.config" "${frags[@]}"
	kmake olddefconfig
	mv "$stamp.new" "$stamp"
fi
rm -f "$stamp.new"

# Every requested option must have its requested value, so that a typo or
# an unmet dependency cannot silently drop a test. Bisect builds prefixes
# of the series that lack some options, and sets CONFIG_CHECK=present:
# options that no Kconfig file of the tree defines yet are skipped.
check_config() {
	local line opt bad=0 mode=${CONFIG_CHECK:-all}
	local -A defined=()
	case $mode in
	all | present) ;;
	*) die "CONFIG_CHECK=$mode: use all (the default) or present" ;;
	esac
	if [ "$mode" = present ]; then
		local re='s/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Za-z0-9_]*\).*/CONFIG_\2/p'
		while read -r opt; do defined[$opt]=1; done < <(kconfig_files |
			(cd "$src" && xargs -0 sed -n "$re"))
	fi
	# A later fragment overrides an earlier one, as in merge_config.sh.
	while IFS= read -r line; do
		opt=${line%%=*}
		if [ "$mode" = present ] && [ -z "${defined[$opt]:-}" ]; then
			echo "config: $opt is not in this tree yet, not checked"
			continue
		fi
		case "$line" in
		CONFIG_*=n)
			if grep -q "^$opt=" "$obj/.config"; then
				echo "config: $opt is set, wanted n"
				bad=1
			fi ;;
		CONFIG_*=*)
			if ! grep -qx "$line" "$obj/.config"; then
				echo "config: wanted $line, got: $(grep "^$opt=\|# $opt is not set" "$obj/.config")"
				bad=1
			fi ;;
		esac
	done < <(cat "${frags[@]}" | grep '^CONFIG_' | tac | awk -F= '!seen[$1]++' | tac)
	[ $bad -eq 0 ] || die "the merged .config lacks options the fragments ask for"
}
check_config

# objtool warnings do not fail a 6.12 build (OBJTOOL_WERROR came later),
# but a series that adds any is not ready: fail on them here.
kmake bzImage 2>&1 | tee "$obj/bzImage.out"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] || exit "$rc"
if grep -q 'warning: objtool:' "$obj/bzImage.out"; then
	die "objtool warnings (listed above)"
fi
