# SPDX-License-Identifier: GPL-2.0-only
"""The guest's initramfs: busybox, the kernel modules, usbtrail, tests."""

import lzma
import os
import shutil
import subprocess
import uuid

from .arch import ARCHES
from .config import GUEST_MODULES, HERE, HOST_PROGRAMS, KCACHE, ROOT
from .cpio import Cpio
from .modules import module_order

# systemd-journald as Debian installs it, and the reader of its files.
JOURNALD = "/lib/systemd/systemd-journald"
JOURNALCTL = "/usr/bin/journalctl"


# testbed-mark NAME: the faults timed from NAME (--fault KIND@NAME+D)
# start now; the runner watches /tb for the file
TESTBED_MARK = b"""#!/bin/sh
case "$1" in
''|*[!a-z0-9-]*) echo "usage: testbed-mark NAME" >&2; exit 2 ;;
esac
: >"/tb/mark.$1"
"""


def build_initramfs(path, abi, usbtrail, ko, journald=False,
                    arch="x86-64"):
    kroot = os.path.join(KCACHE, abi)
    moddir = os.path.join(kroot, "lib", "modules", abi)
    sysroot = ARCHES[arch]["sysroot"]
    c = Cpio(path)
    for d in ("bin", "sbin", "usr/bin", "usr/sbin", "proc", "sys", "dev",
              "tmp", "run", "root", "etc/testbed", "lib/modules/testbed"):
        c.dir(d)
    c.copy("bin/busybox", ARCHES[arch]["busybox"], 0o755)
    # the applets of the host's busybox: the arm64 one (the same Debian
    # version, busybox-static) cannot run here to say its own
    applets = subprocess.run(["/bin/busybox", "--list"], check=True,
                             capture_output=True, text=True).stdout.split()
    for a in applets:
        if a != "busybox":
            c.symlink(f"bin/{a}", "busybox")
    c.copy("init", os.path.join(HERE, "init"), 0o755)
    c.file("bin/testbed-mark", TESTBED_MARK, 0o755)

    names = []
    for mod in module_order(moddir, GUEST_MODULES):
        src = os.path.join(moddir, mod)
        base = os.path.basename(mod)
        with open(src, "rb") as f:
            data = f.read()
        if base.endswith(".xz"):        # busybox insmod wants plain ELF
            data, base = lzma.decompress(data), base[:-3]
        c.file(f"lib/modules/testbed/{base}", data)
        names.append(base)
    c.file("etc/testbed/modules", ("\n".join(names) + "\n").encode())

    if usbtrail:
        c.program("usr/bin/usbtrail", usbtrail, sysroot)
    # the field's own tools, for benchmarks against them, when installed
    # (the host's: not in an arm64 guest)
    for prog in HOST_PROGRAMS if not sysroot else []:
        path = shutil.which(prog)
        if path:
            c.program(f"usr/bin/{prog}", path)
    if ko:
        c.copy("lib/modules/usbtrail/usbtrail.ko", ko, 0o644)
    if journald:
        # journald names its files after the machine id and will not
        # start without one; a fresh one per run, as a first boot has.
        c.program("lib/systemd/systemd-journald", JOURNALD)
        c.program("usr/bin/journalctl", JOURNALCTL)
        c.file("etc/machine-id", (uuid.uuid4().hex + "\n").encode())
    tests = os.path.join(ROOT, "tests", "testbed", "guest")
    if os.path.isdir(tests):
        for n in sorted(os.listdir(tests)):
            c.copy(f"tests/{n}", os.path.join(tests, n))
    # test tools (tests/tools/*.c, built by `make -C userspace tools`)
    tools = ARCHES[arch]["tools"]
    if os.path.isdir(tools):
        for n in sorted(os.listdir(tools)):
            c.program(f"tests/{n}", os.path.join(tools, n), sysroot)
    c.close()
