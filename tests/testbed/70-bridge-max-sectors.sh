#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --bridge max-sectors (issue 31): a READ or WRITE of more than 240
# sectors is never answered.  A 1 MiB O_DIRECT write over UAS (the
# kernel sends 512 KiB commands) times out again and again: abort, device
# reset, and in the end the I/O error the field shows.  The kernel's two
# fixes, applied live: the usb-storage quirk g and a rebind (uas caps the
# queue at 240 sectors: max_sectors_kb 120), then no quirk and
# max_sectors_kb written through sysfs; each time 4 MiB go through and
# read back the same, with no error handler and no dropped command.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bridge.inc"

bridge_run max-sectors 3f1c:0a42 --timeout 600

driver_is uas uas
fired 'UAS tag [0-9]+ opcode 0x2a: transfer over the sector limit: dropped'
expect_order "$out/uas.klog" \
	'\[sd[a-z]+\] tag#[0-9]+ uas_eh_abort_handler 0 uas-tag [0-9]+ inflight: CMD OUT' \
	'usb 2-1: reset SuperSpeed USB device number [0-9]+ using xhci_hcd' \
	'I/O error, dev sd[a-z]+, sector 0 op 0x1:\(WRITE\)'
[ "$(cat "$out/uas.write")" != 0 ] || fail "the write over 240 sectors succeeded"
dropped=$(grep -c 'over the sector limit' "$out/qemu.log")
echo "ok: the 1 MiB write failed; $dropped commands dropped"

driver_is g uas
[ "$(cat "$out/g.max_sectors_kb")" = 120 ] ||
	fail "quirk g: max_sectors_kb $(cat "$out/g.max_sectors_kb"), not 120"
echo "ok: quirk g: max_sectors_kb 120"
for p in g sysfs; do
	[ "$(cat "$out/$p.write")" = 0 ] || fail "$p: the write failed"
	[ "$(cat "$out/$p.compare")" = same ] ||
		fail "$p: read back differs: $(cat "$out/$p.compare")"
	none "$out/$p.klog" "$eh_re|I/O error" "$p: the fix holds"
	echo "ok: $p: 4 MiB written and read back the same"
done
[ "$(grep -c 'over the sector limit' "$out/qemu.log")" = "$dropped" ] ||
	fail "the bridge dropped a command after the fix"
no_kernel_warning "$out/console.log"
