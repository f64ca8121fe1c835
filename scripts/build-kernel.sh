#!/bin/bash
# build-kernel.sh SRCDIR OBJDIR FRAGMENT...
# Configure tinyconfig plus the given fragments out of tree in OBJDIR and
# build bzImage. Fails if a fragment option did not make it into .config,
# so that a typo or an unmet dependency cannot silently shrink the tests.
set -eu
. "$(dirname "$0")/lib.sh"

src=$(realpath "$1") obj=$(realpath -m "$2")
shift 2
[ -f "$src/Makefile" ] || die "no kernel tree at $src"
mkdir -p "$obj"

export KBUILD_BUILD_TIMESTAMP="1970-01-01" KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=harness
cc="gcc"
command -v ccache >/dev/null && cc="ccache gcc"
kmake() { make -C "$src" O="$obj" CC="$cc" -j"$(nproc)" "$@"; }

frags=()
for f in "$@"; do frags+=("$(realpath "$f")"); done
cat "${frags[@]}" >"$obj/fragments.config.new"
if ! cmp -s "$obj/fragments.config.new" "$obj/fragments.config" || [ ! -f "$obj/.config" ]; then
	kmake tinyconfig
	KCONFIG_CONFIG="$obj/.config" "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/.config" "${frags[@]}"
	kmake olddefconfig
	mv "$obj/fragments.config.new" "$obj/fragments.config"
fi
rm -f "$obj/fragments.config.new"

# Every requested option must have its requested value.
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=n) opt=${line%%=*}; grep -q "^$opt=" "$obj/.config" && { echo "config: $opt is set, wanted n"; bad=1; } ;;
	CONFIG_*=*) grep -qx "$line" "$obj/.config" || { echo "config: wanted $line, got: $(grep "^${line%%=*}=\|# ${line%%=*} is not set" "$obj/.config")"; bad=1; } ;;
	esac
done < <(cat "${frags[@]}")
[ $bad -eq 0 ] || die "the merged .config lacks options the fragments ask for"

kmake bzImage
