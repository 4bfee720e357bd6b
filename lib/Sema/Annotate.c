// T.annotate_layout({buffer: layout, ...}): TileLang's hint for the physical
// layout of a buffer. tlc checks the form and each key, and keeps its own
// layouts:
//   - a shared tile's layout is invisible to the kernel's results (every
//     access goes through the same mapping), and tlc chooses the swizzle
//     its copies and gemms need (docs/tilelang-users.md);
//   - a fragment's or local buffer's layout only says which thread holds
//     which element; tlc infers that from the loops (FragLayout.c) and the
//     element values are the same;
//   - a global tensor's layout would change the memory order that code
//     outside the kernel sees, so it is ignored with a warning (TileLang's
//     backward kernels use it for an intermediate that a second kernel of
//     the same program reads back, where both orders agree).
// The layout values are not evaluated: they are calls into TileLang's layout
// library (make_swizzled_layout, T.Fragment(..., forward_thread_fn=...),
// T.Layout(shape, lambda ...)) or helpers built on them, which describe
// layouts tlc does not take.
#include <string.h>

#include "SemaInternal.h"

bool tl_sema_annotate_layout(Sema *s, const TlNode *call) {
  if (call->list.len != 1 || call->list2.len != 0 ||
      TL_VEC_AT(call->list, TlNode, 0)->kind != ND_DICT) {
    tl_error(s->diag, call->loc, "T.annotate_layout takes one dict literal {buffer: layout, ...}");
    return false;
  }
  if (s->in_parallel) {
    tl_error(s->diag, call->loc,
             "T.annotate_layout inside T.Parallel; it belongs to the kernel body, before the "
             "buffers' first use");
    return false;
  }
  const TlNode *dict = TL_VEC_AT(call->list, TlNode, 0);
  bool ok = true;
  for (int i = 0; i < (int)dict->list.len; i++) {
    const TlNode *key = TL_VEC_AT(dict->list, TlNode, i);
    const TlNode *layout = TL_VEC_AT(dict->list2, TlNode, i);
    if (key->kind != ND_NAME) {
      tl_error(s->diag, key->loc, "a key of T.annotate_layout must name a buffer");
      ok = false;
      continue;
    }
    TlSym *y = tl_scope_lookup(s, key->name);
    if (!y) {
      void tl_sema_unknown_name(Sema *, TlLoc, const char *);
      tl_sema_unknown_name(s, key->loc, key->name);
      ok = false;
      continue;
    }
    if (y->kind != SYM_BUFFER) {
      tl_error(s->diag, key->loc, "'%s' is not a buffer; T.annotate_layout maps buffers to layouts",
               key->name);
      ok = false;
      continue;
    }
    if (layout->kind != ND_CALL && layout->kind != ND_NAME && layout->kind != ND_ATTR) {
      tl_error(s->diag, layout->loc,
               "the layout of '%s' must be a layout (a call such as "
               "tilelang.layout.make_swizzled_layout(%s), or a name bound to one)",
               key->name, key->name);
      ok = false;
      continue;
    }
    if (y->buf->scope == SCOPE_GLOBAL)
      tl_warning(s->diag, key->loc,
                 "the layout of global tensor '%s' is ignored: tlc keeps tensors row-major",
                 key->name);
  }
  return ok;
}
