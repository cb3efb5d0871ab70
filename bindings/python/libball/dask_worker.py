# SPDX-License-Identifier: MIT
"""What the self-play driver (libball.selfplay, docs/scale.md) sends to a
Dask worker before it knows that the worker has libball: the plugin that
installs a libball wheel there (``--wheel``), and the question of which
libball a worker runs. A worker without libball cannot import this
module either, so the driver sends its code, not its name:
``by_value()`` registers the module with cloudpickle's pickling by value
(issue 49: the plugin was defined in libball.selfplay, and registering it
failed on such a worker with ModuleNotFoundError).

This module imports nothing of libball at its top, and its functions
import libball only inside a try: keep it so.
"""

import fcntl
import hashlib
import os
import sys
from typing import Any, Dict


def by_value() -> None:
    """Makes cloudpickle (which Dask uses for what the standard pickle
    would send by name) send this module's functions and classes by
    value, so that a worker without libball can run them."""
    import cloudpickle  # type: ignore[import]
    cloudpickle.register_pickle_by_value(sys.modules[__name__])


def worker_versions() -> Dict[str, Any]:
    """What a process runs, as libball.selfplay.version_info() says it,
    or {"error": why} when it cannot import libball (then ``python``
    names the interpreter, for the message)."""
    try:
        from libball.selfplay import version_info
    except Exception as e:  # no libball, or one that cannot load its library
        return {"error": "%s: %s" % (type(e).__name__, e), "python": sys.executable}
    info: Dict[str, Any] = version_info()
    return info


class WheelPlugin:
    """A Dask worker plugin that installs the libball wheel it carries
    into the worker's Python (pip, no index, no dependencies) when the
    worker starts and when it is registered. Registered under a name made
    of the wheel's digest, once: a driver finds it on the workers and does
    not register it again. Sent by value (``by_value()``)."""

    def __init__(self, wheel: bytes, filename: str) -> None:
        self.wheel, self.filename = wheel, filename
        self.name = "libball-wheel-" + hashlib.sha256(wheel).hexdigest()[:16]

    def setup(self, worker: Any = None) -> None:
        """Installs the wheel unless this Python has it already: the
        workers of one machine share a venv, so they take turns (flock)
        and the first one installs it."""
        import importlib
        import subprocess
        import tempfile
        marker = os.path.join(sys.prefix, ".libball-wheel")
        with open(marker + ".lock", "a+") as lock:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
            try:
                with open(marker, encoding="utf-8") as f:
                    if f.read().strip() == self.name:
                        return
            except FileNotFoundError:
                pass
            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, self.filename)
                with open(path, "wb") as f:
                    f.write(self.wheel)
                subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps",
                                "--no-index", "--force-reinstall", "-q", path], check=True)
            with open(marker, "w", encoding="utf-8") as f:
                f.write(self.name + "\n")
        importlib.invalidate_caches()  # the new package, for this process's imports


def plugin_names(dask_worker: Any) -> Any:
    """The names of a worker's plugins (for client.run)."""
    return sorted(dask_worker.plugins)
