#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail repro on --bridge max-sectors (issue 32), a VID:PID no kernel
# table lists: a transfer of more than 240 sectors is never answered,
# over UAS and BOT.  repro finds by runs the kernel's fix, 120 KiB
# transfers: max_sectors_kb 120 through sysfs (first: the smaller change)
# or MAX_SECTORS_240 (g), and that IGNORE_UAS (u) does not fix it
# (usb-storage moves 2048 sectors at SuperSpeed).  The udev rule keeps it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/repro.inc"

vidpid=3d5a:7b21
rm -rf "$out/c"
# shellcheck disable=SC2016 # expanded in the guest
tb --bridge "max-sectors,vidpid=$vidpid" --timeout 1200 -- sh -c '
	sh /tests/repro-state.sh >/out/before.state
	usbtrail repro "$TESTBED_BRIDGE" -o /out/c --destroy-data --size 16M \
		--workloads seq --cmd-timeout 4 --confidence 0.9 --json \
		>/out/repro.json 2>/out/repro.err
	echo "repro exit $?"
	sh /tests/repro-state.sh >/out/after.state' >"$out/stdout.txt" 2>&1 ||
	fail "guest command failed: $(tail -n 3 "$out/stdout.txt")"
cat "$out/repro.err"
expect "$out/stdout.txt" '^repro exit 0$'
python3 - "$out/repro.json" "$vidpid" <<'PY' || fail "repro's result"
import json, sys
r = json.load(open(sys.argv[1]))
vid, pid = sys.argv[2].split(":")
def ok(cond, what):
    if not cond:
        sys.exit(f"FAIL: {what}: {json.dumps(r)[:1500]}")
    print("ok:", what)
ok(r["failed"] and r["failure"]["kind"] in ("timeout", "abort", "reset"),
   f"failed: {r['failure'] and r['failure']['kind']}")
m = {t["mitigation"]: t for t in r["runs"]}
need = r["failure"]["runs_needed"]
for c in ("max_sectors_kb=120", "g"):
    ok(m[c]["fixed"] and m[c]["runs"] >= need and m[c]["failures"] == 0,
       f"{c}: {m[c]['runs']} runs, none failed")
for c in ("f", "t", "e", "u"):
    ok(m[c]["failures"] >= 1 and not m[c]["fixed"], f"{c}: failed under it")
ok(r["verdict"] == "fixed", "verdict fixed")
f = r["fix"]
ok((f["kind"], f["value"]) in (("max-sectors", "120"),
                               ("usb-storage-quirk", f"{vid}:{pid}:g")),
   f"fix {f['kind']} {f['value']}")
if f["kind"] == "max-sectors":
    ok(any(f'ATTRS{{idVendor}}=="{vid}"' in p and
           'ATTR{queue/max_sectors_kb}="120"' in p for p in f["persist"]),
       "udev rule")
PY
repro_outputs MAX_SECTORS_240
diff "$out/before.state" "$out/after.state" >"$out/state.diff" ||
	fail "repro changed the system: $(cat "$out/state.diff")"
echo "ok: after repro: $(tr '\n' ' ' <"$out/after.state")"
no_kernel_warning "$out/console.log"
