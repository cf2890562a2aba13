#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A reader that does not keep up loses records, never the I/O: with a
# small stream buffer and nobody reading, records are dropped and
# counted, and the next read starts with a LOST record giving the count.
# Unplug and replug come out as usb-remove and usb-add records of the
# same device (same serial hash and port path, new device number): the
# unplug comes once the second reader is on (testbed-mark), however slow
# the guest.  On the debug kernel (tools/debug-kernel) too, with no KASAN,
# lockdep, atomic-sleep, UBSAN or kmemleak report.
# kernels: debug
# cpus: 2
. "$(dirname "$0")/lib.sh"

# the reader's wait for records after the replug: the debug kernel's
# enumeration takes longer
idle=$(tb_timeout 8000)
# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas --fault unplug@hotplug+3 --timeout "$(tb_timeout 240)" -- sh -c '
	/tests/debug-checks.sh start
	insmod $USBTRAIL_KO stream_kb=64 || exit 1
	echo 200000 >/sys/kernel/debug/usbtrail/trigger
	cat /sys/kernel/debug/usbtrail/stats >/out/stats-full.txt
	dd if=/dev/zero of=$TESTBED_UAS bs=1M count=8 oflag=direct 2>&1
	echo "dd exit $?"
	/tests/utcat --info --max 5 >/out/first.txt
	/tests/utcat >/dev/null
	/tests/utcat --info --idle '"$idle"' >/out/hotplug.txt &
	reader=$!
	while ! [ -s /out/hotplug.txt ] && kill -0 $reader; do sleep 0.1; done
	testbed-mark hotplug
	wait $reader
	rmmod usbtrail && echo lost-ok
	/tests/debug-checks.sh end
' >"$out/stdout.txt" 2>&1 || fail "guest command failed"

expect "$out/stdout.txt" '^lost-ok$'
expect "$out/stdout.txt" '^dd exit 0$'
expect "$out/stats-full.txt" '^lost=[1-9][0-9]*$'
expect "$out/first.txt" '^info .* lost=[1-9][0-9]* '
expect "$out/first.txt" '^[0-9]+ [0-9.]+ lost count=[1-9][0-9]* total=[1-9]'
expect_order "$out/hotplug.txt" \
	' usb-remove bus=2 dev=2 path=1 id=46f4:0003 speed=5 serial_hash=' \
	' usb-add bus=2 dev=[3-9] path=1 id=46f4:0003 speed=5 serial_hash='
h1=$(sed -n 's/.* usb-remove .*serial_hash=\([0-9a-f]*\).*/\1/p' "$out/hotplug.txt" | head -n 1)
h2=$(sed -n 's/.* usb-add .*serial_hash=\([0-9a-f]*\).*/\1/p' "$out/hotplug.txt" | head -n 1)
{ [ -n "$h1" ] && [ "$h1" = "$h2" ]; } || fail "serial hashes differ: '$h1' '$h2'"
echo "ok: the same device came back (serial hash $h1)"
debug_kernel_clean
