// The check macro the C unit tests share: a failed condition prints
// file:line and the condition and counts a failure; the test's main returns
// `failures != 0` so ctest sees it.
#ifndef TLC_TEST_CHECK_H
#define TLC_TEST_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                     \
      failures++;                                                                                  \
    }                                                                                              \
  } while (0)

#endif
