// The compile-time Python evaluator: runs the module's top-level code and
// the bodies of kernel factories (`def matmul(M, N, K, ...)` returning a
// nested @T.prim_func), then compiles the kernels asked for.
//
// What it runs: assignments (with unpacking), augmented assignments, if /
// elif / else and for loops on compile-time values, def (closures capture
// the defining scope), return, assert, imports, docstrings. Calls bind
// positional, keyword and default arguments. Decorators: @T.prim_func makes
// a kernel, @T.macro a macro inlined in kernels, @tilelang.jit and
// @autotune are transparent. Values are those of EvalExpr.c.
//
// Host code: in a .py file, a top-level statement that fails to parse or to
// evaluate is not an error; the names it defines become VAL_OPAQUE values
// holding its diagnostics, replayed only if a kernel or --call uses them.
#include <ctype.h>
#include <string.h>

#include "../Sema/SemaInternal.h"

// Statement budgets: a --call (or a .tl module statement) may run a
// factory's loops; a top-level statement of a .py file is host code or a
// constant, so a runaway host loop is cut short sooner.
enum {
  MAX_CALL_DEPTH = 64,
  MAX_STEPS = 1000000,
  MAX_HOST_STEPS = 100000,
  MAX_ITEMS = 1 << 21,
  MAX_CALLS = 50000
};

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
    tl_error(s->diag, loc, "compile-time evaluation made more than %d list items; is a loop "
                           "building lists without end?", MAX_ITEMS);
    s->items = (int64_t)MAX_ITEMS + 1; // reported once
    return false;
  }
  if (s->items > MAX_ITEMS)
    return false;
  s->items += n;
  return true;
}

typedef enum { FLOW_NEXT, FLOW_RETURN, FLOW_BREAK, FLOW_CONTINUE, FLOW_ERROR } Flow;

static Flow exec_block(Sema *s, const TlVec *stmts, TlValue **ret);

static TlValue *err_value(Sema *s, TlLoc loc) {
  return tl_value_new(s, VAL_ERROR, loc);
}

