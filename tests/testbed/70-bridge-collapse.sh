#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --bridge collapse (issue 31): sustained-write collapse.  512 MiB of
# 1 MiB O_DIRECT writes: full speed for the first 256 MiB, then a fifth
# of it (the host throttles the disk, logged to faults.log); after 7 s
# idle the disk is fast again (128 MiB more).  The guest's own sector counts show it.
# Detect only: no quirk fixes an exhausted SLC cache.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bridge.inc"

bridge_run collapse 1a86:7523 --timeout 400

expect "$out/faults.log" 'bridge collapse-start device=bridge written-mib=(25[6-9]|2[6-9][0-9]) measured-bps=[0-9]+ bps-write=[0-9]+'
expect "$out/faults.log" 'bridge collapse-end device=bridge idle-s=5'
python3 - "$out/write.rate" "$out/again.secs" <<'PY' || fail "the guest did not see the collapse"
import sys

def at(path):
    """(seconds, MiB written) from the first sample that moved"""
    pts = [tuple(map(float, l.split())) for l in open(path)
           if len(l.split()) == 2]
    s0 = pts[0][1]
    moved = [(t, (s - s0) * 512 / 2**20) for t, s in pts if s > s0]
    start = max(t for t, s in pts if s == s0)
    return [(t - start, m) for t, m in moved]

def t_of(pts, mib):
    t = next((t for t, m in pts if m >= mib), None)
    assert t is not None, f"{mib} MiB never sampled (last: {pts[-1:]})"
    return t

w = at(sys.argv[1])
fast = 200 * 2**20 / 1e6 / t_of(w, 200)
slow = 200 * 2**20 / 1e6 / (t_of(w, 500) - t_of(w, 300))
print(f"ok: write: {fast:.0f} MB/s over the first 200 MiB, "
      f"{slow:.0f} MB/s from 300 to 500 MiB")
assert slow < 0.4 * fast, (fast, slow)
again = 128 * 2**20 / 1e6 / float(open(sys.argv[2]).read())
print(f"ok: after 7 s idle: {again:.0f} MB/s over 128 MiB")
assert again > 2 * slow, (again, slow)
PY
for f in write again; do
	none "$out/$f.dd" 'error|No space' "the writes themselves succeed"
done
none "$out/write.klog" "$eh_re|I/O error" "slow, not failing"
no_kernel_warning "$out/console.log"
