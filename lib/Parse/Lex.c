// Lexer: turns a .tl source into tokens, Python style.
//
// Layout rules (the same as Python's):
//  * Outside brackets, each logical line ends with NEWLINE. Blank lines and
//    lines holding only a comment produce nothing.
//  * At the start of a logical line the indentation (spaces only; a TAB is an
//    error) is compared with a stack of open levels: deeper pushes one INDENT,
//    shallower pops one DEDENT per closed level and must land on an open
//    level exactly.
//  * Inside (), [] and {} newlines and indentation are ignored (implicit line
//    joining); a backslash before a newline joins lines explicitly.
//  * At end of file a missing NEWLINE is supplied, then DEDENTs to level 0.
// Every token carries its location; string tokens carry the decoded text.
#include "tlc/Lex.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_INDENT_LEVELS = 100, MAX_BRACKET_DEPTH = 200, MAX_LINE_BYTES = 10000 };

typedef struct Lexer {
  TlArena *arena;
  const TlSource *src;
  TlDiag *diag;
  const char *p;          // current position
  const char *line_start; // start of the current physical line
  int line;
  int indents[MAX_INDENT_LEVELS];
  int nindents;
  char brackets[MAX_BRACKET_DEPTH]; // open bracket characters
  TlLoc bracket_locs[MAX_BRACKET_DEPTH];
  int depth;
  bool at_line_start;
  bool deep_reported; // the nesting limits are reported once
  int deep_brackets;  // brackets opened past the limit (not tracked)
  TlToken *toks;
  int ntoks, cap;
} Lexer;

static const char *const token_names[] = {
#define X(k, s) s,
    TL_TOKENS(X)
#undef X
};

const char *tl_token_kind_name(TlTokenKind k) {
  return k < TK_COUNT ? token_names[k] : "?";
}

static TlLoc loc_at(Lexer *lx, const char *p, int len) {
  TlLoc l = {lx->src, lx->line, (int)(p - lx->line_start) + 1, len};
  return l;
}

static TlToken *push(Lexer *lx, TlTokenKind kind, const char *start, int len) {
  if (lx->ntoks == lx->cap) {
    int cap = lx->cap ? lx->cap * 2 : 256;
    TlToken *t = TL_NEW_ARRAY(lx->arena, TlToken, cap);
    if (lx->ntoks)
      memcpy(t, lx->toks, sizeof(TlToken) * (size_t)lx->ntoks);
    lx->toks = t;
    lx->cap = cap;
  }
  TlToken *t = &lx->toks[lx->ntoks++];
  memset(t, 0, sizeof *t);
  t->kind = kind;
  t->loc = loc_at(lx, start, len);
  t->text = tl_arena_strndup(lx->arena, start, (size_t)len);
  return t;
}

static void newline(Lexer *lx, const char *after) {
  lx->line++;
  lx->line_start = after;
}

// Length of a valid UTF-8 sequence starting at p, or 0 if invalid. Valid
// is RFC 3629's: the shortest form only (no overlongs), no UTF-16
// surrogates (U+D800..U+DFFF), nothing above U+10FFFF.
static int utf8_len(const unsigned char *p) {
  if (p[0] < 0x80)
    return 1;
  int n = (p[0] & 0xE0) == 0xC0 ? 2 : (p[0] & 0xF0) == 0xE0 ? 3 : (p[0] & 0xF8) == 0xF0 ? 4 : 0;
  if (n == 0 || (n == 2 && p[0] < 0xC2) || p[0] > 0xF4) return 0;
  for (int i = 1; i < n; i++)
    if ((p[i] & 0xC0) != 0x80)
      return 0;
  // The second byte's range for the lead bytes that have a narrower one.
  if ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] > 0x9F) ||
      (p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] > 0x8F))
    return 0;
  return n;
}

