# SPDX-License-Identifier: MIT
"""Loading libball.so.1 and declaring its C functions (ctypes).

Where the shared library is looked for, first match wins:

1. ``LIBBALL_PATH``: a file, or a directory holding ``libball.so.1``
   (only that one is tried);
2. with ``LIBBALL_USE_SYSTEM=1``, the system's copy only:
   ``ctypes.util.find_library("ball")``, then ``libball.so.1`` through the
   dynamic loader's usual search (``LD_LIBRARY_PATH``, the ld.so cache);
3. the copy bundled in the installed package (``libball/_lib/libball.so.1``,
   which the wheel's build backend compiles from the repository's sources);
4. the build tree of the repository this package's source lives in
   (``bindings/python/../../build/libball.so.1``), for development;
5. ``build/libball.so.1`` under the current directory, when that directory
   is a libball repository (it has ``include/ball.h``);
6. the system, as in 2.

``path`` (``libball.LIBRARY_PATH``) is the file that was loaded: for a
library found by the dynamic loader, its real path when it can be asked
(``dladdr``), else the name it was loaded by.

The loaded library must have the major version this package was written
for (the soname's number, ``ABI_MAJOR``); otherwise ImportError is raised.

Every function of ``include/ball.h`` is declared from one table
(``_FUNCTIONS``) with the exact C types of the header. The table, the
header's constants without the ``BALL_`` prefix (``BALL_E_ARG`` is
``E_ARG``), its structs as ctypes classes (``BallRules``, ...) and its
function-pointer types are generated from the header by
``scripts/api-generate.py`` into ``libball._api`` and re-exported here
(docs/bindings.md, "Generated code"); ``tests/test_header_constants.py``
compares them with the header once more. A function of the 1.0 baseline
is required; the ones that later 1.x libraries add, and the experimental
tier, are optional, so that the binding keeps working with an older 1.x
library and can test for them with ``has()``.

Threads: the C library allows calls on distinct games at the same time but
no overlapping calls on one game; ``libball.Game`` serialises the calls on
its handle with a per-game lock (see ``Game``).
"""

import ctypes
import ctypes.util
import os
from pathlib import Path
from typing import Any, Dict, Iterator, Optional, Tuple

from ._api import *  # noqa: F401,F403 (re-exported: libball._native.E_ARG, BallRules, ...)
from ._api import _FUNCTIONS, BallRules

#: The major version of libball this binding speaks (ball.h
#: BALL_VERSION_MAJOR); the soname carries it.
ABI_MAJOR = 1
SONAME = "libball.so.%d" % ABI_MAJOR

# C integer ranges, for the binding's argument checks (ctypes would
# truncate an out-of-range Python int silently).
INT_MIN = -2 ** 31
INT_MAX = 2 ** 31 - 1
UINT_MAX = 2 ** 32 - 1
UINT64_MAX = 2 ** 64 - 1
SIZE_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_size_t)) - 1

# Size of the message buffers given to the library (err/errlen).
ERR_MAX = 256


def new_rules() -> "BallRules":
    """A BallRules with the library's defaults (ball_rules_init())."""
    rules = BallRules()
    lib.ball_rules_init(ctypes.byref(rules), ctypes.sizeof(BallRules))
    return rules


def read_rules(handle: Optional[int]) -> Tuple[int, "BallRules"]:
    """(rc, BallRules) from ball_game_rules(); in card mode ``cards``
    points to the game's own card set, valid while the game lives."""
    rules = new_rules()
    rc = lib.ball_game_rules(handle, ctypes.byref(rules))
    return rc, rules


def _system_candidates() -> Iterator[str]:
    found = ctypes.util.find_library("ball")
    if found:
        yield found
    yield SONAME


def _candidates() -> Iterator[str]:
    """The library paths to try, in order (see the module text)."""
    env = os.environ.get("LIBBALL_PATH")
    if env:
        path = Path(env)
        yield str(path / SONAME) if path.is_dir() else str(path)
        return  # an explicit choice is not second-guessed
    if os.environ.get("LIBBALL_USE_SYSTEM") == "1":
        yield from _system_candidates()
        return
    package = Path(__file__).resolve().parent  # .../libball
    yield str(package / "_lib" / SONAME)
    source_root = package.parent  # bindings/python in a checkout
    yield str(source_root.parent.parent / "build" / SONAME)
    cwd = Path.cwd()
    if (cwd / "include" / "ball.h").is_file():
        yield str(cwd / "build" / SONAME)
    yield from _system_candidates()


class _DlInfo(ctypes.Structure):
    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]


def _loaded_file(lib: ctypes.CDLL, candidate: str) -> str:
    """The file the library was loaded from: candidate when it is a path,
    else what dladdr() says of one of its functions (the dynamic loader
    chose the file), else candidate."""
    if os.sep in candidate:
        return candidate
    try:
        dladdr = ctypes.CDLL(None).dladdr
        dladdr.argtypes = [ctypes.c_void_p, ctypes.POINTER(_DlInfo)]
        dladdr.restype = ctypes.c_int
        info = _DlInfo()
        address = ctypes.cast(lib.ball_version_number, ctypes.c_void_p)
        if dladdr(address, ctypes.byref(info)) and info.dli_fname:
            name = os.fsdecode(info.dli_fname)
            if os.sep in name:
                return os.path.realpath(name)
    except (AttributeError, OSError, ValueError):
        pass
    return candidate


