// tl_emit_harness: `tlc --harness FILE.tl` writes one self-contained .cu
// file, in this order:
//   1. a header (how to build and run it), the options baked in, and one
//      TLH-META comment per kernel for the benchmark scripts;
//   2. the compiled kernels, exactly as `tlc FILE.tl` emits them;
//   3. the reference lowering of the tile IR (RefEmit.c);
//   4. the host runtime (Runtime.c, from runtime/head.cu);
//   5. per kernel: its tensor table, two launch thunks (compiled and
//      reference) and a row of the kernel table;
//   6. the per-kernel driver and main() (runtime/main.cu).
// The compiled module may be NULL (tests of the reference, see bench/ and
// docs/harness.md): the reference then also stands in for the compiled
// kernel, so the file still checks that the reference writes every output
// and, with --cublas, checks the reference against cuBLAS.
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "HarnessInternal.h"
#include "tlc/CodeGen.h"

static void lines(TlBuf *out, const char *const *text) {
  for (int i = 0; text[i]; i++)
    tl_buf_puts(out, text[i]);
}

static const char *type_code(TlDtype t) {
  static const char *const codes[] = {"TLH_BOOL", "TLH_I8",  "TLH_U8",  "TLH_I16",
                                      "TLH_I32",  "TLH_U32", "TLH_I64", "TLH_F16",
                                      "TLH_BF16", "TLH_F32", "TLH_F64", "TLH_F8E4",
                                      "TLH_F8E5", "TLH_U16", "TLH_U64"};
  return codes[t];
}

// Kernel names become C identifiers NAME_ref, NAME_ref_kernel: they must not
// meet another kernel's names. Sema's renaming (CIdent.h) already keeps every
// kernel it names off these; this guards modules built another way.
static bool names_clash(const TlModule *m, TlDiag *d) {
  for (int i = 0; i < m->kernels.len; i++) {
    const TlKernel *k = TL_VEC_AT(m->kernels, TlKernel, i);
    if (strcmp(k->name, "main") == 0 || strncmp(k->name, "tlh_", 4) == 0 ||
        strncmp(k->name, "tlr_", 4) == 0) {
      tl_error(d, k->loc,
               "kernel '%s' clashes with the harness's own names; rename it to use "
               "--harness",
               k->name);
      return true;
    }
  }
  for (int i = 0; i < m->kernels.len; i++)
    for (int j = 0; j < m->kernels.len; j++) {
      const TlKernel *a = TL_VEC_AT(m->kernels, TlKernel, i),
                     *b = TL_VEC_AT(m->kernels, TlKernel, j);
      size_t n = strlen(a->name);
      if (i != j && strncmp(a->name, b->name, n) == 0 &&
          (strcmp(b->name + n, "_ref") == 0 || strcmp(b->name + n, "_ref_kernel") == 0)) {
        tl_error(d, b->loc,
                 "kernel '%s' clashes with the harness's reference for kernel '%s'; "
                 "rename it to use --harness",
                 b->name, a->name);
        return true;
      }
    }
  return false;
}

// Does the binding NAME=VALUE (a --size or --data) bind `name`?
static bool binds(const char *binding, const char *name) {
  size_t len = strcspn(binding, "=");
  return strlen(name) == len && strncmp(binding, name, len) == 0;
}

// The VALUE of the binding of `name` among n NAME=VALUE bindings, or NULL.
static const char *bound_value(const char *const *bindings, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (binds(bindings[i], name)) return bindings[i] + strcspn(bindings[i], "=") + 1;
  return NULL;
}

// The value --size NAME=VALUE gives runtime size `name`, or NULL.
static const char *size_value(const TlHarnessOptions *o, const char *name) {
  return bound_value(o->sizes, o->nsizes, name);
}

