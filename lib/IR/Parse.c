// IR parser: reads the text lib/IR/Print.c writes (a .tir file, described
// in docs/ir.md) back into a TlModule in the compilation arena, so that a
// compilation can stop after any pass and resume from the text. One entry
// point, tl_ir_parse; this file reads the module and kernel lines, buffers,
// layouts and the var table; tokens, expressions and statements are in
// ParseTokens.c, ParseExpr.c and ParseStmt.c (IRParse.h). The first error is reported at its
// line:col in the .tir file and ends the parse (the text is machine-written: one precise error is
// more useful than a cascade).
//
// Locations: every `@line:col` in the text is a location in the source the
// kernel came from (the `module source` file); statements, buffers and
// variables get it back, and the expressions of a line get their line's.
#include "IRParse.h"

#include <stdlib.h>
#include <string.h>

/* ---- kernels and the module ---- */

static void parse_layout(Parser *p, TlFragLayout *l);

const TlFragLayout *tl_irp_layout(Parser *p) {
  TlFragLayout *l = TL_NEW(p->a, TlFragLayout);
  parse_layout(p, l);
  return l;
}

static void parse_layout(Parser *p, TlFragLayout *l) {
  Tok *t = tl_irp_peek(p);
  const char *kind = tl_irp_ident(p, "a layout kind");
  int found = -1;
  for (int i = LAYOUT_NONE; i <= LAYOUT_ROW_OF; i++)
    if (strcmp(kind, tl_irtext_layout_kind_name((TlLayoutKind)i)) == 0) found = i;
  if (found < 0) tl_irp_error_at(p, t, "unknown layout kind '%s'", kind);
  l->kind = (TlLayoutKind)found;
  static const char *const keys[] = {"rows", "cols", "threads", "wm", "wn", "g", "vec", "locals"};
  int64_t *fields[] = {&l->rows, &l->cols, &l->threads, &l->wm, &l->wn, &l->g, &l->vec, &l->locals};
  tl_irp_expect(p, "(");
  for (int i = 0; i < 8; i++) {
    if (i) tl_irp_expect(p, ",");
    tl_irp_expect_word(p, keys[i]);
    *fields[i] = tl_irp_count(p, keys[i]);
  }
  if (tl_irp_accept(p, ",")) {
    if (tl_irp_accept_word(p, "wgmma")) {
      l->wgmma = true;
      if (!tl_irp_accept(p, ",")) {
        tl_irp_expect(p, ")");
        return;
      }
    }
    tl_irp_expect_word(p, "parent");
    if (++p->depth > MAX_DEPTH)
      tl_irp_error_at(p, tl_irp_peek(p), "layouts nested more than %d deep", MAX_DEPTH);
    l->parent = tl_irp_layout(p);
    p->depth--;
  }
  tl_irp_expect(p, ")");
}

static void parse_buffer_type(Parser *p, TlBuffer *b) {
  Tok *t = tl_irp_peek(p);
  const char *scope = tl_irp_ident(p, "a buffer scope");
  int found = -1;
  for (int i = SCOPE_GLOBAL; i <= SCOPE_LOCAL; i++)
    if (strcmp(scope, tl_scope_name((TlScope)i)) == 0) found = i;
  if (found < 0) tl_irp_error_at(p, t, "unknown buffer scope '%s'", scope);
  b->scope = (TlScope)found;
  b->dtype = tl_irp_dtype(p);
  b->stages = 1;
  tl_irp_expect(p, "[");
  if (tl_irp_peek_at(p, 1)->kind == TK_IDENT && tl_irp_is_word(tl_irp_peek_at(p, 1), "x")) {
    b->stages = tl_irp_small_int(p, "a stage count");
    tl_irp_next(p);
  }
  do {
    if (b->ndims == TL_MAX_DIMS)
      tl_irp_error_at(p, tl_irp_peek(p), "a buffer has at most %d dimensions", TL_MAX_DIMS);
    if (tl_irp_peek(p)->kind == TK_IDENT) { // a runtime size m#0, resolved after the var table
      RuntimeDim *r = TL_NEW(p->a, RuntimeDim);
      r->buf = b;
      r->dim = b->ndims++;
      r->tok = tl_irp_peek(p);
      r->name = tl_irp_ident(p, "a runtime size");
      r->cname = tl_irp_key_cname(p, r->name);
      tl_vec_push(p->a, &p->runtime_dims, r);
      if (tl_irp_accept(p, "*")) b->dyn_scale[r->dim] = tl_irp_count(p, "a factor");
      continue;
    }
    b->shape[b->ndims++] = tl_irp_count(p, "a dimension");
  } while (tl_irp_accept(p, ","));
  tl_irp_expect(p, "]");
}

