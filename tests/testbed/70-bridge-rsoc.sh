#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --bridge rsoc (issue 31): REPORT SUPPORTED OPERATION CODES is never
# answered.  sd sends it while probing a disk on uas: the probe stalls,
# and after sd's 30 s the kernel aborts it (the CDB line names the
# command) and resets the bridge; there is no disk yet.  The kernel's fix,
# the usb-storage quirk f written live and the interface probed again: sd
# sends no REPORT SUPPORTED OPERATION CODES, the disk is there within
# seconds, no error handler runs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bridge.inc"

bridge_run rsoc,plug=late 7d21:c0e4 --timeout 300

driver_is probe uas
fired 'UAS tag [0-9]+ opcode 0xa3: opcode the bridge does not implement: dropped'
expect_order "$out/probe.klog" \
	'\[sd[a-z]+\] tag#[0-9]+ uas_eh_abort_handler 0 uas-tag [0-9]+ inflight: CMD IN' \
	'CDB: Report supported operation codes a3 0c ' \
	'usb 2-1: reset SuperSpeed USB device number [0-9]+ using xhci_hcd'
[ "$(cat "$out/probe.disk-at-abort")" = none ] ||
	fail "a disk was there when the probe's first command timed out"
sent=$(grep -c 'opcode 0xa3' "$out/qemu.log")
echo "ok: the probe stalled on REPORT SUPPORTED OPERATION CODES ($sent sent)"

driver_is f uas
[ "$(cat "$out/f.disk")" != none ] || fail "quirk f: no disk"
expect "$out/f.klog" '\[sd[a-z]+\] Attached SCSI disk'
none "$out/f.klog" "$eh_re" "quirk f: no error handler"
[ "$(grep -c 'opcode 0xa3' "$out/qemu.log")" = "$sent" ] ||
	fail "sd still sends REPORT SUPPORTED OPERATION CODES with the quirk"
echo "ok: quirk f: disk $(cat "$out/f.disk"), no REPORT SUPPORTED OPERATION CODES sent"
no_kernel_warning "$out/console.log"
