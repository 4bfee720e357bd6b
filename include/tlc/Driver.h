// The compiler driver (lib/Driver/): options, the pass pipeline, output.
#ifndef TLC_DRIVER_H
#define TLC_DRIVER_H

#include "tlc/IR.h"
#include "tlc/Sema.h"
#include "tlc/Target.h"

typedef enum { EMIT_TOKENS, EMIT_AST, EMIT_IR, EMIT_PLAN, EMIT_CUDA, EMIT_SIGNATURE } TlEmitKind;

typedef struct TlOptions {
  const char *input;     // path, or "-" for stdin
  const char *output;    // path, "-" for stdout, NULL for stdout
  TlEmitKind emit;
  const char *target;    // "sm_90"
  const char *print_after; // pass name, or NULL
  bool print_after_all;
  const char *stop_after;  // run the pipeline up to this pass (for --emit=ir)
  const char *passes;      // --passes=P1,P2: run these passes, in this order, instead
                           // of the whole pipeline
  bool ir_input;           // the input is IR text (.tir, or --ir): parsed, no sema; only
                           // the --passes run
  bool verify_each;        // run the verifier after every pass
  bool keep_threads;       // --keep-threads: no kernel gets more threads than it asks for
  bool overlap_pv;         // --overlap-pv: attention's P V overlaps the next softmax
  bool no_warp_specialize; // --no-warp-specialize: pipelines stay on cp.async (no TMA)
  bool cluster;            // --cluster: warp-specialized kernels in clusters of 2 (TMA multicast)
  bool warnings_off, werror;
  bool harness;            // --harness: kernels + reference + main()
  bool cublas;             // --cublas (with --harness)
  int harness_iters;       // --iters=N (with --harness)
  const char *header;      // --header=OUT.h: also write a header declaring the launchers
  bool python;             // --python, or an input ending in .py: a TileLang Python file
  TlSourceArgs source;     // --call, -D (--target is copied to target)
  const char *sizes[64];   // --size NAME=VALUE (with --harness): a runtime size's value
  int nsizes;
  const char *data[64];    // --data NAME=SPEC (with --harness): how input NAME is filled
  int ndata;
  TlSemaOptions sema;      // points at source's calls and defines
} TlOptions;

// Marks a source read for o as Python when o says so or its name ends in .py.
void tl_source_set_language(TlSource *src, const TlOptions *o);

/* lib/Driver/PassManager.c: the pass pipeline, in order */
typedef bool (*TlPassFn)(TlArena *, TlModule *, TlDiag *);
typedef struct TlPass {
  const char *name;
  TlPassFn run;
} TlPass;
extern const TlPass tl_pipeline_passes[];
extern const int tl_pipeline_npasses;
// The pass named by the first len bytes of name, or NULL.
const TlPass *tl_find_pass(const char *name, size_t len);
// Runs the passes (stopping after `stop_after` when non-NULL), printing the
// IR to `dump` after the passes asked for. False after errors.
bool tl_run_pipeline(TlArena *a, TlModule *m, const TlOptions *o, TlDiag *d, TlBuf *dump);

/* lib/Driver/Compile.c: source -> module, the front half shared by tools */
#include "tlc/Lex.h"
struct TlNode;
// Where the front half stops: after the lexer, the parser or sema.
typedef enum { TL_FRONT_TOKENS, TL_FRONT_AST, TL_FRONT_MODULE } TlFrontStop;
// What the front half made, up to where it stopped.
typedef struct TlFront {
  TlTokens tokens;
  struct TlNode *ast;
  TlModule *module;
} TlFront;
// Lexes src, then parses and runs sema unless `stop` says otherwise. The
// one place that chains the phases: the driver, the explain tools (through
// tl_compile_file) and the fuzzer call it. False after errors.
bool tl_front_half(TlArena *a, const TlSource *src, const TlTarget *target,
                   const TlSemaOptions *sema, TlFrontStop stop, TlDiag *d, TlFront *out);
TlModule *tl_compile_to_module(TlArena *a, const TlOptions *o, TlDiag *d, bool run_passes);
// The file at `path` through every pass, verified after each, for the
// target named `target` (NULL: sm_90a); the explain tools' TlExplainCompileFn.
TlModule *tl_compile_file(TlArena *a, const char *path, const TlSemaOptions *sema,
                          const char *target, TlDiag *d);

/* lib/Driver/TuneCommand.c: `tlc tune ...` runs `python3 -m tlc tune ...`
   (python/tlc/tune.py) with the package next to this binary */
int tl_tune_main(int argc, char **argv);

/* lib/Driver/Driver.c: `tlc [options] FILE` */
int tl_driver_main(int argc, char **argv);

#endif
