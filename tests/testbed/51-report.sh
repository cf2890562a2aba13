#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail report over a recording made in the guest (usbtrail.ko, usbmon,
# the kernel log; usbtrail stress on the UAS disk hitting medium not
# present, then a stall with the UAS abort/reset chain): on the host, the
# report names both incidents with their evidence and advice, and the
# bundle has the device's descriptors in lsusb -v form, a capture tshark
# reads, and no serial number.
. "$(dirname "$0")/lib.sh"

command -v tshark >/dev/null || skip "no tshark (tools/deps.sh installs it)"
bin=$top/userspace/usbtrail
rm -rf "$out/rec"
tb --devices uas --fault medium-not-present@20480 --fault stall@4+8 \
	--timeout 400 -- sh /tests/report-record.sh >"$out/stdout.txt" 2>&1 ||
	fail "guest command failed"
expect "$out/stdout.txt" 'record exit 1'	# stress saw the I/O error
rec=$out/rec
{ [ -s "$rec/events.jsonl" ] && [ -s "$rec/capture.pcapng" ]; } ||
	fail "no recording in $rec"

"$bin" report "$rec" --bundle "$out/bundle.tar.gz" >"$out/report.out" \
	2>"$out/report.err" || fail "usbtrail report: $(cat "$out/report.err")"
txt=$rec/report.txt
expect "$txt" 'sense 02/3a/00 \(Not Ready: Medium not present\) on sda'
expect "$txt" 'timeout .*on sda'
expect "$txt" 'reset speed=SuperSpeed( devnum=[0-9]+)? on sda'
expect "$txt" 'evidence [0-9]+ .*trace .*scsi-done .*sense=02/3a/00'
expect "$txt" 'For this recording: usb-storage.quirks=46f4:0003:u \(sda\)'
expect "$txt" '^SEQ1M Q4T1 +[0-9.]+ +[0-9.]+ +1$'
# the run's target as the device events have it, its serial hashed
expect "$txt" '^run [0-9a-f]{16} on /dev/disk/testbed/uas: sda, usb 2-1 46f4:0003 ".*", 5000 Mbit/s, driver uas, serial sha256:[0-9a-f]+$'
expect "$txt" 'Stopped +[0-9]+$'

# analyze DIR reads the recording as report does: the same incidents
awk '/^#[0-9]+ / { print $4 }' "$txt" >"$out/report.kinds"
"$bin" analyze --json "$rec" 2>"$out/analyze.err" |
	jq -r 'select(.type == "incident") | .kind' >"$out/analyze.kinds"
diff -u "$out/report.kinds" "$out/analyze.kinds" ||
	fail "analyze DIR and report name different incidents"
echo "ok: analyze DIR names the report's $(wc -l <"$out/report.kinds") incidents"
# and made again from the whole recording's events: every kind it stored
# (the counts may differ: live, the held halves go out as time passes,
# and a dip's interval starts with the recording)
"$bin" analyze --json --rederive "$rec" 2>/dev/null |
	jq -r 'select(.type == "incident") | .kind' >"$out/rederive.kinds"
sort -u "$out/report.kinds" >"$out/report.set"
sort -u "$out/rederive.kinds" >"$out/rederive.set"
missing=$(comm -23 "$out/report.set" "$out/rederive.set")
[ -z "$missing" ] || fail "analyze --rederive misses: $missing"
echo "ok: analyze --rederive: every kind the recording stored ($(tr '\n' ' ' <"$out/rederive.set"))"

rm -rf "$out/bundle"
mkdir "$out/bundle"
tar -xzf "$out/bundle.tar.gz" -C "$out/bundle" || fail "bundle does not unpack"
b=$out/bundle/usbtrail-bundle
size=$(stat -c %s "$out/bundle.tar.gz")
[ "$size" -le 1048576 ] || fail "bundle: $size bytes over 1 MiB"
expect "$b/devices.txt" 'idVendor +0x46f4'
expect "$b/devices.txt" 'bInterfaceProtocol +98 \(UAS\)'
expect "$b/devices.txt" 'Command pipe \(0x01\)'
expect "$b/usbmon-1u.txt" '^[0-9a-f]+ [0-9]+ [SC] Bo:2:002:'
tshark -r "$b/capture.pcapng" >"$out/tshark.txt" 2>"$out/tshark.err" ||
	fail "tshark -r: $(tail -n 3 "$out/tshark.err")"
echo "ok: tshark reads $(wc -l <"$out/tshark.txt") frames of the bundle"
if grep -rl usbtrail-uas "$out/bundle"; then
	fail "the serial is in the bundle"
fi
echo "ok: no serial in the bundle"

# The whole recording (thousands of trace records and packets) under
# 64 KiB: cut around the incidents, still a capture tshark reads
"$bin" report "$rec" -o "$out/small.html" --bundle "$out/small.tar.gz" \
	--max-size 64K >"$out/small.out" 2>"$out/small.err" ||
	fail "usbtrail report --max-size 64K: $(cat "$out/small.err")"
size=$(stat -c %s "$out/small.tar.gz")
[ "$size" -le 65536 ] || fail "bundle: $size bytes over 64 KiB"
rm -rf "$out/small" && mkdir "$out/small"
tar -xzf "$out/small.tar.gz" -C "$out/small" || fail "small bundle does not unpack"
s=$out/small/usbtrail-bundle
expect "$s/README.txt" 'kept within .* s of an incident only|no capture packets'
full=$(tshark -r "$b/capture.pcapng" -Y usb 2>/dev/null | wc -l)
small=$(tshark -r "$s/capture.pcapng" -Y usb 2>/dev/null | wc -l) ||
	fail "tshark cannot read the small bundle's capture"
[ "$small" -lt "$full" ] || fail "capture not cut: $small of $full packets"
echo "ok: $size bytes, $small of $full USB packets around the incidents"
