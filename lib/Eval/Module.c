// The module level of the evaluator: -D overrides (parsed once, applied
// where the module assigns the name), a .py file's top-level statements with
// host code kept as VAL_OPAQUE, the kernels --call asks for (named, with
// unique names), tl_sema_run_module, which runs it all, and the modules
// next to the file that it imports (`from X import a`), run the same way.
#include <ctype.h>
#include <string.h>

#include "tlc/Ast.h"
#include "tlc/Lex.h"

#include "EvalInternal.h"

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
    TlSource *src =
        tl_source_from_string(s->arena, tl_arena_printf(s->arena, "-D %.*s", (int)len, d), text);
    src->python = true;
    int before = s->diag->nerrors;
    TlTokens toks = tl_lex(s->arena, src, s->diag);
    nodes[i] = s->diag->nerrors > before ? NULL : tl_parse_expression(s->arena, toks, s->diag);
  }
  return nodes;
}

// The value of the -D override for a module-level `name = ...`, or NULL.
static TlValue *define_override(Sema *s, const char *name, TlLoc at) {
  if (!s->opts || s->scope || s->import_depth) return NULL; // -D names the main file's
  int last = -1; // a repeated -D: the last one wins, as with a C compiler
  for (int i = 0; i < s->opts->ndefines; i++) {
    const char *d = s->opts->defines[i];
    size_t n = strcspn(d, "=");
    if (strlen(name) != n || strncmp(d, name, n) != 0) continue;
    s->define_used[i] = true;
    last = i;
  }
  for (int i = last; i >= 0; i = -1) {
    TlNode *e = s->define_nodes[i];
    if (!e) return tl_value_new(s, VAL_ERROR, at);
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

// True when every name of target has a -D (so its right side need not run).
bool tl_eval_all_overridden(Sema *s, const TlNode *target) {
  if (target->kind == ND_NAME) {
    if (!s->opts || s->scope || s->import_depth) return false;
    for (int i = 0; i < s->opts->ndefines; i++) {
      const char *d = s->opts->defines[i];
      size_t n = strcspn(d, "=");
      if (strlen(target->name) == n && strncmp(d, target->name, n) == 0) return true;
    }
    return false;
  }
  if (target->kind != ND_TUPLE && target->kind != ND_LIST) return false;
  for (int i = 0; i < target->list.len; i++)
    if (!tl_eval_all_overridden(s, TL_VEC_AT(target->list, TlNode, i))) return false;
  return true;
}

// -D for names bound by unpacking: each overridden name is rebound.
void tl_eval_override_unpacked(Sema *s, const TlNode *target, TlLoc at) {
  if (target->kind == ND_NAME) {
    TlValue *v = define_override(s, target->name, at);
    if (v) tl_eval_bind(s, target, v);
    return;
  }
  if (target->kind == ND_TUPLE || target->kind == ND_LIST)
    for (int i = 0; i < target->list.len; i++)
      tl_eval_override_unpacked(s, TL_VEC_AT(target->list, TlNode, i), at);
}

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
        if (tl_eval_decorator_kind(s, TL_VEC_AT(st->list2, TlNode, d)) == DEC_KERNEL) return true;
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
        tl_eval_bind_opaque(s, TL_VEC_AT(st->list, TlNode, t), top, text, nerrors);
      return;
    case ND_AUGASSIGN:
      tl_eval_bind_opaque(s, st->a, top, text, nerrors);
      return;
    case ND_DEF: {
      TlNode name = {.kind = ND_NAME, .loc = st->loc, .name = st->name};
      tl_eval_bind_opaque(s, &name, top, text, nerrors);
      return;
    }
    case ND_SKIPPED:
      for (int i = 0; i < st->list.len; i++)
        tl_eval_bind_opaque(s, TL_VEC_AT(st->list, TlNode, i), top, text, nerrors);
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
      tl_eval_bind_opaque(s, &name, top, text, nerrors);
      return;
    }
    case ND_FOR: // targets in list2, body in list, else block in params
      for (int t = 0; t < st->list2.len; t++)
        tl_eval_bind_opaque(s, TL_VEC_AT(st->list2, TlNode, t), top, text, nerrors);
      for (int i = 0; i < st->list.len; i++)
        bind_opaque_all(s, TL_VEC_AT(st->list, TlNode, i), top, text, nerrors);
      for (int i = 0; i < st->params.len; i++)
        bind_opaque_all(s, TL_VEC_AT(st->params, TlNode, i), top, text, nerrors);
      return;
    case ND_IF:
    case ND_WHILE:
    case ND_WITH:
      if (st->kind == ND_WITH && st->b) // with ... as X
        tl_eval_bind_opaque(s, st->b, top, text, nerrors);
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
  Flow f = tl_eval_exec_stmt(s, st, &ret);
  if (f == FLOW_BREAK || f == FLOW_CONTINUE)
    tl_error(s->diag, st->loc, "'break' or 'continue' outside a loop");
  int nerrors;
  const char *text = tl_diag_capture_end(s->diag, &cap, s->arena, &nerrors);
  if (nerrors == 0) return;
  bind_opaque_all(s, st, st, text, nerrors);
}

