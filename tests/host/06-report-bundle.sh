#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usbtrail report --bundle over a recording of the test bed: the tar.gz
# holds every file its README names, stays within --max-size (a small
# limit forces the capture and the trace records to be cut around the
# incidents; one too small fails cleanly), tshark opens its capture, the
# device's serial appears nowhere (hashed) unless --keep-serials, and URB
# data is gone (the recording was not made with --payload on purpose).
# A recording whose meta.json and kernel lines (events and the capture's
# journal blocks) name a host, a user, addresses and ids: none of them is
# left in any file of the bundle, each value has one token in all of
# them, the JSON and the capture still parse, the README counts what was
# replaced; with --keep-ids all of it stays.
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

# 5. hostnames, user names, addresses and ids: a copy of the recording
# whose meta.json names its host and whose kernel lines (six klog events
# near the first incident, and the same lines as journal blocks of the
# capture, with _HOSTNAME and _MACHINE_ID fields and one field in the
# binary form) carry a MAC, IPv4 and IPv6 addresses, a home directory, the
# hostname and a machine id
command -v jq >/dev/null || skip "no jq (tools/deps.sh installs it)"
host=alice-laptop user=alice ip4=192.168.17.42 ip6=2a02:8070:d181:5c00::1f
mac=3c:7c:3f:1e:aa:42 mid=4f8b2c1d9e7a4b6c8d0e1f2a3b4c5d6e
boot=38b157d7-26e0-466a-9031-2e8d5c9867ce
boot32=$(printf %s "$boot" | tr -d -)
rec=$work/ids
cp -r "$top/tests/fixtures/recordings/uas-medium-stall" "$rec"
python3 - "$rec" "$host" "$user" "$ip4" "$ip6" "$mac" "$mid" <<'PY'
import json, struct, sys
d, host, user, ip4, ip6, mac, mid = sys.argv[1:]
meta = json.load(open(d + "/meta.json"))
meta["kernel"]["hostname"] = host
json.dump(meta, open(d + "/meta.json", "w"), indent=2)
lines = [
    "r8169 0000:02:00.0 eth0: RTL8168h/8111h, %s, XID 541, IRQ 35" % mac,
    "nfs: server %s not responding, still trying" % ip4,
    "IPv6: eth0: address %s scope global" % ip6,
    "audit: type=1400 apparmor=\"DENIED\" name=\"/home/%s/.cache/x\"" % user,
    "systemd[1]: Hostname set to <%s>." % host,
    "systemd[1]: machine id %s" % mid,
]
with open(d + "/events.jsonl", "a") as f:
    for i, text in enumerate(lines):
        f.write(json.dumps({"id": 900000 + i, "t": 16.3501 + i / 1e4,
                            "type": "klog", "source": "kmsg", "bus": None,
                            "devnum": None, "seq": 9000 + i, "level": 6,
                            "facility": 0, "text": text},
                           separators=(",", ":")) + "\n")

def field(name, value):
    value = value.encode()
    if b"\n" in value:
        return name.encode() + b"\n" + struct.pack("<Q", len(value)) + \
            value + b"\n"
    return name.encode() + b"=" + value + b"\n"

with open(d + "/capture.pcapng", "ab") as f:
    for i, text in enumerate(lines):
        e = field("__REALTIME_TIMESTAMP", str(1796005789178983 + i))
        e += field("__MONOTONIC_TIMESTAMP", str(16350100 + i))
        e += field("_BOOT_ID", meta["boot_id"].replace("-", ""))
        e += field("MESSAGE", text)
        e += field("_HOSTNAME", host)
        e += field("_MACHINE_ID", mid)
        if i == 1:
            e += field("USBTRAIL_NOTE", "from %s\nto %s" % (ip4, ip6))
        e += b"\n"
        e += b"\0" * (-len(e) % 4)
        f.write(struct.pack("<II", 9, 12 + len(e)) + e +
                struct.pack("<I", 12 + len(e)))
PY
# originals FILE...: which of the values FILEs still hold
originals() {
	for v in "$host" "$user" "$ip4" "$ip6" "$mac" "$mid" "$boot" \
		"$boot32"; do
		grep -qaF -e "$v" "$@" && echo "$v"
	done
}
[ "$(originals "$rec/events.jsonl" "$rec/capture.pcapng" \
	"$rec/meta.json" | wc -l)" -eq 8 ] || fail "the fixture lacks a value"
