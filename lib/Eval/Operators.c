// Python's operators on compile-time values: arithmetic (exact 64-bit
// integers with overflow reported as an error; // and % as Python), bitwise
// operators, + and * on sequences, and comparisons (chained, `in`, `is`).
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "EvalInternal.h"

// + and * on lists, tuples and strings, as Python does.
static TlValue *sequence_binop(Sema *s, const TlNode *n, TlValue *l, TlValue *r) {
  if (n->op == TK_PLUS && l->kind == VAL_STR && r->kind == VAL_STR) {
    // Bounded like a repetition: doubling a string 31 times would reach the
    // 2 GB where the text buffers stop; each byte copied is work.
    int64_t len = (int64_t)strlen(l->s) + (int64_t)strlen(r->s);
    if (len > MAX_SEQUENCE) {
      tl_error(s->diag, n->loc,
               "this string would be %lld bytes; compile-time strings hold at "
               "most %d",
               (long long)len, MAX_SEQUENCE);
      return tl_eval_error_value(s, n->loc);
    }
    if (!tl_sema_spend_work(s, len / 64, n->loc)) return tl_eval_error_value(s, n->loc);
    return (TlValue *)tl_value_str(s, n->loc, tl_arena_printf(s->arena, "%s%s", l->s, r->s));
  }
  if (n->op == TK_PLUS && l->kind == VAL_TUPLE && r->kind == VAL_TUPLE) {
    if (!tl_sema_spend_items(s, l->items.len + r->items.len, n->loc))
      return tl_eval_error_value(s, n->loc);
    TlValue *v = tl_eval_tuple_value(s, n->loc, l->is_list);
    for (int i = 0; i < l->items.len; i++)
      tl_vec_push(s->arena, &v->items, TL_VEC_AT(l->items, TlValue, i));
    for (int i = 0; i < r->items.len; i++)
      tl_vec_push(s->arena, &v->items, TL_VEC_AT(r->items, TlValue, i));
    return v;
  }
  if (n->op == TK_STAR && (l->kind == VAL_INT || r->kind == VAL_INT)) {
    TlValue *seq = l->kind == VAL_INT ? r : l;
    int64_t times = l->kind == VAL_INT ? l->i : r->i;
    if (seq->kind == VAL_TUPLE || seq->kind == VAL_STR) {
      int64_t len = seq->kind == VAL_TUPLE ? seq->items.len : (int64_t)strlen(seq->s);
      if (times > 0 && len > 0 && times > MAX_SEQUENCE / len) {
        tl_error(s->diag, n->loc, "this repetition makes more than %d items", MAX_SEQUENCE);
        return tl_eval_error_value(s, n->loc);
      }
      if (times > 0 && !tl_sema_spend_items(s, times * len, n->loc))
        return tl_eval_error_value(s, n->loc);
      if (seq->kind == VAL_STR) {
        TlBuf b;
        tl_buf_init(&b, s->arena);
        tl_buf_puts(&b, "");
        for (int64_t i = 0; i < times; i++)
          tl_buf_puts(&b, seq->s);
        return (TlValue *)tl_value_str(s, n->loc, b.data);
      }
      TlValue *v = tl_eval_tuple_value(s, n->loc, seq->is_list);
      for (int64_t i = 0; i < times; i++)
        for (int j = 0; j < seq->items.len; j++)
          tl_vec_push(s->arena, &v->items, TL_VEC_AT(seq->items, TlValue, j));
      return v;
    }
  }
  return NULL;
}

static TlValue *bitwise(Sema *s, const TlNode *n, int64_t a, int64_t b) {
  switch (n->op) {
  case TK_AMP:
    return tl_eval_int_value(s, n->loc, a & b);
  case TK_PIPE:
    return tl_eval_int_value(s, n->loc, a | b);
  case TK_CARET:
    return tl_eval_int_value(s, n->loc, a ^ b);
  default:
    break;
  }
  if (b < 0) {
    tl_error(s->diag, n->loc, "negative shift count %lld", (long long)b);
    return tl_eval_error_value(s, n->loc);
  }
  if (n->op == TK_RSHIFT) return tl_eval_int_value(s, n->loc, b > 63 ? (a < 0 ? -1 : 0) : a >> b);
  int64_t out = a;
  for (int64_t i = 0; i < b && out != 0; i++)
    if (tl_mul_overflows(out, 2, &out)) {
      tl_error(s->diag, n->loc,
               "integer overflow in constant expression: %lld << %lld does not "
               "fit in 64 bits",
               (long long)a, (long long)b);
      return tl_eval_error_value(s, n->loc);
    }
  return tl_eval_int_value(s, n->loc, out);
}