// Checks the whole text is UTF-8 without NUL bytes and lines are bounded,
// once, up front (after the byte order mark, so columns match the tokens').
static bool check_text(Lexer *lx) {
  const unsigned char *p = (const unsigned char *)lx->p;
  const unsigned char *end = (const unsigned char *)lx->src->text + lx->src->len;
  const unsigned char *ls = p;
  int line = 1;
  bool ok = true;
  while (p < end) {
    if (*p == '\0') {
      // Everything after it would be invisible to the NUL-terminated scans
      // below, so it is an error here, with its place.
      TlLoc l = {lx->src, line, (int)(p - ls) + 1, 1};
      tl_error(lx->diag, l, "NUL byte in the source; is it a text file?");
      return false;
    }
    if (*p == '\n') {
      if (p - ls > MAX_LINE_BYTES) {
        TlLoc l = {lx->src, line, 1, 1};
        tl_error(lx->diag, l, "line is %d bytes long; the limit is %d", (int)(p - ls),
                 MAX_LINE_BYTES);
        ok = false;
      }
      line++;
      ls = ++p;
      continue;
    }
    int n = utf8_len(p);
    if (n == 0) {
      TlLoc l = {lx->src, line, (int)(p - ls) + 1, 1};
      tl_error(lx->diag, l, "invalid UTF-8 byte 0x%02x; .tl files must be UTF-8", *p);
      return false;
    }
    p += n;
  }
  if (p - ls > MAX_LINE_BYTES) {
    TlLoc l = {lx->src, line, 1, 1};
    tl_error(lx->diag, l, "line is %d bytes long; the limit is %d", (int)(p - ls), MAX_LINE_BYTES);
    ok = false;
  }
  return ok;
}

// Handles indentation at the start of a logical line. Returns false when the
// line is blank or a comment (nothing to emit).
static bool start_line(Lexer *lx) {
  const char *p = lx->p;
  int width = 0;
  while (*p == ' ' || *p == '\t' || *p == '\f') {
    if (*p == '\t') {
      // Only an error when the line holds code.
      const char *q = p;
      while (*q == ' ' || *q == '\t' || *q == '\f')
        q++;
      if (*q != '\n' && *q != '#' && *q != '\0' && *q != '\r' && !lx->src->python) {
        tl_error(lx->diag, loc_at(lx, p, 1),
                 "tab character in indentation; indent with spaces only");
      }
      width += 8 - width % 8;
    } else if (*p == ' ') {
      width++;
    }
    p++;
  }
  lx->p = p;
  if (*p == '\n' || *p == '#' || *p == '\0' || (*p == '\r' && p[1] == '\n'))
    return false;
  int top = lx->indents[lx->nindents - 1];
  if (width > top) {
    if (lx->nindents == MAX_INDENT_LEVELS) {
      if (!lx->deep_reported)
        tl_error(lx->diag, loc_at(lx, p, 1), "blocks nested more than %d deep",
                 MAX_INDENT_LEVELS - 1);
      lx->deep_reported = true;
      return true;
    }
    lx->indents[lx->nindents++] = width;
    push(lx, TK_INDENT, p, 0);
  } else if (width < top) {
    while (lx->nindents > 1 && width < lx->indents[lx->nindents - 1]) {
      lx->nindents--;
      push(lx, TK_DEDENT, p, 0);
    }
    if (width != lx->indents[lx->nindents - 1])
      tl_error(lx->diag, loc_at(lx, p, 1),
               "unindent does not match any outer indentation level");
  }
  return true;
}

