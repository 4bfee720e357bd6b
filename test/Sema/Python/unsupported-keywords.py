# TileLang keywords tlc does not implement yet are located 'not supported
# (yet)' errors naming the keyword, in statements and in expressions.
# RUN: not %tlc %s 2>&1 | FileCheck %s --implicit-check-not=error:

@T.prim_func
def k(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as bx:
        T.import_source("")
        for i in T.Parallel(64):
            B[i] = T.tvm_random_thing()
        y = T.dynamic_thing
# CHECK: unsupported-keywords.py:8:9: error: 'T.import_source' is not supported by tlc (yet)
# CHECK: unsupported-keywords.py:10:20: error: 'T.tvm_random_thing' is not supported by tlc (yet)
# CHECK: unsupported-keywords.py:11:13: error: 'T.dynamic_thing' is not supported by tlc (yet) as a value
# CHECK: 3 errors generated.
