#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --bridge volatile-cache (issue 31): a write cache that lies.  8 MiB
# written with O_DIRECT and fsync (the kernel sends SYNCHRONIZE CACHE,
# the bridge acknowledges it).  Power lost 12 s later: the data is there,
# the cache had been written out.  Power lost right after the fsync: the
# disk comes back with the old contents, acknowledged writes lost.  No
# quirk fixes this; the test shows the defect and that reading back
# after a power cycle detects it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bridge.inc"

bridge_run volatile-cache 6a02:1b55 --timeout 300 \
	--fault power-cut@late+2:bridge --fault power-cut@early+2:bridge

for p in late early; do
	[ "$(cat "$out/$p.write")" = 0 ] || fail "$p: the write failed"
	expect "$out/faults.log" "power-cut@$p\\+2:bridge power-off device=bridge"
	expect "$out/$p.klog" 'usb 2-1: USB disconnect, device number [0-9]+'
	[ "$(cat "$out/$p-after.disk")" != none ] || fail "$p: no disk after the power cut"
done
[ "$(cat "$out/late.compare")" = same ] ||
	fail "power lost 12 s after the writes: $(cat "$out/late.compare")"
echo "ok: power lost 12 s after the writes: read back the same"
[ "$(cat "$out/early.compare")" != same ] ||
	fail "power lost right after the fsync, and nothing was lost"
echo "ok: power lost right after the fsync: read back differs ($(cat "$out/early.compare"))"
fired 'volatile cache lost on power loss: [0-9]+ acknowledged writes, 8388608 bytes'
[ "$(grep -c 'volatile cache lost' "$out/qemu.log")" = 1 ] ||
	fail "the cache was lost more than once"
no_kernel_warning "$out/console.log"
