#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --bridge brownout (issue 31): after 64 MiB moved within 8 s the disk
# drops off the bus for 3 s.  A 256 MiB copy (1 MiB O_DIRECT writes)
# fails mid-way with the disconnect and the I/O errors the field shows
# for a bus-powered disk on a weak port, and the same disk enumerates
# again.  Detect only: no quirk gives a port more current.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bridge.inc"

bridge_run brownout 0bc2:2322 --timeout 400

expect "$out/faults.log" 'bridge brownout-start device=bridge moved-mib=(6[4-9]|[7-9][0-9]|[1-9][0-9][0-9]) in-s=[0-9.]+ off-s=3'
expect "$out/faults.log" 'bridge brownout-end device=bridge'
fired 'power off'
[ "$(cat "$out/copy.rc")" != 0 ] || fail "the copy went through the brown-out"
expect "$out/copy.klog" 'usb 2-1: USB disconnect, device number [0-9]+'
# The commands in flight at the disconnect fail with a logged I/O error;
# when none is in flight (dd between two writes), the next write meets a
# dead disk and the block layer fails it without a line (EIO, ENODEV, or
# ENOSPC once del_gendisk has set the capacity to 0): dd's own error is
# then the only trace, as on a real port.
io='(I/O error|rejecting I/O to offline device|Buffer I/O error|DID_NO_CONNECT)'
if grep -Eq "$io" "$out/copy.klog"; then
	expect_order "$out/copy.klog" \
		'usb 2-1: USB disconnect, device number [0-9]+' "$io"
else
	expect "$out/copy.dd" "error writing .*(Input/output error|No such device|No space left on device)"
fi
expect "$out/back.klog" 'usb 2-1: new SuperSpeed USB device number [0-9]+ using xhci_hcd'
[ "$(cat "$out/back.disk")" != none ] || fail "no disk after the brown-out"
echo "ok: the disk came back as $(cat "$out/back.disk")"
no_kernel_warning "$out/console.log"
