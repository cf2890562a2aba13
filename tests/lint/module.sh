#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail.ko's static checks, as TAP: checkpatch.pl clean, sparse clean
# and DKMS builds for every kernel of tools/kernels.conf (the debug
# kernel's without DKMS, when tools/deps.sh has built it; in the build
# root of its release, tools/kbuild, for those not bookworm's), the xHCI
# probes checked against the kernel's source where it is unpacked.
# Builds happen in temporary copies of the tree: the work tree is not
# touched.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
checkpatch=/var/cache/usbtrail/checkpatch/scripts/checkpatch.pl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0

result() {	# OK NAME [LOG]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		[ -n "${3:-}" ] && sed 's/^/# /' "$3" | head -n 30
		failed=1
	fi
}

# ut_compat.h is where the version tests belong (docs/module.md): the
# LINUX_VERSION_CODE warnings are what it is for.  ut_tables.h is X-macro
# lists, which checkpatch takes for expressions wanting parentheses.
for f in "$top"/module/*.c "$top"/module/*.h "$top"/module/uapi/linux/*.h; do
	case "$f" in *.mod.c) continue ;; esac
	ignore=
	[ "$(basename "$f")" = ut_compat.h ] &&
		ignore="--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON"
	[ "$(basename "$f")" = ut_tables.h ] && ignore="--ignore COMPLEX_MACRO"
	# shellcheck disable=SC2086
	perl "$checkpatch" --no-tree -f --terse --show-types $ignore "$f" \
		>"$tmp/cp.log" 2>&1
	rc=$?
	# --terse prints nothing for a clean file, one line per problem else
	[ $rc = 0 ] && [ ! -s "$tmp/cp.log" ]
	result $? "checkpatch $(basename "$f")" "$tmp/cp.log"
done

grep -v '^#' "$top/tools/kernels.conf" | while read -r name abi _; do
	[ -n "$name" ] && [ "$name" != default ] && echo "$abi"
done >"$tmp/abis"
while read -r abi; do
	# another release's kernel builds in its build root (tools/kbuild),
	# through chroot: root only
	suite=$(awk -v a="$abi" '$2 == a { print $3; exit }' \
		"$top/tools/kernels.conf")
	case $suite in
	bookworm*) ;;
	debug) if ! "$top/tools/debug-kernel" dir >/dev/null 2>&1; then
		n=$((n + 1))
		echo "ok $n - builds for $abi # SKIP the debug kernel is not built (tools/deps.sh)"
		continue
	   fi ;;
	*) if [ "$(id -u)" != 0 ]; then
		n=$((n + 1))
		echo "ok $n - builds for $abi # SKIP not root (tools/kbuild chroots)"
		continue
	   fi ;;
	esac
	src=$tmp/sparse-$abi
	mkdir -p "$src"
	cp -r "$top/Kbuild" "$top/VERSION" "$top/module" "$src/"
	# the xHCI tracepoints' prototypes of the kernel's source, if here
	ksrc=/var/cache/usbtrail/src/linux-$(echo "$abi" |
		sed 's/^\([0-9]*\.[0-9]*\).*/\1/')
	if [ -d "$ksrc" ]; then
		"$top/tools/tp-protos" "$ksrc" >"$src/module/ut_tp_kernel.h" ||
			rm -f "$src/module/ut_tp_kernel.h"
	fi
	"$top/tools/kbuild" "$abi" "$src" C=2 modules >"$tmp/sparse.log" 2>&1
	rc=$?
	if [ $rc = 0 ] && grep -E '(warning|error):' "$tmp/sparse.log" \
		>"$tmp/sparse-warn.log"; then
		rc=1
	fi
	result $rc "sparse and build for $abi" "$tmp/sparse.log"
	# the module says the tree's one version (VERSION, via module/Kbuild)
	modver=$(modinfo -F version "$src/module/usbtrail.ko" 2>&1)
	[ "$modver" = "$(cat "$top/VERSION")" ]
	result $? "usbtrail.ko for $abi is version $(cat "$top/VERSION") ($modver)"

	# no DKMS for the debug kernel: it has no /lib/modules/ABI/build
	[ "$suite" = debug ] && continue
	dk=$tmp/dkms-$abi
	ver=$(cat "$top/VERSION")
	mkdir -p "$dk/src/usbtrail-$ver" "$dk/tree"
	cp -r "$top/Kbuild" "$top/Makefile" "$top/VERSION" "$top/dkms.conf" \
		"$top/module" "$top/tools" "$dk/src/usbtrail-$ver/"
	"$top/tools/kbuild" "$abi" "$dk" -- dkms build --dkmstree "$dk/tree" \
		--sourcetree "$dk/src" -m usbtrail -v "$ver" -k "$abi" \
		>"$tmp/dkms.log" 2>&1
	rc=$?
	if [ $rc = 0 ] && ! find "$dk/tree" -name 'usbtrail.ko*' | grep -q .; then
		rc=1
	fi
	result $rc "dkms build for $abi" "$tmp/dkms.log"
done <"$tmp/abis"
echo "1..$n"
exit $failed
