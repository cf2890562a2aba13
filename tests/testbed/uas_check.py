#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check the outputs of tests/testbed/guest/uas-verdicts.sh field by field.

    uas_check.py boot|cmdline OUTDIR

Prints one "ok:" line per check and exits 1 at the first failure.
"""
import json
import os
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def ok(msg):
    print("ok: " + msg)


def env(outdir):
    e = {}
    with open(os.path.join(outdir, "env.txt")) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            e[k] = v
    return e


def load(path, skip_lines=0):
    with open(path) as f:
        text = f.read()
    lines = text.split("\n")
    try:
        data = json.loads("\n".join(lines[skip_lines:]))
    except ValueError as e:
        fail("%s is not valid JSON: %s" % (path, e))
    if not isinstance(data, list):
        fail("%s: top level is not an array" % path)
    keys = {"usb", "block", "vid", "pid", "speed", "driver", "uas_capable",
            "uas_active", "reason", "detail", "descriptors", "quirks", "hcd"}
    for o in data:
        if set(o) != keys:
            fail("%s: keys %s, expected exactly %s"
                 % (path, sorted(o), sorted(keys)))
    ok("%s: valid JSON, %d objects with exactly the issue's fields"
       % (os.path.basename(path), len(data)))
    return data


def find(data, e, name):
    usb = e["TESTBED_%s_USB" % name]
    for o in data:
        if o["usb"] == usb:
            return o
    fail("no object with usb %s (%s)" % (usb, name))


def expect(o, what, **fields):
    for k, v in fields.items():
        if k.startswith("detail_"):
            got = o["detail"][k[7:]]
        elif k.startswith("hcd_"):
            got = o["hcd"][k[4:]]
        else:
            got = o[k]
        if got != v:
            fail("%s: %s is %r, expected %r" % (what, k, got, v))
        ok("%s: %s = %r" % (what, k, v))


def expect_in(text, part, what):
    if part not in text:
        fail("%s: %r not in %r" % (what, part, text))
    ok("%s: says %r" % (what, part))


def quirk(o, what, flag, letter, source, entry):
    for q in o["quirks"]:
        if q["flag"] == flag:
            if q["letter"] != letter or source not in q["source"] or \
                    q["entry"] != entry:
                fail("%s: quirk %r" % (what, q))
            ok("%s: quirk %s ('%s') from %s, entry %s"
               % (what, flag, letter, q["source"], entry))
            return
    fail("%s: no quirk %s in %r" % (what, flag, o["quirks"]))


def rc(outdir, name, want):
    with open(os.path.join(outdir, name + ".rc")) as f:
        got = int(f.read().strip())
    if got != want:
        fail("%s: exit status %d, expected %d" % (name, got, want))
    ok("%s: exit status %d" % (name, want))


def common(data, e, what):
    bot = find(data, e, "BOT")
    expect(bot, what + " bot", reason="no-uas-altsetting", vid="46f4",
           pid="0001", speed=5000, driver="usb-storage", uas_capable=False,
           uas_active=False, block=os.path.basename(e["TESTBED_BOT"]))


def hs_active(data, e, what):
    hs = find(data, e, "UAS_HS")
    expect(hs, what + " uas-hs", reason="active", speed=480, driver="uas",
           uas_capable=True, uas_active=True, detail_streams=False,
           hcd_driver="ehci-pci",
           block=os.path.basename(e["TESTBED_UAS_HS"]))
    expect_in(hs["detail"]["why"], "UAS without streams", what + " uas-hs")


def boot(outdir):
    e = env(outdir)
    before = load(os.path.join(outdir, "before.json"))
    rc(outdir, "before", 0)
    uas = find(before, e, "UAS")
    expect(uas, "before uas", reason="active", vid="46f4", pid="0003",
           speed=5000, driver="uas", uas_capable=True, uas_active=True,
           quirks=[], detail_streams=True, hcd_driver="xhci_hcd",
           hcd_sg=True, hcd_streams=True,
           block=os.path.basename(e["TESTBED_UAS"]))
    common(before, e, "before")
    hs_active(before, e, "before")

    user = load(os.path.join(outdir, "user.json"), skip_lines=1)
    with open(os.path.join(outdir, "user.json")) as f:
        uid = f.readline().strip()
    if uid != "65534":
        fail("user run had uid %s" % uid)
    rc(outdir, "user", 0)
    for name in ("UAS", "BOT", "UAS_HS"):
        a, b = find(before, e, name), find(user, e, name)
        expect(b, "as nobody " + name, reason=a["reason"],
               driver=a["driver"], speed=a["speed"])

    nodesc = load(os.path.join(outdir, "user-nodesc.json"))
    rc(outdir, "user-nodesc", 0)
    bot = find(nodesc, e, "BOT")
    d = bot["detail"]
    expect(bot, "bot, descriptors unreadable", reason="unknown")
    if not any("descriptors" in u for u in d["unreadable"]):
        fail("unreadable descriptors not said: %r" % d["unreadable"])
    ok("bot: says it could not read: %r" % d["unreadable"])
    if bot["descriptors"]["configurations"]:
        fail("bot: configurations without descriptors")
    ok("bot: no configurations shown without descriptors")

    descriptors(before, user, e, outdir)

    rc(outdir, "missing", 1)
    with open(os.path.join(outdir, "missing.err")) as f:
        expect_in(f.read(), "usbtrail uas: sdzz: no such device",
                  "missing device")

    after = load(os.path.join(outdir, "after.json"))
    rc(outdir, "after", 0)
    uas = find(after, e, "UAS")
    expect(uas, "after uas", reason="quirk-ignore-uas", uas_capable=True,
           uas_active=False, speed=5000)
    if uas["driver"] == "uas":
        fail("after uas: still bound to uas")
    quirk(uas, "after uas", "IGNORE_UAS", "u", "module parameter",
          "46f4:0003:u")
    expect_in(uas["detail"]["why"], "46f4:0003:u", "after uas")
    common(after, e, "after")
    hs_active(after, e, "after")


def bos_bytes(outdir, name):
    """The BOS a bare usbfs GET_DESCRIPTOR read in the guest (utbos)."""
    with open(os.path.join(outdir, "bos-%s.hex" % name)) as f:
        text = f.read().strip()
    if not text:
        with open(os.path.join(outdir, "bos-%s.err" % name)) as f:
            fail("utbos %s: %s" % (name, f.read().strip()))
    return bytes(int(x, 16) for x in text.split())


def bos_caps(raw):
    """Capability type -> its bytes, walked here, not by usbtrail's code."""
    if len(raw) < 5 or raw[1] != 0x0f:
        fail("not a BOS: %s" % raw.hex())
    caps, off = {}, raw[0]
    while off + 3 <= len(raw) and raw[off] >= 3:
        caps[raw[off + 2]] = raw[off:off + raw[off]]
        off += raw[off]
    return caps


