// The library functions and values TileLang files call in the Python
// around their kernels, evaluated at compile time without the libraries:
//   tilelang.cdiv(a, b)                      ceiling division (also tl.cdiv)
//   tilelang.math.next_power_of_2(n)         the smallest power of two >= n
//   ...driver.get_num_sms()                  the SM count of --target's file
//   (tilelang.compile(f, out_idx=...) is EvalEager.c's: it checks the options)
//   DataType(dtype) / tvm DataType           the dtype; `.bits` of a dtype
//   torch.float16, torch.bfloat16, ...       dtypes (dict keys, defaults);
//                                            nothing else of torch runs
//   torch.cuda.is_available(), get_device_capability(), get_device_properties(i)
//                                            the --target's, as a GPU of that kind
//   tvm.te.var("m"), tvm.tir.Var("m", dtype) a runtime size, as T.dynamic("m")
//   AutoTuner.from_kernel(kernel=f, configs=c)...run(...)
//                                            f(**c[0]): tlc cannot time kernels
//                                            while compiling, so, as for
//                                            @autotune, it takes the first config
// and the decorators that wrap a factory and return it (functools.cache,
// functools.lru_cache, simplify_prim_func, a project's own *jit wrapper).
// Each lookup returns NULL when the name is not one of these, so Const.c
// falls back to its usual errors.
#include <string.h>

#include "../Sema/SemaInternal.h"
#include "EvalInternal.h"

// The dotted name of a module attribute chain (tl.math.next_power_of_2 ->
// "tilelang.math.next_power_of_2"), from the module the base name is bound
// to; NULL when the base is not a module.
static const char *dotted_name(Sema *s, const TlNode *n) {
  if (n->kind == ND_NAME) {
    TlSym *y = tl_scope_lookup(s, n->name);
    return y && y->kind == SYM_VALUE && y->value->kind == VAL_MODULE ? y->value->s : NULL;
  }
  if (n->kind != ND_ATTR) return NULL;
  const char *base = dotted_name(s, n->a);
  return base ? tl_arena_printf(s->arena, "%s.%s", base, n->name) : NULL;
}

static bool starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static TlValue *int_result(Sema *s, TlLoc loc, int64_t v) {
  TlValue *r = tl_value_new(s, VAL_INT, loc);
  r->i = v;
  return r;
}

static TlValue *error_at(Sema *s, TlLoc loc) {
  return tl_value_new(s, VAL_ERROR, loc);
}

// The positional arguments of a library call, which takes exactly `want`
// (keywords only where `keywords_ok`).
static bool library_args(Sema *s, const TlNode *n, const char *name, int want, bool keywords_ok,
                         TlValue **out) {
  if (n->list.len != want || (!keywords_ok && n->list2.len)) {
    tl_error(s->diag, n->loc, "'%s' takes %d positional argument%s", name, want,
             want == 1 ? "" : "s");
    return false;
  }
  for (int i = 0; i < want; i++) {
    out[i] = tl_sema_eval_const(s, TL_VEC_AT(n->list, TlNode, i));
    if (out[i]->kind == VAL_ERROR) return false;
  }
  return true;
}

static bool int_arg(Sema *s, const TlNode *n, const TlValue *v, const char *name) {
  if (v->kind == VAL_INT || v->kind == VAL_BOOL) return true;
  tl_error(s->diag, n->loc, "'%s' needs integers, got %s %s", name, tl_value_kind_article(v->kind),
           tl_value_kind_name(v->kind));
  return false;
}

static TlValue *cdiv(Sema *s, const TlNode *n, const char *name) {
  TlValue *a[2];
  if (!library_args(s, n, name, 2, false, a) || !int_arg(s, n, a[0], name) ||
      !int_arg(s, n, a[1], name))
    return error_at(s, n->loc);
  if (a[1]->i == 0) {
    tl_error(s->diag, n->loc, "'%s' divides by zero", name);
    return error_at(s, n->loc);
  }
  // -(-a // b) with Python's floor division: exact for every sign.
  int64_t q = a[0]->i / a[1]->i, r = a[0]->i % a[1]->i;
  if (r != 0 && ((r > 0) == (a[1]->i > 0))) q++;
  return int_result(s, n->loc, q);
}

