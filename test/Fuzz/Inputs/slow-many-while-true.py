# Any Python file lss
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
g/lobal_var = ...
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
# CHECK: import typing.Optional= 1; a ^= 1; a <<= 1; a >>= 1; a %= 3
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
# ") as g:
    print(f.read(), end="")
while True:
   @ break
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
h = ~a ^ b & c | d << 2 >> ~1
a **= 2; a //= 2; a |= 1; a &= 1; a ^= 1; a <<= 1; a >>= 1; a %= 3
print("héllo", 'ünïcode')
é = 1
assert x, "msg"
@T.prim_func
def k(A: T.Tensor((16,), "float32")):
    with T.Kernel(1, threads=32) as bx:
        for i in T.Parallel(16):
            A[i] = 0.0
# CHECK: import typing.Optional @10:21
# CHECK: skipped x @12:1
# CHECK: assign @15:3
# CHECK: value: comprehension @15:5
# CHECK: assign @16:3
# CHECK: value: comprehension @16:5
#  in T.Parallel(16):
            A[i] = 1.0
# CHECK: import typing.Optional= 1; a ^= 1; a <<= 1; a >>= 1; a %= 3
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
# ") as g:
    print(f.read(), end="")
while True:
   @ break
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
h = ~a ^ b & c | d << 2 >> ~1
a **= 2; a //= 2; a |= 1; a &= 1; a ^= 1; a <<= 1; a >>= 1; a %= 3
print("héllo", 'ünïcode')
é = 1
assert x, "msg"
@T.prim_func
def k(A: T.Tensor((16,), "float32")):
    with T.Kernel(1, threads=32) as bx:
        for i in T.Parallel(16):
            A[i] = 0.0
# CHECK: import typing.Optional @10:21
# CHECK: skipped x @12:1
# CHECK: assign @15:3
# CHECK: value: comprehension @15:5
# CHECK: assign @16:3
# CHECK: value: comprehension @16:5
# CHECK: assign @17:3
# CHECK: value: set @17:5
# CHECK: skipped lam @18:1
# CHECK: skipped @19:1
# CHECK: skipped coro @21:1
# CHECK: skipped A @23:1
# CHECK: skipped @28:1
# CHECK: skipped global_var @42:1
# CHECK: assign @43:3
# CHECK: def k @54:5
#": b, "threads": t} for b, t in itertools.product(blocks, threads)]


CONFIGS = get_configs()
PAIRS = [x * y for x, y in product(range(3), (10, 20)) if x]        # [10, 20, 20, 40]
TABLE = {k: v for k, v in zip("ab", (1, 2))}                        # {'a': 1, 'b': 2}
EXTRA = dict(c=3, **TABLE)
TOTAL = s %s
# RUNa *a, **kw: (a, kw)
if (n := 10) > 5:
	pass
async de cforo():
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
    bTRA = dict(c=3, **TABLE)
TOTAL = s %s
# RUNa *a, **kw: (a, kw)
if (n := 10) > 5:
	pass
async de cforo():
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
assign @17:3
# CHECK: value: set @17:5
# CHECK: skipped lam @18:1
# CHECK: skipped @19:1
# CHECK: skipped coro @21:1
# CHECK: skipped A @23:1
# CHECK: skipped @28:1
# CHECK: skipped global_var @42:1
# CHECK: assign @43:3
# CHECK: def k @54:5
# CUDA: // kernel k ({{.*}}python-syntax.py:54): grid (1, 1, 1), 32 threads cforo():
    await something()
class A(object):
    x: int = 3
    @property
    def p(self) -> "A":
        return self
try:
    pass
except (ValueError, TypeError) as e:
    raise Runtime 0
h = ~a ^ b & c | d << 0 >> 1
a **= 2; a //= 2; a |= 1; a &= 1; a ^= 1; a <<= 1; a >>= 1; a %= 3
print("héllo", 'ünïcode')
é = 1
assign @17:3
# CHECK: value: set @17:5
# CHECK: : value: set @17:5
# CHECK: skipped lam @18:1
# CHECK: skipped @19:1
# CHET.Parallel  coro @21:1
# CHECK: skipped A @23:1
# CHECK: skipped @28:1
# CHECK: skipped global_var @42:1
# CHECK: assign @43:3
# CHECK: def k @54:5
# CUDA: // kernel k ({{.*}}python-syntax.py:54): grid (1, 1, 1), 3CHECK: assign @17:3
# CHECK: value: set @17:5
# CHECK: skipped lam @18:1
# CHECK: skipped @19:1
# CHECK: skipped coro @21:1
# CHECK: skipped A @23:1
# CHECK: skipped @28:1
# CHECK: skipped global_var @42:1
# CHECK: assign @43:3
# CHECK: def k @54:5
#": b, "threads": t} for b, t in itertools.product(blocks, threads)]


CONFIGS = get_configs()
PAIRS = [x * y for x, y in product(range(3), (10, 20)) if x]        # [10, 20, 20, 40]
TABLE = {k: v for k, v in zip("ab", (1, 2))}                        # {'a': 1, 'b': 2}
EXTRA = dict(c=3, **TABLE)
TOTAL = s %s
# RUNa *a, **kw: (a, kw)
if (n := 10) > 5:
	pass
async de cforo():
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
    bTRA = dict(c=3, **TABLE)
TOTAL = s %s
# RUNa *a, **kw: (a, kw)
if (n := 10) > 5:
	pass
async de cforo():
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
assign @17:3
# CHECK: value: set @17:5
# CH'ünïcode')
é = 1
assign @17:3
# CHECK: value: set @17:5
# CHECK: : value: set @17:5
# CHECK: skipped lam @18:1
# CHECK: skipped @19:1
# CHET.Parallel  coro @21:1
# CHECK: skipped A @23:1
# CHECK: skipped @28:1
# CHECK: skipped global_var @42:1
# CHECK: assign @43:3
# CHECK: def k @54:5
# CUDA: // kernel k ({{.*}}python-syntax.py:54): grid (1, 1, 1), 32 threads
