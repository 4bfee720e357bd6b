// Methods on compile-time values: dict.items/keys/values/get, list.append /
// extend, int.bit_length, and the str methods kernel factories use to read
// a dtype or mode string (isdigit, startswith, endswith, lower, upper, join,
// strip, replace).
#include <ctype.h>
#include <string.h>

#include "EvalInternal.h"

static TlValue *dict_method(Sema *s, const TlNode *n, TlValue *self, const char *m, TlVec *args) {
  if (args->len == 0 &&
      (strcmp(m, "items") == 0 || strcmp(m, "keys") == 0 || strcmp(m, "values") == 0)) {
    TlValue *v = tl_eval_tuple_value(s, n->loc, true);
    for (int i = 0; i < self->items.len; i++) {
      TlValue *k = TL_VEC_AT(self->items, TlValue, i), *x = TL_VEC_AT(self->values, TlValue, i);
      if (m[0] == 'i') {
        TlValue *pair = tl_eval_tuple_value(s, n->loc, false);
        tl_vec_push(s->arena, &pair->items, k);
        tl_vec_push(s->arena, &pair->items, x);
        tl_vec_push(s->arena, &v->items, pair);
      } else {
        tl_vec_push(s->arena, &v->items, m[0] == 'k' ? k : x);
      }
    }
    return v;
  }
  if (strcmp(m, "get") == 0 && (args->len == 1 || args->len == 2)) {
    TlValue *x = tl_value_dict_get(self, TL_VEC_AT(*args, TlValue, 0));
    return x ? x : args->len == 2 ? TL_VEC_AT(*args, TlValue, 1)
                                  : tl_value_new(s, VAL_NONE, n->loc);
  }
  return NULL;
}

// list.append(x) / list.extend(seq) change the list in place. Values are
// copied when a name is read, so only the name the method is called on sees
// the new items (`ys = xs; ys.append(1)` leaves xs as it was, unlike Python).
// The items get a fresh vector, because list(x) and slices share the old one.
static TlValue *list_method(Sema *s, const TlNode *n, TlValue *self, const char *m, TlVec *args) {
  bool append = strcmp(m, "append") == 0;
  if ((!append && strcmp(m, "extend") != 0) || args->len != 1) return NULL;
  TlValue *x = TL_VEC_AT(*args, TlValue, 0);
  TlValue *more = append ? NULL : tl_value_iterable(s, x);
  if (!append && !more) {
    tl_error(s->diag, n->loc, "'list.extend' takes a list, tuple, dict or string");
    return tl_eval_error_value(s, n->loc);
  }
  int add = append ? 1 : more->items.len;
  if (self->items.len + add > MAX_SEQUENCE) {
    tl_error(s->diag, n->loc, "this list would hold more than %d values", MAX_SEQUENCE);
    return tl_eval_error_value(s, n->loc);
  }
  if (!tl_sema_spend_items(s, self->items.len + add, n->loc)) return tl_eval_error_value(s, n->loc);
  TlVec items = {0};
  for (int i = 0; i < self->items.len; i++)
    tl_vec_push(s->arena, &items, self->items.items[i]);
  for (int i = 0; i < add; i++)
    tl_vec_push(s->arena, &items, append ? x : more->items.items[i]);
  self->items = items;
  return tl_value_new(s, VAL_NONE, n->loc);
}

static bool str_arg(TlVec *args, int i, const char **out) {
  TlValue *v = i < args->len ? TL_VEC_AT(*args, TlValue, i) : NULL;
  if (!v || v->kind != VAL_STR) return false;
  *out = v->s;
  return true;
}

// "abc".startswith(p) / endswith(p), p a string or a tuple of strings.
static TlValue *affix_method(Sema *s, const TlNode *n, const char *str, bool prefix,
                             TlValue *arg) {
  TlValue *one[1] = {arg};
  int count = 1;
  TlValue **alts = one;
  if (arg->kind == VAL_TUPLE) {
    alts = (TlValue **)arg->items.items;
    count = arg->items.len;
  }
  size_t len = strlen(str);
  for (int i = 0; i < count; i++) {
    if (alts[i]->kind != VAL_STR) {
      tl_error(s->diag, n->loc, "'%s' takes a string or a tuple of strings",
               prefix ? "startswith" : "endswith");
      return tl_eval_error_value(s, n->loc);
    }
    size_t k = strlen(alts[i]->s);
    if (k <= len && strncmp(prefix ? str : str + len - k, alts[i]->s, k) == 0)
      return tl_eval_bool_value(s, n->loc, true);
  }
  return tl_eval_bool_value(s, n->loc, false);
}