static TlValue *next_power_of_2(Sema *s, const TlNode *n, const char *name) {
  TlValue *a[1];
  if (!library_args(s, n, name, 1, false, a) || !int_arg(s, n, a[0], name))
    return error_at(s, n->loc);
  int64_t p = 1;
  while (p < a[0]->i) {
    if (p > INT64_MAX / 2) {
      tl_error(s->diag, n->loc, "'%s(%lld)' does not fit in 64 bits", name, (long long)a[0]->i);
      return error_at(s, n->loc);
    }
    p *= 2;
  }
  return int_result(s, n->loc, p);
}

// DataType(x): the dtype x names (a string, a T. dtype or a torch dtype).
static TlValue *data_type(Sema *s, const TlNode *n, const char *name) {
  TlValue *a[1];
  if (!library_args(s, n, name, 1, false, a)) return error_at(s, n->loc);
  TlValue *v = tl_value_new(s, VAL_DTYPE, n->loc);
  if (!tl_value_as_dtype(s, a[0], &v->dtype)) return error_at(s, n->loc);
  return v;
}

// torch.rand(m, k, dtype=..., device=...) and its kin in host code: a value
// that knows its shape and dtype, so `M, K = A.shape` at module level gives
// sizes a kernel may use (TileLang's stream-K example); nothing is allocated.
static TlValue *host_tensor(Sema *s, const TlNode *n, const char *name) {
  TlValue *v = tl_value_new(s, VAL_HOST_TENSOR, n->loc);
  v->dtype = TY_FLOAT32;
  for (int i = 0; i < n->list.len; i++) {
    TlValue *d = tl_sema_eval_const(s, TL_VEC_AT(n->list, TlNode, i));
    if (d->kind == VAL_TUPLE && n->list.len == 1) {
      for (int j = 0; j < d->items.len; j++)
        tl_vec_push(s->arena, &v->items, TL_VEC_AT(d->items, TlValue, j));
      continue;
    }
    tl_vec_push(s->arena, &v->items, d);
  }
  for (int i = 0; i < v->items.len; i++)
    if (TL_VEC_AT(v->items, TlValue, i)->kind != VAL_INT) {
      tl_error(s->diag, n->loc, "'%s' needs integer sizes for tlc to know the tensor's shape", name);
      return error_at(s, n->loc);
    }
  const TlNode *dt = tl_sema_kwarg(n, "dtype");
  if (dt) {
    TlValue *d = tl_sema_eval_const(s, dt);
    if (d->kind == VAL_ERROR || !tl_value_as_dtype(s, d, &v->dtype)) return error_at(s, n->loc);
  }
  return v;
}

// tilelang.language.fp8.determine_fp8_type(fmt="e4m3") (and its torch
// twin): the platform's fp8 dtype, on a CUDA target float8_e4m3fn or
// float8_e5m2 (TileLang picks the fnuz encodings on ROCm only).
static TlValue *fp8_type(Sema *s, const TlNode *n, const char *name) {
  TlVec args = {0}, names = {0}, vals = {0};
  if (!tl_sema_eval_call_args(s, n, &args, &names, &vals)) return error_at(s, n->loc);
  const TlValue *fmt = args.len > 0 ? TL_VEC_AT(args, TlValue, 0) : NULL;
  for (int i = 0; i < names.len; i++)
    if (strcmp((const char *)names.items[i], "fp8_format") == 0) fmt = TL_VEC_AT(vals, TlValue, i);
  const char *f = fmt && fmt->kind == VAL_STR ? fmt->s : fmt ? NULL : "e4m3";
  if (!f || args.len + names.len > 1 || (strcmp(f, "e4m3") != 0 && strcmp(f, "e5m2") != 0)) {
    tl_error(s->diag, n->loc, "'%s' takes one format, \"e4m3\" or \"e5m2\"", name);
    return error_at(s, n->loc);
  }
  TlValue *v = tl_value_new(s, VAL_DTYPE, n->loc);
  v->dtype = f[1] == '4' ? TY_FLOAT8_E4M3 : TY_FLOAT8_E5M2;
  return v;
}

