# SPDX-License-Identifier: MIT
"""The PEP 517 build backend of the libball Python binding, in the standard
library only.

The wheel it builds holds the Python package and a copy of the C library,
``libball/_lib/libball.so.1``, compiled here from the repository's sources
with the system C compiler (``cc``, or ``$CC``). The backend needs no
setuptools and no wheel package, which is what lets

    python3 -m venv venv
    venv/bin/pip install ./bindings/python

work offline in a plain venv (setuptools' backend fails there with
"invalid command 'bdist_wheel'" unless the wheel package is installed, and
pip cannot download it offline). pyproject.toml names it with
``backend-path``; the metadata come from the ``[project]`` table of
pyproject.toml.

Where the C sources come from (``_c_sources``): ``csrc/`` next to
pyproject.toml when it exists (an sdist: ``build_sdist`` copies
``libball/`` and ``include/`` of the repository there), else the
repository this directory lives in (``bindings/python/../..``). The
library is compiled in a temporary directory: the source tree is never
written to. The flags are those of the project's Makefile for the shared
library (``-std=c11 -O3 -fPIC -fvisibility=hidden``, the soname
``libball.so.1`` and the symbol versions of ``libball/exports.map``);
``$CFLAGS`` and ``$LDFLAGS`` are appended when set.

The wheel also carries the extension module ``libball/_speed<EXT_SUFFIX>``
(``libball/_speed.c``, the hot calls of ``Game``), compiled for the running
interpreter with its headers (``Python.h``), so it is tagged for the
interpreter and the platform (``cp311-cp311-linux_x86_64``) and is not pure.
At run time the package still loads another copy when asked (see
``libball/_native.py``: ``LIBBALL_PATH``, ``LIBBALL_USE_SYSTEM=1``).

Hooks: build_wheel and build_sdist (PEP 517). Editable installs (PEP 660)
are not offered: to work on the binding, put bindings/python on
PYTHONPATH, as the tests do.
"""

import base64
import concurrent.futures
import hashlib
import io
import os
import re
import shlex
import stat
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # bindings/python
PACKAGE = "libball"
# The library's file name in the wheel and the soname it is linked with:
# libball/_native.py looks for PACKAGE/_lib/SONAME.
SONAME = "libball.so.1"
LIB_DIR = "_lib"
# Fixed timestamps: the same sources give the same archives.
_DATE = (1980, 1, 1, 0, 0, 0)


def _project():
    """The [project] table of pyproject.toml (the keys this backend uses)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    try:
        import tomllib
    except ImportError:  # Python < 3.11: the few keys used, read by hand
        table = re.search(r"^\[project\]\s*$(.*?)(?=^\[|\Z)", text, re.S | re.M).group(1)
        project = {k: v for k, v in re.findall(r'^(\w[\w-]*)\s*=\s*"([^"]*)"', table, re.M)}
        block = re.search(r"^classifiers\s*=\s*\[(.*?)\]", table, re.S | re.M)
        project["classifiers"] = re.findall(r'"([^"]*)"', block.group(1)) if block else []
        lic = re.search(r'^license\s*=\s*\{\s*text\s*=\s*"([^"]*)"\s*\}', table, re.M)
        if lic:
            project["license"] = {"text": lic.group(1)}
        return project
    return tomllib.loads(text)["project"]


def _names():
    project = _project()
    name = re.sub(r"[-_.]+", "_", project["name"]).lower()
    return project, name, project["version"]


def _metadata(project):
    lines = ["Metadata-Version: 2.1",
             "Name: %s" % project["name"],
             "Version: %s" % project["version"]]
    if project.get("description"):
        lines.append("Summary: %s" % project["description"])
    if project.get("requires-python"):
        lines.append("Requires-Python: %s" % project["requires-python"])
    license = project.get("license")
    if isinstance(license, dict) and license.get("text"):
        lines.append("License: %s" % license["text"])
    lines += ["Classifier: %s" % c for c in project.get("classifiers", [])]
    readme = project.get("readme")
    body = ""
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        body = (ROOT / readme).read_text(encoding="utf-8")
    return ("\n".join(lines) + "\n\n" + body).encode("utf-8")


def _license_file():
    """The LICENSE text: the sdist's copy, else the repository's (two
    levels above bindings/python); None when neither exists."""
    for path in (ROOT / "LICENSE", ROOT.parent.parent / "LICENSE"):
        if path.is_file():
            return path.read_bytes()
    return None


def _package_files(sources=False):
    """(path in the archive, bytes) of the package's files: the modules,
    py.typed and the extension's stub (_speed.pyi); with ``sources``, the
    extension's C source too (the sdist)."""
    files = []
    suffixes = (".py", ".pyi", ".c") if sources else (".py", ".pyi")
    for path in sorted((ROOT / PACKAGE).iterdir()):
        if path.is_file() and (path.suffix in suffixes or path.name == "py.typed"):
            files.append(("%s/%s" % (PACKAGE, path.name), path.read_bytes()))
    return files


