#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of 47-journal (booted with --journald): record while a write
# hits the medium-not-present sector, then ask journald for the sense
# incident as a fleet would: journalctl -o json USBTRAIL_KIND=sense.
#   journal.sh DISK
# Writes /out/journal/: record.out, rec/, sense.json, all.json.
disk=$1
o=/out/journal
rm -rf "$o"
mkdir -p "$o"
[ -S /run/systemd/journal/socket ] || { echo "no journald" >"$o/record.out"; exit 1; }
insmod "$USBTRAIL_KO" || exit 1
# --no-pcap: the journal is the point here, not the usbmon capture
usbtrail record -o "$o/rec" --source module --no-pcap --duration 30 -- \
	dd if=/dev/zero of="$disk" bs=1M count=8 oflag=direct \
	>"$o/record.out" 2>&1
echo "record exit $?" >>"$o/record.out"
# journald reads its socket on its own time: give it up to 5 s
i=0
while [ $i -lt 50 ]; do
	journalctl -o json USBTRAIL_KIND=sense >"$o/sense.json" 2>&1
	[ -s "$o/sense.json" ] && break
	sleep 0.1
	i=$((i + 1))
done
journalctl -o json SYSLOG_IDENTIFIER=usbtrail >"$o/all.json" 2>&1
