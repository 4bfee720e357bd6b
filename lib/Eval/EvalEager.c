// The evaluator's half of TileLang's eager @tilelang.jit functions
// (lib/Sema/Eager.c compiles their bodies): which functions are eager,
// `f.compile(NAME=value, ...)` and `tilelang.compile(kernel, ...)`, which
// bind the parameters that are not tensors and the T.const sizes into a
// kernel value, and T.const("M, N, K") itself, which reads those bindings
// while Eager.c compiles the function.
#include <ctype.h>
#include <string.h>

#include "../Sema/SemaInternal.h"

static TlValue *error_value(Sema *s, TlLoc loc) {
  return tl_value_new(s, VAL_ERROR, loc);
}

// T.Tensor(...), T.Buffer(...), T.Tensor[...] or T.Buffer[...].
bool tl_sema_is_tensor_annotation(Sema *s, const TlNode *ann) {
  if (!ann || (ann->kind != ND_CALL && ann->kind != ND_SUBSCRIPT)) return false;
  const char *t = tl_sema_t_attr(s, ann->a);
  return t && (strcmp(t, "Tensor") == 0 || strcmp(t, "Buffer") == 0 ||
               strcmp(t, "StridedTensor") == 0);
}

// The T.Kernel block at the top level of def's body, or NULL.
static const TlNode *kernel_block(const TlNode *def) {
  for (int i = 0; i < def->list.len; i++) {
    const TlNode *st = TL_VEC_AT(def->list, TlNode, i);
    if (st->kind == ND_WITH) return st;
  }
  return NULL;
}

bool tl_sema_is_eager(const TlNode *def) {
  return def && def->kind == ND_DEF && kernel_block(def);
}

bool tl_sema_is_tensor_decl(Sema *s, const TlNode *st) {
  return st->kind == ND_PASS && st->a && st->a->kind == ND_NAME &&
         tl_sema_is_tensor_annotation(s, st->b);
}

// A parameter is a tensor when the signature or the body annotates it as one.
static bool is_tensor_param(Sema *s, const TlNode *def, const TlNode *param) {
  if (tl_sema_is_tensor_annotation(s, param->a)) return true;
  for (int i = 0; i < def->list.len; i++) {
    const TlNode *st = TL_VEC_AT(def->list, TlNode, i);
    if (tl_sema_is_tensor_decl(s, st) && strcmp(st->a->name, param->name) == 0) return true;
  }
  return false;
}

int tl_sema_param_index(const TlNode *def, const char *name) {
  for (int i = 0; i < def->params.len; i++)
    if (strcmp(TL_VEC_AT(def->params, TlNode, i)->name, name) == 0) return i;
  return -1;
}

// Binds one keyword of f.compile(...): a parameter that is not a tensor
// goes into env, anything else is a T.const value.
static bool bind_keyword(Sema *s, const TlValue *fn, TlSymScope *env, TlValue *consts,
                         const char *name, TlValue *value) {
  const TlNode *def = fn->fn;
  int at = tl_sema_param_index(def, name);
  TlValue key = {.kind = VAL_STR, .s = name};
  if (at >= 0 && is_tensor_param(s, def, TL_VEC_AT(def->params, TlNode, at))) {
    tl_error(s->diag, value->loc,
             "'%s' is a tensor parameter of '%s'; its shape comes from T.const sizes, which "
             "the call binds (M=1024, ...)",
             name, fn->s);
    return false;
  }
  if (tl_scope_lookup_local(env, name) || tl_value_dict_get(consts, &key)) {
    tl_error(s->diag, value->loc, "'%s.compile' got two values for '%s'", fn->s, name);
    return false;
  }
  if (at >= 0) {
    TlSym *y = tl_scope_define(s, env, name, SYM_VALUE, value->loc);
    y->value = value;
  } else {
    TlValue *k = tl_value_new(s, VAL_STR, value->loc);
    k->s = name;
    tl_value_dict_set(s, consts, k, value);
  }
  return true;
}