// The runtime sizes of the parameters' shapes, the `sizes` line (the
// launcher's order) and the `grid D EXPR` lines of extents computed at launch.
static void parse_runtime_sizes(Parser *p, TlKernel *k) {
  for (int i = 0; i < p->runtime_dims.len; i++) {
    RuntimeDim *r = TL_VEC_AT(p->runtime_dims, RuntimeDim, i);
    TlVar *v = tl_irp_table_var(p, r->name, r->cname);
    if (!v || v->kind != VAR_SIZE)
      tl_irp_error_at(p, r->tok, "'%s' is not a runtime size of the kernel's var table", r->name);
    if (r->stride)
      r->buf->dyn_stride[r->dim] = v;
    else
      r->buf->dyn[r->dim] = v;
  }
  if (tl_irp_accept_word(p, "sizes")) {
    do {
      Tok *t = tl_irp_peek(p);
      TlVar *v = tl_irp_var_key(p);
      if (v && v->kind != VAR_SIZE) tl_irp_error_at(p, t, "'%s' is not a runtime size", v->name);
      tl_vec_push(p->a, &k->sizes, v);
    } while (tl_irp_accept(p, ","));
    tl_irp_expect_newline(p);
  }
  while (tl_irp_accept_word(p, "grid")) {
    Tok *t = tl_irp_peek(p);
    const char *dim = tl_irp_ident(p, "x, y or z");
    int d = strlen(dim) == 1 && dim[0] >= 'x' && dim[0] <= 'z' ? dim[0] - 'x' : -1;
    if (d < 0 || k->grid_const[d] != 0)
      tl_irp_error_at(p, t, "'grid %s' names no extent the kernel line leaves to the launcher",
                      dim);
    k->grid[d] = tl_irp_expr(p);
    tl_irp_expect_newline(p);
  }
  for (int d = 0; d < 3; d++)
    if (k->grid_const[d] == 0 && !k->grid[d])
      tl_irp_error_at(p, tl_irp_peek(p), "grid extent %c is 0 and no 'grid %c' line gives it",
                      "xyz"[d], "xyz"[d]);
}

static void parse_buffer_facts(Parser *p, TlBuffer *b) {
  for (;;) {
    if (tl_irp_accept_word(p, "offset")) {
      b->shared_offset = tl_irp_count(p, "an offset");
    } else if (tl_irp_accept_word(p, "swizzle")) {
      b->swizzle = tl_irp_small_int(p, "a swizzle chunk count");
    } else if (tl_irp_accept_word(p, "wgmma_operand")) {
      b->wgmma_operand = true;
    } else if (tl_irp_accept_word(p, "alias_of")) {
      b->alias_of = tl_irp_buffer(p);
    } else if (tl_irp_accept_word(p, "aliased")) {
      b->aliased = true;
    } else if (tl_irp_accept_word(p, "region_tile")) {
      b->region_tile = true;
    } else if (tl_irp_accept_word(p, "view_of")) {
      b->view_of = tl_irp_buffer(p);
    } else if (tl_irp_accept_word(p, "strides")) {
      b->strided = true;
      tl_irp_expect(p, "[");
      for (int d = 0; d < b->ndims; d++) {
        if (d) tl_irp_expect(p, ",");
        if (tl_irp_peek(p)->kind == TK_IDENT) { // a runtime stride, resolved after the var table
          RuntimeDim *r = TL_NEW(p->a, RuntimeDim);
          r->buf = b;
          r->dim = d;
          r->stride = true;
          r->tok = tl_irp_peek(p);
          r->name = tl_irp_ident(p, "a runtime size");
          r->cname = tl_irp_key_cname(p, r->name);
          tl_vec_push(p->a, &p->runtime_dims, r);
        } else {
          b->stride[d] = tl_irp_count(p, "a stride");
        }
      }
      tl_irp_expect(p, "]");
    } else if (tl_irp_accept_word(p, "written")) {
      b->written = true;
    } else if (tl_irp_accept_word(p, "read")) {
      b->read = true;
    } else if (tl_irp_accept_word(p, "output")) {
      b->output = true;
    } else if (tl_irp_accept_word(p, "scratch")) {
      b->scratch = true;
    } else if (tl_irp_accept_word(p, "layout")) {
      b->layout = tl_irp_layout(p);
    } else if (tl_irp_accept_word(p, "table")) {
      TlVec v = {0};
      tl_irp_int_list(p, &v);
      int32_t *table = TL_NEW_ARRAY(p->a, int32_t, v.len ? v.len : 1);
      for (int i = 0; i < v.len; i++)
        table[i] = (int32_t)(intptr_t)v.items[i];
      b->table = table;
      b->table_len = v.len;
    } else {
      break;
    }
  }
  b->loc = tl_irp_parse_loc(p);
}

