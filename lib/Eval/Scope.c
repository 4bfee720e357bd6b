// Scopes: a stack of symbol lists. Module constants live in the global
// scope; each kernel, loop, branch and with-block pushes one.
#include <string.h>

#include "../Sema/SemaInternal.h"

void tl_scope_push(Sema *s) {
  TlSymScope *sc = TL_NEW(s->arena, TlSymScope);
  sc->parent = s->scope ? s->scope : s->globals;
  s->scope = sc;
}

void tl_scope_pop(Sema *s) {
  s->scope = s->scope->parent == s->globals ? NULL : s->scope->parent;
}

enum { HASH_FROM = 16 }; // names in a scope before it gets a hash index

static uint64_t name_hash(const char *name) {
  uint64_t h = 1469598103934665603u; // FNV-1a
  for (const unsigned char *c = (const unsigned char *)name; *c; c++)
    h = (h ^ *c) * 1099511628211u;
  return h;
}

static void table_insert(TlSymScope *sc, TlSym *y) {
  uint64_t mask = (uint64_t)sc->cap - 1;
  uint64_t at = name_hash(y->name) & mask;
  while (sc->table[at])
    at = (at + 1) & mask;
  sc->table[at] = y;
}

// Adds y (just linked into sc->syms) to the index, building or doubling it
// at a load of one half.
static void index_sym(Sema *s, TlSymScope *sc, TlSym *y) {
  if (++sc->count < HASH_FROM) return;
  if (sc->table && 2 * sc->count <= sc->cap) {
    table_insert(sc, y);
    return;
  }
  sc->cap = sc->cap ? 2 * sc->cap : 4 * HASH_FROM;
  sc->table = TL_NEW_ARRAY(s->arena, TlSym *, sc->cap);
  for (TlSym *x = sc->syms; x; x = x->next)
    table_insert(sc, x);
}

TlSym *tl_scope_lookup_local(TlSymScope *sc, const char *name) {
  if (sc->table) {
    uint64_t mask = (uint64_t)sc->cap - 1;
    for (uint64_t at = name_hash(name) & mask; sc->table[at]; at = (at + 1) & mask)
      if (strcmp(sc->table[at]->name, name) == 0) return sc->table[at];
    return NULL;
  }
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
    index_sym(s, sc, y);
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

const TlNode *tl_sema_arg(const TlNode *call, int i, const char *name) {
  return call->list.len > i ? TL_VEC_AT(call->list, TlNode, i) : tl_sema_kwarg(call, name);
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
