#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of 49-usbmon-pcapng-robust: usbtrail record with its usbmon
# capture stopped by SIGINT, killed by SIGKILL, and run out of disk.
disk=$TESTBED_UAS
# SECONDS: steady traffic the recorder keeps up with under emulation (a
# flood of 16 KiB reads made it drop most usbmon events, counted as lost,
# and this test is about the file, not about throughput:
# docs/performance.md has that)
load() {
	end=$(($(cut -d. -f1 /proc/uptime) + $1))
	while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
		dd if="$disk" of=/dev/null bs=256k count=16 iflag=direct \
			2>/dev/null
		sleep 0.1
	done
}

# 1. Ctrl-C (SIGINT) in the middle
load 6 &
usbtrail record -q -o /out/int --duration 60 >/out/int.out 2>/out/int.err &
pid=$!
sleep 4
kill -INT $pid
wait $pid
echo "int exit $?"
wait

# 2. SIGKILL in the middle: no chance to flush (give it time to have
# handed events to its sinks: it holds them 2.5 s to order them)
load 14 &
usbtrail record -q -o /out/kill --duration 60 >/out/kill.out 2>/out/kill.err &
pid=$!
sleep 10
kill -KILL $pid
wait $pid
echo "kill exit $?"
wait

# 3. a full disk: 512 KiB of tmpfs (64 KiB of it meta.json's reserve),
# 1 KiB of each URB's data kept
mkdir -p /mnt/small
mount -t tmpfs -o size=512k tmpfs /mnt/small
load 20 &
usbtrail record -q -o /mnt/small/rec --payload 1024 --duration 30 \
	>/out/full.out 2>/out/full.err
echo "full exit $?"
kill %1 2>/dev/null
cp -r /mnt/small/rec /out/full
df -k /mnt/small >/out/full.df
