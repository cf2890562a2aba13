#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --bridge ata-pt (issue 31): ATA PASS-THROUGH is never answered.  An
# IDENTIFY DEVICE in ATA PASS-THROUGH(16), as smartctl -d sat sends it,
# times out (SG_IO's 5 s) and the kernel aborts and resets the bridge.
# The kernel's fix, the usb-storage quirk t written live and a rebind:
# uas answers ATA PASS-THROUGH(12) and (16) itself with ILLEGAL REQUEST
# at once, the bridge never sees them, no error handler runs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bridge.inc"

bridge_run ata-pt 0c4d:9e17 --timeout 300

driver_is uas uas
fired 'UAS tag [0-9]+ opcode 0x85: opcode the bridge does not implement: dropped'
expect "$out/uas.scsi" '^ata16 status=0x00 host=0x0[37] '
expect_order "$out/uas.klog" \
	'uas_eh_abort_handler 0 uas-tag [0-9]+ inflight: CMD IN' \
	'usb 2-1: reset SuperSpeed USB device number [0-9]+ using xhci_hcd'
dropped=$(grep -c 'does not implement' "$out/qemu.log")

driver_is t uas
expect "$out/t.scsi" '^ata16 status=0x02 host=0x00 driver=0x08 sense=05/24/00 '
expect "$out/t.scsi" '^ata12 status=0x02 host=0x00 driver=0x08 sense=05/24/00 '
none "$out/t.klog" "$eh_re" "quirk t: no error handler"
[ "$(grep -c 'does not implement' "$out/qemu.log")" = "$dropped" ] ||
	fail "the bridge saw ATA PASS-THROUGH after the quirk"
echo "ok: quirk t: ATA PASS-THROUGH refused by the driver, never sent"
no_kernel_warning "$out/console.log"
