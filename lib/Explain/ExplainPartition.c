// `tlc explain-partition`: shows how TileLang's default loop partition maps
// a T.Parallel nest onto threads and per-thread slots, and (FILE mode) how a
// nest over fragments maps onto the threads and registers of the fragment
// layout it follows (the map itself is lib/Explain/FragNest.c).
//
// The table format reproduces the seed model (loop_mapping.py) byte for byte
// for spaces of up to 4096 points and summarises bigger ones; yaml (libyaml's
// emitter) lists every point; svg draws the space as a grid coloured by
// thread. Everything comes from the closed-form plan in
// lib/Analysis/PartitionPlan.c, so time and output stay bounded however big
// the space is: only printed rows and drawn cells are ever computed. A
// fragment nest is mapped in full (at most a register file's worth of
// pairs) and drawn with the same three renderers.
//
// This file holds the plan's point helpers, the render entry points and the
// command line; the renderers are in PartitionTable.c, PartitionYaml.c and
// PartitionSvg.c, a fragment nest's in ExplainFragment.c.
#include "ExplainPartitionInternal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// Python's str(tuple): "(0, 1)", and "(5,)" for a single element.
const char *tl_xp_tuple_str(char *s, const int64_t *v, int n) {
  int w = snprintf(s, TUPLE_MAX, "(");
  for (int k = 0; k < n; k++)
    w += snprintf(s + w, TUPLE_MAX - (size_t)w, k ? ", %" PRId64 : "%" PRId64, v[k]);
  snprintf(s + w, TUPLE_MAX - (size_t)w, n == 1 ? ",)" : ")");
  return s;
}

void tl_xp_point_at(const TlPartitionPlan *p, int64_t flat, int64_t *idx, int64_t *thread,
                    int64_t *slot) {
  tl_partition_unflatten(p, flat, idx);
  tl_partition_point(p, idx, thread, slot);
}

// A thread's k-th point. Its points fill slots 0..count-1 in flat order
// (PartitionPlan.h), so "the first n points" is the inverse of slots 0..n-1.
void tl_xp_owned_point(const TlPartitionPlan *p, int64_t thread, int64_t k, int64_t *idx) {
  bool ok = tl_partition_inverse(p, thread, k, idx);
  TL_ASSERT("explain-partition", ok);
}

void tl_explain_partition_render(TlBuf *out, const TlPartitionPlan *p, TlExplainFormat f,
                                 const char *title) {
  switch (f) {
  case TL_EXPLAIN_TABLE:
    tl_xp_table_render(out, p, title);
    return;
  case TL_EXPLAIN_YAML:
    tl_xp_yaml_render(out, p, title);
    return;
  case TL_EXPLAIN_SVG:
    tl_xp_svg_render(out, p, title);
    return;
  }
  TL_UNREACHABLE("explain-partition", "unknown format");
}

void tl_explain_partition_compare(TlBuf *out, int64_t threads, int64_t vector, TlExplainFormat f) {
  switch (f) {
  case TL_EXPLAIN_TABLE:
    tl_xp_compare_table(out, threads, vector);
    return;
  case TL_EXPLAIN_YAML:
    tl_xp_compare_yaml(out, threads, vector);
    return;
  case TL_EXPLAIN_SVG:
    tl_xp_compare_svg(out, threads, vector);
    return;
  }
  TL_UNREACHABLE("explain-partition", "unknown format");
}

/* ---- the command line ---- */

typedef struct Args {
  int ndims;
  int64_t extents[TL_MAX_NEST];
  int64_t threads, vector, line;
  bool has_extents, has_threads, has_vector, has_line, compare;
  TlExplainFormat format;
  const char *out_path, *file;
  TlSourceArgs source;        // FILE mode: --call, -D (TileLang Python files), --target
  TlSemaOptions sema;         // points at source's calls and defines
  TlExplainCompileFn compile; // FILE mode
} Args;

