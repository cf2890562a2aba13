# SPDX-License-Identifier: GPL-2.0-only
"""QMP, QEMU's control socket."""

import json
import select
import socket
import time


class Qmp:
    """A QMP connection: commands wait for their answer, events queue up."""

    def __init__(self, path, log, proc):
        self.log = log
        deadline = time.monotonic() + 10
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if proc.poll() is not None:
                    raise ConnectionError("QEMU exited at start")
                if time.monotonic() > deadline:
                    raise ConnectionError("QEMU's QMP socket never came up")
                time.sleep(0.05)
        self.buf = b""
        self.events = []
        self._read_one(10)              # greeting
        self.cmd("qmp_capabilities")

    def fileno(self):
        return self.sock.fileno()

    def _read_one(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("QMP did not answer")
            r, _, _ = select.select([self.sock], [], [], left)
            if r:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise ConnectionError("QMP closed")
                self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        self.log.write(f"<- {line.decode(errors='replace')}\n")
        return json.loads(line)

    def cmd(self, name, **args):
        msg = {"execute": name}
        if args:
            msg["arguments"] = args
        data = json.dumps(msg)
        self.log.write(f"-> {data}\n")
        self.sock.sendall(data.encode() + b"\n")
        while True:
            r = self._read_one(30)
            if "event" in r:
                self.events.append(r)
                continue
            if "error" in r:
                raise RuntimeError(f"QMP {name}: {r['error'].get('desc')}")
            return r.get("return")

    def poll_events(self):
        while True:
            r, _, _ = select.select([self.sock], [], [], 0)
            if not r and b"\n" not in self.buf:
                break
            if r:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                self.buf += chunk
            while b"\n" in self.buf:
                m = self._read_one(1)
                if "event" in m:
                    self.events.append(m)
        ev, self.events = self.events, []
        return ev