// The harness allocates every tensor at its shape, so each runtime size
// (T.dynamic) needs a value: --size NAME=VALUE makes the reference static
// (sema binds the sizes) and the compiled launcher gets VALUE. Every --size
// must name a size of some kernel, so a typo cannot go unnoticed.
static bool sizes_bound(const TlModule *ref, const TlModule *compiled, const TlHarnessOptions *o,
                        TlDiag *d) {
  for (int i = 0; i < ref->kernels.len; i++) {
    const TlKernel *k = TL_VEC_AT(ref->kernels, TlKernel, i);
    if (k->sizes.len == 0) continue;
    const char *name = TL_VEC_AT(k->sizes, TlVar, 0)->name;
    tl_error(d, k->loc,
             "kernel '%s' has the runtime size '%s'; give the harness its value with "
             "--size %s=VALUE",
             k->name, name, name);
    return false;
  }
  for (int i = 0; i < o->nsizes; i++) {
    size_t len = strcspn(o->sizes[i], "=");
    bool used = false;
    for (int j = 0; compiled && j < compiled->kernels.len; j++) {
      const TlKernel *k = TL_VEC_AT(compiled->kernels, TlKernel, j);
      for (int v = 0; v < k->sizes.len; v++) {
        const char *name = TL_VEC_AT(k->sizes, TlVar, v)->name;
        used = used || binds(o->sizes[i], name);
      }
    }
    if (!used) {
      tl_error_noloc(d, "--size %s: no kernel has a runtime size '%.*s'", o->sizes[i], (int)len,
                     o->sizes[i]);
      return false;
    }
  }
  return true;
}

// --data specs: offsets:TOTAL:MAX (a cu_seqlens-style table: 0 first, TOTAL
// last, steps of 0..MAX), range:LO:HI (integers in [LO, HI)), arange (the
// index), arange:STEP (the index times STEP), div:D:N (the index over D, at
// most N - 1: which group a block belongs to), const:V, uniform:LO:HI (random
// reals in [LO, HI): the one fill for float tensors besides const, for data
// whose range matters, such as a gate that exp() must not overflow). The
// runtime (Runtime.c, tlh_fill) reads the same. tokens:OFFS fills a [T, 2]
// table with the (sequence, position) pair of each token of the cu_seqlens
// table OFFS, an earlier input of the same kernel filled as offsets (FLA's
// prepare_token_indices, which TileLang's varlen backward kernels read).
static bool int_field(const char **p, long long *v, bool last) {
  char *end;
  errno = 0;
  *v = strtoll(*p, &end, 10);
  if (end == *p || errno || (last ? *end != '\0' : *end != ':')) return false;
  *p = last ? end : end + 1;
  return true;
}

static bool real_field(const char **p, double *v, bool last) {
  char *end;
  errno = 0;
  *v = strtod(*p, &end);
  if (end == *p || errno || !isfinite(*v) || (last ? *end != '\0' : *end != ':')) return false;
  *p = last ? end : end + 1;
  return true;
}

bool tl_harness_data_spec_ok(const char *spec) {
  long long a, b;
  const char *p;
  if (strncmp(spec, "tokens:", 7) == 0) // a parameter name: checked against the kernels
    return spec[7] && !spec[7 + strspn(spec + 7,
                                       "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789")];
  if (spec[strspn(spec, "abcdefghijklmnopqrstuvwxyz0123456789:+-.")]) return false;
  if (strncmp(spec, "uniform:", 8) == 0) {
    double lo, hi;
    return p = spec + 8, real_field(&p, &lo, false) && real_field(&p, &hi, true) && lo < hi;
  }
  if (strcmp(spec, "arange") == 0) return true;
  if (strncmp(spec, "arange:", 7) == 0) return p = spec + 7, int_field(&p, &a, true);
  if (strncmp(spec, "div:", 4) == 0)
    return p = spec + 4, int_field(&p, &a, false) && int_field(&p, &b, true) && a > 0 && b > 0;
  if (strncmp(spec, "const:", 6) == 0) return p = spec + 6, int_field(&p, &a, true);
  if (strncmp(spec, "range:", 6) == 0)
    return p = spec + 6, int_field(&p, &a, false) && int_field(&p, &b, true) && a < b;
  if (strncmp(spec, "offsets:", 8) == 0)
    return p = spec + 8, int_field(&p, &a, false) && int_field(&p, &b, true) && a >= 0 && b >= 0;
  return false;
}

// The --data spec for tensor `name`, or NULL.
static const char *data_spec(const TlHarnessOptions *o, const char *name) {
  return bound_value(o->data, o->ndata, name);
}

