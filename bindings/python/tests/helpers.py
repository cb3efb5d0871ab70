# SPDX-License-Identifier: MIT
"""Shared bits of the binding's tests: the repository paths and positions
taken from docs/spec.md (each comment says how it was derived).

The library under test is ``LIBBALL_PATH`` when set (a file, or a directory
holding the soname), else ``$B/libball.so.1`` of the repository (``B`` is
the Makefile's build directory, ``build`` by default); tests/bindings/bindings_test.sh
sets LIBBALL_PATH. ``BALL_TOOL`` overrides the ``ball`` tool used for
cross-checks (default ``$B/bin/ball``), ``SELFPLAY`` the ``selfplay``
example that the MCTS tests compare with (default
``$B/examples/selfplay``)."""

import os
from pathlib import Path

from libball import _native

REPO = Path(__file__).resolve().parents[3]
HEADER = REPO / "include" / "ball.h"
BUILD = REPO / os.environ.get("B", "build")
_env = os.environ.get("LIBBALL_PATH")
if _env:
    LIBRARY = Path(_env) / _native.SONAME if Path(_env).is_dir() else Path(_env)
else:
    LIBRARY = BUILD / _native.SONAME
BALL_TOOL = Path(os.environ.get("BALL_TOOL", BUILD / "bin" / "ball"))
SELFPLAY = Path(os.environ.get("SELFPLAY", BUILD / "examples" / "selfplay"))

START = "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1"
# R5.4: DEF's X on E11 steps diagonally to F10, spending 1 PA.
AFTER_E11_F10 = "7/6/3s3/6/3x3/6/1o1sxo1/2x3/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 1 - 0/0 1"

# R6.1: ATK X on G9, DEF x on I11 (H10 between is open): G9-I11 is a dodge,
# the exits are the open squares around I11: H10 J10 H12 J12.
DODGE = "7/6/7/6/7/6/4x2/6/3X3/6/7/6/7/6/7/6/@6 ATK a 2 - 0/0 1"
# After G9-I11/J12: x knocked down on I11, X on J12, 1 PA left.
AFTER_DODGE = "7/6/7/6/7/4X1/4x_2/6/7/6/7/6/7/6/7/6/@6 ATK a 1 - 0/0 1"

# R9.3: stack [X* o] on G9, ATK O on F10 and S on H10; after `end` only
# F8 and H8 are vacant around G9, so the release has two square orders and
# two keepers.
KEEP = "7/6/7/6/7/6/7/2OS2/3[X*o]3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2"

# R9.2: S_ on A1 cannot stand up (its only neighbour B2 holds DEF x);
# O_ on G5 can (F4 H4 F6 H6).
NO_SOLUTION = "7/6/7/6/3o3/6/7/6/7/6/7/6/3O_3/6/5X*1/x5/S_6 ATK a 2 - 0/0 2"

# R2.3, N1: the start at the last turn BPN can write (BALL_MAX_TURN): DEF
# has no release task, so `end` would hand the turn over to turn 10^9.
LAST_TURN = START[:-1] + "999999999"

# R10: a card ruleset in the text form of ball_rules_from_text(): a move
# earns 1 PE; ATK holds Sprint (2 PE: +1 PA) and Rally (3 PE: the
# restricted piece acts again), DEF a free Sprint.
CARDS = "earn.move=1 atk=Sprint:2:pa+1,Rally:3:again def=Sprint:0:pa+1"
