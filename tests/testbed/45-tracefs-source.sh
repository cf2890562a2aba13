#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The tracefs source (src_tracefs.c, without usbtrail.ko) during a stall:
# the command timeouts, the UAS aborts and the device reset are recorded
# for the right disk, as usbtrail.ko records them (12-module-stall.sh);
# afterwards its instance and kprobes are gone, a dead recorder's stale
# ones too, and the top-level tracing settings are as they were.
# The recorder runs through tests/tools/uttrace (record.c + src_tracefs.c
# alone) until "usbtrail record" wires its sources.  TB_KERNEL=6.12 runs
# it on the other kernel.
. "$(dirname "$0")/lib.sh"

# The source takes a few seconds to set up under TCG (instance, kprobes):
# the stall begins once the writes surely have.
tb --devices uas --fault stall@8+8 --timeout 300 ${TB_KERNEL:+--kernel $TB_KERNEL} -- sh -c '
	sh /tests/tracefs-source.sh $TESTBED_UAS 22
' >"$out/stdout.txt" 2>&1 || fail "guest command failed"

expect "$out/stdout.txt" '^tracefs-source-done$'
expect "$out/uttrace.err" '^uttrace-exit=0$'
disk=$(cat "$out/disk.txt")
expect_order "$out/records.txt" \
	" scsi-timeout disk=$disk " \
	" eh-start kind=abort driver=uas disk=$disk " \
	" eh-end kind=abort driver=uas " \
	" scsi-eh-wakeup " \
	" eh-start kind=device-reset driver=uas disk=$disk " \
	" eh-end kind=device-reset driver=uas .* result=0x2002"
# the aborted commands are the ones uas names in the kernel log, in order:
# the kprobes follow the struct scsi_cmnd * (offsets from BTF)
rec_tags=$(sed -n 's/.* eh-start kind=abort driver=uas .* tag=\([0-9]*\) .*/\1/p' \
	"$out/records.txt" | tr '\n' ' ')
log_tags=$(sed -n 's/.* tag#\([0-9]*\) uas_eh_abort_handler .*/\1/p' \
	"$out/console.log" | tr '\n' ' ')
[ -n "$rec_tags" ] && [ "$rec_tags" = "$log_tags" ] ||
	fail "aborted tags: records '$rec_tags', kernel log '$log_tags'"
echo "ok: aborted tags $rec_tags as the kernel log says"
# the device reset resets the USB device: xHCI's Reset Device command (17)
expect "$out/records.txt" " xhci-command slot=[0-9]+ ep=0 cc=1 trb=17 "
expect "$out/records.txt" " xhci-transfer .* cc=26 "
expect "$out/records.txt" " blk-complete disk=$disk .* bytes=524288 "
expect "$out/records.txt" "^# tracefs events=[1-9][0-9]* lost=0 malformed=0$"

# nothing left behind, the stale ones removed, the top level untouched
expect "$out/instances-before.txt" '^usbtrail-99999$'
! grep -q '^usbtrail-' "$out/instances-after.txt" ||
	fail "instances left: $(grep '^usbtrail-' "$out/instances-after.txt")"
echo "ok: no usbtrail instance after the run"
! grep -q 'usbtrail_' "$out/dynamic-after.txt" ||
	fail "dynamic events left: $(grep usbtrail_ "$out/dynamic-after.txt")"
echo "ok: no usbtrail kprobe after the run"
cmp "$out/top-before.txt" "$out/top-after.txt" ||
	fail "top-level settings changed: $(diff "$out/top-before.txt" "$out/top-after.txt")"
echo "ok: top level unchanged: $(tr '\n' ' ' <"$out/top-after.txt" | cut -c1-120)"
