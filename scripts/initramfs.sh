#!/bin/bash
# initramfs.sh OUT: build the guest's test programs statically from guest/
# and pack them, guest/*.sh and guest/init with busybox-static, cyclictest
# and stress-ng (with their libraries) into a gzipped cpio.
set -eu
. "$(dirname "$0")/lib.sh"

out=$(realpath -m "$1")
rm -f "$out"	# never boot a stale one if this fails
busybox=$(command -v busybox || true)
[ -n "$busybox" ] && file -L "$busybox" | grep -q 'statically linked' ||
	die "a static busybox is needed (apt-get install busybox-static)"
ksft=$SRC/tools/testing/selftests
[ -f "$ksft/kselftest.h" ] || die "no kselftest.h in $ksft (run 'make tree')"

# A staging directory per output, so that two targets can build side by side.
stage=${out%.cpio.gz}.stage
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,dev,proc,sys,tmp,tests}
cp "$busybox" "$stage/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$stage/bin/$applet" ] || ln -s busybox "$stage/bin/$applet"
done
cp "$TOP/guest/init" "$stage/init"
# The programs: every guest/X.c but the helpers, a guest/X.c with a
# guest/X.h. The helpers and the tree's mm selftest library (vm_util.c,
# thp_settings.c) go into an archive, so that each program links only what
# it uses. vm_util.c needs the tree's UAPI headers (PAGEMAP_SCAN), from
# tools/include/uapi as the selftests' lib.mk gives them.
# __FILE__ relative to the checkout and the tree: the kselftest harness
# prints it in its results, which must not name this machine's paths.
cc=(gcc -static -O2 -Wall -Werror -I"$ksft"
	-fmacro-prefix-map="$TOP/"= -fmacro-prefix-map="$SRC/"=)
objs=${out%.cpio.gz}.objs	# next to the stage, never packed
rm -rf "$objs"
mkdir -p "$objs"
for c in "$ksft/mm/vm_util.c" "$ksft/mm/thp_settings.c"; do
	"${cc[@]}" -isystem "$SRC/tools/include/uapi" -c -o "$objs/$(basename "$c" .c).o" "$c"
done
progs=()
for c in "$TOP"/guest/*.c; do
	if [ -f "${c%.c}.h" ]; then
		"${cc[@]}" -c -o "$objs/$(basename "$c" .c).o" "$c"
	else
		progs+=("$c")
	fi
done
ar rcs "$objs/libguest.a" "$objs"/*.o
for c in "${progs[@]}"; do
	"${cc[@]}" -o "$stage/tests/$(basename "$c" .c)" "$c" "$objs/libguest.a"
done
cp "$TOP"/guest/*.sh "$stage/tests/"
# The tree's mm selftests, if scripts/mm-selftests.sh built them.
if [ -d "$BUILD/mm-selftests/bin" ]; then
	mkdir -p "$stage/tests/mm"
	cp "$BUILD"/mm-selftests/bin/* "$stage/tests/mm/"
fi
# Dynamically linked tools from Debian packages, with the libraries they need.
for tool in cyclictest stress-ng; do
	bin=$(command -v "$tool") || die "$tool missing (run 'make deps')"
	cp "$bin" "$stage/bin/"
	for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
done
(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$out.tmp"
mv "$out.tmp" "$out"
echo "$out: $(du -h "$out" | cut -f1)"
