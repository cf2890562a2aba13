#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# unplug@T+D during writes: the guest logs the disconnect, then a new
# device enumerates and binds uas again with a new disk.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas --fault unplug@2+3 --timeout 240 -- sh -c '
	/tests/write-loop.sh $TESTBED_UAS 6 64
	i=0
	while [ $i -lt 100 ] && ! ls /sys/bus/usb/drivers/uas/ | grep -q :; do
		sleep 0.1; i=$((i + 1))
	done
	ls /sys/bus/usb/drivers/uas/ >/out/uas-bound.txt
	ls /sys/block/ >/out/block.txt
' >"$out/stdout.txt" 2>&1 || fail "guest command failed"

expect "$out/faults.log" 'unplug@2\+3 unplug device=uas'
expect "$out/faults.log" 'unplug@2\+3 deleted device=uas'
expect "$out/faults.log" 'unplug@2\+3 replug device=uas'
expect_order "$out/console.log" \
	'testbed: command start' \
	'usb [0-9-]+: USB disconnect, device number [0-9]+' \
	'usb [0-9-]+: new SuperSpeed USB device number [0-9]+ using xhci_hcd' \
	'scsi host[0-9]+: uas' \
	'\[sd[a-z]+\] Attached SCSI disk'
expect "$out/uas-bound.txt" ':1\.0'
