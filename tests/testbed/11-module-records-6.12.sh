#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The same as 10-module-records.sh, built for and run on Debian's 6.12.
. "$(dirname "$0")/lib.sh"
kernel=6.12
. "$(dirname "$0")/module-records.inc"
