# The evaluator is bounded: statements run, list items made, call depth.
# Each bound is a located error (in a factory that --call runs), never a
# hang or an out-of-memory crash.
# RUN: not %tlc %s --call 'endless()' 2>&1 | FileCheck %s --check-prefix=STEPS
# RUN: not %tlc %s --call 'hoard()' 2>&1 | FileCheck %s --check-prefix=ITEMS
# RUN: not %tlc %s --call 'deep(0)' 2>&1 | FileCheck %s --check-prefix=DEPTH
import tilelang.language as T


def endless():
    total = 0
    steps = range(2000)
    for i in steps:
        for j in steps:
            total += 1
    return total


def hoard():
    x = list(range(1 << 20))
    return x + x + x


def deep(n):
    return deep(n + 1)

# STEPS: evaluation-limits.py:15:19: error: compile-time evaluation ran more than 1000000 statements; is there an endless loop?
# ITEMS: evaluation-limits.py:21:14: error: compile-time evaluation made more than 2097152 list items; is a loop building lists without end?
# DEPTH: evaluation-limits.py:25:12: error: compile-time calls nested more than 64 deep (recursion in 'deep'?)
