#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbmon capture into capture.pcapng: on the host, tshark reads the file
# "usbtrail record" made in the guest during a write that hit
# medium-not-present, and shows
# the UAS disk's URBs and the kernel's error lines (journal export
# entries) on one timeline, payload capped at --payload.
. "$(dirname "$0")/lib.sh"

command -v tshark >/dev/null || skip "no tshark (tools/deps.sh installs it)"
command -v jq >/dev/null || skip "no jq (tools/deps.sh installs it)"
rm -rf "$out/rec"
tb --devices uas --fault medium-not-present@10240 --timeout 240 -- \
	sh /tests/usbmon-pcapng.sh >"$out/stdout.txt" 2>&1 ||
	fail "guest command failed"

cap=$out/rec/capture.pcapng
expect "$out/stdout.txt" 'dd exit [1-9]'
expect "$out/stdout.txt" 'recorder exit 0'
[ -s "$cap" ] || fail "no capture.pcapng"
# meta.json: the usbmon source ran, skipped and lost nothing (usbmon
# keeps up to a fifth of its ring of each URB's data: the 64 MiB ring
# holds the burst of 1 MiB writes that a 4 MiB one lost 9 of 72 events
# of); a loss would be counted, never silent: meta.json's count is the
# last "lost" event's total.
python3 - "$out/rec/meta.json" "$out/rec/events.jsonl" <<'PY' ||
import json, sys
m = json.load(open(sys.argv[1]))
s = [s for s in m["sources"] if s["name"] == "usbmon"]
assert s and s[0]["events"] > 0 and s[0]["malformed"] == 0, s
lost = [json.loads(l) for l in open(sys.argv[2]) if '"type":"lost"' in l]
lost = [e for e in lost if e.get("source") == "usbmon"]
total = lost[-1]["total"] if lost else 0
assert s[0]["lost"] == total, (s, lost)
assert total == 0, ("usbmon lost events", s, lost)
print("ok: meta.json: usbmon", s[0], "nothing lost")
PY
	fail "meta.json: usbmon source"
read -r bus dev <"$out/uas-dev.txt"
disk=$(cat "$out/disk.txt")

# tshark reads all of it without a complaint
tshark -r "$cap" >"$out/tshark.txt" 2>"$out/tshark.err" ||
	fail "tshark -r failed: $(tail -n 3 "$out/tshark.err")"
grep -v 'Running as user' "$out/tshark.err" | grep -q . &&
	fail "tshark warned: $(head -n 3 "$out/tshark.err")"
echo "ok: tshark read $(wc -l <"$out/tshark.txt") frames"

# one line per frame: number, time, protocol, bus, device, caplen, message
tshark -r "$cap" -T fields -E separator='|' -e frame.number \
	-e frame.time_epoch -e frame.protocols -e usb.bus_id \
	-e usb.device_address -e frame.cap_len -e systemd_journal.message \
	>"$out/frames.txt" 2>/dev/null || fail "tshark -T fields failed"

# URBs of the UAS disk (bulk, its bus and device)
n=$(awk -F'|' -v b="$bus" -v d="$dev" '$3 ~ /^usb/ && $4 == b && $5 == d' \
	"$out/frames.txt" | wc -l)
[ "$n" -ge 20 ] || fail "only $n USB frames for device $bus:$dev"
echo "ok: $n USB frames for the disk at $bus:$dev"
tshark -r "$cap" -Y "usb.bus_id == $bus && usb.device_address == $dev && usb.transfer_type == 0x03" \
	2>/dev/null | grep -q URB_BULK || fail "no bulk URBs of $bus:$dev"
echo "ok: bulk URBs of $bus:$dev"

# the URBs are capture.pcapng's only: export makes their lines, each with
# its id (the packet's epb_packetid) and the disk the recorder gave it
grep -q '"type":"usbmon"' "$out/rec/events.jsonl" &&
	fail "events.jsonl holds usbmon events: they belong in capture.pcapng"
