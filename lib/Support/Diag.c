// Diagnostics in clang's layout:
//
//   kernel.tl:3:7: error: unexpected '@'
//   x = 1 @ 2
//         ^~
//
// Errors are counted, never fatal here: callers decide whether to go on.
// Colour only when the stream is a terminal and NO_COLOR is unset.
#define _POSIX_C_SOURCE 200809L // open_memstream
#include "tlc/Support.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void tl_diag_init(TlDiag *d, FILE *out) {
  memset(d, 0, sizeof *d);
  d->out = out;
  const char *nc = getenv("NO_COLOR");
  d->color = isatty(fileno(out)) && !(nc && *nc);
  d->max_errors = 20;
}

bool tl_diag_too_many(const TlDiag *d) {
  return d->max_errors > 0 && d->nerrors >= d->max_errors;
}

static const char *sev_name(TlSeverity s) {
  return s == TL_SEV_ERROR ? "error" : s == TL_SEV_WARNING ? "warning" : "note";
}

static const char *sev_color(TlSeverity s) {
  return s == TL_SEV_ERROR ? "\x1b[1;31m" : s == TL_SEV_WARNING ? "\x1b[1;35m" : "\x1b[1;36m";
}

// Prints the source line holding loc and a caret (with ~ under the rest of
// the token) below it.
static void print_excerpt(TlDiag *d, TlLoc loc) {
  const char *text = loc.src->text;
  const char *p = text;
  int line = 1;
  if (d->seen_text == text && loc.line > d->seen_line_no / 2) { // nearer the last line shown
    p = d->seen_line;
    line = d->seen_line_no;
    for (; line > loc.line && p > text; line--) { // back to the start of the line before
      p--;
      while (p > text && p[-1] != '\n')
        p--;
    }
  }
  for (; line < loc.line && *p; p++)
    if (*p == '\n')
      line++;
  d->seen_text = text;
  d->seen_line = p;
  d->seen_line_no = line;
  const char *end = p;
  while (*end && *end != '\n')
    end++;
  if (end > p && end[-1] == '\r')
    end--;
  int len = (int)(end - p);
  int col = loc.col < 1 ? 1 : loc.col;
  // Long lines: a 400-byte window around the column, marked with "...".
  int start = 0, stop = len;
  if (len > 400) {
    start = col - 1 > 200 ? col - 1 - 200 : 0;
    stop = start + 400 < len ? start + 400 : len;
  }
  const char *pre = start > 0 ? "..." : "";
  fprintf(d->out, "%s%.*s%s\n", pre, stop - start, p + start, stop < len ? "..." : "");
  for (int i = 0; i < (int)strlen(pre); i++)
    fputc(' ', d->out);
  for (int i = start + 1; i < col && i <= stop; i++)
    fputc(p[i - 1] == '\t' ? '\t' : ' ', d->out);
  if (d->color)
    fputs("\x1b[1;32m", d->out);
  fputc('^', d->out);
  for (int i = 1; i < loc.len && col + i <= stop; i++)
    fputc('~', d->out);
  if (d->color)
    fputs("\x1b[0m", d->out);
  fputc('\n', d->out);
}

void tl_vdiag(TlDiag *d, TlSeverity sev, TlLoc loc, const char *fmt, va_list ap) {
  if (sev == TL_SEV_WARNING && d->werror)
    sev = TL_SEV_ERROR;
  if (sev == TL_SEV_WARNING && d->warnings_off)
    return;
  if (sev == TL_SEV_ERROR) {
    if (tl_diag_too_many(d))
      return;
    d->nerrors++;
  } else if (sev == TL_SEV_WARNING) {
    d->nwarnings++;
  }
  if (d->color)
    fputs("\x1b[1m", d->out);
  if (loc.src)
    fprintf(d->out, "%s:%d:%d: ", loc.src->name, loc.line, loc.col);
  else
    fputs("tlc: ", d->out);
  if (d->color)
    fputs(sev_color(sev), d->out);
  fprintf(d->out, "%s: ", sev_name(sev));
  if (d->color)
    fputs("\x1b[0m\x1b[1m", d->out);
  vfprintf(d->out, fmt, ap);
  if (d->color)
    fputs("\x1b[0m", d->out);
  fputc('\n', d->out);
  if (loc.src && loc.line > 0)
    print_excerpt(d, loc);
  if (sev == TL_SEV_ERROR && tl_diag_too_many(d))
    fprintf(d->out, "tlc: fatal error: too many errors emitted, stopping now\n");
}

void tl_error(TlDiag *d, TlLoc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  tl_vdiag(d, TL_SEV_ERROR, loc, fmt, ap);
  va_end(ap);
}

void tl_warning(TlDiag *d, TlLoc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  tl_vdiag(d, TL_SEV_WARNING, loc, fmt, ap);
  va_end(ap);
}

void tl_note(TlDiag *d, TlLoc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  tl_vdiag(d, TL_SEV_NOTE, loc, fmt, ap);
  va_end(ap);
}

void tl_error_noloc(TlDiag *d, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  TlLoc none = {0};
  tl_vdiag(d, TL_SEV_ERROR, none, fmt, ap);
  va_end(ap);
}

void tl_diag_capture_begin(TlDiag *d, TlDiagCapture *c) {
  c->saved_out = d->out;
  c->saved_errors = d->nerrors;
  c->saved_warnings = d->nwarnings;
  c->saved_color = d->color;
  c->buf = NULL;
  c->len = 0;
  FILE *f = open_memstream(&c->buf, &c->len);
  if (f) {
    d->out = f;
    d->color = false;
  }
}

const char *tl_diag_capture_end(TlDiag *d, TlDiagCapture *c, TlArena *a, int *nerrors) {
  const char *text = "";
  if (d->out != c->saved_out) {
    fclose(d->out);
    text = tl_arena_strdup(a, c->buf ? c->buf : "");
    free(c->buf);
  }
  *nerrors = d->nerrors - c->saved_errors;
  d->out = c->saved_out;
  d->color = c->saved_color;
  d->nerrors = c->saved_errors;
  d->nwarnings = c->saved_warnings;
  return text;
}

void tl_diag_replay(TlDiag *d, const char *text, int nerrors) {
  fputs(text, d->out);
  d->nerrors += nerrors > 0 ? nerrors : 1;
}
