// Unit tests of the C identifier renaming (lib/Support/CIdent.c): the
// spellings the emitters print for clashing names, names that must stay as
// they are, and the two properties the emitters rely on: the renaming is
// injective (checked exhaustively over short names and over every keyword
// with every affix), and a renamed buffer never meets a numbered variable.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tlc/CIdent.h"

static void expect(TlArena *a, const char *name, TlCIdentScope scope, const char *want) {
  const char *got = tl_cident(a, name, scope);
  if (strcmp(got, want) != 0) {
    fprintf(stderr, "  tl_cident(\"%s\", %s) = \"%s\", want \"%s\"\n", name,
            scope == TL_CIDENT_LOCAL ? "LOCAL" : "GLOBAL", got, want);
    failures++;
  }
  CHECK(tl_cident_clashes(name, scope) == (strcmp(name, want) != 0));
}

// Words from every list: the names issue 14 reported, C++20, C11, CUDA,
// macros, libc, math (with the f/l forms), vector types.
static const char *const keywords[] = {"namespace",
                                       "using",
                                       "template",
                                       "class",
                                       "typename",
                                       "this",
                                       "new",
                                       "delete",
                                       "operator",
                                       "private",
                                       "public",
                                       "protected",
                                       "virtual",
                                       "friend",
                                       "explicit",
                                       "export",
                                       "mutable",
                                       "register",
                                       "thread_local",
                                       "alignas",
                                       "alignof",
                                       "decltype",
                                       "constexpr",
                                       "consteval",
                                       "constinit",
                                       "co_await",
                                       "co_yield",
                                       "co_return",
                                       "concept",
                                       "requires",
                                       "static_assert",
                                       "nullptr",
                                       "true",
                                       "false",
                                       "bool",
                                       "restrict",
                                       "xor",
                                       "bitand",
                                       "threadIdx",
                                       "blockIdx",
                                       "blockDim",
                                       "gridDim",
                                       "warpSize",
                                       "dim3",
                                       "half",
                                       "half_t",
                                       "bfloat16_t",
                                       "stream",
                                       "smem",
                                       "err",
                                       "min",
                                       "max",
                                       "exp",
                                       "expf",
                                       "expl",
                                       "sqrtf",
                                       "rsqrtf",
                                       "fmaxf",
                                       "isnan",
                                       "float4",
                                       "uint2",
                                       "make_float4",
                                       "int32_t",
                                       "size_t",
                                       "NULL",
                                       "EOF",
                                       "INFINITY",
                                       "INT_MAX",
                                       "M_PI",
                                       "M_PIf",
                                       "linux",
                                       "unix",
                                       "assert",
                                       "main",
                                       "printf",
                                       "index",
                                       "std",
                                       "FILE",
                                       NULL};

static void test_spellings(TlArena *a) {
  // Keywords get a trailing '_'.
  for (int i = 0; keywords[i]; i++) {
    char want[64];
    snprintf(want, sizeof want, "%s_", keywords[i]);
    expect(a, keywords[i], TL_CIDENT_LOCAL, want);
    expect(a, keywords[i], TL_CIDENT_GLOBAL, want);
  }
  // tlc's prefixes, the toolkit's and the implementation's get a 'u'.
  expect(a, "tl_x", TL_CIDENT_LOCAL, "utl_x");
  expect(a, "TL_X", TL_CIDENT_LOCAL, "uTL_X_"); // also upper case with '_' (macros)
  expect(a, "tlh_run", TL_CIDENT_LOCAL, "utlh_run");
  expect(a, "Tlx", TL_CIDENT_LOCAL, "uTlx");
  expect(a, "cudaMalloc", TL_CIDENT_GLOBAL, "ucudaMalloc");
  expect(a, "cudaStream_t", TL_CIDENT_LOCAL, "ucudaStream_t");
  expect(a, "cublasCreate", TL_CIDENT_GLOBAL, "ucublasCreate");
  expect(a, "__x", TL_CIDENT_LOCAL, "u__x");
  expect(a, "_Bool", TL_CIDENT_LOCAL, "u_Bool");
  expect(a, "__global__", TL_CIDENT_LOCAL, "u__global__");
  // Names that look renamed are renamed again.
  expect(a, "utl_x", TL_CIDENT_LOCAL, "uutl_x");
  expect(a, "namespace_", TL_CIDENT_LOCAL, "namespace__");
  // tlc's derived names: NAME_kernel, NAME_ref; x_3 only for buffers.
  expect(a, "scale_ref", TL_CIDENT_GLOBAL, "scale_ref_");
  expect(a, "add_kernel", TL_CIDENT_LOCAL, "add_kernel_");
  expect(a, "bx_0", TL_CIDENT_LOCAL, "bx_0_");
  expect(a, "gemm_1000", TL_CIDENT_GLOBAL, "gemm_1000");
  expect(a, "gemm_1000", TL_CIDENT_LOCAL, "gemm_1000_");
  // Ordinary names stay.
  static const char *const plain[] = {
      "A",      "B_shared", "C_local", "acc_s",      "scores_max_prev",
      "x_",     "u",        "_",       "_x",         "tile",
      "title",  "K",        "QK",      "Q_s",        "X_sq",
      "bx",     "v2",       "x_v2",    "float8",     "maxi",
      "expo",   "kernel",   "ref",     "acc_s_cast", "ux",
      "makeup", "M_",       "M",       "add_f32",    NULL};
  for (int i = 0; plain[i]; i++) {
    expect(a, plain[i], TL_CIDENT_LOCAL, plain[i]);
    expect(a, plain[i], TL_CIDENT_GLOBAL, plain[i]);
  }
  // C library globals clash only as kernel names (file scope); glibc's
  // _FloatN math forms clash everywhere, like the f and l forms.
  expect(a, "ulong", TL_CIDENT_LOCAL, "ulong");
  expect(a, "ulong", TL_CIDENT_GLOBAL, "ulong_");
  expect(a, "getline", TL_CIDENT_LOCAL, "getline");
  expect(a, "getline", TL_CIDENT_GLOBAL, "getline_");
  expect(a, "getline_", TL_CIDENT_GLOBAL, "getline__");
  expect(a, "pthread_t", TL_CIDENT_GLOBAL, "pthread_t_");
  expect(a, "acosf32", TL_CIDENT_LOCAL, "acosf32_");
  // Numbered variables: the prefix rule only.
  CHECK(strcmp(tl_cident_numbered(a, "i", 3), "i_3") == 0);
  CHECK(strcmp(tl_cident_numbered(a, "class", 0), "class_0") == 0);
  CHECK(strcmp(tl_cident_numbered(a, "tl_gemm", 4), "utl_gemm_4") == 0);
  CHECK(strcmp(tl_cident_numbered(a, "__x", 1), "u__x_1") == 0);
}

