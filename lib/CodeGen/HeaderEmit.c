// Header emitter: `tlc FILE.tl -o FILE.cu --header=FILE.h` also writes a
// header that declares every host launcher of the .cu, so C and C++ code
// compiled by the host compiler (not nvcc) can call the kernels:
//
//   cudaError_t add(const void *A /* float32[4096, 4096], read */, ...,
//                   cudaStream_t stream);
//
// The launchers in the .cu are `extern "C"` and take typed pointers
// (`const half_t *`, `float *`...). The header declares them with `void *`
// instead, because half_t and bfloat16_t are C++ classes from cuda_fp16.h
// and cuda_bf16.h that plain C cannot name. This is ABI-compatible: with C
// linkage the symbol is the bare name, and every object pointer is passed
// the same way; const-ness is kept so a C caller still sees which tensors a
// kernel only reads. Dtypes and shapes, which the pointer type no longer
// says, go into comments next to each parameter.
//
// An eager @tilelang.jit function's T.empty outputs are its last parameters,
// in the order it creates them, and say so: TileLang's wrapper allocates
// and returns them, a caller of the launcher allocates them.
//
// Only parameters are printed: shared tiles, fragments and the constant
// tables tlc computes (loop_layout inverses) are internal to the .cu.
#include "tlc/CIdent.h"
#include "tlc/CodeGen.h"

#include <ctype.h>
#include <string.h>