# ------------------------------------------------------------ the C library

def _is_source_root(base):
    return ((base / "include" / "ball.h").is_file()
            and (base / "libball" / "exports.map").is_file()
            and any((base / "libball").glob("*.c")))


def _c_sources():
    """The directory holding include/ball.h and libball/*.c: csrc/ of an
    sdist, else the repository root (two levels above bindings/python)."""
    for base in (ROOT / "csrc", ROOT.parent.parent):
        if _is_source_root(base):
            return base
    raise RuntimeError(
        "libball_build: the C sources of libball are not found: neither %s nor "
        "%s holds include/ball.h and libball/*.c. Build from the repository "
        "(pip install ./bindings/python at its root; pip >= 21.3 builds the "
        "directory in place) or from an sdist made by this backend (it "
        "carries them in csrc/)." % (ROOT / "csrc", ROOT.parent.parent))


def _c_source_files(base):
    """(path relative to base, Path) of every file the library is built
    from: libball/*.c, libball/*.h, libball/*/*.[ch] (learn/, search/, nnue/),
    libball/exports.map, include/ball.h."""
    files = [p for p in sorted((base / "libball").iterdir())
             if p.is_file() and (p.suffix in (".c", ".h") or p.name == "exports.map")]
    files += [p for p in sorted((base / "libball").glob("*/*.[ch]"))]
    files.append(base / "include" / "ball.h")
    return [(p.relative_to(base).as_posix(), p) for p in files]


def _run(cmd):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        raise RuntimeError("libball_build: command failed (exit %d): %s\n%s" % (
            proc.returncode, " ".join(shlex.quote(c) for c in cmd),
            proc.stdout.decode(errors="replace")))


def _build_library(out_dir):
    """Compiles libball.so.1 into out_dir; returns its path."""
    base = _c_sources()
    cc = shlex.split(os.environ.get("CC") or "cc")
    cflags = ["-std=c11", "-O3", "-fPIC", "-fvisibility=hidden",
              "-DBALL_BUILDING_LIBRARY",
              "-I" + str(base / "include"), "-I" + str(base / "libball")]
    cflags += shlex.split(os.environ.get("CFLAGS", ""))
    sources = sorted((base / "libball").glob("*.c")) + sorted((base / "libball").glob("*/*.c"))
    obj_dir = Path(out_dir) / "obj"
    obj_dir.mkdir()
    objects = [str(obj_dir / (src.stem + ".o")) for src in sources]
    started = time.monotonic()
    # One compiler process per file, as many at once as there are CPUs.
    jobs = max(1, min(len(sources), os.cpu_count() or 1))
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for future in [pool.submit(_run, cc + cflags + ["-c", str(src), "-o", obj])
                       for src, obj in zip(sources, objects)]:
            future.result()
    lib = Path(out_dir) / SONAME
    _run(cc + ["-shared", "-Wl,-soname," + SONAME,
               "-Wl,--version-script," + str(base / "libball" / "exports.map"),
               "-o", str(lib)] + objects + shlex.split(os.environ.get("LDFLAGS", "")))
    print("libball_build: compiled %s from %d files of %s in %.1f s (%s)"
          % (SONAME, len(sources), base, time.monotonic() - started, cc[0]),
          file=sys.stderr)
    return lib


def _build_extension(out_dir):
    """Compiles the extension module libball._speed (libball/_speed.c) for
    the running interpreter into out_dir; returns its path. It does not
    link libball (the package gives it the loaded library's functions)."""
    base = _c_sources()
    cc = shlex.split(os.environ.get("CC") or "cc")
    name = "_speed" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so")
    ext = Path(out_dir) / name
    include = sysconfig.get_paths()["include"]
    if not (Path(include) / "Python.h").is_file():
        raise RuntimeError("libball_build: Python.h is not in %s: install the interpreter's "
                           "development headers (Debian: python3-dev)" % include)
    _run(cc + ["-std=c11", "-O2", "-fPIC", "-shared", "-I" + str(base / "include"),
               "-I" + include, str(ROOT / PACKAGE / "_speed.c"), "-o", str(ext)]
         + shlex.split(os.environ.get("CFLAGS", "")) + shlex.split(os.environ.get("LDFLAGS", "")))
    return ext


