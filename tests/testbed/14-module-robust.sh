#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail.ko under abuse: 50 load/unload cycles while both enclosures
# take writes and the UAS one is unplugged and replugged twice; readers
# that open, stall (SIGSTOP) and vanish (SIGKILL); bad ioctls and reads of
# odd sizes.  No oops, no warning, memory back where it started.  On the
# debug kernel (tools/debug-kernel) too, with no KASAN, lockdep,
# atomic-sleep, UBSAN or kmemleak report.
# kernels: debug
# cpus: 4
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas,bot --fault unplug@8+3 --fault unplug@24+3 --timeout "$(tb_timeout 400)" -- sh -c '
	meminfo() { sync; echo 3 >/proc/sys/vm/drop_caches; sleep 1;
		awk "/^(MemFree|VmallocUsed):/ { printf \"%s %s \", \$1, \$2 }" /proc/meminfo; echo
		cp /proc/vmallocinfo /out/vmallocinfo-$1.txt
		cut -d" " -f1 /proc/modules | sort >/out/modules-$1.txt; }
	# one cycle first: the first kprobe on an ftrace site makes the
	# kernel a trampoline that it keeps for good
	insmod $USBTRAIL_KO && cp /proc/vmallocinfo /out/vmallocinfo-loaded.txt &&
		rmmod usbtrail || echo "warm-up cycle failed"
	meminfo before >/out/mem-before.txt
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
	meminfo after >/out/mem-after.txt
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
[ "$n" = 51 ] || fail "$n unloads logged, not 51"
echo "ok: 51 loads and unloads, no oops or warning"
if [ "${TB_KERNEL:-}" = debug ]; then
	# KASAN's quarantine holds freed memory back (up to 1/32 of RAM) and
	# its vmalloc shadow comes and goes: kmemleak's scan is the check here
	debug_kernel_clean
	exit 0
fi

# Memory.  MemFree back within 8 MiB (the module holds ~1.5 MiB a load: a
# leak per cycle would show as 75 MiB).  vmalloc, by who allocated
# (/proc/vmallocinfo's callers): while loaded, areas of usbtrail's own
# functions are there; once unloaded, none of them, and none whose caller
# has no name any more (a freed module's leak).  The rest of vmalloc back
# within 16 KiB (a page a cycle would be 200 KiB), leaving out the thread
# stacks: with CONFIG_VMAP_STACK each is vmalloc'd, and the kernel keeps
# up to two freed ones per CPU for the next fork, so VmallocUsed floats by
# up to 2 x CPUs x 16 KiB with the processes that came and went (docs/
# module.md, "Memory").
vmi=$out/vmallocinfo
ours=$(grep -c '\[usbtrail\]' "$vmi-loaded.txt")
[ "$ours" -ge 4 ] ||
	fail "vmallocinfo names $ours areas of usbtrail while loaded, not 4 or more"
echo "ok: loaded, vmallocinfo names $ours areas of usbtrail"
for w in before after; do
	if grep -q '\[usbtrail\]' "$vmi-$w.txt"; then
		fail "usbtrail's areas in vmallocinfo $w: $(grep -m3 '\[usbtrail\]' "$vmi-$w.txt")"
	fi
	awk '$3 ~ /^0x[0-9a-f]+$/' "$vmi-$w.txt" >"$out/vmalloc-nameless-$w.txt"
	[ ! -s "$out/vmalloc-nameless-$w.txt" ] ||
		fail "vmalloc areas of a caller with no name $w: $(head -n 3 "$out/vmalloc-nameless-$w.txt")"
done
echo "ok: unloaded, no vmalloc area of usbtrail nor of a caller without a name"
# by_caller FILE: "CALLER AREAS KIB" (KiB of pages=N), one line each
by_caller() {
	awk '{ c = $3; sub(/\+0x.*/, "", c)
	       for (i = 4; i <= NF; i++) if ($i ~ /^pages=/) {
			n[c]++; k[c] += substr($i, 7) * 4 } }
	     END { for (c in n) print c, n[c], k[c] }' "$1" | sort
}
by_caller "$vmi-before.txt" >"$out/vmalloc-before.txt"
by_caller "$vmi-after.txt" >"$out/vmalloc-after.txt"
echo "vmalloc callers that changed (areas, KiB before -> after):"
join -a1 -a2 -e0 -o 0,1.2,1.3,2.2,2.3 "$out/vmalloc-before.txt" \
	"$out/vmalloc-after.txt" |
	awk '$3 != $5 { printf "  %s %d -> %d areas, %d -> %d KiB\n", $1, $2, $4, $3, $5 }'
stack='^(kernel_clone|copy_process|dup_task_struct|alloc_thread_stack_node)$'
rest_kb() { awk -v s="$stack" '$1 !~ s { k += $3 } END { print k + 0 }' "$1"; }
rest0=$(rest_kb "$out/vmalloc-before.txt")
rest1=$(rest_kb "$out/vmalloc-after.txt")
read -r _ free0 _ vm0 <"$out/mem-before.txt"
read -r _ free1 _ vm1 <"$out/mem-after.txt"
echo "MemFree $free0 -> $free1 kB, VmallocUsed $vm0 -> $vm1 kB, less thread stacks $rest0 -> $rest1 kB"
# A module the kernel loaded meanwhile (a replug's request_module()) keeps
# its own load_module() area (a few pages): not usbtrail's to answer for
new=$(comm -13 "$out/modules-before.txt" "$out/modules-after.txt" | tr '\n' ' ')
allow=$((16 + 32 * $(echo "$new" | wc -w)))
[ -z "$new" ] || echo "modules the kernel loaded meanwhile: $new(allowing $allow kB)"
[ $((rest1 - rest0)) -le $allow ] ||
	fail "vmalloc (less thread stacks) grew by $((rest1 - rest0)) kB"
[ $((free0 - free1)) -le 8192 ] || fail "MemFree fell by $((free0 - free1)) kB"
echo "ok: memory back to its start"
debug_kernel_clean
