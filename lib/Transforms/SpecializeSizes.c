// specialize-sizes: a kernel whose tensors have a runtime contiguous
// dimension (T.dynamic / T.symbolic / T.dyn as the last extent) is compiled
// twice.
//   * The kernel itself assumes that each such size is a multiple of the
//     elements of 16 bytes (8 for float16, 4 for float32): its variable gets
//     that `divisor`. Rows then start on 16-byte boundaries, so copies become
//     16-byte cp.async with zero fill at the edges (partition, vectorize) and
//     warp-specialize can describe the tensor to TMA (every stride a multiple
//     of 16 bytes).
//   * A twin, `NAME_unaligned`, assumes nothing (element-wise copies). The
//     launcher checks the divisors at run time and runs the twin when one
//     does not hold, so one .cu serves every size (K = 17 as well as 4096).
//     On sm_90a it also runs launches where a runtime extent of a tensor TMA
//     reads is 0 (warp-specialize drops the twin when it uses no TMA and no
//     divisor).
// TileLang instead assumes dynamic dimensions are aligned unless told; a
// launch with an odd size then reads misaligned vectors. Here the check costs
// one branch per launch and the twin one more kernel in the .cu.
#include <string.h>

#include "tlc/Passes.h"

// The elements of 16 bytes: what a runtime row length must be a multiple of
// for 16-byte vectors and TMA strides; 1 for elements of 16 bytes or more.
static int64_t elems_of_16_bytes(TlDtype t) {
  int64_t bytes = tl_dtype_bits(t) / 8;
  return bytes > 0 && bytes < 16 ? 16 / bytes : 1;
}

// Sets the divisor of every runtime size that is the contiguous extent of a
// tensor; false when no size needs one (nothing to specialize).
static bool assume_divisors(TlKernel *k) {
  bool any = false;
  for (int i = 0; i < k->params.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->params, TlBuffer, i);
    int64_t d = elems_of_16_bytes(b->dtype);
    if (b->strided) { // the runtime strides set the alignment of rows, not the extents
      for (int j = 0; j < b->ndims && d > 1; j++) {
        TlVar *v = b->dyn_stride[j];
        if (!v) continue;
        int64_t old = v->divisor ? v->divisor : 1;
        v->divisor = old / tl_gcd(old, d) * d;
        any = true;
      }
      continue;
    }
    TlVar *last = b->ndims ? b->dyn[b->ndims - 1] : NULL;
    if (!last || d == 1) continue;
    int64_t old = last->divisor ? last->divisor : 1;
    last->divisor = old / tl_gcd(old, d) * d; // lcm over the tensors that share the size
    any = true;
  }
  return any;
}

static bool kernel_named(const TlModule *m, const char *name) {
  for (int i = 0; i < m->kernels.len; i++)
    if (strcmp(TL_VEC_AT(m->kernels, TlKernel, i)->name, name) == 0) return true;
  return false;
}

static const char *twin_name(TlArena *a, const TlModule *m, const char *name) {
  const char *twin = tl_arena_printf(a, "%s_unaligned", name);
  for (int n = 2; kernel_named(m, twin); n++)
    twin = tl_arena_printf(a, "%s_unaligned%d", name, n);
  return twin;
}

bool tl_specialize_sizes(TlArena *a, TlModule *m, TlDiag *d) {
  (void)d;
  TlVec out = {0};
  for (int i = 0; i < m->kernels.len; i++) {
    TlKernel *k = TL_VEC_AT(m->kernels, TlKernel, i);
    tl_vec_push(a, &out, k);
    if (k->fallback || k->is_fallback || k->sizes.len == 0)
      continue; // already specialized (IR text), or nothing known only at run time
    TlKernel *twin = tl_kernel_clone(a, k); // cloned before the divisors are set
    // On sm_90a warp-specialize may describe a runtime extent to TMA, which
    // takes no empty dimension: the twin runs those launches (it drops the
    // twin again when it does not specialize the kernel).
    if (!assume_divisors(k) && !(m->has_wgmma && m->has_tma)) continue;
    twin->name = twin_name(a, m, k->name);
    twin->is_fallback = true;
    twin->launcher = NULL; // only k's launcher runs it
    k->fallback = twin->name;
    tl_vec_push(a, &out, twin);
  }
  m->kernels = out;
  return true;
}