static void lex_number(Lexer *lx) {
  const char *start = lx->p;
  const char *p = start;
  bool is_float = false;
  int base = 10;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X' || p[1] == 'o' || p[1] == 'O' || p[1] == 'b' ||
                      p[1] == 'B')) {
    base = (p[1] == 'x' || p[1] == 'X') ? 16 : (p[1] == 'o' || p[1] == 'O') ? 8 : 2;
    p += 2;
    while (isxdigit((unsigned char)*p) || *p == '_')
      p++;
  } else {
    while (isdigit((unsigned char)*p) || *p == '_')
      p++;
    if (*p == '.' && !(p[1] == '.')) {
      is_float = true;
      p++;
      while (isdigit((unsigned char)*p) || *p == '_')
        p++;
    }
    if ((*p == 'e' || *p == 'E') &&
        (isdigit((unsigned char)p[1]) ||
         ((p[1] == '+' || p[1] == '-') && isdigit((unsigned char)p[2])))) {
      is_float = true;
      p += 2;
      while (isdigit((unsigned char)*p) || *p == '_')
        p++;
    }
  }
  int len = (int)(p - start);
  if (lx->src->python && (*p == 'j' || *p == 'J') && !isalnum((unsigned char)p[1]) && p[1] != '_') {
    TlToken *t = push(lx, TK_FLOAT, start, len + 1);
    t->deferred_error = "complex numbers are not supported by tlc";
    lx->p = p + 1;
    return;
  }
  if (isalpha((unsigned char)*p) || *p == '_') {
    const char *q = p;
    while (isalnum((unsigned char)*q) || *q == '_')
      q++;
    tl_error(lx->diag, loc_at(lx, start, (int)(q - start)), "invalid number literal '%.*s'",
             (int)(q - start), start);
    lx->p = q;
    push(lx, TK_INT, start, (int)(q - start));
    return;
  }
  // Copy without underscores, which Python allows between digits. Any
  // length: a float may have 200 digits, and an int's range is checked below.
  char *buf = tl_arena_alloc(lx->arena, (size_t)len + 1, 1);
  int n = 0;
  bool bad_underscore = start[len - 1] == '_';
  for (int i = 0; i < len; i++) {
    if (start[i] == '_') {
      if (i + 1 < len && start[i + 1] == '_')
        bad_underscore = true;
      continue;
    }
    buf[n++] = start[i];
  }
  buf[n] = '\0';
  TlToken *t = push(lx, is_float ? TK_FLOAT : TK_INT, start, len);
  lx->p = p;
  if (bad_underscore) {
    tl_error(lx->diag, t->loc, "invalid number literal '%.*s'", len, start);
    return;
  }
  errno = 0;
  if (is_float) {
    t->fval = strtod(buf, NULL);
    if (errno == ERANGE && (t->fval > 1 || t->fval < -1))
      tl_error(lx->diag, t->loc, "float literal '%s' is out of range", t->text);
  } else {
    const char *digits = base == 10 ? buf : buf + 2;
    if (base != 10 && *digits == '\0') {
      tl_error(lx->diag, t->loc, "invalid number literal '%s'", t->text);
      return;
    }
    char *end;
    unsigned long long v = strtoull(digits, &end, base);
    if (*end != '\0') {
      tl_error(lx->diag, t->loc, "invalid digit '%c' in number literal '%s'", *end, t->text);
    } else if ((errno == ERANGE || v > (unsigned long long)INT64_MAX) && lx->src->python) {
      t->deferred_error = "integer literal does not fit in 64 bits";
    } else if (errno == ERANGE || v > (unsigned long long)INT64_MAX) {
      tl_error(lx->diag, t->loc, "integer literal '%s' does not fit in 64 bits", t->text);
    } else if (base == 10 && buf[0] == '0' && buf[1] != '\0' && v != 0) {
      tl_error(lx->diag, t->loc, "leading zeros in decimal integer literal '%s' are not permitted; "
                                 "use an 0o prefix for octal integers", t->text);
    }
    t->ival = (int64_t)v;
  }
}

// Decodes a string literal with optional prefix letters (r, b, u, f) and
// single, double or triple quotes.
static void lex_string(Lexer *lx, const char *start) {
  const char *p = start;
  bool raw = false, formatted = false;
  while (*p != '\'' && *p != '"') {
    if (*p == 'r' || *p == 'R')
      raw = true;
    if (*p == 'f' || *p == 'F')
      formatted = true;
    p++;
  }
  char q = *p;
  bool triple = p[1] == q && p[2] == q;
  p += triple ? 3 : 1;
  int start_line = lx->line;
  const char *start_line_start = lx->line_start;
  TlBuf val;
  tl_buf_init(&val, lx->arena);
  tl_buf_puts(&val, "");
  for (;;) {
    if (*p == '\0' || (!triple && *p == '\n')) {
      TlLoc l = {lx->src, start_line, (int)(start - start_line_start) + 1, 1};
      tl_error(lx->diag, l, "unterminated string literal");
      break;
    }
    if (*p == q && (!triple || (p[1] == q && p[2] == q))) {
      p += triple ? 3 : 1;
      break;
    }
    if (*p == '\\' && !raw && p[1]) {
      char c = p[1];
      char out = c == 'n' ? '\n' : c == 't' ? '\t' : c == '0' ? '\0' : c;
      if (c == '\n')
        newline(lx, p + 2);
      else if (out)
        tl_buf_putc(&val, out);
      p += 2;
      continue;
    }
    if (*p == '\n')
      newline(lx, p + 1);
    tl_buf_putc(&val, *p);
    p++;
  }
  // The token's location is its first line; its length is clamped to that line.
  TlToken *t;
  if (lx->line == start_line) {
    t = push(lx, TK_STRING, start, (int)(p - start));
  } else {
    int saved_line = lx->line;
    const char *saved_ls = lx->line_start;
    lx->line = start_line;
    lx->line_start = start_line_start;
    t = push(lx, TK_STRING, start, 1);
    lx->line = saved_line;
    lx->line_start = saved_ls;
  }
  t->text = val.data;
  t->ival = formatted; // an f-string: its text is kept, not interpolated
  lx->p = p;
}

