// The compiler driver: `tlc [options] FILE.tl`. Parses options, runs the
// phases up to what --emit asks for, and writes the result atomically: the
// output goes to a temporary file that is renamed over -o only when the
// whole compilation succeeded, so an error never leaves a partial file.
//
// Exit status: 0 success, 1 errors in the input (or I/O), 2 command-line
// misuse. Internal errors abort (status 134) with "internal error".
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tlc/Ast.h"
#include "tlc/CodeGen.h"
#include "tlc/Driver.h"
#include "tlc/Harness.h"
#include "tlc/Sema.h"
#include "tlc/Uninitialized.h"

static const char *const usage =
    "usage: tlc [options] FILE.tl          compile FILE.tl (- reads stdin) to CUDA\n"
    "       tlc [options] FILE.py --call 'factory(args)'   compile a TileLang Python file\n"
    "       tlc [options] FILE.tir         resume from IR text (--emit=ir output; docs/ir.md)\n"
    "       tlc explain-partition [...]    show how T.Parallel maps onto threads\n"
    "       tlc explain-pipeline [...]     model a software-pipelined loop\n"
    "       tlc tune FILE --call 'F(ARGS)' [--space NAME=V1,V2]   time every config on the GPU\n"
    "\n"
    "options:\n"
    "  -o FILE               write the output to FILE (- or absent: stdout)\n"
    "  --emit=KIND           what to write: tokens, ast, ir, plan (YAML), cuda (default),\n"
    "                        signature (JSON: every launcher's parameters)\n"
    "  --target=SM           sm_90a (default: H100/H200 with wgmma), sm_90 (no wgmma) or sm_80 "
    "(A100)\n"
    "  --print-after=PASS    print the IR after PASS to stderr (sema or a pass below)\n"
    "  --print-after-all     print the IR after every pass to stderr\n"
    "  --stop-after=PASS     stop the pipeline after PASS (with --emit=ir)\n"
    "  --passes=P1,P2        run only these passes, in this order (a .tir input runs none\n"
    "                        unless given)\n"
    "  --ir                  read the input as IR text (default for .tir)\n"
    "  --no-verify           do not run the IR verifier between passes\n"
    "  --no-warp-specialize  keep T.Pipelined on cp.async (no TMA producer warpgroup)\n"
    "  --keep-threads        never run a kernel with more threads than it asks for (by\n"
    "                        default one whose fragments would spill gets twice as many)\n"
    "  --overlap-pv          attention loops on the TMA ring run P V in flight during the\n"
    "                        next softmax (FlashAttention-3's intra-warpgroup overlap;\n"
    "                        measured no faster than the default on the H200)\n"
    "  --cluster             warp-specialized kernels in clusters of 2 blocks sharing tiles by TMA "
    "multicast\n"
    "  --verify-each         run it after every pass (the default)\n"
    "  --header=OUT.h        also write a C/C++ header declaring every launcher\n"
    "  --call 'F(ARGS)'      compile the kernel the factory call F(ARGS) returns; repeat for\n"
    "                        several kernels ('NAME=F(ARGS)' names it NAME)\n"
    "  -D NAME=VALUE         override the module-level constant NAME (a Python literal;\n"
    "                        a bare word is a string)\n"
    "  --python              read the input as a TileLang Python file (default for .py)\n"
    "  --harness             write a self-checking, self-timing test program instead\n"
    "  --cublas              with --harness: also time cuBLAS on single-GEMM kernels\n"
    "  --iters=N             with --harness: timed runs per kernel (default 100)\n"
    "  --size NAME=VALUE     with --harness: the value of runtime size NAME (T.dynamic)\n"
    "  --data NAME=SPEC      with --harness: fill integer input NAME by SPEC (offsets:TOTAL:MAX,\n"
    "                        range:LO:HI, arange, arange:STEP, div:D:N, const:V) instead of\n"
    "                        random values\n"
    "  --max-errors=N        stop after N errors (default 20, 0: no limit)\n"
    "  -w                    suppress warnings\n"
    "  -Werror               treat warnings as errors\n"
    "  --help                print this help\n"
    "  --version             print the version\n"
    "\n";
static const char usage_tail[] =
    "exit status: 0 success, 1 errors in the input, 2 command-line misuse\n";

// The pass list of --help, from the pipeline table itself (PassManager.c),
// wrapped as the rest of the help is.
static void print_passes(FILE *f) {
  int col = fprintf(f, "passes, in order:");
  for (int i = 0; i < tl_pipeline_npasses; i++) {
    const char *name = tl_pipeline_passes[i].name;
    if (col + 1 + (int)strlen(name) > 90) col = fprintf(f, "\n                 ");
    col += fprintf(f, " %s", name);
  }
  fputc('\n', f);
}

