#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --bridge rc16 (issue 31): READ CAPACITY(16) answers garbage.  The 1 GiB
# disk probes as 512 TiB ("1099513724928 512-byte logical blocks", the
# wrong size users post), READ CAPACITY(10) tells the truth.  The
# kernel's fix, the usb-storage quirk e written live and a rebind: sd
# uses READ CAPACITY(10) and the disk is 1 GiB again; the bridge is not
# asked READ CAPACITY(16) any more.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bridge.inc"

bridge_run rc16 5b7e:03d9 --timeout 300

driver_is uas uas
fired 'READ CAPACITY\(16\): last LBA answered as 0x0000010000'
expect "$out/uas.klog" '\[sd[a-z]+\] 1099513724928 512-byte logical blocks: \(563 TB/512 TiB\)'
[ "$(cat "$out/uas.size")" = 1099513724928 ] || fail "size $(cat "$out/uas.size")"
expect "$out/uas.scsi" '^rc16 .* last_lba=1099513724927 block=512$'
expect "$out/uas.scsi" '^rc10 .* last_lba=2097151 block=512$'
asked=$(grep -c 'READ CAPACITY(16)' "$out/qemu.log")

driver_is e uas
expect "$out/e.klog" '\[sd[a-z]+\] 2097152 512-byte logical blocks: \(1\.07 GB/1\.00 GiB\)'
[ "$(cat "$out/e.size")" = 2097152 ] || fail "quirk e: size $(cat "$out/e.size")"
[ "$(grep -c 'READ CAPACITY(16)' "$out/qemu.log")" = "$asked" ] ||
	fail "sd still sends READ CAPACITY(16) with the quirk"
echo "ok: quirk e: the disk is 1 GiB; no READ CAPACITY(16) after it"
no_kernel_warning "$out/console.log"