static const char kUsage[] =
    "usage: tlc explain-partition [--extents E0 [E1 ...]] [--threads T] [--vector V]\n"
    "                             [--format table|yaml|svg] [--compare] [-o FILE]\n"
    "       tlc explain-partition FILE.tl [--line N] [--target SM] [--format table|yaml|svg]\n"
    "                             [-o FILE]\n"
    "       tlc explain-partition FILE.py --call 'F(ARGS)' [-D NAME=VALUE] [--line N] ...\n"
    "\n"
    "Shows how TileLang's default loop partition maps a T.Parallel nest onto threads:\n"
    "  flat = row-major index, thread = (flat / V) % T, slot = (flat / V / T) * V + flat % V\n"
    "In FILE mode a loop over fragments shows the fragment layout it follows and,\n"
    "for each element, the thread holding it and the register.\n"
    "\n"
    "  --extents E0 [E1 ...]  the nest's extents, outermost first (default 128 32)\n"
    "  --threads T            threads in the block (default 128; 8 with --compare)\n"
    "  --vector V             vector width (default 8; 2 with --compare)\n"
    "  --format F             table (default; the seed model's text), yaml, or svg\n"
    "  --compare              the same 64 points in five nest shapes\n"
    "  --line N               FILE mode: only the T.Parallel loop on line N\n"
    "  --target SM            FILE mode: compile for sm_90a (default), sm_90 or sm_80, as tlc "
    "--target\n"
    "  --call 'F(ARGS)'       FILE mode: the kernel a factory call returns (as tlc --call)\n"
    "  -D NAME=VALUE          FILE mode: override a module-level constant (as tlc -D)\n"
    "  -o FILE                write to FILE instead of stdout\n"
    "  -h, --help             show this help\n";

// "tlc: error: explain-partition: ..." on stderr. fail returns the exit
// status 1; reject returns false for the parsing helpers.
static void vreport(const char *fmt, va_list ap) {
  char msg[512];
  vsnprintf(msg, sizeof msg, fmt, ap);
  TlDiag d;
  tl_diag_init(&d, stderr);
  tl_error_noloc(&d, "explain-partition: %s", msg);
}

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(fmt, ap);
  va_end(ap);
  return 1;
}