static bool valid_pass(const char *name) {
  if (strcmp(name, "sema") == 0) return true;
  for (int i = 0; i < tl_pipeline_npasses; i++)
    if (strcmp(tl_pipeline_passes[i].name, name) == 0) return true;
  return false;
}

static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "tlc: error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(see tlc --help)\n");
  return 2;
}

// True when a and b name one file: the same path, or (both existing) the
// same device and inode, through links and other spellings.
// NAME=VALUE with NAME an identifier and VALUE a size a launcher takes.
static bool valid_size_binding(const char *v) {
  size_t n = strcspn(v, "=");
  bool ok = n > 0 && v[n] == '=' && !(v[0] >= '0' && v[0] <= '9');
  for (size_t j = 0; j < n; j++)
    ok = ok && (v[j] == '_' || (v[j] >= 'a' && v[j] <= 'z') || (v[j] >= 'A' && v[j] <= 'Z') ||
                (v[j] >= '0' && v[j] <= '9'));
  char *end;
  long long value = ok ? strtoll(v + n + 1, &end, 10) : -1;
  return ok && v[n + 1] && !*end && value >= 0 && value <= 2147483647LL;
}

static bool same_file(const char *a, const char *b) {
  if (strcmp(a, b) == 0) return strcmp(a, "-") != 0;
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// Returns 0 when parsed, else the exit status to return (2, or -1 for a
// successful --help/--version).
static int parse_options(int argc, char **argv, TlOptions *o, int *max_errors) {
  memset(o, 0, sizeof *o);
  o->emit = EMIT_CUDA;
  o->target = "sm_90a"; // the H200 with its arch-specific features (wgmma)
#ifdef TLC_VERIFY_IR
  o->verify_each = true;
#endif
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    char err[256];
    TlArgResult taken = tl_source_arg(argc, argv, &i, &o->source, err, sizeof err);
    if (taken == TL_ARG_BAD) return usage_error("%s", err);
    if (taken == TL_ARG_TAKEN) continue;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage, stdout);
      print_passes(stdout);
      fputs(usage_tail, stdout);
      return -1;
    }
    if (strcmp(a, "--version") == 0) {
      printf("tlc %s (targets: sm_80, sm_90, sm_90a)\n", TLC_VERSION);
      return -1;
    }
    if (strcmp(a, "-o") == 0) {
      if (i + 1 >= argc) return usage_error("-o needs a file name%s", "");
      o->output = argv[++i];
    } else if (strncmp(a, "-o", 2) == 0 && a[2]) {
      o->output = a + 2;
    } else if (strncmp(a, "--emit=", 7) == 0) {
      const char *k = a + 7;
      static const char *const kinds[] = {"tokens", "ast", "ir", "plan", "cuda", "signature"};
      int found = -1;
      for (int j = 0; j < 6; j++)
        if (strcmp(k, kinds[j]) == 0) found = j;
      if (found < 0)
        return usage_error("unknown --emit kind '%s'; use tokens, ast, ir, plan, cuda or signature",
                           k);
      o->emit = (TlEmitKind)found;
    } else if (strncmp(a, "--print-after=", 14) == 0) {
      o->print_after = a + 14;
      if (!valid_pass(o->print_after))
        return usage_error("unknown pass '%s' in --print-after", o->print_after);
    } else if (strcmp(a, "--print-after-all") == 0) {
      o->print_after_all = true;
    } else if (strncmp(a, "--stop-after=", 13) == 0) {
      o->stop_after = a + 13;
      if (!valid_pass(o->stop_after))
        return usage_error("unknown pass '%s' in --stop-after", o->stop_after);
    } else if (strncmp(a, "--passes=", 9) == 0) {
      o->passes = a + 9;
      // Every name must be a pass; an empty list runs none.
      for (const char *p = o->passes; *p;) {
        size_t len = strcspn(p, ",");
        if (!tl_find_pass(p, len)) {
          char name[80];
          snprintf(name, sizeof name, "%.*s", (int)(len < 64 ? len : 64), p);
          return usage_error("unknown pass '%s' in --passes", name);
        }
        p += len + (p[len] == ',');
      }
    } else if (strcmp(a, "--ir") == 0) {
      o->ir_input = true;
    } else if (strncmp(a, "--header=", 9) == 0) {
      o->header = a + 9;
      if (!*o->header) return usage_error("--header= needs a file name%s", "");
    } else if (strcmp(a, "--harness") == 0) {
      o->harness = true;
    } else if (strcmp(a, "--cublas") == 0) {
      o->cublas = true;
    } else if (strncmp(a, "--iters=", 8) == 0) {
      char *end;
      long n = strtol(a + 8, &end, 10);
      if (*end || n < 1 || n > 100000)
        return usage_error("--iters needs a count from 1 to 100000, got '%s'", a + 8);
      o->harness_iters = (int)n;
    } else if (strcmp(a, "--no-verify") == 0) {
      o->verify_each = false;
    } else if (strcmp(a, "--keep-threads") == 0) {
      o->keep_threads = true;
    } else if (strcmp(a, "--overlap-pv") == 0) {
      o->overlap_pv = true;
    } else if (strcmp(a, "--no-warp-specialize") == 0) {
      o->no_warp_specialize = true;
    } else if (strcmp(a, "--cluster") == 0) {
      o->cluster = true;
    } else if (strcmp(a, "--verify-each") == 0) {
      o->verify_each = true;
    } else if (strncmp(a, "--max-errors=", 13) == 0) {
      char *end;
      long n = strtol(a + 13, &end, 10);
      if (*end || n < 0 || n > 100000)
        return usage_error("--max-errors needs a count, got '%s'", a + 13);
      *max_errors = (int)n;
    } else if (strcmp(a, "--size") == 0 || strncmp(a, "--size=", 7) == 0) {
      const char *v = a[6] == '=' ? a + 7 : i + 1 < argc ? argv[++i] : NULL;
      if (!v || !valid_size_binding(v))
        return usage_error("--size needs NAME=VALUE with VALUE an integer from 0 to 2^31 - 1, got "
                           "'%s'",
                           v ? v : "");
      if (o->nsizes == 64) return usage_error("more than 64 --size options%s", "");
      o->sizes[o->nsizes++] = v;
    } else if (strcmp(a, "--data") == 0 || strncmp(a, "--data=", 7) == 0) {
      const char *v = a[6] == '=' ? a + 7 : i + 1 < argc ? argv[++i] : NULL;
      size_t n = v ? strcspn(v, "=") : 0;
      if (!v || n == 0 || !v[n] || !tl_harness_data_spec_ok(v + n + 1))
        return usage_error("--data needs NAME=SPEC with SPEC offsets:TOTAL:MAX, range:LO:HI, "
                           "arange, arange:STEP, div:D:N, const:V or uniform:LO:HI, got '%s'",
                           v ? v : "");
      if (o->ndata == 64) return usage_error("more than 64 --data options%s", "");
      o->data[o->ndata++] = v;
    } else if (strcmp(a, "--python") == 0) {
      o->python = true;
    } else if (strcmp(a, "-w") == 0) {
      o->warnings_off = true;
    } else if (strcmp(a, "-Werror") == 0) {
      o->werror = true;
    } else if (a[0] == '-' && a[1]) {
      return usage_error("unknown option '%s'", a);
    } else {
      if (o->input)
        return usage_error("more than one input file ('%s'); tlc compiles one file per run", a);
      o->input = a;
    }
  }
  if (!o->input) return usage_error("no input file%s", "");
  if (o->source.target) {
    o->target = o->source.target;
    if (strcmp(o->target, "sm_80") != 0 && strcmp(o->target, "sm_90") != 0 &&
        strcmp(o->target, "sm_90a") != 0)
      return usage_error("unknown --target '%s'; tlc knows sm_80, sm_90 and sm_90a", o->target);
  }
  size_t n = strlen(o->input);
  if (n > 4 && strcmp(o->input + n - 4, ".tir") == 0) o->ir_input = true;
  if (o->ir_input && (o->emit == EMIT_TOKENS || o->emit == EMIT_AST))
    return usage_error("--emit=%s needs a source file; the input is IR text",
                       o->emit == EMIT_TOKENS ? "tokens" : "ast");
  if (o->ndata > 0 && !o->harness)
    return usage_error("--data fills inputs of the --harness program%s", "");
  if (o->nsizes > 0 && !o->harness)
    return usage_error("--size binds runtime sizes for --harness; a compiled kernel takes them "
                       "as launcher arguments%s",
                       "");
  if (o->ir_input && o->harness)
    return usage_error("--harness needs a source file (its reference lowering starts from "
                       "sema)%s",
                       "");
  // Refused before anything runs: the atomic rename would replace the input
  // with its own CUDA, and of two outputs to one file only the last survives.
  const char *out = o->output && strcmp(o->output, "-") != 0 ? o->output : NULL;
  if (out && same_file(o->input, out))
    return usage_error("-o '%s' is the input file; refusing to overwrite it", out);
  if (out && o->header && same_file(o->header, out))
    return usage_error("--header and -o name the same file '%s'", out);
  if (o->header && same_file(o->header, o->input))
    return usage_error("--header='%s' is the input file; refusing to overwrite it", o->header);
  o->sema = (TlSemaOptions){
      o->source.calls, o->source.ncalls, o->source.defines, o->source.ndefines, NULL, 0};
  return 0;
}