"${USBTRAIL:-$top/userspace/usbtrail}" export --jsonl "$out/rec" \
	>"$out/all.jsonl" 2>"$out/export.err" ||
	fail "usbtrail export: $(cat "$out/export.err")"
nu=$(awk -F'|' '$3 ~ /^usb/' "$out/frames.txt" | wc -l)
jq -se --argjson n "$nu" --argjson b "$bus" --argjson d "$dev" \
	--arg disk "$disk" '[.[] | select(.type == "usbmon")] as $u |
	($u | length) == $n and all($u[]; .id > 0) and
	($u | map(.id) | unique | length) == $n and
	any($u[]; .bus == $b and .devnum == $d and .disk == $disk)' \
	"$out/all.jsonl" >/dev/null ||
	fail "export's usbmon lines are not the capture's $nu URBs with ids and disk $disk"
echo "ok: export gives the $nu URBs as lines, each with its id, $disk's named"

# --payload 64: no packet carries more than the header and 64 bytes
big=$(awk -F'|' '$3 ~ /^usb/ && $6 > 128' "$out/frames.txt" | wc -l)
[ "$big" -eq 0 ] || fail "$big USB frames over 64+64 bytes"
echo "ok: USB frames capped at 128 bytes"

# the kernel lines as journal export entries, the error among them
expect "$out/frames.txt" '\|systemd_journal\|.*usbtrail-test: before the write'
expect "$out/frames.txt" "\|systemd_journal\|.*I/O error, dev $disk, sector 10240"
expect "$out/frames.txt" '\|systemd_journal\|.*Medium not present'
# the recorder's incident, as its own entry
expect "$out/frames.txt" '\|systemd_journal\|\|\|[0-9]+\|(usbtrail: )?sense 02/3a/00'
tshark -r "$cap" -Y 'systemd_journal.transport == "kernel"' 2>/dev/null |
	grep -q 'I/O error' || fail "no _TRANSPORT=kernel entry for the error"
echo "ok: kernel lines are _TRANSPORT=kernel entries"

# one timeline: times never go back
awk -F'|' 'NR > 1 && $2 < prev { print "back at frame " $1; exit 1 }
	{ prev = $2 }' "$out/frames.txt" || fail "frames out of time order"
echo "ok: frames in time order"

# ...and the error line among the disk's URBs.  The kernel log's times are
# local_clock() moved onto CLOCK_BOOTTIME by an offset taken at the start;
# in this guest that clock was seen 60 ms off usbmon's (CLOCK_REALTIME)
# within 15 s of boot, so the test allows 100 ms: some URB of the disk
# within 100 ms of the I/O error line, and the disk's URBs within 100 ms
# of the markers written before and after the write.
awk -F'|' -v b="$bus" -v d="$dev" -v disk="$disk" '
	function abs(x) { return x < 0 ? -x : x }
	$7 ~ "usbtrail-test: before the write" { before = $2 }
	$7 ~ "usbtrail-test: after the write" { after = $2 }
	$7 ~ "I/O error, dev " disk ", sector 10240" { err = $2 }
	$3 ~ /^usb/ && $4 == b && $5 == d { t[n++] = $2 }
	END {
		if (!before || !after || !err || !n) { print "missing lines"; exit 1 }
		near = 1e9
		for (i = 0; i < n; i++) {
			if (abs(t[i] - err) < near) near = abs(t[i] - err)
			if (t[i] < before - 0.1 || t[i] > after + 0.1) {
				printf "URB at %.6f outside %.6f..%.6f\n", t[i], before, after
				exit 1
			}
		}
		if (near > 0.1) { printf "nearest URB %.3f s from the error\n", near; exit 1 }
		printf "ok: %d URBs of the disk between the markers, one %.1f ms from the I/O error line\n", n, near * 1000
	}' "$out/frames.txt" || fail "URBs and kernel lines not on one timeline"
