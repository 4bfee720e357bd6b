// Lowering, second half: statements, functions and the file's top level
// (Ast.c lowers expressions and variables). Every main-file function is
// declared first, so calls and launches can point at functions defined
// later in the file; its definition (or first declaration) is then lowered.
#include "AstInternal.h"

#include <stdlib.h>
#include <string.h>

/* ---- statements ---- */

static TvStmt *lower_stmt(CXCursor c);

static TvStmt *new_stmt(TvStmtKind kind, CXCursor c) {
  TvStmt *s = tv_alloc(sizeof *s);
  s->kind = kind;
  s->loc = tv_make_loc(clang_getRangeStart(clang_getCursorExtent(c)));
  return s;
}

static void set_kids(TvStmt *s, int n) {
  s->nkids = n;
  s->kids = tv_alloc(sizeof(TvStmt *) * (size_t)(n ? n : 1));
}

// for (init; cond; inc): libclang omits absent parts, so read which are
// present from the tokens of the header.
static TvStmt *lower_for(CXCursor c, const Kids *k) {
  TvStmt *s = new_stmt(ST_FOR, c);
  set_kids(s, 2);
  unsigned b, e;
  bool present[3] = {false, false, false};
  if (tv_extent(c, &b, &e)) {
    unsigned i = tv_tok_from(b) + 2; // past "for" "("
    int part = 0, depth = 0;
    for (; i < tv_ast.ntoks && tv_ast.toks[i].offset < e && part < 3; i++) {
      const char *t = tv_ast.toks[i].text;
      if (!strcmp(t, "(") || !strcmp(t, "[") || !strcmp(t, "{"))
        depth++;
      else if (depth == 0 && !strcmp(t, ")"))
        break;
      else if (!strcmp(t, ")") || !strcmp(t, "]") || !strcmp(t, "}"))
        depth--;
      if (depth == 0 && !strcmp(t, ";")) {
        part++;
        continue;
      }
      present[part] = true;
    }
  }
  int next = 0;
  if (present[0] && next < k->n) s->kids[0] = lower_stmt(k->c[next++]);
  if (present[1] && next < k->n) s->cond = tv_lower_expr(k->c[next++]);
  if (present[2] && next < k->n) s->inc = tv_lower_expr(k->c[next++]);
  if (next < k->n)
    s->kids[1] = lower_stmt(k->c[next]);
  else
    s->kids[1] = new_stmt(ST_BLOCK, c);
  return s;
}

// The asm string: the string literals before the first top-level ':'.
static const char *asm_text(CXCursor c) {
  unsigned b, e;
  if (!tv_extent(c, &b, &e)) return "";
  char *out = tv_strdup("");
  int depth = 0;
  for (unsigned i = tv_tok_from(b); i < tv_ast.ntoks && tv_ast.toks[i].offset < e; i++) {
    const char *t = tv_ast.toks[i].text;
    if (!strcmp(t, "("))
      depth++;
    else if (!strcmp(t, ")"))
      depth--;
    else if (depth == 1 && !strcmp(t, ":"))
      break;
    else if (tv_ast.toks[i].kind == CXToken_Literal && t[0] == '"')
      out = tv_printf("%s%.*s", out, (int)strlen(t) - 2, t + 1);
  }
  return out;
}