// The file a chain of symbolic links ends at (path itself when it is not a
// link): the rename of write_output must replace the file, not the link.
// A relative target is relative to the directory of the link.
static const char *follow_links(TlArena *a, const char *path) {
  for (int hops = 0; hops < 40; hops++) { // 40: the kernel's own limit (ELOOP)
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    char target[4096];
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n <= 0 || n == (ssize_t)sizeof target - 1) return path;
    target[n] = '\0';
    const char *slash = strrchr(path, '/');
    if (target[0] == '/' || !slash)
      path = tl_arena_strndup(a, target, (size_t)n);
    else
      path = tl_arena_printf(a, "%.*s/%s", (int)(slash - path), path, target);
  }
  return path;
}

// Writes text to path atomically (temporary file + rename), or to stdout.
static bool write_output(const char *path, const TlBuf *text, TlDiag *d) {
  if (!path || strcmp(path, "-") == 0) {
    if (text->len && fwrite(text->data, 1, text->len, stdout) != text->len) {
      tl_error_noloc(d, "cannot write to stdout");
      return false;
    }
    return fflush(stdout) == 0;
  }
  const char *shown = path; // errors name the path the user gave
  path = follow_links(text->arena, path);
  // A device or pipe (-o /dev/null, a fifo) is written in place: renaming a
  // file over it would replace the device itself.
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    FILE *f = fopen(path, "wb");
    bool ok = f && (text->len == 0 || fwrite(text->data, 1, text->len, f) == text->len);
    if (f && fclose(f) != 0) ok = false;
    if (!ok) tl_error_noloc(d, "cannot write '%s': %s", shown, strerror(errno));
    return ok;
  }
  size_t n = strlen(path);
  char *tmp = tl_arena_alloc(text->arena, n + 16, 1);
  snprintf(tmp, n + 16, "%s.tmp.XXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    tl_error_noloc(d, "cannot write '%s': %s", shown, strerror(errno));
    return false;
  }
  // mkstemp creates 0600; the output gets the usual 0666 less the umask.
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  FILE *f = fdopen(fd, "wb");
  bool ok = f && (text->len == 0 || fwrite(text->data, 1, text->len, f) == text->len);
  if (f && fclose(f) != 0) ok = false;
  if (!f) close(fd);
  if (ok && rename(tmp, path) != 0) {
    tl_error_noloc(d, "cannot write '%s': %s", shown, strerror(errno));
    unlink(tmp);
    return false;
  }
  if (!ok) {
    tl_error_noloc(d, "cannot write '%s'", shown);
    unlink(tmp);
  }
  return ok;
}

