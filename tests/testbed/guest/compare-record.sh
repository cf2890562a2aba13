#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of tests/testbed/52-report-compare.sh: one recording of a
# short usbtrail stress --profile cdm per disk of the test bed, with
# usbtrail.ko loaded (its SCSI records give the latency figure), into
# /out/rec-NAME.  The 12 Mbit/s disk moves about 1 MB/s under TCG: it gets
# a small region.  One pass of each test (and its warm-up), not five.
# stress's own JSON goes to /out/stress-NAME.json, for the host to hold
# the table's figures to it.
set -u
insmod "$USBTRAIL_KO" || exit 1
for d in "$@"; do
	case $d in
	uhci)	size=2M ;;
	*)	size=32M ;;
	esac
	usbtrail record -q -o "/out/rec-$d" -- usbtrail stress \
		"/dev/disk/testbed/$d" --destroy-data --profile cdm \
		--size "$size" --duration 1 --passes 1 --json \
		>"/out/stress-$d.json"
	echo "record $d exit $?"
done