static TlSymScope *current(Sema *s) {
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

// -D NAME=VALUE: parsed once, before the module runs, so a malformed value
// is reported as itself rather than as host code.
static TlNode **parse_defines(Sema *s) {
  int n = s->opts ? s->opts->ndefines : 0;
  TlNode **nodes = TL_NEW_ARRAY(s->arena, TlNode *, n + 1);
  for (int i = 0; i < n; i++) {
    const char *d = s->opts->defines[i];
    size_t len = strcspn(d, "=");
    bool ident = len > 0 && !isdigit((unsigned char)d[0]);
    for (size_t j = 0; j < len; j++)
      ident = ident && (isalnum((unsigned char)d[j]) || d[j] == '_');
    if (!ident) {
      tl_error_noloc(s->diag, "-D '%s': expected NAME=VALUE with NAME a Python identifier", d);
      nodes[i] = NULL;
      continue;
    }
    const char *text = d[len] == '=' ? d + len + 1 : "1";
    TlSource *src = tl_source_from_string(s->arena, tl_arena_printf(s->arena, "-D %.*s", (int)len, d), text);
    src->python = true;
    int before = s->diag->nerrors;
    TlTokens toks = tl_lex(s->arena, src, s->diag);
    nodes[i] = s->diag->nerrors > before ? NULL : tl_parse_expression(s->arena, toks, s->diag);
  }
  return nodes;
}

// The value of the -D override for a module-level `name = ...`, or NULL.
static TlValue *define_override(Sema *s, const char *name, TlLoc at) {
  if (!s->opts || s->scope)
    return NULL;
  int last = -1; // a repeated -D: the last one wins, as with a C compiler
  for (int i = 0; i < s->opts->ndefines; i++) {
    const char *d = s->opts->defines[i];
    size_t n = strcspn(d, "=");
    if (strlen(name) != n || strncmp(d, name, n) != 0)
      continue;
    s->define_used[i] = true;
    last = i;
  }
  for (int i = last; i >= 0; i = -1) {
    TlNode *e = s->define_nodes[i];
    if (!e)
      return tl_value_new(s, VAL_ERROR, at);
    // A bare word that names nothing is a string: -D dtype=bfloat16.
    if (e->kind == ND_NAME && !tl_scope_lookup(s, e->name)) {
      TlValue *v = tl_value_new(s, VAL_STR, at);
      v->s = e->name;
      return v;
    }
    TlValue *v = tl_sema_eval_const(s, e);
    v->loc = at;
    return v;
  }
  return NULL;
}

static void bind(Sema *s, const TlNode *target, TlValue *v);

// True when every name of target has a -D (so its right side need not run).
static bool all_overridden(Sema *s, const TlNode *target) {
  if (target->kind == ND_NAME) {
    if (!s->opts || s->scope)
      return false;
    for (int i = 0; i < s->opts->ndefines; i++) {
      const char *d = s->opts->defines[i];
      size_t n = strcspn(d, "=");
      if (strlen(target->name) == n && strncmp(d, target->name, n) == 0)
        return true;
    }
    return false;
  }
  if (target->kind != ND_TUPLE && target->kind != ND_LIST)
    return false;
  for (int i = 0; i < target->list.len; i++)
    if (!all_overridden(s, TL_VEC_AT(target->list, TlNode, i)))
      return false;
  return true;
}

// -D for names bound by unpacking: each overridden name is rebound.
static void override_unpacked(Sema *s, const TlNode *target, TlLoc at) {
  if (target->kind == ND_NAME) {
    TlValue *v = define_override(s, target->name, at);
    if (v)
      bind(s, target, v);
    return;
  }
  if (target->kind == ND_TUPLE || target->kind == ND_LIST)
    for (int i = 0; i < target->list.len; i++)
      override_unpacked(s, TL_VEC_AT(target->list, TlNode, i), at);
}

static void bind(Sema *s, const TlNode *target, TlValue *v) {
  if (target->kind == ND_NAME) {
    TlSym *y = tl_scope_define(s, current(s), target->name, SYM_VALUE, target->loc);
    y->value = v;
    return;
  }
  if (target->kind == ND_TUPLE || target->kind == ND_LIST) {
    int n = target->list.len;
    if (v->kind != VAL_ERROR && v->kind != VAL_TUPLE) {
      tl_error(s->diag, target->loc, "cannot unpack %s %s into %d names",
               tl_value_kind_article(v->kind), tl_value_kind_name(v->kind), n);
      v = err_value(s, v->loc);
    } else if (v->kind == VAL_TUPLE && v->items.len != n) {
      tl_error(s->diag, target->loc, "cannot unpack %d values into %d names", v->items.len, n);
      v = err_value(s, v->loc);
    }
    for (int i = 0; i < n; i++)
      bind(s, TL_VEC_AT(target->list, TlNode, i),
           v->kind == VAL_ERROR ? v : TL_VEC_AT(v->items, TlValue, i));
    return;
  }
  tl_error(s->diag, target->loc, "tlc evaluates assignments to names only (not to %ss)",
           tl_node_kind_name(target->kind));
}

// Binds the names a failed top-level statement defines to host code.
static void bind_opaque(Sema *s, const TlNode *target, const TlNode *st, const char *text,
                        int nerrors) {
  if (!target)
    return;
  if (target->kind == ND_TUPLE || target->kind == ND_LIST) {
    for (int i = 0; i < target->list.len; i++)
      bind_opaque(s, TL_VEC_AT(target->list, TlNode, i), st, text, nerrors);
    return;
  }
  if (target->kind != ND_NAME)
    return;
  TlValue *v = tl_value_new(s, VAL_OPAQUE, st->kind == ND_ASSIGN ? target->loc : st->loc);
  v->s = target->name;
  v->text = text;
  v->nerrors = nerrors;
  TlSym *y = tl_scope_define(s, s->globals, target->name, SYM_VALUE, st->loc);
  y->value = v;
}

static void import(Sema *s, const TlNode *st) {
  // `import tilelang.language as T`, `from tilelang import language as T`
  // bind T to the DSL; `import tilelang` binds tilelang; `from m import x`
  // binds x. Anything but tilelang is an opaque module (host code: torch).
  const char *full = st->name;
  const char *bound = st->str;
  if (!bound) {
    const char *last = strrchr(full, '.');
    size_t n = strcspn(full, ".");
    bound = st->ival && last ? last + 1
                             : tl_arena_printf(s->arena, "%.*s", (int)(n < 127 ? n : 127), full);
  }
  bool whole = st->str || st->ival; // the name stands for the full dotted module
  TlSym *y = tl_scope_define(s, current(s), bound, SYM_VALUE, st->loc);
  y->value = tl_value_new(s, VAL_MODULE, st->loc);
  y->value->s = whole ? full : bound;
}

typedef enum { DEC_KERNEL, DEC_MACRO, DEC_TRANSPARENT, DEC_UNKNOWN } DecoratorKind;

static DecoratorKind decorator_kind(Sema *s, const TlNode *d) {
  const TlNode *f = d->kind == ND_CALL ? d->a : d;
  const char *name = f->kind == ND_NAME ? f->name : f->kind == ND_ATTR ? f->name : "";
  const char *t = tl_sema_t_attr(s, f);
  if (strcmp(name, "prim_func") == 0 && (t || f->kind == ND_NAME))
    return DEC_KERNEL;
  if (strcmp(name, "macro") == 0 && (t || f->kind == ND_NAME))
    return DEC_MACRO;
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
    DecoratorKind k = decorator_kind(s, dec);
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
  TlSym *prev = tl_scope_lookup_local(current(s), st->name);
  if (!s->scope && !s->python && prev && prev->kind == SYM_VALUE &&
      (prev->value->kind == VAL_KERNEL || prev->value->kind == VAL_FUNC)) {
    tl_error(s->diag, st->loc, "redefinition of '%s'", st->name);
    tl_note(s->diag, prev->loc, "previous definition is here");
  }
  TlValue *v = tl_value_new(s, kind, st->loc);
  v->fn = (TlNode *)st;
  v->s = st->name;
  v->env = s->scope;
  v->autotune = configs;
  // Defaults are evaluated once, where the def runs (as in Python). A
  // kernel's parameters are tensors; their defaults are reported there.
  for (int i = 0; i < st->params.len && kind != VAL_KERNEL; i++) {
    TlNode *p = TL_VEC_AT(st->params, TlNode, i);
    TlValue *dv = p->b ? tl_sema_eval_const(s, p->b) : NULL;
    if (dv && dv->kind == VAL_ERROR)
      return FLOW_ERROR;
    tl_vec_push(s->arena, &v->defaults, dv);
  }
  TlSym *y = tl_scope_define(s, current(s), st->name, SYM_VALUE, st->loc);
  y->value = v;
  // A module-level kernel is compiled where it is defined, seeing the
  // module's names as they are then (as TileLang's decorator does), unless
  // --call picks the kernels.
  if (kind == VAL_KERNEL && !s->scope && !(s->opts && s->opts->ncalls > 0) &&
      !tl_diag_too_many(s->diag))
    s->lower.compile_kernel(s, v);
  return FLOW_NEXT;
}

static Flow for_stmt(Sema *s, const TlNode *st, TlValue **ret) {
  TlValue *it = tl_sema_eval_const(s, st->a);
  if (it->kind == VAL_ERROR)
    return FLOW_ERROR;
  if (tl_value_iterable(s, it))
    it = tl_value_iterable(s, it);
  else {
    tl_error(s->diag, st->a->loc, "a compile-time loop iterates over a list, tuple or range, "
                                  "not %s %s", tl_value_kind_article(it->kind),
             tl_value_kind_name(it->kind));
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
    bind(s, target, TL_VEC_AT(it->items, TlValue, i));
    Flow f = exec_block(s, &st->list, ret);
    if (f == FLOW_BREAK)
      return FLOW_NEXT; // for-else: the else block runs only without a break
    if (f != FLOW_NEXT && f != FLOW_CONTINUE)
      return f;
  }
  return exec_block(s, &st->params, ret); // the else block
}

// Counts one statement (or loop test) against the budget; false, reported
// once, when it is spent.
static bool spend_step(Sema *s, TlLoc loc) {
  if (++s->steps <= s->step_limit)
    return true;
  if (s->steps == s->step_limit + 1)
    tl_error(s->diag, loc, "compile-time evaluation ran more than %d statements; is there an "
                           "endless loop?", (int)s->step_limit);
  return false;
}

static Flow exec_stmt_node(Sema *s, const TlNode *st, TlValue **ret);

static Flow exec_stmt(Sema *s, const TlNode *st, TlValue **ret) {
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
      all = all && all_overridden(s, TL_VEC_AT(st->list, TlNode, t));
    TlValue *v = all ? NULL : tl_sema_eval_const(s, st->a);
    for (int t = 0; t < st->list.len; t++) {
      const TlNode *target = TL_VEC_AT(st->list, TlNode, t);
      if (v)
        bind(s, target, v);
      override_unpacked(s, target, st->a->loc); // a = b = 8 with -D b=16: only b
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
    bind(s, st->a, v);
    return v->kind == VAL_ERROR ? FLOW_ERROR : FLOW_NEXT;
  }
  case ND_IF:
    // An elif is an if alone in the else block of the one before: the
    // chain is walked in a loop, so its length costs no stack.
    for (;;) {
      TlValue *c = tl_sema_eval_const(s, st->a);
      if (c->kind == VAL_ERROR) return FLOW_ERROR;
      if (tl_value_truthy(c)) return exec_block(s, &st->list, ret);
      if (st->list2.len != 1 || TL_VEC_AT(st->list2, TlNode, 0)->kind != ND_IF)
        return exec_block(s, &st->list2, ret);
      st = TL_VEC_AT(st->list2, TlNode, 0);
      if (!spend_step(s, st->loc)) return FLOW_ERROR;
    }
  case ND_FOR:
    return for_stmt(s, st, ret);
  case ND_WHILE:
    for (;;) { // bounded by the statement budget of exec_stmt
      TlValue *c = tl_sema_eval_const(s, st->a);
      if (c->kind == VAL_ERROR)
        return FLOW_ERROR;
      if (!tl_value_truthy(c))
        return exec_block(s, &st->list2, ret); // the else block: no break happened
      Flow f = exec_block(s, &st->list, ret);
      if (f == FLOW_BREAK)
        return FLOW_NEXT;
      if (f != FLOW_NEXT && f != FLOW_CONTINUE)
        return f;
      if (!spend_step(s, st->loc))
        return FLOW_ERROR;
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
    if (c->kind == VAL_ERROR)
      return FLOW_ERROR;
    if (tl_value_truthy(c))
      return FLOW_NEXT;
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
    import(s, st);
    return FLOW_NEXT;
  case ND_PASS:
    return FLOW_NEXT;
  case ND_EXPR_STMT: {
    if (st->a->kind == ND_STR) // a docstring
      return FLOW_NEXT;
    // break / continue parse as bare names (they are not .tl keywords)
    if (st->a->kind == ND_NAME && (strcmp(st->a->name, "break") == 0 ||
                                   strcmp(st->a->name, "continue") == 0))
      return st->a->name[0] == 'b' ? FLOW_BREAK : FLOW_CONTINUE;
    TlValue *v = tl_sema_eval_const(s, st->a);
    return v->kind == VAL_ERROR ? FLOW_ERROR : FLOW_NEXT;
  }
  case ND_SKIPPED: // every name it may bind is host code
    for (int i = 0; i < st->list.len; i++)
      bind_opaque(s, TL_VEC_AT(st->list, TlNode, i), st, st->str, (int)st->ival);
    return FLOW_NEXT;
  case ND_WITH:
    tl_error(s->diag, st->loc, "'with' outside a kernel; 'with T.Kernel(...)' belongs in a "
                               "@T.prim_func");
    return FLOW_ERROR;
  default:
    tl_error(s->diag, st->loc, "tlc cannot evaluate this statement at compile time");
    return FLOW_ERROR;
  }
}

static Flow exec_block(Sema *s, const TlVec *stmts, TlValue **ret) {
  for (int i = 0; i < stmts->len; i++) {
    if (tl_diag_too_many(s->diag))
      return FLOW_ERROR;
    Flow f = exec_stmt(s, TL_VEC_AT(*stmts, TlNode, i), ret);
    if (f != FLOW_NEXT)
      return f;
  }
  return FLOW_NEXT;
}

// @autotune(configs=...) on a factory called without some of the tuned
// parameters: TileLang would benchmark every config; tlc cannot run
// kernels while compiling, so it takes the first config and says so.
static const TlValue *autotune_config(Sema *s, const TlValue *fn, TlValue **bound, TlLoc loc) {
  if (!fn->autotune)
    return NULL;
  const TlNode *def = fn->fn;
  bool missing = false;
  for (int i = 0; i < def->params.len; i++)
    missing = missing || !bound[i];
  if (!missing)
    return NULL;
  if (s->call_depth >= MAX_CALL_DEPTH) {
    tl_error(s->diag, loc, "compile-time calls nested more than %d deep (recursion in '%s'?)",
             MAX_CALL_DEPTH, fn->s);
    return NULL;
  }
  TlSymScope *saved = s->scope;
  s->scope = fn->env;
  s->call_depth++; // configs= may call functions, even this one
  TlValue *configs = tl_sema_eval_const(s, fn->autotune);
  s->call_depth--;
  s->scope = saved;
  if (configs->kind == VAL_ERROR)
    return NULL;
  if (configs->kind != VAL_TUPLE || configs->items.len == 0 ||
      TL_VEC_AT(configs->items, TlValue, 0)->kind != VAL_DICT) {
    tl_warning(s->diag, fn->autotune->loc, "@autotune configs= is not a list of dicts; tlc "
                                           "ignores it");
    return NULL;
  }
  const TlValue *first = TL_VEC_AT(configs->items, TlValue, 0);
  TlBuf used, used_json;
  tl_buf_init(&used, s->arena);
  tl_buf_puts(&used, "");
  tl_buf_init(&used_json, s->arena);
  tl_buf_puts(&used_json, "[");
  for (int i = 0; i < def->params.len; i++) {
    const char *name = TL_VEC_AT(def->params, TlNode, i)->name;
    TlValue key = {.kind = VAL_STR, .s = name};
    if (!bound[i] && tl_value_dict_get(first, &key)) {
      tl_buf_printf(&used_json, "%s\"%s\"", used.len ? ", " : "", name);
      tl_buf_printf(&used, "%s%s", used.len ? ", " : "", name);
    }
  }
  if (used.len) {
    tl_warning(s->diag, loc, "'%s' is autotuned; tlc does not tune, it takes the first of %d "
                             "configs for %s", fn->s, configs->items.len, used.data);
    tl_note(s->diag, fn->autotune->loc, "pass them in the call to choose another config "
                                        "(or time them all: tlc tune)");
    tl_buf_puts(&used_json, "]");
    tl_sema_record_autotune(s, fn, configs, used_json.data);
  }
  return first;
}

bool tl_sema_plain_params(Sema *s, const TlNode *def, const char *what) {
  for (int i = 0; i < def->params.len; i++) {
    const TlNode *p = TL_VEC_AT(def->params, TlNode, i);
    if (p->ival != 0) {
      tl_error(s->diag, p->loc, "a %s takes named parameters only, not '%s%s'", what,
               p->ival == 2 ? "**" : "*", p->ival == 3 ? "" : p->name);
      return false;
    }
  }
  return true;
}

static TlValue *tuple_of(Sema *s, TlLoc loc) {
  return tl_value_new(s, VAL_TUPLE, loc);
}

TlValue *tl_sema_apply(Sema *s, TlValue *fn, TlLoc loc, int nargs, TlValue **args, int nkw,
                       const char **kwnames, TlValue **kwvals) {
  if (fn->kind == VAL_OPAQUE) {
    tl_sema_report_opaque(s, loc, fn);
    return err_value(s, loc);
  }
  if (fn->kind == VAL_KERNEL || fn->kind == VAL_MACRO) {
    tl_error(s->diag, loc, "'%s' is a %s; %s", fn->s, fn->kind == VAL_KERNEL ? "@T.prim_func kernel" : "@T.macro",
             fn->kind == VAL_KERNEL ? "tlc compiles kernels, it does not call them"
                                    : "macros are called inside a kernel");
    return err_value(s, loc);
  }
  if (fn->kind != VAL_FUNC) {
    tl_error(s->diag, loc, "%s %s is not callable", tl_value_kind_article(fn->kind),
             tl_value_kind_name(fn->kind));
    return err_value(s, loc);
  }
  // A lambda runs no statement, so calls have a budget of their own:
  // recursion that branches (f(n-1) + f(n-1)) would run 2^n of them inside
  // the statement budget. A call costs ~1 KB and far more time than a
  // statement, hence the lower bound.
  if (++s->calls > MAX_CALLS) {
    if (s->calls == MAX_CALLS + 1)
      tl_error(s->diag, loc,
               "compile-time evaluation made more than %d calls; is there "
               "runaway recursion?",
               MAX_CALLS);
    return err_value(s, loc);
  }
  const TlNode *def = fn->fn;
  if (tl_sema_is_eager(def)) {
    tl_error(s->diag, loc,
             "'%s' is an eager @tilelang.jit function (its body holds the "
             "T.Kernel); tlc compiles it with %s.compile(NAME=value, ...)",
             fn->s, fn->s);
    return err_value(s, loc);
  }
  int np = def->params.len;
  if (s->call_depth >= MAX_CALL_DEPTH) {
    tl_error(s->diag, loc, "compile-time calls nested more than %d deep (recursion in '%s'?)",
             MAX_CALL_DEPTH, fn->s);
    return err_value(s, loc);
  }
  // Python's binding: positional arguments fill the parameters before a
  // *args (or a bare *), the rest go to *args; keywords match by name, the
  // unknown ones go to **kwargs.
  int star = -1, dstar = -1, npos = np;
  for (int i = 0; i < np; i++) {
    int kind = (int)TL_VEC_AT(def->params, TlNode, i)->ival;
    if ((kind == 1 || kind == 3) && star < 0)
      star = i, npos = i;
    if (kind == 2) {
      dstar = i;
      if (npos > i)
        npos = i;
    }
  }
  TlValue **bound = TL_NEW_ARRAY(s->arena, TlValue *, np > 0 ? np : 1);
  TlValue *extra = NULL, *extra_kw = NULL;
  if (star >= 0 && TL_VEC_AT(def->params, TlNode, star)->ival == 1)
    bound[star] = extra = tuple_of(s, loc);
  if (dstar >= 0)
    bound[dstar] = extra_kw = tl_value_new(s, VAL_DICT, loc);
  if (nargs > npos && !extra) {
    tl_error(s->diag, loc, "'%s' takes %d positional argument%s, %d given", fn->s, npos,
             npos == 1 ? "" : "s", nargs);
    tl_note(s->diag, def->loc, "'%s' defined here", fn->s);
    return err_value(s, loc);
  }
  for (int i = 0; i < nargs; i++) {
    if (i < npos)
      bound[i] = args[i];
    else
      tl_vec_push(s->arena, &extra->items, args[i]);
  }
  for (int k = 0; k < nkw; k++) {
    int at = -1;
    for (int i = 0; i < np; i++) {
      const TlNode *p = TL_VEC_AT(def->params, TlNode, i);
      if (p->ival == 0 && p->op != TK_SLASH && strcmp(p->name, kwnames[k]) == 0)
        at = i; // positional-only parameters (before a /) take no keyword
    }
    if (at < 0 && extra_kw) {
      TlValue *key = tl_value_new(s, VAL_STR, kwvals[k]->loc);
      key->s = kwnames[k];
      if (tl_value_dict_get(extra_kw, key)) {
        tl_error(s->diag, kwvals[k]->loc, "'%s' got two values for '%s'", fn->s, kwnames[k]);
        return err_value(s, loc);
      }
      tl_value_dict_set(s, extra_kw, key, kwvals[k]);
      continue;
    }
    if (at < 0) {
      tl_error(s->diag, kwvals[k]->loc, "'%s' has no parameter '%s'", fn->s, kwnames[k]);
      tl_note(s->diag, def->loc, "'%s' defined here", fn->s);
      return err_value(s, loc);
    }
    if (bound[at]) {
      tl_error(s->diag, kwvals[k]->loc, "'%s' got two values for parameter '%s'", fn->s,
               kwnames[k]);
      return err_value(s, loc);
    }
    bound[at] = kwvals[k];
  }
  if (star >= 0 && !bound[star]) // a bare *: binds nothing
    bound[star] = tl_value_new(s, VAL_NONE, loc);
  const TlValue *tuned = autotune_config(s, fn, bound, loc);
  for (int i = 0; i < np; i++) {
    if (bound[i])
      continue;
    TlValue *from_config = NULL;
    if (tuned) {
      TlValue key = {.kind = VAL_STR, .s = TL_VEC_AT(def->params, TlNode, i)->name};
      from_config = tl_value_dict_get(tuned, &key);
    }
    if (from_config) {
      bound[i] = from_config;
      continue;
    }
    if (i < fn->defaults.len && TL_VEC_AT(fn->defaults, TlValue, i)) {
      bound[i] = TL_VEC_AT(fn->defaults, TlValue, i);
      continue;
    }
    TlNode *p = TL_VEC_AT(def->params, TlNode, i);
    tl_error(s->diag, loc, "'%s' needs a value for parameter '%s'", fn->s, p->name);
    tl_note(s->diag, p->loc, "'%s' declared here without a default", p->name);
    return err_value(s, loc);
  }
  TlSymScope *sc = TL_NEW(s->arena, TlSymScope);
  sc->parent = fn->env ? fn->env : s->globals;
  for (int i = 0; i < np; i++) {
    TlNode *p = TL_VEC_AT(def->params, TlNode, i);
    if (p->ival == 3)
      continue; // the bare * of keyword-only parameters
    TlSym *y = tl_scope_define(s, sc, p->name, SYM_VALUE, p->loc);
    y->value = bound[i];
  }
  TlSymScope *saved = s->scope;
  s->scope = sc;
  s->call_depth++;
  int before = s->diag->nerrors;
  TlValue *ret = NULL;
  if (def->kind == ND_LAMBDA) {
    ret = tl_sema_eval_const(s, def->a);
  } else {
    Flow f = exec_block(s, &def->list, &ret);
    if (f == FLOW_ERROR)
      ret = err_value(s, loc);
    else if (f == FLOW_BREAK || f == FLOW_CONTINUE) {
      tl_error(s->diag, def->loc, "'break' or 'continue' outside a loop in '%s'", fn->s);
      ret = err_value(s, loc);
    }
  }
  s->call_depth--;
  s->scope = saved;
  if (s->diag->nerrors > before && !tl_diag_too_many(s->diag))
    tl_note(s->diag, loc, "in the call to '%s' here", fn->s);
  return ret ? ret : tl_value_new(s, VAL_NONE, loc);
}

// Runs the comprehension's clauses from index `at`, collecting elements.
static bool comprehend(Sema *s, const TlNode *n, int at, TlValue *out) {
  if (at == n->list.len) {
    TlValue *x = tl_sema_eval_const(s, n->a);
    if (x->kind == VAL_ERROR)
      return false;
    if (out->kind == VAL_DICT) {
      TlValue *v = tl_sema_eval_const(s, n->b);
      if (v->kind == VAL_ERROR)
        return false;
      tl_value_dict_set(s, out, x, v);
      return true;
    }
    if (n->op == TK_LBRACE) // a set comprehension: distinct items, in order
      tl_value_set_add(s, out, x);
    else
      tl_vec_push(s->arena, &out->items, x);
    return true;
  }
  const TlNode *c = TL_VEC_AT(n->list, TlNode, at);
  if (c->kind == ND_IF) {
    TlValue *v = tl_sema_eval_const(s, c->a);
    if (v->kind == VAL_ERROR)
      return false;
    return !tl_value_truthy(v) || comprehend(s, n, at + 1, out);
  }
  TlValue *it = tl_sema_eval_const(s, c->a);
  if (it->kind == VAL_ERROR)
    return false;
  if (tl_value_iterable(s, it))
    it = tl_value_iterable(s, it);
  else {
    tl_error(s->diag, c->a->loc, "a comprehension iterates over a list, tuple, dict or range, "
                                 "not %s %s", tl_value_kind_article(it->kind),
             tl_value_kind_name(it->kind));
    return false;
  }
  const TlNode *target = TL_VEC_AT(c->list2, TlNode, 0);
  TlNode tuple = {0};
  if (c->list2.len > 1) {
    tuple.kind = ND_TUPLE;
    tuple.loc = target->loc;
    tuple.list = c->list2;
    target = &tuple;
  }
  for (int i = 0; i < it->items.len; i++) {
    if (out->items.len >= (1 << 20)) {
      tl_error(s->diag, n->loc, "this comprehension makes more than %d items", 1 << 20);
      return false;
    }
    if (!tl_sema_spend_items(s, 1, n->loc))
      return false;
    bind(s, target, TL_VEC_AT(it->items, TlValue, i));
    if (!comprehend(s, n, at + 1, out))
      return false;
  }
  return true;
}

TlValue *tl_sema_eval_comprehension(Sema *s, const TlNode *n) {
  // Its variables live in a scope of their own, as in Python 3.
  TlSymScope *saved = s->scope;
  TlSymScope *sc = TL_NEW(s->arena, TlSymScope);
  sc->parent = current(s);
  s->scope = sc;
  TlValue *out = tl_value_new(s, n->op == TK_LBRACE && n->b ? VAL_DICT : VAL_TUPLE, n->loc);
  out->is_list = true;
  bool ok = comprehend(s, n, 0, out);
  s->scope = saved;
  return ok ? out : err_value(s, n->loc);
}

bool tl_sema_exec(Sema *s, const TlNode *st) {
  TlValue *ret = NULL;
  Flow f = exec_stmt(s, st, &ret);
  if (f == FLOW_BREAK || f == FLOW_CONTINUE || f == FLOW_RETURN) {
    tl_error(s->diag, st->loc, "'%s' outside a loop or before the T.Kernel block",
             f == FLOW_RETURN  ? "return"
             : f == FLOW_BREAK ? "break"
                               : "continue");
    return false;
  }
  return f == FLOW_NEXT;
}

TlValue *tl_sema_call_user(Sema *s, const TlNode *call, TlValue *callee) {
  TlVec args = {0}, names = {0}, vals = {0};
  if (!tl_sema_eval_call_args(s, call, &args, &names, &vals)) return err_value(s, call->loc);
  return tl_sema_apply(s, callee, call->loc, args.len, (TlValue **)args.items, names.len,
                       (const char **)names.items, (TlValue **)vals.items);
}

bool tl_sema_eval_call_args(Sema *s, const TlNode *call, TlVec *args, TlVec *names, TlVec *vals) {
  for (int i = 0; i < call->list.len; i++) {
    TlNode *a = TL_VEC_AT(call->list, TlNode, i);
    TlValue *v = tl_sema_eval_const(s, a->kind == ND_STARRED ? a->a : a);
    if (v->kind == VAL_ERROR) return false;
    if (a->kind == ND_STARRED) {
      if (v->kind != VAL_TUPLE) {
        tl_error(s->diag, a->loc, "'*' needs a list or tuple, found %s %s",
                 tl_value_kind_article(v->kind), tl_value_kind_name(v->kind));
        return false;
      }
      for (int j = 0; j < v->items.len; j++)
        tl_vec_push(s->arena, args, TL_VEC_AT(v->items, TlValue, j));
    } else {
      tl_vec_push(s->arena, args, v);
    }
  }
  for (int k = 0; k < call->list2.len; k++) {
    TlNode *kw = TL_VEC_AT(call->list2, TlNode, k);
    TlValue *v = tl_sema_eval_const(s, kw->a);
    if (v->kind == VAL_ERROR) return false;
    if (kw->op == TK_STARSTAR) { // **config: the dict's string keys are keywords
      if (v->kind != VAL_DICT) {
        tl_error(s->diag, kw->loc, "'**' needs a dict, found %s %s", tl_value_kind_article(v->kind),
                 tl_value_kind_name(v->kind));
        return false;
      }
      for (int i = 0; i < v->items.len; i++) {
        TlValue *key = TL_VEC_AT(v->items, TlValue, i);
        if (key->kind != VAL_STR) {
          tl_error(s->diag, kw->loc, "'**' needs a dict with string keys");
          return false;
        }
        TlValue *x = TL_NEW(s->arena, TlValue);
        *x = *TL_VEC_AT(v->values, TlValue, i);
        x->loc = kw->loc;
        tl_vec_push(s->arena, names, (void *)key->s);
        tl_vec_push(s->arena, vals, x);
      }
      continue;
    }
    TlValue *x = TL_NEW(s->arena, TlValue);
    *x = *v;
    x->loc = kw->loc; // errors about a keyword point at its name
    tl_vec_push(s->arena, names, (void *)kw->name);
    tl_vec_push(s->arena, vals, x);
  }
  return true;
}

// `f.compile(...)` or `tilelang.compile(...)`, alone or assigned.
static bool is_compile_stmt(const TlNode *st) {
  const TlNode *v = st->kind == ND_ASSIGN || st->kind == ND_EXPR_STMT ? st->a : NULL;
  return v && v->kind == ND_CALL && v->a->kind == ND_ATTR && strcmp(v->a->name, "compile") == 0;
}

// True when st is, or holds (under an if, a for ...), a def decorated with
// @T.prim_func, or compiles an eager function (f.compile(...)): its errors
// are the kernel's and are never deferred as host code.
static bool is_kernel_def(Sema *s, const TlNode *st) {
  for (;;) { // an elif (an if alone in an else block) is the next turn, not a recursion
    if (is_compile_stmt(st)) return true;
    if (st->kind == ND_DEF) {
      for (int d = 0; d < st->list2.len; d++)
        if (decorator_kind(s, TL_VEC_AT(st->list2, TlNode, d)) == DEC_KERNEL) return true;
      return false;
    }
    if (st->kind != ND_IF && st->kind != ND_FOR && st->kind != ND_WHILE) return false;
    for (int i = 0; i < st->list.len; i++)
      if (is_kernel_def(s, TL_VEC_AT(st->list, TlNode, i))) return true;
    const TlVec *other = st->kind == ND_FOR ? &st->params : &st->list2; // else blocks
    if (st->kind == ND_IF && other->len == 1 && TL_VEC_AT(*other, TlNode, 0)->kind == ND_IF) {
      st = TL_VEC_AT(*other, TlNode, 0);
      continue;
    }
    for (int i = 0; i < other->len; i++)
      if (is_kernel_def(s, TL_VEC_AT(*other, TlNode, i))) return true;
    return false;
  }
}

// Every name a failed top-level statement may have bound, at any depth,
// becomes host code: a kernel that uses one gets the replayed errors
// instead of a half-evaluated value.
static void bind_opaque_all(Sema *s, const TlNode *st, const TlNode *top, const char *text,
                            int nerrors) {
  for (;;) // an elif chain is walked in turns (see ND_IF), not recursively
    switch (st->kind) {
    case ND_ASSIGN:
      for (int t = 0; t < st->list.len; t++)
        bind_opaque(s, TL_VEC_AT(st->list, TlNode, t), top, text, nerrors);
      return;
    case ND_AUGASSIGN:
      bind_opaque(s, st->a, top, text, nerrors);
      return;
    case ND_DEF: {
      TlNode name = {.kind = ND_NAME, .loc = st->loc, .name = st->name};
      bind_opaque(s, &name, top, text, nerrors);
      return;
    }
    case ND_SKIPPED:
      for (int i = 0; i < st->list.len; i++)
        bind_opaque(s, TL_VEC_AT(st->list, TlNode, i), top, text, nerrors);
      return;
    case ND_IMPORT: {
      const char *last = strrchr(st->name, '.');
      TlNode name = {.kind = ND_NAME,
                     .loc = st->loc,
                     .name = st->str            ? st->str
                             : st->ival && last ? last + 1
                                                : st->name};
      if (!st->str && !st->ival && strchr(st->name, '.'))
        return; // `import a.b` binds a, which may be a real module
      bind_opaque(s, &name, top, text, nerrors);
      return;
    }
    case ND_FOR: // targets in list2, body in list, else block in params
      for (int t = 0; t < st->list2.len; t++)
        bind_opaque(s, TL_VEC_AT(st->list2, TlNode, t), top, text, nerrors);
      for (int i = 0; i < st->list.len; i++)
        bind_opaque_all(s, TL_VEC_AT(st->list, TlNode, i), top, text, nerrors);
      for (int i = 0; i < st->params.len; i++)
        bind_opaque_all(s, TL_VEC_AT(st->params, TlNode, i), top, text, nerrors);
      return;
    case ND_IF:
    case ND_WHILE:
    case ND_WITH:
      if (st->kind == ND_WITH && st->b) // with ... as X
        bind_opaque(s, st->b, top, text, nerrors);
      for (int i = 0; i < st->list.len; i++)
        bind_opaque_all(s, TL_VEC_AT(st->list, TlNode, i), top, text, nerrors);
      if (st->kind == ND_IF && st->list2.len == 1 &&
          TL_VEC_AT(st->list2, TlNode, 0)->kind == ND_IF) {
        st = TL_VEC_AT(st->list2, TlNode, 0); // an elif: the next turn, not a recursion
        continue;
      }
      for (int i = 0; i < st->list2.len; i++)
        bind_opaque_all(s, TL_VEC_AT(st->list2, TlNode, i), top, text, nerrors);
      return;
    default:
      return;
    }
}

// A top-level statement of a .py file: evaluated with its diagnostics
// captured; if it fails, the names it defines become host code.
static void python_toplevel(Sema *s, const TlNode *st) {
  TlDiagCapture cap;
  tl_diag_capture_begin(s->diag, &cap);
  TlValue *ret = NULL;
  Flow f = exec_stmt(s, st, &ret);
  if (f == FLOW_BREAK || f == FLOW_CONTINUE)
    tl_error(s->diag, st->loc, "'break' or 'continue' outside a loop");
  int nerrors;
  const char *text = tl_diag_capture_end(s->diag, &cap, s->arena, &nerrors);
  if (nerrors == 0)
    return;
  bind_opaque_all(s, st, st, text, nerrors);
}

// `--call 'NAME=factory(args)'` names the kernel NAME; returns the
// expression's start and sets *name (or NULL).
static const char *call_name(Sema *s, const char *text, const char **name, TlLoc *loc) {
  const char *p = text;
  while (*p == ' ')
    p++;
  const char *start = p;
  while (isalnum((unsigned char)*p) || *p == '_')
    p++;
  const char *end = p;
  while (*p == ' ')
    p++;
  *name = NULL;
  if (end > start && !isdigit((unsigned char)*start) && *p == '=' && p[1] != '=') {
    *name = tl_arena_printf(s->arena, "%.*s", (int)(end - start), start);
    // Located in the whole --call text, so an error about the name (a
    // reserved word) points at it rather than at the factory's def.
    *loc = (TlLoc){tl_source_from_string(s->arena, "--call", text), 1, (int)(start - text) + 1,
                   (int)(end - start)};
    for (p++; *p == ' ';) // 'NAME = f(...)': the expression starts at f
      p++;
    return p;
  }
  return text;
}

static bool kernel_named(Sema *s, const char *name) {
  for (int i = 0; i < s->module->kernels.len; i++)
    if (strcmp(TL_VEC_AT(s->module->kernels, TlKernel, i)->name, name) == 0)
      return true;
  return false;
}

// The name of the kernel a --call expression gives: the factory's (TileLang
// names the inner prim_func 'main', which cannot be a C symbol); for
// f.compile(...) f's, for tilelang.compile(factory(...)) the factory's.
static const char *call_kernel_name(Sema *s, const TlNode *e, const TlValue *v) {
  const TlNode *f = e;
  for (;;) {
    while (f->kind == ND_CALL && f->a->kind == ND_CALL)
      f = f->a;
    if (f->kind == ND_CALL) f = f->a;
    if (f->kind != ND_ATTR || strcmp(f->name, "compile") != 0) break;
    const TlSym *y = f->a->kind == ND_NAME ? tl_scope_lookup(s, f->a->name) : NULL;
    if (y && y->kind == SYM_VALUE && y->value->kind == VAL_MODULE) { // tilelang.compile(k)
      const TlNode *call = e;
      while (call->kind == ND_CALL && call->a != f)
        call = call->a;
      if (call->kind != ND_CALL || call->list.len == 0) return v->s;
      f = TL_VEC_AT(call->list, TlNode, 0);
      continue;
    }
    f = f->a; // f.compile(...)
  }
  return f->kind == ND_NAME || f->kind == ND_ATTR ? f->name : v->s;
}

static void compile_call(Sema *s, const char *text) {
  const char *name;
  TlLoc name_loc = {0};
  const char *expr_text = call_name(s, text, &name, &name_loc);
  TlSource *src = tl_source_from_string(s->arena, "--call", expr_text);
  src->python = true;
  int before = s->diag->nerrors;
  TlTokens toks = tl_lex(s->arena, src, s->diag);
  TlNode *e = s->diag->nerrors > before ? NULL : tl_parse_expression(s->arena, toks, s->diag);
  if (!e)
    return;
  TlValue *v = tl_sema_eval_const(s, e);
  // A factory may return a factory: call it until a kernel comes out.
  for (int depth = 0; v->kind == VAL_FUNC && depth < 4; depth++)
    v = tl_sema_apply(s, v, e->loc, 0, NULL, 0, NULL, NULL);
  if (v->kind == VAL_ERROR)
    return;
  if (v->kind != VAL_KERNEL) {
    tl_error(s->diag, e->loc, "--call must give a @T.prim_func kernel; this gives %s %s",
             tl_value_kind_article(v->kind), tl_value_kind_name(v->kind));
    return;
  }
  if (!name) { // the factory's name: TileLang names the inner prim_func 'main'
    name = call_kernel_name(s, e, v);
  }
  const char *unique = name;
  for (int i = 2; kernel_named(s, unique); i++)
    unique = tl_arena_printf(s->arena, "%s_%d", name, i);
  s->kernel_name = unique;
  s->kernel_name_loc = name_loc;
  s->lower.compile_kernel(s, v);
  s->kernel_name = NULL;
  s->kernel_name_loc = (TlLoc){0};
}

void tl_sema_run_module(Sema *s, const TlNode *module) {
  TlSym *y = tl_scope_define(s, s->globals, "__name__", SYM_VALUE, module->loc);
  y->value = tl_value_new(s, VAL_STR, module->loc);
  y->value->s = "__tlc__"; // not "__main__": the script's entry point is host code
  int ndefines = s->opts ? s->opts->ndefines : 0;
  s->define_used = TL_NEW_ARRAY(s->arena, bool, ndefines + 1);
  s->define_nodes = parse_defines(s);
  if (s->diag->nerrors)
    return;
  for (int i = 0; i < module->list.len && !tl_diag_too_many(s->diag); i++) {
    TlNode *st = TL_VEC_AT(module->list, TlNode, i);
    s->steps = 0; // each top-level statement has its own budget
    s->work = 0;
    s->calls = 0;
    s->step_limit = s->python && !is_kernel_def(s, st) ? MAX_HOST_STEPS : MAX_STEPS;
    if (s->python && !is_kernel_def(s, st)) {
      python_toplevel(s, st);
      continue;
    }
    bool allowed = s->python || st->kind == ND_IMPORT || st->kind == ND_ASSIGN || st->kind == ND_DEF ||
                   st->kind == ND_IF || st->kind == ND_ASSERT || st->kind == ND_PASS ||
                   st->kind == ND_AUGASSIGN ||
                   (st->kind == ND_EXPR_STMT && st->a->kind == ND_STR);
    if (!allowed) {
      tl_error(s->diag, st->loc,
               "only imports, constants, helper functions and @T.prim_func kernels may appear "
               "at module level");
      continue;
    }
    TlValue *ret = NULL;
    Flow f = exec_stmt(s, st, &ret);
    if (f == FLOW_BREAK || f == FLOW_CONTINUE)
      tl_error(s->diag, st->loc, "'break' or 'continue' outside a loop");
  }
  for (int i = 0; i < ndefines; i++)
    if (!s->define_used[i]) {
      const char *d = s->opts->defines[i];
      tl_error_noloc(s->diag, "-D %.*s: the file assigns no module-level '%.*s'",
                     (int)strcspn(d, "="), d, (int)strcspn(d, "="), d);
    }
  for (int i = 0; s->opts && i < s->opts->ncalls && !tl_diag_too_many(s->diag); i++) {
    s->steps = 0;
    s->work = 0;
    s->calls = 0;
    s->step_limit = MAX_STEPS;
    compile_call(s, s->opts->calls[i]);
  }
}
