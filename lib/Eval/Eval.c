// The compile-time Python evaluator: runs the module's top-level code and
// the bodies of kernel factories (`def matmul(M, N, K, ...)` returning a
// nested @T.prim_func), then compiles the kernels asked for.
//
// What it runs: assignments (with unpacking), augmented assignments, if /
// elif / else and for loops on compile-time values, def (closures capture
// the defining scope), return, assert, imports, docstrings. Calls bind
// positional, keyword and default arguments. Decorators: @T.prim_func makes
// a kernel, @T.macro a macro inlined in kernels, @tilelang.jit and
// @autotune are transparent. Values are those of Value.c; calls are in
// Call.c, the module level, -D and --call in Module.c.
//
// Host code: in a .py file, a top-level statement that fails to parse or to
// evaluate is not an error; the names it defines become VAL_OPAQUE values
// holding its diagnostics, replayed only if a kernel or --call uses them.
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "EvalInternal.h"

// Work units (items compared, hashed or copied) per statement budget: about
// a second of comparisons, far above what any kernel factory does.
#define MAX_WORK ((int64_t)100000000)

bool tl_sema_spend_work(Sema *s, int64_t n, TlLoc loc) {
  if (s->work > MAX_WORK) return false; // already reported
  s->work += n;
  if (s->work <= MAX_WORK) return true;
  tl_error(s->diag, loc,
           "compile-time evaluation did more than %lld units of work (items "
           "compared or copied); is a loop searching or copying without end?",
           (long long)MAX_WORK);
  return false;
}

// Levels of expression and statement nesting the walks may recurse through,
// calls included. A level costs up to ~3 KB of stack under ASan, so 1000
// levels stay well inside the 8 MB main-thread stack; no real kernel or
// factory comes near (the parser already bounds one expression's brackets).
enum { MAX_DEPTH = 1000 };

bool tl_sema_enter(Sema *s, TlLoc loc) {
  if (s->depth >= MAX_DEPTH) {
    // Reported once per outermost walk: the callers unwind with error
    // values, and a sibling operand may hit the bound again on the way.
    if (!s->depth_reported)
      tl_error(s->diag, loc, "expression nested too deeply: more than %d levels; split it",
               MAX_DEPTH);
    s->depth_reported = true;
    return false;
  }
  s->depth++;
  return true;
}

void tl_sema_leave(Sema *s) {
  if (--s->depth == 0) s->depth_reported = false;
}

bool tl_sema_spend_items(Sema *s, int64_t n, TlLoc loc) {
  if (s->items <= MAX_ITEMS && n > MAX_ITEMS - s->items) {
    tl_error(s->diag, loc,
             "compile-time evaluation made more than %d list items; is a loop "
             "building lists without end?",
             MAX_ITEMS);
    s->items = (int64_t)MAX_ITEMS + 1; // reported once
    return false;
  }
  if (s->items > MAX_ITEMS) return false;
  s->items += n;
  return true;
}

TlSymScope *tl_eval_current(Sema *s) {
  return s->scope ? s->scope : s->globals;
}

void tl_sema_report_opaque(Sema *s, TlLoc use, const TlValue *v) {
  tl_error(s->diag, use, "'%s' is host code that tlc skipped; a kernel cannot use it", v->s);
  if (v->text && v->text[0]) {
    tl_note(s->diag, v->loc, "tlc skipped it because of these errors:");
    tl_diag_replay(s->diag, v->text, 0);
    s->diag->nerrors--; // the replayed text is part of this one error
  } else {
    tl_note(s->diag, v->loc, "defined here");
  }
}

void tl_eval_bind(Sema *s, const TlNode *target, TlValue *v) {
  if (target->kind == ND_NAME) {
    TlSym *y = tl_scope_define(s, tl_eval_current(s), target->name, SYM_VALUE, target->loc);
    y->value = v;
    return;
  }
  if (target->kind == ND_TUPLE || target->kind == ND_LIST) {
    int n = target->list.len;
    if (v->kind != VAL_ERROR && v->kind != VAL_TUPLE) {
      tl_error(s->diag, target->loc, "cannot unpack %s %s into %d names",
               tl_value_kind_article(v->kind), tl_value_kind_name(v->kind), n);
      v = tl_eval_error_value(s, v->loc);
    } else if (v->kind == VAL_TUPLE && v->items.len != n) {
      tl_error(s->diag, target->loc, "cannot unpack %d values into %d names", v->items.len, n);
      v = tl_eval_error_value(s, v->loc);
    }
    for (int i = 0; i < n; i++)
      tl_eval_bind(s, TL_VEC_AT(target->list, TlNode, i),
                   v->kind == VAL_ERROR ? v : TL_VEC_AT(v->items, TlValue, i));
    return;
  }
  tl_error(s->diag, target->loc, "tlc evaluates assignments to names only (not to %ss)",
           tl_node_kind_name(target->kind));
}