// Text placed inside a /* */ comment: a file name may hold "*/" or a
// newline, either of which would end the comment early and let the rest of
// the name be read as code.
static void comment_text(TlBuf *out, const char *s) {
  for (; *s; s++) {
    if (*s == '*' && s[1] == '/')
      tl_buf_puts(out, "* ");
    else if (*s == '\n' || *s == '\r')
      tl_buf_putc(out, ' ');
    else
      tl_buf_putc(out, *s);
  }
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

// The include guard: TLC_ + the header's file name in upper case with every
// other character an underscore ("add-fp16.h" -> TLC_ADD_FP16_H). The
// prefix keeps it a valid, non-reserved identifier whatever the name starts
// with.
static void guard(TlBuf *out, const char *header_name) {
  tl_buf_puts(out, "TLC_");
  for (const unsigned char *p = (const unsigned char *)header_name; *p; p++)
    tl_buf_putc(out, isalnum(*p) && *p < 128 ? (char)toupper(*p) : '_');
}

static const char *access_text(const TlBuffer *b) {
  if (b->read && b->written) return "read, written";
  if (b->written) return "written";
  if (b->read) return "read";
  return "unused";
}

// A grid extent: its value, or the expression of runtime sizes the launcher
// computes, in the IR's notation ("(m + 63) // 64").
static void grid_extent(TlBuf *out, const TlKernel *k, int d) {
  if (k->grid_const[d] > 0) {
    tl_buf_printf(out, "%lld", (long long)k->grid_const[d]);
    return;
  }
  TlBuf text;
  tl_buf_init(&text, out->arena);
  tl_ir_print_expr(&text, k->grid[d]);
  comment_text(out, text.data);
}

static void kernel_decl(TlBuf *out, const TlModule *m, const TlKernel *k) {
  long long threads = (long long)(k->threads[0] * k->threads[1] * k->threads[2]);
  tl_buf_printf(out, "/* %s (", k->name);
  comment_text(out, base_name(m->src->name));
  tl_buf_printf(out, ":%d): grid (", k->loc.line);
  for (int d = 0; d < 3; d++) {
    tl_buf_puts(out, d ? ", " : "");
    grid_extent(out, k, d);
  }
  if (k->launch_threads) // T.ws scopes: the block is launch_threads, each scope threads[0]
    tl_buf_printf(out, "), threads (%lld, 1, 1) = %lld in T.ws scopes of %lld,\n",
                  (long long)k->launch_threads, (long long)k->launch_threads, threads);
  else
    tl_buf_printf(out, "), threads (%lld, %lld, %lld) = %lld,\n", (long long)k->threads[0],
                  (long long)k->threads[1], (long long)k->threads[2], threads);
  tl_buf_printf(out, "   %lld bytes of dynamic shared memory%s. */\n", (long long)k->shared_bytes,
                k->shared_bytes > 48 * 1024 ? " (the launcher opts in above 48 KB)" : "");
  // The column of the first parameter, so the others line up below it.
  size_t indent = strlen("cudaError_t ") + strlen(k->name) + 1;
  tl_buf_printf(out, "cudaError_t %s(", k->name);
  for (int i = 0; i < k->params.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->params, TlBuffer, i);
    if (i > 0) tl_buf_printf(out, ",\n%*s", (int)indent, "");
    tl_buf_puts(out, b->written ? "void *" : "const void *");
    // The spelling of the .cu (CIdent.h): parameter names are not part of the
    // ABI, but keeping them equal helps the reader.
    tl_buf_puts(out, tl_cident(out->arena, b->name, TL_CIDENT_LOCAL));
    tl_buf_printf(out, " /* %s[", tl_dtype_name(b->dtype));
    for (int d = 0; d < b->ndims; d++) {
      if (b->dyn[d] && tl_buffer_dyn_scale(b, d) > 1)
        tl_buf_printf(out, "%s%s * %lld", d ? ", " : "",
                      tl_cident(out->arena, b->dyn[d]->name, TL_CIDENT_LOCAL),
                      (long long)tl_buffer_dyn_scale(b, d));
      else if (b->dyn[d])
        tl_buf_printf(out, "%s%s", d ? ", " : "",
                      tl_cident(out->arena, b->dyn[d]->name, TL_CIDENT_LOCAL));
      else
        tl_buf_printf(out, "%s%lld", d ? ", " : "", (long long)b->shape[d]);
    }
    tl_buf_printf(out, "], %s%s */", access_text(b),
                  b->output ? "; output: the T.empty the function returns, allocated by the caller"
                            : "");
  }
  // The runtime sizes by name, as the shapes above spell them.
  for (int i = 0; i < k->sizes.len; i++) {
    const TlVar *v = TL_VEC_AT(k->sizes, TlVar, i);
    if (i > 0 || k->params.len > 0) tl_buf_printf(out, ",\n%*s", (int)indent, "");
    tl_buf_printf(out, "%s %s /* runtime size: 0 launches nothing, < 0 is cudaErrorInvalidValue */",
                  v->dtype == TY_INT64 ? "long long" : "int",
                  tl_cident(out->arena, v->name, TL_CIDENT_LOCAL));
  }
  if (k->params.len > 0 || k->sizes.len > 0) tl_buf_printf(out, ",\n%*s", (int)indent, "");
  tl_buf_puts(out, "cudaStream_t stream);\n\n");
}

