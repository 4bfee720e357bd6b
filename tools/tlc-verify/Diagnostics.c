// Check 1: the file parses as CUDA device code against the prelude. Every
// clang error becomes a finding at clang's location. --list-undeclared turns
// name-lookup errors into a list of names, which is what "the prelude is out
// of step with tlc's output" looks like.
#include "Verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The quoted name in a lookup failure, or NULL.
static const char *undeclared_name(const char *msg) {
  static const char *const prefixes[] = {"use of undeclared identifier '",
                                         "unknown type name '",
                                         "no template named '",
                                         "no member named '",
                                         "no matching function for call to '",
                                         NULL};
  for (int i = 0; prefixes[i]; i++) {
    size_t n = strlen(prefixes[i]);
    if (strncmp(msg, prefixes[i], n)) continue;
    const char *end = strchr(msg + n, '\'');
    return end ? tv_strndup(msg + n, (size_t)(end - msg - n)) : NULL;
  }
  return NULL;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

void tv_check_parse(TvProgram *p, bool list_undeclared, int *undeclared) {
  TvVec names = {0};
  unsigned n = clang_getNumDiagnostics(p->tu);
  CXFile main_file = clang_getFile(p->tu, p->path);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(p->tu, i);
    if (clang_getDiagnosticSeverity(d) < CXDiagnostic_Error) {
      clang_disposeDiagnostic(d);
      continue;
    }
    CXString s = clang_getDiagnosticSpelling(d);
    const char *msg = tv_strdup(clang_getCString(s));
    clang_disposeString(s);
    TvLoc loc = {0};
    CXFile f;
    clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &loc.line, &loc.col, NULL);
    if (f && main_file && clang_File_isEqual(f, main_file)) {
      loc.file = p->path;
    } else if (f) {
      CXString fn = clang_getFileName(f);
      loc.file = tv_strdup(clang_getCString(fn));
      clang_disposeString(fn);
    }
    clang_disposeDiagnostic(d);
    const char *name = list_undeclared ? undeclared_name(msg) : NULL;
    if (name)
      tv_push(&names, (void *)name);
    else
      tv_error(loc, "%s", msg);
  }
  if (names.len > 1) qsort(names.items, (size_t)names.len, sizeof(void *), cmp_str);
  for (int i = 0; i < names.len; i++)
    if (i == 0 || strcmp(names.items[i], names.items[i - 1]))
      printf("%s\n", (const char *)names.items[i]);
  *undeclared = names.len;
}
