"""Autotuning: expand a search space into candidate calls, time each one on
the GPU with tlc's own harness, and remember the winner in a tune file.

A *candidate* is the user's ``--call`` with keyword arguments added
(``matmul(4096, 4096, 4096)`` + ``block_M=64`` ->
``matmul(4096, 4096, 4096, block_M=64)``). The space comes from
``--space key=v1,v2`` options (their product) and/or a list of config dicts
(``tlc.autotune(configs=...)``, e.g. the list an ``@autotune(configs=...)``
decorator names).

Timing is split in two so the GPU part can run elsewhere:

* ``prepare`` (any machine with nvcc): per candidate, ``tlc --harness`` (the
  kernel, a reference lowering of the same program, a checker and a timer)
  and nvcc. A candidate tlc or nvcc refuses (shared memory over the limit, a
  shape the config cannot tile) is recorded as SKIPPED with the reason.
* ``run`` (the GPU): every harness checks its kernel against the reference on
  random data and times it (10 warm-ups, the median of 100 runs over rotating
  copies larger than L2, so every run starts with a cold L2). The three
  fastest are timed again and the winner is the fastest of the re-timing.
  The results go to a tune file.

The tune file is YAML (docs/pytorch.md). ``tlc.compile`` reads it: a call
that has a recorded winner for the same source and target is compiled with
the winning config, with a note. Without a tune file nothing changes.
"""
import ast
import hashlib
import itertools
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Optional

TUNE_FORMAT = 1


class TuneError(ValueError):
    """A malformed space, call or tune file."""


@dataclass
class Candidate:
    config: Dict[str, object]
    call: str
    status: str = "PENDING"  # PASS, FAIL, SKIPPED
    time_ms: Optional[float] = None
    tflops: Optional[float] = None
    tbps: Optional[float] = None
    reason: Optional[str] = None


@dataclass
class Tune:
    call: str
    target: str
    candidates: List[Candidate] = field(default_factory=list)


@dataclass
class TuneFile:
    path: str
    source_sha256: str = ""
    gpu: str = ""
    tlc_version: str = ""
    tunes: List[Tune] = field(default_factory=list)


# ---- the search space -------------------------------------------------------

def _literal(text: str):
    """A --space value: a Python literal, or a bare word as a string."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def parse_space(items: List[str]) -> Dict[str, list]:
    """``["block_M=64,128", "threads=128"]`` -> ``{"block_M": [64, 128], ...}``."""
    space: Dict[str, list] = {}
    for item in items:
        name, eq, values = item.partition("=")
        name = name.strip()
        if not eq or not name.isidentifier() or not values.strip():
            raise TuneError(f"--space '{item}': expected NAME=V1,V2,... with NAME a Python identifier")
        if name in space:
            raise TuneError(f"--space gives '{name}' twice")
        parts = [v.strip() for v in values.split(",")]
        if not all(parts):
            raise TuneError(f"--space '{item}': an empty value")
        space[name] = [_literal(v) for v in parts]
    return space


def format_config(config: Dict[str, object]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in config.items())


def with_config(call: str, config: Dict[str, object]) -> str:
    """The call with the config's keyword arguments appended."""
    call = call.strip()
    if not call.endswith(")") or "(" not in call:
        raise TuneError(f"'{call}' is not a call such as 'matmul(1024, 1024, 1024)'")
    if not config:
        return call
    head = call[:-1].rstrip()
    sep = "" if head.endswith("(") else ", "
    return f"{head}{sep}{format_config(config)})"


def expand(call: str, space: Optional[Dict[str, list]] = None,
           configs: Optional[List[Dict[str, object]]] = None) -> List[Candidate]:
    """The candidates: each config of ``configs`` (or one empty config) times
    the product of ``space``; a --space key replaces the same key of a config."""
    bases = [dict(c) for c in configs] if configs else [{}]
    space = space or {}
    names = list(space)
    seen, out = set(), []
    for base in bases:
        for values in itertools.product(*(space[n] for n in names)):
            config = {**base, **dict(zip(names, values))}
            key = with_config(call, config)
            if key not in seen:
                seen.add(key)
                out.append(Candidate(config, key))
    return out


