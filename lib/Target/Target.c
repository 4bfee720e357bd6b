// Target descriptions: finds targets/<name>.yaml and reads it with libyaml's
// document API into a TlTarget, checking every field's presence and type.
//
// The files are data with sources (each number carries a `# source:`
// comment); this reader is strict so that a typo in one cannot silently
// become a default: unknown, duplicate, missing and ill-typed fields are all
// errors that name the file, the line and the field.
#include "tlc/Target.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

typedef enum { FIELD_STRING, FIELD_INT, FIELD_INT64, FIELD_BOOL, FIELD_DOUBLE } FieldKind;

// One key of the file. Numbers must be > 0 unless zero_ok.
typedef struct Field {
  const char *key;
  FieldKind kind;
  size_t offset;
  bool zero_ok;
} Field;

#define FIELD(key, kind, zero_ok) {#key, kind, offsetof(TlTarget, key), zero_ok}

static const Field fields[] = {
    FIELD(name, FIELD_STRING, false),
    FIELD(description, FIELD_STRING, false),
    FIELD(sm, FIELD_INT, false),
    FIELD(nvcc_arch, FIELD_STRING, false),
    FIELD(max_shared_bytes, FIELD_INT64, false),
    FIELD(default_shared_bytes, FIELD_INT64, false),
    FIELD(shared_per_sm_bytes, FIELD_INT64, false),
    FIELD(max_threads_per_block, FIELD_INT64, false),
    FIELD(max_vector_bits, FIELD_INT64, false),
    FIELD(has_cp_async, FIELD_BOOL, false),
    FIELD(has_wgmma, FIELD_BOOL, false),
    FIELD(has_tma, FIELD_BOOL, false),
    FIELD(sm_count, FIELD_INT, false),
    FIELD(clock_ghz, FIELD_DOUBLE, false),
    FIELD(dram_bandwidth_gbs, FIELD_DOUBLE, false),
    FIELD(dram_latency_cycles, FIELD_INT64, false),
    FIELD(tensor_flops_per_cycle_sm, FIELD_DOUBLE, false),
    FIELD(wgmma_flops_per_cycle_sm, FIELD_DOUBLE, true),
    FIELD(l2_bandwidth_gbs, FIELD_DOUBLE, true),
    FIELD(l2_latency_cycles, FIELD_INT64, true),
};
enum { NFIELDS = sizeof fields / sizeof fields[0] };

static const char *kind_name(FieldKind k) {
  switch (k) {
  case FIELD_STRING:
    return "a string";
  case FIELD_INT:
  case FIELD_INT64:
    return "an integer";
  case FIELD_BOOL:
    return "true or false";
  case FIELD_DOUBLE:
    return "a number";
  }
  return "?";
}

// Converts one scalar into the field. Numbers and booleans must be plain
// (unquoted) scalars: "132" in quotes is a string, as YAML says.
static bool store_field(TlArena *a, const Field *f, const yaml_node_t *v, TlTarget *t) {
  const char *text = (const char *)v->data.scalar.value;
  bool plain = v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
  char *dst = (char *)t + f->offset;
  char *end;
  switch (f->kind) {
  case FIELD_STRING:
    if (!*text)
      return false;
    *(const char **)dst = tl_arena_strdup(a, text);
    return true;
  case FIELD_BOOL:
    if (!plain || (strcmp(text, "true") != 0 && strcmp(text, "false") != 0))
      return false;
    *(bool *)dst = strcmp(text, "true") == 0;
    return true;
  case FIELD_INT:
  case FIELD_INT64: {
    if (!plain || !*text || !strchr("0123456789-+", *text))
      return false;
    errno = 0;
    long long n = strtoll(text, &end, 10);
    if (errno || *end || n < 0 || (n == 0 && !f->zero_ok))
      return false;
    if (f->kind == FIELD_INT) {
      if (n > INT_MAX)
        return false;
      *(int *)dst = (int)n;
    } else {
      *(int64_t *)dst = n;
    }
    return true;
  }
  case FIELD_DOUBLE: {
    if (!plain || !*text || !strchr("0123456789-+.", *text))
      return false;
    errno = 0;
    double d = strtod(text, &end);
    if (errno || *end || !isfinite(d) || d < 0 || (d == 0 && !f->zero_ok))
      return false;
    *(double *)dst = d;
    return true;
  }
  }
  return false;
}

