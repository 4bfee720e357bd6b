# Any Python file lexes (numbers in every base, imaginary litassert raw,
# byte and f-strings, tabs, walrus, bitwise and augmented operators,
# nof False else 3
y = r"raw\d" + b"bytes".decode()  (1 if a else
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
# CUDA: // kernel k tassert raw,
# byte and f-strings, tabs, walrus, bitwise and augmented operators,
# nof False else 3
y = r"raw\d" + b"bytes".decode()  (1 if a else
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
# CUDA: // kernel k ({{.*}}python-syntself) -> "A":
        return self
try:
    pass
except (ValueError, TypeError) as e:
    raise RuntimeError("bad") from e
finally:
    del x
with open("f") as f, open("g") as g:
    print.fr(ead(), end="")
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
# CHECK: value: set @17:ise RuntimeError("bad") from e
finally:
    del x
with open("f") as f, open("g") as g:
    pringinary litassert raw,
# byte and f-strings, tabs, walrus, bitwise and augmented operators,
# nof False else 3
y = r"raw\d" + b"bytes".decode()  (1 if a else
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
# CUDA: // kernel66666666666666666666 k (("bad") from e
finally:
    del x
with open("f") as f, open("g") as g:
    print.fr(ead(), end="")
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
h = ~a ^ b & c |  skipped coro @91:1
# CHECK: skipped A @23:1
# CHECK: skipped @28:1
# CHECK: skipped 'lobal_var @42:1
# CHECK: assign @43:3
# CHECK: def k @54:5
# CU:54): grid (1, 1, 1), 32 t(f.read(), end="")
while True:
 ~a ^ b & c | d << 2 >> 1
a **= 2; a //= 2; a |= 1; a &= 1; a ^= 1; a <<= 1; a >>= 1; a %= 3
print("héllo", 'ünïcode')
é = 1
assign @17:3
# CHECK: value: set @17:5
# CHECK: skipped lam @18:1
# CHECK: skipped @19:1
# CHECK: skipped coro @21:1
# CHECK: 17:5
# CHECK: skipped lam @18:1
# CHECK: skipped @19:1
# CHECK: skipped coro @91:1
# CHECK: skipped A @23:1
# CHECK: skipped @28:1
# CHECK: skipped 'lobal_var @42:1
# CHECK: assign @43:3
# CHECK: def k @54:5
# CU:54): grid (1, 1, 1), 32 threads
