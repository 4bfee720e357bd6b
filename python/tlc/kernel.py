"""One compiled kernel as a Python callable on torch tensors.

Every argument is checked against the kernel's signature before anything is
launched: a tensor with the wrong device, dtype, shape, strides or alignment
would otherwise be read out of bounds or fault on the GPU, far from the
mistake. Outputs the caller leaves out (parameters the kernel writes and
never reads, TileLang's ``out_idx``) are allocated with ``torch.empty``.
The launch goes on torch's current stream and a launch error raises.

torch is imported on the first call, so ``import tlc`` works without it.
"""
from typing import Callable, Dict, Optional

from .signature import KernelSignature, Param



def _split_dim(d: str):
    """A shape entry naming a size: "m" -> ("m", 1), "m*32" (a multiple) -> ("m", 32)."""
    name, _, k = d.partition("*")
    return name, int(k) if k else 1


def _bind_dim(sizes: Dict[str, int], d: str, n: int) -> bool:
    """Binds (or checks) the size a dimension of extent n names."""
    name, k = _split_dim(d)
    return n % k == 0 and sizes.setdefault(name, n // k) == n // k


def _dim_value(sizes: Dict[str, int], d: str) -> int:
    name, k = _split_dim(d)
    return sizes[name] * k

class ArgumentError(ValueError):
    """An argument does not match the kernel's signature (nothing was launched)."""


class LaunchError(RuntimeError):
    """The launcher returned a CUDA error."""


def _torch():
    import torch  # optional dependency: only needed to call a kernel
    return torch


def _torch_dtype(torch, name: str):
    dtype = getattr(torch, name, None)
    if dtype is None:
        raise ArgumentError(f"this torch has no dtype '{name}'")
    return dtype


class Kernel:
    """``kernel(*tensors)``: checks, allocates the left-out outputs, launches.

    ``launch(*pointers, stream)`` is the C launcher (a ctypes function) and
    ``error_text(code)`` turns a cudaError_t into words; both are passed in
    so that the checks can be tested without a GPU.
    """

    def __init__(self, sig: KernelSignature, launch: Callable[..., int],
                 error_text: Callable[[int], str]):
        self.signature = sig
        self.name = sig.name
        self._launch = launch
        self._error_text = error_text
        self._inputs = [p for p in sig.params if not p.output]
        self._torch = None
        self._dtypes = None
        # Shapes without size names, compared whole (torch.Size is a tuple).
        self._fixed_shapes = [p.shape if all(isinstance(d, int) for d in p.shape) else None
                              for p in sig.params]

    def __repr__(self):
        params = ", ".join(f"{p.name}: {p.dtype}{list(p.shape)}" for p in self.signature.params)
        return f"<tlc kernel {self.name}({params})>"

    def _where(self, p: Param) -> str:
        return f"{self.name}: argument '{p.name}' (parameter {p.index + 1} of {len(self.signature.params)})"

    def _check(self, p: Param, t, device, sizes: Dict[str, int]):
        """(device, data pointer) of t, or the error that names p. Called for
        every argument of every launch, so the common case is kept short."""
        if not isinstance(t, self._torch.Tensor):
            raise TypeError(f"{self._where(p)} must be a torch.Tensor, got {type(t).__name__}")
        dev = t.device
        if dev.type != "cuda":
            raise ArgumentError(f"{self._where(p)} is on {dev}; the kernel needs a CUDA tensor")
        if device is not None and dev != device:
            raise ArgumentError(f"{self._where(p)} is on {dev}, the other tensors on {device}")
        want = self._dtypes[p.index]
        if t.dtype != want:
            raise ArgumentError(f"{self._where(p)} has dtype {t.dtype}; the kernel takes {want}")
        shape = t.shape
        fixed = self._fixed_shapes[p.index]
        if fixed is not None:
            ok = shape == fixed
        else:  # a dimension named by a size: the same name, the same extent everywhere
            ok = len(shape) == len(p.shape) and all(
                _bind_dim(sizes, d, n) if isinstance(d, str) else d == n
                for d, n in zip(p.shape, shape))
        if not ok:
            raise ArgumentError(f"{self._where(p)} has shape {list(shape)}; the kernel takes "
                                f"{list(p.shape)}")
        if p.strides is not None:  # T.StridedTensor: the strides the kernel was compiled for
            if len(t.stride()) != len(p.strides) or not all(
                    sizes.setdefault(d, n) == n if isinstance(d, str) else d == n
                    for d, n in zip(p.strides, t.stride())):
                raise ArgumentError(f"{self._where(p)} has strides {list(t.stride())}; the kernel "
                                    f"takes {list(p.strides)}")
        elif not t.is_contiguous():
            raise ArgumentError(f"{self._where(p)} is not contiguous (strides {list(t.stride())}); "
                                f"the kernel reads it as a dense row-major array: pass .contiguous()")
        ptr = t.data_ptr()
        if ptr % p.align_bytes:
            raise ArgumentError(f"{self._where(p)} starts at an address that is not a multiple of "
                                f"{p.align_bytes} bytes, which the kernel's vector accesses need "
                                f"(a view at an offset?): pass .clone()")
        return dev, ptr

    def _bind(self, args):
        """The arguments in parameter order, None for each output to allocate."""
        params = self.signature.params
        if len(args) == len(params):
            return list(args)
        if len(args) != len(self._inputs):
            names = ", ".join(p.name for p in params)
            raise TypeError(f"{self.name}: takes {len(params)} tensors ({names}) or the "
                            f"{len(self._inputs)} inputs alone, got {len(args)}")
        inputs = iter(args)
        return [None if p.output else next(inputs) for p in params]

    def _allocate(self, p: Param, device, sizes: Dict[str, int]):
        torch = self._torch
        if device is None:
            device = torch.device("cuda", torch.cuda.current_device())
        try:
            shape = tuple(_dim_value(sizes, d) if isinstance(d, str) else d for d in p.shape)
        except KeyError as e:
            raise ArgumentError(f"{self._where(p)}: cannot allocate it, no input gives the size "
                                f"{e.args[0]}") from None
        if p.strides is not None:
            try:
                strides = tuple(sizes[d] if isinstance(d, str) else d for d in p.strides)
            except KeyError as e:
                raise ArgumentError(f"{self._where(p)}: cannot allocate it, no input gives the "
                                    f"stride {e.args[0]}") from None
            return torch.empty_strided(shape, strides, dtype=self._dtypes[p.index], device=device)
        return torch.empty(shape, dtype=self._dtypes[p.index], device=device)

    def __call__(self, *args):
        if self._torch is None:
            torch = _torch()
            self._dtypes = [_torch_dtype(torch, p.dtype) for p in self.signature.params]
            self._torch = torch
        params = self.signature.params
        tensors = self._bind(args)
        device, sizes, ptrs = None, {}, [0] * len(params)
        for p, t in zip(params, tensors):
            if t is not None:
                device, ptrs[p.index] = self._check(p, t, device, sizes)
        outputs = []
        for p, t in zip(params, tensors):
            if t is None:  # allocated after the inputs bound every size name
                out = self._allocate(p, device, sizes)
                device, ptrs[p.index] = self._check(p, out, device, sizes)
                outputs.append(out)
        stream = self._torch.cuda.current_stream(device).cuda_stream
        # Runtime sizes (T.dynamic) follow the tensors, bound from their shapes.
        code = self._launch(*ptrs, *[sizes[name] for name in self.signature.sizes], stream)
        if code != 0:
            raise LaunchError(f"{self.name}: the launch failed: {self._error_text(code)}")
        if not outputs:
            return None
        return outputs[0] if len(outputs) == 1 else tuple(outputs)


class Module:
    """The kernels of one compiled file: ``mod.NAME``, ``mod["NAME"]``, and, when
    the file has one kernel, ``mod(*tensors)`` calls it."""

    def __init__(self, kernels, path: Optional[str] = None, note: Optional[str] = None):
        self._kernels = {k.name: k for k in kernels}
        self.library_path = path
        self.note = note  # e.g. the tuned config that was used

    def __getitem__(self, name) -> Kernel:
        return self._kernels[name]

    def __getattr__(self, name) -> Kernel:
        kernels = self.__dict__.get("_kernels", {})
        if name in kernels:
            return kernels[name]
        raise AttributeError(f"no kernel '{name}' (the file has {', '.join(kernels) or 'none'})")

    def __iter__(self):
        return iter(self._kernels.values())

    def __len__(self):
        return len(self._kernels)

    def __call__(self, *args):
        if len(self._kernels) != 1:
            raise TypeError(f"the module has {len(self._kernels)} kernels "
                            f"({', '.join(self._kernels)}); call one by name")
        return next(iter(self._kernels.values()))(*args)
