# SPDX-License-Identifier: GPL-2.0-only
"""The defects of the disk behind a --bridge that the host drives through
QMP while COMMAND runs, as testbed.runner drives --fault: a sustained-
write collapse (the disk's throttle group) and a brown-out (the patched
usb-uas's x-power).  Each change is logged to faults.log as "bridge
DEFECT EVENT ..."."""

import collections
import time

MIB = 1024 * 1024
# often enough that a disk writing 500 MB/s (the host's page cache)
# collapses within 25 MiB of where it should
POLL_S = 0.05


class BridgeHost:
    def __init__(self, run, personality):
        """run: the testbed.runner.Run (its qmp, flog, throttle,
        blockstats); personality: a testbed.bridges.Personality."""
        self.run = run
        self.collapse = personality.host.get("collapse")
        self.brownout = personality.host.get("brownout")
        self.next_poll = 0.0
        # collapse: bytes written when the disk's cache was last empty
        self.base = None
        self.collapsed = False
        self.last_wr = None
        self.last_change = None
        self.samples = collections.deque()     # (time, rd + wr bytes)
        self.power_on_at = None

    def active(self):
        return bool(self.collapse or self.brownout)

    def poll(self):
        now = time.monotonic()
        if now < self.next_poll:
            return
        self.next_poll = now + POLL_S
        rd, wr = self.run.blockstats("bridge")
        if self.collapse:
            self.poll_collapse(now, wr)
        if self.brownout:
            self.poll_brownout(now, rd + wr)

    def poll_collapse(self, now, wr):
        c = self.collapse
        if self.base is None:
            self.base, self.last_wr, self.last_change = wr, wr, now
        if wr != self.last_wr:
            self.last_wr, self.last_change = wr, now
        self.samples.append((now, wr))
        while self.samples and now - self.samples[0][0] > 2:
            self.samples.popleft()
        idle = now - self.last_change >= c["idle_s"]
        if self.collapsed:
            if idle:
                self.run.throttle("bridge", 0)
                self.collapsed = False
                self.base = wr
                self.run.flog("bridge", "collapse-end",
                              f"device=bridge idle-s={c['idle_s']}")
            return
        if idle:
            self.base = wr      # the cache drained while the disk idled
            return
        if wr - self.base < c["after_mib"] * MIB:
            return
        t0, w0 = self.samples[0]
        rate = (wr - w0) / (now - t0) if now > t0 else 0
        bps = max(int(rate * c["fraction"]), c["floor_bps"])
        self.run.throttle("bridge", bps)
        self.collapsed = True
        self.run.flog("bridge", "collapse-start",
                      f"device=bridge written-mib={(wr - self.base) // MIB} "
                      f"measured-bps={int(rate)} bps-write={bps}")

    def poll_brownout(self, now, moved):
        b = self.brownout
        if self.power_on_at is not None:
            if now >= self.power_on_at:
                self.run.set_power("bridge", True)
                self.power_on_at = None
                self.samples.clear()
                self.run.flog("bridge", "brownout-end", "device=bridge")
            return
        self.samples.append((now, moved))
        while self.samples and now - self.samples[0][0] > b["window_s"]:
            self.samples.popleft()
        t0, m0 = self.samples[0]
        if moved - m0 < b["mib"] * MIB:
            return
        self.run.set_power("bridge", False)
        self.power_on_at = now + b["off_s"]
        self.run.flog("bridge", "brownout-start",
                      f"device=bridge moved-mib={(moved - m0) // MIB} "
                      f"in-s={now - t0:.1f} off-s={b['off_s']}")
