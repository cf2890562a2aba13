#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of 43-record-robust: usbtrail record stopped by SIGINT, by
# SIGTERM with a command running, by SIGTERM while it sets up its
# sources, and by a full output disk.
insmod "$USBTRAIL_KO" || exit 1
disk=$TESTBED_UAS
load() {	# SECONDS: keep the disk busy
	end=$(($(cut -d. -f1 /proc/uptime) + $1))
	while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
		dd if="$disk" of=/dev/null bs=64k count=256 iflag=direct \
			2>/dev/null
	done
}

# 1. Ctrl-C (SIGINT) in the middle
load 8 &
usbtrail record --no-pcap -o /out/int --duration 60 >/out/int.out \
	2>/out/int.err &
pid=$!
sleep 4
kill -INT $pid
wait $pid
echo "int exit $?"
wait

# 2. SIGTERM while COMMAND runs: COMMAND gets SIGTERM too
usbtrail record --no-pcap -o /out/term -- sh -c 'echo started; sleep 60' \
	>/out/term.out 2>/out/term.err &
pid=$!
sleep 3
kill -TERM $pid
wait $pid
echo "term exit $?"

# 4. SIGTERM while it sets up the tracefs source (an instance and kprobes
# being made), as soon as its directory exists
usbtrail record --no-pcap --source tracefs -o /out/setup -- sleep 60 \
	>/out/setup.out 2>/out/setup.err &
pid=$!
while [ ! -d /out/setup ] && kill -0 $pid 2>/dev/null; do :; done
kill -TERM $pid
wait $pid
echo "setup exit $?"
ls /sys/kernel/tracing/instances >/out/setup.instances
grep -c usbtrail /sys/kernel/tracing/kprobe_events >/out/setup.kprobes

# 3. a full disk: 192 KiB of tmpfs fills within seconds
mkdir -p /mnt/small
mount -t tmpfs -o size=192k tmpfs /mnt/small
load 20 &
usbtrail record --no-pcap -o /mnt/small/rec --duration 30 \
	>/out/full.out 2>/out/full.err
echo "full exit $?"
kill %1 2>/dev/null
cp -r /mnt/small/rec /out/full
df -k /mnt/small >/out/full.df
