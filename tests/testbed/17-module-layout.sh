#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail.ko never reads a private layout the running kernel's BTF has
# not verified (issue 33).  With the true BTF, usbtrail record answers the
# module's layout table and every xHCI probe attaches.  Then with a BTF
# that differs from the kernel's in one place (tests/tools/utbtf): on
# kernels whose port tracepoint passes struct xhci_port (6.8 on), its
# member hcd_portnum moved 8 bytes; before, the tracepoint's last
# parameter made 64 bits.  Then the port probe stays unattached, with its
# reason in dmesg, debugfs and meta.json, while the other probes record;
# the true BTF again attaches it.  Where the kernel has no BTF of its
# modules (5.10), the facts of the tracepoints stand verified by the
# build against the kernel's source, and nothing can be moved.  No oops,
# no warning but the module's own (and on the debug kernel no KASAN).
# kernels: all
# kernels: debug
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # expanded in the guest
tb --devices uas --timeout 300 -- sh -c '
	d=/sys/kernel/debug/usbtrail
	insmod $USBTRAIL_KO || exit 1
	cp $d/layout /out/layout.load
	cp $d/probes /out/probes.load
	disk=/dev/$(ls /sys/block | grep sd | head -n 1)
	io() { dd if=/dev/zero of=$disk bs=1M count=4 oflag=direct 2>/dev/null; }
	w="dd if=/dev/zero of=$disk bs=1M count=4 oflag=direct 2>/dev/null"
	usbtrail record -q -o /out/good -- sh -c "$w"
	echo "good exit $?"
	cp $d/layout /out/layout.good
	cp $d/probes /out/probes.good
	if [ ! -e /sys/kernel/btf/xhci_hcd ]; then
		echo "no module BTF"
	else
		mkdir -p /tmp/bad
		if grep -q "xhci_port.hcd_portnum" $d/layout; then
			/tests/utbtf /tmp/bad xhci_hcd member xhci_port.hcd_portnum 8
		else
			/tests/utbtf /tmp/bad xhci_hcd tracepoint xhci_handle_port_status
		fi
		echo "utbtf exit $?"
		USBTRAIL_BTF_DIR=/tmp/bad usbtrail record -q -o /out/bad -- \
			sh -c "$w"
		echo "bad exit $?"
		cp $d/layout /out/layout.bad
		cp $d/probes /out/probes.bad
		# the other probes record meanwhile
		/tests/utcat >/dev/null
		io
		/tests/utcat >/out/records.bad
		# and a true answer again attaches it
		usbtrail record -q -o /out/again -- true
		cp $d/probes /out/probes.again
	fi
	dmesg >/out/dmesg.txt
	rmmod usbtrail && echo unload-ok
' >"$out/stdout.txt" 2>&1 || fail "guest command failed: $(tail -n 3 "$out/stdout.txt")"
cat "$out/stdout.txt"
expect "$out/stdout.txt" '^good exit 0$'
expect "$out/stdout.txt" '^unload-ok$'
port=xhci_hcd:xhci_handle_port_status
# the true BTF: every xHCI probe attached, every fact verified
for p in xhci_handle_event xhci_handle_command xhci_handle_port_status \
	xhci_urb_enqueue xhci_urb_giveback xhci_urb_dequeue; do
	expect "$out/probes.good" "^probe=xhci_hcd:$p kind=tracepoint state=attached "
done
grep -v 'state=verified' "$out/layout.good" >"$out/unverified" &&
	fail "facts not verified with the true BTF: $(cat "$out/unverified")"
python3 - "$out/good/meta.json" <<'PY' || fail "meta.json of the good recording"
import json, sys
m = json.load(open(sys.argv[1]))
rows = m["module_layout"]
for r in rows:
    assert r["state"] == "verified", r
    assert r["verified_by"] in ("btf", "build"), r
    if r["verified_by"] == "btf":
        assert r["btf"] == r["expected"], r
print("ok: meta.json:", len(rows), "facts verified,",
      sum(r["verified_by"] == "btf" for r in rows), "by BTF")
probes = {p["name"]: p["state"] for p in m["module_probes"]}
assert probes["xhci_hcd:xhci_handle_port_status"] == "attached", probes
PY
if grep -q '^no module BTF$' "$out/stdout.txt"; then
	# 5.10: the tracepoints' facts stand by the build (no member fact)
	expect "$out/layout.good" 'state=verified by=build'
	grep -q '^fact=xhci_hcd:xhci_port' "$out/layout.good" &&
		fail "a member fact on a kernel without module BTF"
	echo "ok: no BTF of xhci_hcd: verified by the build only"
else
	expect "$out/stdout.txt" '^utbtf exit 0$'
	expect "$out/stdout.txt" '^bad exit 0$'
	# the port probe off, with its reason, everywhere
	expect "$out/probes.bad" "^probe=$port kind=tracepoint state=unverified error=-71 .* why=.*in the kernel's BTF"
	expect "$out/layout.bad" 'state=mismatch'
	expect "$out/dmesg.txt" "usbtrail: xhci_.*in the kernel's BTF.*probe $port stays unattached"
	for p in xhci_handle_event xhci_handle_command xhci_urb_enqueue \
		xhci_urb_giveback; do
		expect "$out/probes.bad" "^probe=xhci_hcd:$p kind=tracepoint state=attached "
	done
	python3 - "$out/bad" <<'PY' || fail "the recording with the wrong BTF"
import json, sys
d = sys.argv[1]
m = json.load(open(d + "/meta.json"))
bad = [r for r in m["module_layout"] if r["state"] == "mismatch"]
assert len(bad) == 1 and bad[0]["probe"] == "xhci_handle_port_status", bad
assert bad[0]["btf"] != bad[0]["expected"], bad
print("ok: meta.json: mismatch", bad[0]["what"], "expected",
      bad[0]["expected"], "BTF", bad[0]["btf"])
probes = {p["name"]: p for p in m["module_probes"]}
p = probes["xhci_hcd:xhci_handle_port_status"]
assert p["state"] == "unverified" and p["error"] == -71, p
src = {s["name"]: s["events"] for s in m["sources"]}
assert src.get("module", 0) > 0, src
print("ok: the module source recorded", src["module"], "events")
PY
	expect "$out/records.bad" ' xhci-transfer '
	expect "$out/records.bad" ' urb-giveback '
	expect "$out/records.bad" ' scsi-done '
	expect "$out/probes.again" "^probe=$port kind=tracepoint state=attached "
	echo "ok: the true BTF again: $port attached"
fi
# only the module's own warning: no WARNING, BUG, Oops or KASAN
bad='BUG|WARNING|Oops|general protection|Call Trace|KASAN'
if grep -Eq "$bad" "$out/console.log"; then
	fail "the kernel complained: $(grep -Em3 "$bad" "$out/console.log")"
fi
echo "ok: no oops"
