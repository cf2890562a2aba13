#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail report --bundle over a recording of the test bed: the tar.gz
# holds every file its README names, stays within --max-size (a small
# limit forces the capture and the trace records to be cut around the
# incidents; one too small fails cleanly), tshark opens its capture, the
# device's serial appears nowhere (hashed) unless --keep-serials, and URB
# data is gone (the recording was not made with --payload on purpose).
. "$(dirname "$0")/lib.sh"

command -v tshark >/dev/null || skip "no tshark (tools/deps.sh installs it)"
rec=$work/rec
cp -r "$top/tests/fixtures/recordings/uas-medium-stall" "$rec"
serial=usbtrail-uas
hash=sha256:$(printf %s "$serial" | sha256sum | cut -c1-16)

# bundle NAME ARGS...: usbtrail report --bundle $work/NAME.tar.gz, unpacked
# into $work/NAME/usbtrail-bundle
bundle() {
	name=$1; shift
	echo "+ usbtrail report --bundle $name.tar.gz $*"
	"$bin" report "$rec" --bundle "$work/$name.tar.gz" "$@" \
		>"$out/$name.out" 2>"$out/$name.err"
	rc=$?
	cat "$out/$name.out" "$out/$name.err" | sed 's/^/  /'
	[ $rc -eq 0 ] || return 0
	mkdir -p "$work/$name"
	tar -xzf "$work/$name.tar.gz" -C "$work/$name" ||
		fail "$name.tar.gz does not unpack"
	cp "$work/$name.tar.gz" "$out/"
}

# capture_ok DIR: tshark reads the capture without complaint; prints the
# number of USB packets
capture_ok() {
	tshark -r "$1/capture.pcapng" >"$out/tshark.txt" 2>"$out/tshark.err" ||
		fail "tshark -r failed: $(tail -n 3 "$out/tshark.err")"
	grep -v 'Running as user' "$out/tshark.err" | grep -q . &&
		fail "tshark warned: $(head -n 3 "$out/tshark.err")"
	tshark -r "$1/capture.pcapng" -Y usb 2>/dev/null | wc -l
}

# 1. the default limit (1 MiB): everything fits, nothing is cut
bundle full
check "exit status" "$rc" 0
b=$work/full/usbtrail-bundle
for f in README.txt report.txt report.html capture.pcapng usbmon-1u.txt \
	events.jsonl kernel-log.txt devices.txt uas-verdicts.json kernel.txt \
	meta.json; do
	[ -s "$b/$f" ] || fail "the bundle lacks $f"
done
echo "ok: every file the README names"
size=$(stat -c %s "$work/full.tar.gz")
[ "$size" -le 1048576 ] || fail "$size bytes over 1 MiB"
grep -q 'Nothing was cut' "$b/README.txt" || fail "README: cut at 1 MiB?"
full_usb=$(capture_ok "$b")
orig_usb=$(tshark -r "$rec/capture.pcapng" -Y usb 2>/dev/null | wc -l)
check "USB packets kept" "$full_usb" "$orig_usb"
check "events.jsonl lines" "$(wc -l <"$b/events.jsonl")" \
	"$(wc -l <"$rec/events.jsonl")"
check "1u lines" "$(wc -l <"$b/usbmon-1u.txt")" "$orig_usb"
grep -Eq '^[0-9a-f]+ [0-9]+ [SCE] B[io]:2:002:[0-9]+ ' "$b/usbmon-1u.txt" ||
	fail "usbmon-1u.txt has no bulk line of device 2:002"
echo "ok: usbmon-1u.txt: $(head -n 1 "$b/usbmon-1u.txt")"
grep -q 'Medium not present' "$b/kernel-log.txt" ||
	fail "kernel-log.txt lacks the sense lines"
grep -q 'reset SuperSpeed USB device' "$b/kernel-log.txt" ||
	fail "kernel-log.txt lacks the reset"
grep -q '"release"' "$b/kernel.txt" || fail "kernel.txt lacks the kernel"

# serials: hashed everywhere; URB data: gone
if grep -rl "$serial" "$work/full"; then
	fail "the serial is in the bundle"
fi
grep -q "iSerial *$hash" "$b/devices.txt" || fail "devices.txt: no $hash"
echo "ok: serial only as $hash"
grep -q '"data"' "$b/events.jsonl" && fail "events.jsonl carries URB data"
n=$(tshark -r "$b/capture.pcapng" -Y 'usb && frame.cap_len > 64' \
	2>/dev/null | wc -l)