enum { MAX_IMPORT_DEPTH = 8 }; // modules importing modules next to them

typedef struct TlSiblingModule {
  const char *path;
  TlSymScope *names;
  bool done; // false while its top level runs: importing it again is a cycle
  struct TlSiblingModule *next;
} TlSiblingModule;

TlSymScope *tl_eval_sibling_module(Sema *s, const char *path, const char *name, TlLoc at) {
  for (TlSiblingModule *m = s->siblings; m; m = m->next)
    if (strcmp(m->path, path) == 0) {
      if (m->done) return m->names;
      tl_error(s->diag, at, "import cycle: module '%s' (%s) is still being imported", name, path);
      return NULL;
    }
  if (s->import_depth >= MAX_IMPORT_DEPTH) {
    tl_error(s->diag, at, "imports of modules next to the file nest more than %d deep",
             MAX_IMPORT_DEPTH);
    return NULL;
  }
  char err[256];
  TlSource *src = tl_source_read(s->arena, path, err, sizeof err);
  if (!src) {
    tl_error(s->diag, at, "cannot read module '%s': %s", name, err);
    return NULL;
  }
  src->python = true;
  int before = s->diag->nerrors;
  TlTokens toks = tl_lex(s->arena, src, s->diag);
  TlNode *module = s->diag->nerrors > before ? NULL : tl_parse(s->arena, toks, s->diag);
  if (!module || s->diag->nerrors > before) return NULL;
  TlSiblingModule *m = TL_NEW(s->arena, TlSiblingModule);
  m->path = path;
  m->names = TL_NEW(s->arena, TlSymScope);
  m->next = s->siblings;
  s->siblings = m;
  // Its own names: T (always the DSL, as in the main file) and __name__.
  TlSym *t = tl_scope_lookup_local(s->globals, "T");
  TlSym *y = tl_scope_define(s, m->names, "T", SYM_VALUE, module->loc);
  y->value = t && t->kind == SYM_VALUE ? t->value : tl_value_new(s, VAL_MODULE, module->loc);
  if (!t) y->value->s = "tilelang.language";
  y = tl_scope_define(s, m->names, "__name__", SYM_VALUE, module->loc);
  y->value = tl_value_new(s, VAL_STR, module->loc);
  y->value->s = name;
  Sema saved = *s;
  s->globals = m->names;
  s->scope = NULL;
  s->module_env = m->names;
  s->python = true;
  s->import_depth++;
  for (int i = 0; i < module->list.len && !tl_diag_too_many(s->diag); i++) {
    TlNode *st = TL_VEC_AT(module->list, TlNode, i);
    s->steps = 0;
    s->work = 0;
    s->calls = 0;
    s->step_limit = is_kernel_def(s, st) ? MAX_STEPS : MAX_HOST_STEPS;
    if (!is_kernel_def(s, st)) {
      python_toplevel(s, st);
      continue;
    }
    TlValue *ret = NULL;
    Flow f = tl_eval_exec_stmt(s, st, &ret);
    if (f == FLOW_BREAK || f == FLOW_CONTINUE)
      tl_error(s->diag, st->loc, "'break' or 'continue' outside a loop");
  }
  s->globals = saved.globals;
  s->scope = saved.scope;
  s->module_env = saved.module_env;
  s->python = saved.python;
  s->import_depth = saved.import_depth;
  s->steps = saved.steps;
  s->work = saved.work;
  s->calls = saved.calls;
  s->step_limit = saved.step_limit;
  m->done = true;
  return m->names;
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
    if (strcmp(TL_VEC_AT(s->module->kernels, TlKernel, i)->name, name) == 0) return true;
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
  if (!e) return;
  TlValue *v = tl_sema_eval_const(s, e);
  // A factory may return a factory: call it until a kernel comes out.
  for (int depth = 0; v->kind == VAL_FUNC && depth < 4; depth++)
    v = tl_sema_apply(s, v, e->loc, 0, NULL, 0, NULL, NULL);
  if (v->kind == VAL_ERROR) return;
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
  if (s->diag->nerrors) return;
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
    bool allowed = s->python || st->kind == ND_IMPORT || st->kind == ND_ASSIGN ||
                   st->kind == ND_DEF || st->kind == ND_IF || st->kind == ND_ASSERT ||
                   st->kind == ND_PASS || st->kind == ND_AUGASSIGN ||
                   (st->kind == ND_EXPR_STMT && st->a->kind == ND_STR);
    if (!allowed) {
      tl_error(s->diag, st->loc,
               "only imports, constants, helper functions and @T.prim_func kernels may appear "
               "at module level");
      continue;
    }
    TlValue *ret = NULL;
    Flow f = tl_eval_exec_stmt(s, st, &ret);
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
