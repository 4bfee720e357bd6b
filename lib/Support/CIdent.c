// C identifiers: which source names clash with C11, C++20, CUDA, the
// headers a .cu file includes, or tlc's own names, and how they are renamed
// (include/tlc/CIdent.h states the rules and why the renaming is injective).
//
// The lists below are the single source of truth: the CUDA emitter, the
// launcher, the --header file and the --harness reference all call
// tl_cident, and Sema renames kernel names with it. A name only has to be
// listed once to be safe everywhere; a word listed needlessly costs nothing
// but a trailing '_'.
#include "tlc/CIdent.h"

#include <string.h>

// Words that are reserved in some output as they are spelled.
static const char *const words[] = {
    // C11 keywords (the _Xxx ones fall under the prefix rule)
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
    "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict",
    "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
    "unsigned", "void", "volatile", "while",
    // C11 header macros (stdbool, stdalign, stdnoreturn, complex)
    "bool", "true", "false", "noreturn", "complex", "imaginary",
    // C++20 keywords and alternative operator spellings (`xor` is a valid .tl
    // name but an operator token in C++)
    "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "catch", "char8_t", "char16_t",
    "char32_t", "class", "compl", "concept", "const_cast", "consteval", "constexpr", "constinit",
    "co_await", "co_return", "co_yield", "decltype", "delete", "dynamic_cast", "explicit", "export",
    "friend", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator",
    "or", "or_eq", "private", "protected", "public", "reinterpret_cast", "requires",
    "static_assert", "static_cast", "template", "this", "thread_local", "throw", "try", "typeid",
    "typename", "using", "virtual", "wchar_t", "xor", "xor_eq", "std",
    // CUDA: built-in variables and types, legacy keywords, and the types the
    // prelude defines
    "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "dim3", "texture", "surface",
    "half", "half2", "nv_bfloat16", "nv_bfloat162", "half_t", "bfloat16_t", "clock", "clock64",
    // stddef/stdint/stdio/time types
    "size_t", "ssize_t", "ptrdiff_t", "intptr_t", "uintptr_t", "intmax_t", "uintmax_t",
    "max_align_t", "nullptr_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
    "uint32_t", "uint64_t", "wint_t", "FILE", "div_t", "ldiv_t", "lldiv_t", "clock_t", "time_t",
    // object-like macros of the toolkit and C library headers without an
    // underscore (those with one fall under the upper-case rule); `linux` and
    // `unix` are defined to 1 by the host compiler in GNU mode
    "NULL", "EOF", "NAN", "SNAN", "SNANF", "SNANL", "SNANF32", "SNANF32X", "SNANF64", "SNANF64X",
    "INFINITY", "MAXFLOAT", "BUFSIZ", "NZERO", "NFDBITS", "CUDARTAPI", "WCONTINUED", "WEXITED",
    "WEXITSTATUS", "WIFCONTINUED", "WIFEXITED", "WIFSIGNALED", "WIFSTOPPED", "WNOHANG", "WNOWAIT",
    "WSTOPPED", "WSTOPSIG", "WTERMSIG", "WUNTRACED", "linux", "unix", "errno", "stdin", "stdout",
    "stderr", "environ", "assert", "assert_perror", "offsetof", "alloca", "isascii", "toascii",
    "issubnormal", "math_errhandling", "strdupa", "strndupa", "be16toh", "be32toh", "be64toh",
    "htobe16", "htobe32", "htobe64", "htole16", "htole32", "htole64", "le16toh", "le32toh",
    "le64toh",
    // C library and POSIX functions declared at file scope, which a kernel
    // name (a C symbol) must not redeclare
    "main", "exit", "abort", "atexit", "malloc", "calloc", "realloc", "free", "printf", "fprintf",
    "sprintf", "snprintf", "puts", "putchar", "fputs", "fflush", "fopen", "fclose", "fread",
    "fwrite", "remove", "rename", "tmpfile", "perror", "memcpy", "memmove", "memset", "memcmp",
    "memchr", "strlen", "strcmp", "strncmp", "strcpy", "strncpy", "strcat", "strchr", "strrchr",
    "strstr", "strdup", "strtol", "strtoul", "strtoll", "strtoull", "strtod", "strtof", "atoi",
    "atol", "atoll", "atof", "qsort", "bsearch", "rand", "srand", "random", "srandom", "getenv",
    "setenv", "system", "time", "sleep", "usleep", "read", "write", "open", "close", "select",
    "index", "rindex", "signal", "kill", "sync", "div", "ldiv", "lldiv", "abs", "labs", "llabs",
    // names the emitted code declares without tlc's prefix (the launcher's
    // stream, smem and err)
    "stream", "smem", "err",
    // device and math functions (the C99 float/long double forms, with a
    // trailing f or l, are matched by math_word)
    "min", "max", "umin", "umax", "llmin", "llmax", "ullmin", "ullmax", "saturate", "rsqrt",
    "rcbrt", "sinpi", "cospi", "sincos", "sincospi", "exp10", "erfinv", "erfcinv", "erfcx",
    "normcdf", "normcdfinv", "norm", "norm3d", "norm4d", "rnorm", "rnorm3d", "rnorm4d", "rhypot",
    "fdivide", "j0", "j1", "jn", "y0", "y1", "yn", "gamma", "drem", "finite", "significand",
    "scalb", "scalbln", "nexttoward", "isnan", "isinf", "isfinite", "isnormal", "signbit",
    "fpclassify", NULL};