// Binds the names a failed top-level statement defines to host code.
void tl_eval_bind_opaque(Sema *s, const TlNode *target, const TlNode *st, const char *text,
                         int nerrors) {
  if (!target) return;
  if (target->kind == ND_TUPLE || target->kind == ND_LIST) {
    for (int i = 0; i < target->list.len; i++)
      tl_eval_bind_opaque(s, TL_VEC_AT(target->list, TlNode, i), st, text, nerrors);
    return;
  }
  if (target->kind != ND_NAME) return;
  TlValue *v = tl_value_new(s, VAL_OPAQUE, st->kind == ND_ASSIGN ? target->loc : st->loc);
  v->s = target->name;
  v->text = text;
  v->nerrors = nerrors;
  TlSym *y = tl_scope_define(s, s->globals, target->name, SYM_VALUE, st->loc);
  y->value = v;
}

// The path of module `module` next to the file `from` (X.py, or the
// package X/__init__.py), or NULL when there is none. A leading dot (from
// .X import a) is this directory, each further one its parent.
static const char *sibling_path(Sema *s, const TlSource *from, const char *module) {
  if (!from || !from->name || !module[0]) return NULL;
  int dots = (int)strspn(module, ".");
  const char *rest = module + dots;
  if (!rest[0] || strchr(rest, '.')) return NULL; // `from . import X`, `import X.Y`
  const char *slash = strrchr(from->name, '/');
  const char *dir =
      slash ? tl_arena_printf(s->arena, "%.*s", (int)(slash - from->name), from->name) : ".";
  for (int i = 1; i < dots; i++)
    dir = tl_arena_printf(s->arena, "%s/..", dir);
  const char *candidates[2] = {tl_arena_printf(s->arena, "%s/%s.py", dir, rest),
                               tl_arena_printf(s->arena, "%s/%s/__init__.py", dir, rest)};
  for (int i = 0; i < 2; i++) {
    FILE *f = fopen(candidates[i], "rb");
    if (f) {
      fclose(f);
      return candidates[i];
    }
  }
  return NULL;
}

// `from X import a` / `import X` of a module X.py next to the file being
// compiled: X's top level runs (once) and a is bound to X's value of it; X
// itself is a module value whose attributes are X's names. False when X is
// no such module.
static bool sibling_import(Sema *s, const TlNode *st) {
  const char *full = st->name;
  const char *module = full;
  if (st->ival) { // from-import: the module is all but the last name
    const char *last = strrchr(full, '.');
    if (!last) return false;
    module = tl_arena_printf(s->arena, "%.*s", (int)(last - full), full);
  }
  const char *path = sibling_path(s, st->loc.src, module);
  if (!path) return false;
  const char *name = module + strspn(module, ".");
  TlSymScope *names = tl_eval_sibling_module(s, path, name, st->loc);
  if (!names) { // reported: the names stay unbound (host code uses them)
    return true;
  }
  if (!st->ival) {
    TlSym *y = tl_scope_define(s, tl_eval_current(s), st->str ? st->str : name, SYM_VALUE, st->loc);
    y->value = tl_value_new(s, VAL_MODULE, st->loc);
    y->value->s = name;
    y->value->env = names;
    return true;
  }
  const char *attr = strrchr(full, '.') + 1;
  if (strcmp(attr, "*") == 0) { // from X import *: its public names
    for (TlSym *x = names->syms; x; x = x->next)
      if (x->name[0] != '_' && x->kind == SYM_VALUE)
        tl_scope_define(s, tl_eval_current(s), x->name, SYM_VALUE, st->loc)->value = x->value;
    return true;
  }
  TlSym *x = tl_scope_lookup_local(names, attr);
  if (!x || x->kind != SYM_VALUE) {
    tl_error(s->diag, st->loc, "module '%s' (%s) has no name '%s'", name, path, attr);
    return true;
  }
  TlSym *y = tl_scope_define(s, tl_eval_current(s), st->str ? st->str : attr, SYM_VALUE, st->loc);
  y->value = x->value;
  return true;
}