// The parameters the call leaves out take their defaults; tensors are bound
// by the kernel's launcher, the others must have a value.
static bool bind_defaults(Sema *s, const TlValue *fn, TlSymScope *env, TlLoc call_loc) {
  const TlNode *def = fn->fn;
  bool ok = true;
  for (int i = 0; i < def->params.len; i++) {
    const TlNode *p = TL_VEC_AT(def->params, TlNode, i);
    if (tl_scope_lookup_local(env, p->name) || is_tensor_param(s, def, p)) continue;
    TlValue *dv = i < fn->defaults.len ? TL_VEC_AT(fn->defaults, TlValue, i) : NULL;
    if (!dv) {
      tl_error(s->diag, call_loc, "'%s.compile' does not bind parameter '%s'", fn->s, p->name);
      tl_note(s->diag, p->loc,
              "'%s' is not a tensor (no '%s: T.Tensor(...)' in the body), so the "
              "call must give it a value",
              p->name, p->name);
      ok = false;
      continue;
    }
    TlSym *y = tl_scope_define(s, env, p->name, SYM_VALUE, p->loc);
    y->value = dv;
  }
  return ok;
}

// f.compile(NAME=value, ...) on an eager function: a kernel value that
// carries the bindings; compiled where TileLang would compile it.
static TlValue *bind_eager(Sema *s, const TlNode *call, TlValue *fn, TlVec *args, TlVec *names,
                           TlVec *vals) {
  const TlNode *def = fn->fn;
  if (!tl_sema_plain_params(s, def, "eager @tilelang.jit function"))
    return error_value(s, call->loc);
  if (args->len > 0) {
    tl_error(s->diag, call->loc,
             "'%s.compile' takes keyword arguments only, e.g. %s.compile(M=1024, "
             "block_M=128)",
             fn->s, fn->s);
    return error_value(s, call->loc);
  }
  TlSymScope *env = TL_NEW(s->arena, TlSymScope);
  env->parent = fn->env ? fn->env : s->globals;
  TlValue *consts = tl_value_new(s, VAL_DICT, call->loc);
  bool ok = true;
  for (int i = 0; i < names->len; i++)
    ok = bind_keyword(s, fn, env, consts, TL_VEC_AT(*names, const char, i),
                      TL_VEC_AT(*vals, TlValue, i)) &&
         ok;
  if (!ok || !bind_defaults(s, fn, env, call->loc)) return error_value(s, call->loc);
  TlValue *kv = tl_value_new(s, VAL_KERNEL, call->loc);
  kv->fn = fn->fn;
  kv->s = fn->s;
  kv->env = env;
  kv->consts = consts;
  // At the top of a file compiled without --call, as a module-level
  // @T.prim_func is: where it is written.
  if (!s->scope && s->call_depth == 0 && !(s->opts && s->opts->ncalls > 0) &&
      !tl_diag_too_many(s->diag))
    s->lower.compile_kernel(s, kv);
  return kv;
}

// tilelang.compile's own keywords: they steer TileLang's Python wrapper and
// its build, not the kernel tlc writes.
static bool compile_option(const char *name) {
  static const char *const options[] = {"out_idx",           "target",  "target_host",
                                        "execution_backend", "verbose", "pass_configs",
                                        "compile_flags",     NULL};
  for (int i = 0; options[i]; i++)
    if (strcmp(name, options[i]) == 0) return true;
  return false;
}

TlValue *tl_sema_compile_method(Sema *s, const TlNode *call, TlValue *target) {
  TlVec args = {0}, names = {0}, vals = {0};
  if (!tl_sema_eval_call_args(s, call, &args, &names, &vals)) return error_value(s, call->loc);
  if (!target) { // tilelang.compile(kernel, out_idx=..., target=...)
    if (args.len != 1) {
      tl_error(s->diag, call->loc, "tilelang.compile takes one kernel (a @T.prim_func), %d given",
               args.len);
      return error_value(s, call->loc);
    }
    for (int i = 0; i < names.len; i++)
      if (!compile_option(TL_VEC_AT(names, const char, i))) {
        tl_error(s->diag, TL_VEC_AT(vals, TlValue, i)->loc,
                 "unexpected keyword argument '%s' to tilelang.compile",
                 TL_VEC_AT(names, const char, i));
        return error_value(s, call->loc);
      }
    target = TL_VEC_AT(args, TlValue, 0);
    if (target->kind != VAL_KERNEL && target->kind != VAL_ERROR) {
      tl_error(s->diag, call->loc, "tilelang.compile takes a @T.prim_func kernel, not %s %s",
               tl_value_kind_article(target->kind), tl_value_kind_name(target->kind));
      return error_value(s, call->loc);
    }
    return target; // out_idx only changes which tensors TileLang's wrapper allocates
  }
  if (target->kind == VAL_KERNEL) {
    if (args.len || names.len) {
      tl_error(s->diag, call->loc, "'%s.compile' of a @T.prim_func takes no arguments", target->s);
      return error_value(s, call->loc);
    }
    return target;
  }
  if (!tl_sema_is_eager(target->fn)) // a classic factory under @tilelang.jit: call it
    return tl_sema_apply(s, target, call->loc, args.len, (TlValue **)args.items, names.len,
                         (const char **)names.items, (TlValue **)vals.items);
  return bind_eager(s, call, target, &args, &names, &vals);
}

