#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# usbtrail's usbmon capture against tcpdump and dumpcap (libpcap's usbmon
# support, which reads /dev/usbmon0 the same way: mmapped ring, MFETCH),
# on the same workload in the same test-bed run: CPU time of the capturing
# process and events dropped by the kernel, medians over ROUNDS.
#
#   bench/usbmon-vs-dumpcap.sh [ROUNDS] [WRITES]    (default 3, 3000)
#
# The workload is WRITES O_DIRECT writes of 4 KiB to the UAS disk (several
# URB events each).  Configurations, one after the other in each round:
#   bare            the workload alone (its wall time)
#   usbtrail-record usbtrail record --payload 64 (every source and sink:
#                   usbmon, kmsg, sysfs; events.jsonl and capture.pcapng)
#   usbmon-source   the recorder's engine with only the usbmon and kmsg
#                   sources and the pcapng sink (tests/tools/utmon --record)
#   tcpdump         tcpdump -i usbmon0 -s 128 -w FILE (64-byte header + 64)
#   dumpcap         dumpcap -i usbmon0 -s 128 -w FILE
# tcpdump and dumpcap are the host's, copied into the shared directory
# with their libraries.  "events" is what each tool says it captured,
# "USB packets in file" what tshark reads from its capture afterwards.
# Prints a Markdown table for docs/performance.md.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3}
writes=${2:-3000}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# tcpdump and dumpcap with every library they load, and the loader
mkdir -p "$out/bench/lib"
for p in tcpdump dumpcap; do
	bin=$(command -v $p) || { echo "no $p on this host" >&2; continue; }
	cp "$bin" "$out/bench/$p"
	ldd "$bin" | awk '/=> \// { print $3 } /^\t\/.*ld-linux/ { print $1 }' |
		while read -r lib; do
			cp -L "$lib" "$out/bench/lib/"
		done
done

"$top/tools/testbed/run" --devices uas --out "$out" --timeout 1200 -- \
	sh /tests/bench-usbmon.sh "$rounds" "$writes" | tee "$out/results.txt"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# packets in each capture file, by tshark, per configuration and round
for f in "$out"/captures/*; do
	[ -f "$f" ] || continue
	b=$(basename "$f")
	n=$(tshark -r "$f" -Y usb 2>/dev/null | wc -l)
	echo "PACKETS ${b%%.*} $(echo "$b" | cut -d. -f2) $n"
done >"$out/packets.txt"
cat "$out/packets.txt"
echo
echo "| capture | workload s | user s | sys s | CPU s | events | USB packets in file | dropped |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for c in bare usbtrail-record usbmon-source tcpdump dumpcap; do
	grep -q "^RESULT $c " "$out/results.txt" || continue
	col() { awk -v c="$c" -v f="$1" '$1 == "RESULT" && $2 == c { print $f }' \
		"$out/results.txt" | median; }
	cpu=$(awk -v c="$c" '$1 == "RESULT" && $2 == c { print $5 + $6 }' \
		"$out/results.txt" | median)
	pk=$(awk -v c="$c" '$2 == c { print $4 }' "$out/packets.txt" | median)
	echo "| $c | $(col 4) | $(col 5) | $(col 6) | $cpu | $(col 7) | ${pk:--} | $(col 8) |"
done
