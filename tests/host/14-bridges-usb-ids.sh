#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# data/bridges.tsv against usb.ids (Debian's usb.ids package,
# /usr/share/misc/usb.ids) and against the kernel's names in
# data/unusual-uas.tsv: each row's usb_ids column is the product name
# usb.ids gives the VID:PID ("-" where it has none), and where usb.ids or
# the kernel calls the chip otherwise, the chip column says so.
. "$(dirname "$0")/lib.sh"

ids=${USB_IDS:-/usr/share/misc/usb.ids}
[ -r "$ids" ] || skip "no $ids (apt-get install usb.ids)"

python3 - "$ids" "$top/data/bridges.tsv" "$top/data/unusual-uas.tsv" \
	>"$out/check.txt" <<'PY' || { cat "$out/check.txt"; fail "see above"; }
import sys

ids_path, bridges, unusual = sys.argv[1:4]


def rows(path):
    head = None
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        if head is None:
            head = f
            continue
        yield dict(zip(head, f))


# usb.ids: "VVVV  vendor", then "\tPPPP  product"; classes etc. after "C "
names = {}
vendor = None
for line in open(ids_path, encoding="utf-8", errors="replace"):
    if line.startswith("#") or not line.strip():
        continue
    if line.startswith("C "):
        break
    if not line.startswith("\t"):
        vendor = line[:4].lower()
    elif not line.startswith("\t\t") and vendor:
        names[(vendor, line[1:5].lower())] = line[7:].rstrip("\n")

kernel = {}
for r in rows(unusual):
    if r["table"] == "unusual_uas.h":
        kernel[(r["vid"], r["pid"])] = r["product"]

bad = 0
n = 0
for r in rows(bridges):
    n += 1
    key = (r["vid"], r["pid"])
    chip, want = r["chip"], names.get(key, "-")
    what = "%s:%s %s" % (key[0], key[1], chip)
    if r["usb_ids"] != want:
        print("%s: usb_ids column %r, usb.ids says %r" %
              (what, r["usb_ids"], want))
        bad += 1
    model = chip.split()[1]
    if want == "-":
        if "not in usb.ids" not in chip:
            print("%s: usb.ids has no name; the chip column must say so"
                  % what)
            bad += 1
    elif not all(m in want for m in model.split("/")) and \
            "usb.ids" not in chip:
        print("%s: usb.ids says %r; the chip column must name it" %
              (what, want))
        bad += 1
    k = kernel.get(key)
    if k and k.split()[0] not in chip:
        print("%s: unusual_uas.h says %r; the chip column must name it" %
              (what, k))
        bad += 1
    print("ok: %s" % what)
if not n:
    print("no rows in %s" % bridges)
    bad += 1
sys.exit(1 if bad else 0)
PY
echo "$(grep -c '^ok:' "$out/check.txt") rows of data/bridges.tsv agree with $ids"