// AutoTuner.from_kernel(kernel=f, configs=c), positional or keywords: a
// tuner value holding both; its .run(...) compiles f(**c[0]).
static TlValue *from_kernel(Sema *s, const TlNode *n, const char *name) {
  TlVec args = {0}, names = {0}, vals = {0};
  if (!tl_sema_eval_call_args(s, n, &args, &names, &vals)) return error_at(s, n->loc);
  TlValue *kernel = args.len > 0 ? TL_VEC_AT(args, TlValue, 0) : NULL;
  TlValue *configs = args.len > 1 ? TL_VEC_AT(args, TlValue, 1) : NULL;
  for (int i = 0; i < names.len; i++) {
    const char *k = (const char *)names.items[i];
    if (strcmp(k, "kernel") == 0) kernel = TL_VEC_AT(vals, TlValue, i);
    if (strcmp(k, "configs") == 0) configs = TL_VEC_AT(vals, TlValue, i);
  }
  if (!kernel || kernel->kind != VAL_FUNC) {
    tl_error(s->diag, n->loc, "'%s' needs kernel=, a function that returns a @T.prim_func", name);
    return error_at(s, n->loc);
  }
  if (!configs || configs->kind != VAL_TUPLE || configs->items.len == 0 ||
      TL_VEC_AT(configs->items, TlValue, 0)->kind != VAL_DICT) {
    tl_error(s->diag, n->loc, "'%s' needs configs=, a non-empty list of dicts", name);
    return error_at(s, n->loc);
  }
  TlValue *tuner = tl_value_new(s, VAL_TUNER, n->loc);
  tl_vec_push(s->arena, &tuner->items, kernel);
  tl_vec_push(s->arena, &tuner->items, configs);
  return tuner;
}

// TensorCoreIntrinEmitter(a_dtype=..., ...) from TileLang's
// tilelang/cuda/intrinsics/macro/mma_macro_generator.py: a warp-level MMA
// helper whose methods kernels call (lib/Sema/MmaEmitter.c checks and lowers
// them). The value keeps the settings, positional or by keyword, in
// __init__'s order, defaults filled in.
static const char *const mma_emitter_params[] = {
    "a_dtype",       "b_dtype",        "accum_dtype", "a_transposed", "b_transposed",
    "block_row_warps", "block_col_warps", "warp_row_tiles", "warp_col_tiles", "chunk",
    "reduce_k",      "num_elems_per_byte", "is_m_first", "thread_var", NULL};

static TlValue *mma_emitter(Sema *s, const TlNode *n, const char *name) {
  enum { NPARAMS = 14 };
  TlVec args = {0}, names = {0}, vals = {0};
  if (!tl_sema_eval_call_args(s, n, &args, &names, &vals)) return error_at(s, n->loc);
  if (args.len > NPARAMS) {
    tl_error(s->diag, n->loc, "'%s' takes at most %d arguments", name, NPARAMS);
    return error_at(s, n->loc);
  }
  TlValue *v = tl_value_new(s, VAL_MMA_EMITTER, n->loc);
  TlValue *set[NPARAMS];
  const TlValue *dtypes[3] = {tl_value_str(s, n->loc, "float16"), tl_value_str(s, n->loc, "float16"),
                              tl_value_str(s, n->loc, "float16")};
  static const int64_t ints[NPARAMS] = {0, 0, 0, 0, 0, 2, 2, 8, 8, 16, 1, 1, 0, 0};
  for (int i = 0; i < NPARAMS; i++) {
    if (i < 3) set[i] = (TlValue *)dtypes[i];
    else if (i == 3 || i == 4 || i == 12) set[i] = tl_value_new(s, VAL_BOOL, n->loc);
    else if (i == 13) set[i] = tl_value_new(s, VAL_NONE, n->loc);
    else set[i] = int_result(s, n->loc, ints[i]);
    if (i < args.len) set[i] = TL_VEC_AT(args, TlValue, i);
  }
  for (int k = 0; k < names.len; k++) {
    const char *key = (const char *)names.items[k];
    int at = -1;
    for (int i = 0; mma_emitter_params[i]; i++)
      if (strcmp(key, mma_emitter_params[i]) == 0) at = i;
    if (at < 0) {
      tl_error(s->diag, n->loc, "unexpected keyword argument '%s' to '%s'", key, name);
      return error_at(s, n->loc);
    }
    set[at] = TL_VEC_AT(vals, TlValue, k);
  }
  for (int i = 0; i < NPARAMS; i++)
    tl_vec_push(s->arena, &v->items, set[i]);
  v->s = name;
  return v;
}

