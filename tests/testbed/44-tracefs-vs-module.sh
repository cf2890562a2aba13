#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The tracefs source and usbtrail.ko record the same stall at once: the
# records they both carry in full (SCSI commands and timeouts, the error
# handlers, scsi-eh-wakeup, xHCI commands) must be the same records,
# field for field (docs/module.md lists the fields only the module has;
# those record types are left out here).
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null 2>&1 || skip "jq is not installed"

rm -rf "$out/rec"
tb --devices uas --fault stall@8+8 --timeout 300 ${TB_KERNEL:+--kernel $TB_KERNEL} -- sh -c '
	sh /tests/tracefs-vs-module.sh $TESTBED_UAS 22
' >"$out/stdout.txt" 2>&1 || fail "guest command failed"
expect "$out/stdout.txt" '^record exit 0$'
expect "$out/stdout.txt" '^tracefs-vs-module-done$'
jq -r 'select(.type == "trace" and .source == "tracefs") | .text' \
	"$out/rec/events.jsonl" >"$out/tracefs.txt" ||
	fail "events.jsonl is not valid JSON lines"

# the comparable records, without sequence number and time, from the
# span both recorded (a second in from either end of tracefs's)
lo=$(awk 'NR == 1 { print $2 + 1 }' "$out/tracefs.txt")
hi=$(awk 'END { print $2 - 1 }' "$out/tracefs.txt")
pick() {
	awk -v lo="$lo" -v hi="$hi" '$2 >= lo && $2 <= hi &&
		$3 ~ /^(scsi-start|scsi-done|scsi-error|scsi-timeout|scsi-eh-wakeup|eh-start|eh-end|xhci-command)$/ {
		$1 = ""; $2 = ""; print substr($0, 3) }' "$1"
}
pick "$out/tracefs.txt" >"$out/tracefs-common.txt"
pick "$out/module.txt" >"$out/module-common.txt"
n=$(wc -l <"$out/tracefs-common.txt")
[ "$n" -gt 100 ] || fail "only $n comparable records"
grep -q '^eh-start kind=abort ' "$out/tracefs-common.txt" ||
	fail "the span has no abort to compare"
# The same records; their order may differ where an interrupt came
# between the module's probe and ftrace's on one tracepoint, so: the same
# multiset, and the error handling in the same order.
sort "$out/module-common.txt" >"$out/module-sorted.txt"
sort "$out/tracefs-common.txt" >"$out/tracefs-sorted.txt"
diff -u "$out/module-sorted.txt" "$out/tracefs-sorted.txt" \
	>"$out/common.diff" ||
	fail "the sources differ: $(head -n 12 "$out/common.diff")"
echo "ok: $n records the same in both"
eh='^(scsi-timeout|scsi-eh-wakeup|eh-start|eh-end) '
grep -E "$eh" "$out/module-common.txt" >"$out/module-eh.txt"
grep -E "$eh" "$out/tracefs-common.txt" >"$out/tracefs-eh.txt"
diff -u "$out/module-eh.txt" "$out/tracefs-eh.txt" >"$out/eh.diff" ||
	fail "the error handling differs: $(head -n 12 "$out/eh.diff")"
echo "ok: the error handling in the same order: $(wc -l <"$out/tracefs-eh.txt") records"
