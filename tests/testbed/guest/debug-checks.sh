#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side, on the debug kernel (tools/debug-kernel): kmemleak and
# lockdep around a test.  Elsewhere (no kmemleak) it does nothing.
#   debug-checks.sh start   a kmemleak scan, then its list cleared: what
#                           the boot left is not the test's
#   debug-checks.sh end     two scans (an object must be seen unreferenced
#                           twice), the list into /out/kmemleak.txt; into
#                           /out/debug-state.txt "kmemleak: scanned" if
#                           both scans worked (kmemleak turns itself off
#                           when its pool runs out) and lockdep's
#                           debug_locks (0 once it has reported or given
#                           up)
kl=/sys/kernel/debug/kmemleak
[ -w "$kl" ] || exit 0
case "$1" in
start)
	echo scan >"$kl"
	echo clear >"$kl"
	echo "testbed: kmemleak baseline taken" >/dev/kmsg
	;;
end)
	: >/out/debug-state.txt
	if echo scan >"$kl" && sleep 1 && echo scan >"$kl"; then
		echo "kmemleak: scanned" >>/out/debug-state.txt
	fi
	cat "$kl" >/out/kmemleak.txt
	grep debug_locks /proc/lockdep_stats >>/out/debug-state.txt
	;;
*) echo "usage: debug-checks.sh start|end" >&2; exit 2 ;;
esac
