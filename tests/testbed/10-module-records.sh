#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail.ko on 6.1: the sense record of medium-not-present, the transfer
# events and byte counts of a healthy write, counters that agree.
. "$(dirname "$0")/lib.sh"
kernel=6.1
. "$(dirname "$0")/module-records.inc"
