#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make demo, end to end: its report names each injected failure on the
# UAS disk at the time the test bed logged it (faults.log), within one
# second, and its timeline has the lanes and explains the dip as the
# stall; its bundle is within the default --max-size and tshark opens
# the capture in it.
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null 2>&1 || skip "jq is not installed"
# tools/demo empties its directory: not $out, which holds test.log
d=$out/demo
DEMO_OUT=$d "$top/tools/demo" >"$out/demo.txt" 2>&1 ||
	fail "make demo failed: $(tail -n 5 "$out/demo.txt")"
rep=$d/rec/report.txt
[ -s "$rep" ] || fail "no report.txt"
[ -s "$d/rec/report.html" ] || fail "no report.html"
expect "$d/guest.txt" '^record exit 1$'	# stress saw the I/O error
disk=$(jq -r '.uas[0].block' "$d/rec/meta.json")
{ [ -n "$disk" ] && [ "$disk" != null ]; } || fail "meta.json names no disk"

# The guest's wall clock comes from an RTC with whole seconds: line up its
# boot clock with the host's faults.log instead, through the moment the
# command started (the guest's printk time of "testbed: command start",
# the host's time of the faults it armed then).
boot_to_host() {
	gs=$(sed -n 's/^\[ *\([0-9.]*\)\] testbed: command start.*/\1/p' \
		"$d/console.log" | head -n 1)
	hs=$(head -n 1 "$d/faults.log" | cut -d' ' -f1)
	{ [ -n "$gs" ] && [ -n "$hs" ]; } || fail "cannot line up the guest's clock"
	hs=$(date -u -d "$(echo "$hs" | sed 's/Z$//; s/T/ /')" +%s.%N)
	echo "$hs $gs" | awk '{ printf "%.6f", $1 - $2 }'
}
# recording time 0 (report.txt's "+T s") on the host's clock
t0=$(echo "$(jq -r .started_t "$d/rec/meta.json") $(boot_to_host)" |
	awk '{ printf "%.6f", $1 + $2 }')
fault_time() {	# ERE -> wall-clock seconds of its first faults.log line
	t=$(grep -E -m1 -- "$1" "$d/faults.log" | cut -d' ' -f1)
	[ -n "$t" ] || fail "faults.log has no '$1'"
	date -u -d "$(echo "$t" | sed 's/Z$//; s/T/ /')" +%s.%N
}
# named WHAT KIND-ERE FAULT-ERE [DELAY [SLACK]]: report.txt has an incident
# of KIND on $disk within SLACK (1) s of the fault's time plus DELAY
named() {
	ft=$(fault_time "$3")
	awk -v t0="$t0" -v ft="$ft" -v d="${4:-0}" -v disk="$disk" \
		-v kind="$2" -v s="${5:-1}" '
		/^== Incidents/ { on = 1; next }
		/^== / { on = 0 }
		on && /^#[0-9]+ +\+[0-9.]+ s / {
			t = $2; sub(/^\+/, "", t)
			rest = $0; sub(/^#[0-9]+ +\+[0-9.]+ s +/, "", rest)
			if (rest ~ "^(" kind ")" && rest ~ " on " disk " " &&
			    (t0 + t - ft - d < s && t0 + t - ft - d > -s)) {
				print; found = 1; exit
			}
		}
		END { exit !found }' "$rep" >"$out/named.txt" ||
		fail "report.txt names no $1 on $disk within ${5:-1} s of '$3'${4:+ + $4 s}"
	echo "ok: $1: $(cat "$out/named.txt")"
}

named "Medium not present" 'sense 02/3a/00' 'medium-not-present@20480 fired'
# the failed write is that incident, with its request's I/O error
expect "$rep" '^    block layer: sector 20480 WRITE'
! grep -q 'io-error sector=20480' "$rep" ||
	fail "the failed write is counted twice (sense and io-error)"
echo "ok: the failed write is the sense incident, sector 20480, once"
named "the stall, as a dip" 'dip ' 'stall@4\+8 start'
# the SCSI timeout of the stalled disk is 2 s in the test bed, counted
# from each command's dispatch: 1 to 5 s after the stall starts
named "the stall's command timeout" 'timeout' 'stall@4\+8 start' 3 2
expect "$rep" "reset speed=SuperSpeed( devnum=[0-9]+)? on $disk .*\[chain 1\]"
expect "$rep" "recovered on $disk .*\[chain 1\]"
expect "$rep" '^\* Medium not present'
expect "$rep" '^\* Command timeout, abort and reset chain'

# the timeline: six lanes for the disk, and the dip explained as the
# stall it is (the timed-out commands, the abort and reset, the recovery)
lanes=$(grep -o "<g class='lane-[a-z]*'>" "$d/rec/report.html" | sort -u | wc -l)
[ "$lanes" = 6 ] || fail "report.html has $lanes kinds of lane, not 6"
expect "$d/rec/report.html" "<g class='lane-latency'>"
! grep -q 'no SCSI command records' "$d/rec/report.html" ||
	fail "the timeline says the recording has no SCSI records"
expect "$rep" '^    why: the device stopped answering: [0-9]+ commands? timed out, then abort and reset; recovered '
expect "$rep" '^      SCSI error handling: [0-9]+ commands? timed out .*, [0-9]+ aborts?, [0-9]+ resets?, recovered '
"$top/userspace/usbtrail" report --timeline "$d/rec" -o "$out/timeline.svg" \
	>/dev/null 2>"$out/timeline.err" ||
	fail "report --timeline: $(cat "$out/timeline.err")"
expect "$out/timeline.svg" "<g class='lane-xhci'>"
echo "ok: the timeline: 6 lanes, $(wc -c <"$out/timeline.svg") bytes as an SVG of its own"

# the bundle: within the default 1 MiB, its capture opens with tshark
size=$(wc -c <"$d/bundle.tar.gz")
[ "$size" -le 1048576 ] || fail "bundle.tar.gz is $size bytes, over 1 MiB"
echo "ok: bundle.tar.gz is $size bytes"
{ mkdir -p "$out/bundle" &&
	tar -xzf "$d/bundle.tar.gz" -C "$out/bundle"; } ||
	fail "bundle.tar.gz does not unpack"
cap=$(find "$out/bundle" -name capture.pcapng | head -n 1)
[ -n "$cap" ] || fail "no capture.pcapng in the bundle"
if command -v tshark >/dev/null 2>&1; then
	tshark -r "$cap" >"$out/tshark.txt" 2>"$out/tshark.err" ||
		fail "tshark cannot read the bundle's capture: $(head -n 2 "$out/tshark.err")"
	[ -s "$out/tshark.txt" ] || fail "tshark shows nothing in the capture"
	echo "ok: tshark reads the bundle's capture: $(wc -l <"$out/tshark.txt") packets"
fi