// The C99 math functions: each is also declared with a trailing f (float)
// and l (long double).
static const char *const math[] = {
    "acos",      "acosh",     "asin",  "asinh",     "atan",   "atan2",  "atanh",   "cbrt",
    "ceil",      "copysign",  "cos",   "cosh",      "erf",    "erfc",   "exp",     "exp2",
    "expm1",     "fabs",      "fdim",  "floor",     "fma",    "fmax",   "fmin",    "fmod",
    "frexp",     "hypot",     "ilogb", "ldexp",     "lgamma", "llrint", "llround", "log",
    "log10",     "log1p",     "log2",  "logb",      "lrint",  "lround", "modf",    "nan",
    "nearbyint", "nextafter", "pow",   "remainder", "remquo", "rint",   "round",   "scalbn",
    "sin",       "sinh",      "sqrt",  "tan",       "tanh",   "tgamma", "trunc",   "exp10",
    "rsqrt",     "sincos",    "sinpi", "cospi",     NULL};

static bool in_list(const char *const *list, const char *s, size_t n) {
  for (int i = 0; list[i]; i++)
    if (strlen(list[i]) == n && memcmp(list[i], s, n) == 0) return true;
  return false;
}

static bool math_word(const char *s, size_t n) {
  if (in_list(math, s, n)) return true;
  return n > 1 && (s[n - 1] == 'f' || s[n - 1] == 'l') && in_list(math, s, n - 1);
}

static bool is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}
static bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

static bool starts_nocase(const char *s, const char *prefix) {
  for (; *prefix; s++, prefix++)
    if ((*s | 0x20) != *prefix) return false;
  return true;
}

// CUDA's vector types (char1..4, uchar1..4, ..., double1..4) and their
// make_ functions.
static bool vector_type(const char *s, size_t n) {
  static const char *const bases[] = {"char",  "uchar",  "short", "ushort",   "int",
                                      "uint",  "long",   "ulong", "longlong", "ulonglong",
                                      "float", "double", NULL};
  if (n > 5 && memcmp(s, "make_", 5) == 0) return vector_type(s + 5, n - 5);
  return n > 1 && s[n - 1] >= '1' && s[n - 1] <= '4' && in_list(bases, s, n - 1);
}

// Upper-case names with an underscore are the C library's and the toolkit's
// macro namespace (INT_MAX, SIZE_MAX, EXIT_SUCCESS, CUDART_INF_FP16), like
// M_ followed by an upper-case letter (M_PI, M_PIf, M_LN2l).
static bool macro_like(const char *s, size_t n) {
  if (n > 2 && s[0] == 'M' && s[1] == '_' && (is_upper(s[2]) || is_digit(s[2]))) return true;
  bool underscore = false, upper = false;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '_')
      underscore = true;
    else if (is_upper(s[i]))
      upper = true;
    else if (!is_digit(s[i]))
      return false;
  }
  return underscore && upper;
}

static bool ends_with(const char *s, size_t n, const char *suffix) {
  size_t m = strlen(suffix);
  return n > m && memcmp(s + n - m, suffix, m) == 0;
}

// Names whose start belongs to someone else: tlc's emitted helpers and
// harness (tl_, tlh_, tlr_, TlhTensor, TLH_, TLC_), the CUDA runtime and
// cuBLAS (cudaMalloc, CUDA_R_16F, cublasCreate), and the implementation
// (__x, _X). Leading 'u's are skipped so that an escaped name is escaped
// again (utl_x -> uutl_x) instead of meeting the escape of tl_x.
static bool prefix_clash(const char *name) {
  const char *s = name;
  while (*s == 'u')
    s++;
  if (s[0] == '_' && (s[1] == '_' || is_upper(s[1]))) return true;
  return starts_nocase(s, "tl") || starts_nocase(s, "cuda") || starts_nocase(s, "cublas");
}

// Names that clash as a whole word. Trailing '_'s are ignored so that
// namespace_ (which could be the rename of namespace) is renamed too.
static bool word_clash(const char *name, TlCIdentScope scope) {
  size_t n = strlen(name);
  while (n > 0 && name[n - 1] == '_')
    n--;
  if (n == 0) return false;
  if (in_list(words, name, n) || math_word(name, n) || vector_type(name, n) || macro_like(name, n))
    return true;
  // tlc's derived names: the kernel of a launcher (NAME_kernel, which the
  // launcher calls with the parameters in scope) and the harness reference
  // (NAME_ref).
  if (ends_with(name, n, "_kernel") || ends_with(name, n, "_ref")) return true;
  if (scope == TL_CIDENT_GLOBAL) return false;
  // Numbered variables (x_3, tl_cident_numbered) share a kernel's scope with
  // its buffers; kernels, at file scope, never meet them.
  size_t d = n;
  while (d > 0 && is_digit(name[d - 1]))
    d--;
  return d < n && d > 0 && name[d - 1] == '_';
}

bool tl_cident_clashes(const char *name, TlCIdentScope scope) {
  return prefix_clash(name) || word_clash(name, scope);
}

const char *tl_cident(TlArena *a, const char *name, TlCIdentScope scope) {
  bool prefix = prefix_clash(name), word = word_clash(name, scope);
  if (!prefix && !word) return name;
  return tl_arena_printf(a, "%s%s%s", prefix ? "u" : "", name, word ? "_" : "");
}

const char *tl_cident_numbered(TlArena *a, const char *name, int id) {
  return tl_arena_printf(a, "%s%s_%d", prefix_clash(name) ? "u" : "", name, id);
}
