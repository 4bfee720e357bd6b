// Check 2: no barrier under divergent control flow. __syncthreads() (and
// bar.sync in inline asm, and calls to functions containing either) must be
// reached by every thread of the block or by none; under a condition that
// differs between threads it deadlocks or corrupts shared memory.
//
// Divergence comes from taint: threadIdx and every memory load are
// per-thread; a variable assigned (or assigned under a condition) from a
// tainted expression is tainted, to a fixpoint. blockIdx, blockDim,
// gridDim, kernel parameters and constants are block-uniform, so a loop with
// such bounds is fine. Control that becomes divergent: if/while/for/do/
// switch conditions, ?:, && and ||, a loop left early (break, continue,
// return) under a tainted condition, and a tainted early return (the rest of
// the function is then divergent).
#include "Verify.h"

#include <string.h>

typedef struct Taint {
  const char *root; // what makes it per-thread: "threadIdx.x", "a value loaded from 'A'"
  const char *desc; // how this expression depends on it, for messages
} Taint;

static Taint untainted(void) {
  return (Taint){NULL, NULL};
}

static Taint root(const char *r) {
  return (Taint){r, r};
}

static const char *base_name(TvExpr *e) {
  e = tv_strip(e);
  while (e && (e->kind == EX_SUBSCRIPT || e->kind == EX_MEMBER || e->kind == EX_CAST) && e->nkids)
    e = tv_strip(e->kids[0]);
  return e && e->kind == EX_VAR ? e->var->name : NULL;
}

static bool per_thread_call(const char *n) {
  static const char *const prefixes[] = {"__shfl",   "__ldg",        "atomic",
                                         "__ballot", "__activemask", "clock",
                                         "__match",  "__reduce",     NULL};
  for (int i = 0; n && prefixes[i]; i++)
    if (!strncmp(n, prefixes[i], strlen(prefixes[i]))) return true;
  return false;
}

// A restrict pointer parameter to const data (`const float *__restrict__
// A`): no other pointer of the kernel writes what it points to.
static bool read_only(const TvVar *v) {
  return v->is_pointer && v->ctype && !strncmp(v->ctype, "const ", 6) &&
         ((v->type && strstr(v->type, "restrict")) || strstr(v->ctype, "restrict"));
}

// A register array of the function (`bool block_mask[4];`) used only as
// a[i]: it is tracked like a scalar, tainted when an element is assigned a
// tainted value, at a tainted index or under tainted control. A replicated
// fragment that every thread fills alike from read-only memory stays
// uniform (`if (block_mask[k] != 0)` around a barrier, TileLang's
// block-sparse attention).
static bool tracked_array(const TvVar *v) {
  return v && v->kind == VAR_LOCAL && v->is_array && !v->is_shared && !v->addr_taken &&
         !v->array_escapes;
}

static TvVar *subscripted_array(TvExpr *e) {
  e = tv_strip(e);
  if (!e || e->kind != EX_SUBSCRIPT) return NULL;
  TvExpr *base = tv_strip(e->kids[0]);
  return base && base->kind == EX_VAR && tracked_array(base->var) ? base->var : NULL;
}

// Marks arrays referenced other than as the base of a subscript that is
// not itself under & (parent_ok: e is such a base).
static void mark_escapes(TvExpr *e, bool parent_ok) {
  if (!e) return;
  if (e->kind == EX_VAR && e->var && e->var->is_array && !parent_ok) e->var->array_escapes = true;
  bool addr = e->kind == EX_UNARY && !strcmp(e->op, "&");
  for (int i = 0; i < e->nkids; i++) {
    TvExpr *k = e->kids[i];
    bool ok = false;
    if (e->kind == EX_SUBSCRIPT && i == 0)
      ok = true;
    else if (e->kind == EX_OTHER && e->nkids == 1 && parent_ok)
      ok = true; // an implicit conversion of the base (array to pointer)
    if (addr && k && tv_strip(k) && tv_strip(k)->kind == EX_SUBSCRIPT) {
      TvExpr *b = tv_strip(tv_strip(k)->kids[0]);
      if (b && b->kind == EX_VAR && b->var) b->var->array_escapes = true;
    }
    mark_escapes(k, ok);
  }
}

static void mark_escapes_stmt(TvStmt *s) {
  if (!s) return;
  for (int i = 0; i < s->vars.len; i++)
    mark_escapes(TV_AT(s->vars, TvVar, i)->init, false);
  mark_escapes(s->cond, false);
  mark_escapes(s->expr, false);
  mark_escapes(s->inc, false);
  for (int i = 0; i < s->exprs.len; i++) {
    TvExpr *e = TV_AT(s->exprs, TvExpr, i);
    if (s->kind == ST_ASM) {
      TvVar *a = subscripted_array(e);
      if (a) a->array_escapes = true; // an asm operand may be written
    }
    mark_escapes(e, false);
  }
  for (int i = 0; i < s->nkids; i++)
    mark_escapes_stmt(s->kids[i]);
}

