// Reads of a shared, fragment or local tile before anything writes it
// (clang's -Wuninitialized for tiles), on sema's tile IR.
//
// Why: TileLang's gdn/example_chunk_delta_h stores and multiplies its state
// tile `b_h_shared` at the top of every iteration and writes it at the
// bottom; with use_initial_state=False nothing writes it before the first
// iteration, so the kernel reads whatever the shared memory held (on the
// H200 its outputs differed from run to run, bench/RESULTS.md part 16).
// TileLang compiles it silently.
//
// The walk follows program order with the set of tiles some path may have
// written so far: an `if` (or a T.ws scope, whose siblings may run first)
// adds what either side writes, a loop adds what its body writes, so only a
// read that no earlier statement can have fed is reported. A loop's body is
// walked once from its entry state: its first iteration (the later write in
// the same body is named in a note). Each tile is reported once.
#include "tlc/Uninitialized.h"

#include <string.h>

#include "tlc/Support.h"

enum { MAX_TILES = 256 };

typedef struct Walk {
  const TlBuffer *written[MAX_TILES];
  int nwritten;
  const TlBuffer *reported[MAX_TILES];
  int nreported;
  bool overflow;         // too many tiles: report nothing more
  const TlStmt *current; // the statement whose reads are being walked
  TlDiag *diag;
} Walk;

static const TlBuffer *tile(const TlBuffer *b) {
  if (!b) return NULL;
  if (b->alias_of) b = b->alias_of;
  return b->scope == SCOPE_SHARED || b->scope == SCOPE_FRAGMENT || b->scope == SCOPE_LOCAL ? b
                                                                                           : NULL;
}

static bool member(const TlBuffer *const *set, int n, const TlBuffer *b) {
  for (int i = 0; i < n; i++)
    if (set[i] == b) return true;
  return false;
}

static void add(Walk *w, const TlBuffer *b) {
  b = tile(b);
  if (!b || member(w->written, w->nwritten, b)) return;
  if (w->nwritten == MAX_TILES)
    w->overflow = true;
  else
    w->written[w->nwritten++] = b;
}

// Every tile s (and its bodies) writes, added to w.
static void add_writes(Walk *w, const TlStmt *s) {
  switch (s->kind) {
  case ST_COPY:
  case ST_FILL:
  case ST_REDUCE:
    add(w, s->dst.buf);
    break;
  case ST_GEMM:
    add(w, s->c);
    break;
  case ST_STORE:
  case ST_VSTORE:
  case ST_CP_ASYNC:
  case ST_TMA_LOAD:
    add(w, s->kind == ST_TMA_LOAD ? s->dst.buf : s->buf);
    break;
  default:
    break;
  }
  for (int i = 0; i < s->body.len; i++)
    add_writes(w, TL_VEC_AT(s->body, TlStmt, i));
  for (int i = 0; i < s->else_body.len; i++)
    add_writes(w, TL_VEC_AT(s->else_body, TlStmt, i));
}

static void add_body_writes(Walk *w, const TlVec *body) {
  for (int i = 0; i < body->len; i++)
    add_writes(w, TL_VEC_AT(*body, TlStmt, i));
}

// The first statement of body (in order, bodies included) that writes b.
static const TlStmt *first_write(const TlVec *body, const TlBuffer *b) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    Walk one = {0};
    add_writes(&one, s);
    if (member(one.written, one.nwritten, b)) {
      const TlStmt *inner = first_write(&s->body, b);
      return inner ? inner : s;
    }
  }
  return NULL;
}

typedef struct Loop {
  const TlStmt *stmt;
  const struct Loop *outer;
} Loop;

