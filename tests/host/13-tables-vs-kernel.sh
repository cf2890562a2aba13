#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The data tables that copy the kernel, checked against the kernel's
# source: data/xhci-cc.tsv (every code's name as
# xhci_trb_comp_code_string() prints it, and its COMP_* define) and
# data/unusual-uas.tsv (every UNUSUAL_DEV entry of unusual_uas.h and every
# IGNORE_UAS entry of unusual_devs.h, with their flags, no more, no less),
# and module/ut_tables.h: its completion codes and TRB types (each row the
# value of the kernel's COMP_* or TRB_* define of that name), its error
# handlers (every eh_*_handler of uas's and usb-storage's host templates
# in each tree is a row, and every row is the handler of some tree).
# Sources: the trees under $USBTRAIL_KSRC (default /var/cache/usbtrail/src,
# linux-5.10 ... linux-7.3) when there, else the few files taken out of
# Debian's linux-source-6.1 tarball, which tools/deps.sh installs.
. "$(dirname "$0")/lib.sh"

ksrc=${USBTRAIL_KSRC:-/var/cache/usbtrail/src}
files="drivers/usb/host/xhci.h drivers/usb/storage/unusual_uas.h
	drivers/usb/storage/unusual_devs.h drivers/usb/storage/uas.c
	drivers/usb/storage/scsiglue.c"
trees=
for d in "$ksrc"/linux-*/; do
	[ -f "$d/drivers/usb/host/xhci.h" ] && trees="$trees ${d%/}"
done
if [ -z "$trees" ]; then
	tarball=/usr/src/linux-source-6.1.tar.xz
	[ -f "$tarball" ] || skip "no kernel source ($ksrc/linux-*, $tarball)"
	mkdir -p "$work/src"
	pats=
	for f in $files; do pats="$pats */$f"; done
	# shellcheck disable=SC2086
	tar -C "$work/src" -xJf "$tarball" --wildcards $pats ||
		fail "cannot extract $files from $tarball"
	trees=$(ls -d "$work"/src/linux-source-*)
fi

# shellcheck disable=SC2086
python3 - "$top/data" "$top/module/ut_tables.h" $trees >"$out/check.txt" <<'PY' ||
import os, re, sys

data, tables, trees = sys.argv[1], sys.argv[2], sys.argv[3:]


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


def nocomments(text):
    return re.sub(r"/\*.*?\*/", " ", text, flags=re.S)


bad = 0


def complain(msg):
    global bad
    bad += 1
    print("FAIL: " + msg)


def xmacro(name):
    """The rows of X-macro list `name` of ut_tables.h, as argument strings"""
    text = nocomments(open(tables, encoding="utf-8").read())
    m = re.search(r"#define\s+%s\(X\)((?:.*\\\n)*.*)" % name, text)
    if not m:
        complain("ut_tables.h: no %s()" % name)
        return []
    body = m.group(1).replace("\\\n", " ")
    return [[a.strip().strip('"') for a in r.split(",")]
            for r in re.findall(r"X\(([^)]*)\)", body)]


cc = list(rows(os.path.join(data, "xhci-cc.tsv")))
eh_rows = set((r[0], r[1]) for r in xmacro("UT_EH_HANDLERS"))
hdr_defs = [(int(r[0]), "COMP_" + r[1]) for r in xmacro("UT_XHCI_CC")] + \
    [(int(r[0]), "TRB_" + r[1]) for r in xmacro("UT_XHCI_TRB_TYPES")]
eh_seen = set()
uas = list(rows(os.path.join(data, "unusual-uas.tsv")))
entry = re.compile(
    r'UNUSUAL_DEV\(\s*0x([0-9a-fA-F]{4}),\s*0x([0-9a-fA-F]{4}),\s*'
    r'0x([0-9a-fA-F]{4}),\s*0x([0-9a-fA-F]{4}),\s*"([^"]*)",\s*"([^"]*)",'
    r'[^,]*,[^,]*,[^,]*,([^)]*)\)', re.S)

