// Scopes: a stack of symbol lists. Module constants live in the global
// scope; each kernel, loop, branch and with-block pushes one.
#include <string.h>

#include "SemaInternal.h"

void tl_scope_push(Sema *s) {
  TlSymScope *sc = TL_NEW(s->arena, TlSymScope);
  sc->parent = s->scope ? s->scope : s->globals;
  s->scope = sc;
}

void tl_scope_pop(Sema *s) {
  s->scope = s->scope->parent == s->globals ? NULL : s->scope->parent;
}

TlSym *tl_scope_lookup_local(TlSymScope *sc, const char *name) {
  for (TlSym *y = sc->syms; y; y = y->next)
    if (strcmp(y->name, name) == 0)
      return y;
  return NULL;
}

TlSym *tl_scope_lookup(Sema *s, const char *name) {
  for (TlSymScope *sc = s->scope ? s->scope : s->globals; sc; sc = sc->parent) {
    TlSym *y = tl_scope_lookup_local(sc, name);
    if (y)
      return y;
  }
  return NULL;
}

TlSym *tl_scope_define(Sema *s, TlSymScope *sc, const char *name, TlSymKind kind, TlLoc loc) {
  TlSym *y = tl_scope_lookup_local(sc, name);
  if (!y) {
    y = TL_NEW(s->arena, TlSym);
    y->name = name;
    y->next = sc->syms;
    sc->syms = y;
  }
  y->kind = kind;
  y->loc = loc;
  y->value = NULL;
  y->buf = NULL;
  y->var = NULL;
  return y;
}

const TlNode *tl_sema_kwarg(const TlNode *call, const char *name) {
  for (int i = 0; i < call->list2.len; i++) {
    TlNode *kw = TL_VEC_AT(call->list2, TlNode, i);
    if (strcmp(kw->name, name) == 0)
      return kw->a;
  }
  return NULL;
}

bool tl_sema_check_keywords(Sema *s, const TlNode *call, const char *what,
                            const char *const *allowed) {
  for (int i = 0; i < call->list2.len; i++) {
    TlNode *kw = TL_VEC_AT(call->list2, TlNode, i);
    bool known = false;
    for (int j = 0; allowed[j]; j++)
      known = known || strcmp(kw->name, allowed[j]) == 0;
    if (!known) {
      tl_error(s->diag, kw->loc, "unexpected keyword argument '%s' to %s", kw->name, what);
      return false;
    }
  }
  return true;
}
