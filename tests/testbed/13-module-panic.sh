#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The flight recorder survives up to a crash: a medium-not-present error,
# then healthy traffic, then a crash through sysrq.  The serial console
# must hold the dump, with the sense record among the error records even
# though later records pushed it out of the dump's tail window.  On the
# debug kernel (tools/debug-kernel) too: the dump, from the panic
# notifier, must not trip KASAN, lockdep or the atomic-sleep check; its
# drivers are built in, and every probe must be found there.
# kernels: debug
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas --fault medium-not-present@10240 --timeout "$(tb_timeout 240)" -- sh -c '
	insmod $USBTRAIL_KO panic_dump=32 || exit 1
	basename $TESTBED_UAS >/out/disk.txt
	cat /sys/kernel/debug/usbtrail/probes >/out/probes.txt
	dd if=/dev/zero of=$TESTBED_UAS bs=1M count=8 oflag=direct
	dd if=$TESTBED_UAS of=/dev/null bs=64k count=64 iflag=direct
	sync
	echo c >/proc/sysrq-trigger
	echo "still alive"
' >"$out/stdout.txt" 2>&1
rc=$?
[ "$rc" = 125 ] || fail "the guest did not crash (exit $rc)"
disk=$(cat "$out/disk.txt")
expect "$out/console.log" 'sysrq: Trigger a crash'
expect_order "$out/console.log" \
	'usbtrail: flight recorder dump \((oops|panic)\)' \
	"usbtrail: fr [0-9]+ [0-9.]+ scsi-done disk=$disk .*lba=10240 .*sense=02/3a/00" \
	'usbtrail: fr [0-9]+ [0-9.]+ (urb|xhci|blk|scsi)' \
	'usbtrail: flight recorder dump end'
if grep -q 'still alive' "$out/stdout.txt"; then
	fail "COMMAND went on after the crash"
fi
if [ "${TB_KERNEL:-}" = debug ]; then
	# xhci-hcd, scsi_mod, uas and usb-storage are built into it
	grep -Ev ' state=(attached|alias) ' "$out/probes.txt" &&
		fail "probes not attached on the built-in drivers"
	for p in xhci_hcd:xhci_handle_event scsi_mod:scsi_dispatch_cmd_done \
		uas:uas_eh_abort_handler usb_storage:device_reset; do
		expect "$out/probes.txt" "^probe=$p .*state=attached .* builtin=1$"
	done
	expect "$out/console.log" \
		'usbtrail: probe usb_storage:device_reset attached: usb_storage is built in'
else
	if grep -q 'builtin=1' "$out/probes.txt"; then
		fail "a probe says builtin on Debian's modular kernel"
	fi
fi
no_debug_report
