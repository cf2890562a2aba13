#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail repro on --bridge uas-load (issue 32), a VID:PID no kernel
# table lists: CrystalDiskMark's set fails on UAS (status never sent:
# timeouts, aborts, resets); repro measures how often, tries each
# mitigation live, and finds by runs the kernel's fix for such bridges,
# usb-storage.quirks=VID:PID:u.  Every other candidate fails its run;
# afterwards the quirks parameter, the driver and the disk's settings are
# as before.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/repro.inc"

vidpid=5e1f:0c31
rm -rf "$out/c"
# shellcheck disable=SC2016 # expanded in the guest
tb --bridge "uas-load,vidpid=$vidpid" --timeout 1500 -- sh -c '
	sh /tests/repro-state.sh >/out/before.state
	usbtrail repro "$TESTBED_BRIDGE" -o /out/c --destroy-data --size 16M \
		--workloads cdm --cmd-timeout 5 --confidence 0.9 --json \
		>/out/repro.json 2>/out/repro.err
	echo "repro exit $?"
	sh /tests/repro-state.sh >/out/after.state
	usbtrail repro "$TESTBED_BRIDGE" -o /out/c2 --destroy-data \
		--workloads cdm >/dev/null 2>/out/again.err &
	sleep 1; ls /run/usbtrail/ >/out/run.ls 2>&1; kill -INT $!; wait $!
	echo "again exit $?"' >"$out/stdout.txt" 2>&1 ||
	fail "guest command failed: $(tail -n 3 "$out/stdout.txt")"
cat "$out/repro.err"
expect "$out/stdout.txt" '^repro exit 0$'
python3 - "$out/repro.json" "$vidpid" "$out/c/runs" <<'PY' || fail "repro's result"
import json, os, sys
r = json.load(open(sys.argv[1]))
vidpid, runs_dir = sys.argv[2], sys.argv[3]
def ok(cond, what):
    if not cond:
        sys.exit(f"FAIL: {what}: {json.dumps(r)[:1500]}")
    print("ok:", what)
ok(r["failed"] is True, "failed")
ok(r["failure"]["kind"] in ("timeout", "abort", "reset"),
   f"the failure is the error handler's: {r['failure']['kind']}")
ok(r["failure"]["step"] == "cdm", "under cdm")
m = {t["mitigation"]: t for t in r["runs"]}
need = r["failure"]["runs_needed"]
ok(m["none"]["runs"] >= 3 and m["none"]["failures"] >= 1,
   f"without a mitigation: {m['none']['failures']} of {m['none']['runs']} failed")
ok(need >= 2, f"runs needed: {need} (rate >= {r['failure']['rate_low']:.2f})")
ok(m["u"]["runs"] >= need and m["u"]["failures"] == 0 and m["u"]["fixed"],
   f"u: {m['u']['runs']} runs, no failure")
ok(m["u"]["applied"] == "driver usb-storage", "u: on usb-storage")
for c in ("f", "t", "e", "g", "max_sectors_kb=120"):
    ok(m[c]["failures"] >= 1 and not m[c]["fixed"], f"{c}: failed under it")
ok(r["verdict"] == "fixed", "verdict fixed")
ok(r["fix"] == {"kind": "usb-storage-quirk", "value": f"{vidpid}:u",
                "persist": r["fix"]["persist"]}, f"fix {vidpid}:u")
ok(any(f"options usb-storage quirks={vidpid}:u" in p for p in r["fix"]["persist"]),
   "modprobe.d line")
ok(any(f"usb-storage.quirks={vidpid}:u" in p for p in r["fix"]["persist"]),
   "kernel command line")
ok(m["u"]["mbps_write"] and m["u"]["mbps_write"] > 0, "u's throughput measured")
# a recording per run
recs = [d for d in os.listdir(runs_dir)
        if os.path.isdir(os.path.join(runs_dir, d))]
total = sum(t["runs"] for t in r["runs"])
ok(len(recs) == total, f"{len(recs)} recordings, {total} runs")
ok(all(os.path.exists(os.path.join(runs_dir, d, "meta.json")) for d in recs),
   "each a recording (meta.json)")
PY
repro_outputs IGNORE_UAS
# put back as it was
diff "$out/before.state" "$out/after.state" >"$out/state.diff" ||
	fail "repro changed the system: $(cat "$out/state.diff")"
echo "ok: after repro: $(tr '\n' ' ' <"$out/after.state")"
expect "$out/before.state" "^driver=uas$"
# a second run interrupted at once: exit 4, nothing left
expect "$out/stdout.txt" '^again exit 4$'
expect "$out/again.err" 'interrupted'
no_kernel_warning "$out/console.log"
