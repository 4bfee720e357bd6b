// The lexer (lib/Parse/Lex.c): Python-style tokens with INDENT/DEDENT.
#ifndef TLC_LEX_H
#define TLC_LEX_H

#include "tlc/Support.h"

// X-macro table: kind, spelling (NULL for classes of tokens).
#define TL_TOKENS(X)                                                                               \
  X(TK_EOF, "end of file")                                                                         \
  X(TK_NEWLINE, "newline")                                                                         \
  X(TK_INDENT, "indent")                                                                           \
  X(TK_DEDENT, "dedent")                                                                           \
  X(TK_NAME, "name")                                                                               \
  X(TK_INT, "integer")                                                                             \
  X(TK_FLOAT, "float")                                                                             \
  X(TK_STRING, "string")                                                                           \
  /* keywords */                                                                                   \
  X(TK_AND, "and")                                                                                 \
  X(TK_AS, "as")                                                                                   \
  X(TK_ASSERT, "assert")                                                                           \
  X(TK_DEF, "def")                                                                                 \
  X(TK_ELIF, "elif")                                                                               \
  X(TK_ELSE, "else")                                                                               \
  X(TK_FALSE, "False")                                                                             \
  X(TK_FOR, "for")                                                                                 \
  X(TK_FROM, "from")                                                                               \
  X(TK_IF, "if")                                                                                   \
  X(TK_IMPORT, "import")                                                                           \
  X(TK_IN, "in")                                                                                   \
  X(TK_IS, "is")                                                                                   \
  X(TK_LAMBDA, "lambda")                                                                           \
  X(TK_NONE, "None")                                                                               \
  X(TK_NOT, "not")                                                                                 \
  X(TK_OR, "or")                                                                                   \
  X(TK_PASS, "pass")                                                                               \
  X(TK_RAISE, "raise")                                                                             \
  X(TK_RETURN, "return")                                                                           \
  X(TK_TRUE, "True")                                                                               \
  X(TK_WHILE, "while")                                                                             \
  X(TK_WITH, "with")                                                                               \
  /* punctuation, longest first within a prefix family */                                          \
  X(TK_STARSTAR_EQ, "**=")                                                                         \
  X(TK_STARSTAR, "**")                                                                             \
  X(TK_LSHIFT_EQ, "<<=")                                                                           \
  X(TK_RSHIFT_EQ, ">>=")                                                                           \
  X(TK_LSHIFT, "<<")                                                                               \
  X(TK_RSHIFT, ">>")                                                                               \
  X(TK_AMP_EQ, "&=")                                                                               \
  X(TK_PIPE_EQ, "|=")                                                                              \
  X(TK_CARET_EQ, "^=")                                                                             \
  X(TK_AT_EQ, "@=")                                                                                \
  X(TK_COLON_EQ, ":=")                                                                             \
  X(TK_AMP, "&")                                                                                   \
  X(TK_PIPE, "|")                                                                                  \
  X(TK_CARET, "^")                                                                                 \
  X(TK_TILDE, "~")                                                                                 \
  X(TK_SLASHSLASH_EQ, "//=")                                                                       \
  X(TK_SLASHSLASH, "//")                                                                           \
  X(TK_PLUS_EQ, "+=")                                                                              \
  X(TK_MINUS_EQ, "-=")                                                                             \
  X(TK_STAR_EQ, "*=")                                                                              \
  X(TK_SLASH_EQ, "/=")                                                                             \
  X(TK_PERCENT_EQ, "%=")                                                                           \
  X(TK_EQEQ, "==")                                                                                 \
  X(TK_NE, "!=")                                                                                   \
  X(TK_LE, "<=")                                                                                   \
  X(TK_GE, ">=")                                                                                   \
  X(TK_ARROW, "->")                                                                                \
  X(TK_PLUS, "+")                                                                                  \
  X(TK_MINUS, "-")                                                                                 \
  X(TK_STAR, "*")                                                                                  \
  X(TK_SLASH, "/")                                                                                 \
  X(TK_PERCENT, "%")                                                                               \
  X(TK_LT, "<")                                                                                    \
  X(TK_GT, ">")                                                                                    \
  X(TK_ASSIGN, "=")                                                                                \
  X(TK_LPAREN, "(")                                                                                \
  X(TK_RPAREN, ")")                                                                                \
  X(TK_LBRACKET, "[")                                                                              \
  X(TK_RBRACKET, "]")                                                                              \
  X(TK_LBRACE, "{")                                                                                \
  X(TK_RBRACE, "}")                                                                                \
  X(TK_COMMA, ",")                                                                                 \
  X(TK_COLON, ":")                                                                                 \
  X(TK_DOT, ".")                                                                                   \
  X(TK_SEMI, ";")                                                                                  \
  X(TK_AT, "@")

typedef enum {
#define X(k, s) k,
  TL_TOKENS(X)
#undef X
      TK_COUNT
} TlTokenKind;

typedef struct TlToken {
  TlTokenKind kind;
  TlLoc loc;
  const char *text; // the token's spelling (string literals: the decoded value)
  int64_t ival;     // TK_INT
  double fval;      // TK_FLOAT
  // .py files: a literal Python accepts but tlc cannot represent (an
  // imaginary number, an int over 64 bits) lexes, and the parser reports
  // this message only if the statement is not host code it skips.
  const char *deferred_error;
} TlToken;

typedef struct TlTokens {
  TlToken *items;
  int len;
} TlTokens;

const char *tl_token_kind_name(TlTokenKind k);

// Lexes the whole source. Reports errors to d; returns the tokens (always
// ending with TK_EOF) even after errors so the parser can report more.
TlTokens tl_lex(TlArena *a, const TlSource *src, TlDiag *d);

// Prints the tokens one per line, for --emit=tokens.
void tl_tokens_print(TlBuf *out, TlTokens toks);

#endif