static bool reject(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static bool reject(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(fmt, ap);
  va_end(ap);
  return false;
}

static bool parse_int(const char *opt, const char *text, int64_t *out) {
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (end == text || *end != '\0') return reject("%s expects an integer, got '%s'", opt, text);
  if (errno == ERANGE) return reject("%s value '%s' does not fit in 64 bits", opt, text);
  *out = v;
  return true;
}

// "-5" is a (bad) extent, not an option, as in argparse.
static bool is_option(const char *s) {
  return s[0] == '-' && s[1] != '\0' && !(s[1] >= '0' && s[1] <= '9');
}

// Parses argv into *a; on error prints it and returns false. `--opt=value`
// works for every option that takes one value.
static bool parse_args(int argc, char **argv, Args *a, bool *help) {
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *eq = strchr(arg, '=');
    char err[256];
    TlArgResult taken = tl_source_arg(argc, argv, &i, &a->source, err, sizeof err);
    if (taken == TL_ARG_BAD) return reject("%s", err);
    if (taken == TL_ARG_TAKEN) continue;
    char name[32];
    size_t n = (eq && strncmp(arg, "--", 2) == 0) ? (size_t)(eq - arg) : strlen(arg);
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), arg);
    const char *inline_val = n < strlen(arg) ? arg + n + 1 : NULL;
    bool takes_value = !strcmp(name, "--threads") || !strcmp(name, "--vector") ||
                       !strcmp(name, "--format") || !strcmp(name, "--line") || !strcmp(name, "-o");
    const char *val = inline_val;
    if (takes_value && !val) {
      if (i + 1 >= argc || is_option(argv[i + 1])) return reject("%s needs a value", name);
      val = argv[++i];
    }
    if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
      *help = true; // as in argparse: help wins over whatever follows
      return true;
    } else if (!strcmp(name, "--extents")) {
      a->ndims = 0;
      a->has_extents = true;
      const char *first = inline_val;
      while (first || (i + 1 < argc && !is_option(argv[i + 1]))) {
        const char *v = first ? first : argv[++i];
        first = NULL;
        if (a->ndims == TL_MAX_NEST)
          return reject("too many extents (at most %d dimensions)", TL_MAX_NEST);
        if (!parse_int("--extents", v, &a->extents[a->ndims++])) return false;
      }
      if (a->ndims == 0) return reject("--extents needs at least one value");
    } else if (!strcmp(name, "--threads")) {
      a->has_threads = true;
      if (!parse_int(name, val, &a->threads)) return false;
    } else if (!strcmp(name, "--vector")) {
      a->has_vector = true;
      if (!parse_int(name, val, &a->vector)) return false;
    } else if (!strcmp(name, "--line")) {
      a->has_line = true;
      if (!parse_int(name, val, &a->line)) return false;
      if (a->line < 1 || a->line > INT32_MAX)
        return reject("--line must be a line number >= 1, got '%s'", val);
    } else if (!strcmp(name, "--format")) {
      if (!strcmp(val, "table"))
        a->format = TL_EXPLAIN_TABLE;
      else if (!strcmp(val, "yaml"))
        a->format = TL_EXPLAIN_YAML;
      else if (!strcmp(val, "svg"))
        a->format = TL_EXPLAIN_SVG;
      else
        return reject("unknown format '%s' (expected table, yaml or svg)", val);
    } else if (!strcmp(name, "-o")) {
      a->out_path = val;
    } else if (!strcmp(name, "--compare") && !inline_val) {
      a->compare = true;
    } else if (is_option(arg)) {
      return reject("unknown option '%s' (see --help)", arg);
    } else if (a->file) {
      return reject("unexpected argument '%s': only one FILE is allowed", arg);
    } else {
      a->file = arg;
    }
  }
  a->sema = (TlSemaOptions){
      a->source.calls, a->source.ncalls, a->source.defines, a->source.ndefines, NULL, 0};
  return true;
}

// Creates a unique temporary file next to path (PATH.tmp.XXXXXX, as the
// main driver does: a fixed PATH.tmp would overwrite, then delete, an
// unrelated file of that name), mode 0666 less the umask. Returns its fd
// (-1 on failure) and its name in *tmp.
static int make_temp(TlArena *ar, const char *path, char **tmp) {
  *tmp = tl_arena_printf(ar, "%s.tmp.XXXXXX", path);
  int fd = mkstemp(*tmp);
  if (fd < 0) return -1;
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  return fd;
}

// Writes a temporary file and renames it over FILE, so a failure never
// leaves a partial FILE behind.
static int write_output(TlArena *ar, const char *path, const TlBuf *b) {
  if (!path) {
    if (b->len) fwrite(b->data, 1, b->len, stdout);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : fail("cannot write to stdout");
  }
  // A device or pipe (-o /dev/null) is written in place: a rename would
  // replace the device itself.
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    FILE *d = fopen(path, "w");
    bool ok = d && (b->len == 0 || fwrite(b->data, 1, b->len, d) == b->len);
    if (d && fclose(d) != 0) ok = false;
    return ok ? 0 : fail("cannot write '%s': %s", path, strerror(errno));
  }
  char *tmp;
  int fd = make_temp(ar, path, &tmp);
  if (fd < 0) return fail("cannot write '%s': %s", path, strerror(errno));
  FILE *f = fdopen(fd, "w");
  if (!f) {
    close(fd);
    unlink(tmp);
    return fail("cannot write '%s': %s", path, strerror(errno));
  }
  bool ok = (b->len == 0 || fwrite(b->data, 1, b->len, f) == b->len);
  ok = (fclose(f) == 0) && ok;
  if (!ok || rename(tmp, path) != 0) {
    int err = errno;
    unlink(tmp);
    return fail("cannot write '%s': %s", path, strerror(err));
  }
  return 0;
}