// tokens:OFFS on tensor b: b is [T, 2] of integers, and in every kernel
// that has b, OFFS is an earlier integer parameter filled as offsets.
static bool tokens_source_ok(const TlModule *ref, const TlBuffer *b, const char *offs,
                             const TlHarnessOptions *o, TlDiag *d) {
  if (b->ndims != 2 || b->shape[1] != 2 || tl_dtype_is_float(b->dtype)) {
    tl_error(d, b->loc, "--data %s=tokens:%s: '%s' must be a [T, 2] integer table", b->name, offs,
             b->name);
    return false;
  }
  const char *spec = data_spec(o, offs);
  if (!spec || strncmp(spec, "offsets:", 8) != 0) {
    tl_error(d, b->loc, "--data %s=tokens:%s: '%s' must be filled as offsets (--data %s=offsets:TOTAL:MAX)",
             b->name, offs, offs, offs);
    return false;
  }
  for (int j = 0; j < ref->kernels.len; j++) {
    const TlKernel *k = TL_VEC_AT(ref->kernels, TlKernel, j);
    bool before = false;
    for (int v = 0; v < k->params.len; v++) {
      const TlBuffer *p = TL_VEC_AT(k->params, TlBuffer, v);
      if (strcmp(p->name, offs) == 0) before = true;
      if (strcmp(p->name, b->name) == 0 && !before) {
        tl_error(d, b->loc, "--data %s=tokens:%s: kernel '%s' takes no '%s' before '%s'", b->name,
                 offs, k->name, offs, b->name);
        return false;
      }
    }
  }
  return true;
}

// Every --data must name an integer tensor some kernel reads.
static bool data_bound(const TlModule *ref, const TlHarnessOptions *o, TlDiag *d) {
  for (int i = 0; i < o->ndata; i++) {
    size_t len = strcspn(o->data[i], "=");
    const TlBuffer *found = NULL;
    for (int j = 0; !found && j < ref->kernels.len; j++) {
      const TlKernel *k = TL_VEC_AT(ref->kernels, TlKernel, j);
      for (int v = 0; !found && v < k->params.len; v++) {
        const TlBuffer *b = TL_VEC_AT(k->params, TlBuffer, v);
        if (binds(o->data[i], b->name)) found = b;
      }
    }
    if (!found) {
      tl_error_noloc(d, "--data %s: no kernel has a tensor parameter '%.*s'", o->data[i], (int)len,
                     o->data[i]);
      return false;
    }
    const char *spec = o->data[i] + len + 1;
    if (strncmp(spec, "tokens:", 7) == 0 && !tokens_source_ok(ref, found, spec + 7, o, d))
      return false;
    if (tl_dtype_is_float(found->dtype) && strncmp(spec, "uniform:", 8) != 0 &&
        strncmp(spec, "const:", 6) != 0) {
      tl_error(d, found->loc,
               "--data %s: '%s' is %s; a float tensor takes uniform:LO:HI or const:V", o->data[i],
               found->name, tl_dtype_name(found->dtype));
      return false;
    }
  }
  return true;
}

static void meta(TlBuf *out, const TlKernel *k, const TlKernelFacts *f) {
  const TlBuffer *first = TL_VEC_AT(k->params, TlBuffer, 0), *res = first;
  int inputs = 0;
  for (int i = k->params.len - 1; i >= 0; i--) {
    if (f->written[i]) res = TL_VEC_AT(k->params, TlBuffer, i);
    inputs += f->read[i] && !f->written[i];
  }
  tl_buf_printf(out,
                "// TLH-META {\"kernel\": \"%s\", \"kind\": \"%s\", \"dtype\": \"%s\", "
                "\"out_dtype\": \"%s\", \"shape\": [",
                k->name, f->kind, tl_dtype_name(first->dtype), tl_dtype_name(res->dtype));
  for (int d = 0; d < res->ndims; d++)
    tl_buf_printf(out, "%s%lld", d ? ", " : "", (long long)res->shape[d]);
  tl_buf_printf(out,
                "], \"m\": %lld, \"n\": %lld, \"k\": %lld, \"trans_a\": %d, \"trans_b\": %d, "
                "\"inputs\": %d, \"flops\": %.0f, \"bytes\": %lld}\n",
                (long long)f->m, (long long)f->n, (long long)f->k, f->trans_a, f->trans_b, inputs,
                f->flops > 0 ? f->flops : 0, (long long)f->traffic);
}

