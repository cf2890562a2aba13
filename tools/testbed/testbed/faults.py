# SPDX-License-Identifier: GPL-2.0-only
"""--fault SPEC: what each fault is, and the numbers it is driven with."""

import re

ERRNO_ENOMEDIUM = 123
ERRNO_EIO = 5
STALL_BPS = 64 * 1024           # a 1 MiB write takes 16 s: commands time out
STALL_SCSI_TIMEOUT = 2          # seconds, set on the stalled disk
# of the rate measured just before the dip: well below half, since that
# second's rate can be above the recorder's median and a 100 ms interval
# holds whole requests (at 40%, intervals of exactly half came and went)
DIP_FRACTION = 0.25
DIP_FLOOR_BPS = 256 * 1024      # never so low that commands time out


FAULT_RE = re.compile(
    r"^(?P<kind>medium-not-present|io-error|stall|dip|unplug|power-cut)@"
    r"(?P<arg>[0-9.+]+|[a-z][a-z0-9-]*\+[0-9.+]*)(?::(?P<dev>[a-z-]+))?$")
MARK_RE = re.compile(r"^[a-z][a-z0-9-]*$")


class Fault:
    """One --fault SPEC: KIND@SECTOR[:DEVICE] or KIND@T+D[:DEVICE], T
    in seconds from when COMMAND starts or the name of a mark (.mark; .t
    is set when the guest sets it)."""

    def __init__(self, spec, devices):
        m = FAULT_RE.match(spec)
        if not m:
            raise ValueError(f"bad fault spec '{spec}' (see --help)")
        self.spec = spec
        self.mark = None
        self.kind = m.group("kind")
        self.dev = m.group("dev") or devices[0]
        if self.dev not in devices:
            raise ValueError(f"fault '{spec}': no device '{self.dev}' "
                             f"in --devices {','.join(devices)}")
        if self.kind == "power-cut" and self.dev != "bridge":
            raise ValueError(f"fault '{spec}': power-cut is a fault of "
                             "--bridge's enclosure only")
        arg = m.group("arg")
        if self.kind in ("medium-not-present", "io-error"):
            if not arg.isdigit():
                raise ValueError(f"fault '{spec}': SECTOR must be a "
                                 "number of 512-byte sectors")
            self.sector = int(arg)
        else:
            t, plus, d = arg.partition("+")
            # T a name: from when COMMAND runs `testbed-mark NAME`
            self.mark = t if MARK_RE.match(t) else None
            try:
                self.t = 0.0 if self.mark else float(t)
                self.d = float(d)
            except ValueError:
                raise ValueError(f"fault '{spec}': expected T+D in seconds "
                                 "(or T the name of a mark)")
            if not plus or self.t < 0 or self.d <= 0:
                raise ValueError(f"fault '{spec}': expected T+D with "
                                 "T >= 0 and D > 0")