void tl_eval_import(Sema *s, const TlNode *st) {
  // `import tilelang.language as T`, `from tilelang import language as T`
  // bind T to the DSL; `import tilelang` binds tilelang; `from m import x`
  // binds x. A module next to the file runs (sibling_import); anything else
  // but tilelang is an opaque module (host code: torch).
  if (sibling_import(s, st)) return;
  const char *full = st->name;
  const char *bound = st->str;
  if (!bound) {
    const char *last = strrchr(full, '.');
    size_t n = strcspn(full, ".");
    bound = st->ival && last ? last + 1
                             : tl_arena_printf(s->arena, "%.*s", (int)(n < 127 ? n : 127), full);
  }
  bool whole = st->str || st->ival; // the name stands for the full dotted module
  TlSym *y = tl_scope_define(s, tl_eval_current(s), bound, SYM_VALUE, st->loc);
  y->value = tl_value_new(s, VAL_MODULE, st->loc);
  y->value->s = whole ? full : bound;
  // TileLang's first releases lived inside TVM: `import tvm.tl.language as T`
  // (BitBLAS-era files) is today's tilelang.language.
  if (whole && strcmp(full, "tvm.tl.language") == 0) y->value->s = "tilelang.language";
}

DecoratorKind tl_eval_decorator_kind(Sema *s, const TlNode *d) {
  const TlNode *f = d->kind == ND_CALL ? d->a : d;
  const char *name = f->kind == ND_NAME ? f->name : f->kind == ND_ATTR ? f->name : "";
  const char *t = tl_sema_t_attr(s, f);
  if (strcmp(name, "prim_func") == 0 && (t || f->kind == ND_NAME)) return DEC_KERNEL;
  if (strcmp(name, "macro") == 0 && (t || f->kind == ND_NAME)) return DEC_MACRO;
  // TileLang's compile-and-run wrappers: the factory is what tlc evaluates.
  if (strcmp(name, "jit") == 0 || strcmp(name, "lazy_jit") == 0 || strcmp(name, "autotune") == 0 ||
      tl_sema_transparent_decorator(name))
    return DEC_TRANSPARENT;
  return DEC_UNKNOWN;
}

static Flow def_stmt(Sema *s, const TlNode *st) {
  TlValueKind kind = VAL_FUNC;
  const TlNode *configs = NULL;
  for (int d = 0; d < st->list2.len; d++) {
    TlNode *dec = TL_VEC_AT(st->list2, TlNode, d);
    DecoratorKind k = tl_eval_decorator_kind(s, dec);
    if (k == DEC_TRANSPARENT && dec->kind == ND_CALL) // @autotune(configs=...)
      configs = configs ? configs : tl_sema_kwarg(dec, "configs");
    if (k == DEC_KERNEL)
      kind = VAL_KERNEL;
    else if (k == DEC_MACRO)
      kind = VAL_MACRO;
    else if (k == DEC_UNKNOWN) {
      tl_error(s->diag, dec->loc,
               "unsupported decorator; tlc knows @T.prim_func, @T.macro, "
               "@tilelang.jit, @autotune and the factory wrappers "
               "@functools.cache, @functools.lru_cache, @simplify_prim_func");
      return FLOW_ERROR;
    }
  }
  TlSym *prev = tl_scope_lookup_local(tl_eval_current(s), st->name);
  if (!s->scope && !s->python && prev && prev->kind == SYM_VALUE &&
      (prev->value->kind == VAL_KERNEL || prev->value->kind == VAL_FUNC)) {
    tl_error(s->diag, st->loc, "redefinition of '%s'", st->name);
    tl_note(s->diag, prev->loc, "previous definition is here");
  }
  TlValue *v = tl_value_new(s, kind, st->loc);
  v->fn = (TlNode *)st;
  v->s = st->name;
  v->env = s->scope ? s->scope : s->module_env; // a module next to the file: its names
  v->autotune = configs;
  // Defaults are evaluated once, where the def runs (as in Python). A
  // kernel's parameters are tensors; their defaults are reported there.
  for (int i = 0; i < st->params.len && kind != VAL_KERNEL; i++) {
    TlNode *p = TL_VEC_AT(st->params, TlNode, i);
    TlValue *dv = p->b ? tl_sema_eval_const(s, p->b) : NULL;
    if (dv && dv->kind == VAL_ERROR) return FLOW_ERROR;
    tl_vec_push(s->arena, &v->defaults, dv);
  }
  TlSym *y = tl_scope_define(s, tl_eval_current(s), st->name, SYM_VALUE, st->loc);
  y->value = v;
  // A module-level kernel is compiled where it is defined, seeing the
  // module's names as they are then (as TileLang's decorator does), unless
  // --call picks the kernels.
  if (kind == VAL_KERNEL && !s->scope && !(s->opts && s->opts->ncalls > 0) && !s->import_depth &&
      !tl_diag_too_many(s->diag))
    s->lower.compile_kernel(s, v);
  return FLOW_NEXT;
}

