"""The kernel signatures tlc writes with ``--emit=signature`` (JSON).

tlc is the only source of truth for what a launcher takes: this module reads
its JSON and never looks at the generated ``.cu``. The format is described in
docs/pytorch.md; version 1 has, per kernel, the launcher's C name and its
parameters in call order (dtype, shape, alignment, access, output), followed
by a ``cudaStream_t``.
"""
import json
from dataclasses import dataclass
from typing import List, Optional, Tuple, Union

FORMAT_VERSION = 1


class SignatureError(ValueError):
    """The signature JSON is not one this package understands."""


@dataclass(frozen=True)
class Param:
    name: str
    index: int
    role: str  # "tensor" (version 1 has no scalar parameters yet)
    dtype: str  # tlc's dtype name: float16, bfloat16, float32, int32, ...
    shape: Tuple[Union[int, str], ...]  # an int, a size parameter's name, or "name*k" (k times it)
    element_bytes: int
    align_bytes: int  # the widest access the kernel makes; data_ptr() must be a multiple
    access: str  # read, write, readwrite or unused
    output: bool  # written and never read: a caller may leave it out
    # T.StridedTensor: element strides (ints or size names); None: row-major, contiguous
    strides: Optional[Tuple[Union[int, str], ...]] = None


@dataclass(frozen=True)
class KernelSignature:
    name: str  # the launcher's C symbol
    params: Tuple[Param, ...]
    sizes: Tuple[str, ...]  # scalar size parameters (kernels with dynamic shapes)
    outputs: Tuple[int, ...]
    grid: Tuple[int, int, int]
    threads: Tuple[int, int, int]
    shared_bytes: int


@dataclass(frozen=True)
class ModuleSignature:
    tlc_version: str
    target: str
    nvcc_arch: str
    kernels: Tuple[KernelSignature, ...]


def _need(obj, key, kind, where):
    if key not in obj:
        raise SignatureError(f"{where}: missing '{key}'")
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SignatureError(f"{where}: '{key}' should be {kind.__name__}, got {value!r}")
    return value


def _param(obj, where) -> Param:
    shape = tuple(_need(obj, "shape", list, where))
    for dim in shape:
        if isinstance(dim, bool) or not isinstance(dim, (int, str)):
            raise SignatureError(f"{where}: a shape entry should be an int or a size name, got {dim!r}")
    strides = None
    if obj.get("layout") == "strided":
        strides = tuple(_need(obj, "strides", list, where))
        if len(strides) != len(shape) or any(isinstance(d, bool) or not isinstance(d, (int, str))
                                             for d in strides):
            raise SignatureError(f"{where}: 'strides' should have one int or size name per dimension")
    return Param(
        strides=strides,
        name=_need(obj, "name", str, where),
        index=_need(obj, "index", int, where),
        role=_need(obj, "role", str, where),
        dtype=_need(obj, "dtype", str, where),
        shape=shape,
        element_bytes=_need(obj, "element_bytes", int, where),
        align_bytes=_need(obj, "align_bytes", int, where),
        access=_need(obj, "access", str, where),
        output=_need(obj, "output", bool, where),
    )


def _kernel(obj, where) -> KernelSignature:
    name = _need(obj, "name", str, where)
    where = f"{where} '{name}'"
    params = tuple(_param(p, f"{where} parameter {i}")
                   for i, p in enumerate(_need(obj, "params", list, where)))
    for i, p in enumerate(params):
        if p.index != i:
            raise SignatureError(f"{where}: parameter '{p.name}' has index {p.index}, expected {i}")
        if p.role != "tensor":
            raise SignatureError(f"{where}: parameter '{p.name}' has role '{p.role}', which "
                                 f"this version of the package cannot pass")
    if _need(obj, "stream", str, where) != "last":
        raise SignatureError(f"{where}: the launcher must take its stream last")
    return KernelSignature(
        name=name, params=params,
        sizes=tuple(_need(obj, "sizes", list, where)),
        outputs=tuple(_need(obj, "outputs", list, where)),
        grid=tuple(_need(obj, "grid", list, where)),
        threads=tuple(_need(obj, "threads", list, where)),
        shared_bytes=_need(obj, "shared_bytes", int, where),
    )


def parse(text: str) -> ModuleSignature:
    """The signature of a module from tlc's JSON; SignatureError when malformed."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise SignatureError(f"the signature is not JSON: {e}") from None
    if not isinstance(obj, dict):
        raise SignatureError("the signature is not a JSON object")
    version = obj.get("tlc_signature")
    if version != FORMAT_VERSION:
        raise SignatureError(f"signature format {version!r}; this package reads {FORMAT_VERSION}")
    kernels = tuple(_kernel(k, f"kernel {i}")
                    for i, k in enumerate(_need(obj, "kernels", list, "signature")))
    return ModuleSignature(
        tlc_version=_need(obj, "tlc_version", str, "signature"),
        target=_need(obj, "target", str, "signature"),
        nvcc_arch=_need(obj, "nvcc_arch", str, "signature"),
        kernels=kernels,
    )
