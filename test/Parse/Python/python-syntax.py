# Any Python file lexes (numbers in every base, imaginary literals, raw,
# byte and f-strings, tabs, walrus, bitwise and augmented operators,
# non-ASCII names); top-level statements that do not parse are host code:
# kept as 'skipped' nodes naming what they define, and the kernel compiles.
# RUN: %tlc %s --emit=ast | FileCheck %s
# RUN: %tlc %s -o %t.cu
# RUN: FileCheck %s --check-prefix=CUDA --input-file=%t.cu
"""Module docstring with 'quotes' and \"escapes\"."""
import tilelang.language as T
from typing import (Optional,
                    List)
x = 0b1010 + 0o17 + 0xFF + 1_000 + 1e-3 + 1.5j.imag if False else 3
y = r"raw\d" + b"bytes".decode() + f"{x!r:>10} {{braces}}" + rb'\x00' + F'''tri
ple {x}'''
z = [i for i in range(10) if i % 2]
w = {k: v for k, v in zip("ab", (1, 2))}
s = {1, 2, 3}
lam = lambda *a, **kw: (a, kw)
if (n := 10) > 5:
	pass
async def coro():
    await something()
class A(object):
    x: int = 3
    @property
    def p(self) -> "A":
        return self
try:
    pass
except (ValueError, TypeError) as e:
    raise RuntimeError("bad") from e
finally:
    del x
with open("f") as f, open("g") as g:
    print(f.read(), end="")
while True:
    break
for i in range(3):
    continue
else:
    pass
global_var = ...
a = b = c = 1; d = 2
e = (1 if a else
     2)
f = not a and b or c
g = a @ b if False else 0
h = ~a ^ b & c | d << 2 >> 1
a **= 2; a //= 2; a |= 1; a &= 1; a ^= 1; a <<= 1; a >>= 1; a %= 3
print("héllo", 'ünïcode')
é = 1
assert x, "msg"
@T.prim_func
def k(A: T.Tensor((16,), "float32")):
    with T.Kernel(1, threads=32) as bx:
        for i in T.Parallel(16):
            A[i] = 1.0
# CHECK: import typing.Optional @10:21
# CHECK: skipped x @12:1
# CHECK: assign @15:3
# CHECK: value: comprehension @15:5
# CHECK: assign @16:3
# CHECK: value: comprehension @16:5
# CHECK: assign @17:3
# CHECK: value: set @17:5
# CHECK: assign @18:5
# CHECK: value: lambda @18:7
# CHECK: skipped @19:1
# CHECK: skipped coro @21:1
# CHECK: skipped A @23:1
# CHECK: skipped @28:1
# `...` (Ellipsis) is an expression (None to tlc):
# CHECK: assign @42:12
# CHECK-NEXT: target: name global_var @42:1
# CHECK-NEXT: value: none @42:14
# CHECK: assign @43:3
# CHECK: def k @54:5
# CUDA: // kernel k ({{.*}}python-syntax.py:54): grid (1, 1, 1), 32 threads