static TlValue *str_method(Sema *s, const TlNode *n, const char *str, const char *m,
                           TlVec *args) {
  if (strcmp(m, "isdigit") == 0 && args->len == 0) {
    bool digits = *str != 0;
    for (const char *p = str; *p; p++)
      digits = digits && isdigit((unsigned char)*p);
    return tl_eval_bool_value(s, n->loc, digits);
  }
  if ((strcmp(m, "startswith") == 0 || strcmp(m, "endswith") == 0) && args->len == 1)
    return affix_method(s, n, str, m[0] == 's', TL_VEC_AT(*args, TlValue, 0));
  if ((strcmp(m, "lower") == 0 || strcmp(m, "upper") == 0 || strcmp(m, "strip") == 0) &&
      args->len == 0) {
    char *out = tl_arena_printf(s->arena, "%s", str);
    if (m[0] == 's') {
      while (isspace((unsigned char)*out)) out++;
      size_t len = strlen(out);
      while (len && isspace((unsigned char)out[len - 1])) out[--len] = 0;
    } else {
      for (char *p = out; *p; p++)
        *p = (char)(m[0] == 'l' ? tolower((unsigned char)*p) : toupper((unsigned char)*p));
    }
    return (TlValue *)tl_value_str(s, n->loc, out);
  }
  if (strcmp(m, "join") == 0 && args->len == 1) { // sep.join(strings)
    TlValue *items = tl_value_iterable(s, TL_VEC_AT(*args, TlValue, 0));
    if (!items) return NULL;
    TlBuf b;
    tl_buf_init(&b, s->arena);
    tl_buf_puts(&b, "");
    for (int i = 0; i < items->items.len; i++) {
      const TlValue *x = TL_VEC_AT(items->items, TlValue, i);
      if (x->kind != VAL_STR) {
        tl_error(s->diag, n->loc, "'str.join' joins strings, not %s %s",
                 tl_value_kind_article(x->kind), tl_value_kind_name(x->kind));
        return tl_eval_error_value(s, n->loc);
      }
      tl_buf_printf(&b, "%s%s", i ? str : "", x->s);
    }
    return (TlValue *)tl_value_str(s, n->loc, b.data);
  }
  const char *from, *to;
  if (strcmp(m, "replace") == 0 && args->len == 2 && str_arg(args, 0, &from) &&
      str_arg(args, 1, &to) && *from) {
    TlBuf b;
    tl_buf_init(&b, s->arena);
    tl_buf_puts(&b, "");
    for (const char *p = str; *p;) {
      if (strncmp(p, from, strlen(from)) == 0) {
        tl_buf_puts(&b, to);
        p += strlen(from);
      } else {
        tl_buf_putc(&b, *p++);
      }
    }
    return (TlValue *)tl_value_str(s, n->loc, b.data);
  }
  return NULL;
}

TlValue *tl_eval_method(Sema *s, const TlNode *n, TlValue *self) {
  const char *m = n->a->name;
  if (self->kind == VAL_TUNER) return tl_sema_tuner_method(s, n, self);
  if (self->kind == VAL_HOST_TENSOR) {
    // .cuda(), .contiguous(), .to("cuda"): the same tensor as far as tlc knows
    // (a dtype change is not followed, nor are the arguments evaluated).
    if (strcmp(m, "cuda") == 0 || strcmp(m, "contiguous") == 0 || strcmp(m, "to") == 0 ||
        strcmp(m, "requires_grad_") == 0)
      return self;
    tl_error(s->diag, n->loc, "tlc knows a host tensor's shape and dtype; it cannot call '.%s'", m);
    return tl_eval_error_value(s, n->loc);
  }
  TlVec args = {0};
  TlValue *bad = tl_eval_args(s, n, &args);
  if (bad) return bad;
  if (n->list2.len) { // no method here takes keywords
    tl_error(s->diag, TL_VEC_AT(n->list2, TlNode, 0)->loc,
             "tlc does not take keyword arguments to '.%s' at compile time", m);
    return tl_eval_error_value(s, n->loc);
  }
  TlValue *r = NULL;
  if (self->kind == VAL_DICT) r = dict_method(s, n, self, m, &args);
  if (self->kind == VAL_TUPLE && self->is_list) {
    r = list_method(s, n, self, m, &args);
    // A name's value is copied when it is read, so the binding itself
    // takes the new items (xs.append(x) on a name, the common form).
    TlSym *y = n->a->a->kind == ND_NAME ? tl_scope_lookup(s, n->a->a->name) : NULL;
    if (r && r->kind != VAL_ERROR && y && y->kind == SYM_VALUE && y->value->kind == VAL_TUPLE)
      y->value->items = self->items;
  }
  if (self->kind == VAL_STR) r = str_method(s, n, self->s, m, &args);
  if (self->kind == VAL_INT && strcmp(m, "bit_length") == 0 && args.len == 0) {
    uint64_t mag = self->i < 0 ? 0 - (uint64_t)self->i : (uint64_t)self->i;
    int bits = 0;
    for (; mag; mag >>= 1) bits++;
    r = tl_eval_int_value(s, n->loc, bits);
  }
  if (r) return r;
  tl_error(s->diag, n->loc, "tlc cannot call '.%s' on %s %s at compile time", m,
           tl_value_kind_article(self->kind), tl_value_kind_name(self->kind));
  return tl_eval_error_value(s, n->loc);
}
