// Support: the arena every compilation allocates from, growable text and
// pointer buffers, source files with locations, and diagnostics.
//
// Only lib/Support/Arena.c calls the system allocator. Everything a
// compilation creates (source text, tokens, AST, IR, output text) lives in
// one TlArena and dies with it in one tl_arena_free call.
#ifndef TLC_SUPPORT_H
#define TLC_SUPPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* lib/Support/Arena.c */
typedef struct TlArenaBlock TlArenaBlock;
typedef struct TlArena {
  TlArenaBlock *head;
  size_t bytes_used; // total handed out, for --stats and the resource limits
} TlArena;

void tl_arena_init(TlArena *a);
void tl_arena_free(TlArena *a);
void *tl_arena_alloc(TlArena *a, size_t size, size_t align); // zeroed
char *tl_arena_strndup(TlArena *a, const char *s, size_t n);
char *tl_arena_strdup(TlArena *a, const char *s);
char *tl_arena_printf(TlArena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define TL_NEW(a, T) ((T *)tl_arena_alloc((a), sizeof(T), _Alignof(T)))
#define TL_NEW_ARRAY(a, T, n) ((T *)tl_arena_alloc((a), sizeof(T) * (size_t)(n), _Alignof(T)))

// Dies with a message: used only when the system allocator fails.
_Noreturn void tl_fatal_oom(void);

// Internal invariant failures: a compiler bug, never a user error.
_Noreturn void tl_internal_error(const char *where, const char *file, int line, const char *fmt,
                                 ...) __attribute__((format(printf, 4, 5)));
#define TL_UNREACHABLE(where, msg) tl_internal_error((where), __FILE__, __LINE__, "%s", (msg))
#define TL_ASSERT(where, cond)                                                                     \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      tl_internal_error((where), __FILE__, __LINE__, "assertion '%s' failed", #cond);             \
  } while (0)

/* lib/Support/Vec.c: a growable array of pointers, in the arena */
typedef struct TlVec {
  void **items;
  int len, cap;
} TlVec;
void tl_vec_push(TlArena *a, TlVec *v, void *item);
#define TL_VEC_AT(v, T, i) ((T *)(v).items[(i)])