TlValue *tl_sema_tuner_method(Sema *s, const TlNode *n, TlValue *tuner) {
  const char *m = n->a->name;
  // The builder's settings (compile target, profiling, cache) do not change
  // the kernel; their arguments (torch suppliers, reference programs) are
  // host code, so they are not evaluated.
  if (strcmp(m, "run") != 0) {
    if (strncmp(m, "set_", 4) == 0) return tuner;
    tl_error(s->diag, n->a->loc, "tlc does not evaluate 'AutoTuner.%s'", m);
    return error_at(s, n->loc);
  }
  TlValue *fn = TL_VEC_AT(tuner->items, TlValue, 0);
  TlValue *configs = TL_VEC_AT(tuner->items, TlValue, 1);
  TlValue *first = TL_VEC_AT(configs->items, TlValue, 0);
  int nkw = first->items.len;
  const char **kwnames = TL_NEW_ARRAY(s->arena, const char *, nkw + 1);
  TlValue **kwvals = TL_NEW_ARRAY(s->arena, TlValue *, nkw + 1);
  int nkw_used = 0;
  TlBuf keys;
  tl_buf_init(&keys, s->arena);
  tl_buf_puts(&keys, "");
  for (int i = 0; i < nkw; i++) {
    const TlValue *key = TL_VEC_AT(first->items, TlValue, i);
    if (key->kind != VAL_STR) {
      tl_error(s->diag, tuner->loc, "a config of 'AutoTuner.from_kernel' has a key that is not a "
                                    "string");
      return error_at(s, n->loc);
    }
    if (strcmp(key->s, "pass_configs") == 0) continue; // the tuner's compile options
    kwnames[nkw_used] = key->s;
    kwvals[nkw_used++] = TL_VEC_AT(first->values, TlValue, i);
    tl_buf_printf(&keys, "%s%s", keys.len ? ", " : "", key->s);
  }
  tl_warning(s->diag, n->loc,
             "'%s' is autotuned; tlc does not tune, it takes the first of %d configs for %s",
             fn->s, configs->items.len, keys.data);
  tl_note(s->diag, fn->fn->loc,
          "'%s' is defined here; call it with a config's values to choose another", fn->s);
  return tl_sema_apply(s, fn, n->loc, 0, NULL, nkw_used, kwnames, kwvals);
}

