#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail record without usbtrail.ko (--source tracefs): every fault kind
# on the right disk, as 41-record-module.sh finds it with the module; on
# 5.10 and 7.3 too, the oldest and newest tracefs formats (docs/record.md).
# kernels: 5.10 7.3
. "$(dirname "$0")/lib.sh"
source=tracefs
. "$(dirname "$0")/record-faults.inc"
