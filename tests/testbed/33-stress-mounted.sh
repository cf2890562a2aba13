#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail stress refuses a mounted disk, naming the mount point, even with
# --destroy-data; and refuses any disk without --destroy-data.  The disk is
# untouched: the filesystem still mounts afterwards.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas --timeout 300 -- sh -c '
	mke2fs -q $TESTBED_UAS || echo "mke2fs failed"
	mkdir -p /mnt/uas
	mount -t ext2 $TESTBED_UAS /mnt/uas || { echo "mount failed"; exit 0; }
	echo hello >/mnt/uas/file
	usbtrail stress $TESTBED_UAS --destroy-data --size 8M
	echo "stress mounted exit $?"
	umount /mnt/uas
	usbtrail stress $TESTBED_UAS --size 8M
	echo "stress no-destroy exit $?"
	mount -t ext2 $TESTBED_UAS /mnt/uas && cat /mnt/uas/file
	umount /mnt/uas
' >"$out/stdout.txt" 2>&1 || fail "guest command failed"

if grep -q '^mount failed' "$out/stdout.txt"; then
	skip "the guest cannot mount ext2"
fi
expect "$out/stdout.txt" 'usbtrail stress: refusing /dev/sd[a-z]+: /dev/sd[a-z]+ is mounted on /mnt/uas$'
expect "$out/stdout.txt" '^stress mounted exit 1$'
expect "$out/stdout.txt" 'is a block device: everything on it would be lost; give --destroy-data'
expect "$out/stdout.txt" '^stress no-destroy exit 1$'
expect "$out/stdout.txt" '^hello$'
