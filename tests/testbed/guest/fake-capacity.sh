#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of tests/testbed/37-stress-fake-capacity.sh: a device-mapper
# target of 32 MiB over the UAS disk whose second 16 MiB map onto the
# same 16 MiB of the disk as its first (two linear segments, one backing
# range): a stick that claims twice what it holds and wraps.  usbtrail
# stress writes it all and reads it back, under usbtrail record; then the
# UAS disk itself, for its identity.
set -u
disk=/dev/disk/testbed/uas
half=32768			# 16 MiB in 512-byte sectors
command -v dmsetup >/dev/null || { echo "no dmsetup"; exit 0; }
printf '0 %s linear %s 0\n%s %s linear %s 0\n' $half "$disk" $half $half \
	"$disk" | dmsetup create --noudevsync usbtrail-wrap ||
	{ echo "dmsetup create failed"; exit 0; }
dm=$(basename "$(readlink -f /sys/block/dm-*)")
dmsetup table usbtrail-wrap >/out/table.txt
echo "dm /dev/$dm"
usbtrail record -o /out/rec -- usbtrail stress "/dev/$dm" --destroy-data \
	--json >/out/wrap.json 2>/out/wrap.err
echo "record exit $?"
usbtrail stress "/dev/$dm" --verify-only >/out/verify.txt 2>/out/verify.err
echo "verify exit $?"
dmsetup remove usbtrail-wrap
echo "removed $?"
usbtrail stress "$disk" --destroy-data --size 4M --json >/out/uas.json \
	2>/out/uas.err
echo "uas exit $?"
usbtrail stress "$disk" --destroy-data --size 4M >/out/uas.txt 2>&1
echo "uas text exit $?"