static bool is_string_start(const char *p) {
  int n = 0;
  while (n < 2 && strchr("rRbBuUfF", p[n]) && p[n])
    n++;
  for (int i = 0; i <= n; i++)
    if (p[i] == '\'' || p[i] == '"')
      return true;
    else if (!strchr("rRbBuUfF", p[i]) || !p[i])
      return false;
  return false;
}

static TlTokenKind keyword(const char *s, int len) {
  for (int k = TK_AND; k <= TK_WITH; k++)
    if ((int)strlen(token_names[k]) == len && memcmp(token_names[k], s, (size_t)len) == 0)
      return (TlTokenKind)k;
  return TK_NAME;
}

static void open_bracket(Lexer *lx, char c, const char *p) {
  if (lx->depth == MAX_BRACKET_DEPTH) {
    if (!lx->deep_reported)
      tl_error(lx->diag, loc_at(lx, p, 1), "brackets nested more than %d deep", MAX_BRACKET_DEPTH);
    lx->deep_reported = true;
    lx->deep_brackets++;
    return;
  }
  lx->bracket_locs[lx->depth] = loc_at(lx, p, 1);
  lx->brackets[lx->depth++] = c;
}

static void close_bracket(Lexer *lx, char c, const char *p) {
  char want = c == ')' ? '(' : c == ']' ? '[' : '{';
  if (lx->deep_brackets > 0) {
    lx->deep_brackets--;
    return;
  }
  if (lx->depth == 0) {
    tl_error(lx->diag, loc_at(lx, p, 1), "unmatched '%c'", c);
    return;
  }
  if (lx->brackets[lx->depth - 1] != want) {
    tl_error(lx->diag, loc_at(lx, p, 1), "closing '%c' does not match '%c'", c,
             lx->brackets[lx->depth - 1]);
    tl_note(lx->diag, lx->bracket_locs[lx->depth - 1], "opened here");
  }
  lx->depth--;
}

static void lex_punct(Lexer *lx) {
  const char *p = lx->p;
  // Bitwise operators are Python (host code, index arithmetic in factories)
  // but not part of the .tl language.
  if (!lx->src->python) {
    if ((p[0] == '<' && p[1] == '<') || (p[0] == '>' && p[1] == '>')) {
      tl_error(lx->diag, loc_at(lx, p, 2), "bitwise operator '%.2s' is not supported in .tl", p);
      lx->p += 2;
      return;
    }
    if (strchr("&|^~", *p) || (*p == '@' && p[1] == '=') || (*p == ':' && p[1] == '=') ||
        (*p == '*' && p[1] == '*' && p[2] == '='))
      goto not_tl;
  }
  for (int k = TK_STARSTAR_EQ; k <= TK_AT; k++) {
    size_t n = strlen(token_names[k]);
    if (strncmp(p, token_names[k], n) == 0) {
      if (k == TK_LPAREN || k == TK_LBRACKET || k == TK_LBRACE)
        open_bracket(lx, *p, p);
      else if (k == TK_RPAREN || k == TK_RBRACKET || k == TK_RBRACE)
        close_bracket(lx, *p, p);
      push(lx, (TlTokenKind)k, p, (int)n);
      lx->p += n;
      return;
    }
  }
not_tl:;
  int n = utf8_len((const unsigned char *)p);
  if (n == 0)
    n = 1;
  if (*p == '@' || *p == ':' || *p == '*') { // @= := **= in a .tl file
    int len = *p == '*' ? 3 : 2;
    tl_error(lx->diag, loc_at(lx, p, len), "operator '%.*s' is not supported in .tl", len, p);
    lx->p += len;
    return;
  }
  if (strchr("&|^~", *p) || (*p == '<' && p[1] == '<') || (*p == '>' && p[1] == '>')) {
    int len = (*p == '<' || *p == '>') ? 2 : 1;
    tl_error(lx->diag, loc_at(lx, p, len), "bitwise operator '%.*s' is not supported in .tl",
             len, p);
    lx->p += len;
    return;
  }
  if (*p == '!')
    tl_error(lx->diag, loc_at(lx, p, 1), "unexpected '!'; did you mean 'not' or '!='?");
  else if ((unsigned char)*p >= 0x80)
    tl_error(lx->diag, loc_at(lx, p, 1), "unexpected non-ASCII character '%.*s'", n, p);
  else if (isprint((unsigned char)*p))
    tl_error(lx->diag, loc_at(lx, p, 1), "unexpected character '%c'", *p);
  else
    tl_error(lx->diag, loc_at(lx, p, 1), "unexpected control character 0x%02x",
             (unsigned char)*p);
  lx->p += n;
}

