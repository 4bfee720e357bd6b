# Writes one generated hostile program (named by argv[1]) to stdout: inputs
# too large to check in, each small enough to keep its test fast but past the
# bound it tests.
import sys

KERNEL = '''import tilelang.language as T


@T.prim_func
def f(A: T.Tensor((1024,), "float32")):
    with T.Kernel(1, threads=128) as bx:
        for i in T.Parallel(128):
%s
'''


def deep_rhs():
    # 1200 terms, one per line inside parentheses: past sema's 1000 levels.
    return KERNEL % ('            A[i] = (A[i]\n' + '+ A[i]\n' * 1199 + ')')


def inlined_index():
    # A helper of 200 terms nested 30 deep: an index 6000 levels deep that
    # sema never sees whole (each level is small), only the simplifier does.
    helper = 'def h(x):\n    return x' + ' + 1 - 1' * 100 + '\n\n\n'
    prog = KERNEL % ('            A[%si%s] = 1.0' % ('h(' * 30, ')' * 30))
    return prog.replace('@T.prim_func', helper + '@T.prim_func')


def elif_kernel():
    # 1200 branches: each elif nests the IR one level deeper.
    body = '            if A[i] == 0.0:\n                A[i] = 1.0\n'
    body += ''.join('            elif A[i] == %d.0:\n                A[i] = %d.0\n' % (k, k + 1)
                    for k in range(1, 1200))
    return KERNEL % body.rstrip('\n')


def elif_factory():
    # 20000 branches evaluated at compile time by a factory.
    lines = ['import tilelang.language as T', '', '', 'def pick(x):', '    if x == 0:',
             '        y = 0']
    for k in range(1, 20000):
        lines += ['    elif x == %d:' % k, '        y = %d' % (k * 2)]
    lines += ['    else:', '        y = -1', '    assert y == 39996, "wrong branch"',
              '    return missing_kernel']
    return '\n'.join(lines) + '\n'


def elif_host_code():
    # A top-level chain of 30000 branches on a name that does not exist:
    # host code, whose names are found by walking the whole chain.
    lines = ['import tilelang.language as T', 'if missing == 0:', '    y = 0']
    for k in range(1, 30000):
        lines += ['elif missing == %d:' % k, '    y = %d' % k]
    lines += ['', '', 'def f():', '    return y']
    return '\n'.join(lines) + '\n'


print(globals()[sys.argv[1]](), end='')