// The launcher of a prim_func with several T.Kernel blocks, declared after
// the blocks' own, once (at the group's first block): it takes the same
// parameters and runs the blocks in order.
static void group_decl(TlBuf *out, const TlModule *m, int first) {
  const TlKernel *k = TL_VEC_AT(m->kernels, TlKernel, first);
  if (!k->launcher) return;
  for (int j = 0; j < first; j++) {
    const TlKernel *o = TL_VEC_AT(m->kernels, TlKernel, j);
    if (o->launcher && strcmp(o->launcher, k->launcher) == 0) return;
  }
  tl_buf_printf(out, "/* %s: runs ", k->launcher);
  for (int j = first, n = 0; j < m->kernels.len; j++) {
    const TlKernel *o = TL_VEC_AT(m->kernels, TlKernel, j);
    if (o->launcher && strcmp(o->launcher, k->launcher) == 0)
      tl_buf_printf(out, "%s%s", n++ ? ", then " : "", o->name);
  }
  tl_buf_puts(out, " on `stream`. */\n");
  size_t indent = strlen("cudaError_t ") + strlen(k->launcher) + 1;
  tl_buf_printf(out, "cudaError_t %s(", k->launcher);
  int nparams = 0; // T.alloc_global buffers are the launcher's own, not parameters
  for (int i = 0; i < k->params.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->params, TlBuffer, i);
    if (b->scratch) continue;
    bool written = false;
    for (int j = first; j < m->kernels.len; j++) {
      const TlKernel *o = TL_VEC_AT(m->kernels, TlKernel, j);
      if (o->launcher && strcmp(o->launcher, k->launcher) == 0 && i < o->params.len)
        written = written || TL_VEC_AT(o->params, TlBuffer, i)->written;
    }
    if (nparams++ > 0) tl_buf_printf(out, ",\n%*s", (int)indent, "");
    tl_buf_puts(out, written ? "void *" : "const void *");
    tl_buf_puts(out, tl_cident(out->arena, b->name, TL_CIDENT_LOCAL));
  }
  // The blocks' runtime sizes, once each by name, as the .cu's launcher.
  const char *seen[64];
  int ns = 0;
  for (int j = first; j < m->kernels.len; j++) {
    const TlKernel *o = TL_VEC_AT(m->kernels, TlKernel, j);
    if (!o->launcher || strcmp(o->launcher, k->launcher) != 0) continue;
    for (int i = 0; i < o->sizes.len; i++) {
      const TlVar *v = TL_VEC_AT(o->sizes, TlVar, i);
      bool dup = false;
      for (int q = 0; q < ns; q++)
        dup = dup || strcmp(seen[q], v->name) == 0;
      if (dup || ns == 64) continue;
      seen[ns++] = v->name;
      if (nparams > 0 || ns > 1) tl_buf_printf(out, ",\n%*s", (int)indent, "");
      tl_buf_printf(out, "%s %s", tl_dtype_cuda(v->dtype), v->cname);
    }
  }
  if (nparams > 0 || ns > 0) tl_buf_printf(out, ",\n%*s", (int)indent, "");
  tl_buf_puts(out, "cudaStream_t stream);\n\n");
}

void tl_emit_header(const TlModule *m, const char *header_name, TlBuf *out) {
  tl_buf_puts(out, "/* ");
  comment_text(out, header_name);
  tl_buf_puts(out, ": the launchers of ");
  comment_text(out, base_name(m->src->name));
  tl_buf_printf(out, ", generated by tlc %s for %s.\n", TLC_VERSION, m->target_name);
  tl_buf_puts(
      out, "   Do not edit: edit the .tl file. Link with the .cu file tlc wrote with this header\n"
           "   (nvcc -arch=");
  comment_text(out, m->target_name);
  tl_buf_puts(
      out, " -c). Usable from C and C++.\n"
           "\n"
           "   Every tensor is a dense row-major array in device memory; the comment after a\n"
           "   pointer gives its dtype (float16 is __half, bfloat16 is __nv_bfloat16), its shape\n"
           "   and whether the kernel reads or writes it. Each launcher enqueues its kernel on\n"
           "   `stream` and returns the launch error; it does not wait for the kernel. */\n");
  tl_buf_puts(out, "#ifndef ");
  guard(out, header_name);
  tl_buf_puts(out, "\n#define ");
  guard(out, header_name);
  tl_buf_puts(
      out,
      "\n\n"
      "/* cudaError_t and cudaStream_t: the C runtime API, which plain C compilers accept. */\n"
      "#include <cuda_runtime_api.h>\n\n"
      "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
  for (int i = 0; i < m->kernels.len; i++)
    if (!TL_VEC_AT(m->kernels, TlKernel, i)->is_fallback) // run by its kernel's launcher
      kernel_decl(out, m, TL_VEC_AT(m->kernels, TlKernel, i));
  for (int i = 0; i < m->kernels.len; i++)
    group_decl(out, m, i);
  tl_buf_puts(out, "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* ");
  guard(out, header_name);
  tl_buf_puts(out, " */\n");
}
