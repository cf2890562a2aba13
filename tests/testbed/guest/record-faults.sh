#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of 41/42-record-*: usbtrail record --source SOURCE while both
# disks are written for SECONDS seconds and the test bed injects its
# faults.  Leaves /out/rec (the recording), /out/disks.txt ("uas sdX",
# "bot sdY") and /out/record.out / record.err.
#   record-faults.sh SOURCE SECONDS
src=$1 secs=$2

[ "$src" = module ] && { insmod "$USBTRAIL_KO" || exit 1; }
echo "uas $(basename "$(readlink -f "$TESTBED_UAS")")" >/out/disks.txt
echo "bot $(basename "$(readlink -f "$TESTBED_BOT")")" >>/out/disks.txt

# write DISK MIB: 1 MiB O_DIRECT writes wrapping around the first MIB MiB
cat >/tmp/writer.sh <<'EOT'
disk=$1 mib=$2 end=$3 off=0
now() { cut -d' ' -f1 /proc/uptime; }
while awk -v t="$(now)" -v e="$end" 'BEGIN { exit !(t < e) }'; do
	dd if=/dev/zero of="$disk" bs=1M count=4 seek=$off oflag=direct \
		2>/dev/null
	off=$(((off + 4) % mib))
done
EOT
end=$(awk -v t="$(cut -d' ' -f1 /proc/uptime)" -v s="$secs" \
	'BEGIN { print t + s }')
usbtrail record --source "$src" -o /out/rec -- sh -c "
	sh /tmp/writer.sh $TESTBED_UAS 64 $end &
	sh /tmp/writer.sh $TESTBED_BOT 64 $end
	wait" >/out/record.out 2>/out/record.err
echo "record exit $?"