// A thunk: the launcher called with the harness's untyped pointer array.
// Its parameters carry the harness's prefix: a kernel (a launcher) may be
// named p or s.
// A launch through the kernel table. `sized` is the compiled kernel when its
// launcher takes runtime sizes (after the tensors): it gets their --size values.
static void thunk(TlBuf *out, const TlKernel *k, const char *what, const char *callee,
                  const TlKernel *sized, const TlHarnessOptions *o) {
  tl_buf_printf(out, "static cudaError_t tlh_%s_%s(void *const *tlh_p, cudaStream_t tlh_s) {\n",
                what, k->name);
  tl_buf_printf(out, "  (void)tlh_p;\n  return %s(", callee);
  for (int i = 0; i < k->params.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->params, TlBuffer, i);
    tl_buf_printf(out, "(%s *)tlh_p[%d], ", tl_dtype_cuda(b->dtype), i);
  }
  for (int i = 0; sized && i < sized->sizes.len; i++) {
    const TlVar *v = TL_VEC_AT(sized->sizes, TlVar, i);
    tl_buf_printf(out, "%s /* %s */, ", size_value(o, v->name), v->name);
  }
  tl_buf_puts(out, "tlh_s);\n}\n");
}

static void tables(TlBuf *out, TlArena *a, const TlKernel *k, const TlKernelFacts *f,
                   const TlKernel *compiled, const TlHarnessOptions *o) {
  bool ref_only = compiled == NULL;
  tl_buf_printf(out, "// kernel %s (line %d)\n", k->name, k->loc.line);
  tl_buf_printf(out, "static const TlhTensor tlh_tensors_%s[] = {\n", k->name);
  for (int i = 0; i < k->params.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->params, TlBuffer, i);
    tl_buf_printf(out, "  {\"%s\", %s, %d, {", b->name, type_code(b->dtype), b->ndims);
    for (int dd = 0; dd < b->ndims; dd++)
      tl_buf_printf(out, "%s%lldLL", dd ? ", " : "", (long long)b->shape[dd]);
    const char *spec = data_spec(o, b->name);
    // A T.StridedTensor holds every element its strides reach (the gaps too).
    tl_buf_printf(out, "}, %lldLL, %d, %d, %g, %g, ", (long long)tl_buffer_span(b), f->read[i],
                  f->written[i], tl_harness_tolerance(f, b->dtype),
                  tl_harness_abs_tolerance(f, b->dtype));
    if (spec)
      tl_buf_printf(out, "\"%s\"},\n", spec); // checked: digits, letters and ':' only
    else
      tl_buf_puts(out, "NULL},\n");
  }
  if (k->params.len == 0)
    tl_buf_puts(out, "  {\"(none)\", TLH_I32, 1, {1}, 0, 0, 0, 0, 0, NULL},\n");
  tl_buf_puts(out, "};\n");
  thunk(out, k, "run", ref_only ? tl_arena_printf(a, "%s_ref", k->name) : k->name, compiled, o);
  thunk(out, k, "ref", tl_arena_printf(a, "%s_ref", k->name), NULL, o);
  tl_buf_puts(out, "\n");
}

// The compiled kernels the harness calls: those with a launcher of their own
// (an unaligned twin, specialize-sizes, runs inside its kernel's launcher),
// one per reference kernel.
static const TlModule *launched_kernels(TlArena *a, const TlModule *compiled) {
  if (!compiled) return NULL;
  TlModule *view = TL_NEW(a, TlModule);
  *view = *compiled;
  view->kernels = (TlVec){0};
  for (int i = 0; i < compiled->kernels.len; i++)
    if (!TL_VEC_AT(compiled->kernels, TlKernel, i)->is_fallback)
      tl_vec_push(a, &view->kernels, TL_VEC_AT(compiled->kernels, TlKernel, i));
  return view;
}

