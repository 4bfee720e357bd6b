// Unit tests of the target descriptions (lib/Target/Target.c): both shipped
// files load with the documented values, and broken files in a
// TLC_TARGETS_DIR give errors that name the file, the line and the field.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "tlc/Target.h"

// Checks that err contains every one of the NULL-terminated fragments.
static void expect_error(const char *err, ...) {
  va_list ap;
  va_start(ap, err);
  for (const char *frag; (frag = va_arg(ap, const char *));) {
    if (!strstr(err, frag)) {
      fprintf(stderr, "  error \"%s\" lacks \"%s\"\n", err, frag);
      failures++;
    }
  }
  va_end(ap);
}

// sm_90a: the same chip with its arch-specific features (wgmma), the default.
static void test_sm90a(TlArena *a) {
  TlTarget t;
  char err[512] = "";
  bool ok = tl_target_load(a, "sm_90a", &t, err, sizeof err);
  if (!ok)
    fprintf(stderr, "  sm_90a: %s\n", err);
  CHECK(ok);
  if (!ok)
    return;
  CHECK(strcmp(t.name, "sm_90a") == 0 && t.sm == 90);
  CHECK(t.has_cp_async && t.has_wgmma && t.has_tma);
  CHECK(strcmp(t.nvcc_arch, "-gencode=arch=compute_90a,code=sm_90a") == 0);
  CHECK(t.max_shared_bytes == 232448 && t.wgmma_flops_per_cycle_sm == 4096.0);
}

static void test_sm90(TlArena *a, const char **source_path) {
  TlTarget t;
  char err[512] = "";
  bool ok = tl_target_load(a, "sm_90", &t, err, sizeof err);
  if (!ok)
    fprintf(stderr, "  sm_90: %s\n", err);
  CHECK(ok);
  if (!ok)
    return;
  *source_path = t.path;
  CHECK(strcmp(t.name, "sm_90") == 0);
  CHECK(strstr(t.description, "H200") != NULL);
  CHECK(t.sm == 90);
  CHECK(t.max_shared_bytes == 232448);
  CHECK(t.default_shared_bytes == 49152);
  CHECK(t.shared_per_sm_bytes == 233472);
  CHECK(t.max_threads_per_block == 1024);
  CHECK(t.max_vector_bits == 128);
  CHECK(t.has_cp_async && !t.has_wgmma && t.has_tma); // wgmma needs sm_90a
  CHECK(strcmp(t.nvcc_arch, "-arch=sm_90") == 0);
  CHECK(t.sm_count == 132);
  CHECK(t.clock_ghz == 1.98);
  CHECK(t.dram_bandwidth_gbs == 4800.0);
  CHECK(t.dram_latency_cycles >= 600 && t.dram_latency_cycles <= 800);
  CHECK(t.wgmma_flops_per_cycle_sm == 4096.0);
  // mma.sync: about two thirds of the wgmma rate.
  CHECK(t.tensor_flops_per_cycle_sm > 0.6 * 4096 && t.tensor_flops_per_cycle_sm < 0.7 * 4096);
  // 989 TFLOP/s dense at the 1.83 GHz the datasheet peak uses.
  double tflops = t.wgmma_flops_per_cycle_sm * t.sm_count * 1.83e9 / 1e12;
  CHECK(tflops > 989.0 && tflops < 990.0);
}

