// The configs of an @autotune factory, kept for --emit=signature. tlc
// cannot time kernels while it compiles, so a call that leaves tuned
// parameters to @autotune gets the first config (Eval.c warns); the
// signature then lists every config as JSON, and `tlc tune` (python/tlc/)
// turns each one into a call with explicit keyword arguments and times it.
#include <math.h>

#include "../Sema/SemaInternal.h"

// v as JSON; false for a value JSON cannot hold (a function, a module, an
// infinity or NaN, a dict key that is not a string).
static bool value_json(TlBuf *out, const TlValue *v) {
  switch (v->kind) {
  case VAL_INT:
    tl_buf_printf(out, "%lld", (long long)v->i);
    return true;
  case VAL_FLOAT:
    if (!isfinite(v->f)) return false;
    // %.17g round-trips a double; a trailing ".0" keeps integral floats floats.
    tl_buf_printf(out, v->f == floor(v->f) && fabs(v->f) < 1e15 ? "%.1f" : "%.17g", v->f);
    return true;
  case VAL_BOOL:
    tl_buf_puts(out, v->i ? "true" : "false");
    return true;
  case VAL_NONE:
    tl_buf_puts(out, "null");
    return true;
  case VAL_STR:
    tl_buf_json_string(out, v->s);
    return true;
  case VAL_DTYPE: // a dtype passed back as its name is the same dtype to the factory
    tl_buf_json_string(out, tl_dtype_name(v->dtype));
    return true;
  case VAL_TUPLE:
    tl_buf_putc(out, '[');
    for (int i = 0; i < v->items.len; i++) {
      if (i) tl_buf_puts(out, ", ");
      if (!value_json(out, TL_VEC_AT(v->items, TlValue, i))) return false;
    }
    tl_buf_putc(out, ']');
    return true;
  case VAL_DICT:
    tl_buf_putc(out, '{');
    for (int i = 0; i < v->items.len; i++) {
      const TlValue *key = TL_VEC_AT(v->items, TlValue, i);
      if (key->kind != VAL_STR) return false;
      if (i) tl_buf_puts(out, ", ");
      tl_buf_json_string(out, key->s);
      tl_buf_puts(out, ": ");
      if (!value_json(out, TL_VEC_AT(v->values, TlValue, i))) return false;
    }
    tl_buf_putc(out, '}');
    return true;
  default:
    return false;
  }
}

void tl_sema_record_autotune(Sema *s, const TlValue *fn, const TlValue *configs,
                             const char *tuned) {
  TlBuf json;
  tl_buf_init(&json, s->arena);
  tl_buf_puts(&json, "");
  if (!value_json(&json, configs)) return;
  TlAutotune *rec = TL_NEW(s->arena, TlAutotune);
  rec->factory = fn->s;
  rec->loc = fn->autotune->loc;
  rec->tuned = tuned;
  rec->configs = json.data;
  tl_vec_push(s->arena, &s->module->autotune, rec);
}