// Every identifier over a small alphabet that reaches every rule ('u' for
// the escape, "tl", '_' and 'A' for the prefixes, '0' for numbered names),
// then every keyword with every affix.
static int gen_names(TlArena *a, const char ***out) {
  static const char alpha[] = "ut_lA0";
  int cap = 1 << 16, n = 0;
  const char **names = malloc(sizeof *names * (size_t)cap);
  char buf[8];
  for (int len = 1; len <= 5; len++) {
    int total = 1;
    for (int i = 0; i < len; i++)
      total *= 6;
    for (int code = 0; code < total; code++) {
      int c = code;
      for (int i = 0; i < len; i++, c /= 6)
        buf[i] = alpha[c % 6];
      buf[len] = '\0';
      if (buf[0] == '0') continue;
      names[n++] = tl_arena_strdup(a, buf);
    }
  }
  static const char *const pre[] = {"", "u", "uu", "tl_", "utl_", "__", "u__", "_A", NULL};
  static const char *const post[] = {"",        "_",        "__",   "_0", "_0_",
                                     "_kernel", "_kernel_", "_ref", NULL};
  for (int k = 0; keywords[k]; k++)
    for (int p = 0; pre[p]; p++)
      for (int q = 0; post[q]; q++) {
        if (n == cap) {
          cap *= 2;
          names = realloc(names, sizeof *names * (size_t)cap);
        }
        names[n++] = tl_arena_printf(a, "%s%s%s", pre[p], keywords[k], post[q]);
      }
  *out = names;
  return n;
}

static int cmp_str(const void *x, const void *y) {
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static bool ends_numbered(const char *s) {
  size_t n = strlen(s), d = n;
  while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9')
    d--;
  return d < n && d > 0 && s[d - 1] == '_';
}

static void test_injective(TlArena *a) {
  const char **names;
  int n = gen_names(a, &names);
  qsort(names, (size_t)n, sizeof *names, cmp_str);
  int m = 0; // drop duplicates among the inputs (keyword affixes may repeat)
  for (int i = 0; i < n; i++)
    if (m == 0 || strcmp(names[m - 1], names[i]) != 0) names[m++] = names[i];
  const char **img = malloc(sizeof *img * (size_t)m);
  for (int scope = TL_CIDENT_LOCAL; scope <= TL_CIDENT_GLOBAL; scope++) {
    for (int i = 0; i < m; i++) {
      img[i] = tl_cident(a, names[i], (TlCIdentScope)scope);
      // A buffer never takes the form of a numbered variable (x_3).
      if (scope == TL_CIDENT_LOCAL && ends_numbered(img[i])) {
        fprintf(stderr, "  \"%s\" -> \"%s\" looks like a numbered variable\n", names[i], img[i]);
        failures++;
      }
      // A renamed name is never a keyword itself.
      for (int k = 0; keywords[k]; k++)
        if (strcmp(img[i], keywords[k]) == 0) {
          fprintf(stderr, "  \"%s\" -> \"%s\" is a keyword\n", names[i], img[i]);
          failures++;
        }
    }
    qsort(img, (size_t)m, sizeof *img, cmp_str);
    for (int i = 1; i < m; i++)
      if (strcmp(img[i - 1], img[i]) == 0) {
        fprintf(stderr, "  two names are both spelled \"%s\"\n", img[i]);
        failures++;
      }
  }
  printf("%d names renamed injectively\n", m);
  free(img);
  free(names);
}

int main(void) {
  TlArena a;
  tl_arena_init(&a);
  test_spellings(&a);
  test_injective(&a);
  tl_arena_free(&a);
  return check_result("cident_test");
}
