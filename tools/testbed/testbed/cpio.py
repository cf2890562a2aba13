# SPDX-License-Identifier: GPL-2.0-only
"""A newc cpio archive writer (what the kernel unpacks as an initramfs)."""

import os
import re
import stat
import subprocess


class Cpio:
    """A newc cpio archive (what the kernel unpacks as an initramfs)."""

    def __init__(self, path):
        self.f = open(path, "wb")
        self.ino = 1
        self.seen = set()

    def _entry(self, name, mode, data=b""):
        name_b = name.encode() + b"\0"
        hdr = "070701" + "".join(f"{v:08x}" for v in (
            self.ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0,
            len(name_b), 0))
        self.ino += 1
        self.f.write(hdr.encode() + name_b)
        self.f.write(b"\0" * ((4 - (110 + len(name_b)) % 4) % 4))
        self.f.write(data)
        self.f.write(b"\0" * ((4 - len(data) % 4) % 4))

    def dir(self, name):
        name = name.strip("/")
        if not name or name in self.seen:
            return
        self.dir(os.path.dirname(name))
        self.seen.add(name)
        self._entry(name, stat.S_IFDIR | 0o755)

    def file(self, name, data, mode=0o644):
        name = name.strip("/")
        self.dir(os.path.dirname(name))
        self.seen.add(name)
        self._entry(name, stat.S_IFREG | mode, data)

    def copy(self, name, src, mode=None):
        with open(src, "rb") as f:
            data = f.read()
        if mode is None:
            mode = os.stat(src).st_mode & 0o777
        self.file(name, data, mode)

    def program(self, name, src):
        """An executable and the shared libraries it needs (ldd), once."""
        self.copy(name, src, 0o755)
        for lib in shared_libs(src):
            if lib.strip("/") not in self.seen:
                self.copy(lib, os.path.realpath(lib), 0o755)

    def symlink(self, name, target):
        name = name.strip("/")
        self.dir(os.path.dirname(name))
        self.seen.add(name)
        self._entry(name, stat.S_IFLNK | 0o777, target.encode())

    def close(self):
        self._entry("TRAILER!!!", 0)
        self.f.close()


def shared_libs(binary):
    out = subprocess.run(["ldd", binary], capture_output=True, text=True)
    libs = []
    for line in out.stdout.splitlines():
        m = re.search(r"(/\S+)\s+\(0x", line)
        if m:
            libs.append(m.group(1))
    return libs