def check_bos(o, outdir, name, what, qemu_speeds):
    raw = bos_bytes(outdir, name)
    caps = bos_caps(raw)
    b = o["descriptors"]["bos"]
    if b is None:
        fail("%s: no BOS shown; usbfs read %s" % (what, raw.hex()))
    if b["from"] not in ("usbfs", "sysfs"):
        fail("%s: BOS from %r" % (what, b["from"]))
    if os.path.exists(os.path.join(outdir, "bos-sysfs-%s.bin" % name)):
        with open(os.path.join(outdir, "bos-sysfs-%s.bin" % name), "rb") as f:
            if f.read() != raw:
                fail("%s: sysfs bos_descriptors differ from usbfs" % what)
        want_from = "sysfs"
    else:
        want_from = "usbfs"
    ss, ext = caps.get(0x03), caps.get(0x02)
    if ss is None or ext is None:
        fail("%s: QEMU's BOS without SuperSpeed or USB 2.0 caps: %s"
             % (what, raw.hex()))
    speeds = [n for i, n in enumerate(("low", "full", "high", "super"))
              if (ss[4] | ss[5] << 8) & (1 << i)]
    want = {"from": want_from, "superspeed": True,
            "lpm": bool(ext[3] & 2), "besl": bool(ext[3] & 4),
            "u1_exit_lat_us": ss[7], "u2_exit_lat_us": ss[8] | ss[9] << 8,
            "ltm": bool(ss[3] & 2), "speeds": speeds}
    for k, v in want.items():
        if b[k] != v:
            fail("%s: bos %s is %r, the device says %r (%s)"
                 % (what, k, b[k], v, raw.hex()))
    ok("%s: BOS from %s as the device sends it (%s): %s" % (what, b["from"],
       raw.hex(), ", ".join("%s=%r" % kv for kv in sorted(want.items()))))
    # hw/usb/desc.c: usb_desc_cap_super(), usb_desc_cap_usb2_ext(); the
    # speeds are those the device model has descriptors for
    if (b["u1_exit_lat_us"], b["u2_exit_lat_us"], b["lpm"],
            b["speeds"]) != (10, 32, True, qemu_speeds):
        fail("%s: not QEMU's U1 10 us, U2 32 us, LPM, %r: %r"
             % (what, qemu_speeds, b))
    ok("%s: QEMU's U1 exit 10 us, U2 exit 32 us, LPM, speeds %r"
       % (what, qemu_speeds))


