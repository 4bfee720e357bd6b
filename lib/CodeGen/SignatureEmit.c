// --emit=signature: a JSON description of every host launcher of the .cu,
// written for callers that bind the kernels from another language (the
// Python package in python/tlc/ reads it; nothing parses the .cu). Per
// kernel: the C names, the launch shape, and every parameter in call order
// with its role, dtype, shape, memory layout, the alignment its accesses
// assume and whether the kernel reads or writes it.
//
// The format is versioned ("tlc_signature": 1) and described in
// docs/pytorch.md. "sizes" lists the runtime sizes of a kernel (T.dynamic),
// the int parameters after the tensors, and a shape entry is an integer or,
// for a runtime dimension, the name of the size that gives it (a grid
// extent the launcher computes is 0). "autotune" lists the configs of every
// @autotune factory whose first config a call took
// (lib/Eval/AutotuneRecord.c), so `tlc tune` can time all of them.
//
// JSON is written by hand (no library): only strings need care, and the
// names tlc prints come from source identifiers and file names.
#include "tlc/CIdent.h"
#include "tlc/CodeGen.h"

#include <stdio.h>

static void json_key(TlBuf *out, int indent, const char *key) {
  tl_buf_printf(out, "%*s", indent, "");
  tl_buf_json_string(out, key);
  tl_buf_puts(out, ": ");
}

static void json_triple(TlBuf *out, const int64_t v[3]) {
  tl_buf_printf(out, "[%lld, %lld, %lld]", (long long)v[0], (long long)v[1], (long long)v[2]);
}

// The widest access, in bytes, that the thread IR makes to global buffer b:
// a vector load or store, or a cp.async reading it (TMA: tma_alignment). The caller's pointer
// must be aligned to it (a float4 load from an address that is not a
// multiple of 16 faults), so the signature records it and the Python
// package checks tensor.data_ptr() before launching.
static int64_t widest_access(const TlVec *stmts, const TlBuffer *b) {
  int64_t widest = 0;
  for (int i = 0; i < stmts->len; i++) {
    const TlStmt *s = TL_VEC_AT(*stmts, TlStmt, i);
    int64_t bytes = 0;
    if ((s->kind == ST_VLOAD || s->kind == ST_VSTORE) && s->buf == b)
      bytes = s->width * tl_dtype_bits(b->dtype) / 8;
    else if (s->kind == ST_CP_ASYNC && s->value && s->value->buf == b)
      bytes = s->width * tl_dtype_bits(b->dtype) / 8;
    if (bytes > widest) widest = bytes;
    int64_t inner = widest_access(&s->body, b);
    if (inner > widest) widest = inner;
    inner = widest_access(&s->else_body, b);
    if (inner > widest) widest = inner;
  }
  return widest;
}

static const char *access_name(const TlBuffer *b) {
  if (b->read && b->written) return "readwrite";
  if (b->written) return "write";
  if (b->read) return "read";
  return "unused";
}

// A parameter the kernel writes and never reads: a caller may leave it out
// and have it allocated (TileLang's out_idx).
static bool is_output(const TlBuffer *b) {
  return b->written && !b->read;
}

// A buffer the launcher describes with a TMA tensor map: cuTensorMapEncodeTiled
// refuses a global address that is not a multiple of 16 bytes.
static int64_t tma_alignment(const TlKernel *k, const TlBuffer *b) {
  for (int i = 0; i < k->tma_maps.len; i++) {
    const TlBuffer *g = TL_VEC_AT(k->tma_maps, TlTmaMap, i)->global;
    if ((g->view_of ? g->view_of : g) == b) return 16;
  }
  return 0;
}

static void param(TlBuf *out, const TlKernel *k, const TlBuffer *b, int index) {
  int64_t elem = tl_dtype_bits(b->dtype) / 8;
  int64_t align = widest_access(&k->body, b);
  if (tma_alignment(k, b) > align) align = tma_alignment(k, b);
  if (align < elem) align = elem;
  tl_buf_puts(out, "        {");
  tl_buf_json_string(out, "name");
  tl_buf_puts(out, ": ");
  tl_buf_json_string(out, b->name);
  tl_buf_puts(out, ", \"c_name\": ");
  tl_buf_json_string(out, tl_cident(out->arena, b->name, TL_CIDENT_LOCAL));
  tl_buf_printf(out, ", \"index\": %d, \"role\": \"tensor\", \"dtype\": \"%s\", \"shape\": [",
                index, tl_dtype_name(b->dtype));
  for (int d = 0; d < b->ndims; d++) {
    tl_buf_puts(out, d ? ", " : "");
    if (b->dyn[d] && tl_buffer_dyn_scale(b, d) > 1) // "seq_len*32"
      tl_buf_json_string(out, tl_arena_printf(out->arena, "%s*%lld", b->dyn[d]->name,
                                              (long long)tl_buffer_dyn_scale(b, d)));
    else if (b->dyn[d])
      tl_buf_json_string(out, b->dyn[d]->name);
    else
      tl_buf_printf(out, "%lld", (long long)b->shape[d]);
  }
  tl_buf_puts(out, "],\n         ");
  if (b->strided) { // T.StridedTensor: element strides, numbers or size names
    tl_buf_puts(out, "\"layout\": \"strided\", \"strides\": [");
    for (int d = 0; d < b->ndims; d++) {
      tl_buf_puts(out, d ? ", " : "");
      if (b->dyn_stride[d])
        tl_buf_json_string(out, b->dyn_stride[d]->name);
      else
        tl_buf_printf(out, "%lld", (long long)b->stride[d]);
    }
    tl_buf_puts(out, "], ");
  } else {
    tl_buf_puts(out, "\"layout\": \"row-major-contiguous\", ");
  }
  tl_buf_printf(out,
                "\"element_bytes\": %lld, \"align_bytes\": %lld, \"access\": \"%s\", "
                "\"output\": %s}",
                (long long)elem, (long long)align, access_name(b), is_output(b) ? "true" : "false");
}

