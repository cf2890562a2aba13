#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""What 55-arm64-same compares between an x86-64 and an arm64 run: one
line per fact (usbtrail.ko's probes and records, usbtrail analyze's
incidents, usbtrail uas's verdicts, usbtrail stress's error), disks by their role (uas, bot), no times, counts or
addresses, sorted.  Usage: arch_same.py DIR (what the guest left in DIR,
and DIR/analyze.jsonl: usbtrail analyze --json of its console.log)."""

import json
import os
import re
import sys


def main(d):
    role = {}
    with open(os.path.join(d, "disks.txt")) as f:
        for line in f:
            r, disk = line.split()
            role[disk] = r
    out = set()

    def disk(name):
        return role.get(name, "other" if name else "-")

    # usbtrail.ko's records: which kinds came, and the facts of each fault
    with open(os.path.join(d, "records.txt")) as f:
        for line in f:
            w = line.split()
            if len(w) < 3:
                continue
            kind = w[2]
            kv = dict(x.split("=", 1) for x in w[3:] if "=" in x)
            out.add(f"record-kind {kind}")
            dn = disk(kv.get("disk"))
            if kind == "scsi-done" and "sense" in kv:
                out.add(f"record scsi-done {dn} op={kv.get('op')} "
                        f"lba={kv.get('lba')} sense={kv['sense']}")
            elif kind == "scsi-sense":
                out.add(f"record scsi-sense bytes={kv.get('bytes')}")
            elif kind == "blk-complete" and kv.get("error", "0") != "0":
                out.add(f"record blk-complete {dn} "
                        f"sector={kv.get('sector')} error={kv['error']}")
            elif kind == "scsi-timeout":
                out.add(f"record scsi-timeout {dn}")
            elif kind in ("eh-start", "eh-end"):
                out.add(f"record {kind} kind={kv.get('kind')} "
                        f"driver={kv.get('driver')}"
                        + (f" {dn}" if "disk" in kv else "")
                        # an abort's result depends on whether the
                        # command completed meanwhile: timing, not arch
                        + (f" result={kv['result']}" if "result" in kv
                           and kv.get("kind") != "abort" else ""))
            elif kind == "xhci-command" and kv.get("trb") == "17":
                out.add(f"record xhci-command reset-device "
                        f"cc={kv.get('cc')}")

    # usbtrail.ko's probes: which attached, which are another kernel's
    # name of a handler (alias)
    with open(os.path.join(d, "probes.txt")) as f:
        for line in f:
            kv = dict(x.split("=", 1) for x in line.split() if "=" in x)
            if "probe" in kv:
                out.add(f"probe {kv['probe']} kind={kv.get('kind')} "
                        f"state={kv.get('state')}")

    # usbtrail analyze's incidents
    with open(os.path.join(d, "analyze.jsonl")) as f:
        for line in f:
            j = json.loads(line)
            if j.get("summary"):
                for dev in j.get("devices", []):
                    out.add(f"analyze device {disk(dev.get('disk'))} "
                            f"driver={dev.get('driver')} "
                            f"vid_pid={dev.get('vid_pid')} "
                            f"link_mbps={dev.get('link_mbps')}")
                continue
            # A command retried after the device reset can time out once
            # more while the stall lasts (a guest that resets a little
            # later): a second reset of the same scenario, with its zap of
            # the pending command. The kinds are compared, not how many
            # times each came, nor whether a repeat joined the chain.
            if j.get("kind") == "io-error" and j.get("sector") is None \
                    and j.get("row") == "uas-zap":
                continue
            fact = f"analyze {j.get('kind')} {disk(j.get('disk'))}"
            if j.get("kind") == "sense":
                fact += (f" key={j.get('key')} asc={j.get('asc')} "
                         f"ascq={j.get('ascq')} op={j.get('opcode')} "
                         f"lba={j.get('lba')} sector={j.get('sector')}")
            elif j.get("kind") == "io-error":
                fact += f" sector={j.get('sector')}"
            out.add(fact + (" chain" if j.get("chain") is not None else ""))

    # usbtrail uas --json: each enclosure's verdict
    with open(os.path.join(d, "uas.json")) as f:
        for u in json.load(f):
            det = u.get("detail") or {}
            out.add(f"uas {disk(u.get('block'))} driver={u.get('driver')} "
                    f"speed={u.get('speed')} "
                    f"capable={u.get('uas_capable')} "
                    f"active={u.get('uas_active')} "
                    f"reason={u.get('reason')} "
                    f"streams={det.get('streams')} "
                    f"max_streams={det.get('max_streams')}")

    # usbtrail stress's error
    with open(os.path.join(d, "stress.json")) as f:
        s = json.load(f)
    for e in s.get("errors", []):
        out.add(f"stress error op={e.get('op')} offset={e.get('offset')} "
                f"errno={e.get('errno')}")
    out.add(f"stress result={s.get('result')}")

    # a repeat outside the chain of a kind the chain has is the same fact
    out = {f for f in out
           if not (f.startswith("analyze ") and f + " chain" in out)}
    for line in sorted(out):
        print(re.sub(r"\s+", " ", line).strip())


if __name__ == "__main__":
    main(sys.argv[1])
