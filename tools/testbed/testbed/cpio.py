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

    def program(self, name, src, sysroot=None):
        """An executable and the shared libraries it needs, once: ldd's
        for a host program, or, for one of another architecture, those its
        ELF headers name, found in `sysroot` (sysroot_libs)."""
        self.copy(name, src, 0o755)
        libs = sysroot_libs(src, sysroot) if sysroot else [
            (lib, os.path.realpath(lib)) for lib in shared_libs(src)]
        for lib, path in libs:
            if lib.strip("/") not in self.seen:
                self.copy(lib, path, 0o755)

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


# Where a sysroot's dynamic linker looks (Debian's multiarch paths).
def _lib_dirs(sysroot):
    out = []
    for d in ("lib/aarch64-linux-gnu", "usr/lib/aarch64-linux-gnu", "lib",
              "usr/lib", "lib64"):
        if os.path.isdir(os.path.join(sysroot, d)):
            out.append("/" + d)
    return out


def _elf_needs(path):
    """The program interpreter and the NEEDED entries of an ELF file."""
    out = subprocess.run(["readelf", "-W", "-l", "-d", path],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"readelf {path}: {out.stderr.strip()}")
    interp = re.findall(r"\[Requesting program interpreter: (\S+)\]",
                        out.stdout)
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(\S+)\]",
                        out.stdout)
    return interp, needed


def sysroot_libs(binary, sysroot):
    """The shared libraries `binary` needs, and theirs, resolved in
    `sysroot` (readelf: the host's ldd cannot read another architecture's
    programs): [(path in the guest, file on the host)], interpreter
    first.  A library not found is an error, as the guest would not run
    the program."""
    dirs = _lib_dirs(sysroot)
    found, todo = [], [binary]
    seen = set()
    while todo:
        interp, needed = _elf_needs(todo.pop(0))
        for p in interp:
            if p not in seen:
                seen.add(p)
                found.append((p, os.path.realpath(
                    os.path.join(sysroot, p.lstrip("/")))))
        for lib in needed:
            if lib in seen:
                continue
            seen.add(lib)
            for d in dirs:
                host = os.path.join(sysroot, d.lstrip("/"), lib)
                if os.path.exists(host):
                    if f"{d}/{lib}" not in seen:    # the interpreter
                        seen.add(f"{d}/{lib}")
                        found.append((f"{d}/{lib}", os.path.realpath(host)))
                        todo.append(host)
                    break
            else:
                raise RuntimeError(f"{os.path.basename(binary)} needs "
                                   f"{lib}, which is not in {sysroot}")
    for guest, host in found:
        if not os.path.exists(host):
            raise RuntimeError(f"{guest} is not in {sysroot}")
    return found