def autotune_configs(path: str, call: str, target: Optional[str] = None) -> List[Dict[str, object]]:
    """The configs of the @autotune decorator of the factory ``call`` runs,
    as tlc evaluated them (its --emit=signature "autotune" list), restricted
    to the parameters the call leaves to them. Empty when there is none."""
    from .build import _run, find_tlc
    from . import signature as sigmod
    tflag = [f"--target={target}"] if target else []
    text = _run([find_tlc(), path, "--call", call, *tflag, "--emit=signature"],
                "tlc --emit=signature", echo=False)
    factory = re.match(r"\s*(?:\w+\s*=\s*)?([\w.]+)\s*\(", call)
    configs = []
    for entry in json.loads(text).get("autotune", []):
        if factory and entry["factory"] == factory[1].split(".")[-1]:
            configs += [{k: c[k] for k in entry["tuned"] if k in c} for c in entry["configs"]]
    sigmod.parse(text)  # the rest must be a signature this package reads
    return configs


# ---- the tune file ----------------------------------------------------------

def default_tune_file(source_path: str) -> str:
    return source_path + ".tune.yaml"


def source_sha256(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _normal_call(call: str) -> str:
    return re.sub(r"\s+", "", call)


def write_tune_file(tf: TuneFile) -> None:
    """Writes the YAML; every scalar is written as JSON, which YAML reads the
    same, so the file needs no YAML library to write or read back."""
    j = json.dumps
    lines = [f"# tlc tune file, format {TUNE_FORMAT}: per call, every candidate config with its",
             "# status (PASS / FAIL against the reference / SKIPPED with the reason), median time",
             "# and throughput. tlc.compile picks the fastest PASS of a call (docs/pytorch.md).",
             f"tune_format: {TUNE_FORMAT}",
             f"tlc_version: {j(tf.tlc_version)}",
             f"gpu: {j(tf.gpu)}",
             f"source_sha256: {j(tf.source_sha256)}",
             "tunes:"]
    for t in tf.tunes:
        lines.append(f"- call: {j(t.call)}")
        lines.append(f"  target: {j(t.target)}")
        best = best_candidate(t)
        lines.append(f"  winner: {j(best.call if best else None)}")
        lines.append("  candidates:")
        for c in t.candidates:
            lines.append("  - " + j({"config": c.config, "call": c.call, "status": c.status,
                                     "time_ms": c.time_ms, "tflops": c.tflops, "tbps": c.tbps,
                                     "reason": c.reason}))
    tmp = tf.path + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, tf.path)


def _read_yaml(text: str, path: str):
    """The tune file as plain data: with PyYAML when present, else by reading
    back exactly the layout write_tune_file writes."""
    try:
        import yaml
    except ImportError:
        yaml = None
    if yaml is not None:
        try:
            return yaml.safe_load(text)
        except yaml.YAMLError as e:
            raise TuneError(f"{path}: not YAML: {e}") from None
    data: dict = {}
    tune = None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            if line.startswith("  - "):
                tune["candidates"].append(json.loads(line[4:]))
            elif line.startswith("- ") or line.startswith("  "):
                if line.startswith("- "):
                    tune = {}
                    data["tunes"].append(tune)
                key, _, value = line[2:].partition(":")
                tune[key] = [] if key == "candidates" else json.loads(value)
            else:
                key, _, value = line.partition(":")
                data[key] = [] if key == "tunes" else json.loads(value)
        except (ValueError, TypeError, KeyError, AttributeError):
            raise TuneError(f"{path}:{n}: cannot read this line of a tune file: {line.strip()}") from None
    return data


def _as_candidate(obj, where) -> Candidate:
    if not isinstance(obj, dict) or not isinstance(obj.get("call"), str) \
            or not isinstance(obj.get("config"), dict) or obj.get("status") not in ("PASS", "FAIL", "SKIPPED"):
        raise TuneError(f"{where}: a candidate needs config (a mapping), call and status "
                        f"(PASS, FAIL or SKIPPED)")
    time_ms = obj.get("time_ms")
    if obj["status"] == "PASS" and (not isinstance(time_ms, (int, float)) or time_ms <= 0):
        raise TuneError(f"{where}: a PASS candidate needs a positive time_ms")
    return Candidate(obj["config"], obj["call"], obj["status"], time_ms, obj.get("tflops"),
                     obj.get("tbps"), obj.get("reason"))


