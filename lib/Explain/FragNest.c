// Where the elements of a fragment nest live: for a T.Parallel that the
// partition pass made follow a fragment layout (an ST_SEQ with plan_frag),
// which threads hold each element of the nest, and in which register.
//
// The layout math is not repeated here: the map is tl_layout_coords
// (lib/Analysis/FragLayout.c), the very closed form the partition pass
// emits, built once over two free variables (thread, register) and then
// evaluated for every pair. The pass skips a pair when the layout's own guard
// fails or a coordinate is past the nest's extents (a nest over part of the
// fragment), and so does this map. Elements are then indexed back to their
// holders (a counting sort), so both directions are table lookups; replicated
// rows (ROW_OF layouts) have several holders per element.
#include "tlc/Explain.h"
#include "tlc/FragLayout.h"

void tl_frag_nest_build(TlArena *a, TlFragNest *n, const TlStmt *seq) {
  const TlFragLayout *L = seq->plan_frag;
  int64_t threads = L ? L->threads : 0; // the layout's threads are the block's
  TL_ASSERT("fragment nest", L && seq->plan_frag_ndims >= 1 && seq->plan_frag_ndims <= 2);
  *n = (TlFragNest){.layout = L, .ndims = seq->plan_frag_ndims, .threads = threads,
                    .registers = L->locals, .elements = 1};
  for (int i = 0; i < n->ndims; i++) {
    n->extents[i] = seq->plan_frag_extents[i];
    n->elements *= n->extents[i];
  }
  // A layout no register file holds is left unmapped: listing it would only
  // cost time and memory (the fuzzer finds such kernels).
  if (threads < 1 || L->locals < 1 || threads > TL_FRAG_NEST_MAX_PAIRS / L->locals)
    return;
  n->mapped = true;
  int64_t npairs = threads * L->locals;
  TlLoc loc = seq->plan_loc;
  TlVar *vars[2];
  vars[0] = tl_var_new(a, NULL, "tid", VAR_LOOP, TY_INT32, loc);
  vars[0]->extent = threads;
  vars[1] = tl_var_new(a, NULL, "reg", VAR_LOOP, TY_INT32, loc);
  vars[1]->extent = L->locals;
  TlExpr *coords[2] = {NULL, NULL}, *guard = NULL;
  tl_layout_coords(a, L, tl_expr_var(a, loc, vars[0]), tl_expr_var(a, loc, vars[1]), coords, &guard,
                   loc);

  n->pair_elem = TL_NEW_ARRAY(a, int64_t, npairs);
  n->first = TL_NEW_ARRAY(a, int64_t, n->elements + 1); // zeroed: the counts start at 0
  for (int64_t p = 0; p < npairs; p++) {
    int64_t vals[2] = {p / L->locals, p % L->locals}, ok = 1, flat = 0;
    if (guard && !tl_expr_eval_int(guard, vars, vals, 2, &ok))
      TL_UNREACHABLE("fragment nest", "the layout guard is not integer arithmetic");
    for (int i = 0; ok && i < n->ndims; i++) {
      int64_t c;
      if (!tl_expr_eval_int(coords[i], vars, vals, 2, &c))
        TL_UNREACHABLE("fragment nest", "a layout coordinate is not integer arithmetic");
      ok = c >= 0 && c < n->extents[i];
      flat = flat * n->extents[i] + c;
    }
    n->pair_elem[p] = ok ? flat : -1;
    if (ok)
      n->first[flat + 1]++;
    else
      n->guard = true;
  }
  // Counts -> offsets, then place the pairs in thread order.
  for (int64_t e = 0; e < n->elements; e++) {
    int64_t c = n->first[e + 1];
    n->replicas = c > n->replicas ? c : n->replicas;
    n->first[e + 1] += n->first[e];
  }
  n->owners = TL_NEW_ARRAY(a, int64_t, n->first[n->elements] + 1);
  int64_t *fill = TL_NEW_ARRAY(a, int64_t, n->elements + 1);
  for (int64_t e = 0; e < n->elements; e++)
    fill[e] = n->first[e];
  for (int64_t p = 0; p < npairs; p++)
    if (n->pair_elem[p] >= 0)
      n->owners[fill[n->pair_elem[p]]++] = p;
  for (int64_t t = 0; t < threads; t++)
    if (tl_frag_nest_thread_count(n, t) > 0)
      n->threads_used++;
}

void tl_frag_nest_index(const TlFragNest *n, int64_t flat, int64_t *idx) {
  for (int i = n->ndims - 1; i >= 0; i--) {
    idx[i] = flat % n->extents[i];
    flat /= n->extents[i];
  }
}

int64_t tl_frag_nest_holders(const TlFragNest *n, int64_t flat) {
  return n->first[flat + 1] - n->first[flat];
}

void tl_frag_nest_holder(const TlFragNest *n, int64_t flat, int64_t k, int64_t *thread,
                         int64_t *reg) {
  int64_t p = n->owners[n->first[flat] + k];
  *thread = p / n->registers;
  *reg = p % n->registers;
}

int64_t tl_frag_nest_element(const TlFragNest *n, int64_t thread, int64_t reg) {
  return n->pair_elem[thread * n->registers + reg];
}

int64_t tl_frag_nest_thread_count(const TlFragNest *n, int64_t thread) {
  int64_t c = 0;
  for (int64_t r = 0; r < n->registers; r++)
    c += n->pair_elem[thread * n->registers + r] >= 0;
  return c;
}
