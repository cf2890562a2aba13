#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The test bed's check for the debug kernel's reports (no_debug_report and
# debug_kernel_clean of tests/testbed/lib.sh) on console lines as the
# kernel prints them: each report fails it, a clean boot of the debug
# kernel (its checkers' banners included) passes, and so does nothing
# when kmemleak did not scan or lockdep turned itself off.
. "$(dirname "$0")/lib.sh"

tbout=$work/tb
mkdir -p "$tbout"
clean=$work/clean.log
cat >"$clean" <<'EOT'
[    0.000000] Linux version 6.1.192-usbtrail-debug (root@host) #1 SMP PREEMPT_DYNAMIC
[    0.000000] kasan: KernelAddressSanitizer initialized
[    0.000000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
[    0.000000] ... MAX_LOCKDEP_SUBCLASSES:  8
[    0.000000] ... MAX_LOCK_DEPTH:          48
[    1.234567] kmemleak: Kernel memory leak detector initialized (mem pool available: 15683)
[    1.234600] kmemleak: Automatic memory scanning thread ended
[    9.876543] usbtrail: loaded, 13 probes attached
[   20.000000] testbed: kmemleak baseline taken
[   31.000000] usbtrail: unloaded
EOT

# check FUNCTION FILE...: the check's exit status, its output in $work/o
check() {
	fn=$1; shift
	(TESTBED_OUT=$tbout; . "$top/tests/testbed/lib.sh"; "$fn" "$@") \
		>"$work/o" 2>&1
}

check no_debug_report "$clean" ||
	fail "a clean console fails the check: $(cat "$work/o")"
echo "ok: a clean debug-kernel console passes"

n=0
while IFS= read -r line; do
	[ -n "$line" ] || continue
	n=$((n + 1))
	{ cat "$clean"; echo "$line"; } >"$work/bad.log"
	if check no_debug_report "$work/bad.log"; then
		fail "not caught: $line"
	fi
	grep -q '^FAIL: debug kernel report' "$work/o" ||
		fail "no FAIL line for: $line ($(cat "$work/o"))"
	echo "ok: caught: $line"
done <<'EOT'
[   12.345678] BUG: KASAN: slab-out-of-bounds in ut_ring_push+0x1a/0x80 [usbtrail]
[   12.345678] BUG: KASAN: use-after-free in ut_reader_release+0x4c/0x120 [usbtrail]
[   12.345678] WARNING: possible circular locking dependency detected
[   12.345678] WARNING: possible recursive locking detected
[   12.345678] WARNING: inconsistent lock state
[   12.345678] WARNING: suspicious RCU usage
[   12.345678] WARNING: bad unlock balance detected!
[   12.345678] WARNING: held lock freed!
[   12.345678] BUG: sleeping function called from invalid context at mm/slab.h:742
[   12.345678] BUG: scheduling while atomic: utcat/123/0x00000002
[   12.345678] UBSAN: shift-out-of-bounds in module/ut_flight.c:120:20
[   12.345678] UBSAN: array-index-out-of-bounds in module/ut_disk.c:88:9
[   40.000000] kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)
unreferenced object 0xffff888003a1c000 (size 4096):
EOT
echo "ok: $n reports caught"

# debug_kernel_clean on the debug kernel: kmemleak must have scanned and
# lockdep must still be on
cp "$clean" "$tbout/console.log"
: >"$tbout/kmemleak.txt"
printf 'kmemleak: scanned\n debug_locks:                             1\n' \
	>"$tbout/debug-state.txt"
TB_KERNEL=debug check debug_kernel_clean ||
	fail "a clean debug run fails: $(cat "$work/o")"
echo "ok: a clean debug-kernel run passes"
printf ' debug_locks:                             1\n' >"$tbout/debug-state.txt"
TB_KERNEL=debug check debug_kernel_clean &&
	fail "passes though kmemleak did not scan"
echo "ok: kmemleak that did not scan fails it"
printf 'kmemleak: scanned\n debug_locks:                             0\n' \
	>"$tbout/debug-state.txt"
TB_KERNEL=debug check debug_kernel_clean &&
	fail "passes though lockdep turned itself off"
echo "ok: lockdep turned off fails it"
printf 'unreferenced object 0xffff888003a1c000 (size 64):\n  comm "insmod", pid 99\n' \
	>"$tbout/kmemleak.txt"
printf 'kmemleak: scanned\n debug_locks:                             1\n' \
	>"$tbout/debug-state.txt"
TB_KERNEL=debug check debug_kernel_clean &&
	fail "passes though kmemleak listed an object"
echo "ok: an object in kmemleak's list fails it"
