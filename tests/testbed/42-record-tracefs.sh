#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail record without usbtrail.ko (--source tracefs): every fault kind
# on the right disk, as 41-record-module.sh finds it with the module; on
# 7.3 too, the newest tracefs formats (docs/module.md).  Not on 5.10: its
# tracefs setup in the guest takes so long that the writes begin after
# the stall (+5 s) is over, so no command times out (45 and 44 record a
# stall on 5.10 through tracefs).
# kernels: 7.3
. "$(dirname "$0")/lib.sh"
source=tracefs
. "$(dirname "$0")/record-faults.inc"