// Lexes, parses and runs sema: -1 with *m set to go on, else the exit
// status (the output of --emit=tokens / ast is written here).
static int front_half(TlArena *a, const TlOptions *o, TlDiag *d, TlSource *src,
                      const TlTarget *target, TlBuf *out, TlModule **m) {
  tl_source_set_language(src, o);
  TlFrontStop stop = o->emit == EMIT_TOKENS ? TL_FRONT_TOKENS
                     : o->emit == EMIT_AST  ? TL_FRONT_AST
                                            : TL_FRONT_MODULE;
  TlFront front;
  if (!tl_front_half(a, src, target, &o->sema, stop, d, &front)) return 1;
  if (stop == TL_FRONT_TOKENS) tl_tokens_print(out, front.tokens);
  if (stop == TL_FRONT_AST) tl_ast_print(out, front.ast);
  if (stop != TL_FRONT_MODULE) return write_output(o->output, out, d) ? 0 : 1;
  *m = front.module;
  return -1;
}

// The module the harness's reference lowering reads: a copy of m; with
// --size, the program through sema again with those runtime sizes bound as
// constants, so the reference is the static program of those sizes.
static TlModule *harness_reference(TlArena *a, const TlOptions *o, const TlSource *src,
                                   const TlTarget *target, TlModule *m, TlDiag *d) {
  if (o->nsizes == 0) return tl_module_clone(a, m);
  TlSemaOptions bound = o->sema;
  bound.sizes = o->sizes;
  bound.nsizes = o->nsizes;
  TlFront front;
  return tl_front_half(a, src, target, &bound, TL_FRONT_MODULE, d, &front) ? front.module : NULL;
}

