# Python semantics the evaluator must get right (each assert is checked at
# compile time: a wrong answer is an 'assertion failed' error): slices with
# None bounds and negative steps, dict and list/tuple equality, min/max of
# mixed int and float return the winning argument, positional-only and
# **kwargs binding, for-else; and the errors of Python's binding rules.
# RUN: %tlc %s --call 'f()' | FileCheck %s
# RUN: not %tlc %s --call 'bad()' 2>&1 | FileCheck %s --check-prefix=BAD
import tilelang.language as T
def f():
    a = [1, 2, 3]
    assert a[None::-1] == [3, 2, 1]
    assert a[:None:-1] == [3, 2, 1]
    assert "abc"[None:None:-1] == "cba"
    assert a[::-1] == [3, 2, 1] and a[-2:] == [2, 3] and a[:-1] == [1, 2] and a[5:] == []
    assert a[-100:100] == a and a[::2] == [1, 3] and a[2:0:-1] == [3, 2]
    assert {1: 2} != {3: 4} and {1: 2} == {1: 2}
    assert [1, 2] != (1, 2)
    assert [0, 1, 2, 3][max(3, 2.5)] == 3 and len(range(max(4, 2.5))) == 4
    def g(a, **kw):
        return kw
    def h(a, /, **kw):
        return kw
    assert h(1, a=2) == {"a": 2}
    for i in range(3):
        if i == 5:
            break
    else:
        ok = True
    assert ok
    @T.prim_func
    def main(A: T.Tensor((4,), "float32")):
        with T.Kernel(1, threads=32) as bx:
            for i in T.Parallel(4):
                A[i] = 1.0
    return main
def bad():
    def g(a, **kw):
        return kw
    return g(1, 2)

# CHECK: // kernel f ({{.*}}python-semantics.py:{{[0-9]+}}): grid (1, 1, 1), 32 threads
# BAD: python-semantics.py:39:12: error: 'g' takes 1 positional argument, 2 given
