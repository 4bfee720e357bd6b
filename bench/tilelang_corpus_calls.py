#!/usr/bin/env python3
"""bench/tilelang_corpus_calls.py DIR...: suggest the `--call`s for TileLang's example files.

Prints calls-file lines (see bench/tilelang_corpus.sh) for every .py under each DIR, derived from
the file itself: the calls its `main`, `__main__` block or `run_*`/`test_*` helpers make to a kernel
factory (a function that holds a `@T.prim_func`, a `with T.Kernel`, or is `@tilelang.jit`), with
the arguments folded from the defaults around them (`def main(M=4096, ...)`, argparse
`default=`, local assignments). Nothing is run or imported: it reads the source with `ast`.
The output is a starting point that was checked and edited by hand into
bench/tilelang_corpus_calls.txt; a file with no foldable call gets a `?` line to fill in.
"""
import ast
import math
import os
import sys


def is_kernel_factory(fn):
    """A def whose body defines a prim_func / has a T.Kernel, or that is decorated as a jit."""
    for deco in fn.decorator_list:
        text = ast.unparse(deco)
        if "jit" in text or "prim_func" in text:
            return True
    for node in ast.walk(fn):
        if isinstance(node, ast.FunctionDef) and node is not fn:
            if any("prim_func" in ast.unparse(d) for d in node.decorator_list):
                return True
        if isinstance(node, ast.With):
            for item in node.items:
                if "Kernel" in ast.unparse(item.context_expr):
                    return True
    return False


class Folder:
    """Folds expressions to Python constants from a chain of name -> expr environments."""

    def __init__(self, env):
        self.env = env

    def fold(self, node, depth=0):
        if depth > 20:
            raise ValueError("too deep")
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in ("True", "False", "None"):
                return {"True": True, "False": False, "None": None}[node.id]
            if node.id in self.env:
                return self.fold(self.env[node.id], depth + 1)
            raise ValueError(node.id)
        if isinstance(node, ast.Attribute):
            text = ast.unparse(node)
            if text in self.env:
                return self.fold(self.env[text], depth + 1)
            if text.startswith(("T.", "torch.")) and text.count(".") == 1:
                return Dtype(text)
            raise ValueError(text)
        if isinstance(node, (ast.Tuple, ast.List)):
            items = [self.fold(e, depth + 1) for e in node.elts]
            return tuple(items) if isinstance(node, ast.Tuple) else items
        if isinstance(node, ast.UnaryOp):
            v = self.fold(node.operand, depth + 1)
            return {ast.USub: lambda x: -x, ast.UAdd: lambda x: x, ast.Not: lambda x: not x}[type(node.op)](v)
        if isinstance(node, ast.BinOp):
            a, b = self.fold(node.left, depth + 1), self.fold(node.right, depth + 1)
            ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
                   ast.FloorDiv: lambda: a // b, ast.Div: lambda: a / b, ast.Mod: lambda: a % b,
                   ast.Pow: lambda: a ** b}
            if type(node.op) not in ops:
                raise ValueError("op")
            return ops[type(node.op)]()
        if isinstance(node, ast.Call):
            fn = ast.unparse(node.func)
            if fn in ("T.symbolic", "T.dynamic"):
                return Dtype(ast.unparse(node))  # a runtime size, passed as written
            args = [self.fold(a, depth + 1) for a in node.args]
            pure = {"math.ceil": math.ceil, "math.floor": math.floor, "int": int, "min": min,
                    "max": max, "abs": abs, "float": float, "round": round}
            if fn in pure and not node.keywords:
                return pure[fn](*args)
        if isinstance(node, ast.Subscript):
            base = self.fold(node.value, depth + 1)
            return base[self.fold(node.slice, depth + 1)]
        raise ValueError(ast.unparse(node))


class Dtype(str):
    """A dtype spelled as an attribute (`T.float16`): printed as written."""

    def __repr__(self):
        return str(self)


def argparse_defaults(tree):
    """args.NAME -> default expression of every add_argument('--name', default=...)."""
    env = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
            names = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            long = [n for n in names if n.startswith("--")] or names
            if not long:
                continue
            dest = long[0].lstrip("-").replace("-", "_")
            default = None
            for kw in node.keywords:
                if kw.arg == "default":
                    default = kw.value
                if kw.arg == "dest" and isinstance(kw.value, ast.Constant):
                    dest = kw.value.value
                if kw.arg == "action" and isinstance(kw.value, ast.Constant) and kw.value.value == "store_true" and default is None:
                    default = ast.Constant(False)
            if default is not None:
                env["args." + dest] = default
    return env


def function_env(fn, call_args=None):
    """Parameter defaults and simple assignments of a def (later assignments win)."""
    env = {}
    if not isinstance(fn, ast.FunctionDef):
        params, defaults = [], []
    else:
        params = fn.args.args + fn.args.kwonlyargs
        defaults = [None] * (len(fn.args.args) - len(fn.args.defaults)) + list(fn.args.defaults) + list(fn.args.kw_defaults)
    for p, d in zip(params, defaults):
        if d is not None:
            env[p.arg] = d
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            t = node.targets[0]
            if isinstance(t, ast.Name):
                env.setdefault(t.id, node.value)
            elif isinstance(t, ast.Tuple) and isinstance(node.value, ast.Tuple) and len(t.elts) == len(node.value.elts):
                for te, ve in zip(t.elts, node.value.elts):
                    if isinstance(te, ast.Name):
                        env.setdefault(te.id, ve)
    return env


def module_env(tree):
    env = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            env[node.targets[0].id] = node.value
    return env


