#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail.ko: the sense record of medium-not-present, the transfer events
# and byte counts of a healthy write, counters that agree, every probe
# attached, and no kernel warning (5.10's block_rq_complete passes an
# errno, not a blk_status_t).
# kernels: all
# cpus: 2
. "$(dirname "$0")/lib.sh"
kernel=${TB_KERNEL:-6.1}
. "$(dirname "$0")/module-records.inc"
