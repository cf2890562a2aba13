#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of 55-arm64-same: writes stall on the UAS disk (write-loop)
# while usbtrail stress on the BOT disk runs into medium-not-present;
# usbtrail.ko's records of it all (utcat), stress's JSON, usbtrail uas
# --json and the probes go to /out.  The host compares what an x86-64 and
# an arm64 guest leave.
insmod "$USBTRAIL_KO" || exit 1
/tests/utcat --idle 100000 >/out/records.txt &
cat=$!
echo "uas $(basename "$TESTBED_UAS")" >/out/disks.txt
echo "bot $(basename "$TESTBED_BOT")" >>/out/disks.txt
usbtrail stress "$TESTBED_BOT" --destroy-data --size 16M --json \
	>/out/stress.json 2>/out/stress.err &
stress=$!
/tests/write-loop.sh "$TESTBED_UAS" 12 64
wait "$stress"
echo "stress exit $?"
sleep 2
kill "$cat"
wait "$cat"
cat /sys/kernel/debug/usbtrail/probes >/out/probes.txt
usbtrail uas --json >/out/uas.json 2>/out/uas.err
echo "uas exit $?"
rmmod usbtrail && echo arch-same-ok
