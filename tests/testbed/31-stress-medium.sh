#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail stress on the UAS disk while medium-not-present fires: it stops
# at the byte offset the kernel logs as the failing sector (sector * 512),
# and says so in --json and on stderr.  The errno is the one the kernel
# returns: ENOMEDIUM to dd's pwrite, EIO through io_uring on 6.1 (the
# split direct write completes with a generic error).
. "$(dirname "$0")/lib.sh"

sector=20480		# 10 MiB: the start of one of stress's 1 MiB writes
# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas --fault medium-not-present@$sector --timeout 300 -- sh -c '
	usbtrail stress $TESTBED_UAS --destroy-data --size 32M --json \
		>/out/stress.json 2>/out/stress.err
	echo "stress exit $?"
	basename $TESTBED_UAS >/out/disk.txt
	grep usbtrail-stress: /sys/kernel/tracing/trace >/out/trace.txt
' >"$out/stdout.txt" 2>&1 || fail "guest command failed"

disk=$(cat "$out/disk.txt")
expect "$out/stdout.txt" '^stress exit 1$'
expect "$out/faults.log" "medium-not-present@$sector fired device=uas operation=write"
expect "$out/console.log" "I/O error, dev $disk, sector [0-9]+ "
ksector=$(grep -Eo "I/O error, dev $disk, sector [0-9]+" "$out/console.log" |
	head -n 1 | awk '{ print $NF }')
got=$(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
e = j["errors"][0]
print(e["op"], e["offset"], e["errno"], j["result"], j["phases"][0]["completed"])' \
	"$out/stress.json") || fail "no JSON from stress"
echo "stress: $got; kernel: sector $ksector"
case "$got" in
"write $((ksector * 512)) 5 fail False"|"write $((ksector * 512)) 123 fail False") ;;
*)
	fail "stress reported '$got', the kernel sector $ksector (offset $((ksector * 512)))" ;;
esac
expect "$out/stress.err" "write error at offset $((ksector * 512)) \(1048576 bytes\), [0-9.]+ s: .* \(errno (5|123)\)"
expect_order "$out/trace.txt" \
	'usbtrail-stress: phase=run event=start run=[0-9a-f]+ gen=1 size=33554432 sector=512' \
	'usbtrail-stress: phase=write event=start ' \
	"usbtrail-stress: phase=write event=error .* op=write offset=$((ksector * 512)) len=1048576 errno=(5|123)" \
	'usbtrail-stress: phase=write event=end .* stopped=1' \
	'usbtrail-stress: phase=run event=end '