def load_tune_file(path: str, missing_ok: bool = False) -> Optional[TuneFile]:
    """The tune file at path; None when it does not exist and missing_ok."""
    if not os.path.exists(path):
        if missing_ok:
            return None
        raise TuneError(f"{path}: no such tune file")
    with open(path) as f:
        data = _read_yaml(f.read(), path)
    if not isinstance(data, dict) or data.get("tune_format") != TUNE_FORMAT:
        raise TuneError(f"{path}: not a tlc tune file of format {TUNE_FORMAT}")
    tf = TuneFile(path, str(data.get("source_sha256") or ""), str(data.get("gpu") or ""),
                  str(data.get("tlc_version") or ""))
    for i, t in enumerate(data.get("tunes") or []):
        where = f"{path}: tune {i + 1}"
        if not isinstance(t, dict) or not isinstance(t.get("call"), str):
            raise TuneError(f"{where}: needs a call")
        cands = [_as_candidate(c, f"{where}, candidate {j + 1}")
                 for j, c in enumerate(t.get("candidates") or [])]
        tf.tunes.append(Tune(t["call"], str(t.get("target") or "sm_90a"), cands))
    return tf


def best_candidate(t: Tune) -> Optional[Candidate]:
    """The fastest candidate that passed its check (the first on a tie)."""
    passed = [c for c in t.candidates if c.status == "PASS"]
    return min(passed, key=lambda c: c.time_ms) if passed else None


def winner(tf: Optional[TuneFile], call: str, target: Optional[str],
           source_path: Optional[str] = None) -> Optional[Candidate]:
    """The recorded winner for call on target, or None. A tune file made from
    another version of the source is ignored with a warning: its timings no
    longer describe this code."""
    if tf is None:
        return None
    target = target or "sm_90a"
    for t in tf.tunes:
        if _normal_call(t.call) == _normal_call(call) and t.target == target:
            if source_path and tf.source_sha256 and tf.source_sha256 != source_sha256(source_path):
                sys.stderr.write(f"warning: {tf.path} was tuned on another version of "
                                 f"{source_path}; ignoring it (run tlc tune again)\n")
                return None
            return best_candidate(t)
    return None


# ---- timing with the harness ------------------------------------------------

def _first_error(text: str) -> str:
    for line in text.splitlines():
        if "error" in line:
            return line.strip()
    return (text.strip().splitlines() or ["(no output)"])[-1]


