// Compile-time calls: binding a function's, factory's or macro's
// parameters (positional, keyword, defaults, *args, **kwargs), running its
// body, @autotune's choice of config when tuned parameters are left out,
// call arguments (with * and ** unpacking), and comprehensions.
#include <string.h>

#include "EvalInternal.h"

// @autotune(configs=...) on a factory called without some of the tuned
// parameters: TileLang would benchmark every config; tlc cannot run
// kernels while compiling, so it takes the first config and says so.
static const TlValue *autotune_config(Sema *s, const TlValue *fn, TlValue **bound, TlLoc loc) {
  if (!fn->autotune) return NULL;
  const TlNode *def = fn->fn;
  bool missing = false;
  for (int i = 0; i < def->params.len; i++)
    missing = missing || !bound[i];
  if (!missing) return NULL;
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
  if (configs->kind == VAL_ERROR) return NULL;
  if (configs->kind != VAL_TUPLE || configs->items.len == 0 ||
      TL_VEC_AT(configs->items, TlValue, 0)->kind != VAL_DICT) {
    tl_warning(s->diag, fn->autotune->loc,
               "@autotune configs= is not a list of dicts; tlc "
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
    tl_warning(s->diag, loc,
               "'%s' is autotuned; tlc does not tune, it takes the first of %d "
               "configs for %s",
               fn->s, configs->items.len, used.data);
    tl_note(s->diag, fn->autotune->loc,
            "pass them in the call to choose another config "
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

TlValue *tl_sema_apply(Sema *s, TlValue *fn, TlLoc loc, int nargs, TlValue **args, int nkw,
                       const char **kwnames, TlValue **kwvals) {
  if (fn->kind == VAL_OPAQUE) {
    tl_sema_report_opaque(s, loc, fn);
    return tl_eval_error_value(s, loc);
  }
  if (fn->kind == VAL_KERNEL || fn->kind == VAL_MACRO) {
    tl_error(s->diag, loc, "'%s' is a %s; %s", fn->s,
             fn->kind == VAL_KERNEL ? "@T.prim_func kernel" : "@T.macro",
             fn->kind == VAL_KERNEL ? "tlc compiles kernels, it does not call them"
                                    : "macros are called inside a kernel");
    return tl_eval_error_value(s, loc);
  }
  if (fn->kind != VAL_FUNC) {
    tl_error(s->diag, loc, "%s %s is not callable", tl_value_kind_article(fn->kind),
             tl_value_kind_name(fn->kind));
    return tl_eval_error_value(s, loc);
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
    return tl_eval_error_value(s, loc);
  }
  const TlNode *def = fn->fn;
  if (tl_sema_is_eager(def)) {
    tl_error(s->diag, loc,
             "'%s' is an eager @tilelang.jit function (its body holds the "
             "T.Kernel); tlc compiles it with %s.compile(NAME=value, ...)",
             fn->s, fn->s);
    return tl_eval_error_value(s, loc);
  }
  int np = def->params.len;
  if (s->call_depth >= MAX_CALL_DEPTH) {
    tl_error(s->diag, loc, "compile-time calls nested more than %d deep (recursion in '%s'?)",
             MAX_CALL_DEPTH, fn->s);
    return tl_eval_error_value(s, loc);
  }
  // Python's binding: positional arguments fill the parameters before a
  // *args (or a bare *), the rest go to *args; keywords match by name, the
  // unknown ones go to **kwargs.
  int star = -1, dstar = -1, npos = np;
  for (int i = 0; i < np; i++) {
    int kind = (int)TL_VEC_AT(def->params, TlNode, i)->ival;
    if ((kind == 1 || kind == 3) && star < 0) star = i, npos = i;
    if (kind == 2) {
      dstar = i;
      if (npos > i) npos = i;
    }
  }
  TlValue **bound = TL_NEW_ARRAY(s->arena, TlValue *, np > 0 ? np : 1);
  TlValue *extra = NULL, *extra_kw = NULL;
  if (star >= 0 && TL_VEC_AT(def->params, TlNode, star)->ival == 1)
    bound[star] = extra = tl_eval_tuple_value(s, loc, false);
  if (dstar >= 0) bound[dstar] = extra_kw = tl_value_new(s, VAL_DICT, loc);
  if (nargs > npos && !extra) {
    tl_error(s->diag, loc, "'%s' takes %d positional argument%s, %d given", fn->s, npos,
             npos == 1 ? "" : "s", nargs);
    tl_note(s->diag, def->loc, "'%s' defined here", fn->s);
    return tl_eval_error_value(s, loc);
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
        return tl_eval_error_value(s, loc);
      }
      tl_value_dict_set(s, extra_kw, key, kwvals[k]);
      continue;
    }
    if (at < 0) {
      tl_error(s->diag, kwvals[k]->loc, "'%s' has no parameter '%s'", fn->s, kwnames[k]);
      tl_note(s->diag, def->loc, "'%s' defined here", fn->s);
      return tl_eval_error_value(s, loc);
    }
    if (bound[at]) {
      tl_error(s->diag, kwvals[k]->loc, "'%s' got two values for parameter '%s'", fn->s,
               kwnames[k]);
      return tl_eval_error_value(s, loc);
    }
    bound[at] = kwvals[k];
  }
  if (star >= 0 && !bound[star]) // a bare *: binds nothing
    bound[star] = tl_value_new(s, VAL_NONE, loc);
  const TlValue *tuned = autotune_config(s, fn, bound, loc);
  for (int i = 0; i < np; i++) {
    if (bound[i]) continue;
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
    return tl_eval_error_value(s, loc);
  }
  TlSymScope *sc = TL_NEW(s->arena, TlSymScope);
  sc->parent = fn->env ? fn->env : s->globals;
  for (int i = 0; i < np; i++) {
    TlNode *p = TL_VEC_AT(def->params, TlNode, i);
    if (p->ival == 3) continue; // the bare * of keyword-only parameters
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
    Flow f = tl_eval_exec_block(s, &def->list, &ret);
    if (f == FLOW_ERROR)
      ret = tl_eval_error_value(s, loc);
    else if (f == FLOW_BREAK || f == FLOW_CONTINUE) {
      tl_error(s->diag, def->loc, "'break' or 'continue' outside a loop in '%s'", fn->s);
      ret = tl_eval_error_value(s, loc);
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
    if (x->kind == VAL_ERROR) return false;
    if (out->kind == VAL_DICT) {
      TlValue *v = tl_sema_eval_const(s, n->b);
      if (v->kind == VAL_ERROR) return false;
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
    if (v->kind == VAL_ERROR) return false;
    return !tl_value_truthy(v) || comprehend(s, n, at + 1, out);
  }
  TlValue *it = tl_sema_eval_const(s, c->a);
  if (it->kind == VAL_ERROR) return false;
  if (tl_value_iterable(s, it))
    it = tl_value_iterable(s, it);
  else {
    tl_error(s->diag, c->a->loc,
             "a comprehension iterates over a list, tuple, dict or range, "
             "not %s %s",
             tl_value_kind_article(it->kind), tl_value_kind_name(it->kind));
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
    if (!tl_sema_spend_items(s, 1, n->loc)) return false;
    tl_eval_bind(s, target, TL_VEC_AT(it->items, TlValue, i));
    if (!comprehend(s, n, at + 1, out)) return false;
  }
  return true;
}

TlValue *tl_sema_eval_comprehension(Sema *s, const TlNode *n) {
  // Its variables live in a scope of their own, as in Python 3.
  TlSymScope *saved = s->scope;
  TlSymScope *sc = TL_NEW(s->arena, TlSymScope);
  sc->parent = tl_eval_current(s);
  s->scope = sc;
  TlValue *out = tl_value_new(s, n->op == TK_LBRACE && n->b ? VAL_DICT : VAL_TUPLE, n->loc);
  out->is_list = true;
  bool ok = comprehend(s, n, 0, out);
  s->scope = saved;
  return ok ? out : tl_eval_error_value(s, n->loc);
}

TlValue *tl_sema_call_user(Sema *s, const TlNode *call, TlValue *callee) {
  TlVec args = {0}, names = {0}, vals = {0};
  if (!tl_sema_eval_call_args(s, call, &args, &names, &vals))
    return tl_eval_error_value(s, call->loc);
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