bool tl_emit_harness(TlArena *a, const TlModule *ref, const TlModule *all_compiled,
                     const TlHarnessOptions *o, TlBuf *out, TlDiag *d) {
  const TlModule *compiled = launched_kernels(a, all_compiled);
  if (compiled && compiled->kernels.len != ref->kernels.len) {
    tl_error_noloc(d, "internal: the compiled and reference modules have different kernels");
    return false;
  }
  if (names_clash(ref, d) || !sizes_bound(ref, compiled, o, d) || !data_bound(ref, o, d))
    return false;
  int nk = ref->kernels.len;
  TlKernelFacts *facts = TL_NEW_ARRAY(a, TlKernelFacts, nk > 0 ? nk : 1);
  for (int i = 0; i < nk; i++)
    if (!tl_kernel_facts(TL_VEC_AT(ref->kernels, TlKernel, i), &facts[i], d)) return false;

  // Everything that can fail comes first: nothing is written on error.
  TlBuf refs;
  tl_buf_init(&refs, a);
  if (!tl_ref_emit_module(a, ref, &refs, d)) return false;

  const char *file = ref->src ? ref->src->name : "?";
  tl_buf_printf(out, "// Test harness generated by tlc %s (--harness%s) from %s for %s.\n",
                TLC_VERSION, o->cublas ? " --cublas" : "", file, ref->target_name);
  tl_buf_printf(out,
                "// It checks every compiled kernel against a naive reference lowering of the\n"
                "// same program on seeded random data, then times it. Build and run:\n"
                "//   nvcc -O3 %s this.cu -o test%s\n"
                "//   ./test [--iters N] [--no-perf] [--kernel NAME] [--seed N]\n"
                "// Output: check <kernel>: PASS|FAIL rel_err= max_abs= nan=, then\n"
                "// perf <kernel>: median_ms= tflops= tbps=%s. Exit status 1 if a check fails.\n"
                "// See docs/harness.md.\n",
                ref->nvcc_arch ? ref->nvcc_arch : "-arch=sm_90", o->cublas ? " -lcublas" : "",
                o->cublas ? " (and cublas <kernel>: ...)" : "");
  for (int i = 0; i < nk; i++)
    meta(out, TL_VEC_AT(ref->kernels, TlKernel, i), &facts[i]);
  tl_buf_printf(out, "#define TLH_ITERS %d\n#define TLH_SEED %uull\n#define TLH_REF_ONLY %d\n",
                o->iterations > 0 ? o->iterations : 100, o->seed, compiled ? 0 : 1);
  if (o->cublas) tl_buf_puts(out, "#define TLH_CUBLAS 1\n");
  tl_buf_puts(out, "\n");

  if (compiled) {
    tl_buf_puts(out,
                "// ---------------------------------------------------------------------------\n"
                "// The compiled kernels, as `tlc FILE.tl` emits them.\n"
                "// ---------------------------------------------------------------------------\n");
    tl_emit_cuda(a, all_compiled, out);
  } else {
    tl_buf_puts(out, "// Reference-only harness: no compiled kernels; the references stand in.\n");
  }
  tl_buf_puts(out, "\n");
  tl_buf_write(out, refs.data, refs.len);
  lines(out, tl_harness_runtime_head);
  tl_buf_puts(out,
              "// ---------------------------------------------------------------------------\n"
              "// This program's kernels.\n"
              "// ---------------------------------------------------------------------------\n");
  for (int i = 0; i < nk; i++)
    tables(out, a, TL_VEC_AT(ref->kernels, TlKernel, i), &facts[i],
           compiled ? TL_VEC_AT(compiled->kernels, TlKernel, i) : NULL, o);
  tl_buf_puts(out, "static const TlhKernel tlh_kernels[] = {\n");
  for (int i = 0; i < nk; i++) {
    const TlKernel *k = TL_VEC_AT(ref->kernels, TlKernel, i);
    const TlKernelFacts *f = &facts[i];
    tl_buf_printf(
        out,
        "  {\"%s\", tlh_tensors_%s, %d, tlh_run_%s, tlh_ref_%s, %.17g, %lldLL, %d, %d, %d, "
        "%d, %d, %d, %lldLL, %lldLL, %lldLL},\n",
        k->name, k->name, k->params.len, k->name, k->name, f->flops, (long long)f->traffic,
        f->cublas && o->cublas, f->a, f->b, f->c, f->trans_a, f->trans_b, (long long)f->m,
        (long long)f->n, (long long)f->k);
  }
  tl_buf_printf(out, "};\nstatic const int tlh_nkernels = %d;\n\n", nk);
  lines(out, tl_harness_runtime_main);
  return true;
}
