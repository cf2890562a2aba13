#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The usbtrail.ko that DKMS built when usbtrail-dkms was installed
# (tests/host/40-deb-package.sh, which make check runs first, keeps it)
# loads in the test bed's default kernel and records a write to the UAS
# disk, as the tree's own build does.
. "$(dirname "$0")/lib.sh"

ko=$top/build/tests/host-40-deb-package/usbtrail.ko
[ -f "$ko" ] || skip "no DKMS-built $ko (tests/run 40-deb-package makes it)"
ver=$(cat "$top/VERSION")
[ "$(modinfo -F version "$ko")" = "$ver" ] ||
	skip "$ko is not version $ver (rerun tests/run 40-deb-package)"
cp "$ko" "$out/deb-usbtrail.ko"

# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas --timeout 240 -- sh -c '
	insmod /out/deb-usbtrail.ko || exit 1
	cat /sys/module/usbtrail/version >/out/version.txt
	basename $TESTBED_UAS >/out/disk.txt
	dd if=/dev/zero of=$TESTBED_UAS bs=1M count=1 oflag=direct 2>/dev/null
	sync
	/tests/utcat --info >/out/records.txt
	rmmod usbtrail && echo deb-module-ok
' >"$out/stdout.txt" 2>&1 ||
	fail "guest command failed: $(tail -n 3 "$out/stdout.txt")"

expect "$out/stdout.txt" '^deb-module-ok$'
expect "$out/version.txt" "^$ver\$"
expect "$out/console.log" 'usbtrail: loaded, ABI version [0-9]+'
disk=$(cat "$out/disk.txt")
expect "$out/records.txt" " scsi-done disk=$disk .*op=0x2a "
expect "$out/records.txt" '^info .* lost=0 '
