// @T.macro calls inside a kernel: the macro's body is lowered in place, as
// TileLang does, with its parameters bound to the call's arguments:
//   a buffer argument     -> the same buffer (T.SharedBuffer / T.FragmentBuffer
//                            annotations are not checked beyond that),
//   a loop or block index -> the same variable,
//   a compile-time value  -> that value (so `if is_causal:` folds),
//   any other expression  -> a scalar let evaluated once, before the body.
// The body sees the macro's closure (the factory's locals) and its
// parameters, not the caller's names, as Python scoping says.
#include <string.h>

#include "../Sema/SemaInternal.h"

static bool bind_argument(Sema *s, TlSymScope *sc, const TlNode *param, const TlNode *arg,
                          TlVec *out) {
  if (arg->kind == ND_NAME) {
    TlSym *y = tl_scope_lookup(s, arg->name);
    // Python passes a scalar by value: assigning to the parameter inside
    // the macro must not change the caller's variable, so only buffers and
    // loop or block indices (which cannot be assigned) are aliased.
    if (y && (y->kind == SYM_BUFFER || (y->kind == SYM_VAR && y->var->kind != VAR_SCALAR))) {
      TlSym *p = tl_scope_define(s, sc, param->name, y->kind, param->loc);
      p->buf = y->buf;
      p->var = y->var;
      return true;
    }
  }
  if (tl_sema_is_constant_expr(s, arg)) {
    TlValue *v = tl_sema_eval_const(s, arg);
    if (v->kind == VAL_ERROR)
      return false;
    TlSym *p = tl_scope_define(s, sc, param->name, SYM_VALUE, param->loc);
    p->value = v;
    return true;
  }
  int before = s->diag->nerrors;
  TlExpr *e = s->lower.expr(s, arg);
  if (s->diag->nerrors > before)
    return false;
  TlDtype t = e->dtype;
  if (e->untyped)
    t = tl_dtype_is_float(t) ? TY_FLOAT32 : s->index_dtype;
  TlVar *v = tl_var_new(s->arena, s->kernel, param->name, VAR_SCALAR, t, param->loc);
  TlStmt *let = tl_stmt_new(s->arena, ST_LET, arg->loc);
  let->var = v;
  let->value = s->lower.convert(s, e, t);
  tl_vec_push(s->arena, out, let);
  TlSym *p = tl_scope_define(s, sc, param->name, SYM_VAR, param->loc);
  p->var = v;
  return true;
}

bool tl_sema_inline_macro(Sema *s, const TlValue *m, const TlNode *call, TlVec *out) {
  const TlNode *def = m->fn;
  for (int i = 0; i < s->helper_depth; i++)
    if (s->helper_stack[i] == def) {
      tl_error(s->diag, call->loc, "recursion in macro '%s'", m->s);
      tl_note(s->diag, def->loc, "'%s' defined here; macros are inlined and cannot recurse", m->s);
      return false;
    }
  if (s->helper_depth == 32) {
    tl_error(s->diag, call->loc, "macros nested more than 32 calls deep");
    return false;
  }
  if (!tl_sema_plain_params(s, def, "@T.macro"))
    return false;
  int np = def->params.len;
  const TlNode **args = TL_NEW_ARRAY(s->arena, const TlNode *, np > 0 ? np : 1);
  if (call->list.len > np) {
    tl_error(s->diag, call->loc, "macro '%s' takes %d argument%s, %d given", m->s, np,
             np == 1 ? "" : "s", call->list.len);
    tl_note(s->diag, def->loc, "'%s' defined here", m->s);
    return false;
  }
  for (int i = 0; i < call->list.len; i++) {
    args[i] = TL_VEC_AT(call->list, TlNode, i);
    if (args[i]->kind == ND_STARRED) {
      tl_error(s->diag, args[i]->loc, "'*' arguments to a macro are not supported");
      return false;
    }
  }
  for (int k = 0; k < call->list2.len; k++) {
    TlNode *kw = TL_VEC_AT(call->list2, TlNode, k);
    int at = -1;
    for (int i = 0; i < np; i++)
      if (strcmp(TL_VEC_AT(def->params, TlNode, i)->name, kw->name) == 0)
        at = i;
    if (at < 0 || args[at]) {
      tl_error(s->diag, kw->loc, at < 0 ? "macro '%s' has no parameter '%s'"
                                        : "macro '%s' got two values for parameter '%s'",
               m->s, kw->name);
      return false;
    }
    args[at] = kw->a;
  }
  TlSymScope *sc = TL_NEW(s->arena, TlSymScope);
  sc->parent = m->env ? m->env : s->globals;
  for (int i = 0; i < np; i++) {
    const TlNode *p = TL_VEC_AT(def->params, TlNode, i);
    if (!args[i]) {
      TlValue *dv = i < m->defaults.len ? TL_VEC_AT(m->defaults, TlValue, i) : NULL;
      if (!dv) {
        tl_error(s->diag, call->loc, "macro '%s' needs a value for parameter '%s'", m->s, p->name);
        tl_note(s->diag, p->loc, "'%s' declared here without a default", p->name);
        return false;
      }
      TlSym *y = tl_scope_define(s, sc, p->name, SYM_VALUE, p->loc);
      y->value = dv;
      continue;
    }
    if (!bind_argument(s, sc, p, args[i], out))
      return false;
  }
  s->helper_stack[s->helper_depth++] = def;
  TlSymScope *saved = s->scope;
  s->scope = sc;
  int before = s->diag->nerrors;
  for (int i = 0; i < def->list.len && !tl_diag_too_many(s->diag); i++) {
    const TlNode *st = TL_VEC_AT(def->list, TlNode, i);
    if (st->kind == ND_RETURN && !st->a)
      break;
    if (st->kind == ND_RETURN) {
      tl_error(s->diag, st->loc, "tlc's macros are statements; returning a value is not "
                                 "supported yet");
      break;
    }
    TlVec one = {0};
    tl_vec_push(s->arena, &one, (void *)st);
    s->lower.body(s, &one, out);
  }
  s->scope = saved;
  s->helper_depth--;
  if (s->diag->nerrors > before && !tl_diag_too_many(s->diag))
    tl_note(s->diag, call->loc, "in the macro '%s' called here", m->s);
  return s->diag->nerrors == before;
}
