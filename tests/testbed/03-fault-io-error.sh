#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# io-error@SECTOR on the BOT enclosure: the write fails with EIO, which the
# guest sees as an I/O error at that sector.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas,bot --fault io-error@4096:bot --timeout 180 -- sh -c '
	dd if=/dev/zero of=$TESTBED_BOT bs=1M count=4 oflag=direct
	echo "dd exit $?"
	basename $TESTBED_BOT >/out/disk.txt
' >"$out/stdout.txt" 2>&1 || fail "guest command failed"

disk=$(cat "$out/disk.txt")
expect "$out/stdout.txt" 'dd exit [1-9]'
expect "$out/console.log" "\[$disk\] .*Sense Key : Aborted Command"
expect "$out/console.log" "I/O error, dev $disk, sector 4096 "
expect "$out/faults.log" 'io-error@4096:bot fired device=bot operation=write'