static void parse_var_decl(Parser *p) {
  TlVar *v = TL_NEW(p->a, TlVar);
  Tok *t = tl_irp_peek(p);
  v->name = tl_irp_ident(p, "a variable name");
  v->cname = tl_irp_key_cname(p, v->name);
  if (tl_irp_table_var(p, v->name, v->cname))
    tl_irp_error_at(p, t, "variable '%s' is declared twice", v->cname);
  tl_irp_expect(p, ":");
  v->dtype = tl_irp_dtype(p);
  Tok *kt = tl_irp_peek(p);
  const char *kind = tl_irp_ident(p, "a variable kind");
  int found = -1;
  for (int i = VAR_BLOCK_IDX; i <= VAR_TILE_ITER; i++)
    if (strcmp(kind, tl_irtext_var_kind_name((TlVarKind)i)) == 0) found = i;
  if (found < 0) tl_irp_error_at(p, kt, "unknown variable kind '%s'", kind);
  v->kind = (TlVarKind)found;
  if (v->kind == VAR_BLOCK_IDX || v->kind == VAR_THREAD_IDX) {
    Tok *dt = tl_irp_peek(p);
    const char *dim = tl_irp_ident(p, "x, y or z");
    if (strlen(dim) != 1 || dim[0] < 'x' || dim[0] > 'z')
      tl_irp_error_at(p, dt, "expected x, y or z, found '%s'", dim);
    v->dim = dim[0] - 'x';
  }
  if (tl_irp_accept_word(p, "extent")) v->extent = tl_irp_count(p, "an extent");
  if (tl_irp_accept_word(p, "lanes")) v->lanes = tl_irp_count(p, "a register count");
  if (tl_irp_accept_word(p, "divisor")) v->divisor = tl_irp_count(p, "a divisor");
  v->loc = tl_irp_parse_loc(p);
  tl_irp_expect_newline(p);
  tl_vec_push(p->a, &p->vars, v);
}

static void parse_index_vars(Parser *p, TlVar **vars, TlVarKind kind) {
  for (int d = 0; d < 3; d++) {
    if (tl_irp_accept(p, "-")) continue;
    Tok *t = tl_irp_peek(p);
    vars[d] = tl_irp_var_key(p);
    if (vars[d]->kind != kind || vars[d]->dim != d)
      tl_irp_error_at(p, t, "'%s' is not a %s index along %c", vars[d]->name,
                      kind == VAR_BLOCK_IDX ? "block" : "thread", "xyz"[d]);
  }
  tl_irp_expect_newline(p);
}