static void read(Walk *w, const TlBuffer *b, TlLoc loc, const Loop *loop) {
  b = tile(b);
  if (!b || w->overflow || member(w->written, w->nwritten, b) ||
      member(w->reported, w->nreported, b) || w->nreported == MAX_TILES)
    return;
  w->reported[w->nreported++] = b;
  const char *what = b->scope == SCOPE_SHARED     ? "shared tile"
                     : b->scope == SCOPE_FRAGMENT ? "fragment"
                                                  : "local buffer";
  tl_warning(w->diag, loc, "%s '%s' is read before anything writes it", what, b->name);
  for (const Loop *l = loop; l; l = l->outer) {
    const TlStmt *later = first_write(&l->stmt->body, b);
    if (later && later != w->current) { // (an update in place, `acc += x`, writes itself)
      tl_note(w->diag, later->loc,
              "it is written here, later in the loop: its first iteration reads what "
              "the memory held");
      break;
    }
  }
  tl_note(w->diag, b->loc,
          "'%s' is declared here; write it before the loop (T.clear, "
          "T.fill or a copy) or read it only after",
          b->name);
}

static void read_expr(Walk *w, const TlExpr *e, const Loop *loop) {
  if (!e) return;
  if (e->kind == EX_LOAD) read(w, e->buf, e->loc, loop);
  for (int i = 0; i < e->nargs; i++)
    read_expr(w, e->args[i], loop);
}

static void walk_body(Walk *w, const TlVec *body, const Loop *loop);

static void walk(Walk *w, const TlStmt *s, const Loop *loop) {
  w->current = s;
  for (int i = 0; i < s->nindices; i++)
    read_expr(w, s->indices[i], loop);
  read_expr(w, s->value, loop);
  read_expr(w, s->cond, loop);
  read_expr(w, s->start, loop);
  read_expr(w, s->stop, loop);
  for (int d = 0; d < s->src.ndims; d++)
    read_expr(w, s->src.start[d], loop);
  for (int d = 0; d < s->dst.ndims; d++)
    read_expr(w, s->dst.start[d], loop);
  switch (s->kind) {
  case ST_COPY:
    read(w, s->src.buf, s->src.loc, loop);
    if (s->atomic) read(w, s->dst.buf, s->dst.loc, loop);
    break;
  case ST_REDUCE:
    read(w, s->src.buf, s->src.loc, loop);
    if (!s->reduce_clear) read(w, s->dst.buf, s->dst.loc, loop);
    break;
  case ST_GEMM:
    read(w, s->a, s->loc, loop);
    read(w, s->b, s->loc, loop);
    read(w, s->c, s->loc, loop);
    break;
  case ST_STORE:
    if (s->update_op != OP_EQ) read(w, s->buf, s->loc, loop);
    break;
  case ST_IF: {
    // Each branch sees what the other writes too: `if i == 0: acc[0] = x`
    // `else: acc[0] += x` in a loop reads only after the first branch ran
    // (a tile read in one branch and written only in the other is not
    // reported). A T.ws scope's siblings may have run first (walk_body
    // added their writes).
    Walk branch = *w; // 4 KB per nested `if` on the stack
    add_body_writes(&branch, &s->else_body);
    walk_body(&branch, &s->body, loop);
    memcpy(w->reported, branch.reported, sizeof w->reported);
    w->nreported = branch.nreported;
    branch = *w;
    add_body_writes(&branch, &s->body);
    walk_body(&branch, &s->else_body, loop);
    memcpy(w->reported, branch.reported, sizeof w->reported);
    w->nreported = branch.nreported;
    add_writes(w, s);
    return;
  }
  case ST_FOR:
  case ST_WHILE: {
    Loop inner = {s, loop};
    walk_body(w, &s->body, &inner);
    add_writes(w, s);
    return;
  }
  default:
    break;
  }
  if (s->body.len || s->else_body.len) { // T.Parallel nests, sequences
    walk_body(w, &s->body, loop);
    walk_body(w, &s->else_body, loop);
  }
  add_writes(w, s);
}

static void walk_body(Walk *w, const TlVec *body, const Loop *loop) {
  // T.ws scopes side by side run in any order: each may read what another
  // writes (ordered by the kernel's mbarriers).
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_IF && s->group_threads) add_writes(w, s);
  }
  for (int i = 0; i < body->len; i++)
    walk(w, TL_VEC_AT(*body, TlStmt, i), loop);
}

void tl_check_uninitialized(const TlKernel *k, TlDiag *d) {
  static Walk w; // large; one kernel at a time
  w = (Walk){.diag = d};
  walk_body(&w, &k->body, NULL);
}