int64_t tl_eval_size_scale(const TlValue *v) {
  return v->i > 1 ? v->i : 1;
}

// A runtime size times a positive constant (`seq_len * heads`, a tensor
// dimension of TileLang's MQA indexers): the size with a factor; NULL for
// every other operation on a size.
static TlValue *scaled_size(Sema *s, const TlNode *n, const TlValue *l, const TlValue *r) {
  if (n->op != TK_STAR) return NULL;
  const TlValue *z = l->kind == VAL_SIZE ? l : r, *c = l->kind == VAL_SIZE ? r : l;
  if (z->kind != VAL_SIZE || c->kind != VAL_INT || c->i < 1) return NULL;
  int64_t k;
  if (tl_mul_overflows(tl_eval_size_scale(z), c->i, &k) || k > ((int64_t)1 << 31)) return NULL;
  TlValue *v = tl_value_new(s, VAL_SIZE, n->loc);
  v->s = z->s;
  v->dtype = z->dtype;
  v->i = k;
  return v;
}

TlValue *tl_eval_binop(Sema *s, const TlNode *n, TlValue *l, TlValue *r) {
  if (l->kind == VAL_ERROR || r->kind == VAL_ERROR) return tl_eval_error_value(s, n->loc);
  TlValue *seq = sequence_binop(s, n, l, r);
  if (seq) return seq;
  TlValue *scaled = scaled_size(s, n, l, r);
  if (scaled) return scaled;
  // A host tensor with a number (torch.rand(m, k) * 2 - 1): the same shape.
  if ((l->kind == VAL_HOST_TENSOR && (tl_eval_is_number(r) || r->kind == VAL_HOST_TENSOR)) ||
      (r->kind == VAL_HOST_TENSOR && tl_eval_is_number(l)))
    return l->kind == VAL_HOST_TENSOR ? l : r;
  if ((n->op == TK_AMP || n->op == TK_PIPE || n->op == TK_CARET || n->op == TK_LSHIFT ||
       n->op == TK_RSHIFT) &&
      (l->kind == VAL_INT || l->kind == VAL_BOOL) && (r->kind == VAL_INT || r->kind == VAL_BOOL))
    return bitwise(s, n, l->i, r->i);
  if (!tl_eval_is_number(l) || !tl_eval_is_number(r)) {
    tl_error(s->diag, n->loc, "operator '%s' cannot combine a %s and a %s",
             tl_token_kind_name(n->op), tl_value_kind_name(l->kind), tl_value_kind_name(r->kind));
    return tl_eval_error_value(s, n->loc);
  }
  bool ints = l->kind != VAL_FLOAT && r->kind != VAL_FLOAT;
  if (ints) {
    int64_t a = l->i, b = r->i, out = 0;
    bool overflow = false;
    switch (n->op) {
    case TK_PLUS:
      overflow = tl_add_overflows(a, b, &out);
      break;
    case TK_MINUS:
      overflow = tl_sub_overflows(a, b, &out);
      break;
    case TK_STAR:
      overflow = tl_mul_overflows(a, b, &out);
      break;
    case TK_SLASHSLASH:
    case TK_PERCENT:
      if (b == 0) {
        tl_error(s->diag, n->loc, "division by zero in constant expression");
        return tl_eval_error_value(s, n->loc);
      }
      if (a == INT64_MIN && b == -1) {
        overflow = n->op == TK_SLASHSLASH;
        out = 0;
      } else {
        out = n->op == TK_SLASHSLASH ? tl_floordiv(a, b) : tl_floormod(a, b);
      }
      break;
    case TK_SLASH:
      if (b == 0) {
        tl_error(s->diag, n->loc, "division by zero in constant expression");
        return tl_eval_error_value(s, n->loc);
      }
      return tl_eval_float_value(s, n->loc, (double)a / (double)b);
    case TK_STARSTAR:
      if (b < 0 && a == 0) {
        tl_error(s->diag, n->loc, "division by zero in constant expression: 0 ** %lld",
                 (long long)b);
        return tl_eval_error_value(s, n->loc);
      }
      if (b < 0) return tl_eval_float_value(s, n->loc, pow((double)a, (double)b));
      overflow = !tl_eval_ipow(a, b, &out);
      break;
    default:
      tl_error(s->diag, n->loc, "operator '%s' is not supported on constants",
               tl_token_kind_name(n->op));
      return tl_eval_error_value(s, n->loc);
    }
    if (overflow) {
      tl_error(s->diag, n->loc,
               "integer overflow in constant expression: %lld %s %lld does not fit in 64 bits",
               (long long)a, tl_token_kind_name(n->op), (long long)b);
      return tl_eval_error_value(s, n->loc);
    }
    return tl_eval_int_value(s, n->loc, out);
  }
  double a = tl_eval_as_double(l), b = tl_eval_as_double(r), out;
  switch (n->op) {
  case TK_PLUS:
    out = a + b;
    break;
  case TK_MINUS:
    out = a - b;
    break;
  case TK_STAR:
    out = a * b;
    break;
  case TK_SLASH:
  case TK_SLASHSLASH:
  case TK_PERCENT:
    if (b == 0) {
      tl_error(s->diag, n->loc, "division by zero in constant expression");
      return tl_eval_error_value(s, n->loc);
    }
    out = n->op == TK_SLASH ? a / b : n->op == TK_SLASHSLASH ? floor(a / b) : a - floor(a / b) * b;
    break;
  case TK_STARSTAR:
    out = pow(a, b);
    break;
  default:
    tl_error(s->diag, n->loc, "operator '%s' is not supported on constants",
             tl_token_kind_name(n->op));
    return tl_eval_error_value(s, n->loc);
  }
  return tl_eval_float_value(s, n->loc, out);
}

