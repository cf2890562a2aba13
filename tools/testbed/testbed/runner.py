# SPDX-License-Identifier: GPL-2.0-only
"""One run of the test bed: QEMU started, the guest booted, faults
driven through QMP on time while COMMAND runs, its status returned."""

import fcntl
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from .arch import ARCHES
from .args import kernel_abi, parse_args
from .bridgehost import BridgeHost
from .config import (CONTROLLERS, DEVICES, EXIT_TESTBED, EXIT_TIMEOUT,
                     KCACHE, QEMU_BUILD, QEMU_FIRMWARE, ROOT, die, warn)
from .faults import (DIP_FLOOR_BPS, DIP_FRACTION, ERRNO_EIO,
                     ERRNO_ENOMEDIUM, STALL_BPS, STALL_SCSI_TIMEOUT)
from .initramfs import build_initramfs
from .qemu import accel_arg, device_qdevs, icount_arg, qdev_arg
from .qmp import Qmp

# The guest's kernel reporting that it stalled: RCU's stall warnings
# (kernel/rcu/tree_stall.h, "rcu: INFO: rcu_sched self-detected stall on
# CPU", "... detected stalls on CPUs/tasks:", "... detected expedited
# stalls ...") and the soft-lockup watchdog (kernel/watchdog.c).  Under
# TCG on a loaded host, a CPU patching kernel text (jump labels, while
# the stock modules load) has been seen to hold the other past RCU's
# 21 s.
STALL_RE = re.compile(rb"rcu: INFO: \S+ (?:self-)?detected (?:expedited )?"
                      rb"stall|BUG: soft lockup - CPU#")
COMMAND_START = b"testbed: command start"


def boot_stall(console):
    """The line of @console (bytes) where the kernel reported a stall
    before the init said COMMAND starts, as text; None if none did."""
    start = console.find(COMMAND_START)
    m = STALL_RE.search(console if start < 0 else console[:start])
    if not m:
        return None
    a = console.rfind(b"\n", 0, m.start()) + 1
    b = console.find(b"\n", m.end())
    return console[a:b if b >= 0 else len(console)].decode(
        errors="replace").strip()