def render(v):
    if isinstance(v, float) and v == int(v) and abs(v) < 1e15:
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(render(x) for x in v) + "]"
    if isinstance(v, tuple):
        return "(" + ", ".join(render(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    return repr(v)


def calls_in(tree):
    factories = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and is_kernel_factory(n)}
    module_prims = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)
                    and any("prim_func" in ast.unparse(d) for d in n.decorator_list)]
    menv = module_env(tree)
    aenv = argparse_defaults(tree)
    # every call of a top-level helper (`main(...)`, `run(...)`): its arguments bind the
    # helper's parameters, folded in the caller's own environment
    eager = {}
    for name, fn in factories.items():
        consts, tensors = [], set()
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "T.const" and node.args \
                    and isinstance(node.args[0], ast.Constant):
                consts += node.args[0].value.replace(",", " ").split()
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                tensors.add(node.target.id)
        for a in fn.args.args:
            if a.annotation is not None and "Tensor" in ast.unparse(a.annotation):
                tensors.add(a.arg)
        if consts:
            eager[name] = (tensors, consts)
    helpers = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name not in factories}
    holders = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name not in factories]
    holders += [n for n in tree.body if isinstance(n, ast.If) and "__main__" in ast.unparse(n.test)]
    base = dict(menv)
    base.update(aenv)

    def env_of(holder):
        env = dict(base)
        env.update(function_env(holder))
        return env

    binds = {}
    for holder in holders:
        for node in ast.walk(holder):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers:
                callee = helpers[node.func.id]
                if callee is holder or callee.name in binds:
                    continue
                caller_env = env_of(holder)
                bound = {}
                for p, a in zip([q.arg for q in callee.args.args], node.args):
                    bound[p] = a
                for kw in node.keywords:
                    if kw.arg:
                        bound[kw.arg] = kw.value
                folder = Folder(caller_env)
                folded = {}
                for k, v in bound.items():
                    try:
                        folded[k] = ast.parse(render(folder.fold(v)), mode="eval").body
                    except (ValueError, KeyError, TypeError, ZeroDivisionError, SyntaxError):
                        pass
                binds[callee.name] = folded
    found = []
    for holder in holders:
        env = env_of(holder)
        if isinstance(holder, ast.FunctionDef):
            env.update(binds.get(holder.name, {}))
        for node in ast.walk(holder):
            if not isinstance(node, ast.Call):
                continue
            inner = node.func
            if isinstance(inner, ast.Attribute) and inner.attr == "compile" and isinstance(inner.value, ast.Name) \
                    and inner.value.id in factories:
                callee = inner.value.id + ".compile"  # an eager jit function: sizes as keywords
            elif isinstance(inner, ast.Name) and inner.id in eager:
                # an eager jit function called with tensors: the T.const sizes are
                # taken from the caller's names, the other parameters by position
                tensors, consts = eager[inner.id]
                params = [q.arg for q in factories[inner.id].args.args]
                folder = Folder(env)
                try:
                    kws = [f"{c}={render(folder.fold(ast.Name(c)))}" for c in consts]
                    for p_name, a in zip(params, node.args):
                        if p_name not in tensors:
                            kws.append(f"{p_name}={render(folder.fold(a))}")
                    for k in node.keywords:
                        if k.arg and k.arg not in tensors:
                            kws.append(f"{k.arg}={render(folder.fold(k.value))}")
                except (ValueError, KeyError, TypeError, ZeroDivisionError, AttributeError):
                    continue
                found.append(f"{inner.id}.compile({', '.join(kws)})")
                continue
            elif isinstance(inner, ast.Name) and inner.id in factories:
                callee = inner.id
            else:
                continue
            # a chained call `f(a)(block_M=128)` is one call string
            parent = node
            for outer in ast.walk(holder):
                if isinstance(outer, ast.Call) and outer.func is node:
                    parent = outer
            folder = Folder(env)
            try:
                parts = []
                for call in ([node] if parent is node else [node, parent]):
                    args = []
                    for a in call.args:
                        if isinstance(a, ast.Starred):
                            raise ValueError("star")
                        args.append(render(folder.fold(a)))
                    for k in call.keywords:
                        if k.arg:
                            args.append(f"{k.arg}={render(folder.fold(k.value))}")
                        else:
                            d = k.value
                            if isinstance(d, ast.Name) and d.id in env:
                                d = env[d.id]
                            if not isinstance(d, ast.Dict):
                                raise ValueError("kwargs")
                            for dk, dv in zip(d.keys, d.values):
                                args.append(f"{folder.fold(dk)}={render(folder.fold(dv))}")
                    parts.append("(" + ", ".join(args) + ")")
            except (ValueError, KeyError, TypeError, ZeroDivisionError, AttributeError):
                continue
            found.append(callee + "".join(parts))
    unique = []
    for c in found:
        # `f(a)` when `f(a)(block_M=...)` was found too: the bare call is the autotuned branch
        if any(o != c and o.startswith(c + "(") for o in found):
            continue
        # `f.compile(M=1)` when `f.compile(M=1, block_M=64)` was found: the autotuned branch
        if c.endswith(")") and any(o != c and o.startswith(c[:-1] + ", ") for o in found):
            continue
        if c not in unique:
            unique.append(c)
    return factories, module_prims, unique


def main():
    for top in sys.argv[1:]:
        for root, _, files in sorted(os.walk(top)):
            for name in sorted(files):
                if not name.endswith(".py"):
                    continue
                path = os.path.join(root, name)
                rel = os.path.relpath(path, top)
                try:
                    tree = ast.parse(open(path, encoding="utf-8").read())
                except SyntaxError:
                    print(f"{rel} ?")
                    continue
                factories, prims, calls = calls_in(tree)
                if calls:
                    for c in calls[:2]:
                        print(f"{rel} {c}")
                elif prims:
                    print(f"{rel} -")
                elif factories:
                    print(f"{rel} ?")


if __name__ == "__main__":
    main()