def _wheel_tag():
    """The wheel's tag: the extension module is built for this interpreter
    (cp311-cp311-linux_x86_64), not for any Python 3."""
    impl = sys.implementation.name
    short = {"cpython": "cp", "pypy": "pp"}.get(impl, impl)
    version = "%s%d%d" % (short, sys.version_info[0], sys.version_info[1])
    abi = re.sub(r"[^A-Za-z0-9_]", "_", (sysconfig.get_config_var("SOABI") or version)
                 .split("-")[0]) if impl != "cpython" else version
    return "%s-%s-%s" % (version, abi, _platform_tag())


def _platform_tag():
    """The wheel's platform tag: sysconfig's platform, as PEP 425 spells it
    (linux-x86_64 -> linux_x86_64)."""
    return re.sub(r"[^A-Za-z0-9_]", "_", sysconfig.get_platform())


# ------------------------------------------------------------ the archives

def _record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def _zip_add(archive, arcname, data, mode=0o644):
    info = zipfile.ZipInfo(arcname, date_time=_DATE)
    info.external_attr = (stat.S_IFREG | mode) << 16  # a file; pip keeps +x
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """Compiles the C library, writes the wheel (package + library) into
    wheel_directory and returns its file name."""
    project, name, version = _names()
    tag = _wheel_tag()
    dist_info = "%s-%s.dist-info" % (name, version)
    files = [(arcname, data, 0o644) for arcname, data in _package_files()]
    with tempfile.TemporaryDirectory(prefix="libball-build-") as scratch:
        library = _build_library(scratch).read_bytes()
        extension = _build_extension(scratch)
        files.append(("%s/%s" % (PACKAGE, extension.name), extension.read_bytes(), 0o755))
    files.append(("%s/%s/%s" % (PACKAGE, LIB_DIR, SONAME), library, 0o755))
    files.append(("%s/METADATA" % dist_info, _metadata(project), 0o644))
    if _license_file() is not None:
        files.append(("%s/LICENSE" % dist_info, _license_file(), 0o644))
    files.append(("%s/WHEEL" % dist_info,
                  ("Wheel-Version: 1.0\nGenerator: libball_build\n"
                   "Root-Is-Purelib: false\nTag: %s\n" % tag).encode(), 0o644))
    record = "".join("%s,%s,%d\n" % (arcname, _record_hash(data), len(data))
                     for arcname, data, _ in files)
    record += "%s/RECORD,,\n" % dist_info
    files.append(("%s/RECORD" % dist_info, record.encode(), 0o644))
    wheel_name = "%s-%s-%s.whl" % (name, version, tag)
    with zipfile.ZipFile(Path(wheel_directory) / wheel_name, "w") as archive:
        for arcname, data, mode in files:
            _zip_add(archive, arcname, data, mode)
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    """Writes the source archive into sdist_directory and returns its name.
    It carries the C sources under csrc/, so that a wheel can be built from
    it away from the repository."""
    project, name, version = _names()
    top = "%s-%s" % (name, version)
    files = [("PKG-INFO", _metadata(project)),
             ("pyproject.toml", (ROOT / "pyproject.toml").read_bytes()),
             ("build_backend/libball_build.py", Path(__file__).read_bytes())]
    if project.get("readme"):
        files.append((project["readme"], (ROOT / project["readme"]).read_bytes()))
    if _license_file() is not None:
        files.append(("LICENSE", _license_file()))
    files += _package_files(sources=True)
    base = _c_sources()
    files += [("csrc/" + rel, path.read_bytes()) for rel, path in _c_source_files(base)]
    sdist_name = top + ".tar.gz"
    with tarfile.open(Path(sdist_directory) / sdist_name, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for arcname, data in files:
            info = tarfile.TarInfo("%s/%s" % (top, arcname))
            info.size = len(data)
            info.mode = 0o644
            info.mtime = time.mktime(_DATE + (0, 0, -1))
            tar.addfile(info, io.BytesIO(data))
    return sdist_name


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []
