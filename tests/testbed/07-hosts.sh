#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# USB 2.0 and 1.1 hosts: UAS behind EHCI at 480 Mbit/s (no streams there),
# BOT behind EHCI at 480 and behind UHCI at 12 Mbit/s.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas-hs,ehci,uhci --timeout 240 -- sh -c '
	env | grep ^TESTBED_ | sort >/out/env.txt
	for d in uas-hs ehci uhci; do
		dd if=/dev/disk/testbed/$d of=/dev/null bs=64k count=4 || exit 1
	done
' >"$out/stdout.txt" 2>&1 || fail "guest command failed"

cat "$out/env.txt"
for pair in UAS_HS:uas:480 EHCI:usb-storage:480 UHCI:usb-storage:12; do
	v=${pair%%:*} rest=${pair#*:}
	expect "$out/env.txt" "^TESTBED_$v=/dev/sd[a-z]+$"
	expect "$out/env.txt" "^TESTBED_${v}_DRIVER=${rest%%:*}$"
	expect "$out/env.txt" "^TESTBED_${v}_SPEED=${rest#*:}$"
done
expect "$out/console.log" 'new high-speed USB device number [0-9]+ using ehci-pci'
expect "$out/console.log" 'new full-speed USB device number [0-9]+ using uhci_hcd'
