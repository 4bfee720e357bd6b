"""``tlc.compile``: tlc + nvcc into a cached shared library, loaded with ctypes.

The cache key is a SHA-256 of everything that can change the library: the
source bytes, the options (calls, defines, target), the ``--version`` output
of tlc and nvcc, and the glue source. A hit loads the library without
running either tool. Each entry is a folder ``TLC_CACHE_DIR/<key>/`` holding
``kernel.cu``, ``signature.json`` and ``kernel.so``; it is built in a
temporary folder and renamed into place, so an interrupted build never
leaves an entry that looks complete.
"""
import ctypes
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Dict, Iterable, List, Optional, Union

from . import signature as sigmod
from . import tune as tunemod
from .kernel import Kernel, Module

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class CompileError(RuntimeError):
    """tlc or nvcc failed; the message holds their diagnostics."""


def find_tlc() -> str:
    """The tlc binary: $TLC_BIN, then next to an installed package
    (PREFIX/share/tlc/python/tlc -> PREFIX/bin/tlc), then the repository's
    build/bin/tlc, then PATH."""
    env = os.environ.get("TLC_BIN")
    if env:
        return env
    for rel in ("../../../../bin/tlc", "../../build/bin/tlc"):
        path = os.path.normpath(os.path.join(PACKAGE_DIR, rel))
        if os.access(path, os.X_OK):
            return path
    found = shutil.which("tlc")
    if not found:
        raise CompileError("cannot find the tlc binary: set TLC_BIN, or build it (build/bin/tlc)")
    return found


def find_nvcc() -> str:
    env = os.environ.get("TLC_NVCC")
    found = env or shutil.which("nvcc")
    if not found and os.access("/usr/local/cuda/bin/nvcc", os.X_OK):
        found = "/usr/local/cuda/bin/nvcc"
    if not found:
        raise CompileError("cannot find nvcc: put it on PATH or set TLC_NVCC")
    return found


def cache_dir() -> str:
    return os.environ.get("TLC_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "tlc")


def _run(cmd: List[str], what: str, echo: bool = True) -> str:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CompileError(f"{what} failed (exit status {proc.returncode}):\n"
                           f"$ {' '.join(cmd)}\n{proc.stderr}{proc.stdout}")
    if proc.stderr and echo:  # tlc's warnings and notes: shown, as the command line would
        sys.stderr.write(proc.stderr)
    return proc.stdout


_version_cache: Dict[str, str] = {}


def _version(tool: str) -> str:
    if tool not in _version_cache:
        _version_cache[tool] = _run([tool, "--version"], f"{tool} --version")
    return _version_cache[tool]


def tlc_options(calls: Iterable[str], defines: Optional[Dict[str, object]],
                target: Optional[str]) -> List[str]:
    opts: List[str] = []
    for call in calls:
        opts += ["--call", call]
    for name, value in (defines or {}).items():
        opts += ["-D", f"{name}={value if isinstance(value, str) else repr(value)}"]
    if target:
        opts.append(f"--target={target}")
    return opts


def cache_key(source: bytes, options: List[str], tlc: str, nvcc: str) -> str:
    h = hashlib.sha256()
    for part in (source, "\0".join(options).encode(), _version(tlc).encode(),
                 _version(nvcc).encode(), open(os.path.join(PACKAGE_DIR, "glue.cu"), "rb").read()):
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()[:32]


def _build(path: str, options: List[str], entry: str, tlc: str, nvcc: str) -> None:
    os.makedirs(os.path.dirname(entry), exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".build-", dir=os.path.dirname(entry))
    try:
        cu, sig, so = (os.path.join(tmp, n) for n in ("kernel.cu", "signature.json", "kernel.so"))
        _run([tlc, path, *options, "-o", cu], "tlc")
        # Its warnings are those of the line above: not shown twice.
        _run([tlc, path, *options, "--emit=signature", "-o", sig], "tlc --emit=signature", echo=False)
        arch = sigmod.parse(open(sig).read()).nvcc_arch
        _run([nvcc, "-O3", *arch.split(), "-shared", "-Xcompiler", "-fPIC", cu,
              os.path.join(PACKAGE_DIR, "glue.cu"), "-o", so], "nvcc")
        try:
            os.rename(tmp, entry)
        except OSError:  # another process built the same entry first: keep theirs
            if not os.path.exists(os.path.join(entry, "kernel.so")):
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _error_text(lib):
    name, text = lib.tlc_py_error_name, lib.tlc_py_error_string
    name.restype = text.restype = ctypes.c_char_p
    name.argtypes = text.argtypes = [ctypes.c_int]
    return lambda code: f"{name(code).decode()} ({code}): {text(code).decode()}"


def load(entry: str, note: Optional[str] = None) -> Module:
    """The kernels of a cache entry (a folder with kernel.so and signature.json)."""
    sig = sigmod.parse(open(os.path.join(entry, "signature.json")).read())
    lib = ctypes.CDLL(os.path.join(entry, "kernel.so"))
    error_text = _error_text(lib)
    kernels = []
    for k in sig.kernels:
        fn = getattr(lib, k.name)
        fn.restype = ctypes.c_int
        fn.argtypes = [ctypes.c_void_p] * (len(k.params) + 1)
        kernels.append(Kernel(k, fn, error_text))
    return Module(kernels, os.path.join(entry, "kernel.so"), note)


def compile(path: str, call: Union[None, str, Iterable[str]] = None,
            defines: Optional[Dict[str, object]] = None, target: Optional[str] = None,
            tune_file: Optional[str] = None) -> Module:
    """Compiles a .tl or TileLang .py file and returns its kernels.

    ``call`` is one ``--call`` (or a list); ``defines`` maps module constants
    to values (``-D``); ``target`` is ``sm_90a`` (default), ``sm_90`` or
    ``sm_80``. When a tune file (``tune_file``, else ``PATH.tune.yaml``) has
    a winner for a call, that call is compiled with the winning config and a
    note says so.
    """
    calls = [call] if isinstance(call, str) else list(call or [])
    notes = []
    tuned = tunemod.load_tune_file(tune_file or tunemod.default_tune_file(path),
                                   missing_ok=tune_file is None)
    for i, c in enumerate(calls):
        winner = tunemod.winner(tuned, c, target, path)
        if winner is not None:
            calls[i] = winner.call
            notes.append(f"note: {c} uses the tuned config {tunemod.format_config(winner.config)} "
                         f"({winner.time_ms:.4g} ms, from {tuned.path})")
    for n in notes:
        sys.stderr.write(n + "\n")
    tlc, nvcc = find_tlc(), find_nvcc()
    options = tlc_options(calls, defines, target)
    with open(path, "rb") as f:
        source = f.read()
    entry = os.path.join(cache_dir(), cache_key(source, options, tlc, nvcc))
    if not os.path.exists(os.path.join(entry, "kernel.so")):
        _build(path, options, entry, tlc, nvcc)
    return load(entry, "\n".join(notes) or None)
