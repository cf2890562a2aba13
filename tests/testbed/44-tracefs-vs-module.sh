#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The tracefs source and usbtrail.ko record the same stall at once: the
# records they both carry in full (SCSI commands and timeouts, the error
# handlers, scsi-eh-wakeup, xHCI commands) must be the same records,
# field for field (docs/module.md lists the fields only the module has;
# those record types are left out here).
# kernels: all
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null 2>&1 || skip "jq is not installed"

rm -rf "$out/rec"
# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas --fault stall@8+8 --timeout 300 -- sh -c '
	sh /tests/tracefs-vs-module.sh $TESTBED_UAS 22
' >"$out/stdout.txt" 2>&1 || fail "guest command failed"
expect "$out/stdout.txt" '^record exit 0$'
expect "$out/stdout.txt" '^tracefs-vs-module-done$'
# the trace records are in capture.pcapng: export gives them as lines
"${USBTRAIL:-$top/userspace/usbtrail}" export --jsonl "$out/rec" \
	>"$out/rec/all.jsonl" 2>"$out/export.err" ||
	fail "usbtrail export: $(cat "$out/export.err")"
jq -r 'select(.type == "trace" and .source == "tracefs") | .text' \
	"$out/rec/all.jsonl" >"$out/tracefs.txt" ||
	fail "export --jsonl gave lines that are not JSON"

# the comparable records, without sequence number and time, from the
# span both recorded (a second in from either end of tracefs's)
lo=$(awk 'NR == 1 { printf "%.9f", $2 + 1 }' "$out/tracefs.txt")
hi=$(awk 'END { printf "%.9f", $2 - 1 }' "$out/tracefs.txt")
# Without scsi_mod's BTF (5.10: no BTF of modules before 5.11) the
# tracefs source's eh-* records carry no tag and opcode (docs/module.md,
# "Kprobes on the error handlers"), and without the scsi events'
# driver_tag (before 5.13) its scsi-* records no tag, and without
# scsi_dispatch_cmd_done's sense fields (6.1 and before) its scsi-done no
# sense: compared without them there.  Everything else is compared on
# every kernel.
nobtf="" notag="" nosense=""
[ "$(cat "$out/scsi-btf.txt")" = yes ] || nobtf=1
[ "$(cat "$out/scsi-tag.txt")" = yes ] || notag=1
[ "$(cat "$out/scsi-sense.txt")" = yes ] || nosense=1
[ -z "$nobtf" ] || echo "note: no BTF of scsi_mod: eh-* compared without tag and opcode"
[ -z "$notag" ] || echo "note: scsi events without driver_tag: scsi-* compared without tag"
[ -z "$nosense" ] || echo "note: scsi_dispatch_cmd_done without sense fields: scsi-done compared without sense"
# pick FILE FROM TO: the comparable records in [FROM, TO] seconds
pick() {
	awk -v lo="$2" -v hi="$3" -v nobtf="$nobtf" -v notag="$notag" \
		-v nosense="$nosense" '
		$2 >= lo && $2 <= hi &&
		$3 ~ /^(scsi-start|scsi-done|scsi-error|scsi-timeout|scsi-eh-wakeup|eh-start|eh-end|xhci-command)$/ {
		if (nobtf && $3 ~ /^eh-/) { gsub(/ tag=[0-9]+/, ""); gsub(/ op=0x[0-9a-f]+/, "") }
		if (notag && $3 ~ /^scsi-/) gsub(/ tag=[0-9]+/, "")
		if (nosense && $3 == "scsi-done") gsub(/ sense=[0-9a-f\/]+/, "")
		$1 = ""; $2 = ""; print substr($0, 3) }' "$1"
}
pick "$out/tracefs.txt" "$lo" "$hi" >"$out/tracefs-common.txt"
pick "$out/module.txt" "$lo" "$hi" >"$out/module-common.txt"
n=$(wc -l <"$out/tracefs-common.txt")
[ "$n" -gt 100 ] || fail "only $n comparable records"
grep -q '^eh-start kind=abort ' "$out/tracefs-common.txt" ||
	fail "the span has no abort to compare"
# The sources stamp one event at different instants, microseconds apart
# as a rule but up to half a millisecond seen under emulation, so a
# record at the window's edge can fall inside for one and outside for
# the other.  Each source's records well inside the window (50 ms from
# its edges) must all be among the other's in a window 50 ms wider.
shift_by() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.9f", a + b }'; }
for s in module tracefs; do
	pick "$out/$s.txt" "$(shift_by "$lo" 0.05)" "$(shift_by "$hi" -0.05)" |
		LC_ALL=C sort >"$out/$s-inner.txt"
	pick "$out/$s.txt" "$(shift_by "$lo" -0.05)" "$(shift_by "$hi" 0.05)" |
		LC_ALL=C sort >"$out/$s-outer.txt"
done
LC_ALL=C comm -23 "$out/module-inner.txt" "$out/tracefs-outer.txt" \
	>"$out/only-module.txt"
LC_ALL=C comm -23 "$out/tracefs-inner.txt" "$out/module-outer.txt" \
	>"$out/only-tracefs.txt"
if [ -s "$out/only-module.txt" ]; then
	fail "records only the module has: $(head -n 6 "$out/only-module.txt")"
fi
if [ -s "$out/only-tracefs.txt" ]; then
	fail "records only tracefs has: $(head -n 6 "$out/only-tracefs.txt")"
fi
echo "ok: $n records the same in both"
eh='^(scsi-timeout|scsi-eh-wakeup|eh-start|eh-end) '
grep -E "$eh" "$out/module-common.txt" >"$out/module-eh.txt"
grep -E "$eh" "$out/tracefs-common.txt" >"$out/tracefs-eh.txt"
diff -u "$out/module-eh.txt" "$out/tracefs-eh.txt" >"$out/eh.diff" ||
	fail "the error handling differs: $(head -n 12 "$out/eh.diff")"
echo "ok: the error handling in the same order: $(wc -l <"$out/tracefs-eh.txt") records"
