#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of 53-watch (booted with --journald, faults stall@8+8 and
# unplug@50+3): usbtrail watch runs from the start with the module; writes
# hit the stall, then the disk is unplugged and plugged back; SIGHUP with a
# changed --config; SIGTERM.  Then report and analyze on each incident
# recording, and the journal as a fleet would read it.
#   watch.sh DISK
# Writes /out/watch/: watch.out, watch.err, watch.status, w/ (the store),
# usbtrail.prom, journal.json, journal.export, reports/N.{txt,json}.
disk=$1
o=/out/watch
rm -rf "$o"
mkdir -p "$o/reports"
insmod "$USBTRAIL_KO" || exit 1
printf '# the test starts with these\nbefore 4\nafter 6\n' >"$o/watch.conf"
usbtrail watch --dir "$o/w" --keep 128MiB --segment 1MiB \
	--config "$o/watch.conf" --metrics "$o/usbtrail.prom" \
	--metrics-interval 1 >"$o/watch.out" 2>"$o/watch.err" &
pid=$!
# writes once it records (its start takes seconds under TCG)
i=0
while [ $i -lt 300 ] && ! grep -q 'recording into' "$o/watch.err"; do
	sleep 0.1; i=$((i + 1))
done
# the stall starts 8 s after the command did, the unplug at 50 s
/tests/write-loop.sh "$disk" 22 64
sleep 2
# a new --after, and a new ring piece
printf 'before 4\nafter 5\nkeep 112MiB\n' >"$o/watch.conf"
kill -HUP $pid
# the unplug comes at 50 s, while these write
/tests/write-loop.sh "$disk" 24 64
# it is back after 3 s: wait for the new disk, then for --after
i=0
bound() {
	for b in /sys/bus/usb/drivers/uas/*:*; do
		[ -e "$b" ] && return 0
	done
	return 1
}
while [ $i -lt 100 ] && ! bound; do
	sleep 0.2; i=$((i + 1))
done
sleep 12
kill -TERM $pid
wait $pid
echo $? >"$o/watch.status"
cp "$o/usbtrail.prom" "$o/usbtrail.prom.final" 2>/dev/null
n=0
for d in "$o"/w/incidents/*/; do
	[ -d "$d" ] || continue
	n=$((n + 1))
	echo "$d" >"$o/reports/$n.dir"
	usbtrail report "$d" -o "$o/reports/$n.html" >/dev/null 2>"$o/reports/$n.err"
	echo $? >"$o/reports/$n.status"
	usbtrail analyze --json "$d" >"$o/reports/$n.json" 2>"$o/reports/$n.aerr"
done
# journald reads its socket on its own time
sleep 1
journalctl -o json SYSLOG_IDENTIFIER=usbtrail >"$o/journal.json" 2>&1
journalctl -o export >"$o/journal.export" 2>&1
du -sk "$o/w" >"$o/du.txt"
