// The checks the C unit tests share. A failed check prints file:line, the
// condition and (CHECK_MSG) a printf-style message, and counts a failure;
// only the first 20 are printed, so a broken loop of checks stays readable.
// A test's main returns check_result("name"): 0 when no check failed.
#ifndef TLC_TEST_CHECK_H
#define TLC_TEST_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK_FAILED(cond)                                                                         \
  (++failures <= 20 && fprintf(stderr, "%s:%d: check failed: %s", __FILE__, __LINE__, #cond) > 0)

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond) && CHECK_FAILED(cond)) fputc('\n', stderr);                                        \
  } while (0)

#define CHECK_MSG(cond, ...)                                                                       \
  do {                                                                                             \
    if (!(cond) && CHECK_FAILED(cond)) {                                                           \
      fputs(": ", stderr);                                                                         \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
    }                                                                                              \
  } while (0)

// The exit status of a test: 1, after saying how many checks failed, or 0.
static inline int check_result(const char *test) {
  if (failures) {
    fprintf(stderr, "%s: %d check(s) failed\n", test, failures);
    return 1;
  }
  printf("%s: all checks passed\n", test);
  return 0;
}

#endif
