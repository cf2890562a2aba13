#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The raw-sense parser that the module and the command share
# (module/ut_sense.c) and the ASC/ASCQ table (data/scsi-asc.tsv) decode
# sense buffers as sg3_utils' sg_decode_sense does: real buffers (the test
# bed's, the fixtures') and 3000 random ones of every response code and
# length, fixed and descriptor format, short additional lengths included.
. "$(dirname "$0")/lib.sh"

command -v sg_decode_sense >/dev/null || skip "no sg_decode_sense (sg3-utils)"
tool=$top/userspace/build/tools/utsense
[ -x "$tool" ] || skip "no $tool (make -C userspace tools)"

python3 - "$tool" "$top/data/scsi-asc.tsv" "$out" <<'PY' || fail "see $out/diff.txt"
import random, re, subprocess, sys

tool, table, out = sys.argv[1:4]
codes = []
for line in open(table):
    f = line.rstrip("\n").split("\t")
    if line.startswith("#") or f[0] == "asc_lo":
        continue
    if f[0] == f[1] and f[2] == f[3]:
        codes.append((int(f[0], 16), int(f[2], 16)))

rng = random.Random(20261201)
bufs = [
    # the test bed's medium-not-present write, the field log's sense
    "70 00 02 00 00 00 00 0a 00 00 00 00 3a 00 00 00 00 00",
    "72 02 3a 00 00 00 00 00",
    "f0 00 03 00 00 28 00 0a 00 00 00 00 11 00 00 00 00 00",
    "70 00 06 00 00 00 00 0a 00 00 00 00 29 00 00 00 00 00",
    "72 01 00 1d 00 00 00 0e 09 0c 00 00 00 00 00 00 00 00 00 00 00 50",
    "70 00 0b 00 00 00 00 0a 00 00 00 00 47 03 00 00 00 00",
]
for i in range(3000):
    rc = rng.choice([0x70, 0x71, 0x72, 0x73, 0xf0, 0xf1, 0xf2, 0xf3, 0x7f,
                     rng.randrange(0x74, 0x7f), rng.randrange(0, 0x70)])
    n = rng.choice([1, 2, 3, 8, 12, 13, 14, 18, 20, 24, 32])
    b = [rng.randrange(256) for _ in range(n)]
    b[0] = rc
    asc, ascq = rng.choice(codes) if rng.random() < 0.8 else \
        (rng.randrange(256), rng.randrange(256))
    fixed = (rc & 0x7f) in (0x70, 0x71)
    if n > 7:
        b[7] = rng.choice([0, 3, 5, 6, 10, n - 8, rng.randrange(40)])
    if fixed and n > 13:
        b[12], b[13] = asc, ascq
    elif not fixed and n > 3:
        b[2], b[3] = asc, ascq
        if n >= 20 and rng.random() < 0.5:   # an information descriptor
            b[8:20] = [0, 10, rng.choice([0x80, 0])] + [0] + \
                [rng.randrange(256) for _ in range(8)]
    bufs.append(" ".join("%02x" % x for x in b))

ours = subprocess.run([tool], input="\n".join(bufs) + "\n",
                      capture_output=True, text=True, check=True)
ours = ours.stdout.splitlines()

def sg(h):
    p = subprocess.run(["sg_decode_sense"] + h.split(), capture_output=True,
                       text=True)
    return p.stdout

def norm_sg(text, h):
    # the first line: forwarded sense data nests a decode of its own
    if text.startswith(("Probably uninitialized", "sense buffer too short")):
        return "none", None
    if text.startswith("Vendor specific sense buffer"):
        return "vendor", None
    m = re.search(r"^(Fixed|Descriptor) format, (current|<<<deferred>>>); "
                  r"Sense key: (.*)$", text, re.M)
    if not m:
        return "?", None
    head = "%s %s %s" % (m.group(1).lower(),
                         "current" if m.group(2) == "current" else "deferred",
                         m.group(3).lower())
    asc = None
    a = re.search(r"^Additional sense: (.*)$", text, re.M)
    v = re.search(r"ASC=([0-9a-f]{2}),.*ASCQ=([0-9a-f]{2}) \(hex\)", text)
    if a:
        asc = a.group(1).strip().lower()
    elif v:
        asc = "asc=%s ascq=%s" % (v.group(1), v.group(2))
    # "Valid=0, Info fld=..." is printed and not valid
    info = re.search(r"(?<!Valid=0, )Info fld=0x[0-9a-f]+ \[(\d+)\]", text)
    if not info:
        info = re.search(r"Descriptor type: Information: 0x([0-9a-f]+)", text)
        info = int(info.group(1), 16) if info else None
    else:
        info = int(info.group(1))
    return head, (asc, info)

bad = []
for h, o in zip(bufs, ours):
    head, rest = norm_sg(sg(h), h)
    m = re.match(r"^(\S+ \S+ )(.*?)( \[(.*)\])?( info=(\d+))?$", o)
    # a vendor-specific buffer of less than 4 bytes: "too short" for sg3
    if o == "vendor" and head == "none" and len(h.split()) < 4:
        continue
    if head in ("none", "vendor") or o in ("none", "vendor"):
        if head != o:
            bad.append((h, o, head))
        continue
    key = m.group(2).lower()
    shead = head.rsplit(" ", 2)
    want_key = head.split(" ", 2)[2]
    # a buffer too short to hold the key: sg3_utils says No Sense
    if key == "?" and len(h.split()) <= 2 and want_key == "no sense":
        key = want_key
    ok = (m.group(1) + key) == head
    asc, info = rest
    ours_asc = m.group(4).lower() if m.group(4) else None
    if ours_asc != asc:
        # sg3_utils words the families out ("[0x85]", "(should use 40 nn)"),
        # and names the three codes the kernel calls "Obsolete"
        ok = ok and ours_asc is not None and asc is not None and (
            asc.startswith(ours_asc) or
            (ours_asc == "obsolete" and asc.endswith("(obs)")))
    ours_info = int(m.group(6)) if m.group(6) else None
    if ours_info != info:
        ok = False
    if not ok:
        bad.append((h, o, "%s %s" % (head, rest)))
with open(out + "/diff.txt", "w") as f:
    for b in bad:
        f.write("bytes: %s\n  usbtrail:        %s\n  sg_decode_sense: %s\n" % b)
print("%d buffers, %d decoded differently" % (len(bufs), len(bad)))
sys.exit(1 if bad else 0)
PY
echo "PASS: sense decoding agrees with sg_decode_sense"
