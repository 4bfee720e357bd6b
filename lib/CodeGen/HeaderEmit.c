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
// Only parameters are printed: shared tiles, fragments and the constant
// tables tlc computes (loop_layout inverses) are internal to the .cu.
#include "tlc/CodeGen.h"

#include <ctype.h>
#include <string.h>

// Names the CUDA emitter renames (lib/CodeGen/CudaEmit.c, c_ident), so that
// a parameter reads the same in the header as in the .cu. Parameter names
// are not part of the ABI; keeping them equal only helps the reader.
static const char *const cuda_reserved[] = {
    "auto",    "bool",      "break",   "case",      "char",     "class",    "const",   "continue",
    "default", "delete",    "do",      "double",    "else",     "enum",     "extern",  "float",
    "for",     "goto",      "if",      "inline",    "int",      "long",     "new",     "operator",
    "private", "protected", "public",  "register",  "return",   "short",    "signed",  "sizeof",
    "static",  "struct",    "switch",  "template",  "this",     "throw",    "try",     "typedef",
    "union",   "unsigned",  "virtual", "void",      "volatile", "while",    "half_t",  "bfloat16_t",
    "dim3",    "min",       "max",     "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize",
    "stream",  "err",       "smem",    NULL};

// Names that would break only the header: C11 keywords the list above lacks,
// C++ keywords and alternative operator spellings (`xor` is a valid .tl
// name but an operator token in C++), and the types the declaration itself
// uses after the parameters (a parameter named cudaStream_t would hide the
// type of the stream parameter that follows it).
static const char *const header_reserved[] = {
    // C11
    "restrict", "_Bool", "_Complex", "_Imaginary", "_Alignas", "_Alignof", "_Atomic", "_Generic",
    "_Noreturn", "_Static_assert", "_Thread_local",
    // C++ alternative operator spellings
    "and", "and_eq", "bitand", "bitor", "compl", "not", "not_eq", "or", "or_eq", "xor", "xor_eq",
    // C++ keywords
    "alignas", "alignof", "asm", "catch", "char16_t", "char32_t", "char8_t", "concept", "consteval",
    "constexpr", "constinit", "const_cast", "co_await", "co_return", "co_yield", "decltype",
    "dynamic_cast", "explicit", "export", "false", "friend", "mutable", "namespace", "noexcept",
    "nullptr", "reinterpret_cast", "requires", "static_assert", "static_cast", "thread_local",
    "true", "typeid", "typename", "using", "wchar_t",
    // names the declaration uses
    "cudaStream_t", "cudaError_t", "NULL", NULL};

static bool in_list(const char *const *list, const char *name) {
  for (int i = 0; list[i]; i++)
    if (strcmp(list[i], name) == 0) return true;
  return false;
}

// The parameter's name: the CUDA emitter's spelling, then a trailing '_' for
// names that only the header cannot use.
static void param_name(TlBuf *out, const char *name) {
  if (in_list(cuda_reserved, name)) {
    tl_buf_printf(out, "%s_", name);
    return;
  }
  if (strncmp(name, "tl_", 3) == 0 || strncmp(name, "__", 2) == 0) {
    tl_buf_printf(out, "u%s", name);
    return;
  }
  tl_buf_printf(out, "%s%s", name, in_list(header_reserved, name) ? "_" : "");
}

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

static void kernel_decl(TlBuf *out, const TlModule *m, const TlKernel *k) {
  long long threads = (long long)(k->threads[0] * k->threads[1] * k->threads[2]);
  tl_buf_printf(out, "/* %s (", k->name);
  comment_text(out, base_name(m->src->name));
  tl_buf_printf(out, ":%d): grid (%lld, %lld, %lld), threads (%lld, %lld, %lld) = %lld,\n",
                k->loc.line, (long long)k->grid_const[0], (long long)k->grid_const[1],
                (long long)k->grid_const[2], (long long)k->threads[0], (long long)k->threads[1],
                (long long)k->threads[2], threads);
  tl_buf_printf(out, "   %lld bytes of dynamic shared memory%s. */\n", (long long)k->shared_bytes,
                k->shared_bytes > 48 * 1024 ? " (the launcher opts in above 48 KB)" : "");
  // The column of the first parameter, so the others line up below it.
  size_t indent = strlen("cudaError_t ") + strlen(k->name) + 1;
  tl_buf_printf(out, "cudaError_t %s(", k->name);
  for (int i = 0; i < k->params.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->params, TlBuffer, i);
    if (i > 0) tl_buf_printf(out, ",\n%*s", (int)indent, "");
    tl_buf_puts(out, b->written ? "void *" : "const void *");
    param_name(out, b->name);
    tl_buf_printf(out, " /* %s[", tl_dtype_name(b->dtype));
    for (int d = 0; d < b->ndims; d++)
      tl_buf_printf(out, "%s%lld", d ? ", " : "", (long long)b->shape[d]);
    tl_buf_printf(out, "], %s */", access_text(b));
  }
  if (k->params.len > 0) tl_buf_printf(out, ",\n%*s", (int)indent, "");
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
    kernel_decl(out, m, TL_VEC_AT(m->kernels, TlKernel, i));
  tl_buf_puts(out, "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* ");
  guard(out, header_name);
  tl_buf_puts(out, " */\n");
}
