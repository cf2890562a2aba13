#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail.ko follows the modules it probes: with it loaded, unload the
# whole USB storage and xHCI stack (its tracepoints and kprobes go), load
# it again (they come back), and records flow for the new disk.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas --timeout 240 -- sh -c '
	src() { sed -n "s/^sources=//p" /sys/kernel/debug/usbtrail/stats; }
	insmod $USBTRAIL_KO || exit 1
	echo "loaded $(src)"
	for m in uas usb_storage sd_mod xhci_pci xhci_hcd scsi_mod; do
		rmmod $m || { echo "rmmod $m failed"; exit 1; }
	done
	echo "stack-unloaded $(src)"
	for m in scsi_mod sd_mod xhci-hcd xhci-pci usb-storage uas; do
		f=$(ls /lib/modules/testbed/$m.ko 2>/dev/null ||
		    ls /lib/modules/testbed/$(echo $m | tr - _).ko)
		insmod $f || { echo "insmod $m failed"; exit 1; }
	done
	i=0
	while [ $i -lt 100 ] && ! ls /sys/block | grep -q sd; do
		sleep 0.2; i=$((i + 1))
	done
	echo "stack-reloaded $(src)"
	disk=$(ls /sys/block | grep sd | head -n 1)
	/tests/utcat >/dev/null
	dd if=/dev/zero of=/dev/$disk bs=1M count=2 oflag=direct 2>/dev/null
	/tests/utcat >/out/records.txt
	echo "disk $disk"
	rmmod usbtrail && echo attach-ok
' >"$out/stdout.txt" 2>&1 || fail "guest command failed: $(tail -n 3 "$out/stdout.txt")"

cat "$out/stdout.txt"
expect "$out/stdout.txt" '^attach-ok$'
# 0x3f: xhci, scsi, block, uas EH, usb-storage EH, usbdev
expect "$out/stdout.txt" '^loaded 0x3f$'
# with the stack gone only the built-in block and usbcore parts remain
expect "$out/stdout.txt" '^stack-unloaded 0x24$'
expect "$out/stdout.txt" '^stack-reloaded 0x3f$'
disk=$(sed -n 's/^disk //p' "$out/stdout.txt")
expect "$out/records.txt" " scsi-done disk=$disk .*op=0x2a "
expect "$out/records.txt" " xhci-transfer .* cc=1 "
expect "$out/records.txt" " blk-complete disk=$disk "
bad='BUG|WARNING|Oops|general protection|Call Trace'
if grep -Eq "$bad" "$out/console.log"; then
	fail "the kernel complained: $(grep -Em3 "$bad" "$out/console.log")"
fi