// Reads one file. `expect` is the target name the file must declare.
static bool load_file(TlArena *a, const char *path, const char *expect, TlTarget *out, char *err,
                      size_t errlen) {
  FILE *fp = fopen(path, "rb");
  if (!fp) {
    tl_set_err(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    return false;
  }
  yaml_parser_t parser;
  yaml_document_t doc;
  if (!yaml_parser_initialize(&parser)) {
    fclose(fp);
    tl_set_err(err, errlen, "%s: cannot start the YAML parser", path);
    return false;
  }
  yaml_parser_set_input_file(&parser, fp);
  bool ok = yaml_parser_load(&parser, &doc);
  if (!ok) {
    yaml_mark_t mk = parser.problem_mark;
    tl_set_err(err, errlen, "%s:%zu:%zu: YAML syntax error: %s%s%s", path, mk.line + 1,
            mk.column + 1, parser.problem ? parser.problem : "unknown problem",
            parser.context ? " " : "", parser.context ? parser.context : "");
    yaml_parser_delete(&parser);
    fclose(fp);
    return false;
  }
  yaml_parser_delete(&parser);
  fclose(fp);

  TlTarget t = {0};
  bool seen[NFIELDS] = {false};
  yaml_node_t *root = yaml_document_get_root_node(&doc);
  if (!root) {
    tl_set_err(err, errlen, "%s:1:1: the file is empty; expected a mapping of target fields", path);
    ok = false;
  } else if (root->type != YAML_MAPPING_NODE) {
    tl_set_err(err, errlen, "%s:%zu:%zu: expected a mapping of target fields", path,
            root->start_mark.line + 1, root->start_mark.column + 1);
    ok = false;
  }
  for (yaml_node_pair_t *p = ok ? root->data.mapping.pairs.start : NULL;
       ok && p < root->data.mapping.pairs.top; p++) {
    yaml_node_t *k = yaml_document_get_node(&doc, p->key);
    yaml_node_t *v = yaml_document_get_node(&doc, p->value);
    size_t line = k->start_mark.line + 1, col = k->start_mark.column + 1;
    if (k->type != YAML_SCALAR_NODE) {
      tl_set_err(err, errlen, "%s:%zu:%zu: expected a field name", path, line, col);
      ok = false;
      break;
    }
    const char *key = (const char *)k->data.scalar.value;
    int i = 0;
    while (i < NFIELDS && strcmp(fields[i].key, key) != 0)
      i++;
    if (i == NFIELDS) {
      tl_set_err(err, errlen, "%s:%zu:%zu: unknown field '%s'", path, line, col, key);
      ok = false;
    } else if (seen[i]) {
      tl_set_err(err, errlen, "%s:%zu:%zu: field '%s' appears twice", path, line, col, key);
      ok = false;
    } else if (v->type != YAML_SCALAR_NODE || !store_field(a, &fields[i], v, &t)) {
      const char *got = v->type == YAML_SCALAR_NODE ? (const char *)v->data.scalar.value
                        : v->type == YAML_MAPPING_NODE ? "a mapping"
                                                       : "a list";
      tl_set_err(err, errlen, "%s:%zu:%zu: field '%s': expected %s%s, got '%s'", path,
              v->start_mark.line + 1, v->start_mark.column + 1, key, kind_name(fields[i].kind),
              fields[i].kind == FIELD_BOOL || fields[i].kind == FIELD_STRING
                  ? ""
                  : (fields[i].zero_ok ? " >= 0" : " > 0"),
              got);
      ok = false;
    }
    if (ok)
      seen[i] = true;
  }
  for (int i = 0; ok && i < NFIELDS; i++) {
    if (!seen[i]) {
      // A missing field has no line of its own: point at the mapping.
      tl_set_err(err, errlen, "%s:%zu:%zu: missing field '%s' (%s)", path,
              root->start_mark.line + 1, root->start_mark.column + 1, fields[i].key,
              kind_name(fields[i].kind));
      ok = false;
    }
  }
  if (ok && strcmp(t.name, expect) != 0) {
    tl_set_err(err, errlen, "%s: field 'name' is '%s', but the file is named for '%s'", path, t.name,
            expect);
    ok = false;
  }
  if (ok && (t.default_shared_bytes > t.max_shared_bytes ||
             t.max_shared_bytes > t.shared_per_sm_bytes)) {
    tl_set_err(err, errlen,
            "%s: shared memory sizes out of order: need default_shared_bytes <= "
            "max_shared_bytes <= shared_per_sm_bytes",
            path);
    ok = false;
  }
  yaml_document_delete(&doc);
  if (!ok)
    return false;
  t.path = tl_arena_strdup(a, path);
  *out = t;
  return true;
}

// The directories searched, in order; entries may be NULL.
enum { NDIRS = 3 };

static void search_dirs(TlArena *a, const char *dirs[NDIRS]) {
  const char *env = getenv("TLC_TARGETS_DIR");
  dirs[0] = env && *env ? env : NULL;
  dirs[1] = NULL;
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) {
      *slash = '\0';
      dirs[1] = tl_arena_printf(a, "%s/../share/tlc/targets", exe);
    }
  }
