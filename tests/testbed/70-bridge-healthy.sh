#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --bridge healthy, the control (issue 31): a dual-mode enclosure (BOT at
# alternate setting 0, UAS at 1) binds uas; with usb-storage.quirks
# VID:PID:u written at run time and the interface probed again it falls
# back to BOT for real: usb-storage binds, "usbtrail uas" says driver
# usb-storage and quirk-ignore-uas, and stress runs on it.  In both modes
# every workload passes: stress seq at QD 8 and mixed, the commands
# bridges choke on answered at once, a written pattern read back the
# same; no abort, no reset, and the bridge's QEMU never reports a defect.
# The VID:PID is one we made up: nothing can look it up in a table.
# On every kernel of tools/kernels.conf (5.10 to 7.3).
# kernels: all
. "$(dirname "$0")/lib.sh"

vidpid=1e2f:7a31
tb --bridge "healthy,vidpid=$vidpid" --timeout 400 -- \
	sh /tests/bridge.sh healthy "$vidpid" >"$out/stdout.txt" 2>&1 ||
	fail "guest command failed (exit $?)"
expect "$out/stdout.txt" '^guest-done$'
expect "$out/console.log" "usb 2-1: New USB device found, idVendor=${vidpid%:*}, idProduct=${vidpid#*:}"

for m in uas bot; do
	want=uas
	[ "$m" = bot ] && want=usb-storage
	[ "$(cat "$out/$m.driver")" = "$want" ] ||
		fail "$m: driver $(cat "$out/$m.driver"), not $want"
	echo "ok: $m: driver $want, disk $(cat "$out/$m.disk")"
	for s in seq mixed; do
		[ "$(cat "$out/$m-$s.rc")" = 0 ] ||
			fail "$m: stress $s exit $(cat "$out/$m-$s.rc"): $(head -c 300 "$out/$m-$s.err")"
		python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d["result"] == "pass" and d["errors_total"] == 0 else 1)' \
			"$out/$m-$s.json" || fail "$m: stress $s reported errors"
	done
	echo "ok: $m: stress seq (QD 8) and mixed passed"
	for c in rc10 rc16 rsoc ata16 ata12; do
		expect "$out/$m.scsi" "^$c status=0x0[02] host=0x00 "
	done
	expect "$out/$m.scsi" '^rc16 .* last_lba=2097151 block=512$'
	[ "$(cat "$out/$m.write")" = 0 ] || fail "$m: the pattern write failed"
	[ "$(cat "$out/$m.compare")" = same ] ||
		fail "$m: the pattern read back differs: $(cat "$out/$m.compare")"
	echo "ok: $m: 16 MiB written with fsync, read back the same"
	if grep -En 'uas_eh_|reset SuperSpeed|I/O error|FAILED Result' \
		"$out/$m.klog"; then
		fail "$m: the healthy bridge met an error"
	fi
	echo "ok: $m: no abort, reset or I/O error"
done

python3 - "$out/bot.uas.json" "$vidpid" <<'PY' || fail "usbtrail uas over BOT"
import json, sys
d = [e for e in json.load(open(sys.argv[1])) if e["usb"] == "2-1"][0]
vid, pid = sys.argv[2].split(":")
assert (d["vid"], d["pid"]) == (vid, pid), d
assert d["driver"] == "usb-storage", d["driver"]
assert d["reason"] == "quirk-ignore-uas", d["reason"]
assert d["uas_capable"] and not d["uas_active"], d
assert f"{sys.argv[2]}:u" in d["detail"]["why"], d["detail"]["why"]
alts = d["descriptors"]["configurations"][0]["altsettings"]
assert [(a["alt"], a["transport"]) for a in alts] == [(0, "bot"), (1, "uas")], alts
print("ok: usbtrail uas: driver usb-storage, quirk-ignore-uas from", sys.argv[2] + ":u")
PY
python3 - "$out/uas.uas.json" <<'PY' || fail "usbtrail uas over UAS"
import json, sys
d = [e for e in json.load(open(sys.argv[1])) if e["usb"] == "2-1"][0]
assert d["driver"] == "uas" and d["uas_active"], d
print("ok: usbtrail uas before the quirk: uas active")
PY
if grep -E '^bridge ' "$out/qemu.log"; then
	fail "the healthy bridge reported a defect"
fi
no_kernel_warning "$out/console.log"
