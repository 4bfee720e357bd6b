// tlc-verify: checks the meaning of the CUDA that tlc emits. It parses the
// .cu with libclang as CUDA device code against a small prelude (built into
// the binary), lowers the AST, and runs six checks: the file parses,
// barriers are not under divergent control flow, shared memory fits and is
// requested by the launcher, shared-memory accesses stay in bounds, accesses
// of different threads (and of cp.async and wgmma) are ordered, and each
// kernel has a matching host launcher. Findings print clang-style.
#include "Verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const unsigned char tv_prelude_bytes[]; // PreludeData.c, generated from tlc_verify_prelude.h
#define tv_prelude_text ((const char *)tv_prelude_bytes)
extern const size_t tv_prelude_len;

// Where the built-in prelude appears to clang; it exists only in memory.
#define PRELUDE_PATH "/tlc-verify-prelude/tlc_verify_prelude.h"

static const char usage[] =
    "usage: tlc-verify FILE.cu [--target sm_80|sm_90|sm_90a] [--list-undeclared]\n"
    "                          [--prelude FILE] [--print-prelude] [--list-prelude-names] [--help]\n"
    "\n"
    "Checks CUDA written by tlc: it parses, barriers are block-uniform, shared\n"
    "memory fits the target and is requested by the launcher, shared-memory\n"
    "accesses stay in bounds and are ordered between threads (barriers,\n"
    "cp.async and wgmma groups), and each kernel has a matching launcher.\n"
    "\n"
    "options:\n"
    "  --target SM        limits of sm_90 (default, 232448 bytes of shared memory\n"
    "                     per block) or sm_80 (166912)\n"
    "  --list-undeclared  print the names the file uses that the prelude does not\n"
    "                     declare, one per line (and other parse errors)\n"
    "  --prelude FILE     parse against FILE instead of the built-in prelude\n"
    "  --print-prelude    print the built-in prelude and exit\n"
    "  --list-prelude-names  print the names the prelude declares, one per line,\n"
    "                     and exit (test/Verify checks each is exercised)\n"
    "  --help             print this help\n"
    "\n"
    "exit status: 0 clean, 1 findings, 2 usage errors or unreadable input\n";

static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "tlc-verify: error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(run tlc-verify --help for usage)\n");
  return 2;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) free(buf);
      buf = nb;
    }
  }
  fclose(f);
  if (!buf) return NULL;
  char *out = tv_strndup(buf, n);
  free(buf);
  *len = n;
  return out;
}

static bool set_target(TvProgram *p, const char *t) {
  if (!strcmp(t, "sm_90") || !strcmp(t, "sm_90a")) {
    p->target_sm = 90;
    p->smem_limit = 232448;
  } else if (!strcmp(t, "sm_80")) {
    p->target_sm = 80;
    p->smem_limit = 166912;
  } else {
    return false;
  }
  return true;
}

// clang arguments: clang 14 knows no sm_90, and the target only matters for
// the limits tlc-verify applies itself, so the parse is for sm_80.
// --cuda-path points nowhere so that an installed toolkit cannot change how
// clang behaves.
#define CLANG_ARGS(prelude)                                                                        \
  {                                                                                                \
    "-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",                                \
        "--cuda-path=/nonexistent/tlc-verify", "--cuda-gpu-arch=sm_80", "-std=c++17", "-include",  \
        (prelude), "-ferror-limit=0"                                                               \
  }

static TvVec prelude_names;

static enum CXChildVisitResult collect_names(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  (void)data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl || k == CXCursor_EnumDecl)
    clang_visitChildren(c, collect_names, NULL);
  if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate && k != CXCursor_StructDecl &&
      k != CXCursor_TypedefDecl && k != CXCursor_VarDecl && k != CXCursor_EnumConstantDecl &&
      k != CXCursor_EnumDecl)
    return CXChildVisit_Continue;
  CXFile f;
  clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
  CXString fn = clang_getFileName(f);
  bool in_prelude = f && strstr(clang_getCString(fn), "tlc_verify_prelude") != NULL;
  clang_disposeString(fn);
  CXString s = clang_getCursorSpelling(c);
  const char *name = tv_strdup(clang_getCString(s));
  clang_disposeString(s);
  if (in_prelude && name[0] && strncmp(name, "operator", 8)) tv_push(&prelude_names, (void *)name);
  return CXChildVisit_Continue;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