static TvStmt *lower_stmt(CXCursor c) {
  enum CXCursorKind kind = clang_getCursorKind(c);
  Kids k = tv_kids_of(c);
  if (clang_isExpression(kind)) {
    TvStmt *s = new_stmt(ST_EXPR, c);
    s->expr = tv_lower_expr(c);
    return s;
  }
  TvStmt *s;
  switch (kind) {
  case CXCursor_CompoundStmt:
    s = new_stmt(ST_BLOCK, c);
    set_kids(s, k.n);
    for (int i = 0; i < k.n; i++)
      s->kids[i] = lower_stmt(k.c[i]);
    return s;
  case CXCursor_NullStmt:
    return new_stmt(ST_BLOCK, c);
  case CXCursor_DeclStmt:
    s = new_stmt(ST_DECL, c);
    for (int i = 0; i < k.n; i++)
      if (clang_getCursorKind(k.c[i]) == CXCursor_VarDecl)
        tv_push(&s->vars, tv_lower_var(k.c[i], VAR_LOCAL));
    return s;
  case CXCursor_IfStmt:
    if ((k.n == 2 || k.n == 3) && clang_isExpression(clang_getCursorKind(k.c[0]))) {
      s = new_stmt(ST_IF, c);
      set_kids(s, 2);
      s->cond = tv_lower_expr(k.c[0]);
      s->kids[0] = lower_stmt(k.c[1]);
      s->kids[1] = k.n == 3 ? lower_stmt(k.c[2]) : NULL;
      return s;
    }
    break;
  case CXCursor_ForStmt:
    return lower_for(c, &k);
  case CXCursor_WhileStmt:
  case CXCursor_SwitchStmt:
    if (k.n == 2 && clang_isExpression(clang_getCursorKind(k.c[0]))) {
      s = new_stmt(kind == CXCursor_WhileStmt ? ST_WHILE : ST_SWITCH, c);
      set_kids(s, 1);
      s->cond = tv_lower_expr(k.c[0]);
      s->kids[0] = lower_stmt(k.c[1]);
      return s;
    }
    break;
  case CXCursor_DoStmt:
    if (k.n == 2) {
      s = new_stmt(ST_DO, c);
      set_kids(s, 1);
      s->kids[0] = lower_stmt(k.c[0]);
      s->cond = tv_lower_expr(k.c[1]);
      return s;
    }
    break;
  case CXCursor_ReturnStmt:
    s = new_stmt(ST_RETURN, c);
    if (k.n == 1) s->expr = tv_lower_expr(k.c[0]);
    return s;
  case CXCursor_BreakStmt:
    return new_stmt(ST_BREAK, c);
  case CXCursor_ContinueStmt:
    return new_stmt(ST_CONTINUE, c);
  case CXCursor_GCCAsmStmt:
    s = new_stmt(ST_ASM, c);
    s->text = asm_text(c);
    for (int i = 0; i < k.n; i++)
      if (clang_isExpression(clang_getCursorKind(k.c[i])))
        tv_push(&s->exprs, tv_lower_expr(k.c[i]));
    return s;
  case CXCursor_UnexposedStmt: // [[attributes]], #pragma unroll
    if (k.n == 1 && clang_isStatement(clang_getCursorKind(k.c[0]))) return lower_stmt(k.c[0]);
    break;
  default:
    break;
  }
  // Anything else keeps its children so that walks still see them.
  s = new_stmt(ST_OTHER, c);
  int n = 0;
  for (int i = 0; i < k.n; i++)
    if (!clang_isExpression(clang_getCursorKind(k.c[i])) &&
        clang_isStatement(clang_getCursorKind(k.c[i])))
      n++;
  set_kids(s, n);
  n = 0;
  for (int i = 0; i < k.n; i++) {
    enum CXCursorKind ck = clang_getCursorKind(k.c[i]);
    if (clang_isExpression(ck))
      tv_push(&s->exprs, tv_lower_expr(k.c[i]));
    else if (clang_isStatement(ck))
      s->kids[n++] = lower_stmt(k.c[i]);
    else if (ck == CXCursor_VarDecl)
      tv_push(&s->vars, tv_lower_var(k.c[i], VAR_LOCAL));
  }
  return s;
}

/* ---- functions and the file ---- */

TvFunc *tv_find_func(TvProgram *p, const char *name) {
  for (int i = 0; i < p->funcs.len; i++)
    if (!strcmp(TV_AT(p->funcs, TvFunc, i)->name, name)) return TV_AT(p->funcs, TvFunc, i);
  return NULL;
}

// __launch_bounds__(N, ...) or launch_bounds(N, ...) among the tokens
// before the function's name.
static long long launch_bounds(CXCursor c) {
  unsigned b, e, l, col, name_off;
  if (!tv_extent(c, &b, &e) || !tv_in_main(clang_getCursorLocation(c), &l, &col, &name_off))
    return -1;
  for (unsigned i = tv_tok_from(b); i + 2 < tv_ast.ntoks && tv_ast.toks[i].offset < name_off; i++)
    if ((!strcmp(tv_ast.toks[i].text, "__launch_bounds__") ||
         !strcmp(tv_ast.toks[i].text, "launch_bounds")) &&
        !strcmp(tv_ast.toks[i + 1].text, "(") && tv_ast.toks[i + 2].kind == CXToken_Literal)
      return strtoll(tv_ast.toks[i + 2].text, NULL, 0);
  return -1;
}

static const char *usr_of(CXCursor c) {
  CXString s = clang_getCursorUSR(c);
  const char *r = tv_strdup(clang_getCString(s));
  clang_disposeString(s);
  return r;
}

static TvFunc *find_usr(const char *usr) {
  for (int i = 0; i < tv_ast.p->funcs.len; i++)
    if (!strcmp(TV_AT(tv_ast.p->funcs, TvFunc, i)->usr, usr))
      return TV_AT(tv_ast.p->funcs, TvFunc, i);
  return NULL;
}

TvFunc *tv_func_ref(CXCursor decl) {
  return find_usr(usr_of(decl)); // NULL for prelude functions: they have no body to analyse
}