check "USB packets with data" "$n" 0
grep -Eq ' = [0-9a-f]{8}' "$b/usbmon-1u.txt" &&
	fail "usbmon-1u.txt shows data bytes"
echo "ok: no URB data"

# 2. a small limit: the capture and the trace records are cut around
# the incidents, and the bundle fits.  The trimmed fixture is small, so
# trace records 60 s after the last incident are added, each with 100
# random bytes in its text (incompressible), to go over 64 KiB.
python3 - "$rec/events.jsonl" <<'PY'
import json, random, sys
random.seed(5)
lines = open(sys.argv[1]).read().splitlines()
tr = next(json.loads(l) for l in lines if '"rec":"xhci-transfer"' in l)
last = max(json.loads(l)["t"] for l in lines)
with open(sys.argv[1], "a") as f:
    for i in range(1500):
        tr["id"] = 10**6 + i
        tr["t"] = round(last + 60 + i / 100, 9)
        tr["text"] = random.getrandbits(800).to_bytes(100, "big").hex()
        f.write(json.dumps(tr, separators=(",", ":")) + "\n")
PY
bundle padded
check "exit status" "$rc" 0
size=$(stat -c %s "$work/padded.tar.gz")
[ "$size" -gt 65536 ] || fail "the padded bundle ($size) fits 64 KiB: no test"
full_usb=$(capture_ok "$work/padded/usbtrail-bundle")
bundle small --max-size 64K
check "exit status" "$rc" 0
b=$work/small/usbtrail-bundle
size=$(stat -c %s "$work/small.tar.gz")
[ "$size" -le 65536 ] || fail "$size bytes over 64 KiB"
grep -q 'kept within .* s of an incident only\|no capture packets' \
	"$b/README.txt" || fail "README does not say how it was cut"
small_usb=$(capture_ok "$b")
[ "$small_usb" -le "$full_usb" ] ||
	fail "the capture grew ($small_usb of $full_usb packets)"
check "incidents kept" "$(grep -c '"type":"incident"' "$b/events.jsonl")" 14
check "kernel lines kept" "$(grep -c '"type":"klog"' "$b/events.jsonl")" 25
grep -q '"id":1000000,' "$b/events.jsonl" &&
	fail "trace records 60 s after the last incident were kept"
echo "ok: $size bytes: $small_usb of $full_usb USB packets; $(grep -c . \
	"$b/events.jsonl") of $(wc -l <"$rec/events.jsonl") events"

# 3. --keep-serials keeps them
bundle keep --keep-serials
check "exit status" "$rc" 0
grep -q "iSerial *$serial" "$work/keep/usbtrail-bundle/devices.txt" ||
	fail "--keep-serials: the serial is not in devices.txt"
echo "ok: --keep-serials keeps $serial"

# 4. a recording whose kernel lines alone (never cut) exceed the limit:
# a clear error, and no file
big=$work/big
mkdir "$big"
python3 - "$big/events.jsonl" <<'PY'
import json, random, sys
random.seed(7)
with open(sys.argv[1], "w") as f:
    for i in range(1, 4001):
        text = "usb 1-1: noise %s" % random.getrandbits(400).to_bytes(50, "big").hex()
        f.write(json.dumps({"id": i, "t": i / 100, "type": "klog",
                            "source": "kmsg", "seq": i, "level": 6,
                            "facility": 0, "text": text}) + "\n")
    f.write(json.dumps({"kind": "disconnect", "dev": "1-1", "t": 20.0,
                        "clock": "boot", "devnum": 2, "line": "usb 1-1: USB disconnect",
                        "evidence": [2000], "id": 4001, "type": "incident",
                        "source": "recorder", "t": 20.0}) + "\n")
PY
echo "+ usbtrail report --bundle big.tar.gz (4000 random kernel lines)"
"$bin" report "$big" --bundle "$work/big.tar.gz" --max-size 64K \
	>"$out/big.out" \
	2>"$out/big.err"
rc=$?
sed 's/^/  /' "$out/big.err"
check "exit status" "$rc" 1
[ -e "$work/big.tar.gz" ] && fail "a failed bundle left big.tar.gz"
grep -q 'over --max-size 1048576\|over --max-size' "$out/big.err" ||
	fail "no clear error: $(cat "$out/big.err")"
echo "ok: refused with a clear message, no file"
ls "$work"/*.tmp.* 2>/dev/null && fail "temporary files left behind"
echo "ok: no temporary file left"