def _load() -> Tuple[ctypes.CDLL, str]:
    errors = []
    for candidate in _candidates():
        if os.sep in candidate and not os.path.exists(candidate):
            errors.append("%s: no such file" % candidate)
            continue
        try:
            lib = ctypes.CDLL(candidate)
        except OSError as exc:
            errors.append(str(exc))
            continue
        return lib, _loaded_file(lib, candidate)
    if os.environ.get("LIBBALL_PATH"):
        hint = "the file LIBBALL_PATH names"
    elif os.environ.get("LIBBALL_USE_SYSTEM") == "1":
        hint = ("LIBBALL_USE_SYSTEM=1 asks for the system's copy: install it "
                "with `make install`, or unset LIBBALL_USE_SYSTEM")
    else:
        hint = ("reinstall the package, set LIBBALL_PATH to the library's path, "
                "or build it with `make`")
    raise ImportError("libball: cannot load the shared library %s (%s): %s"
                      % (SONAME, hint, "; ".join(errors)))


def _declare(lib: ctypes.CDLL) -> None:
    for name, restype, argtypes, required in _FUNCTIONS:
        try:
            fn = getattr(lib, name)
        except AttributeError:
            if required:
                raise ImportError("libball: the loaded library lacks %s()" % name)
            continue
        fn.restype = restype
        fn.argtypes = argtypes


lib, path = _load()
# The version is checked before anything else is declared: a library of
# another major version may lack functions or have other signatures.
lib.ball_version_number.restype = ctypes.c_uint
lib.ball_version_number.argtypes = []
lib.ball_version_string.restype = ctypes.c_char_p
lib.ball_version_string.argtypes = []
version_number = lib.ball_version_number()
version_string = lib.ball_version_string().decode()
if version_number // 10000 != ABI_MAJOR:
    raise ImportError(
        "libball: %s is version %s, this binding needs major version %d"
        % (path, version_string, ABI_MAJOR))
_declare(lib)


def has(name: str) -> bool:
    """True if the loaded library exports the function ``name``."""
    return hasattr(lib, name)


# ---------------------------------------------------------------- _speed
# The C extension module libball._speed carries the hot calls of Game
# (issue 29; libball/_speed.c). It does not link libball: it is given the
# addresses of the functions of the library loaded above (``addresses()``),
# so both paths call one library. Where it is looked for: the package
# (an installed wheel or Debian package), else ``python/`` beside the
# loaded library (the build tree: ``make`` builds
# build/python/_speed<EXT_SUFFIX> beside build/libball.so.1).
SPEED_FUNCTIONS = ("ball_random_action", "ball_random_apply", "ball_apply", "ball_apply_index",
                   "ball_random_playout", "ball_legal_actions", "ball_position_to_text",
                   "ball_position_from_text", "ball_game_new", "ball_game_clone",
                   "ball_game_free", "ball_rules_init", "ball_apply_unchecked", "ball_result",
                   "ball_side", "ball_turn", "ball_history_length", "ball_undo", "ball_hash",
                   "ball_history_action", "ball_errmsg", "ball_action_from_text")


def addresses() -> Dict[str, int]:
    """name -> address of the loaded library's functions that _speed calls
    (an experimental one the library lacks is left out)."""
    return {name: int(ctypes.cast(getattr(lib, name), ctypes.c_void_p).value or 0)
            for name in SPEED_FUNCTIONS if has(name)}


def _load_speed() -> Any:
    """The extension module, or None without it (LIBBALL_SPEED=ctypes
    asks for None: game.py then runs on its ctypes fallback,
    _speed_ctypes.py, as the tests do to test both)."""
    global speed_missing
    if os.environ.get("LIBBALL_SPEED") == "ctypes":
        speed_missing = "LIBBALL_SPEED=ctypes"
        return None
    import importlib.machinery
    import importlib.util
    import sysconfig
    try:
        from . import _speed
        return _speed
    except ImportError as exc:
        first = str(exc)
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    candidate = Path(os.path.realpath(path)).parent / "python" / ("_speed" + suffix)
    if candidate.is_file():
        loader = importlib.machinery.ExtensionFileLoader("libball._speed", str(candidate))
        spec = importlib.util.spec_from_file_location("libball._speed", str(candidate),
                                                      loader=loader)
        if spec is not None:
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
            return module
    speed_missing = ("the extension module libball._speed is missing (%s; nor is it %s): "
                     "reinstall the package, or build it with `make` (build/python/)"
                     % (first, candidate))
    return None


#: Why ``speed`` is None ("" when the extension is loaded).
speed_missing = ""
speed = _load_speed()