static Taint taint_of(TvExpr *e) {
  if (!e) return untainted();
  switch (e->kind) {
  case EX_BUILTIN:
    return e->builtin == BI_THREAD_IDX ? root(e->name) : untainted();
  case EX_VAR:
    if (!e->var->taint) return untainted();
    return (Taint){e->var->taint,
                   tv_printf("'%s', which is derived from %s", e->var->name, e->var->taint)};
  case EX_SUBSCRIPT: {
    TvVar *arr = subscripted_array(e);
    if (arr) {
      if (arr->taint)
        return (Taint){arr->taint, tv_printf("an element of '%s', which is derived from %s",
                                             arr->name, arr->taint)};
      return taint_of(e->kids[1]);
    }
    // An element of read-only global memory (a `const T *` kernel parameter,
    // which the kernel cannot write) at a block-uniform index is the same in
    // every thread: a mask or length table (`if (BlockMask[by * 8 + k])`).
    TvExpr *base = tv_strip(e->kids[0]);
    if (base && base->kind == EX_VAR && base->var->kind == VAR_PARAM && read_only(base->var) &&
        !taint_of(e->kids[1]).root)
      return untainted();
    const char *n = base_name(e);
    return root(n ? tv_printf("a value loaded from '%s'", n) : "a value loaded from memory");
  }
  case EX_UNARY:
    if (!strcmp(e->op, "*")) {
      const char *n = base_name(e->kids[0]);
      return root(n ? tv_printf("a value loaded from '%s'", n) : "a value loaded from memory");
    }
    if (!strcmp(e->op, "&")) {
      // &X[i] is an address, not a load: only its index can differ.
      TvExpr *k = tv_strip(e->kids[0]);
      if (k && k->kind == EX_SUBSCRIPT) return taint_of(k->kids[1]);
    }
    break;
  case EX_CALL:
    if (per_thread_call(e->name)) return root(tv_printf("the result of '%s'", e->name));
    break;
  default:
    break;
  }
  for (int i = 0; i < e->nkids; i++) {
    Taint t = taint_of(e->kids[i]);
    if (t.root) return t;
  }
  return untainted();
}

/* ---- taint propagation: assignments, to a fixpoint ---- */

static bool changed;

static void taint_var(TvVar *v, Taint t, const char *control) {
  const char *r = t.root ? t.root : control;
  if (!v || v->taint || !r) return;
  v->taint = r;
  changed = true;
}

static TvVar *lhs_var(TvExpr *e) {
  e = tv_strip(e);
  return e && e->kind == EX_VAR ? e->var : NULL;
}

// An element store a[i] (op)= v taints the whole array.
static void taint_array_store(TvExpr *lhs, Taint value, const char *control) {
  TvVar *arr = subscripted_array(lhs);
  if (!arr) return;
  Taint index = taint_of(tv_strip(lhs)->kids[1]);
  taint_var(arr, value.root ? value : index, control);
}

static void propagate_expr(TvExpr *e, const char *control) {
  if (!e) return;
  if (e->kind == EX_BINARY && e->op[strlen(e->op) - 1] == '=' && strcmp(e->op, "==") &&
      strcmp(e->op, "!=") && strcmp(e->op, "<=") && strcmp(e->op, ">=")) {
    taint_var(lhs_var(e->kids[0]), taint_of(e->kids[1]), control);
    taint_array_store(e->kids[0], taint_of(e->kids[1]), control);
  }
  if (e->kind == EX_UNARY && (strstr(e->op, "++") || strstr(e->op, "--"))) {
    taint_var(lhs_var(e->kids[0]), untainted(), control);
    taint_array_store(e->kids[0], untainted(), control);
  }
  if (e->kind == EX_COND) {
    propagate_expr(e->kids[0], control);
    const char *c = taint_of(e->kids[0]).root;
    propagate_expr(e->kids[1], c ? c : control);
    propagate_expr(e->kids[2], c ? c : control);
    return;
  }
  for (int i = 0; i < e->nkids; i++)
    propagate_expr(e->kids[i], control);
}

