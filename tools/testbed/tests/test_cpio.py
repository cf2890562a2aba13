# SPDX-License-Identifier: GPL-2.0-only
"""testbed.cpio.Cpio: the newc archive the kernel unpacks."""

import os
import shutil
import stat
import subprocess
import tempfile
import unittest

from testbed.cpio import Cpio


def read_newc(data):
    """[(name, mode, body)] of a newc archive, checking its layout."""
    out, off = [], 0
    while True:
        assert data[off:off + 6] == b"070701", f"no magic at {off}"
        f = [int(data[off + 6 + 8 * i:off + 14 + 8 * i], 16)
             for i in range(13)]
        mode, filesize, namesize = f[1], f[6], f[11]
        assert off % 4 == 0
        name = data[off + 110:off + 110 + namesize]
        assert name.endswith(b"\0")
        name = name[:-1].decode()
        off += 110 + namesize
        off += (4 - off % 4) % 4
        body = data[off:off + filesize]
        off += filesize
        off += (4 - off % 4) % 4
        if name == "TRAILER!!!":
            assert off == len(data), "bytes after the trailer"
            return out
        out.append((name, mode, body, f[0]))


class CpioTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.path = os.path.join(self.dir, "a.cpio")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def entries(self):
        with open(self.path, "rb") as f:
            return read_newc(f.read())

    def test_empty(self):
        Cpio(self.path).close()
        self.assertEqual(self.entries(), [])

    def test_files_dirs_links(self):
        c = Cpio(self.path)
        c.dir("bin")
        c.file("etc/testbed/modules", b"a.ko\nb.ko\n")
        c.file("init", b"#!/bin/sh\n", 0o755)
        c.symlink("bin/sh", "busybox")
        c.file("x", b"")
        c.close()
        got = [(n, m, b) for n, m, b, _ in self.entries()]
        self.assertEqual(got, [
            ("bin", stat.S_IFDIR | 0o755, b""),
            ("etc", stat.S_IFDIR | 0o755, b""),
            ("etc/testbed", stat.S_IFDIR | 0o755, b""),
            ("etc/testbed/modules", stat.S_IFREG | 0o644, b"a.ko\nb.ko\n"),
            ("init", stat.S_IFREG | 0o755, b"#!/bin/sh\n"),
            ("bin/sh", stat.S_IFLNK | 0o777, b"busybox"),
            ("x", stat.S_IFREG | 0o644, b""),
        ])

    def test_parents_once_and_names_relative(self):
        c = Cpio(self.path)
        c.dir("/lib/modules/testbed/")
        c.file("/lib/modules/testbed/a.ko", b"1")
        c.file("lib/modules/b.ko", b"22")
        c.dir("lib")
        c.dir("/")
        c.close()
        names = [n for n, _, _, _ in self.entries()]
        self.assertEqual(names, ["lib", "lib/modules", "lib/modules/testbed",
                                 "lib/modules/testbed/a.ko",
                                 "lib/modules/b.ko"])

    def test_every_length_pads_right(self):
        # names and bodies of each length mod 4 (read_newc checks the
        # alignment of every header)
        c = Cpio(self.path)
        for k in range(1, 9):
            c.file("f" * k, b"x" * k)
        c.close()
        got = [(n, b) for n, _, b, _ in self.entries()]
        self.assertEqual(got, [("f" * k, b"x" * k) for k in range(1, 9)])

    def test_inodes_distinct(self):
        c = Cpio(self.path)
        c.file("a", b"1")
        c.file("b", b"1")
        c.symlink("c", "a")
        c.close()
        inos = [i for _, _, _, i in self.entries()]
        self.assertEqual(len(set(inos)), len(inos))

    def test_copy_keeps_the_mode(self):
        src = os.path.join(self.dir, "script")
        with open(src, "wb") as f:
            f.write(b"echo hi\n")
        os.chmod(src, 0o750)
        c = Cpio(self.path)
        c.copy("tests/script", src)
        c.copy("tests/ro", src, 0o444)
        c.close()
        got = [(n, m, b) for n, m, b, _ in self.entries()]
        self.assertEqual(got[1:], [
            ("tests/script", stat.S_IFREG | 0o750, b"echo hi\n"),
            ("tests/ro", stat.S_IFREG | 0o444, b"echo hi\n")])

    @unittest.skipUnless(shutil.which("cpio"), "no cpio(1)")
    def test_cpio_unpacks_it(self):
        c = Cpio(self.path)
        c.file("etc/a/b", b"hello\n", 0o600)
        c.symlink("etc/l", "a/b")
        c.close()
        out = os.path.join(self.dir, "out")
        os.mkdir(out)
        with open(self.path, "rb") as f:
            subprocess.run(["cpio", "-idm", "--quiet"], stdin=f, cwd=out,
                           check=True)
        with open(os.path.join(out, "etc/l"), "rb") as f:
            self.assertEqual(f.read(), b"hello\n")
        self.assertEqual(os.stat(os.path.join(out, "etc/a/b")).st_mode &
                         0o777, 0o600)


if __name__ == "__main__":
    unittest.main()


class SysrootLibsTest(unittest.TestCase):
    """sysroot_libs: another architecture's shared libraries, by readelf
    (here a host program in a made-up sysroot: readelf reads any ELF)."""

    def setUp(self):
        self.root = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.root)

    def put(self, guest, host):
        p = os.path.join(self.root, guest.lstrip("/"))
        os.makedirs(os.path.dirname(p), exist_ok=True)
        shutil.copy(host, p)
        return p

    def test_needed_and_interpreter_from_the_sysroot(self):
        from testbed.cpio import sysroot_libs
        true = shutil.which("true")
        interp = self.put("/lib64/ld-linux-x86-64.so.2",
                          "/lib64/ld-linux-x86-64.so.2")
        libc = self.put("/lib/aarch64-linux-gnu/libc.so.6",
                        "/lib/x86_64-linux-gnu/libc.so.6")
        self.assertEqual(sysroot_libs(true, self.root), [
            ("/lib64/ld-linux-x86-64.so.2", interp),
            ("/lib/aarch64-linux-gnu/libc.so.6", libc)])

    def test_a_library_not_there_is_an_error(self):
        from testbed.cpio import sysroot_libs
        os.makedirs(os.path.join(self.root, "lib"))
        with self.assertRaisesRegex(RuntimeError, "needs libc.so.6"):
            sysroot_libs(shutil.which("true"), self.root)
