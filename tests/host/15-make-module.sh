#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make module builds for the running kernel, as Kbuild users expect, and
# says how to get its headers when they are missing; the test bed's
# kernel has its own target.
. "$(dirname "$0")/lib.sh"

krel=$(uname -r)
kdir=/lib/modules/$krel/build
if [ -d "$kdir" ]; then
	make -s -n -C "$top" module >"$out/dry.txt" 2>&1 ||
		fail "make -n module failed: $(head -n 3 "$out/dry.txt")"
	grep -q -- "-C $kdir" "$out/dry.txt" ||
		fail "make module does not build against $kdir"
	echo "ok: make module builds against $kdir"
else
	if make -s -C "$top" module >"$out/module.txt" 2>&1; then
		fail "make module succeeded without headers in $kdir"
	fi
	grep -q "no kernel headers in $kdir" "$out/module.txt" ||
		fail "make module does not name $kdir: $(head -n 1 "$out/module.txt")"
	grep -q "apt install linux-headers-$krel" "$out/module.txt" ||
		fail "make module gives no apt hint: $(cat "$out/module.txt")"
	echo "ok: without headers, make module says: $(head -n 2 "$out/module.txt" | tr '\n' ' ')"
fi

# a KDIR given wins, and a missing one is named
if make -s -C "$top" module KDIR=/nonexistent-usbtrail-kdir \
	>"$out/kdir.txt" 2>&1; then
	fail "make module KDIR=/nonexistent succeeded"
fi
grep -q "no kernel headers in /nonexistent-usbtrail-kdir" "$out/kdir.txt" ||
	fail "make module KDIR= does not name it: $(head -n 1 "$out/kdir.txt")"
echo "ok: make module KDIR=/nonexistent-usbtrail-kdir names it"

abi=$(awk '$1 == "default" { print $2 }' "$top/tools/kernels.conf")
make -s -n -C "$top" module-testbed >"$out/testbed.txt" 2>&1 || true
grep -q "KDIR=/usr/src/linux-headers-$abi" "$out/testbed.txt" ||
	fail "make module-testbed does not use the test bed's $abi"
echo "ok: make module-testbed builds for $abi"