bundle ids
check "exit status" "$rc" 0
b=$work/ids/usbtrail-bundle
left=$(cd "$b" && originals ./* | tr '\n' ' ')
[ -z "$left" ] || fail "left in the bundle: $left"
left=$(strings -n 4 "$b/capture.pcapng" | originals - | tr '\n' ' ')
[ -z "$left" ] || fail "left in the capture's strings: $left"
grep -q "$serial" "$b"/* && fail "the serial is in the bundle"
echo "ok: no hostname, user, address or id of the recording is left"

# every file parses as what it is
jq -e . "$b/meta.json" "$b/uas-verdicts.json" >/dev/null ||
	fail "meta.json or uas-verdicts.json is not JSON"
jq -ce . "$b/events.jsonl" >/dev/null || fail "events.jsonl is not JSON"
capture_ok "$b" >/dev/null
capinfos "$b/capture.pcapng" >"$out/capinfos.txt" 2>&1 ||
	fail "capinfos: $(tail -n 3 "$out/capinfos.txt")"
n=$(tshark -r "$b/capture.pcapng" -Y systemd_journal 2>/dev/null | wc -l)
[ "$n" -ge 6 ] || fail "tshark reads $n journal entries"
echo "ok: JSON, and a capture tshark and capinfos read ($n journal entries)"

# one token a value, in every file: each added kernel line reads the
# same in events.jsonl, kernel-log.txt and the capture's journal blocks
jq -r 'select(.id >= 900000) | .text' "$b/events.jsonl" >"$out/lines.txt"
check "lines kept" "$(wc -l <"$out/lines.txt")" 6
strings -n 4 "$b/capture.pcapng" >"$out/strings.txt"
while IFS= read -r l; do
	grep -qF -e "$l" "$b/kernel-log.txt" ||
		fail "kernel-log.txt lacks: $l"
	grep -qxF -e "MESSAGE=$l" "$out/strings.txt" ||
		fail "the capture lacks: $l"
done <"$out/lines.txt"
grep -qx 'systemd\[1\]: Hostname set to <host1>.' "$out/lines.txt" ||
	fail "the hostname's token is not host1"
check "meta.json hostname" "$(jq -r .kernel.hostname "$b/meta.json")" host1
check "capture _HOSTNAME" "$(grep -c '^_HOSTNAME=host1$' \
	"$out/strings.txt")" 6
tboot=$(jq -r .boot_id "$b/meta.json")
grep -qx "_BOOT_ID=$(printf %s "$tboot" | tr -d -)" "$out/strings.txt" ||
	fail "the capture's _BOOT_ID is not meta.json's $tboot"
tmid=$(sed -n 's/^systemd\[1\]: machine id //p' "$out/lines.txt")
check "capture _MACHINE_ID" "$(grep -c "^_MACHINE_ID=$tmid\$" \
	"$out/strings.txt")" 6
grep -q "to 2001:db8::" "$out/strings.txt" ||
	fail "the binary journal field was not scrubbed"
echo "ok: one token a value: host1, boot id $tboot, machine id $tmid"

# the README counts what was replaced: as many as the tokens in the files
# readme_count CLASS: the README's count of CLASS
readme_count() {
	sed -n "s/^  $1: \([0-9]*\) .*/\1/p" "$b/README.txt"
}
# tokens TOKEN...: how often the files but the README hold them
tokens() {
	n=0
	for t in "$@"; do
		k=$(cd "$b" && cat ./report.txt ./report.html ./capture.pcapng \
			./usbmon-1u.txt ./events.jsonl ./kernel-log.txt \
			./devices.txt ./uas-verdicts.json ./kernel.txt \
			./meta.json | grep -aowF -e "$t" | wc -l)
		n=$((n + k))
	done
	echo "$n"
}
check "README: hostnames" "$(readme_count hostnames)" "$(tokens host1)"
check "README: user names" "$(readme_count 'user names')" "$(tokens user1)"
check "README: IPv4" "$(readme_count 'IPv4 addresses')" \
	"$(tokens 192.0.2.1)"
check "README: IPv6" "$(readme_count 'IPv6 addresses')" \
	"$(tokens 2001:db8::1)"
check "README: MAC" "$(readme_count 'MAC addresses')" \
	"$(tokens 02:00:00:00:00:01)"
check "README: boot ids" "$(readme_count 'boot ids')" \
	"$(tokens "$tboot" "$(printf %s "$tboot" | tr -d -)")"
check "README: machine ids" \
	"$(readme_count 'machine and other 128-bit ids')" "$(tokens "$tmid")"
grep -q "$host\|$ip4\|$mac" "$b/README.txt" &&
	fail "the README shows an original value"
[ "$(readme_count hostnames)" -gt 0 ] || fail "no hostname counted"

# 6. --keep-ids keeps every one of them
bundle keepids --keep-ids
check "exit status" "$rc" 0
b=$work/keepids/usbtrail-bundle
check "originals kept" "$(cd "$b" && originals ./* | wc -l)" 8
grep -q 'kept as recorded (--keep-ids)' "$b/README.txt" ||
	fail "README: --keep-ids not said"
grep -q "$serial" "$b"/* && fail "--keep-ids kept the serial"
echo "ok: --keep-ids keeps them, and the serial still goes"
