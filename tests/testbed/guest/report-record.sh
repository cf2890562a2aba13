#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of tests/testbed/47-report.sh: record usbtrail stress on the
# UAS disk with usbtrail.ko loaded, while the test bed injects medium not
# present and then a stall; the recording goes to /out/rec for the host.
set -u
insmod "$USBTRAIL_KO" || exit 1
usbtrail record -o /out/rec -- usbtrail stress /dev/disk/testbed/uas \
	--destroy-data --duration 14 --on-error continue
echo "record exit $?"
