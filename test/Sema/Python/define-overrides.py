# -D NAME=VALUE replaces a module-level constant where the module assigns it:
# numbers, expressions, tuples, and bare words as strings (dtypes). A -D for
# a name the module never assigns is an error.
# RUN: %tlc %s | FileCheck %s --check-prefix=DEFAULT
# RUN: %tlc %s -D M=2048 -DBLOCK='(32, 128)' -D dtype=bfloat16 | FileCheck %s --check-prefix=OVERRIDE
# RUN: not %tlc %s -D MM=1 2>&1 | FileCheck %s --check-prefix=UNKNOWN
# RUN: %tlc %s -D M=512 -D M=2048 -D block_M=32 -D ROWS=2 | FileCheck %s --check-prefix=LAST
# RUN: not %tlc %s -D 'M=1+' 2>&1 | FileCheck %s --check-prefix=BAD
import tilelang.language as T

M = 1024
N = M // 2
BLOCK = (64, 64)
dtype = "float16"
block_M, block_N = BLOCK
ROWS = COLS = 1  # chained: -D ROWS=2 leaves COLS alone


@T.prim_func
def twice(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype)):
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
        for i, j in T.Parallel(block_M, block_N):
            Y[by * block_M + i, bx * block_N + j] = X[by * block_M + i, bx * block_N + j] * (ROWS * 10 + COLS)

# DEFAULT: grid (8, 16, 1)
# DEFAULT: twice_kernel(const half_t*
# OVERRIDE: grid (8, 64, 1)
# OVERRIDE: twice_kernel(const bfloat16_t*
# LAST: grid (16, 64, 1)
# LAST: __hmul_rn({{.*}}, half_t(21.0f));
# UNKNOWN: tlc: error: -D MM: the file assigns no module-level 'MM'
# BAD: -D M:1:3: error: expected an expression, found end of line