class Run:
    def __init__(self, a):
        self.a = a
        self.arch = ARCHES[a.arch]
        self.abi = kernel_abi(a.kernel, a.arch)
        self.kroot = os.path.join(KCACHE, self.abi)
        self.vmlinuz = os.path.join(self.kroot, "boot", f"vmlinuz-{self.abi}")
        if not os.path.exists(self.vmlinuz):
            die(f"kernel {self.abi} is not installed: run tools/deps.sh",
                EXIT_TESTBED)
        self.qemu_bin = self.arch["qemu"][:1]
        self.bridge_host = None
        if a.bridge:
            path = subprocess.run([QEMU_BUILD, "--path"], check=True,
                                  capture_output=True,
                                  text=True).stdout.strip()
            if not os.path.exists(path):
                die(f"--bridge: the bridge's QEMU ({path}) is not built: "
                    "run tools/deps.sh (or tools/testbed/qemu/build)",
                    EXIT_TESTBED)
            self.qemu_bin = [path] + QEMU_FIRMWARE
            self.bridge_host = BridgeHost(self, a.bridge.personality)
        self.tmp = tempfile.mkdtemp(prefix="usbtrail-testbed.")
        self.tb = os.path.join(self.tmp, "tb")
        os.mkdir(self.tb)
        if a.out:
            self.out, self.out_is_tmp = os.path.abspath(a.out), False
        else:
            self.out = tempfile.mkdtemp(prefix="usbtrail-testbed-out.")
            self.out_is_tmp = True
        os.makedirs(self.out, exist_ok=True)
        for n in os.listdir(self.out):
            if n in ("faults.log", "console.log", "qemu.log", "qmp.log") \
                    or re.fullmatch(r"console\.stalled-\d+\.log", n):
                os.unlink(os.path.join(self.out, n))
        self.faults_log = open(os.path.join(self.out, "faults.log"), "w")
        self.qmp_log = open(os.path.join(self.out, "qmp.log"), "w",
                            buffering=1)
        self.qemu = None
        self.qmp = None
        self.t0 = None          # host monotonic time COMMAND started
        self.marks = {}         # mark name: the faults waiting for it
        self.actions = []       # (seconds after t0, callable)
        self.unplugged = {}     # device -> replug due, after DEVICE_DELETED
        self.stats = {}         # device -> (time, wr_bytes)
        self.port = {}          # device -> root port on its controller
        used = {}
        for name in a.devices:
            hc = DEVICES[name]["hc"]
            used[hc] = used.get(hc, 0) + 1
            self.port[name] = used[hc]

    # -- build
    def build(self):
        if self.a.no_build:
            return
        # one build at a time: tests/run boots several guests at once, and
        # their builds share userspace/ and build/kmod/ABI/
        os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
        with open(os.path.join(ROOT, "build", ".testbed-build.lock"),
                  "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            r = subprocess.run(["make", "-s", "-C", ROOT, "testbed-build",
                                f"TESTBED_ABI={self.abi}",
                                f"TESTBED_ARCH={self.a.arch}"])
        if r.returncode != 0:
            die("building usbtrail or usbtrail.ko failed", EXIT_TESTBED)

    def artifacts(self):
        usbtrail = os.path.join(self.arch["userspace"], "usbtrail")
        ko = os.path.join(ROOT, "build", "kmod", self.abi, "usbtrail.ko")
        if not os.path.exists(usbtrail):
            warn(f"{os.path.relpath(usbtrail, ROOT)} not built: not in "
                 "the guest")
            usbtrail = None
        if not os.path.exists(ko):
            warn(f"usbtrail.ko for {self.abi} not built: not in the guest")
            ko = None
        return usbtrail, ko

    # -- QEMU command line
    def qemu_args(self, accel):
        a = self.a
        args = self.qemu_bin + self.arch["qemu"][1:] + [
                "-nodefaults", "-no-user-config",
                "-display", "none", "-no-reboot", "-m", a.memory,
                "-smp", str(a.cpus), "-accel", accel_arg(accel, a.cpus),
                "-kernel", self.vmlinuz,
                "-initrd", os.path.join(self.tmp, "initramfs.cpio"),
                "-serial", f"file:{os.path.join(self.out, 'console.log')}",
                "-qmp", f"unix:{os.path.join(self.tmp, 'qmp.sock')},"
                "server=on,wait=off",
                "-fsdev", f"local,id=tb,path={self.tb},security_model=none",
                "-device", "virtio-9p-pci,fsdev=tb,mount_tag=tb",
                "-fsdev", f"local,id=out,path={self.out},"
                "security_model=none",
                "-device", "virtio-9p-pci,fsdev=out,mount_tag=out"]
        if accel == "kvm":
            args += ["-cpu", "host"]
        if a.icount is not None:
            args += ["-icount", icount_arg(a.icount)]
        append = [f"console={self.arch['console']},115200", "loglevel=7",
                  "panic=-1",
                  "rdinit=/init"]
        if a.quirk:
            append.append("usb-storage.quirks=" + ",".join(a.quirk))
        trace = ["xhci-hcd:xhci_ring_alloc"]
        append.append("testbed.trace=" + ",".join(trace))
        stalls = [f"{f.dev}:{STALL_SCSI_TIMEOUT}" for f in a.faults
                  if f.kind == "stall"]
        if stalls:
            append.append("testbed.scsi_timeout=" + ",".join(stalls))
        if a.journald:
            append.append("testbed.journald=1")
        if self.abi.endswith("-debug"):
            # Under TCG on a loaded host the debug kernel's RCU grace-period
            # thread goes without CPU for the 21 s of the default stall
            # timeout (while booting, while powering off: "rcu_sched
            # kthread starved"), a backtrace that is no finding; a real
            # stall of 300 s ends the run on its timeout anyway.
            append.append("rcupdate.rcu_cpu_stall_timeout=300")
        append += a.append
        args += ["-append", " ".join(append)]

        for hc in dict.fromkeys(DEVICES[d]["hc"] for d in a.devices):
            args += CONTROLLERS[hc]
        for name in a.devices:
            args += self.blockdev_args(name)
            if self.plugs_late(name):
                continue
            for props in device_qdevs(name, self.serial(name),
                                      self.port[name], self.a.bridge):
                args += ["-device", qdev_arg(props)]
        return args

    def plugs_late(self, name):
        """--bridge ...,plug=late: the bridge is plugged in as COMMAND
        starts"""
        return name == "bridge" and self.a.bridge.late

    @staticmethod
    def serial(name):
        return f"usbtrail-{name}"

    def blockdev_args(self, name):
        img = os.path.join(self.tmp, f"{name}.img")
        subprocess.run(["truncate", "-s", self.a.disk_size, img],
                       check=True)
        args = ["-blockdev", json.dumps({
            "driver": "file", "node-name": f"{name}-file",
            "filename": img, "cache": {"direct": False}})]
        below = f"{name}-file"
        # Medium not present is not retried by the guest: once is enough.
        # EIO becomes ABORTED COMMAND, which the SCSI layer retries, so it
        # stays: a bad sector that every write covering it hits.
        inject = [{"event": "write_aio", "sector": f.sector,
                   "once": f.kind == "medium-not-present",
                   "errno": ERRNO_ENOMEDIUM if f.kind ==
                   "medium-not-present" else ERRNO_EIO}
                  for f in self.a.faults
                  if f.dev == name and hasattr(f, "sector")]
        if inject:
            args += ["-blockdev", json.dumps({
                "driver": "blkdebug", "node-name": f"{name}-dbg",
                "image": below, "inject-error": inject})]
            below = f"{name}-dbg"
        args += ["-blockdev", json.dumps({
            "driver": "raw", "node-name": f"{name}-fmt", "file": below})]
        tg = f"throttle-group,id=tg-{name}"
        if self.a.write_iops:
            tg += f",x-iops-write={self.a.write_iops}"
        args += ["-object", tg]
        args += ["-blockdev", json.dumps({
            "driver": "throttle", "node-name": f"{name}-top",
            "throttle-group": f"tg-{name}", "file": f"{name}-fmt"})]
        return args

    # -- faults
    def flog(self, fault, event, detail=""):
        now = time.time()
        rel = (f"{time.monotonic() - self.t0:+.3f}" if self.t0 is not None
               else "-")
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now))
        line = f"{stamp}.{int(now % 1 * 1e6):06d}Z {rel} {fault} {event}"
        if detail:
            line += " " + detail
        self.faults_log.write(line + "\n")
        self.faults_log.flush()

    def throttle(self, name, bps):
        # `limits` is set whole: --write-iops stays through the fault
        limits = {"bps-write": int(bps)}
        if self.a.write_iops:
            limits["iops-write"] = self.a.write_iops
        self.qmp.cmd("qom-set", path=f"/objects/tg-{name}",
                     property="limits", value=limits)

    def blockstats(self, name):
        """(bytes read, bytes written) of device `name`'s disk"""
        for s in self.qmp.cmd("query-blockstats"):
            if s.get("node-name") == f"{name}-top":
                return s["stats"]["rd_bytes"], s["stats"]["wr_bytes"]
        return 0, 0

    def wr_bytes(self, name):
        return self.blockstats(name)[1]

    def set_power(self, name, on):
        """--bridge's enclosure loses its power (off: its volatile cache
        is lost, it leaves the bus) or has it back"""
        self.qmp.cmd("qom-set", path=f"/machine/peripheral/{name}",
                     property="x-power", value=on)

    def schedule_faults(self):
        for f in self.a.faults:
            if f.kind in ("medium-not-present", "io-error"):
                self.flog(f.spec, "armed", f"device={f.dev} "
                          f"sector={f.sector}")
            elif f.mark:
                self.marks.setdefault(f.mark, []).append(f)
                self.flog(f.spec, "waiting", f"device={f.dev} "
                          f"mark={f.mark}")
            else:
                self.schedule(f)

    def schedule(self, f):
        if f.kind == "stall":
            self.at(f.t, lambda f=f: self.stall(f, True))
            self.at(f.t + f.d, lambda f=f: self.stall(f, False))
        elif f.kind == "dip":
            self.at(max(f.t - 1, 0), lambda f=f: self.sample(f))
            self.at(f.t, lambda f=f: self.dip(f, True))
            self.at(f.t + f.d, lambda f=f: self.dip(f, False))
        elif f.kind == "unplug":
            self.at(f.t, lambda f=f: self.unplug(f))
        elif f.kind == "power-cut":
            self.at(f.t, lambda f=f: self.power(f, False))
            self.at(f.t + f.d, lambda f=f: self.power(f, True))

    def power(self, f, on):
        self.set_power(f.dev, on)
        self.flog(f.spec, "power-on" if on else "power-off",
                  f"device={f.dev}")

    def poll_marks(self):
        """The faults timed from a mark (`testbed-mark NAME` in the
        guest: /tb/mark.NAME) start when it appears."""
        for name in list(self.marks):
            if not os.path.exists(os.path.join(self.tb, "mark." + name)):
                continue
            now = time.monotonic() - self.t0
            for f in self.marks.pop(name):
                f.t = now
                self.flog(f.spec, "mark", f"device={f.dev} mark={name}")
                self.schedule(f)

    def at(self, t, fn):
        self.actions.append((t, fn))
        self.actions.sort(key=lambda x: x[0])

    def stall(self, f, on):
        self.throttle(f.dev, STALL_BPS if on else 0)
        self.flog(f.spec, "start" if on else "end", f"device={f.dev}" +
                  (f" bps-write={STALL_BPS}" if on else ""))

    def sample(self, f):
        self.stats[f.dev] = (time.monotonic(), self.wr_bytes(f.dev))

    def dip(self, f, on):
        if not on:
            self.throttle(f.dev, 0)
            self.flog(f.spec, "end", f"device={f.dev}")
            return
        t1, b1 = time.monotonic(), self.wr_bytes(f.dev)
        t0, b0 = self.stats.get(f.dev, (t1, b1))
        rate = (b1 - b0) / (t1 - t0) if t1 > t0 else 0
        bps = max(int(rate * DIP_FRACTION), DIP_FLOOR_BPS)
        self.throttle(f.dev, bps)
        self.flog(f.spec, "start", f"device={f.dev} measured-bps="
                  f"{int(rate)} bps-write={bps}")

    def unplug(self, f):
        # Pull the cable first, then delete.  QEMU 7.2's usb-uas aborts
        # ("canceled usb packet not found") when device_del frees its SCSI
        # requests before the port cancels the USB packets that carry them;
        # detaching first cancels the packets while the requests still exist.
        path = f"/machine/peripheral/{f.dev}"
        if DEVICES[f.dev]["kind"] in ("uas", "bridge"):
            self.qmp.cmd("qom-set", path=path, property="attached",
                         value=False)
        self.qmp.cmd("device_del", id=f.dev)
        self.unplugged[f.dev] = f
        self.flog(f.spec, "unplug",
                  f"device={f.dev} port={self.port[f.dev]}")

    def plug(self, name):
        for props in device_qdevs(name, self.serial(name),
                                  self.port[name], self.a.bridge):
            self.qmp.cmd("device_add", **props)
        # A hot-added usb-uas is not attached to its port until told (the
        # LUN must exist first); usb-storage attaches itself.
        path = f"/machine/peripheral/{name}"
        if not self.qmp.cmd("qom-get", path=path, property="attached"):
            self.qmp.cmd("qom-set", path=path, property="attached",
                         value=True)

    def replug(self, f):
        self.plug(f.dev)
        self.flog(f.spec, "replug",
                  f"device={f.dev} port={self.port[f.dev]}")

    def on_event(self, ev):
        name, data = ev["event"], ev.get("data", {})
        if name == "BLOCK_IO_ERROR":
            node = data.get("node-name", "")
            dev = node[:-4] if node.endswith("-top") else node
            for f in self.a.faults:
                if f.dev == dev and hasattr(f, "sector"):
                    self.flog(f.spec, "fired", f"device={dev} "
                              f"operation={data.get('operation')} "
                              f"reason=\"{data.get('reason', '')}\"")
                    break
            else:
                self.flog("-", "io-error", f"device={dev} "
                          f"operation={data.get('operation')}")
        elif name == "DEVICE_DELETED":
            dev = data.get("device")
            f = self.unplugged.pop(dev, None)
            if f:
                self.flog(f.spec, "deleted", f"device={dev}")
                due = max(f.t + f.d, time.monotonic() - self.t0)
                self.at(due, lambda f=f: self.replug(f))

    # -- running
    def start_qemu(self, accel):
        qlog = open(os.path.join(self.out, "qemu.log"), "a")
        args = self.qemu_args(accel)
        qlog.write("# " + shlex.join(args) + "\n")
        qlog.flush()

        def child():
            os.setsid()
            # never outlive the runner, even if it is SIGKILLed
            import ctypes
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG
        self.qemu = subprocess.Popen(args, stdin=subprocess.DEVNULL,
                                     stdout=qlog, stderr=qlog,
                                     preexec_fn=child)
        qlog.close()
        try:
            self.qmp = Qmp(os.path.join(self.tmp, "qmp.sock"), self.qmp_log,
                           self.qemu)
        except (ConnectionError, TimeoutError) as e:
            warn(f"{e}; qemu.log tail:")
            print(self.log_tail("qemu.log", 5), file=sys.stderr)
            self.kill_qemu()
            sys.exit(EXIT_TESTBED)

    def kill_qemu(self):
        if self.qemu and self.qemu.poll() is None:
            try:
                os.killpg(self.qemu.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.qemu.wait()

    def log_tail(self, name, n=40):
        try:
            with open(os.path.join(self.out, name), "rb") as f:
                lines = f.read().decode(errors="replace").splitlines()
        except OSError:
            return ""
        return "\n".join(lines[-n:])

    def console_has_output(self):
        try:
            return os.path.getsize(os.path.join(self.out,
                                                "console.log")) > 0
        except OSError:
            return False

    def boot(self):
        accel = "tcg"
        if self.a.kvm and not self.arch["kvm"]:
            warn(f"--kvm: not for an {self.a.arch} guest, using TCG")
        elif self.a.kvm:
            if os.access("/dev/kvm", os.R_OK | os.W_OK):
                accel = "kvm"
            else:
                warn("--kvm: /dev/kvm is not usable, using TCG")
        self.accel = accel
        self.start_qemu(accel)
        if accel == "kvm":
            # KVM has been seen to hang before the kernel prints a thing
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and self.qemu.poll() is None:
                if self.console_has_output():
                    return
                time.sleep(0.2)
            warn("KVM guest printed nothing in 20 s: retrying with TCG")
            self.qmp.sock.close()
            self.kill_qemu()
            self.accel = "tcg"
            self.start_qemu("tcg")

    def boot_stalled(self):
        """Before COMMAND: if the guest's kernel reported a stall while
        booting, and --boot-retries allow, boot it again (its console
        kept as console.stalled-N.log) and return True."""
        now = time.monotonic()
        if now < self.stall_check_at or self.boots > self.a.boot_retries:
            return False
        self.stall_check_at = now + 1
        try:
            with open(os.path.join(self.out, "console.log"), "rb") as f:
                line = boot_stall(f.read())
        except OSError:
            return False
        if line is None:
            return False
        kept = f"console.stalled-{self.boots}.log"
        warn(f"the guest's kernel stalled while booting, before COMMAND "
             f"ran ({line!r}); its console is {kept}; booting again "
             f"({self.boots} of --boot-retries {self.a.boot_retries})")
        self.qmp.sock.close()
        self.kill_qemu()
        os.replace(os.path.join(self.out, "console.log"),
                   os.path.join(self.out, kept))
        for n in os.listdir(self.tb):
            if n not in ("cmd", "devices"):
                os.unlink(os.path.join(self.tb, n))
        self.boots += 1
        self.start_qemu(self.accel)
        return True

    def main(self):
        a = self.a
        with open(os.path.join(self.tb, "cmd"), "w") as f:
            f.write(". /tb/env\n" + shlex.join(a.command) + "\n")
        with open(os.path.join(self.tb, "devices"), "w") as f:
            for name in a.devices:
                if not self.plugs_late(name):
                    f.write(f"{name} {self.serial(name)}\n")
        self.build()
        usbtrail, ko = self.artifacts()
        try:
            build_initramfs(os.path.join(self.tmp, "initramfs.cpio"),
                            self.abi, usbtrail, ko, a.journald, a.arch)
        except RuntimeError as e:
            die(f"initramfs: {e}", EXIT_TESTBED)
        deadline = time.monotonic() + a.timeout
        self.boot()
        self.boots, self.stall_check_at = 1, 0.0

        outs = {"stdout": [None, sys.stdout.buffer],
                "stderr": [None, sys.stderr.buffer]}
        timed_out = False
        while True:
            # before the streams: nothing of a stalled boot is copied out
            if self.t0 is None and self.boot_stalled():
                deadline = time.monotonic() + a.timeout
                continue
            for name, o in outs.items():
                if o[0] is None:
                    p = os.path.join(self.tb, name)
                    if os.path.exists(p):
                        o[0] = open(p, "rb")
                if o[0] is not None:
                    data = o[0].read()
                    if data:
                        o[1].write(data)
                        o[1].flush()
            if self.qemu.poll() is not None:
                break
            if self.t0 is None and os.path.exists(
                    os.path.join(self.tb, "started")):
                self.t0 = time.monotonic()
                if "bridge" in a.devices and self.plugs_late("bridge"):
                    self.plug("bridge")
                    self.flog("bridge", "plug",
                              f"device=bridge port={self.port['bridge']}")
                self.schedule_faults()
            try:
                for ev in self.qmp.poll_events():
                    self.on_event(ev)
                if self.marks:
                    self.poll_marks()
                if self.t0 is not None and self.bridge_host and \
                        self.bridge_host.active():
                    self.bridge_host.poll()
                while self.t0 is not None and self.actions and \
                        self.actions[0][0] <= time.monotonic() - self.t0:
                    _, fn = self.actions.pop(0)
                    fn()
            except (RuntimeError, TimeoutError, ConnectionError) as e:
                # A guest that powers off closes QMP a moment before
                # QEMU exits: that is the end of the run, not a failure.
                try:
                    self.qemu.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    warn(f"fault injection failed: {e}")
                    self.kill_qemu()
                    return EXIT_TESTBED
                continue
            if time.monotonic() > deadline:
                timed_out = True
                break
            time.sleep(0.05)

        self.kill_qemu()
        for o in outs.values():
            if o[0] is not None:
                o[1].write(o[0].read())
                o[1].flush()
                o[0].close()
        for f in a.faults:
            if f.kind == "unplug" and f.dev in self.unplugged:
                warn(f"{f.spec}: the device was never deleted")
        for name, faults in self.marks.items():
            warn(f"{', '.join(f.spec for f in faults)}: COMMAND never ran "
                 f"'testbed-mark {name}'; not injected")
        if timed_out:
            warn(f"timed out after {a.timeout:g} s; console tail:")
            print(self.log_tail("console.log"), file=sys.stderr)
            return EXIT_TIMEOUT
        try:
            with open(os.path.join(self.tb, "status")) as f:
                return int(f.read().strip())
        except (OSError, ValueError):
            pass
        failed = os.path.join(self.tb, "devices.failed")
        if os.path.exists(failed):
            with open(failed) as f:
                warn("devices did not appear: " + f.read().strip())
        rc = self.qemu.returncode
        if rc not in (0, None, -signal.SIGKILL):
            warn(f"QEMU died (exit status {rc}); qemu.log tail:")
            print(self.log_tail("qemu.log", 5), file=sys.stderr)
        warn("the guest stopped before COMMAND finished; console tail:")
        print(self.log_tail("console.log"), file=sys.stderr)
        return EXIT_TESTBED

    def cleanup(self, status):
        self.kill_qemu()
        self.faults_log.close()
        self.qmp_log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)
        if self.out_is_tmp:
            if status == 0:
                shutil.rmtree(self.out, ignore_errors=True)
            else:
                warn(f"logs kept in {self.out}")


def main(argv):
    a = parse_args(argv)
    run = Run(a)

    def on_signal(signum, frame):
        run.cleanup(128 + signum)
        sys.exit(128 + signum)
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    status = EXIT_TESTBED
    try:
        status = run.main()
    finally:
        run.cleanup(status)
    return status
