# A runtime size where tlc needs a compile-time one is a located error: an
# on-chip buffer's shape, a whole-tensor T.copy, a T.Parallel extent, a grid
# extent that is not an integer expression of sizes, a size without a name,
# compile-time arithmetic on a size (the kernel's expressions can use it).
# RUN: not %tlc %s --call 'shared_runtime()' 2>&1 | FileCheck %s --check-prefix=SHARED --match-full-lines
# RUN: not %tlc %s --call 'whole_copy()' 2>&1 | FileCheck %s --check-prefix=WHOLE --match-full-lines
# RUN: not %tlc %s --call 'parallel_runtime()' 2>&1 | FileCheck %s --check-prefix=PARALLEL --match-full-lines
# RUN: not %tlc %s --call 'grid_float()' 2>&1 | FileCheck %s --check-prefix=GRID --match-full-lines
# RUN: not %tlc %s --call 'bad_name()' 2>&1 | FileCheck %s --check-prefix=NAME --match-full-lines
# RUN: not %tlc %s --call 'compile_time_math()' 2>&1 | FileCheck %s --check-prefix=MATH --match-full-lines
import tilelang
import tilelang.language as T

M = T.dynamic("m")
K = T.dynamic("k")


def shared_runtime(block=64):
    @T.prim_func
    def main(A: T.Tensor((M, 64), "float32")):
        with T.Kernel(T.ceildiv(M, block)) as bx:
            S = T.alloc_shared((M, 64), "float32")
            T.copy(A[bx * block, 0], S)

    return main


def whole_copy(block=64):
    @T.prim_func
    def main(A: T.Tensor((M,), "float32")):
        with T.Kernel(1) as bx:
            S = T.alloc_shared((64,), "float32")
            T.copy(A, S)

    return main


def parallel_runtime():
    @T.prim_func
    def main(A: T.Tensor((M,), "float32")):
        with T.Kernel(1) as bx:
            for i in T.Parallel(M):
                A[i] = 0

    return main


def grid_float():
    @T.prim_func
    def main(A: T.Tensor((M,), "float32")):
        with T.Kernel(M / 2) as bx:
            A[bx] = 0

    return main


def bad_name():
    n = T.dynamic(3)

    @T.prim_func
    def main(A: T.Tensor((n,), "float32")):
        with T.Kernel(1) as bx:
            A[0] = 0

    return main


def compile_time_math():
    half = M // 2

    @T.prim_func
    def main(A: T.Tensor((half,), "float32")):
        with T.Kernel(1) as bx:
            A[0] = 0

    return main


def scale_rows(block=64):
    @T.prim_func
    def main(A: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, block), threads=block) as bx:
            for i in T.Parallel(block):
                A[bx * block + i] = A[bx * block + i] * 2

    return main


def swizzled(block=64):
    @T.prim_func
    def main(A: T.Tensor((M, M), "float32")):
        with T.Kernel(T.ceildiv(M, block), T.ceildiv(M, block)) as (bx, by):
            T.use_swizzle(8)
            for i in T.Parallel(block):
                A[bx * block + i, by] = 0

    return main

# SHARED:{{.*}}errors.py:22:33: error: dimension 0 of 'S' is the runtime size 'm'; an on-chip buffer needs a compile-time shape
# SHARED-NEXT:            S = T.alloc_shared((M, 64), "float32")
# SHARED-NEXT:                                ^
# SHARED-NEXT:{{.*}}errors.py:22:33: note: tile the runtime size with a constant block, e.g. (block_M, N)

# WHOLE:{{.*}}errors.py:33:20: error: dimension 0 of 'A' is the runtime size 'm'; a tile has a compile-time shape
# WHOLE-NEXT:            T.copy(A, S)
# WHOLE-NEXT:                   ^
# WHOLE-NEXT:{{.*}}errors.py:33:20: note: copy a tile of it, e.g. A[bx * block]

# PARALLEL:{{.*}}errors.py:42:33: error: a T.Parallel extent must be a compile-time integer constant
# PARALLEL-NEXT:            for i in T.Parallel(M):
# PARALLEL-NEXT:                                ^

# GRID:{{.*}}errors.py:51:25: error: a grid extent is a compile-time integer or an integer expression of runtime sizes
# GRID-NEXT:        with T.Kernel(M / 2) as bx:
# GRID-NEXT:                        ^