#ifdef TLC_SOURCE_DIR
  dirs[2] = TLC_SOURCE_DIR "/targets";
#else
  dirs[2] = NULL;
#endif
}

static int cmp_str(const void *x, const void *y) {
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

// "sm_80, sm_90": the *.yaml files of every search directory.
static const char *known_targets(TlArena *a, const char *dirs[NDIRS]) {
  TlVec names = {0};
  for (int d = 0; d < NDIRS; d++) {
    DIR *dir = dirs[d] ? opendir(dirs[d]) : NULL;
    if (!dir)
      continue;
    struct dirent *e;
    while ((e = readdir(dir))) {
      size_t len = strlen(e->d_name);
      if (len > 5 && e->d_name[0] != '.' && strcmp(e->d_name + len - 5, ".yaml") == 0)
        tl_vec_push(a, &names, tl_arena_strndup(a, e->d_name, len - 5));
    }
    closedir(dir);
  }
  if (names.len == 0)
    return NULL;
  if (names.len > 1) qsort(names.items, (size_t)names.len, sizeof(void *), cmp_str);
  TlBuf b;
  tl_buf_init(&b, a);
  for (int i = 0; i < names.len; i++) {
    if (i > 0 && strcmp(names.items[i], names.items[i - 1]) == 0)
      continue;
    if (b.len)
      tl_buf_puts(&b, ", ");
    tl_buf_puts(&b, names.items[i]);
  }
  return b.data;
}

static bool valid_name(const char *name) {
  size_t len = strlen(name);
  if (len == 0 || len > 64 || name[0] == '.')
    return false;
  for (const char *p = name; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
          *p == '_' || *p == '-' || *p == '.'))
      return false;
  return true;
}

bool tl_target_load(TlArena *a, const char *name, TlTarget *out, char *err, size_t errlen) {
  const char *dirs[NDIRS];
  search_dirs(a, dirs);
  if (valid_name(name)) {
    // The first directory that has the file wins; a TLC_TARGETS_DIR with
    // only extra targets still sees the built-in ones.
    for (int d = 0; d < NDIRS; d++) {
      if (!dirs[d])
        continue;
      char *path = tl_arena_printf(a, "%s/%s.yaml", dirs[d], name);
      if (access(path, F_OK) == 0)
        return load_file(a, path, name, out, err, errlen);
    }
  }
  const char *known = known_targets(a, dirs);
  if (known)
    tl_set_err(err, errlen, "unknown target '%s' (known targets: %s)", name, known);
  else
    tl_set_err(err, errlen,
            "unknown target '%s': no target descriptions found (set TLC_TARGETS_DIR to the "
            "directory holding sm_80.yaml and sm_90.yaml)",
            name);
  return false;
}