// torch.cuda's device queries, answered from --target as a live GPU of that
// kind would: is_available() is True, device 0 of 1 is current, its
// capability is the target's (9, 0), get_device_properties(i) an object
// whose .major / .minor / .multi_processor_count are the target's. Nothing
// else of torch.cuda runs.
static TlValue *torch_cuda(Sema *s, const TlNode *n, const char *q) {
  const char *f = q + strlen("torch.cuda.");
  TlVec args = {0}, names = {0}, vals = {0};
  if (!tl_sema_eval_call_args(s, n, &args, &names, &vals)) return error_at(s, n->loc);
  if (strcmp(f, "is_available") == 0) {
    TlValue *v = tl_value_new(s, VAL_BOOL, n->loc);
    v->i = 1;
    return v;
  }
  if (strcmp(f, "current_device") == 0) return int_result(s, n->loc, 0);
  if (strcmp(f, "device_count") == 0) return int_result(s, n->loc, 1);
  if (strcmp(f, "get_device_capability") == 0) {
    TlValue *v = tl_value_new(s, VAL_TUPLE, n->loc);
    tl_vec_push(s->arena, &v->items, int_result(s, n->loc, s->module->sm / 10));
    tl_vec_push(s->arena, &v->items, int_result(s, n->loc, s->module->sm % 10));
    return v;
  }
  if (strcmp(f, "get_device_properties") == 0) {
    TlValue *v = tl_value_new(s, VAL_MODULE, n->loc); // read by tl_sema_library_attr
    v->s = "tlc.device_properties";
    return v;
  }
  return NULL;
}

TlValue *tl_sema_library_call(Sema *s, const TlNode *n) {
  const char *q = dotted_name(s, n->a);
  if (q && ends_with(q, "AutoTuner.from_kernel")) return from_kernel(s, n, strstr(q, "AutoTuner"));
  if (q && starts_with(q, "torch.cuda.")) return torch_cuda(s, n, q);
  if (q && (strcmp(q, "torch.rand") == 0 || strcmp(q, "torch.randn") == 0 ||
            strcmp(q, "torch.zeros") == 0 || strcmp(q, "torch.ones") == 0 ||
            strcmp(q, "torch.empty") == 0))
    return host_tensor(s, n, q);
  if (q && (strcmp(q, "TensorCoreIntrinEmitter") == 0 || ends_with(q, ".TensorCoreIntrinEmitter")))
    return mma_emitter(s, n, "TensorCoreIntrinEmitter");
  // tvm.te.var("m") / tvm.tir.Var("m", "int32"): TVM's symbolic sizes, T.dynamic's older spellings.
  if (q && (ends_with(q, "tvm.te.var") || ends_with(q, "tvm.tir.Var") || ends_with(q, "tvm.tirx.Var"))) {
    static const char *const kws[] = {"name", "dtype", "span", NULL};
    const TlNode *name = n->list.len > 0 ? TL_VEC_AT(n->list, TlNode, 0) : tl_sema_kwarg(n, "name");
    const TlNode *dtype = n->list.len > 1 ? TL_VEC_AT(n->list, TlNode, 1) : tl_sema_kwarg(n, "dtype");
    const char *form = strrchr(q, '.') + 1;
    if (!tl_sema_check_keywords(s, n, form, kws)) return error_at(s, n->loc);
    if (!name || n->list.len > 2) {
      tl_error(s->diag, n->loc, "'%s' takes a name and an optional dtype", form);
      return error_at(s, n->loc);
    }
    return tl_eval_runtime_size(s, n, form, name, dtype);
  }
  if (!q || !(starts_with(q, "tilelang") || starts_with(q, "tvm."))) return NULL;
  if (strcmp(q, "tilelang.cdiv") == 0 || strcmp(q, "tilelang.language.cdiv") == 0)
    return cdiv(s, n, q);
  if (ends_with(q, ".next_power_of_2")) return next_power_of_2(s, n, q);
  if (ends_with(q, ".get_num_sms")) {
    TlValue *none[1];
    if (!library_args(s, n, q, 0, false, none)) return error_at(s, n->loc);
    return int_result(s, n->loc, s->sm_count);
  }
  if (ends_with(q, ".DataType")) // tvm.DataType, tvm.tir.DataType, tilelang's re-export
    return data_type(s, n, q);
  if (ends_with(q, ".determine_fp8_type") || ends_with(q, ".determine_torch_fp8_type"))
    return fp8_type(s, n, strrchr(q, '.') + 1);
  return NULL;
}

