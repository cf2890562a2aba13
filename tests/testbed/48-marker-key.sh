#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --marker-key: each press of F12 on a (uinput) keyboard is a marker event
# at the press's time, keyboards plugged in while recording are picked up,
# and the device is not grabbed: another reader still gets every press.
# Then "usbtrail record --marker-key F12" writes the three markers into
# events.jsonl.
. "$(dirname "$0")/lib.sh"

tb --devices uas --timeout 240 -- sh /tests/marker-key.sh \
	>"$out/stdout.txt" 2>&1 || fail "guest command failed"
m=$out/marker
[ -d "$m" ] || fail "the guest wrote nothing"

# 1: the evdev source on the recorder's engine (utmarker)
node=$(cat "$m/node1")
expect "$m/utmarker.out" '^open 0$'
n=$(grep -c "^marker [0-9]* key F12 on $node (utkey keyboard)$" \
	"$m/utmarker.out")
[ "$n" -eq 3 ] || fail "utmarker: $n markers for F12 on $node, not 3"
echo "ok: 3 markers for F12 on $node (found by hotplug)"
expect "$m/utmarker.out" '^events 3 lost 0$'
expect "$m/utmarker.out" '^utmarker exit 0$'
expect "$m/listen1.out" '^presses 3$' "the other reader (no grab)"

# marker times are the presses' CLOCK_BOOTTIME times (within 50 ms: the guest has one emulated CPU)
grep '^marker' "$m/utmarker.out" | awk '{ print $2 }' >"$out/t_marker"
sed -n 's/^utkey: pressed F12 ([0-9]*) at //p' "$m/press1.out" >"$out/t_press"
[ "$(wc -l <"$out/t_press")" -eq 3 ] || fail "utkey did not press 3 times"
paste "$out/t_marker" "$out/t_press" | awk '
	{ d = $2 - $1; if (d < 0 || d > 50000000) bad = bad " " d }
	END { if (bad != "") { print "press - marker (ns):" bad; exit 1 } }' ||
	fail "marker times are not the presses' times"
echo "ok: marker times within 50 ms before utkey's own clock reading"

# a stopped reader overflows: SYN_DROPPED counted, fewer markers, no crash
node=$(cat "$m/node3")
expect "$m/overflow.out" "^lost 1 SYN_DROPPED on $node\$"
expect "$m/overflow.out" '^events [0-9]+ lost [1-9]'
n=$(sed -n 's/^events \([0-9]*\) .*/\1/p' "$m/overflow.out")
[ "$n" -lt 40 ] || fail "overflow: $n markers of 40 presses, none lost?"
expect "$m/overflow.out" '^utmarker exit 0$'

expect "$m/nokey.out" "^open -126 "	# ENOKEY: no BTN_LEFT on a keyboard
expect "$m/noent.out" '^open -2 '

# 2: usbtrail record --marker-key F12
expect "$m/record.out" '^record exit 0$'
node=$(cat "$m/node2")
j=$m/rec/events.jsonl
[ -f "$j" ] || fail "no $j"
n=$(jq -c 'select(.type == "marker")' "$j" |
	grep -c "key F12 on $node (utkey keyboard)")
[ "$n" -eq 3 ] || fail "events.jsonl: $n F12 markers on $node, not 3"
echo "ok: events.jsonl has 3 F12 markers on $node"
expect "$m/listen2.out" '^presses 3$' "the other reader (no grab)"
