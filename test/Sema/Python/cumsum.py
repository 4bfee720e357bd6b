# T.cumsum(src, dst=None, dim=0, reverse=False): a T.Parallel nest over the
# other dimension walks each line serially (dst[i] = dst[prev] + src[i]),
# from the end with reverse=True; a fragment is scanned in a shared copy and
# copied back (TileLang's cumsum_fragment); dim counts the dimensions as
# written, before a fragment's unit ones are dropped. Checked against the
# reference on the H200 (test/GPU/run-cumsum.test).
# RUN: %tlc %S/../../GPU/Inputs/cumsum.py --emit=ir --stop-after=sema | FileCheck %s
# RUN: not %tlc %s --call 'bad()' 2>&1 | FileCheck %s --check-prefix=BAD --match-full-lines
import tilelang.language as T

# CHECK: alloc [[ROW:row_scan[0-9]+]]: shared float32[64]
# CHECK: alloc [[COLS:cols_scan[0-9]+]]: shared float32[32, 16]
# CHECK: parallel (i#{{[0-9]+}} < 8) @13:9 {
# CHECK-NEXT: for serial t#{{[0-9]+}} in 1..64 @{{.*}} {
# CHECK-NEXT: S[i, 63 - t] = S[i, 63 - t + 1] + S[i, 63 - t] @13:9
# CHECK: [[ROW]][i] = row[i] @17:9
# CHECK: parallel (i#{{[0-9]+}} < 1) @17:9 {
# CHECK-NEXT: for serial t#{{[0-9]+}} in 1..64 @{{.*}} {
# CHECK-NEXT: [[ROW]][t] = [[ROW]][t - 1] + [[ROW]][t] @17:9
# CHECK: row[i] = [[ROW]][i] @17:9
# CHECK: parallel (i#{{[0-9]+}} < 16) @23:9 {
# CHECK-NEXT: for serial t#{{[0-9]+}} in 1..32 @{{.*}} {
# CHECK-NEXT: [[COLS]][t, i] = [[COLS]][t - 1, i] + [[COLS]][t, i] @23:9
# CHECK: out[i, j] = [[COLS]][i, j] @23:9


def bad():
    @T.prim_func
    def main(A: T.Tensor((8, 64), "float32")):
        with T.Kernel(1, threads=128) as bx:
            S = T.alloc_shared((8, 64), "float32")
            D = T.alloc_shared((8, 32), "float32")
            T.cumsum(S, dim=2)
            T.cumsum(S, D)
            T.cumsum(A)
    return main
# BAD: {{.*}}cumsum.py:[[#@LINE-4]]:29: error: dim=2 is out of range for the 2-D 'S'
# BAD: {{.*}}cumsum.py:[[#@LINE-4]]:13: error: T.cumsum's destination 'D' must have the shape and dtype of 'S'
# BAD: {{.*}}cumsum.py:[[#@LINE-4]]:22: error: T.cumsum scans a 1-D or 2-D shared tile or fragment; 'A' is not one
