// Constant folding of integer expressions, through variables that hold only
// their initializer: `const size_t smem = 16384;` makes `smem` 16384.
#include "Verify.h"

#include <string.h>

// Python's floor division and modulo (b != 0, not INT64_MIN / -1).
long long tv_floor_div(long long a, long long b) {
  return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

long long tv_floor_mod(long long a, long long b) {
  long long r = a % b;
  return r != 0 && (r < 0) != (b < 0) ? r + b : r;
}

#define MAX_DEPTH 24

static bool eval(const TvExpr *e, long long *out, int depth) {
  long long a, b, c;
  if (!e || depth > MAX_DEPTH) return false;
  switch (e->kind) {
  case EX_INT:
    *out = e->value;
    return true;
  case EX_VAR:
    // A variable assigned only by its initializer is that initializer.
    if (tv_single_assignment(e->var)) return eval(e->var->init, out, depth + 1);
    return false;
  case EX_CAST:
    return e->cast_to_integer && eval(e->kids[0], out, depth + 1);
  case EX_OTHER:
    return e->nkids == 1 && !e->name && eval(e->kids[0], out, depth + 1);
  case EX_UNARY:
    if (!eval(e->kids[0], &a, depth + 1)) return false;
    if (!strcmp(e->op, "-"))
      *out = -a;
    else if (!strcmp(e->op, "+"))
      *out = a;
    else if (!strcmp(e->op, "~"))
      *out = ~a;
    else if (!strcmp(e->op, "!"))
      *out = !a;
    else
      return false;
    return true;
  case EX_COND:
    if (!eval(e->kids[0], &c, depth + 1)) return false;
    return eval(e->kids[c ? 1 : 2], out, depth + 1);
  case EX_BINARY:
    if (!eval(e->kids[0], &a, depth + 1) || !eval(e->kids[1], &b, depth + 1)) return false;
    if (!strcmp(e->op, "+")) return !__builtin_add_overflow(a, b, out);
    if (!strcmp(e->op, "-")) return !__builtin_sub_overflow(a, b, out);
    if (!strcmp(e->op, "*")) return !__builtin_mul_overflow(a, b, out);
    if ((!strcmp(e->op, "/") || !strcmp(e->op, "%")) && b != 0 && !(a == INT64_MIN && b == -1)) {
      *out = e->floor_op ? (e->op[0] == '/' ? tv_floor_div(a, b) : tv_floor_mod(a, b))
                         : (e->op[0] == '/' ? a / b : a % b);
      return true;
    }
    if (!strcmp(e->op, "<<") && b >= 0 && b < 63 && a >= 0 && a <= (INT64_MAX >> b)) {
      *out = a << b;
      return true;
    }
    if (!strcmp(e->op, ">>") && b >= 0 && b < 63) {
      *out = a >> b;
      return true;
    }
    if (!strcmp(e->op, "&"))
      *out = a & b;
    else if (!strcmp(e->op, "|"))
      *out = a | b;
    else if (!strcmp(e->op, "^"))
      *out = a ^ b;
    else if (!strcmp(e->op, "<"))
      *out = a < b;
    else if (!strcmp(e->op, "<="))
      *out = a <= b;
    else if (!strcmp(e->op, ">"))
      *out = a > b;
    else if (!strcmp(e->op, ">="))
      *out = a >= b;
    else if (!strcmp(e->op, "=="))
      *out = a == b;
    else if (!strcmp(e->op, "!="))
      *out = a != b;
    else if (!strcmp(e->op, "&&"))
      *out = a && b;
    else if (!strcmp(e->op, "||"))
      *out = a || b;
    else
      return false;
    return true;
  default:
    return false;
  }
}

bool tv_const_eval(const TvExpr *e, long long *out) {
  return eval(e, out, 0);
}
