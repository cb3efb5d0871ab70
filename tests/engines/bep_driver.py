# SPDX-License-Identifier: MIT
"""A small BEP client for the tests (tests/tools/engine_test.sh, match_test.sh):
starts an engine, sends lines, reads lines with a timeout. Standard
library only."""

import os
import select
import signal
import subprocess
import time


class Timeout(Exception):
    pass


class Engine:
    def __init__(self, argv, **kw):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, start_new_session=True, **kw)
        self.buf = b""
        self.lines = []  # everything read, for messages

    def send(self, line):
        self.p.stdin.write((line + "\n").encode())
        self.p.stdin.flush()

    def readline(self, timeout=10.0):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Timeout("no line within %.1fs (read so far: %r)" % (timeout, self.lines[-5:]))
            r, _, _ = select.select([self.p.stdout], [], [], left)
            if r:
                chunk = os.read(self.p.stdout.fileno(), 65536)
                if not chunk:
                    raise EOFError("engine closed its output (read so far: %r)" % self.lines[-5:])
                self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        text = line.decode()
        self.lines.append(text)
        return text

    def until(self, prefix, timeout=10.0):
        """Lines read up to and including the first starting with prefix."""
        out = []
        while True:
            line = self.readline(timeout)
            out.append(line)
            if line == prefix or line.startswith(prefix + " "):
                return out

    def ask(self, line, timeout=10.0):
        """Sends line then isready; the lines before readyok."""
        self.send(line)
        self.send("isready")
        return self.until("readyok", timeout)[:-1]

    def close(self, timeout=10.0):
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        try:
            return self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.p.pid, signal.SIGKILL)
            self.p.wait()
            raise Timeout("engine did not end")
