#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail record with usbtrail.ko: every fault kind on the right disk;
# in an arm64 guest on 6.1 and the newest kernel too
# (41-record-module@arm64-6.1, @arm64-7.3).
# arm64: 6.1 7.3
. "$(dirname "$0")/lib.sh"
source=module
. "$(dirname "$0")/record-faults.inc"