TlTokens tl_lex(TlArena *a, const TlSource *src, TlDiag *d) {
  Lexer lx = {0};
  lx.arena = a;
  lx.src = src;
  lx.diag = d;
  lx.p = src->text;
  lx.line_start = src->text;
  lx.line = 1;
  lx.indents[0] = 0;
  lx.nindents = 1;
  lx.at_line_start = true;
  // A UTF-8 byte order mark is allowed and skipped.
  if (strncmp(lx.p, "\xEF\xBB\xBF", 3) == 0)
    lx.p += 3, lx.line_start = lx.p;
  if (!check_text(&lx)) {
    push(&lx, TK_EOF, lx.p, 0);
    return (TlTokens){lx.toks, lx.ntoks};
  }
  while (*lx.p && !tl_diag_too_many(d)) {
    if (lx.at_line_start && lx.depth == 0) {
      lx.at_line_start = false;
      if (!start_line(&lx)) {
        // Blank or comment line: skip to the next one.
        while (*lx.p && *lx.p != '\n')
          lx.p++;
        if (*lx.p == '\n') {
          lx.p++;
          newline(&lx, lx.p);
        }
        lx.at_line_start = true;
        continue;
      }
    }
    const char *p = lx.p;
    char c = *p;
    if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
      lx.p++;
    } else if (c == '#') {
      while (*lx.p && *lx.p != '\n')
        lx.p++;
    } else if (c == '\n') {
      if (lx.depth == 0) {
        // At a CRLF the line ends at the '\r': "found end of line" gets the
        // same column as in an LF file, one past the last character.
        bool crlf = p > lx.line_start && p[-1] == '\r';
        push(&lx, TK_NEWLINE, crlf ? p - 1 : p, 1);
        lx.at_line_start = true;
      }
      lx.p++;
      newline(&lx, lx.p);
    } else if (c == '\\' && (p[1] == '\n' || (p[1] == '\r' && p[2] == '\n'))) {
      lx.p += p[1] == '\n' ? 2 : 3;
      newline(&lx, lx.p);
    } else if (is_string_start(p)) {
      lex_string(&lx, p);
    } else if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)p[1]))) {
      lex_number(&lx);
    } else if (isalpha((unsigned char)c) || c == '_' ||
               (lx.src->python && (unsigned char)c >= 0x80)) {
      // Python identifiers may hold non-ASCII letters (UTF-8 bytes).
      const char *q = p;
      while (isalnum((unsigned char)*q) || *q == '_' || (lx.src->python && (unsigned char)*q >= 0x80))
        q++;
      push(&lx, keyword(p, (int)(q - p)), p, (int)(q - p));
      lx.p = q;
    } else {
      lex_punct(&lx);
    }
  }
  if (lx.depth > 0)
    tl_error(d, lx.bracket_locs[lx.depth - 1], "'%c' was never closed",
             lx.brackets[lx.depth - 1]);
  if (lx.ntoks > 0 && lx.toks[lx.ntoks - 1].kind != TK_NEWLINE &&
      lx.toks[lx.ntoks - 1].kind != TK_DEDENT)
    push(&lx, TK_NEWLINE, lx.p, 0);
  while (lx.nindents > 1) {
    lx.nindents--;
    push(&lx, TK_DEDENT, lx.p, 0);
  }
  push(&lx, TK_EOF, lx.p, 0);
  return (TlTokens){lx.toks, lx.ntoks};
}

void tl_tokens_print(TlBuf *out, TlTokens toks) {
  for (int i = 0; i < toks.len; i++) {
    TlToken *t = &toks.items[i];
    tl_buf_printf(out, "%d:%d %s", t->loc.line, t->loc.col, tl_token_kind_name(t->kind));
    if (t->kind == TK_NAME || t->kind == TK_INT || t->kind == TK_FLOAT)
      tl_buf_printf(out, " '%s'", t->text);
    else if (t->kind == TK_STRING)
      tl_buf_printf(out, " \"%s\"", t->text);
    tl_buf_putc(out, '\n');
  }
}