static Flow for_stmt(Sema *s, const TlNode *st, TlValue **ret) {
  TlValue *it = tl_sema_eval_const(s, st->a);
  if (it->kind == VAL_ERROR) return FLOW_ERROR;
  if (tl_value_iterable(s, it))
    it = tl_value_iterable(s, it);
  else {
    tl_error(s->diag, st->a->loc,
             "a compile-time loop iterates over a list, tuple or range, "
             "not %s %s",
             tl_value_kind_article(it->kind), tl_value_kind_name(it->kind));
    return FLOW_ERROR;
  }
  const TlNode *target = TL_VEC_AT(st->list2, TlNode, 0);
  TlNode tuple = {0};
  if (st->list2.len > 1) {
    tuple.kind = ND_TUPLE;
    tuple.loc = target->loc;
    tuple.list = st->list2;
    target = &tuple;
  }
  for (int i = 0; i < it->items.len; i++) {
    tl_eval_bind(s, target, TL_VEC_AT(it->items, TlValue, i));
    Flow f = tl_eval_exec_block(s, &st->list, ret);
    if (f == FLOW_BREAK) return FLOW_NEXT; // for-else: the else block runs only without a break
    if (f != FLOW_NEXT && f != FLOW_CONTINUE) return f;
  }
  return tl_eval_exec_block(s, &st->params, ret); // the else block
}

// Counts one statement (or loop test) against the budget; false, reported
// once, when it is spent.
static bool spend_step(Sema *s, TlLoc loc) {
  if (++s->steps <= s->step_limit) return true;
  if (s->steps == s->step_limit + 1)
    tl_error(s->diag, loc,
             "compile-time evaluation ran more than %d statements; is there an "
             "endless loop?",
             (int)s->step_limit);
  return false;
}

static Flow exec_stmt_node(Sema *s, const TlNode *st, TlValue **ret);

Flow tl_eval_exec_stmt(Sema *s, const TlNode *st, TlValue **ret) {
  if (!tl_sema_enter(s, st->loc)) return FLOW_ERROR;
  Flow f = exec_stmt_node(s, st, ret);
  tl_sema_leave(s);
  return f;
}