// The names of T.const("M, N, K"): separated by commas and/or spaces.
int tl_eval_split_names(Sema *s, const char *text, const char **out, int max) {
  int n = 0;
  for (const char *p = text; *p;) {
    while (*p == ',' || isspace((unsigned char)*p))
      p++;
    const char *start = p;
    while (*p && *p != ',' && !isspace((unsigned char)*p))
      p++;
    if (p > start) {
      if (n == max) return -1;
      out[n++] = tl_arena_printf(s->arena, "%.*s", (int)(p - start), start);
    }
  }
  return n;
}

bool tl_eval_is_identifier(const char *name) {
  if (!isalpha((unsigned char)name[0]) && name[0] != '_') return false;
  for (const char *p = name; *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '_') return false;
  return true;
}

// The value the call bound to one T.const name; NULL after reporting.
static TlValue *const_value(Sema *s, const TlNode *call, const char *name) {
  struct TlEagerState *e = s->eager;
  for (int i = 0; i < e->consts->items.len; i++) {
    const TlValue *key = TL_VEC_AT(e->consts->items, TlValue, i);
    if (strcmp(key->s, name) != 0) continue;
    e->declared[i] = true;
    TlValue *v = TL_VEC_AT(e->consts->values, TlValue, i);
    if (v->kind != VAL_INT) {
      tl_error(s->diag, v->loc, "T.const '%s' is a size; it must be bound to an integer, not %s %s",
               name, tl_value_kind_article(v->kind), tl_value_kind_name(v->kind));
      return NULL;
    }
    return v;
  }
  tl_error(s->diag, call->loc, "'%s' is declared with T.const but the call does not bind it", name);
  tl_note(s->diag, e->call_loc, "bind it in the call, e.g. %s.compile(..., %s=1024)", e->fname,
          name);
  return NULL;
}

TlValue *tl_sema_eager_const(Sema *s, const TlNode *call) {
  if (!s->eager) {
    tl_error(s->diag, call->loc,
             "T.const declares the sizes of an eager @tilelang.jit function; tlc evaluates it "
             "when the function is compiled with f.compile(NAME=value, ...)");
    return error_value(s, call->loc);
  }
  const TlNode *arg = call->list.len == 1 ? TL_VEC_AT(call->list, TlNode, 0) : NULL;
  if (!arg || arg->kind != ND_STR || call->list2.len > 0) {
    tl_error(s->diag, call->loc, "T.const takes one string of names, e.g. T.const(\"M, N, K\")");
    return error_value(s, call->loc);
  }
  enum { MAX_CONSTS = 64 };
  const char *names[MAX_CONSTS];
  int n = tl_eval_split_names(s, arg->str, names, MAX_CONSTS);
  if (n <= 0) {
    tl_error(s->diag, arg->loc,
             n == 0 ? "T.const needs at least one name" : "T.const declares at most 64 names");
    return error_value(s, call->loc);
  }
  TlValue *tuple = tl_value_new(s, VAL_TUPLE, call->loc);
  for (int i = 0; i < n; i++) {
    if (!tl_eval_is_identifier(names[i])) {
      tl_error(s->diag, arg->loc, "'%s' in T.const is not a name", names[i]);
      return error_value(s, call->loc);
    }
    for (int j = 0; j < i; j++)
      if (strcmp(names[j], names[i]) == 0) {
        tl_error(s->diag, arg->loc, "T.const declares '%s' twice", names[i]);
        return error_value(s, call->loc);
      }
    TlValue *v = const_value(s, call, names[i]);
    if (!v) return error_value(s, call->loc);
    tl_vec_push(s->arena, &tuple->items, v);
  }
  return n == 1 ? TL_VEC_AT(tuple->items, TlValue, 0) : tuple;
}
