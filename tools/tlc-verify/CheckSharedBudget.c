// Check 3: each kernel's shared memory fits the target, and its launches
// request at least the dynamic shared memory the kernel uses.
//   * The kernel's dynamic use is derived from its views into tl_smem,
//     T* X = (T*)(tl_smem + OFF); // B bytes  ->  max(OFF + B) (Model.c);
//     static __shared__ variables count by their type's size.
//   * A launch passing less than that lets the kernel run off the end of
//     its allocation (no error is raised: the launch succeeds).
//   * Above 48 KB the launcher must first raise the kernel's limit with
//     cudaFuncSetAttribute(K, cudaFuncAttributeMaxDynamicSharedMemorySize, N),
//     or the launch fails.
//   * Static + dynamic must fit the per-block maximum of the target.
#include "Verify.h"

#include <string.h>

#define STATIC_LIMIT 49152LL    // static __shared__ per block, all targets
#define DEFAULT_DYNAMIC 49152LL // dynamic shared memory without the opt-in

typedef struct OptIn {
  const TvFunc *kernel;
  const TvExpr *launch;
  bool found;
  long long value; // -1: not a constant
} OptIn;

static const TvFunc *func_of(TvExpr *e) {
  e = tv_strip(e);
  while (e && (e->kind == EX_CAST || (e->kind == EX_UNARY && !strcmp(e->op, "&"))) && e->nkids == 1)
    e = tv_strip(e->kids[0]);
  return e && e->kind == EX_FUNCREF ? e->func : NULL;
}

// cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, N) before the launch.
static void find_opt_in(TvExpr *e, void *ctx) {
  OptIn *o = ctx;
  long long attr, v;
  if (e->kind != EX_CALL || !e->name || strcmp(e->name, "cudaFuncSetAttribute") || e->nkids != 3 ||
      e->begin >= o->launch->begin || func_of(e->kids[0]) != o->kernel)
    return;
  if (!tv_const_eval(e->kids[1], &attr) || attr != 8) // cudaFuncAttributeMaxDynamicSharedMemorySize
    return;
  o->found = true;
  o->value = tv_const_eval(e->kids[2], &v) ? v : -1;
}

static void check_launch(TvFunc *k, TvLaunch *l) {
  TvExpr *smem_arg = l->e->nconfig >= 3 ? l->e->kids[2] : l->e;
  if (!l->smem_known) return; // not a constant: nothing to compare
  if (l->smem < k->dynamic_smem_use) {
    const TvVar *v = k->dynamic_smem_end;
    tv_error(smem_arg->loc,
             "launch of '%s' requests %lld bytes of dynamic shared memory, but the kernel uses "
             "%lld ('%s' "
             "ends at byte %lld)",
             k->name, l->smem, k->dynamic_smem_use, v->name, k->dynamic_smem_use);
  }
  if (l->smem > DEFAULT_DYNAMIC && l->in) {
    OptIn o = {.kernel = k, .launch = l->e};
    tv_for_each_expr(l->in->body, find_opt_in, &o);
    if (!o.found)
      tv_error(smem_arg->loc,
               "launch of '%s' requests %lld bytes of dynamic shared memory, over 48 KB, without "
               "raising the "
               "kernel's limit first with cudaFuncSetAttribute(%s, "
               "cudaFuncAttributeMaxDynamicSharedMemorySize, ...)",
               k->name, l->smem, k->name);
    else if (o.value >= 0 && o.value < l->smem)
      tv_error(smem_arg->loc,
               "launch of '%s' requests %lld bytes of dynamic shared memory, but "
               "cudaFuncSetAttribute raised "
               "the kernel's limit to only %lld",
               k->name, l->smem, o.value);
  }
}

void tv_check_shared_budget(TvProgram *p) {
  const char *target = p->target_sm == 80 ? "sm_80" : "sm_90";
  for (int i = 0; i < p->funcs.len; i++) {
    TvFunc *k = TV_AT(p->funcs, TvFunc, i);
    if (!k->is_global || !k->body) continue;
    if (k->static_smem > STATIC_LIMIT)
      tv_error(k->loc,
               "kernel '%s' declares %lld bytes of static shared memory, over the %lld-byte static "
               "limit",
               k->name, k->static_smem, STATIC_LIMIT);
    long long dynamic = k->dynamic_smem_use;
    for (int j = 0; j < k->launches.len; j++) {
      TvLaunch *l = TV_AT(k->launches, TvLaunch, j);
      check_launch(k, l);
      if (l->smem_known && l->smem > dynamic) dynamic = l->smem;
    }
    if (k->static_smem + dynamic > p->smem_limit)
      tv_error(k->loc,
               "kernel '%s' needs %lld bytes of shared memory per block (%lld static + %lld "
               "dynamic), over "
               "the %s limit of %lld",
               k->name, k->static_smem + dynamic, k->static_smem, dynamic, target, p->smem_limit);
  }
}
