#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of 54-fleet, one machine of the fleet (booted with
# --journald and testbed.hostname=NAME, and its own fault): usbtrail watch
# records while writes meet the fault, then the journal is exported as
# systemd-journal-upload would send it (journalctl -o export).
#   fleet-host.sh DISK
# Writes /out/fleet/: watch.err, watch.status, journal.export.
disk=$1
o=/out/fleet
rm -rf "$o"
mkdir -p "$o"
insmod "$USBTRAIL_KO" || exit 1
usbtrail watch --dir "$o/w" --keep 64MiB --before 2 --after 2 --quiet \
	2>"$o/watch.err" &
pid=$!
# writes once it records (its start takes seconds under TCG)
i=0
while [ $i -lt 300 ] && ! grep -q 'recording into' "$o/watch.err"; do
	sleep 0.1; i=$((i + 1))
done
/tests/write-loop.sh "$disk" 14 64
# an unplugged disk is back after 2 s
sleep 3
kill -TERM $pid
wait $pid
echo $? >"$o/watch.status"
sleep 1
journalctl -o export >"$o/journal.export" 2>"$o/journalctl.err"
