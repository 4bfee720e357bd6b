# `from X import a` / `import X` / `from .X import a` of a module X.py next to
# the compiled file: X's top level runs once with the same evaluator (its own
# names, host code skipped) and its constants, helpers and macros work in the
# importer's kernels as if written there. Errors inside X point into X.
# RUN: rm -rf %t && mkdir -p %t && cp %s %S/Inputs/sibling_*.py %t/
# RUN: %tlc %t/sibling-import.py --call 'f(32)' --emit=ir --stop-after=sema | FileCheck %s --check-prefix=IR
# RUN: %tlc %t/sibling-import.py --call 'via_module()' --emit=ir --stop-after=sema | FileCheck %s --check-prefix=MOD
# RUN: not %tlc %t/sibling-import.py --call 'f(48)' 2>&1 | FileCheck %s --check-prefix=ASSERT
# RUN: not %tlc %t/sibling-import.py --call 'bad()' 2>&1 | FileCheck %s --check-prefix=BAD --implicit-check-not=error:
# RUN: not %tlc %t/sibling-import.py --call 'cycle()' 2>&1 | FileCheck %s --check-prefix=CYCLE --implicit-check-not=error:
import tilelang
import tilelang.language as T

from sibling_helpers import (
    LOG2_E,
    check_block,
    scaled,
    tile_allowed,
    add_one as inc,
)
import sibling_helpers
from .sibling_helpers import _BLOCKS

_SCALE = 100  # not the helper module's

# IR (C[0]'s line 28 is sibling_helpers.py's, where the macro writes it):
# IR: O[i, j] = cast<float32>(select(i // 32 >= j // 32, 1, 0)) * 1.44269504 @[[#@LINE+11]]:25
# IR-NEXT: }
# IR-NEXT: C[0] = C[0] + 1 @28:12
# IR-NEXT: N[0] = 70 @[[#@LINE+10]]:18
def f(blk):
    check_block(blk)

    @T.prim_func
    def main(O: T.Tensor((64, 64), "float32"), C: T.Tensor((4,), "int32"), N: T.Tensor((4,), "int32")):
        with T.Kernel(1, threads=128) as bx:
            for i, j in T.Parallel(64, 64):
                O[i, j] = tile_allowed(i, j, blk) * LOG2_E
            inc(C, 0)
            N[0] = scaled(2) + sibling_helpers._BLOCKS[2] + _BLOCKS[0] * 0

    return main


# ASSERT: sibling_helpers.py:15:5: error: assertion failed: block size not supported
# ASSERT: sibling-import.py:[[#@LINE-14]]:5: note: in the call to 'check_block' here


# BAD: sibling_bad.py:7:16: error: use of undeclared name 'undefined_name'
# BAD: sibling-import.py:[[#@LINE+7]]:20: note: in the call to 'broken' here
def bad():
    from sibling_bad import broken

    @T.prim_func
    def main(N: T.Tensor((4,), "int32")):
        with T.Kernel(1, threads=32) as bx:
            N[0] = broken(1)

    return main


# CYCLE: sibling-import.py:[[#@LINE+10]]:20: error: 'A' is host code that tlc skipped; a kernel cannot use it
# CYCLE: sibling_cycle_a.py:4:5: error: 'B' is host code that tlc skipped; a kernel cannot use it
# CYCLE: sibling_cycle_b.py:4:5: error: 'A' is host code that tlc skipped; a kernel cannot use it
# CYCLE: sibling_cycle_b.py:2:29: error: import cycle: module 'sibling_cycle_a' ({{.*}}sibling_cycle_a.py) is still being imported
def cycle():
    from sibling_cycle_a import A

    @T.prim_func
    def main(N: T.Tensor((4,), "int32")):
        with T.Kernel(1, threads=32) as bx:
            N[0] = A

    return main


# X.helper(...) and X.macro(...) of `import X` inside a kernel:
# MOD: O[i, j] = cast<float32>(select(i // 16 >= j // 16, 1, 0)) * 1.44269504
# MOD: C[1] = C[1] + 1 @28:12
def via_module():
    @T.prim_func
    def main(O: T.Tensor((64, 64), "float32"), C: T.Tensor((4,), "int32")):
        with T.Kernel(1, threads=128) as bx:
            for i, j in T.Parallel(64, 64):
                O[i, j] = sibling_helpers.tile_allowed(i, j, 16) * sibling_helpers.LOG2_E
            sibling_helpers.add_one(C, 1)

    return main