static Flow exec_stmt_node(Sema *s, const TlNode *st, TlValue **ret) {
  if (!spend_step(s, st->loc)) return FLOW_ERROR;
  int before = s->diag->nerrors;
  switch (st->kind) {
  case ND_ASSIGN: {
    // -D NAME=VALUE replaces the value of each overridden name; when every
    // name has one, the right side (host code, say) is not evaluated.
    bool all = true;
    for (int t = 0; t < st->list.len; t++)
      all = all && tl_eval_all_overridden(s, TL_VEC_AT(st->list, TlNode, t));
    TlValue *v = all ? NULL : tl_sema_eval_const(s, st->a);
    for (int t = 0; t < st->list.len; t++) {
      const TlNode *target = TL_VEC_AT(st->list, TlNode, t);
      if (v) tl_eval_bind(s, target, v);
      tl_eval_override_unpacked(s, target, st->a->loc); // a = b = 8 with -D b=16: only b
    }
    return (v && v->kind == VAL_ERROR) || s->diag->nerrors > before ? FLOW_ERROR : FLOW_NEXT;
  }
  case ND_AUGASSIGN: {
    if (st->a->kind != ND_NAME) {
      tl_error(s->diag, st->a->loc, "tlc evaluates assignments to names only");
      return FLOW_ERROR;
    }
    TlNode op = *st;
    op.kind = ND_BINOP;
    TlValue *v = tl_sema_eval_const(s, &op);
    tl_eval_bind(s, st->a, v);
    return v->kind == VAL_ERROR ? FLOW_ERROR : FLOW_NEXT;
  }
  case ND_IF:
    // An elif is an if alone in the else block of the one before: the
    // chain is walked in a loop, so its length costs no stack.
    for (;;) {
      TlValue *c = tl_sema_eval_const(s, st->a);
      if (c->kind == VAL_ERROR) return FLOW_ERROR;
      if (tl_value_truthy(c)) return tl_eval_exec_block(s, &st->list, ret);
      if (st->list2.len != 1 || TL_VEC_AT(st->list2, TlNode, 0)->kind != ND_IF)
        return tl_eval_exec_block(s, &st->list2, ret);
      st = TL_VEC_AT(st->list2, TlNode, 0);
      if (!spend_step(s, st->loc)) return FLOW_ERROR;
    }
  case ND_FOR:
    return for_stmt(s, st, ret);
  case ND_WHILE:
    for (;;) { // bounded by the statement budget of exec_stmt
      TlValue *c = tl_sema_eval_const(s, st->a);
      if (c->kind == VAL_ERROR) return FLOW_ERROR;
      if (!tl_value_truthy(c))
        return tl_eval_exec_block(s, &st->list2, ret); // the else block: no break happened
      Flow f = tl_eval_exec_block(s, &st->list, ret);
      if (f == FLOW_BREAK) return FLOW_NEXT;
      if (f != FLOW_NEXT && f != FLOW_CONTINUE) return f;
      if (!spend_step(s, st->loc)) return FLOW_ERROR;
    }
  case ND_DEF:
    return def_stmt(s, st);
  case ND_RETURN:
    if (!s->scope) {
      tl_error(s->diag, st->loc, "'return' outside a function");
      return FLOW_ERROR;
    }
    *ret = st->a ? tl_sema_eval_const(s, st->a) : tl_value_new(s, VAL_NONE, st->loc);
    return (*ret)->kind == VAL_ERROR ? FLOW_ERROR : FLOW_RETURN;
  case ND_ASSERT: {
    TlValue *c = tl_sema_eval_const(s, st->a);
    if (c->kind == VAL_ERROR) return FLOW_ERROR;
    if (tl_value_truthy(c)) return FLOW_NEXT;
    TlValue *m = st->b ? tl_sema_eval_const(s, st->b) : NULL;
    if (m && m->kind == VAL_STR)
      tl_error(s->diag, st->loc, "assertion failed: %s", m->s);
    else
      tl_error(s->diag, st->loc, "assertion failed");
    return FLOW_ERROR;
  }
  case ND_RAISE: {
    const char *m = NULL; // the message's literal text (an f-string is not interpolated)
    if (st->a && st->a->kind == ND_CALL && st->a->list.len == 1 &&
        TL_VEC_AT(st->a->list, TlNode, 0)->kind == ND_STR)
      m = TL_VEC_AT(st->a->list, TlNode, 0)->str;
    tl_error(s->diag, st->loc, "the code tlc evaluates raised an exception%s%s", m ? ": " : "",
             m ? m : "");
    return FLOW_ERROR;
  }
  case ND_IMPORT:
    tl_eval_import(s, st);
    return FLOW_NEXT;
  case ND_PASS:
    return FLOW_NEXT;
  case ND_EXPR_STMT: {
    if (st->a->kind == ND_STR) // a docstring
      return FLOW_NEXT;
    // break / continue parse as bare names (they are not .tl keywords)
    if (st->a->kind == ND_NAME &&
        (strcmp(st->a->name, "break") == 0 || strcmp(st->a->name, "continue") == 0))
      return st->a->name[0] == 'b' ? FLOW_BREAK : FLOW_CONTINUE;
    TlValue *v = tl_sema_eval_const(s, st->a);
    return v->kind == VAL_ERROR ? FLOW_ERROR : FLOW_NEXT;
  }
  case ND_SKIPPED: // every name it may bind is host code
    for (int i = 0; i < st->list.len; i++)
      tl_eval_bind_opaque(s, TL_VEC_AT(st->list, TlNode, i), st, st->str, (int)st->ival);
    return FLOW_NEXT;
  case ND_WITH:
    tl_error(s->diag, st->loc,
             "'with' outside a kernel; 'with T.Kernel(...)' belongs in a "
             "@T.prim_func");
    return FLOW_ERROR;
  default:
    tl_error(s->diag, st->loc, "tlc cannot evaluate this statement at compile time");
    return FLOW_ERROR;
  }
}

Flow tl_eval_exec_block(Sema *s, const TlVec *stmts, TlValue **ret) {
  for (int i = 0; i < stmts->len; i++) {
    if (tl_diag_too_many(s->diag)) return FLOW_ERROR;
    Flow f = tl_eval_exec_stmt(s, TL_VEC_AT(*stmts, TlNode, i), ret);
    if (f != FLOW_NEXT) return f;
  }
  return FLOW_NEXT;
}
bool tl_sema_exec(Sema *s, const TlNode *st) {
  TlValue *ret = NULL;
  Flow f = tl_eval_exec_stmt(s, st, &ret);
  if (f == FLOW_BREAK || f == FLOW_CONTINUE || f == FLOW_RETURN) {
    tl_error(s->diag, st->loc, "'%s' outside a loop or before the T.Kernel block",
             f == FLOW_RETURN  ? "return"
             : f == FLOW_BREAK ? "break"
                               : "continue");
    return false;
  }
  return f == FLOW_NEXT;
}