static void kernel_entry(TlBuf *out, const TlKernel *k) {
  tl_buf_puts(out, "    {\n");
  json_key(out, 6, "name");
  tl_buf_json_string(out, k->name);
  tl_buf_puts(out, ",\n");
  json_key(out, 6, "kernel_symbol");
  tl_buf_json_string(out, tl_arena_printf(out->arena, "%s_kernel", k->name));
  tl_buf_printf(out, ",\n      \"line\": %d,\n", k->loc.line);
  json_key(out, 6, "grid");
  json_triple(out, k->grid_const);
  tl_buf_puts(out, ",\n");
  json_key(out, 6, "threads");
  json_triple(out, k->threads);
  tl_buf_printf(out, ",\n      \"shared_bytes\": %lld,\n", (long long)k->shared_bytes);
  // The launcher: cudaError_t NAME(params..., cudaStream_t stream).
  tl_buf_puts(out, "      \"returns\": \"cudaError_t\",\n      \"stream\": \"last\",\n");
  tl_buf_puts(out, "      \"params\": [\n");
  for (int i = 0; i < k->params.len; i++) {
    param(out, k, TL_VEC_AT(k->params, TlBuffer, i), i);
    tl_buf_puts(out, i + 1 < k->params.len ? ",\n" : "\n");
  }
  // The runtime sizes (T.dynamic): int parameters after the tensors, in this order.
  tl_buf_puts(out, "      ],\n      \"sizes\": [");
  for (int i = 0; i < k->sizes.len; i++) {
    tl_buf_puts(out, i ? ", " : "");
    tl_buf_json_string(out, TL_VEC_AT(k->sizes, TlVar, i)->name);
  }
  tl_buf_puts(out, "],\n      \"outputs\": [");
  int n = 0;
  for (int i = 0; i < k->params.len; i++)
    if (is_output(TL_VEC_AT(k->params, TlBuffer, i)))
      tl_buf_printf(out, "%s%d", n++ ? ", " : "", i);
  tl_buf_puts(out, "]\n    }");
}

// An @autotune factory whose first config tlc took: every config (sema
// wrote them as JSON), for `tlc tune` to time.
static void autotune_entry(TlBuf *out, const TlAutotune *t, bool more) {
  tl_buf_puts(out, "\n    {\"factory\": ");
  tl_buf_json_string(out, t->factory);
  tl_buf_printf(out, ", \"line\": %d, \"tuned\": %s,\n     \"configs\": %s}%s", t->loc.line,
                t->tuned, t->configs, more ? "," : "");
}

void tl_emit_signature(const TlModule *m, TlBuf *out) {
  tl_buf_puts(out, "{\n  \"tlc_signature\": 1,\n");
  json_key(out, 2, "tlc_version");
  tl_buf_json_string(out, TLC_VERSION);
  tl_buf_puts(out, ",\n");
  json_key(out, 2, "source");
  tl_buf_json_string(out, m->src->name);
  tl_buf_puts(out, ",\n");
  json_key(out, 2, "target");
  tl_buf_json_string(out, m->target_name);
  tl_buf_puts(out, ",\n");
  // The flag of the `// Compile with:` line of the .cu, for the same target.
  json_key(out, 2, "nvcc_arch");
  tl_buf_json_string(out, m->nvcc_arch ? m->nvcc_arch
                                : tl_arena_printf(out->arena, "-arch=%s", m->target_name));
  tl_buf_puts(out, ",\n  \"kernels\": [\n");
  bool first = true;
  for (int i = 0; i < m->kernels.len; i++) {
    if (TL_VEC_AT(m->kernels, TlKernel, i)->is_fallback)
      continue; // no launcher of its own: its kernel's launcher runs it
    tl_buf_puts(out, first ? "" : ",\n");
    kernel_entry(out, TL_VEC_AT(m->kernels, TlKernel, i));
    first = false;
  }
  tl_buf_puts(out, first ? "" : "\n");
  tl_buf_puts(out, "  ],\n  \"autotune\": [");
  for (int i = 0; i < m->autotune.len; i++)
    autotune_entry(out, TL_VEC_AT(m->autotune, TlAutotune, i), i + 1 < m->autotune.len);
  tl_buf_puts(out, m->autotune.len ? "\n  ]\n}\n" : "]\n}\n");
}
