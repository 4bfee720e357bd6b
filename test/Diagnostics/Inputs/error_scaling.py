# Usage: error_scaling.py TLC DIR
# Compiles a file with N and then 4N errors (an undeclared name per line,
# each with a "did you mean" neighbour) and prints "linear" when the CPU
# time grows less than 8 times (4 for linear work, 16 for quadratic), else
# the two times. Ratios, not absolute times, so a slow or sanitized build
# passes as well as a fast one.
import os
import resource
import subprocess
import sys


def cpu_seconds(tlc, path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([tlc, path, '--max-errors=0', '-o', os.devnull],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def program(n):
    lines = ['import tilelang.language as T', 'x = 1']
    lines += ['y%05d = y%05dq' % (i, i) for i in range(n)]
    return '\n'.join(lines) + '\n'


tlc, out = sys.argv[1], sys.argv[2]
times = []
for n in (1500, 6000):
    path = os.path.join(out, 'errors-%d.tl' % n)
    with open(path, 'w') as f:
        f.write(program(n))
    times.append(max(cpu_seconds(tlc, path), 0.01))
print('linear' if times[1] < 8 * times[0] else 'superlinear: %.2fs then %.2fs' % tuple(times))
