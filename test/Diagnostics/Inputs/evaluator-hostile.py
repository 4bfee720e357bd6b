# Factories that once crashed the evaluator or ran without bound; each is
# called by a RUN line of evaluator-bounds.test, which checks the exact
# diagnostic (line:col refer to this file).
import tilelang.language as T


def nest(n):
    x = [1]
    y = [1]
    for i in range(n):
        x = [x]
        y = [y]
    return x == y


def branching_lambda(n):
    f = lambda k: 1 if k == 0 else f(k - 1) + f(k - 1)
    return f(n)


def dict_comp(n):
    d = {i: i * 2 for i in range(n)}
    assert len(d) == n and d[n - 1] == 2 * n - 2, "dict comprehension"
    return missing_kernel


def set_comp(n):
    s = {i for i in range(n)}
    t = {i % 1000 for i in range(n)}
    assert len(s) == n and len(t) == 1000 and t[999] == 999, "set comprehension"
    return missing_kernel


def search(n):
    big = list(range(n))
    found = 0
    for i in range(n):
        if -1 in big:
            found += 1
    return found


def doubling(n):
    s = "ab"
    for i in range(n):
        s = s + s
    return len(s)
