#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side: write 1 MiB blocks (O_DIRECT) to DISK for SECONDS seconds,
# wrapping around the first MIB MiB, while sampling the sectors the disk
# completed every 0.25 s into /out/rate.txt ("uptime sectors-written").
# Write errors are expected under faults: the loop carries on.
#   write-loop.sh DISK SECONDS [MIB]
disk=$1 secs=$2 mib=${3:-256}
blk=$(basename "$(readlink -f "$disk")")
now() { cut -d' ' -f1 /proc/uptime; }
end=$(awk -v t="$(now)" -v s="$secs" 'BEGIN { print t + s }')

(
	while :; do
		echo "$(now) $(awk '{ print $7 }' "/sys/block/$blk/stat" 2>/dev/null)"
		sleep 0.25
	done
) >/out/rate.txt &
sampler=$!

off=0
while awk -v t="$(now)" -v e="$end" 'BEGIN { exit !(t < e) }'; do
	dd if=/dev/zero of="$disk" bs=1M count=8 seek=$off oflag=direct \
		2>>/out/write-errors.txt >/dev/null
	off=$(((off + 8) % mib))
done
kill $sampler
echo "write-loop: done"
