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

// Columns a terminal gives one code point: 0 for combining marks and
// zero-width characters, 2 for East Asian wide and fullwidth characters and
// emoji, 1 otherwise (a short form of Unicode's EastAsianWidth and wcwidth,
// independent of the locale).
static int cp_width(unsigned cp) {
  if ((cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x200B && cp <= 0x200F) ||
      (cp >= 0x20D0 && cp <= 0x20FF) || (cp >= 0xFE00 && cp <= 0xFE0F))
    return 0;
  if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) ||
      (cp >= 0x3041 && cp <= 0x33FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
      (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
      (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
      (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
      (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
      (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD))
    return 2;
  return 1;
}

// Decodes the code point at s[i] (at most n bytes) into *cp and returns its
// length in bytes; a byte that does not start valid UTF-8 counts as one
// character of width 1.
static int decode(const unsigned char *s, int i, int n, unsigned *cp) {
  unsigned c = s[i];
  int len = c < 0x80             ? 1
            : (c & 0xE0) == 0xC0 ? 2
            : (c & 0xF0) == 0xE0 ? 3
            : (c & 0xF8) == 0xF0 ? 4
                                 : 0;
  if (len == 0 || i + len > n) {
    *cp = '?';
    return 1;
  }
  unsigned v = len == 1 ? c : c & (0x7F >> len);
  for (int k = 1; k < len; k++) {
    if ((s[i + k] & 0xC0) != 0x80) {
      *cp = '?';
      return 1;
    }
    v = v << 6 | (s[i + k] & 0x3F);
  }
  *cp = v;
  return len;
}

static bool continuation(const char *p, int i) {
  return ((unsigned char)p[i] & 0xC0) == 0x80;
}

// Prints the source line holding loc and a caret (with ~ under the rest of
// the token) below it. The column counts bytes, like clang's; the caret line
// counts display columns, so the caret stays under its character after
// non-ASCII text (one space per code point, two for wide ones).
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
  // Long lines: a 400-byte window around the column, marked with "...",
  // widened so that it cuts no UTF-8 sequence in two.
  int start = 0, stop = len;
  if (len > 400) {
    start = col - 1 > 200 ? col - 1 - 200 : 0;
    stop = start + 400 < len ? start + 400 : len;
    while (start > 0 && continuation(p, start))
      start--;
    while (stop < len && continuation(p, stop))
      stop++;
  }
  const char *pre = start > 0 ? "..." : "";
  fprintf(d->out, "%s%.*s%s\n", pre, stop - start, p + start, stop < len ? "..." : "");
  for (int i = 0; i < (int)strlen(pre); i++)
    fputc(' ', d->out);
  const unsigned char *u = (const unsigned char *)p;
  int limit = col - 1 < stop ? col - 1 : stop; // the bytes before the caret
  for (int i = start; i < limit;) {
    unsigned cp;
    int n = decode(u, i, len, &cp);
    if (cp == '\t')
      fputc('\t', d->out);
    else
      for (int w = cp_width(cp); w > 0; w--)
        fputc(' ', d->out);
    i += n;
  }
  if (d->color)
    fputs("\x1b[1;32m", d->out);
  fputc('^', d->out);
  // The token's display width, less the caret's one column.
  int width = 0, tok_end = col - 1 + loc.len < stop ? col - 1 + loc.len : stop;
  for (int i = col - 1; i < tok_end;) {
    unsigned cp;
    int n = decode(u, i, len, &cp);
    width += cp_width(cp);
    i += n;
  }
  for (int i = 1; i < width; i++)
    fputc('~', d->out);
  if (d->color)
    fputs("\x1b[0m", d->out);
  fputc('\n', d->out);
}

void tl_vdiag(TlDiag *d, TlSeverity sev, TlLoc loc, const char *fmt, va_list ap) {
  if (sev == TL_SEV_WARNING && d->werror)
    sev = TL_SEV_ERROR;
  // A note belongs to the warning or error before it: shown with it or not at all.
  if (sev == TL_SEV_NOTE && d->dropped)
    return;
  d->dropped = false;
  if (sev == TL_SEV_WARNING && d->warnings_off) {
    d->dropped = true;
    return;
  }
  if (sev == TL_SEV_ERROR) {
    if (tl_diag_too_many(d)) {
      d->dropped = true;
      return;
    }
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