static int compile(TlArena *a, const TlOptions *o, TlDiag *d) {
  TlBuf out, dump;
  tl_buf_init(&out, a);
  tl_buf_init(&dump, a);
  tl_buf_puts(&out, "");
  tl_buf_puts(&dump, "");
  char err[512];
  TlSource *src = tl_source_read(a, o->input, err, sizeof err);
  if (!src) {
    tl_error_noloc(d, "%s", err);
    return 1;
  }
  TlTarget target;
  if (!tl_target_load(a, o->target, &target, err, sizeof err)) {
    tl_error_noloc(d, "%s", err);
    return 1;
  }
  TlModule *m = NULL;
  int rc;
  if (o->ir_input) {
    // A .tir file: the module is read back from the text, no sema.
    m = tl_ir_parse(a, src, d);
    rc = m && !d->nerrors ? -1 : 1;
  } else {
    rc = front_half(a, o, d, src, &target, &out, &m);
  }
  if (rc >= 0) return rc;
  if (!o->ir_input) // tiles read before anything writes them: warnings only
    for (int k = 0; k < m->kernels.len; k++)
      tl_check_uninitialized(TL_VEC_AT(m->kernels, TlKernel, k), d);
  // The harness's reference lowering reads the tile IR as sema made it; the
  // passes rewrite m in place, so it gets a copy made before they run.
  TlModule *ref = o->harness ? harness_reference(a, o, src, &target, m, d) : NULL;
  bool ok = tl_run_pipeline(a, m, o, d, &dump);
  if (dump.len) {
    fwrite(dump.data, 1, dump.len, stderr);
    fflush(stderr);
  }
  if (!ok || d->nerrors) return 1;
  if (o->harness) {
    TlHarnessOptions ho = {
        o->cublas, o->harness_iters ? o->harness_iters : 100, 1234, o->sizes, o->nsizes, o->data,
        o->ndata};
    if (!ref || d->nerrors || !tl_emit_harness(a, ref, m, &ho, &out, d)) return 1;
    return write_output(o->output, &out, d) ? 0 : 1;
  }
  switch (o->emit) {
  case EMIT_IR:
    tl_ir_print_module(&out, m);
    break;
  case EMIT_PLAN:
    if (!tl_emit_plan(m, &out, d)) return 1;
    break;
  case EMIT_SIGNATURE:
    tl_emit_signature(m, &out);
    break;
  default:
    // IR text resumed without the passes that lower it: a located refusal,
    // not the emitter's internal error on tile-level statements.
    for (int i = 0; i < m->kernels.len; i++) {
      const TlKernel *k = TL_VEC_AT(m->kernels, TlKernel, i);
      if (!k->thread_level) {
        tl_error(d, k->loc, "kernel '%s' is still tile-level IR; CUDA is emitted from the IR "
                            "after partition", k->name);
        TlBuf all;
        tl_buf_init(&all, a);
        for (int p = 0; p < tl_pipeline_npasses; p++)
          tl_buf_printf(&all, "%s%s", p ? "," : "", tl_pipeline_passes[p].name);
        tl_note(d, k->loc, "run the passes it has not been through, from --passes=%s", all.data);
        return 1;
      }
    }
    tl_emit_cuda(a, m, &out);
    break;
  }
  if (d->nerrors) return 1;
  if (o->header && o->emit == EMIT_CUDA) {
    TlBuf h;
    tl_buf_init(&h, a);
    tl_buf_puts(&h, "");
    const char *base = strrchr(o->header, '/');
    tl_emit_header(m, base ? base + 1 : o->header, &h);
    if (!write_output(o->header, &h, d)) return 1;
  }
  return write_output(o->output, &out, d) ? 0 : 1;
}

int tl_driver_main(int argc, char **argv) {
  TlOptions o;
  int max_errors = 20;
  int rc = parse_options(argc, argv, &o, &max_errors);
  if (rc != 0) return rc < 0 ? 0 : rc;
  if (o.stop_after && o.emit == EMIT_CUDA) o.emit = EMIT_IR;
  TlDiag d;
  tl_diag_init(&d, stderr);
  d.max_errors = max_errors;
  d.warnings_off = o.warnings_off;
  d.werror = o.werror;
  TlArena arena;
  tl_arena_init(&arena);
  rc = compile(&arena, &o, &d);
  if (d.nerrors && rc == 0) rc = 1;
  if (d.nerrors > 0)
    fprintf(stderr, "%d error%s generated.\n", d.nerrors, d.nerrors == 1 ? "" : "s");
  tl_arena_free(&arena);
  return rc;
}