static void parse_kernel(Parser *p) {
  TlKernel *k = TL_NEW(p->a, TlKernel);
  p->k = k;
  p->vars = (TlVec){0};
  p->runtime_dims = (TlVec){0};
  p->scope = (TlVec){0};
  k->name = tl_irp_ident(p, "a kernel name");
  tl_irp_expect(p, "(");
  if (!tl_irp_is_punct(tl_irp_peek(p), ")")) do {
      TlBuffer *b = TL_NEW(p->a, TlBuffer);
      b->name = tl_irp_ident(p, "a parameter name");
      tl_irp_expect(p, ":");
      parse_buffer_type(p, b);
      parse_buffer_facts(p, b);
      b->param_index = k->params.len;
      tl_vec_push(p->a, &k->params, b);
    } while (tl_irp_accept(p, ","));
  tl_irp_expect(p, ")");
  tl_irp_expect_word(p, "grid");
  tl_irp_expect(p, "(");
  for (int d = 0; d < 3; d++) {
    if (d) tl_irp_expect(p, ",");
    k->grid_const[d] = tl_irp_count(p, "a grid extent");
    k->grid[d] =
        k->grid_const[d] ? tl_expr_int(p->a, (TlLoc){0}, k->grid_const[d], TY_INT32) : NULL;
  }
  tl_irp_expect(p, ")");
  tl_irp_expect_word(p, "threads");
  tl_irp_expect(p, "(");
  for (int d = 0; d < 3; d++) {
    if (d) tl_irp_expect(p, ",");
    k->threads[d] = tl_irp_count(p, "a thread count");
  }
  tl_irp_expect(p, ")");
  if (tl_irp_accept_word(p, "shared_bytes")) k->shared_bytes = tl_irp_count(p, "a byte count");
  tl_irp_expect_word(p, "level");
  if (tl_irp_accept_word(p, "thread"))
    k->thread_level = true;
  else
    tl_irp_expect_word(p, "tile");
  k->flat = tl_irp_accept_word(p, "flat");
  if (tl_irp_accept_word(p, "swizzle_panel")) k->swizzle_panel = tl_irp_count(p, "a panel size");
  if (tl_irp_accept_word(p, "ring_stages")) {
    k->ring_stages = tl_irp_small_int(p, "a ring size");
    tl_irp_expect_word(p, "regs");
    k->consumer_regs = tl_irp_small_int(p, "a register count");
    k->producer_regs = tl_irp_small_int(p, "a register count");
    tl_irp_expect_word(p, "blocks_per_sm");
    k->blocks_per_sm = tl_irp_small_int(p, "a block count");
  }
  k->persistent = tl_irp_accept_word(p, "persistent");
  if (tl_irp_accept_word(p, "cluster")) {
    Tok *ct = tl_irp_peek(p);
    k->cluster = tl_irp_small_int(p, "a cluster size");
    if (k->cluster != 2) tl_irp_error_at(p, ct, "clusters are of 2 blocks");
    Tok *dt = tl_irp_peek(p);
    const char *dim = tl_irp_ident(p, "a block dimension (x, y or z)");
    if (strlen(dim) != 1 || !strchr("xyz", dim[0]))
      tl_irp_error_at(p, dt, "a cluster runs along x, y or z");
    k->cluster_dim = dim[0] - 'x';
  }
  if (tl_irp_accept_word(p, "ws_why")) {
    if (tl_irp_peek(p)->kind != TK_STRING)
      tl_irp_error_at(p, tl_irp_peek(p), "ws_why takes a quoted reason");
    k->ws_why = tl_irp_next(p)->text;
  }
  if (tl_irp_accept_word(p, "launcher")) k->launcher = tl_irp_ident(p, "a launcher name");
  if (tl_irp_accept_word(p, "fallback")) k->fallback = tl_irp_ident(p, "a kernel name");
  k->is_fallback = tl_irp_accept_word(p, "is_fallback");
  if (tl_irp_accept_word(p, "launch_threads")) k->launch_threads = tl_irp_count(p, "a thread count");
  if (tl_irp_accept_word(p, "mbarriers")) {
    TlVec counts = {0};
    tl_irp_int_list(p, &counts);
    k->nmbar = counts.len;
    k->mbar_counts = TL_NEW_ARRAY(p->a, int64_t, counts.len + 1);
    for (int i = 0; i < counts.len; i++)
      k->mbar_counts[i] = (int64_t)(intptr_t)counts.items[i];
  }
  tl_irp_expect_word(p, "next_id");
  k->next_id = tl_irp_small_int(p, "a variable count");
  k->loc = tl_irp_parse_loc(p);
  tl_irp_expect(p, "{");
  tl_irp_expect_newline(p);
  while (tl_irp_is_word(tl_irp_peek(p), "var")) {
    tl_irp_next(p);
    parse_var_decl(p);
  }
  for (int i = 0; i < p->vars.len; i++) // a persistent kernel's tile counter
    if (TL_VEC_AT(p->vars, TlVar, i)->kind == VAR_TILE_ITER)
      k->tile_iter = TL_VEC_AT(p->vars, TlVar, i);
  if (tl_irp_accept_word(p, "block_vars")) parse_index_vars(p, k->block_vars, VAR_BLOCK_IDX);
  if (tl_irp_accept_word(p, "thread_vars")) parse_index_vars(p, k->thread_vars, VAR_THREAD_IDX);
  parse_runtime_sizes(p, k);
  while (tl_irp_is_word(tl_irp_peek(p), "alloc")) {
    tl_irp_next(p);
    TlBuffer *b = TL_NEW(p->a, TlBuffer);
    Tok *t = tl_irp_peek(p);
    b->name = tl_irp_ident(p, "a buffer name");
    if (tl_irp_find_buffer(p, b->name))
      tl_irp_error_at(p, t, "buffer '%s' is declared twice", b->name);
    tl_irp_expect(p, ":");
    parse_buffer_type(p, b);
    parse_buffer_facts(p, b);
    tl_irp_expect_newline(p);
    tl_vec_push(p->a, &k->buffers, b);
  }
  while (tl_irp_accept_word(p, "tma_map")) {
    TlTmaMap *t = TL_NEW(p->a, TlTmaMap);
    Tok *it = tl_irp_peek(p);
    if (tl_irp_small_int(p, "a tensor map index") != k->tma_maps.len)
      tl_irp_error_at(p, it, "tensor maps are numbered in order from 0");
    tl_irp_expect(p, ":");
    t->global = tl_irp_buffer(p);
    tl_irp_expect(p, "->");
    t->tile = tl_irp_buffer(p);
    t->rank = t->global->ndims;
    tl_irp_expect_word(p, "rows");
    t->row_dim = tl_irp_small_int(p, "a dimension");
    tl_irp_expect_word(p, "cols");
    t->col_dim = tl_irp_small_int(p, "a dimension");
    if (t->row_dim >= t->rank || t->col_dim >= t->rank)
      tl_irp_error_at(p, it, "a tensor map dimension is past the tensor's rank %d", t->rank);
    tl_irp_expect_word(p, "box");
    tl_irp_expect(p, "[");
    for (int d = 0; d < t->rank; d++) {
      if (d) tl_irp_expect(p, ",");
      t->box[d] = tl_irp_count(p, "a box extent");
    }
    tl_irp_expect(p, "]");
    tl_irp_expect_word(p, "panel_cols");
    t->panel_cols = tl_irp_count(p, "a column count");
    tl_irp_expect_word(p, "swizzle");
    t->swizzle_bytes = tl_irp_small_int(p, "a swizzle span in bytes");
    t->multicast = tl_irp_accept_word(p, "multicast");
    t->store = tl_irp_accept_word(p, "store");
    tl_irp_expect_newline(p);
    tl_vec_push(p->a, &k->tma_maps, t);
  }
  if (tl_irp_accept_word(p, "producer")) {
    tl_irp_expect(p, "{");
    tl_irp_expect_newline(p);
    tl_irp_parse_body(p, &k->producer);
    tl_irp_close_block(p);
  }
  tl_irp_parse_body(p, &k->body);
  tl_irp_close_block(p);
  tl_vec_push(p->a, &p->m->kernels, k);
}