// torch.float16 and the other torch dtypes, and `.bits` / `.itemsize` of a
// dtype value; NULL for any other attribute.
TlValue *tl_sema_library_attr(Sema *s, const TlNode *n) {
  const char *q = dotted_name(s, n);
  // PassConfigKey.TL_DISABLE_WARP_SPECIALIZED: a pass option's name, as a
  // dict key in an autotuner's config (tlc's passes take no such options).
  if (q && strstr(q, "PassConfigKey.")) return (TlValue *)tl_value_str(s, n->loc, n->name);
  if (q && starts_with(q, "tlc.device_properties.")) { // torch.cuda.get_device_properties(i)
    const char *f = n->name;
    if (strcmp(f, "major") == 0) return int_result(s, n->loc, s->module->sm / 10);
    if (strcmp(f, "minor") == 0) return int_result(s, n->loc, s->module->sm % 10);
    if (strcmp(f, "multi_processor_count") == 0) return int_result(s, n->loc, s->sm_count);
    tl_error(s->diag, n->loc, "tlc knows a device's major, minor and multi_processor_count, "
                              "not '%s'", f);
    return error_at(s, n->loc);
  }
  if (q && starts_with(q, "torch.")) {
    static const struct {
      const char *name;
      TlDtype dtype;
    } torch[] = {{"float16", TY_FLOAT16}, {"half", TY_FLOAT16},  {"bfloat16", TY_BFLOAT16},
                 {"float32", TY_FLOAT32}, {"float", TY_FLOAT32}, {"float64", TY_FLOAT64},
                 {"double", TY_FLOAT64},  {"int8", TY_INT8},     {"uint8", TY_UINT8},
                 {"int16", TY_INT16},     {"int32", TY_INT32},   {"int", TY_INT32},
                 {"int64", TY_INT64},     {"long", TY_INT64},    {"bool", TY_BOOL},
                 {"float8_e4m3fn", TY_FLOAT8_E4M3}, {"float8_e5m2", TY_FLOAT8_E5M2},
                 {"uint16", TY_UINT16}, {"uint32", TY_UINT32}, {"uint64", TY_UINT64}};
    for (size_t i = 0; i < sizeof torch / sizeof torch[0]; i++)
      if (strcmp(q + 6, torch[i].name) == 0) {
        TlValue *v = tl_value_new(s, VAL_DTYPE, n->loc);
        v->dtype = torch[i].dtype;
        return v;
      }
  }
  if (strcmp(n->name, "bits") != 0 && strcmp(n->name, "itemsize") != 0) return NULL;
  if (q) { // T.float16.bits, torch.float8_e4m3fn.itemsize: a library dtype's size
    const char *dot = strrchr(q, '.'),
               *base_q = tl_arena_printf(s->arena, "%.*s", (int)(dot - q), q);
    const char *leaf = strrchr(base_q, '.');
    TlDtype lt;
    if (!leaf || !tl_dtype_parse(leaf + 1, &lt)) return NULL;
  }
  TlSym *y = n->a->kind == ND_NAME ? tl_scope_lookup(s, n->a->name) : NULL;
  if (y && y->kind != SYM_VALUE) return NULL; // a buffer or kernel variable: not a Python value
  TlValue *base = tl_sema_eval_const(s, n->a);
  TlDtype t;
  if (base->kind == VAL_ERROR) return base;
  if (base->kind != VAL_DTYPE && !(base->kind == VAL_STR && tl_dtype_parse(base->s, &t)))
    return NULL;
  t = base->kind == VAL_DTYPE ? base->dtype : t;
  int bits = tl_dtype_bits(t);
  return int_result(s, n->loc, strcmp(n->name, "bits") == 0 ? bits : bits / 8);
}

// Decorators that take a factory and return it (or a caching wrapper of
// it): for tlc, the factory itself.
bool tl_sema_transparent_decorator(const char *name) {
  return strcmp(name, "lru_cache") == 0 || strcmp(name, "cache") == 0 ||
         strcmp(name, "simplify_prim_func") == 0 || ends_with(name, "jit");
}
