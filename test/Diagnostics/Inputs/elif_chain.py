# Writes a kernel whose if/elif chain has N branches (argv[1]) to stdout, for
# elif-chain-*.test: the branch tests a run-time value, so sema cannot fold it.
import sys

n = int(sys.argv[1])
print('import tilelang.language as T\n')
print('@T.prim_func')
print('def k(A: T.Tensor((16,), "float32")):')
print('    with T.Kernel(1, threads=32) as bx:')
print('        x = A[0]')
for i in range(n):
    print('        %s x < %d.0:' % ('if' if i == 0 else 'elif', i))
    print('            A[1] = %d.0' % i)
print('        else:')
print('            A[1] = -1.0')