def check_config(o, outdir, name, what, transports, pipes):
    d = o["descriptors"]
    cfgs = d["configurations"]
    if len(cfgs) != 1 or not cfgs[0]["active"]:
        fail("%s: configurations %r" % (what, cfgs))
    alts = cfgs[0]["altsettings"]
    got = [a["transport"] for a in alts]
    if got != transports:
        fail("%s: alt settings %r, expected %r" % (what, got, transports))
    ok("%s: one active configuration, alt settings %r" % (what, got))
    for a in alts:
        if a["transport"] == "uas":
            p = sorted(x["pipe"] for x in a["endpoints"])
            if p != sorted(pipes):
                fail("%s: UAS pipes %r" % (what, p))
            ok("%s: UAS alt %d with pipes %r" % (what, a["alt"], p))
        if a["transport"] == "bot":
            t = [x["type"] for x in a["endpoints"]]
            if t != ["bulk", "bulk"]:
                fail("%s: Bulk-Only endpoints %r" % (what, t))
            ok("%s: Bulk-Only alt %d, two bulk endpoints" % (what, a["alt"]))
    with open(os.path.join(outdir, "config-%s.txt" % name)) as f:
        kernel = f.read().strip()
    if d["strings_from"] != "usbfs" or cfgs[0]["string"] != (kernel or None):
        fail("%s: configuration string %r (from %r), the kernel has %r"
             % (what, cfgs[0]["string"], d["strings_from"], kernel))
    ok("%s: configuration string %r through usbfs, as sysfs has it"
       % (what, kernel))


def descriptors(before, user, e, outdir):
    uas, bot = find(before, e, "UAS"), find(before, e, "BOT")
    # dev-uas.c has high and super descriptors, dev-storage.c full too
    check_bos(uas, outdir, "UAS", "before uas", ["high", "super"])
    check_bos(bot, outdir, "BOT", "before bot", ["full", "high", "super"])
    check_config(uas, outdir, "UAS", "before uas", ["uas"],
                 ["command", "data-in", "data-out", "status"])
    check_config(bot, outdir, "BOT", "before bot", ["bot"], [])
    with open(os.path.join(outdir, "before.txt")) as f:
        text = f.read()
    expect_in(text, "U1 exit 10 us, U2 exit 32 us", "before text")
    expect_in(text, "alt 0: class 08/06/62 (UAS), 4 endpoints", "before text")
    expect_in(text, "alt 0: class 08/06/50 (Bulk-Only), 2 endpoints",
              "before text")
    # as nobody: usbfs needs write access; said, and sysfs still serves
    for name in ("UAS", "BOT"):
        o = find(user, e, name)
        d = o["detail"]
        if o["descriptors"]["bos"] is None and \
                not any(u.startswith("usbfs ") for u in d["unreadable"]):
            fail("as nobody %s: no BOS and nothing said: %r"
                 % (name, d["unreadable"]))
        if not o["descriptors"]["configurations"]:
            fail("as nobody %s: no configurations" % name)
        ok("as nobody %s: configurations from sysfs; usbfs: %r"
           % (name, [u for u in d["unreadable"] if u.startswith("usbfs")]))


def cmdline(outdir):
    e = env(outdir)
    data = load(os.path.join(outdir, "cmdline.json"))
    rc(outdir, "cmdline", 0)
    for name in ("UAS", "UAS_HS"):
        o = find(data, e, name)
        expect(o, "cmdline " + name, reason="quirk-ignore-uas",
               uas_capable=True, uas_active=False)
        quirk(o, "cmdline " + name, "IGNORE_UAS", "u",
              "kernel command line", "46f4:0003:u")
        expect_in(o["detail"]["next_step"], "remove 46f4:0003:u",
                  "cmdline " + name)
    common(data, e, "cmdline")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("boot", "cmdline"):
        print(__doc__)
        sys.exit(2)
    {"boot": boot, "cmdline": cmdline}[sys.argv[1]](sys.argv[2])