/* lib/Support/Buf.c: growable text, in the arena */
typedef struct TlBuf {
  TlArena *arena;
  char *data;
  size_t len, cap;
} TlBuf;
void tl_buf_init(TlBuf *b, TlArena *a);
void tl_buf_putc(TlBuf *b, char c);
void tl_buf_puts(TlBuf *b, const char *s);
void tl_buf_write(TlBuf *b, const char *s, size_t n);
void tl_buf_printf(TlBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tl_buf_vprintf(TlBuf *b, const char *fmt, va_list ap);
void tl_buf_indent(TlBuf *b, int level); // two spaces per level
// s as XML text (SVG labels): & < > " ' escaped, control characters other
// than tab and newline (not allowed in XML 1.0) written as '?'.
void tl_buf_xml_text(TlBuf *b, const char *s);
// A JSON string literal: quotes, backslashes and control characters escaped,
// every other byte copied (the text is UTF-8 already).
void tl_buf_json_string(TlBuf *b, const char *s);

/* lib/Support/Source.c */
typedef struct TlSource {
  const char *name; // as given on the command line ("<stdin>" for -)
  const char *text; // NUL-terminated at len; a NUL before len is a lexer error
  size_t len;
  // A TileLang Python file (.py): bitwise operators lex, and top-level code
  // the parser or evaluator cannot handle is host code, skipped until used.
  bool python;
} TlSource;

// A location: 1-based line and byte column, and the length of the token.
typedef struct TlLoc {
  const TlSource *src;
  int line, col, len;
} TlLoc;

// Reads a whole file (or stdin for "-") into the arena. On failure writes a
// one-line reason into err and returns NULL.
TlSource *tl_source_read(TlArena *a, const char *path, char *err, size_t errlen);
TlSource *tl_source_from_string(TlArena *a, const char *name, const char *text);

/* lib/Support/Diag.c */
typedef enum { TL_SEV_ERROR, TL_SEV_WARNING, TL_SEV_NOTE } TlSeverity;
typedef struct TlDiag {
  FILE *out;
  bool color;
  int nerrors, nwarnings;
  int max_errors;      // stop reporting (and compiling) after this many
  bool warnings_off;   // -w
  bool werror;         // -Werror
  bool dropped;        // the last warning or error was not shown: nor are its notes
  // The start of the line last shown in an excerpt, so that n errors in
  // line order find their lines in one pass over the text, not n.
  const char *seen_text; // the TlSource text it is in
  const char *seen_line;
  int seen_line_no;
} TlDiag;

void tl_diag_init(TlDiag *d, FILE *out);
void tl_error(TlDiag *d, TlLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void tl_warning(TlDiag *d, TlLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void tl_note(TlDiag *d, TlLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
// An error with no source location (command line, I/O): "tlc: error: ...".
void tl_error_noloc(TlDiag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tl_vdiag(TlDiag *d, TlSeverity sev, TlLoc loc, const char *fmt, va_list ap);
bool tl_diag_too_many(const TlDiag *d);

// Capturing: diagnostics between begin and end go to a buffer instead of the
// stream and do not count. Used for host code in .py files, whose errors only
// matter if a kernel needs that code: end returns the text (arena copy) and
// the number of errors it held, so they can be replayed later.
typedef struct TlDiagCapture {
  FILE *saved_out;
  int saved_errors, saved_warnings;
  bool saved_color;
  char *buf;
  size_t len;
} TlDiagCapture;
void tl_diag_capture_begin(TlDiag *d, TlDiagCapture *c);
const char *tl_diag_capture_end(TlDiag *d, TlDiagCapture *c, TlArena *a, int *nerrors);
// Prints captured text and counts its errors as reported now.
void tl_diag_replay(TlDiag *d, const char *text, int nerrors);

// Formats a one-line reason into a caller's buffer (err may be NULL).
void tl_set_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* lib/Support/SourceArgs.c: --call, -D and --target, shared by every command
   that compiles a source file (tlc and the explain tools' FILE modes) */
#define TL_MAX_SOURCE_ARGS 64
typedef struct TlSourceArgs {
  const char *calls[TL_MAX_SOURCE_ARGS]; // --call 'F(ARGS)', in order
  int ncalls;
  const char *defines[TL_MAX_SOURCE_ARGS]; // -D NAME=VALUE, in order
  int ndefines;
  const char *target; // --target NAME; NULL when absent
} TlSourceArgs;
typedef enum { TL_ARG_OTHER, TL_ARG_TAKEN, TL_ARG_BAD } TlArgResult;
// Reads argv[*i] when it is `--call V`, `--call=V`, `-D V`, `-DV`,
// `--target V` or `--target=V`, moving *i past a separate value:
// TL_ARG_TAKEN, or TL_ARG_BAD with the reason in err (a missing value, a -D
// NAME that is not an identifier, more than TL_MAX_SOURCE_ARGS). TL_ARG_OTHER
// for any other argument.
TlArgResult tl_source_arg(int argc, char **argv, int *i, TlSourceArgs *s, char *err, size_t errlen);

/* lib/Support/Checked.c: exact 64-bit arithmetic; false on overflow */
bool tl_add_overflows(int64_t a, int64_t b, int64_t *out);
bool tl_sub_overflows(int64_t a, int64_t b, int64_t *out);
bool tl_mul_overflows(int64_t a, int64_t b, int64_t *out);
int64_t tl_floordiv(int64_t a, int64_t b); // Python //, b != 0, no overflow case
int64_t tl_floormod(int64_t a, int64_t b); // Python %, sign of b
int64_t tl_gcd(int64_t a, int64_t b);

#endif