TlValue *tl_eval_compare(Sema *s, const TlNode *n, TlValue *l, TlValue *r) {
  if (l->kind == VAL_ERROR || r->kind == VAL_ERROR) return tl_eval_error_value(s, n->loc);
  bool eq = false;
  if (n->op == TK_IS) { // identity: the same for the immutable values tlc has
    if (l->kind == r->kind && !tl_eval_checked_equal(s, n->loc, l, r, &eq))
      return tl_eval_error_value(s, n->loc);
    return tl_eval_bool_value(s, n->loc, (l->kind == r->kind && eq) != (n->ival != 0));
  }
  if (n->op == TK_IN) {
    bool found = false;
    if (r->kind == VAL_DICT && r->index) {
      found = tl_eval_index_find(r, l) >= 0;
    } else if (r->kind == VAL_TUPLE || r->kind == VAL_DICT) {
      // A linear scan: in a loop it is the work, not the statements, that
      // grows, so every item compared counts against the work budget.
      for (int i = 0; i < r->items.len && !found; i++)
        if (!tl_eval_checked_equal(s, n->loc, l, TL_VEC_AT(r->items, TlValue, i), &found))
          return tl_eval_error_value(s, n->loc);
    } else if (r->kind == VAL_STR && l->kind == VAL_STR) {
      if (!tl_sema_spend_work(s, (int64_t)strlen(r->s) / 64, n->loc))
        return tl_eval_error_value(s, n->loc);
      found = strstr(r->s, l->s) != NULL;
    } else {
      tl_error(s->diag, n->loc, "'in' needs a list, tuple or string on its right, found %s %s",
               tl_value_kind_article(r->kind), tl_value_kind_name(r->kind));
      return tl_eval_error_value(s, n->loc);
    }
    return tl_eval_bool_value(s, n->loc, found != (n->ival != 0));
  }
  if ((n->op == TK_EQEQ || n->op == TK_NE) && !(tl_eval_is_number(l) && tl_eval_is_number(r)) &&
      !(l->kind == VAL_STR && r->kind == VAL_STR)) {
    if (!tl_eval_checked_equal(s, n->loc, l, r, &eq)) return tl_eval_error_value(s, n->loc);
    return tl_eval_bool_value(s, n->loc, eq == (n->op == TK_EQEQ));
  }
  int c;
  if (l->kind == VAL_STR && r->kind == VAL_STR) {
    c = strcmp(l->s, r->s);
  } else if (tl_eval_is_number(l) && tl_eval_is_number(r)) {
    if (l->kind != VAL_FLOAT && r->kind != VAL_FLOAT)
      c = l->i < r->i ? -1 : l->i > r->i;
    else
      c = tl_eval_as_double(l) < tl_eval_as_double(r) ? -1
                                                      : tl_eval_as_double(l) > tl_eval_as_double(r);
  } else if (n->op == TK_EQEQ || n->op == TK_NE) {
    c = (l->kind == r->kind && l->kind == VAL_NONE) ? 0 : 1;
  } else {
    tl_error(s->diag, n->loc, "cannot compare a %s with a %s", tl_value_kind_name(l->kind),
             tl_value_kind_name(r->kind));
    return tl_eval_error_value(s, n->loc);
  }
  bool res = n->op == TK_EQEQ ? c == 0
             : n->op == TK_NE ? c != 0
             : n->op == TK_LT ? c < 0
             : n->op == TK_LE ? c <= 0
             : n->op == TK_GT ? c > 0
                              : c >= 0;
  TlValue *v = tl_value_new(s, VAL_BOOL, n->loc);
  v->i = res;
  return v;
}

// range(stop) / range(start, stop[, step]) as a list of ints.
