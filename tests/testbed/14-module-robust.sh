#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail.ko under abuse: 50 load/unload cycles while both enclosures
# take writes and the UAS one is unplugged and replugged twice; readers
# that open, stall (SIGSTOP) and vanish (SIGKILL); bad ioctls and reads of
# odd sizes.  No oops, no warning, memory back where it started.  On the
# debug kernel (tools/debug-kernel) too, with no KASAN, lockdep,
# atomic-sleep, UBSAN or kmemleak report.
# kernels: debug
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas,bot --fault unplug@8+3 --fault unplug@24+3 --timeout "$(tb_timeout 400)" -- sh -c '
	meminfo() { sync; echo 3 >/proc/sys/vm/drop_caches; sleep 1;
		awk "/^(MemFree|VmallocUsed):/ { printf \"%s %s \", \$1, \$2 }" /proc/meminfo; echo; }
	meminfo >/out/mem-before.txt
	/tests/debug-checks.sh start
	/tests/write-loop.sh $TESTBED_BOT 40 32 >/dev/null 2>&1 &
	/tests/write-loop.sh $TESTBED_UAS 40 32 >/dev/null 2>&1 &
	i=0
	while [ $i -lt 50 ]; do
		insmod $USBTRAIL_KO flight_records=$((16 << (i % 8))) || {
			echo "insmod $i failed"; exit 1; }
		case $((i % 5)) in
		0) /tests/utcat --idle 200 >/dev/null ;;
		1) /tests/utcat --idle 5000 --bufsize 100 >/dev/null &
		   r=$!; sleep 0.3; kill -STOP $r; sleep 0.3; kill -9 $r; wait $r ;;
		2) /tests/utprobe >>/out/utprobe.txt || echo "utprobe $i failed" ;;
		3) echo 5000 >/sys/kernel/debug/usbtrail/trigger
		   cat /sys/kernel/debug/usbtrail/flight /sys/kernel/debug/usbtrail/usb \
			/sys/kernel/debug/usbtrail/disks >/dev/null ;;
		4) ;;
		esac
		rmmod usbtrail || { echo "rmmod $i failed"; exit 1; }
		i=$((i + 1))
	done
	echo "cycles $i"
	wait
	meminfo >/out/mem-after.txt
	/tests/debug-checks.sh end
	grep -q "^usbtrail " /proc/modules && echo "still loaded"
	echo robust-done
' >"$out/stdout.txt" 2>&1 || fail "guest command failed: $(tail -n 3 "$out/stdout.txt")"

cat "$out/stdout.txt"
expect "$out/stdout.txt" '^cycles 50$'
expect "$out/stdout.txt" '^robust-done$'
if grep -Eq 'failed|still loaded' "$out/stdout.txt"; then
	fail "$(grep -E 'failed|still loaded' "$out/stdout.txt" | head -n 3)"
fi
if grep -q '^not ok' "$out/utprobe.txt"; then
	fail "utprobe: $(grep '^not ok' "$out/utprobe.txt" | sort -u | head -n 3)"
fi
expect "$out/utprobe.txt" '^ok unknown ioctl'
expect "$out/utprobe.txt" '^ok USBTRAIL_IOC_DISCARD'
expect "$out/faults.log" 'unplug@24\+3 replug device=uas'
bad='BUG|WARNING|Oops|general protection|Call Trace|usbtrail: cannot'
if grep -Eq "$bad" "$out/console.log"; then
	fail "the kernel complained: $(grep -Em3 "$bad" "$out/console.log")"
fi
n=$(grep -c 'usbtrail: unloaded' "$out/console.log")
[ "$n" = 50 ] || fail "$n unloads logged, not 50"
echo "ok: 50 loads and unloads, no oops or warning"
# memory: VmallocUsed back within 64 KiB, MemFree within 8 MiB (the module
# holds ~1.5 MiB a load: a leak per cycle would show as 75 MiB)
read -r _ free0 _ vm0 <"$out/mem-before.txt"
read -r _ free1 _ vm1 <"$out/mem-after.txt"
echo "MemFree $free0 -> $free1 kB, VmallocUsed $vm0 -> $vm1 kB"
if [ "${TB_KERNEL:-}" = debug ]; then
	# KASAN's quarantine holds freed memory back (up to 1/32 of RAM) and
	# its vmalloc shadow comes and goes: kmemleak's scan is the check here
	debug_kernel_clean
	exit 0
fi
[ $((vm1 - vm0)) -le 64 ] || fail "VmallocUsed grew by $((vm1 - vm0)) kB"
[ $((free0 - free1)) -le 8192 ] || fail "MemFree fell by $((free0 - free1)) kB"
echo "ok: memory back to its start"
debug_kernel_clean
