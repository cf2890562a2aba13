#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail record with usbtrail.ko: every fault kind on the right disk.
. "$(dirname "$0")/lib.sh"
source=module
. "$(dirname "$0")/record-faults.inc"
