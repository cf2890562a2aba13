#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail.ko during a stall: the command timeout, the UAS abort and the
# device reset are recorded, in that order, with the disk they hit; the
# device reset under the handler's name of the kernel (7.3's
# uas_eh_host_reset_handler).
# kernels: all
# cpus: 4
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas --fault stall@3+8 --timeout 240 -- sh -c '
	insmod $USBTRAIL_KO || exit 1
	basename $TESTBED_UAS >/out/disk.txt
	/tests/utcat --idle 100000 >/out/records.txt &
	/tests/write-loop.sh $TESTBED_UAS 16 64
	sleep 2
	kill $!
	cat /sys/kernel/debug/usbtrail/disks >/out/disks.txt
	cat /sys/kernel/debug/usbtrail/probes >/out/probes.txt
	wait
	rmmod usbtrail && echo stall-ok
' >"$out/stdout.txt" 2>&1 || fail "guest command failed"

expect "$out/stdout.txt" '^stall-ok$'
expect "$out/probes.txt" \
	'^probe=uas:uas_eh_(device|host)_reset_handler kind=kretprobe state=attached '
disk=$(cat "$out/disk.txt")
# The midlayer aborts timed-out commands from a work item first, then
# wakes the error handler thread, which resets the device.
expect_order "$out/records.txt" \
	" scsi-timeout disk=$disk " \
	" eh-start kind=abort driver=uas disk=$disk " \
	" eh-end kind=abort driver=uas " \
	" scsi-eh-wakeup " \
	" eh-start kind=device-reset driver=uas disk=$disk " \
	" eh-end kind=device-reset driver=uas .* result=0x2002"
# the device reset resets the USB device: xHCI's Reset Device command (17)
expect "$out/records.txt" " xhci-command slot=[0-9]+ ep=0 cc=1 trb=17 "
n=$(grep -c " scsi-timeout disk=$disk " "$out/records.txt")
expect "$out/disks.txt" "^disk=$disk .* timeouts=$n "
n=$(grep -c " eh-start kind=abort .*disk=$disk " "$out/records.txt")
expect "$out/disks.txt" "^disk=$disk .* aborts=$n "
