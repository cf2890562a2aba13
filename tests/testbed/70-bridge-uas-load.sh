#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --bridge uas-load (issue 31): UAS breaks under load.  CrystalDiskMark's
# set through usbtrail stress: at Q8 and Q32 the bridge never sends the
# status of some commands, and the guest's kernel shows what the field
# shows for such bridges (uas_eh_abort_handler ... inflight, the device
# reset, "reset SuperSpeed USB device").  The kernel's fix, the
# usb-storage quirk u written at run time and the interface probed again:
# usb-storage binds the same bridge's BOT alternate setting, usbtrail uas
# says quirk-ignore-uas, and the same workload passes with no error
# handler at all and the bridge never losing a status.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bridge.inc"

bridge_run uas-load 2e8a:51c0 --timeout 600

driver_is uas uas
fired 'UAS tag [0-9]+ opcode 0x[0-9a-f]+: status never sent \([0-9]+ commands in flight\)'
expect_order "$out/uas.klog" \
	'\[sd[a-z]+\] tag#[0-9]+ uas_eh_abort_handler 0 uas-tag [0-9]+ inflight: CMD' \
	'scsi host[0-9]+: uas_eh_device_reset_handler start' \
	'usb 2-1: reset SuperSpeed USB device number [0-9]+ using xhci_hcd' \
	'scsi host[0-9]+: uas_eh_device_reset_handler success'
[ "$(cat "$out/uas-cdm.rc")" = 0 ] || fail "stress over UAS exited $(cat "$out/uas-cdm.rc")"
lost=$(grep -c 'status never sent' "$out/qemu.log")
aborts=$(count "$out/uas.klog" uas_eh_abort_handler)
echo "ok: over UAS: $lost statuses lost, $aborts aborts"

driver_is bot usb-storage
python3 - "$out/bot.uas.json" "$vidpid" <<'PY' || fail "usbtrail uas after the quirk"
import json, sys
d = [e for e in json.load(open(sys.argv[1])) if e["usb"] == "2-1"][0]
assert (d["driver"], d["reason"]) == ("usb-storage", "quirk-ignore-uas"), d
print("ok: usbtrail uas: driver usb-storage, quirk-ignore-uas")
PY
[ "$(cat "$out/bot-cdm.rc")" = 0 ] || fail "stress over BOT exited $(cat "$out/bot-cdm.rc")"
none "$out/bot.klog" "$eh_re|I/O error" "the fix: no error handler over BOT"
[ "$(grep -c 'status never sent' "$out/qemu.log")" = "$lost" ] ||
	fail "the bridge lost a status after the fix"
# what the fix costs: each test's MB/s and p99 over UAS and over BOT
python3 - "$out/uas-cdm.json" "$out/bot-cdm.json" <<'PY'
import json, sys
u, b = (json.load(open(f)) for f in sys.argv[1:])
for pu, pb in zip(u["phases"], b["phases"]):
    print(f"  {pu['name']:22} UAS {pu['mbps']:7.1f} MB/s p99 {pu['lat_p99_us'] / 1000:8.1f} ms"
          f"   BOT {pb['mbps']:7.1f} MB/s p99 {pb['lat_p99_us'] / 1000:8.1f} ms")
PY
no_kernel_warning "$out/console.log"
