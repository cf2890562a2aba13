#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail record --source tracefs (src_tracefs.c, without usbtrail.ko)
# during a stall: the command timeouts, the UAS aborts and the device
# reset are trace records of the right disk, as usbtrail.ko records them
# (12-module-stall.sh); afterwards, and after a recording stopped by
# SIGTERM, its instance and kprobes are gone, a dead recorder's stale ones
# too, and the top-level tracing settings are as they were.
# kernels: 5.10 7.3
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null 2>&1 || skip "jq is not installed"

# The source takes a few seconds to set up under TCG (instance, kprobes):
# the stall begins once the writes surely have.
rm -rf "$out/rec" "$out/rec-term"
# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas --fault stall@8+8 --timeout 300 -- sh -c '
	sh /tests/tracefs-source.sh $TESTBED_UAS 22
' >"$out/stdout.txt" 2>&1 || fail "guest command failed"

expect "$out/stdout.txt" '^tracefs-source-done$'
expect "$out/stdout.txt" '^record exit 0$'
jq -e '.trace_source == "tracefs" and .complete and
	any(.sources[]; .name == "tracefs" and .events > 0 and
		.malformed == 0 and .lost == 0)' "$out/rec/meta.json" \
	>/dev/null || fail "meta.json: not a complete tracefs recording"
echo "ok: meta.json: complete, tracefs, nothing malformed or lost"
# the trace records are in capture.pcapng: export gives them as lines
"${USBTRAIL:-$top/userspace/usbtrail}" export --jsonl "$out/rec" \
	>"$out/rec/all.jsonl" 2>"$out/export.err" ||
	fail "usbtrail export: $(cat "$out/export.err")"
jq -r 'select(.type == "trace" and .source == "tracefs") | .text' \
	"$out/rec/all.jsonl" >"$out/records.txt" ||
	fail "export --jsonl gave lines that are not JSON"

disk=$(cat "$out/disk.txt")
expect_order "$out/records.txt" \
	" scsi-timeout disk=$disk " \
	" eh-start kind=abort driver=uas disk=$disk " \
	" eh-end kind=abort driver=uas " \
	" scsi-eh-wakeup " \
	" eh-start kind=device-reset driver=uas disk=$disk " \
	" eh-end kind=device-reset driver=uas .* result=0x2002"
# the events name the disk, for the recorder's classifier
jq -se --arg d "$disk" 'any(.[]; .type == "trace" and .rec == "eh-start"
	and .disk == $d)' "$out/rec/all.jsonl" >/dev/null ||
	fail "no eh-start event with disk $disk"
echo "ok: eh-start events carry disk $disk"
# the aborted commands are the ones uas names in the kernel log, in order:
# the kprobes follow the struct scsi_cmnd * (offsets from scsi_mod's BTF;
# without it, 5.10, the records name the disk of the last timeout only)
log_tags=$(sed -n 's/.* tag#\([0-9]*\) uas_eh_abort_handler .*/\1/p' \
	"$out/console.log" | tr '\n' ' ')
if [ "$(cat "$out/scsi-btf.txt")" = yes ]; then
	rec_tags=$(sed -n 's/.* eh-start kind=abort driver=uas .* tag=\([0-9]*\) .*/\1/p' \
		"$out/records.txt" | tr '\n' ' ')
	{ [ -n "$rec_tags" ] && [ "$rec_tags" = "$log_tags" ]; } ||
		fail "aborted tags: records '$rec_tags', kernel log '$log_tags'"
	echo "ok: aborted tags $rec_tags as the kernel log says"
else
	n_rec=$(grep -c " eh-start kind=abort driver=uas disk=$disk " \
		"$out/records.txt")
	n_log=$(echo "$log_tags" | wc -w)
	[ "$n_rec" = "$n_log" ] ||
		fail "aborts: $n_rec records, $n_log in the kernel log"
	echo "note: no BTF of scsi_mod: the aborts' tags are not compared"
	echo "ok: $n_rec aborts of $disk, as many as the kernel log names"
fi
# the device reset resets the USB device: xHCI's Reset Device command (17)
expect "$out/records.txt" " xhci-command slot=[0-9]+ ep=0 cc=1 trb=17 "
expect "$out/records.txt" " xhci-transfer .* cc=26 "
expect "$out/records.txt" " blk-complete disk=$disk .* bytes=524288 "

# nothing left behind, the stale ones removed, the top level untouched
expect "$out/instances-before.txt" '^usbtrail-99999$'
expect "$out/instances-during.txt" '^usbtrail-[0-9]+$'
expect "$out/stdout.txt" '^term exit 0$'
for f in after term; do
	! grep -q '^usbtrail-' "$out/instances-$f.txt" ||
		fail "instances left ($f): $(grep '^usbtrail-' "$out/instances-$f.txt")"
	! grep -q 'usbtrail_' "$out/dynamic-$f.txt" ||
		fail "dynamic events left ($f): $(grep usbtrail_ "$out/dynamic-$f.txt")"
	cmp -s "$out/top-before.txt" "$out/top-$f.txt" ||
		fail "top-level settings changed ($f): $(diff "$out/top-before.txt" "$out/top-$f.txt")"
	echo "ok: $f: no usbtrail instance or kprobe left, top level unchanged"
done
jq -e '.complete' "$out/rec-term/meta.json" >/dev/null ||
	fail "rec-term/meta.json: not complete after SIGTERM"
echo "ok: the recording stopped by SIGTERM is complete"
