# TileLang keywords tlc does not implement yet are located 'not supported
# (yet)' errors naming the keyword, in statements and in expressions.
# RUN: not %tlc %s 2>&1 | FileCheck %s --implicit-check-not=error:

@T.prim_func
def k(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as bx:
        T.annotate_layout({A: None})
        x = T.alloc_var("float32")
        for i in T.Parallel(64):
            T.atomic_add(B[i], A[i])
            B[i] = T.shfl_xor(A[i], 1)
        T.no_set_max_nreg()
        y = T.dynamic_thing
# CHECK: unsupported-keywords.py:8:9: error: 'T.annotate_layout' is not supported by tlc (yet)
# CHECK: unsupported-keywords.py:9:13: error: 'T.alloc_var' is not supported by tlc (yet)
# CHECK: unsupported-keywords.py:11:13: error: 'T.atomic_add' is not supported by tlc (yet)
# CHECK: unsupported-keywords.py:12:20: error: 'T.shfl_xor' is not supported by tlc (yet)
# CHECK: unsupported-keywords.py:13:9: error: 'T.no_set_max_nreg' is not supported by tlc (yet)
# CHECK: unsupported-keywords.py:14:13: error: 'T.dynamic_thing' is not supported by tlc (yet) as a value
# CHECK: 6 errors generated.
