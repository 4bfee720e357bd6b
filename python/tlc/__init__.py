"""tlc from Python: compile a tlc kernel file and call its kernels on torch
tensors, and autotune factory calls on the GPU.

    import tlc
    gemm = tlc.compile("examples/tilelang-style/gemm.py",
                       call="matmul(1024, 1024, 1024, 128, 128, 32)")
    c = gemm(a, b)          # C is allocated: the kernel writes it, never reads it
    gemm.matmul(a, b, c)    # or pass every tensor; kernels by name

torch is needed only to call a kernel, not to import this package.
See docs/pytorch.md.
"""
from .build import CompileError, cache_dir, compile, find_nvcc, find_tlc, load
from .kernel import ArgumentError, Kernel, LaunchError, Module
from .signature import SignatureError
from .tune import (TuneError, autotune, expand, load_tune_file, parse_space, winner,
                   write_tune_file)

__all__ = ["compile", "load", "autotune", "Kernel", "Module", "ArgumentError", "LaunchError",
           "CompileError", "SignatureError", "TuneError", "cache_dir", "find_tlc", "find_nvcc",
           "expand", "parse_space", "load_tune_file", "write_tune_file", "winner"]
