# SPDX-License-Identifier: MIT
"""Errors as exceptions, and how the library is found and checked."""

import os
import subprocess
import sys
import unittest
from pathlib import Path

import libball
from libball import Game

from helpers import LIBRARY, REPO

PACKAGE_ROOT = Path(libball.__file__).resolve().parents[1]


def run_python(code, env_extra, cwd):
    env = dict(os.environ)
    env.pop("LIBBALL_PATH", None)
    env.update(env_extra)
    env["PYTHONPATH"] = str(PACKAGE_ROOT)
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env,
                          capture_output=True, text=True)


class Exceptions(unittest.TestCase):
    def test_hierarchy(self):
        for cls in (libball.BpnError, libball.NotationError, libball.IllegalActionError,
                    libball.NoHistoryError, libball.RangeError, libball.ArgumentError,
                    libball.OutOfMemoryError, libball.BufferTooSmallError,
                    libball.ClosedGameError, libball.RulesError, libball.LimitError):
            self.assertTrue(issubclass(cls, libball.BallError))
        self.assertTrue(issubclass(libball.BpnError, ValueError))

    def test_n1_message_says_what_and_where(self):
        with Game() as g:
            bad = "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S*3/6/7 DEF a 2 - 0/0 1"
            with self.assertRaises(libball.BpnError) as cm:
                g.set_bpn(bad)
            err = cm.exception
            self.assertEqual(err.code, -3)
            self.assertIn("ball", err.message.lower())  # two balls
            self.assertEqual(str(err), err.message)
            with self.assertRaises(libball.BpnError):
                Game("nonsense")
            with self.assertRaises(libball.ArgumentError):
                g.set_bpn(None)

    def test_illegal_message(self):
        with Game() as g:
            with self.assertRaises(libball.IllegalActionError) as cm:
                g.parse_action("E11-E9")  # an X moves diagonally only (R5.1)
            self.assertNotEqual(cm.exception.message, "")

    def test_closed(self):
        g = Game()
        g.close()
        with self.assertRaises(libball.ClosedGameError):
            g.apply("end")


class Loading(unittest.TestCase):
    def test_loaded_library(self):
        # The build tree's library, or LIBBALL_PATH's (helpers.LIBRARY).
        self.assertEqual(Path(libball.LIBRARY_PATH).resolve(), LIBRARY.resolve())
        self.assertEqual(libball._native.SONAME, "libball.so.%d" % libball._native.ABI_MAJOR)

    def test_libball_path_override(self):
        for value in (str(LIBRARY), str(LIBRARY.parent)):
            r = run_python("import libball; print(libball.LIBRARY_PATH)",
                           {"LIBBALL_PATH": value}, cwd="/")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(Path(r.stdout.strip()).resolve(), LIBRARY.resolve())

    def test_libball_path_missing(self):
        r = run_python("import libball", {"LIBBALL_PATH": "/nonexistent/libball.so.1"}, cwd="/")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("LIBBALL_PATH", r.stderr)

    def test_version_mismatch_refused(self):
        # Pretend the binding speaks major 7: importing must fail.
        code = ("import ctypes, sys\n"
                "sys.modules.pop('libball', None)\n"
                "src = open(%r).read().replace('ABI_MAJOR = %d', 'ABI_MAJOR = 7')\n"
                "import types\n"
                "m = types.ModuleType('libball._native'); m.__file__ = %r\n"
                "try:\n"
                "    exec(compile(src, m.__file__, 'exec'), m.__dict__)\n"
                "except ImportError as e:\n"
                "    print('refused:', e)\n"
                % (str(PACKAGE_ROOT / "libball" / "_native.py"), libball._native.ABI_MAJOR,
                   str(PACKAGE_ROOT / "libball" / "_native.py")))
        r = run_python(code, {"LIBBALL_PATH": str(LIBRARY)}, cwd=str(REPO))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("refused:", r.stdout)
        self.assertIn("major version 7", r.stdout)


if __name__ == "__main__":
    unittest.main()
