#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The fake-capacity verdict on writes that really wrap: in the guest a
# device-mapper target maps its second half onto its first (both linear
# segments on the same 16 MiB of the UAS disk, tests/testbed/guest/
# fake-capacity.sh), a stick that claims 32 MiB and holds 16.  usbtrail
# stress writes all 32 and reads them back: "fake capacity", usable size
# 16 MiB, wrap modulus 16 MiB, the first half overwritten by the second
# (in LBAs too), in the JSON, the text (--verify-only afterwards) and the
# report of the recording; the target is "not a USB disk" (dm-0).  Then
# on the UAS disk itself: its identity (VID:PID, USB path, link speed,
# driver uas) in the JSON and the text.
. "$(dirname "$0")/lib.sh"

bin=$top/userspace/usbtrail
rm -rf "$out/rec"
tb --devices uas --timeout 400 -- sh /tests/fake-capacity.sh \
	>"$out/stdout.txt" 2>&1 || fail "guest command failed"
grep -q '^no dmsetup$' "$out/stdout.txt" &&
	skip "no dmsetup on the host to put in the guest (tools/deps.sh)"
expect "$out/stdout.txt" '^dm /dev/dm-[0-9]+$'
expect "$out/table.txt" '^32768 32768 linear [0-9]+:[0-9]+ 0$'
expect "$out/stdout.txt" '^record exit 1$'	# bad sectors: FAIL
expect "$out/stdout.txt" '^verify exit 1$'
expect "$out/stdout.txt" '^uas exit 0$'

python3 - "$out/wrap.json" "$out/uas.json" <<'PY' || fail "the JSON is wrong"
import json, sys
w = json.load(open(sys.argv[1]))
u = json.load(open(sys.argv[2]))
M = 1 << 20
bad = []
def want(what, got, exp):
    if got != exp:
        bad.append("%s: %r, not %r" % (what, got, exp))
    else:
        print("ok: %s = %r" % (what, exp))
want("size", w["size"], 32 * M)
want("verdict", w["capacity"]["verdict"], "fake capacity")
want("usable", w["capacity"]["usable_bytes"], 16 * M)
want("usable sectors", w["capacity"]["usable_sectors"], 32768)
want("modulus", w["capacity"]["wrap_modulus_bytes"], 16 * M)
want("ranges", [(r["start"], r["end"], r["lba_start"], r["lba_end"],
                 r["class"], r["found_offset"]) for r in w["verify"]["ranges"]],
     [(0, 16 * M, 0, 32768, "overwritten", 16 * M)])
want("the second half reads back right", w["verify"]["sectors"]["ok"], 32768)
want("device", (w["device"]["usb"], w["device"]["block"][:3]), (False, "dm-"))
d = u["device"]
want("uas: usb", d["usb"], True)
want("uas: driver", d["driver"], "uas")
want("uas: speed", d["speed_mbps"], 5000)
want("uas: vid_pid", d["vid_pid"][:5], "46f4:")
want("uas: path", bool(d["usb_path"]) and d["disk"].startswith("sd"), True)
want("uas: capacity", u["capacity"]["verdict"], "no wrap-around")
for m in bad:
    print("FAIL: " + m)
sys.exit(1 if bad else 0)
PY

expect "$out/verify.txt" '^verdict: fake capacity: usable size 16MiB \(16777216 bytes, LBA 0-32767\) of 32MiB tested; writes wrap every 16MiB \(16777216 bytes\)'
expect "$out/verify.txt" '^  0-16777215 \(16777216 bytes, 32768 sectors; LBA 0-32767\): overwritten, first holds offset 16777216'
expect "$out/verify.txt" '^device: dm-[0-9]+, not a USB disk$'
expect "$out/uas.txt" '^device: sd[a-z]+, USB [0-9]+-[0-9.]+ \(bus [0-9]+ device [0-9]+\) 46f4:[0-9a-f]{4} .*, 5000 Mbit/s, driver uas, host controller '

"$bin" report "$out/rec" >"$out/report.out" 2>&1 ||
	fail "usbtrail report: $(cat "$out/report.out")"
expect "$out/rec/report.txt" '^run [0-9a-f]{16} on /dev/dm-[0-9]+: dm-[0-9]+, not a USB disk$'
expect "$out/rec/report.txt" '^  verdict: fake capacity: usable size 16MiB \(16777216 bytes\), writes wrap every 16MiB \(16777216 bytes\)$'
expect "$out/rec/report.html" 'Verdict: fake capacity: usable size 16MiB'