static void lower_func(CXCursor c, bool extern_c) {
  unsigned l, col, off;
  if (!tv_in_main(clang_getCursorLocation(c), &l, &col, &off)) return;
  TvFunc *f = find_usr(usr_of(c));
  Kids k = tv_kids_of(c);
  bool has_body = false;
  for (int i = 0; i < k.n; i++)
    has_body |= clang_getCursorKind(k.c[i]) == CXCursor_CompoundStmt;
  if (!f || f->body || (f->return_type && !has_body))
    return; // a redeclaration: the definition (or else the first declaration) wins
  f->cursor = c;
  f->loc = tv_make_loc(clang_getCursorLocation(c));
  f->is_extern_c = extern_c;
  f->is_internal = clang_getCursorLinkage(c) == CXLinkage_Internal;
  f->is_template = clang_getCursorKind(c) == CXCursor_FunctionTemplate;
  f->return_type = tv_type_spelling(clang_getCursorResultType(c));
  f->launch_bounds = launch_bounds(c);
  f->params = (TvVec){0};
  f->is_global = f->is_device = f->is_host = false;
  for (int i = 0; i < k.n; i++) {
    switch (clang_getCursorKind(k.c[i])) {
    case CXCursor_CUDAGlobalAttr:
      f->is_global = true;
      break;
    case CXCursor_CUDADeviceAttr:
      f->is_device = true;
      break;
    case CXCursor_CUDAHostAttr:
      f->is_host = true;
      break;
    case CXCursor_ParmDecl:
      tv_push(&f->params, tv_lower_var(k.c[i], VAR_PARAM));
      break;
    default:
      break;
    }
  }
  if (!f->is_global && !f->is_device) f->is_host = true;
  // Lower the body last: it may refer to the function itself.
  for (int i = 0; i < k.n; i++)
    if (clang_getCursorKind(k.c[i]) == CXCursor_CompoundStmt) f->body = lower_stmt(k.c[i]);
}

static bool is_extern_c_block(CXCursor c) {
  unsigned b, e;
  if (!tv_extent(c, &b, &e)) return false;
  unsigned i = tv_tok_from(b);
  return i + 1 < tv_ast.ntoks && !strcmp(tv_ast.toks[i].text, "extern") &&
         !strcmp(tv_ast.toks[i + 1].text, "\"C\"");
}

static enum CXChildVisitResult top_level(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  bool extern_c = *(bool *)data;
  switch (clang_getCursorKind(c)) {
  case CXCursor_FunctionDecl:
  case CXCursor_FunctionTemplate:
    lower_func(c, extern_c);
    break;
  case CXCursor_VarDecl: {
    unsigned l, col, off;
    if (tv_in_main(clang_getCursorLocation(c), &l, &col, &off))
      tv_push(&tv_ast.p->globals, tv_lower_var(c, VAR_GLOBAL));
    break;
  }
  case CXCursor_LinkageSpec:
  case CXCursor_UnexposedDecl:
  case CXCursor_Namespace: {
    bool inner = extern_c || is_extern_c_block(c);
    clang_visitChildren(c, top_level, &inner);
    break;
  }
  default:
    break;
  }
  return CXChildVisit_Continue;
}

// Declares every main-file function first so that calls and launches can
// point at functions defined later in the file.
static enum CXChildVisitResult declare(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  (void)data;
  enum CXCursorKind kind = clang_getCursorKind(c);
  unsigned l, col, off;
  if ((kind == CXCursor_FunctionDecl || kind == CXCursor_FunctionTemplate) &&
      tv_in_main(clang_getCursorLocation(c), &l, &col, &off) && !find_usr(usr_of(c))) {
    TvFunc *f = tv_alloc(sizeof *f);
    f->name = tv_spelling(c);
    f->usr = usr_of(c);
    f->cursor = c;
    f->loc = tv_make_loc(clang_getCursorLocation(c));
    f->launch_bounds = -1;
    tv_push(&tv_ast.p->funcs, f);
  } else if (kind == CXCursor_LinkageSpec || kind == CXCursor_UnexposedDecl ||
             kind == CXCursor_Namespace) {
    clang_visitChildren(c, declare, NULL);
  }
  return CXChildVisit_Continue;
}

void tv_lower(TvProgram *p) {
  memset(&tv_ast, 0, sizeof tv_ast);
  tv_ast.p = p;
  tv_ast.main_file = clang_getFile(p->tu, p->path);
  if (!tv_ast.main_file) return;
  tv_tokenize_main();
  CXCursor root = clang_getTranslationUnitCursor(p->tu);
  clang_visitChildren(root, declare, NULL);
  bool extern_c = false;
  clang_visitChildren(root, top_level, &extern_c);
}