static void test_sm80(TlArena *a) {
  TlTarget t;
  char err[512] = "";
  bool ok = tl_target_load(a, "sm_80", &t, err, sizeof err);
  if (!ok)
    fprintf(stderr, "  sm_80: %s\n", err);
  CHECK(ok);
  if (!ok)
    return;
  CHECK(strcmp(t.name, "sm_80") == 0);
  CHECK(strstr(t.description, "A100") != NULL);
  CHECK(t.sm == 80);
  CHECK(t.max_shared_bytes == 166912);
  CHECK(t.default_shared_bytes == 49152);
  CHECK(t.shared_per_sm_bytes == 167936);
  CHECK(t.max_threads_per_block == 1024);
  CHECK(t.max_vector_bits == 128);
  CHECK(t.has_cp_async && !t.has_wgmma && !t.has_tma);
  CHECK(t.sm_count == 108);
  CHECK(t.clock_ghz == 1.41);
  CHECK(t.dram_bandwidth_gbs == 2039.0);
  CHECK(t.dram_latency_cycles > 0);
  CHECK(t.tensor_flops_per_cycle_sm == 2048.0);
  CHECK(t.wgmma_flops_per_cycle_sm == 0.0);
  // 312 TFLOP/s dense fp16, the A100 datasheet's figure.
  double tflops = t.tensor_flops_per_cycle_sm * t.sm_count * t.clock_ghz * 1e9 / 1e12;
  CHECK(tflops > 311.0 && tflops < 313.0);
}

static void test_unknown(TlArena *a) {
  TlTarget t;
  char err[512] = "";
  CHECK(!tl_target_load(a, "sm_75", &t, err, sizeof err));
  expect_error(err, "unknown target 'sm_75'", "sm_80", "sm_90", (char *)NULL);
  // Names are never paths.
  CHECK(!tl_target_load(a, "../targets/sm_90", &t, err, sizeof err));
  expect_error(err, "unknown target '../targets/sm_90'", (char *)NULL);
  CHECK(!tl_target_load(a, "", &t, err, sizeof err));
}

static char tmpdir[64];

static void write_file(const char *name, const char *text) {
  char path[128];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  FILE *fp = fopen(path, "w");
  CHECK(fp != NULL);
  if (!fp)
    return;
  fputs(text, fp);
  fclose(fp);
}

// The shipped sm_90.yaml with the line starting with `key:` replaced by
// `line` (or removed when line is NULL).
static char *edited(TlArena *a, const char *original, const char *key, const char *line) {
  TlBuf b;
  tl_buf_init(&b, a);
  size_t klen = strlen(key);
  for (const char *p = original; *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);
    if (strncmp(p, key, klen) == 0 && p[klen] == ':') {
      if (line) {
        tl_buf_puts(&b, line);
        tl_buf_putc(&b, '\n');
      }
    } else {
      tl_buf_write(&b, p, len);
    }
    p += len;
  }
  return b.data;
}

// The 1-based line of the shipped file that starts with `key:`.
static int line_of(const char *text, const char *key) {
  int line = 1;
  size_t klen = strlen(key);
  for (const char *p = text; *p; line++) {
    if (strncmp(p, key, klen) == 0 && p[klen] == ':')
      return line;
    const char *nl = strchr(p, '\n');
    if (!nl)
      break;
    p = nl + 1;
  }
  return -1;
}

// Writes `text` as TLC_TARGETS_DIR/sm_90.yaml, loads sm_90, and checks the
// error mentions each fragment.
static void expect_broken(TlArena *a, const char *text, const char *frag1, const char *frag2) {
  write_file("sm_90.yaml", text);
  TlTarget t;
  char err[512] = "";
  bool ok = tl_target_load(a, "sm_90", &t, err, sizeof err);
  CHECK(!ok);
  if (!ok)
    expect_error(err, tmpdir, "sm_90.yaml:", frag1, frag2, (char *)NULL);
}