# NAME:{{.*}}errors.py:58:9: error: T.dynamic takes the size's name, e.g. T.dynamic("m")
# NAME-NEXT:    n = T.dynamic(3)
# NAME-NEXT:        ^~~~~~~~~
# NAME-NEXT:--call:1:1: note: in the call to 'bad_name' here

# MATH:{{.*}}errors.py:69:14: error: operator '//' cannot combine a runtime size and a int
# MATH-NEXT:    half = M // 2
# MATH-NEXT:             ^~
# MATH-NEXT:--call:1:1: note: in the call to 'compile_time_math' here

# The harness allocates tensors at their shapes: each runtime size needs a
# --size value (else a located error, and no file is written), each --size
# must name a runtime size, and --size goes with --harness only.
# RUN: rm -f %t.cu && not %tlc --harness %s --call 'scale_rows()' -o %t.cu 2>&1 | FileCheck %s --check-prefix=HARNESS --match-full-lines
# RUN: not test -e %t.cu
# HARNESS:{{.*}}errors.py:81:9: error: kernel 'scale_rows' has the runtime size 'm'; give the harness its value with --size m=VALUE
# RUN: not %tlc --harness %s --call 'scale_rows()' --size m=17 --size k=3 -o %t.cu 2>&1 | FileCheck %s --check-prefix=UNUSED --match-full-lines
# UNUSED: tlc: error: --size k=3: no kernel has a runtime size 'k'
# RUN: not %tlc %s --call 'scale_rows()' --size m=17 -o %t.cu 2>&1 | FileCheck %s --check-prefix=NOHARNESS --match-full-lines
# NOHARNESS: tlc: error: --size binds runtime sizes for --harness; a compiled kernel takes them as launcher arguments
# RUN: not %tlc --harness %s --call 'scale_rows()' --size m=-1 -o %t.cu 2>&1 | FileCheck %s --check-prefix=VALUE --match-full-lines
# VALUE: tlc: error: --size needs NAME=VALUE with VALUE an integer from 0 to 2^31 - 1, got 'm=-1'
# RUN: %tlc --harness %s --call 'scale_rows()' --size m=17 -o %t.cu
# RUN: FileCheck %s --check-prefix=THUNK --input-file=%t.cu
# THUNK: return scale_rows((float *)tlh_p[0], 17 /* m */, tlh_s);

# A grid sized at run time swizzles over gridDim (no error: the panels are
# computed by the kernel from the launch).
# RUN: %tlc %s --call 'swizzled()' -o - | FileCheck %s --check-prefix=SWIZZLE
# SWIZZLE: // T.use_swizzle(panel_size=8): column panels of 8 blocks
# SWIZZLE-NEXT: const int tl_linear = blockIdx.y * (int)gridDim.x + blockIdx.x;
# SWIZZLE-NEXT: const int tl_panel = tl_linear / (8 * (int)gridDim.y);
# SWIZZLE-NEXT: const int tl_in_panel = tl_linear % (8 * (int)gridDim.y);
# SWIZZLE-NEXT: const int tl_width = min(8, (int)gridDim.x - tl_panel * 8);
# SWIZZLE-NEXT: const int {{bx[_0-9]*}} = tl_panel * 8 + tl_in_panel % tl_width;
# SWIZZLE-NEXT: const int {{by[_0-9]*}} = tl_in_panel / tl_width;


# A float scalar parameter is not a runtime size.
# RUN: not %tlc %s --call 'float_scalar()' 2>&1 | FileCheck %s --check-prefix=FLOATSCALAR --match-full-lines
def float_scalar():
    @T.prim_func
    def main(A: T.Tensor((64,), "float32"), scale: T.float32):
        with T.Kernel(1) as bx:
            for i in T.Parallel(64):
                A[i] = A[i] * scale

    return main
# FLOATSCALAR:{{.*}}errors.py:[[@LINE-6]]:52: error: scalar kernel parameter 'scale' is float32; tlc takes integer scalars (T.int32, T.int64) only
# FLOATSCALAR-NEXT:    def main(A: T.Tensor((64,), "float32"), scale: T.float32):
# FLOATSCALAR-NEXT:                                                   ^~~~~~~~~
# FLOATSCALAR-NEXT:{{.*}}errors.py:[[@LINE-9]]:52: note: hint: pass it as a one-element tensor, scale: T.Tensor((1,), "float32"), read as scale[0]
# FLOATSCALAR-NEXT:    def main(A: T.Tensor((64,), "float32"), scale: T.float32):
# FLOATSCALAR-NEXT:                                                   ^~~~~~~~~
# FLOATSCALAR-NEXT:1 error generated.
