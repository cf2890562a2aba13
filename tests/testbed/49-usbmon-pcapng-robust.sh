#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# capture.pcapng stays a valid capture when usbtrail record is stopped by
# Ctrl-C, killed outright (then it lacks the last few seconds), and
# when its disk fills (a clear error, the file cut back to a whole block).
. "$(dirname "$0")/lib.sh"

command -v tshark >/dev/null || skip "no tshark (tools/deps.sh installs it)"
rm -rf "$out/int" "$out/kill" "$out/full"
tb --devices uas --timeout 300 -- sh /tests/usbmon-robust.sh \
	>"$out/stdout.txt" 2>&1 ||
	fail "guest command failed: $(tail -n 3 "$out/stdout.txt")"

# valid FILE WHAT: tshark reads it all, without a word on stderr; USB
# packets in it
valid() {
	[ -s "$1" ] || fail "$2: no $(basename "$1")"
	tshark -r "$1" >"$1.txt" 2>"$1.err" ||
		fail "$2: tshark -r failed: $(tail -n 2 "$1.err")"
	grep -v 'Running as user' "$1.err" | grep -q . &&
		fail "$2: tshark: $(grep -v 'Running as user' "$1.err" | head -n 2)"
	n=$(grep -c ' USB ' "$1.txt")
	[ "$n" -gt 0 ] || fail "$2: no USB packets"
	echo "ok: $2: tshark reads $(wc -l <"$1.txt") frames, $n USB, no warning"
}

expect "$out/stdout.txt" '^int exit 0$'
valid "$out/int/capture.pcapng" "SIGINT"
# stopped cleanly: every usbmon event the source took is in the file
ev=$(python3 -c 'import json, sys
print([s["events"] for s in json.load(open(sys.argv[1]))["sources"]
       if s["name"] == "usbmon"][0])' "$out/int/meta.json") ||
	fail "SIGINT: no usbmon source in meta.json"
[ "$ev" -eq "$n" ] ||
	fail "SIGINT: meta.json counts $ev usbmon events, the file has $n"
echo "ok: SIGINT: all $ev usbmon events of meta.json are in the file"

expect "$out/stdout.txt" '^kill exit 137$'
valid "$out/kill/capture.pcapng" "SIGKILL"

expect "$out/stdout.txt" '^full exit 1$'
expect "$out/full.err" 'No space left on device; recording stopped, what was written is kept'
valid "$out/full/capture.pcapng" "full disk"
# how much got in depends on which file the disk filled under first
# (events.jsonl flushes more often); valid() above says what got in is
# whole blocks with USB packets
echo "ok: full disk: capture.pcapng kept $(wc -c <"$out/full/capture.pcapng") bytes"
big=$(tshark -r "$out/full/capture.pcapng" -Y 'frame.cap_len > 128' \
	2>/dev/null | wc -l)
[ "$big" -gt 0 ] || fail "full disk: no packet with more than 64 bytes of data"
echo "ok: full disk: $big packets carry up to 1 KiB of data"