static void propagate(TvStmt *s, const char *control) {
  if (!s) return;
  for (int i = 0; i < s->vars.len; i++) {
    TvVar *v = TV_AT(s->vars, TvVar, i);
    propagate_expr(v->init, control);
    if (v->init) taint_var(v, taint_of(v->init), control);
  }
  if (s->kind == ST_ASM)
    for (int i = 0; i < s->exprs.len; i++)
      taint_var(lhs_var(TV_AT(s->exprs, TvExpr, i)), root("an inline asm output"), control);
  const char *c = s->cond ? taint_of(s->cond).root : NULL;
  const char *inner = c ? c : control;
  propagate_expr(s->cond, control);
  propagate_expr(s->expr, control);
  for (int i = 0; i < s->exprs.len; i++)
    propagate_expr(TV_AT(s->exprs, TvExpr, i), control);
  // A for loop's own counter stays uniform inside the loop (its only
  // scope) even when the trip count is not: step it outside the condition.
  bool counter = s->kind == ST_FOR && s->kids[0] && s->kids[0]->vars.len == 1 &&
                 TV_AT(s->kids[0]->vars, TvVar, 0)->loop == s;
  propagate_expr(s->inc, counter ? control : inner);
  for (int i = 0; i < s->nkids; i++)
    propagate(s->kids[i], s->kind == ST_FOR && i == 0 ? control : inner);
}

/* ---- barriers ---- */

static bool asm_barrier(const char *text) {
  const char *b = strstr(text, "bar.sync");
  if (!b) b = strstr(text, "barrier.sync");
  if (!b) b = strstr(text, "barrier.cta.sync");
  if (!b) return false;
  // bar.sync id, count: a named barrier for `count` threads, meant to be
  // reached by a subset of the block; not checked.
  const char *end = strchr(b, ';');
  const char *comma = strchr(b, ',');
  return !(comma && (!end || comma < end));
}

// The barrier instruction of an asm string, for messages: "bar.sync 0;".
static const char *asm_instruction(const char *text) {
  const char *b = strstr(text, "bar");
  const char *end = b ? strchr(b, ';') : NULL;
  return b && end ? tv_strndup(b, (size_t)(end - b + 1)) : text;
}

static bool func_has_barrier(TvFunc *f);

static void find_barrier(TvExpr *e, void *ctx) {
  bool *found = ctx;
  if (tv_is_barrier_call(e) || (e->kind == EX_CALL && e->func && func_has_barrier(e->func)))
    *found = true;
}

static bool stmt_has_barrier(TvStmt *s) {
  if (!s) return false;
  if (s->kind == ST_ASM && asm_barrier(s->text)) return true;
  for (int i = 0; i < s->nkids; i++)
    if (stmt_has_barrier(s->kids[i])) return true;
  return false;
}

static bool func_has_barrier(TvFunc *f) {
  if (f->barrier_state == 0) {
    f->barrier_state = 1; // recursion: assume none
    bool found = stmt_has_barrier(f->body);
    tv_for_each_expr(f->body, find_barrier, &found);
    f->has_barrier = found;
    f->barrier_state = 2;
  }
  return f->has_barrier;
}

/* ---- the walk ---- */

typedef struct Div {
  const char *what; // "the 'if' condition at 12:7"
  const char *why;  // "threadIdx.x"
  const char *via;  // NULL, or the early exit it comes through: "the 'break' at 14:9"
  bool exit;        // from an early return: "after a divergent exit"
} Div;

typedef struct Walk {
  const Div *exit; // set once a tainted return was passed
} Walk;

static const Div *cond_div(const char *what, const TvExpr *cond, const Div *outer) {
  Taint t = taint_of((TvExpr *)cond);
  if (!t.root) return outer;
  Div *d = tv_alloc(sizeof *d);
  d->what = tv_printf("the %s at %u:%u", what, cond->loc.line, cond->loc.col);
  d->why = t.desc;
  return d;
}

static void report(Walk *w, TvLoc loc, const char *barrier, const Div *div) {
  if (!div) div = w->exit;
  if (!div) return;
  if (div->exit)
    tv_error(loc, "%s after a divergent exit: %s is under %s, which depends on %s", barrier,
             div->via, div->what, div->why);
  else if (div->via)
    tv_error(
        loc,
        "%s under divergent control flow: the loop is left by %s under %s, which depends on %s",
        barrier, div->via, div->what, div->why);
  else
    tv_error(loc, "%s under divergent control flow: %s depends on %s", barrier, div->what,
             div->why);
}