// The names the built-in prelude declares: parse an empty file against it.
static int list_prelude_names(void) {
  const char *args[] = CLANG_ARGS(PRELUDE_PATH);
  struct CXUnsavedFile files[] = {{PRELUDE_PATH, tv_prelude_text, (unsigned long)tv_prelude_len},
                                  {"/tlc-verify-prelude/empty.cu", "", 0}};
  CXIndex index = clang_createIndex(0, 0);
  CXTranslationUnit tu;
  if (clang_parseTranslationUnit2(index, files[1].Filename, args,
                                  (int)(sizeof args / sizeof args[0]), files, 2,
                                  CXTranslationUnit_KeepGoing, &tu) != CXError_Success) {
    fputs("tlc-verify: error: cannot parse the prelude\n", stderr);
    return 2;
  }
  clang_visitChildren(clang_getTranslationUnitCursor(tu), collect_names, NULL);
  if (prelude_names.len > 1) qsort(prelude_names.items, (size_t)prelude_names.len, sizeof(void *), cmp_str);
  for (int i = 0; i < prelude_names.len; i++)
    if (i == 0 || strcmp(prelude_names.items[i], prelude_names.items[i - 1]))
      printf("%s\n", (const char *)prelude_names.items[i]);
  clang_disposeTranslationUnit(tu);
  clang_disposeIndex(index);
  return 0;
}

static int run(int argc, char **argv) {
  TvProgram p = {0};
  set_target(&p, "sm_90");
  bool list_undeclared = false;
  const char *prelude = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage, stdout);
      return 0;
    } else if (!strcmp(a, "--print-prelude")) {
      fwrite(tv_prelude_text, 1, tv_prelude_len, stdout);
      return 0;
    } else if (!strcmp(a, "--list-prelude-names")) {
      return list_prelude_names();
    } else if (!strcmp(a, "--list-undeclared")) {
      list_undeclared = true;
    } else if (!strcmp(a, "--target") || !strcmp(a, "--prelude")) {
      if (i + 1 == argc) return usage_error("%s needs a value", a);
      if (a[2] == 'p')
        prelude = argv[++i];
      else if (!set_target(&p, argv[++i]))
        return usage_error("unknown target '%s' (sm_80, sm_90 or sm_90a)", argv[i]);
    } else if (!strncmp(a, "--target=", 9)) {
      if (!set_target(&p, a + 9))
        return usage_error("unknown target '%s' (sm_80, sm_90 or sm_90a)", a + 9);
    } else if (!strncmp(a, "--prelude=", 10)) {
      prelude = a + 10;
    } else if (a[0] == '-' && a[1]) {
      return usage_error("unknown option '%s'", a);
    } else if (p.path) {
      return usage_error("more than one input file ('%s')", a);
    } else {
      p.path = a;
    }
  }
  if (!p.path) return usage_error("%s", "no input file");
  p.text = read_file(p.path, &p.text_len);
  if (!p.text) {
    fprintf(stderr, "tlc-verify: error: cannot read '%s'\n", p.path);
    return 2;
  }

  const char *args[] = CLANG_ARGS(prelude ? prelude : PRELUDE_PATH);
  struct CXUnsavedFile unsaved = {PRELUDE_PATH, tv_prelude_text, (unsigned long)tv_prelude_len};
  CXIndex index = clang_createIndex(0, 0);
  enum CXErrorCode rc = clang_parseTranslationUnit2(
      index, p.path, args, (int)(sizeof args / sizeof args[0]), prelude ? NULL : &unsaved,
      prelude ? 0 : 1, CXTranslationUnit_KeepGoing, &p.tu);
  if (rc != CXError_Success) {
    fprintf(stderr, "tlc-verify: error: libclang could not parse '%s' (error %d)\n", p.path,
            (int)rc);
    clang_disposeIndex(index);
    return 2;
  }

  int undeclared = 0;
  tv_check_parse(&p, list_undeclared, &undeclared);
  // The other checks need a sound AST; on parse errors report those only.
  if (tv_error_count() == 0 && !list_undeclared) {
    tv_lower(&p);
    tv_model(&p);
    tv_check_barriers(&p);
    tv_check_shared_budget(&p);
    tv_check_shared_bounds(&p);
    tv_check_shared_hazards(&p);
    tv_check_launchers(&p);
  }
  tv_print_findings();
  clang_disposeTranslationUnit(p.tu);
  clang_disposeIndex(index);
  return tv_error_count() || undeclared ? 1 : 0;
}

int main(int argc, char **argv) {
  int rc = run(argc, argv);
  tv_free_all();
  return rc;
}