static void test_broken_files(TlArena *a, const char *source_path) {
  TlSource *src = source_path ? tl_source_read(a, source_path, NULL, 0) : NULL;
  CHECK(src != NULL);
  if (!src)
    return;
  const char *orig = src->text;
  snprintf(tmpdir, sizeof tmpdir, "/tmp/tlc-target-test-XXXXXX");
  CHECK(mkdtemp(tmpdir) != NULL);
  setenv("TLC_TARGETS_DIR", tmpdir, 1);

  // An unmodified copy loads from the override directory.
  write_file("sm_90.yaml", orig);
  TlTarget t;
  char err[512] = "";
  CHECK(tl_target_load(a, "sm_90", &t, err, sizeof err));
  CHECK(t.path && strncmp(t.path, tmpdir, strlen(tmpdir)) == 0);

  char where[64];
  // Ill-typed: the error has the value's line and column.
  snprintf(where, sizeof where, "sm_90.yaml:%d:11:", line_of(orig, "sm_count"));
  expect_broken(a, edited(a, orig, "sm_count", "sm_count: many"), where,
                "field 'sm_count': expected an integer > 0, got 'many'");
  expect_broken(a, edited(a, orig, "has_tma", "has_tma: maybe"), "field 'has_tma'",
                "expected true or false, got 'maybe'");
  expect_broken(a, edited(a, orig, "clock_ghz", "clock_ghz: fast"), "field 'clock_ghz'",
                "expected a number > 0, got 'fast'");
  expect_broken(a, edited(a, orig, "sm_count", "sm_count: \"132\""), "field 'sm_count'",
                "expected an integer");
  expect_broken(a, edited(a, orig, "sm_count", "sm_count: 0"), "field 'sm_count'", "got '0'");
  expect_broken(a, edited(a, orig, "max_shared_bytes", "max_shared_bytes: 1.5"),
                "field 'max_shared_bytes'", "got '1.5'");
  expect_broken(a, edited(a, orig, "sm", "sm: 99999999999"), "field 'sm'", "got '99999999999'");
  expect_broken(a, edited(a, orig, "sm_count", "sm_count: [1, 2]"), "field 'sm_count'",
                "got 'a list'");
  // Missing, unknown, duplicate.
  expect_broken(a, edited(a, orig, "dram_latency_cycles", NULL), "missing field",
                "'dram_latency_cycles'");
  snprintf(where, sizeof where, "sm_90.yaml:%d:1:", line_of(orig, "sm_count"));
  expect_broken(a, edited(a, orig, "sm_count", "sm_cnt: 132"), where, "unknown field 'sm_cnt'");
  expect_broken(a, edited(a, orig, "sm", "sm: 90\nsm: 90"), "field 'sm' appears twice", "");
  // Broken YAML syntax, with the parser's location.
  expect_broken(a, edited(a, orig, "has_wgmma", "has_wgmma: [true"), "YAML syntax error", "");
  expect_broken(a, "", "empty", "");
  expect_broken(a, "- just\n- a list\n", "sm_90.yaml:1:1:", "expected a mapping");
  // A file that describes another target.
  expect_broken(a, edited(a, orig, "name", "name: sm_91"), "field 'name' is 'sm_91'", "");
  // Inconsistent sizes.
  expect_broken(a, edited(a, orig, "default_shared_bytes", "default_shared_bytes: 300000"),
                "out of order", "");

  // The override directory adds targets; the built-in ones stay reachable
  // (sm_80 is not in it) and the unknown-target list names both kinds.
  write_file("sm_90.yaml", orig);
  write_file("sm_test.yaml", edited(a, orig, "name", "name: sm_test"));
  CHECK(tl_target_load(a, "sm_test", &t, err, sizeof err));
  CHECK(tl_target_load(a, "sm_80", &t, err, sizeof err));
  CHECK(t.path && strncmp(t.path, tmpdir, strlen(tmpdir)) != 0);
  CHECK(!tl_target_load(a, "sm_1", &t, err, sizeof err));
  expect_error(err, "known targets: sm_80, sm_90, sm_90a, sm_test", (char *)NULL);

  char path[128];
  snprintf(path, sizeof path, "%s/sm_90.yaml", tmpdir);
  unlink(path);
  snprintf(path, sizeof path, "%s/sm_test.yaml", tmpdir);
  unlink(path);
  rmdir(tmpdir);
  unsetenv("TLC_TARGETS_DIR");
}

int main(void) {
  // The shipped files, whatever the caller's environment says.
  unsetenv("TLC_TARGETS_DIR");
  TlArena a;
  tl_arena_init(&a);
  const char *source_path = NULL;
  test_sm90(&a, &source_path);
  test_sm90a(&a);
  test_sm80(&a);
  test_unknown(&a);
  test_broken_files(&a, source_path);
  tl_arena_free(&a);
  return check_result("target_test");
}