static void walk_expr(Walk *w, TvExpr *e, const Div *div) {
  if (!e) return;
  if (tv_is_barrier_call(e))
    report(w, e->loc, tv_printf("%s()", e->name), div);
  else if (e->kind == EX_CALL && e->func && func_has_barrier(e->func))
    report(w, e->loc, tv_printf("call to '%s', which contains a barrier,", e->name), div);
  if (e->kind == EX_COND) {
    walk_expr(w, e->kids[0], div);
    const Div *inner = cond_div("'?:' condition", e->kids[0], div);
    walk_expr(w, e->kids[1], inner);
    walk_expr(w, e->kids[2], inner);
    return;
  }
  if (e->kind == EX_BINARY && (!strcmp(e->op, "&&") || !strcmp(e->op, "||"))) {
    walk_expr(w, e->kids[0], div);
    walk_expr(w, e->kids[1], cond_div(tv_printf("left side of '%s'", e->op), e->kids[0], div));
    return;
  }
  for (int i = 0; i < e->nkids; i++)
    walk_expr(w, e->kids[i], div);
}

// A break/continue (in_loop: of this loop) or return under a tainted
// condition inside a loop body: the loop's trip count is per-thread.
static const Div *loop_exit(TvStmt *s, const Div *div, bool nested) {
  if (!s) return NULL;
  if (div &&
      (s->kind == ST_RETURN || (!nested && (s->kind == ST_BREAK || s->kind == ST_CONTINUE)))) {
    Div *d = tv_alloc(sizeof *d);
    *d = *div;
    const char *kw = s->kind == ST_RETURN ? "return" : s->kind == ST_BREAK ? "break" : "continue";
    d->via = tv_printf("the '%s' at %u:%u", kw, s->loc.line, s->loc.col);
    return d;
  }
  const Div *inner = div;
  if (s->cond)
    inner = cond_div(s->kind == ST_IF ? "'if' condition" : "loop condition", s->cond, div);
  bool loop = s->kind == ST_FOR || s->kind == ST_WHILE || s->kind == ST_DO || s->kind == ST_SWITCH;
  for (int i = 0; i < s->nkids; i++) {
    const Div *d = loop_exit(s->kids[i], inner, nested || loop);
    if (d) return d;
  }
  return NULL;
}

static void walk(Walk *w, TvStmt *s, const Div *div) {
  if (!s) return;
  switch (s->kind) {
  case ST_IF: {
    walk_expr(w, s->cond, div);
    const Div *inner = cond_div("'if' condition", s->cond, div);
    walk(w, s->kids[0], inner);
    walk(w, s->kids[1], inner);
    return;
  }
  case ST_FOR:
  case ST_WHILE:
  case ST_DO:
  case ST_SWITCH: {
    const char *what = s->kind == ST_FOR     ? "'for' condition"
                       : s->kind == ST_WHILE ? "'while' condition"
                       : s->kind == ST_DO    ? "'do' condition"
                                             : "'switch' value";
    if (s->kind == ST_FOR) walk(w, s->kids[0], div);
    walk_expr(w, s->cond, div);
    const Div *inner = s->cond ? cond_div(what, s->cond, div) : div;
    if (inner == div && s->kind != ST_SWITCH) {
      const Div *ex = loop_exit(s->kind == ST_FOR ? s->kids[1] : s->kids[0], NULL, false);
      if (ex) inner = ex;
    }
    walk(w, s->kind == ST_FOR ? s->kids[1] : s->kids[0], inner);
    walk_expr(w, s->inc, inner);
    return;
  }
  case ST_RETURN:
    walk_expr(w, s->expr, div);
    if (div && !w->exit) {
      Div *d = tv_alloc(sizeof *d);
      *d = *div;
      d->exit = true;
      d->via = tv_printf("the 'return' at %u:%u", s->loc.line, s->loc.col);
      w->exit = d;
    }
    return;
  case ST_ASM:
    if (asm_barrier(s->text))
      report(w, s->loc, tv_printf("inline asm '%s'", asm_instruction(s->text)), div);
    break;
  default:
    break;
  }
  for (int i = 0; i < s->vars.len; i++)
    walk_expr(w, TV_AT(s->vars, TvVar, i)->init, div);
  walk_expr(w, s->cond, div);
  walk_expr(w, s->expr, div);
  for (int i = 0; i < s->exprs.len; i++)
    walk_expr(w, TV_AT(s->exprs, TvExpr, i), div);
  for (int i = 0; i < s->nkids; i++)
    walk(w, s->kids[i], div);
}

void tv_check_barriers(TvProgram *p) {
  for (int i = 0; i < p->funcs.len; i++) {
    TvFunc *f = TV_AT(p->funcs, TvFunc, i);
    if (!f->body || !(f->is_global || f->is_device)) continue;
    // Parameters of device helpers are taken as uniform too: a helper is
    // checked for its own conditions; its callers for theirs.
    int guard = 0;
    mark_escapes_stmt(f->body);
    do {
      changed = false;
      propagate(f->body, NULL);
    } while (changed && ++guard < 1000);
    Walk w = {0};
    walk(&w, f->body, NULL);
  }
}
