// `tlc tune FILE --call 'F(ARGS)' [--space NAME=V1,V2 ...]`: the autotuner.
// Timing kernels means running them, compiled by nvcc, on a GPU, and the
// bookkeeping (candidates, harness runs, the YAML tune file) lives in the
// Python package python/tlc/ (tune.py), so this command only finds that
// package and replaces itself with `python3 -m tlc tune ARGS...`:
//
//   <dir of tlc>/../share/tlc/python   an installed tlc (cmake --install)
//   TLC_SOURCE_DIR/python              the build tree
//
// TLC_BIN is set to this binary, so the package runs the same tlc.
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tlc/Driver.h"
#include "tlc/Support.h"

static bool is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

// Where the package is; false when neither place has it.
static bool package_root(const char *exe_dir, char *out, size_t size) {
  snprintf(out, size, "%s/../share/tlc/python", exe_dir);
  char pkg[PATH_MAX + 64];
  snprintf(pkg, sizeof pkg, "%s/tlc", out);
  if (is_dir(pkg)) return true;
#ifdef TLC_SOURCE_DIR
  snprintf(out, size, "%s/python", TLC_SOURCE_DIR);
  snprintf(pkg, sizeof pkg, "%s/tlc", out);
  if (is_dir(pkg)) return true;
#endif
  return false;
}

int tl_tune_main(int argc, char **argv) {
  char exe[PATH_MAX], root[PATH_MAX + 32];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) {
    fprintf(stderr, "tlc tune: error: cannot find the tlc binary (/proc/self/exe)\n");
    return 2;
  }
  exe[n] = '\0';
  setenv("TLC_BIN", exe, 1);
  *strrchr(exe, '/') = '\0'; // readlink gives an absolute path: there is a slash
  if (!package_root(exe, root, sizeof root)) {
    fprintf(stderr,
            "tlc tune: error: the tlc Python package is not installed next to tlc "
            "(expected %s/tlc)\n",
            root);
    return 2;
  }
  // The arena (the only allocator, lib/Support/Arena.c) is never freed:
  // execvp replaces the process, and on failure we exit right after.
  TlArena arena;
  tl_arena_init(&arena);
  const char *old = getenv("PYTHONPATH");
  setenv("PYTHONPATH", old && *old ? tl_arena_printf(&arena, "%s:%s", root, old) : root, 1);
  // python3 -m tlc tune ARGS... (argv[0] is "tune")
  char **args = TL_NEW_ARRAY(&arena, char *, argc + 4);
  args[0] = "python3";
  args[1] = "-m";
  args[2] = "tlc";
  for (int i = 0; i < argc; i++)
    args[3 + i] = argv[i];
  execvp("python3", args);
  fprintf(stderr, "tlc tune: error: cannot run python3: %s\n", strerror(errno));
  tl_arena_free(&arena);
  return 2;
}