static int explain_file(const Args *a) {
  TlExplainInput in = {a->file, &a->sema, a->source.target, a->compile};
  return tl_explain_partition_file(&in, (int)a->line, a->format);
}

// FILE mode prints to stdout, so -o points stdout at a
// temporary file for the call and renames it on success.
static int file_mode(TlArena *ar, const Args *a) {
  struct stat st;
  bool device = a->out_path && stat(a->out_path, &st) == 0 && !S_ISREG(st.st_mode);
  if (!a->out_path || device) {
    if (device && !freopen(a->out_path, "w", stdout))
      return fail("cannot write '%s': %s", a->out_path, strerror(errno));
    return explain_file(a);
  }
  char *tmp;
  fflush(stdout);
  int fd = make_temp(ar, a->out_path, &tmp);
  if (fd < 0) return fail("cannot write '%s': %s", a->out_path, strerror(errno));
  int saved = dup(STDOUT_FILENO);
  if (saved < 0 || dup2(fd, STDOUT_FILENO) < 0) {
    close(fd);
    unlink(tmp);
    return fail("cannot redirect output to '%s': %s", tmp, strerror(errno));
  }
  close(fd);
  int rc = explain_file(a);
  bool flushed = fflush(stdout) == 0;
  dup2(saved, STDOUT_FILENO);
  close(saved);
  if (rc == 0 && flushed && rename(tmp, a->out_path) == 0) return 0;
  unlink(tmp);
  return rc ? rc : fail("cannot write '%s': %s", a->out_path, strerror(errno));
}

static int run(TlArena *ar, Args *a) {
  if (a->file) {
    if (a->has_extents || a->has_threads || a->has_vector || a->compare)
      return fail("FILE mode plans the loops in '%s'; --extents, --threads, --vector and "
                  "--compare do not apply",
                  a->file);
    return file_mode(ar, a);
  }
  if (a->has_line) return fail("--line needs a FILE");
  if (a->source.target) return fail("--target needs a FILE: the standalone model has no target");
  if (!a->file && (a->sema.ncalls || a->sema.ndefines))
    return fail("--call and -D need a FILE (a TileLang Python file or a .tl file)");
  // The seed's --compare is fixed at 8 threads, vector 2; explicit values win.
  if (a->compare) {
    if (a->has_extents) return fail("--compare uses its own five shapes; drop --extents");
    if (!a->has_threads) a->threads = 8;
    if (!a->has_vector) a->vector = 2;
  }
  if (a->threads < 1) return fail("threads must be >= 1, got %" PRId64, a->threads);
  if (a->vector < 1) return fail("vector must be >= 1, got %" PRId64, a->vector);
  TlBuf out;
  tl_buf_init(&out, ar);
  if (a->compare) {
    tl_explain_partition_compare(&out, a->threads, a->vector, a->format);
    return write_output(ar, a->out_path, &out);
  }
  TlPartitionPlan p;
  char err[256];
  if (!tl_partition_plan_default(&p, a->ndims, a->extents, a->threads, a->vector, err, sizeof err))
    return fail("%s", err);
  if (a->format == TL_EXPLAIN_YAML && p.total > YAML_MAX_POINTS)
    return fail("the space has %" PRId64
                " points and --format yaml lists every one (at most %" PRId64
                "); use --format table, which summarises",
                p.total, YAML_MAX_POINTS);
  tl_explain_partition_render(&out, &p, a->format, NULL);
  return write_output(ar, a->out_path, &out);
}

int tl_explain_partition_main(int argc, char **argv, TlExplainCompileFn compile) {
  Args a = {.ndims = 2, .extents = {128, 32}, .threads = 128, .vector = 8, .compile = compile};
  bool help = false;
  if (!parse_args(argc, argv, &a, &help)) return 1;
  if (help) {
    fputs(kUsage, stdout);
    return 0;
  }
  TlArena ar;
  tl_arena_init(&ar);
  int rc = run(&ar, &a);
  tl_arena_free(&ar);
  return rc;
}