def _build_candidate(tlc: str, nvcc: str, path: str, c: Candidate, tflag: List[str], stem: str) -> None:
    """tlc --harness + nvcc for one candidate; SKIPPED with the reason when either refuses."""
    from . import signature as sigmod
    cu = stem + ".cu"
    proc = subprocess.run([tlc, path, "-w", "--call", c.call, *tflag, "--harness", "-o", cu],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        c.status, c.reason = "SKIPPED", "tlc: " + _first_error(proc.stderr)
        return
    sig = subprocess.run([tlc, path, "-w", "--call", c.call, *tflag, "--emit=signature"],
                         capture_output=True, text=True)
    arch = sigmod.parse(sig.stdout).nvcc_arch
    proc = subprocess.run([nvcc, "-O3", *arch.split(), cu, "-o", stem], capture_output=True, text=True)
    if proc.returncode != 0:
        c.status, c.reason = "SKIPPED", "nvcc: " + _first_error(proc.stderr)
        return
    c.status = "BUILT"


def prepare(path: str, call: str, candidates: List[Candidate], workdir: str,
            target: Optional[str] = None, jobs: Optional[int] = None) -> None:
    """Builds one harness executable per candidate in workdir (CPU + nvcc,
    `jobs` at a time) and writes workdir/plan.json. Candidates that do not
    build are SKIPPED."""
    from concurrent.futures import ThreadPoolExecutor
    from .build import find_nvcc, find_tlc
    tlc, nvcc = find_tlc(), find_nvcc()
    os.makedirs(workdir, exist_ok=True)
    tflag = [f"--target={target}"] if target else []
    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        list(pool.map(lambda ic: _build_candidate(tlc, nvcc, path, ic[1], tflag,
                                                  os.path.join(workdir, f"cand{ic[0]}")),
                      enumerate(candidates)))
    plan = {"source": os.path.abspath(path), "source_sha256": source_sha256(path), "call": call,
            "target": target or "sm_90a",
            "candidates": [dict(c.__dict__, exe=f"cand{i}") for i, c in enumerate(candidates)]}
    with open(os.path.join(workdir, "plan.json"), "w") as f:
        json.dump(plan, f, indent=1)


_PERF = re.compile(r"^perf \S+: median_ms=([\d.eE+-]+) tflops=([\d.eE+-]+) tbps=([\d.eE+-]+)", re.M)
_CHECK = re.compile(r"^check [^\[\s]+: (PASS|FAIL)", re.M)
_DEVICE = re.compile(r"^device: (.*?) \(", re.M)


def time_harness(exe: str, iters: int = 100):
    """Runs one harness: (status, median_ms, tflops, tbps, gpu, reason)."""
    proc = subprocess.run([exe, "--iters", str(iters)], capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    gpu = (_DEVICE.search(out) or [None, ""])[1]
    checks = _CHECK.findall(out)
    perf = _PERF.search(out)
    if not checks or "FAIL" in checks or proc.returncode != 0:
        return "FAIL", None, None, None, gpu, _first_error(out) if not checks else "mismatch against the reference"
    if not perf:
        return "FAIL", None, None, None, gpu, "the harness printed no time"
    return "PASS", float(perf[1]), float(perf[2]), float(perf[3]), gpu, None


def run(workdir: str, out_path: Optional[str] = None, retime: int = 3) -> TuneFile:
    """Times every built candidate of workdir (on the GPU), re-times the
    fastest `retime` and writes the tune file (default: SOURCE.tune.yaml)."""
    with open(os.path.join(workdir, "plan.json")) as f:
        plan = json.load(f)
    cands, gpu = [], ""
    for c in plan["candidates"]:
        exe = os.path.join(workdir, c.pop("exe"))
        cand = Candidate(**c)
        if cand.status == "BUILT":
            cand.status, cand.time_ms, cand.tflops, cand.tbps, g, cand.reason = time_harness(exe)
            gpu = gpu or g
            print(f"{cand.status:7} {cand.time_ms or 0:9.4f} ms  {cand.call}", flush=True)
        else:
            print(f"{cand.status:7} {'':12} {cand.call}: {cand.reason}", flush=True)
        cands.append((cand, exe))
    # The fastest few again: the winner must stay the argmax when re-timed.
    top = sorted((x for x in cands if x[0].status == "PASS"), key=lambda x: x[0].time_ms)[:retime]
    for cand, exe in top:
        status, ms, tf, tb, _, reason = time_harness(exe)
        print(f"re-time {cand.time_ms:9.4f} -> {ms or 0:9.4f} ms  {cand.call}", flush=True)
        if status == "PASS":
            cand.time_ms, cand.tflops, cand.tbps = ms, tf, tb
        else:
            cand.status, cand.reason = status, reason
    from .build import _version, find_tlc
    path = out_path or default_tune_file(plan["source"])
    old = load_tune_file(path, missing_ok=True)
    tf = TuneFile(path, plan["source_sha256"], gpu, _version(find_tlc()).split()[1])
    if old and old.source_sha256 == tf.source_sha256:  # keep the other calls' results
        tf.tunes = [t for t in old.tunes if not (_normal_call(t.call) == _normal_call(plan["call"])
                                                 and t.target == plan["target"])]
    tf.tunes.append(Tune(plan["call"], plan["target"], [c for c, _ in cands]))
    write_tune_file(tf)
    best = best_candidate(tf.tunes[-1])
    print(f"winner: {best.call} ({best.time_ms:.4f} ms)" if best else "no candidate passed")
    print(f"wrote {path}")
    return tf


def autotune(path: str, call: str, space: Optional[Dict[str, list]] = None,
             configs: Optional[List[Dict[str, object]]] = None, target: Optional[str] = None,
             workdir: Optional[str] = None, out_path: Optional[str] = None,
             jobs: Optional[int] = None) -> TuneFile:
    """prepare + run on this machine (it needs the GPU)."""
    import tempfile
    if configs is None and not space:
        configs = autotune_configs(path, call, target)
    if not configs and not space:
        raise TuneError(f"nothing to tune: {call} has no @autotune configs left to choose; "
                        f"give --space NAME=V1,V2")
    candidates = expand(call, space, configs)
    workdir = workdir or tempfile.mkdtemp(prefix="tlc-tune-")
    prepare(path, call, candidates, workdir, target, jobs)
    return run(workdir, out_path)