for tree in trees:
    name = os.path.basename(tree)
    xhci = open(os.path.join(tree, "drivers/usb/host/xhci.h"),
                encoding="utf-8").read()
    defs = {int(v): k for k, v in
            re.findall(r"#define\s+(COMP_\w+)\s+(\d+)\s*$", xhci, re.M)}
    m = re.search(r"xhci_trb_comp_code_string\(u8 status\)\s*\{(.*?)\n\}",
                  xhci, re.S)
    if not m:
        complain("%s: no xhci_trb_comp_code_string()" % name)
        continue
    kdefs = dict((k, int(v)) for k, v in
                 re.findall(r"#define\s+((?:COMP|TRB)_\w+)\s+(\d+)\s*$",
                            nocomments(xhci), re.M))
    for value, define in hdr_defs:
        if kdefs.get(define) != value:
            complain("%s: ut_tables.h has %s %d, xhci.h %s" %
                     (name, define, value, kdefs.get(define)))
    names = dict(re.findall(r'case (COMP_\w+):\s*return "([^"]*)";',
                            m.group(1)))
    seen = set()
    for r in cc:
        code = int(r["code"])
        seen.add(code)
        define = defs.get(code)
        if not define or define not in r["source"]:
            complain("%s: code %d is %s, the row cites %r" %
                     (name, code, define, r["source"]))
        elif names.get(define) != r["name"]:
            complain("%s: code %d: xhci_trb_comp_code_string() says %r, "
                     "the row %r" % (name, code, names.get(define),
                                     r["name"]))
        if r["error"] not in ("yes", "no"):
            complain("code %d: error column %r" % (code, r["error"]))
    for code in sorted(set(defs) - seen):
        if code < 64:
            complain("%s: %s (%d) is not in xhci-cc.tsv" %
                     (name, defs[code], code))

    want = set()
    for hdr, only_ignore in (("unusual_uas.h", False),
                             ("unusual_devs.h", True)):
        text = nocomments(open(os.path.join(tree, "drivers/usb/storage",
                                            hdr), encoding="utf-8").read())
        for e in entry.findall(text):
            flags = sorted(f[6:] for f in re.findall(r"US_FL_\w+", e[6]))
            if only_ignore and "IGNORE_UAS" not in flags:
                continue
            want.add((e[0].lower(), e[1].lower(), e[2].lower(),
                      e[3].lower(), e[4], e[5], "|".join(flags), hdr))
    have = set((r["vid"], r["pid"], r["bcd_min"], r["bcd_max"], r["vendor"],
                r["product"], "|".join(sorted(r["flags"].split("|"))),
                r["table"]) for r in uas)
    for e in sorted(want - have):
        complain("%s: %s entry %s:%s %s-%s %r %r %s is not in "
                 "unusual-uas.tsv" % (name, e[7], e[0], e[1], e[2], e[3],
                                      e[4], e[5], e[6]))
    for e in sorted(have - want):
        complain("%s: unusual-uas.tsv row %s:%s %s-%s %s (%s) is not in "
                 "the kernel's %s" % (name, e[0], e[1], e[2], e[3], e[6],
                                      e[4], e[7]))

    neh = 0
    for src, mod in (("uas.c", "uas"), ("scsiglue.c", "usb_storage")):
        text = nocomments(open(os.path.join(tree, "drivers/usb/storage",
                                            src), encoding="utf-8").read())
        for slot, fn in re.findall(r"\.(eh_\w+_handler)\s*=\s*(\w+)", text):
            neh += 1
            eh_seen.add((mod, fn))
            if (mod, fn) not in eh_rows:
                complain("%s: %s's %s %s is not in UT_EH_HANDLERS()" %
                         (name, src, slot, fn))
    print("%s: %d codes, %d quirk entries, %d ut_tables.h constants, "
          "%d error handlers checked" % (name, len(cc), len(want),
                                         len(hdr_defs), neh))
for mod, fn in sorted(eh_rows - eh_seen):
    complain("UT_EH_HANDLERS() row %s:%s is the handler of none of %s" %
             (mod, fn, " ".join(os.path.basename(t) for t in trees)))
sys.exit(1 if bad else 0)
PY
	{ cat "$out/check.txt"; fail "the tables differ from the kernel"; }
cat "$out/check.txt"