TlModule *tl_ir_parse(TlArena *a, const TlSource *src, TlDiag *d) {
  Parser p = {0};
  p.a = a;
  p.d = d;
  p.file = src;
  if (setjmp(p.fail)) return NULL;
  tl_irp_lex(&p);
  TlModule *m = TL_NEW(a, TlModule);
  p.m = m;
  tl_irp_expect_word(&p, "module");
  tl_irp_expect_word(&p, "source");
  if (tl_irp_peek(&p)->kind != TK_STRING)
    tl_irp_error_at(&p, tl_irp_peek(&p), "expected the source file name as a string, found '%s'",
                    tl_irp_describe(tl_irp_peek(&p)));
  const char *name = tl_irp_next(&p)->text;
  // The locations refer to the source; its text (when it is still there)
  // lets diagnostics of the later passes show the line.
  char err[256];
  TlSource *origin = tl_source_read(a, name, err, sizeof err);
  p.origin = origin ? origin : tl_source_from_string(a, name, "");
  m->src = p.origin;
  tl_irp_expect_word(&p, "target");
  m->target_name = tl_irp_ident(&p, "a target name");
  tl_irp_expect_word(&p, "sm");
  m->sm = tl_irp_small_int(&p, "an sm number");
  tl_irp_expect_word(&p, "max_shared_bytes");
  m->max_shared_bytes = tl_irp_count(&p, "a byte count");
  tl_irp_expect_word(&p, "max_threads");
  m->max_threads = tl_irp_count(&p, "a thread count");
  if (tl_irp_accept_word(&p, "has_wgmma")) m->has_wgmma = true;
  if (tl_irp_accept_word(&p, "has_tma")) m->has_tma = true;
  if (tl_irp_accept_word(&p, "clusters")) m->clusters = true;
  if (tl_irp_accept_word(&p, "nvcc_arch")) {
    if (tl_irp_peek(&p)->kind != TK_STRING)
      tl_irp_error_at(&p, tl_irp_peek(&p), "nvcc_arch takes a quoted flag");
    m->nvcc_arch = tl_irp_next(&p)->text;
  }
  tl_irp_expect_newline(&p);
  while (tl_irp_peek(&p)->kind != TK_EOF) {
    tl_irp_expect_word(&p, "kernel");
    parse_kernel(&p);
  }
  return m;
}
