#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# medium-not-present@SECTOR: the write covering SECTOR fails with sense
# 02/3A/00 and the kernel logs the I/O error at that sector.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas --fault medium-not-present@10240 --timeout 180 -- sh -c '
	dd if=/dev/zero of=$TESTBED_UAS bs=1M count=8 oflag=direct
	echo "dd exit $?"
	basename $TESTBED_UAS >/out/disk.txt
' >"$out/stdout.txt" 2>&1 || fail "guest command failed"

disk=$(cat "$out/disk.txt")
expect "$out/stdout.txt" 'dd exit [1-9]'
expect "$out/console.log" "\[$disk\] .*Sense Key : Not Ready"
expect "$out/console.log" "\[$disk\] .*Add. Sense: Medium not present"
expect "$out/console.log" "I/O error, dev $disk, sector 10240 "
expect "$out/faults.log" 'medium-not-present@10240 armed device=uas sector=10240'
expect "$out/faults.log" 'medium-not-present@10240 fired device=uas operation=write'
