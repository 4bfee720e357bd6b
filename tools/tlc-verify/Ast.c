// Lowering: libclang cursors -> the TvFunc/TvStmt/TvExpr tree of Verify.h.
// Only functions written in the main file are lowered; the prelude is just
// declarations. libclang 14 does not expose operator kinds, so they are read
// from the token stream of the main file, tokenized once up front.
#include "Verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Tok {
  unsigned offset, end;
  CXTokenKind kind;
  const char *text;
} Tok;

typedef struct VarSlot {
  CXCursor cursor;
  TvVar *var;
  struct VarSlot *next;
} VarSlot;

#define NBUCKETS 1024
static struct {
  TvProgram *p;
  CXFile main_file;
  Tok *toks;
  unsigned ntoks;
  VarSlot *buckets[NBUCKETS];
} L;

/* ---- locations and tokens ---- */

static bool in_main(CXSourceLocation loc, unsigned *line, unsigned *col, unsigned *offset) {
  CXFile f;
  clang_getExpansionLocation(loc, &f, line, col, offset);
  return f && clang_File_isEqual(f, L.main_file);
}

static TvLoc make_loc(CXSourceLocation sl) {
  TvLoc loc = {0};
  CXFile f;
  clang_getExpansionLocation(sl, &f, &loc.line, &loc.col, NULL);
  if (!f)
    return loc;
  if (clang_File_isEqual(f, L.main_file)) {
    loc.file = L.p->path;
  } else {
    CXString s = clang_getFileName(f);
    loc.file = tv_strdup(clang_getCString(s));
    clang_disposeString(s);
  }
  return loc;
}

// The cursor's extent as main-file offsets; false when it is elsewhere.
static bool extent(CXCursor c, unsigned *begin, unsigned *end) {
  CXSourceRange r = clang_getCursorExtent(c);
  unsigned l, col;
  return in_main(clang_getRangeStart(r), &l, &col, begin) && in_main(clang_getRangeEnd(r), &l, &col, end) &&
         *begin <= *end;
}

// Index of the first token at or after `offset`.
static unsigned tok_from(unsigned offset) {
  unsigned lo = 0, hi = L.ntoks;
  while (lo < hi) {
    unsigned mid = (lo + hi) / 2;
    if (L.toks[mid].offset < offset)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static void tokenize_main(void) {
  CXSourceRange all = clang_getRange(clang_getLocationForOffset(L.p->tu, L.main_file, 0),
                                     clang_getLocationForOffset(L.p->tu, L.main_file, (unsigned)L.p->text_len));
  CXToken *toks;
  unsigned n;
  clang_tokenize(L.p->tu, all, &toks, &n);
  L.toks = tv_alloc(sizeof(Tok) * (n + 1));
  for (unsigned i = 0; i < n; i++) {
    CXString s = clang_getTokenSpelling(L.p->tu, toks[i]);
    L.toks[i].text = tv_strdup(clang_getCString(s));
    clang_disposeString(s);
    unsigned line, col;
    CXFile f;
    clang_getSpellingLocation(clang_getTokenLocation(L.p->tu, toks[i]), &f, &line, &col, &L.toks[i].offset);
    L.toks[i].end = L.toks[i].offset + (unsigned)strlen(L.toks[i].text);
    L.toks[i].kind = clang_getTokenKind(toks[i]);
  }
  L.ntoks = n;
  clang_disposeTokens(L.p->tu, toks, n);
}

/* ---- children ---- */

typedef struct Kids {
  CXCursor *c;
  int n, cap;
} Kids;

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  Kids *k = data;
  if (k->n == k->cap) {
    int cap = k->cap ? k->cap * 2 : 8;
    CXCursor *nc = tv_alloc(sizeof(CXCursor) * (size_t)cap);
    if (k->n)
      memcpy(nc, k->c, sizeof(CXCursor) * (size_t)k->n);
    k->c = nc;
    k->cap = cap;
  }
  k->c[k->n++] = c;
  return CXChildVisit_Continue;
}

static Kids kids_of(CXCursor c) {
  Kids k = {0};
  clang_visitChildren(c, collect, &k);
  return k;
}

static const char *spelling(CXCursor c) {
  CXString s = clang_getCursorSpelling(c);
  const char *r = tv_strdup(clang_getCString(s));
  clang_disposeString(s);
  return r;
}

static const char *type_spelling(CXType t) {
  CXString s = clang_getTypeSpelling(t);
  const char *r = tv_strdup(clang_getCString(s));
  clang_disposeString(s);
  return r;
}

static bool is_integer_type(CXType t) {
  t = clang_getCanonicalType(t);
  return (t.kind >= CXType_Bool && t.kind <= CXType_Int128 && t.kind != CXType_Float) || t.kind == CXType_Enum;
}

/* ---- variables ---- */

static TvVar *find_var(CXCursor c) {
  for (VarSlot *s = L.buckets[clang_hashCursor(c) % NBUCKETS]; s; s = s->next)
    if (clang_equalCursors(s->cursor, c))
      return s->var;
  return NULL;
}

static TvExpr *lower_expr(CXCursor c);

// The initializer of a VarDecl: the expression after its top-level '=',
// which is not simply its last child (array bounds are children too).
static TvExpr *var_init(CXCursor c, const Kids *k) {
  unsigned b, e, l, col, name_off;
  if (!extent(c, &b, &e) || !in_main(clang_getCursorLocation(c), &l, &col, &name_off))
    return NULL;
  int depth = 0;
  for (unsigned i = tok_from(name_off); i < L.ntoks && L.toks[i].offset < e; i++) {
    const char *t = L.toks[i].text;
    if (!strcmp(t, "[") || !strcmp(t, "("))
      depth++;
    else if (!strcmp(t, "]") || !strcmp(t, ")"))
      depth--;
    else if (depth == 0 && !strcmp(t, "=")) {
      for (int j = 0; j < k->n; j++) {
        unsigned kb, ke;
        if (clang_isExpression(clang_getCursorKind(k->c[j])) && extent(k->c[j], &kb, &ke) && kb > L.toks[i].offset)
          return lower_expr(k->c[j]);
      }
      return NULL;
    }
  }
  return NULL;
}

static TvVar *lower_var(CXCursor c, TvVarKind kind) {
  TvVar *v = find_var(c);
  if (v)
    return v;
  v = tv_alloc(sizeof *v);
  VarSlot *slot = tv_alloc(sizeof *slot);
  slot->cursor = c;
  slot->var = v;
  unsigned h = clang_hashCursor(c) % NBUCKETS;
  slot->next = L.buckets[h];
  L.buckets[h] = slot;

  v->name = spelling(c);
  v->kind = kind;
  v->cursor = c;
  v->loc = make_loc(clang_getCursorLocation(c));
  CXType t = clang_getCursorType(c);
  v->type = type_spelling(t);
  v->ctype = type_spelling(clang_getCanonicalType(t));
  v->size = clang_Type_getSizeOf(t);
  if (v->size < 0)
    v->size = -1;
  v->is_integer = is_integer_type(t);
  v->elem_size = -1;
  CXType ct = clang_getCanonicalType(t);
  if (ct.kind == CXType_Pointer) {
    v->is_pointer = true;
    v->elem_size = clang_Type_getSizeOf(clang_getPointeeType(ct));
  } else if (ct.kind == CXType_ConstantArray || ct.kind == CXType_IncompleteArray) {
    v->is_array = true;
    while (ct.kind == CXType_ConstantArray && v->rank < 4) {
      v->dims[v->rank++] = clang_getArraySize(ct);
      ct = clang_getCanonicalType(clang_getArrayElementType(ct));
    }
    if (ct.kind == CXType_IncompleteArray)
      ct = clang_getCanonicalType(clang_getArrayElementType(ct));
    v->elem_size = clang_Type_getSizeOf(ct);
  }
  if (v->elem_size < 0)
    v->elem_size = -1;
  Kids k = kids_of(c);
  for (int i = 0; i < k.n; i++)
    if (clang_getCursorKind(k.c[i]) == CXCursor_CUDASharedAttr)
      v->is_shared = true;
  if (v->is_shared && clang_Cursor_getStorageClass(c) == CX_SC_Extern &&
      clang_getCanonicalType(t).kind == CXType_IncompleteArray)
    v->is_dynamic_smem = true;
  if (kind != VAR_PARAM)
    v->init = var_init(c, &k);
  return v;
}

// A variable referenced but not lowered yet: the prelude's threadIdx, or a
// file-scope variable used before the walk reached it.
static TvVar *var_ref(CXCursor decl) {
  TvVar *v = find_var(decl);
  if (v)
    return v;
  CXCursor parent = clang_getCursorSemanticParent(decl);
  enum CXCursorKind pk = clang_getCursorKind(parent);
  bool local = pk == CXCursor_FunctionDecl || pk == CXCursor_FunctionTemplate || pk == CXCursor_CXXMethod;
  return lower_var(decl, clang_getCursorKind(decl) == CXCursor_ParmDecl ? VAR_PARAM : local ? VAR_LOCAL : VAR_GLOBAL);
}

/* ---- expressions ---- */

static TvExpr *new_expr(TvExprKind kind, CXCursor c) {
  TvExpr *e = tv_alloc(sizeof *e);
  e->kind = kind;
  e->loc = make_loc(clang_getRangeStart(clang_getCursorExtent(c)));
  if (!extent(c, &e->begin, &e->end))
    e->begin = e->end = 0;
  return e;
}

static void add_kid(TvExpr *e, TvExpr *k) {
  TvExpr **kids = tv_alloc(sizeof(TvExpr *) * (size_t)(e->nkids + 1));
  if (e->nkids)
    memcpy(kids, e->kids, sizeof(TvExpr *) * (size_t)e->nkids);
  kids[e->nkids++] = k;
  e->kids = kids;
}

static bool eval_int(CXCursor c, long long *out) {
  CXEvalResult r = clang_Cursor_Evaluate(c);
  if (!r)
    return false;
  bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
  if (ok)
    *out = clang_EvalResult_getAsLongLong(r);
  clang_EvalResult_dispose(r);
  return ok;
}

// The position of a template parameter in its template's parameter list.
static long long template_param_index(CXCursor param) {
  Kids k = kids_of(clang_getCursorSemanticParent(param));
  long long n = 0;
  for (int i = 0; i < k.n; i++) {
    enum CXCursorKind kind = clang_getCursorKind(k.c[i]);
    if (kind != CXCursor_TemplateTypeParameter && kind != CXCursor_NonTypeTemplateParameter &&
        kind != CXCursor_TemplateTemplateParameter)
      continue;
    if (clang_equalCursors(k.c[i], param))
      return n;
    n++;
  }
  return -1;
}

static TvExpr *lower_kids_as_other(CXCursor c, const Kids *k) {
  TvExpr *e = new_expr(EX_OTHER, c);
  for (int i = 0; i < k->n; i++)
    if (clang_isExpression(clang_getCursorKind(k->c[i])))
      add_kid(e, lower_expr(k->c[i]));
  return e;
}

static int expr_kids(const Kids *k, CXCursor *out, int max) {
  int n = 0;
  for (int i = 0; i < k->n && n < max; i++)
    if (clang_isExpression(clang_getCursorKind(k->c[i])))
      out[n++] = k->c[i];
  return n;
}

// The operator of a binary expression: the first token after its left side.
static void binary_op(CXCursor lhs, char op[4]) {
  unsigned b, e;
  strcpy(op, "?");
  if (!extent(lhs, &b, &e))
    return;
  unsigned i = tok_from(e);
  if (i < L.ntoks && L.toks[i].kind == CXToken_Punctuation && strlen(L.toks[i].text) < 4)
    strcpy(op, L.toks[i].text);
}

static TvExpr *lower_unary(CXCursor c, CXCursor operand) {
  TvExpr *e = new_expr(EX_UNARY, c);
  strcpy(e->op, "?");
  unsigned i = tok_from(e->begin);
  if (e->end > e->begin && i < L.ntoks && L.toks[i].offset == e->begin) {
    const Tok *t = &L.toks[i];
    if (t->kind == CXToken_Punctuation && strlen(t->text) < 4) {
      strcpy(e->op, t->text);
    } else {
      unsigned ob, oe;
      if (extent(operand, &ob, &oe)) {
        unsigned j = tok_from(oe);
        if (j < L.ntoks && (!strcmp(L.toks[j].text, "++") || !strcmp(L.toks[j].text, "--")))
          snprintf(e->op, sizeof e->op, "p%s", L.toks[j].text);
      }
    }
  }
  if (!strcmp(e->op, "?"))
    e->kind = EX_OTHER;
  add_kid(e, lower_expr(operand));
  return e;
}

static TvFunc *func_ref(CXCursor decl);

static bool is_config_call(CXCursor c) {
  if (clang_getCursorKind(c) != CXCursor_CallExpr)
    return false;
  const char *n = spelling(c);
  return !strcmp(n, "cudaConfigureCall") || !strcmp(n, "__cudaPushCallConfiguration");
}

static TvExpr *lower_call(CXCursor c, const Kids *k) {
  const char *name = spelling(c);
  int nargs = clang_Cursor_getNumArguments(c);
  // Overloaded operators are calls in the AST; analyses want operators.
  if (!strncmp(name, "operator", 8) && nargs >= 1 && nargs <= 2 && strlen(name + 8) < 3 &&
      strchr("=+-*/%<>!&|^~[", name[8])) {
    TvExpr *e = new_expr(nargs == 2 ? EX_BINARY : EX_UNARY, c);
    if (!strcmp(name + 8, "[]"))
      e->kind = EX_SUBSCRIPT;
    else if (nargs == 2 && (!strcmp(name + 8, "++") || !strcmp(name + 8, "--"))) {
      e->kind = EX_UNARY;
      snprintf(e->op, sizeof e->op, "p%s", name + 8);
      add_kid(e, lower_expr(clang_Cursor_getArgument(c, 0)));
      return e;
    } else {
      strcpy(e->op, name + 8);
    }
    for (int i = 0; i < nargs; i++)
      add_kid(e, lower_expr(clang_Cursor_getArgument(c, (unsigned)i)));
    return e;
  }
  for (int i = 0; i < k->n; i++) {
    if (!is_config_call(k->c[i]))
      continue;
    // kernel<<<config>>>(args): the config is a call to the launch-configuration function.
    TvExpr *e = new_expr(EX_LAUNCH, c);
    CXCursor callee = clang_getCursorReferenced(c);
    e->func = func_ref(callee);
    e->name = spelling(callee);
    int nc = clang_Cursor_getNumArguments(k->c[i]);
    for (int j = 0; j < nc; j++)
      add_kid(e, lower_expr(clang_Cursor_getArgument(k->c[i], (unsigned)j)));
    e->nconfig = e->nkids;
    for (int j = 0; j < nargs; j++)
      add_kid(e, lower_expr(clang_Cursor_getArgument(c, (unsigned)j)));
    return e;
  }
  CXCursor callee = clang_getCursorReferenced(c);
  enum CXCursorKind ck = clang_getCursorKind(callee);
  if (ck == CXCursor_Constructor && nargs == 1 &&
      (clang_CXXConstructor_isCopyConstructor(callee) || clang_CXXConstructor_isMoveConstructor(callee)))
    return lower_expr(clang_Cursor_getArgument(c, 0)); // a copy is its source here
  TvExpr *e = new_expr(EX_CALL, c);
  e->name = name;
  int nt = ck == CXCursor_FunctionDecl ? clang_Cursor_getNumTemplateArguments(callee) : -1;
  if (nt > 0) {
    // tl_swz<32, 8, 4>(...): analyses read the template's body with these values.
    e->func = func_ref(clang_getSpecializedCursorTemplate(callee));
    e->ntargs = nt;
    e->targs = tv_alloc(sizeof(long long) * (size_t)nt);
    for (int i = 0; i < nt; i++)
      e->targs[i] = clang_Cursor_getTemplateArgumentKind(callee, (unsigned)i) == CXTemplateArgumentKind_Integral
                        ? clang_Cursor_getTemplateArgumentValue(callee, (unsigned)i)
                        : TV_NEG_INF;
  } else if (ck == CXCursor_FunctionDecl || ck == CXCursor_FunctionTemplate) {
    e->func = func_ref(callee);
  }
  if (nargs >= 0) {
    for (int i = 0; i < nargs; i++)
      add_kid(e, lower_expr(clang_Cursor_getArgument(c, (unsigned)i)));
  } else {
    // Constructor calls (dim3(1, 2, 3)): the arguments are the expression children.
    for (int i = 0; i < k->n; i++)
      if (clang_isExpression(clang_getCursorKind(k->c[i])))
        add_kid(e, lower_expr(k->c[i]));
  }
  return e;
}

static TvExpr *lower_member(CXCursor c, const Kids *k) {
  static const char *const builtins[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
  const char *member = spelling(c);
  CXCursor base[1];
  int nb = expr_kids(k, base, 1);
  if (nb == 1 && clang_getCursorKind(base[0]) == CXCursor_DeclRefExpr && strlen(member) == 1 &&
      member[0] >= 'x' && member[0] <= 'z') {
    const char *bn = spelling(base[0]);
    CXCursor decl = clang_getCursorReferenced(base[0]);
    for (int i = 0; i < 4; i++)
      if (!strcmp(bn, builtins[i]) && clang_getCursorKind(clang_getCursorSemanticParent(decl)) ==
                                          CXCursor_TranslationUnit) {
        TvExpr *e = new_expr(EX_BUILTIN, c);
        e->builtin = (TvBuiltin)i;
        e->dim = member[0] - 'x';
        e->name = tv_printf("%s.%s", bn, member);
        return e;
      }
  }
  TvExpr *e = new_expr(EX_MEMBER, c);
  e->name = member;
  if (nb == 1)
    add_kid(e, lower_expr(base[0]));
  return e;
}

static TvExpr *lower_expr(CXCursor c) {
  enum CXCursorKind kind = clang_getCursorKind(c);
  Kids k = kids_of(c);
  CXCursor ek[3];
  int ne = expr_kids(&k, ek, 3);
  long long v;
  switch (kind) {
  case CXCursor_UnexposedExpr:
  case CXCursor_ParenExpr:
    // Implicit conversions, temporaries, parentheses: transparent here.
    if (ne == 1 && k.n == 1)
      return lower_expr(ek[0]);
    return lower_kids_as_other(c, &k);
  case CXCursor_IntegerLiteral:
  case CXCursor_CharacterLiteral:
  case CXCursor_CXXBoolLiteralExpr:
  case CXCursor_UnaryExpr: // sizeof, alignof
    if (eval_int(c, &v)) {
      TvExpr *e = new_expr(EX_INT, c);
      e->value = v;
      return e;
    }
    return lower_kids_as_other(c, &k);
  case CXCursor_DeclRefExpr: {
    CXCursor d = clang_getCursorReferenced(c);
    enum CXCursorKind dk = clang_getCursorKind(d);
    TvExpr *e;
    if (dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) {
      e = new_expr(EX_VAR, c);
      e->var = var_ref(d);
      e->name = e->var->name;
    } else if (dk == CXCursor_EnumConstantDecl) {
      e = new_expr(EX_INT, c);
      e->value = clang_getEnumConstantDeclValue(d);
    } else if (dk == CXCursor_NonTypeTemplateParameter) {
      e = new_expr(EX_TPARAM, c);
      e->name = spelling(d);
      e->value = template_param_index(d);
    } else if (dk == CXCursor_FunctionDecl || dk == CXCursor_FunctionTemplate) {
      e = new_expr(EX_FUNCREF, c);
      e->func = func_ref(d);
      e->name = spelling(d);
    } else {
      e = new_expr(EX_OTHER, c);
      e->name = spelling(c);
    }
    return e;
  }
  case CXCursor_MemberRefExpr:
    return lower_member(c, &k);
  case CXCursor_BinaryOperator:
  case CXCursor_CompoundAssignOperator:
    if (ne == 2) {
      TvExpr *e = new_expr(EX_BINARY, c);
      binary_op(ek[0], e->op);
      add_kid(e, lower_expr(ek[0]));
      add_kid(e, lower_expr(ek[1]));
      if (!strcmp(e->op, "?"))
        e->kind = EX_OTHER;
      return e;
    }
    return lower_kids_as_other(c, &k);
  case CXCursor_UnaryOperator:
    if (ne == 1)
      return lower_unary(c, ek[0]);
    return lower_kids_as_other(c, &k);
  case CXCursor_ConditionalOperator:
    if (ne == 3) {
      TvExpr *e = new_expr(EX_COND, c);
      for (int i = 0; i < 3; i++)
        add_kid(e, lower_expr(ek[i]));
      return e;
    }
    return lower_kids_as_other(c, &k);
  case CXCursor_ArraySubscriptExpr:
    if (ne == 2) {
      TvExpr *e = new_expr(EX_SUBSCRIPT, c);
      add_kid(e, lower_expr(ek[0]));
      add_kid(e, lower_expr(ek[1]));
      return e;
    }
    return lower_kids_as_other(c, &k);
  case CXCursor_CStyleCastExpr:
  case CXCursor_CXXStaticCastExpr:
  case CXCursor_CXXReinterpretCastExpr:
  case CXCursor_CXXConstCastExpr:
  case CXCursor_CXXFunctionalCastExpr:
    if (ne >= 1) {
      TvExpr *e = new_expr(EX_CAST, c);
      CXType t = clang_getCanonicalType(clang_getCursorType(c));
      e->cast_type = type_spelling(clang_getCursorType(c));
      e->cast_to_integer = is_integer_type(t);
      e->cast_to_pointer = t.kind == CXType_Pointer;
      e->cast_pointee_size = e->cast_to_pointer ? clang_Type_getSizeOf(clang_getPointeeType(t)) : -1;
      add_kid(e, lower_expr(ek[ne - 1]));
      return e;
    }
    return lower_kids_as_other(c, &k);
  case CXCursor_CallExpr:
    return lower_call(c, &k);
  default:
    return lower_kids_as_other(c, &k);
  }
}

/* ---- statements ---- */

static TvStmt *lower_stmt(CXCursor c);

static TvStmt *new_stmt(TvStmtKind kind, CXCursor c) {
  TvStmt *s = tv_alloc(sizeof *s);
  s->kind = kind;
  s->loc = make_loc(clang_getRangeStart(clang_getCursorExtent(c)));
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
  if (extent(c, &b, &e)) {
    unsigned i = tok_from(b) + 2; // past "for" "("
    int part = 0, depth = 0;
    for (; i < L.ntoks && L.toks[i].offset < e && part < 3; i++) {
      const char *t = L.toks[i].text;
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
  if (present[0] && next < k->n)
    s->kids[0] = lower_stmt(k->c[next++]);
  if (present[1] && next < k->n)
    s->cond = lower_expr(k->c[next++]);
  if (present[2] && next < k->n)
    s->inc = lower_expr(k->c[next++]);
  if (next < k->n)
    s->kids[1] = lower_stmt(k->c[next]);
  else
    s->kids[1] = new_stmt(ST_BLOCK, c);
  return s;
}

// The asm string: the string literals before the first top-level ':'.
static const char *asm_text(CXCursor c) {
  unsigned b, e;
  if (!extent(c, &b, &e))
    return "";
  char *out = tv_strdup("");
  int depth = 0;
  for (unsigned i = tok_from(b); i < L.ntoks && L.toks[i].offset < e; i++) {
    const char *t = L.toks[i].text;
    if (!strcmp(t, "("))
      depth++;
    else if (!strcmp(t, ")"))
      depth--;
    else if (depth == 1 && !strcmp(t, ":"))
      break;
    else if (L.toks[i].kind == CXToken_Literal && t[0] == '"')
      out = tv_printf("%s%.*s", out, (int)strlen(t) - 2, t + 1);
  }
  return out;
}

static TvStmt *lower_stmt(CXCursor c) {
  enum CXCursorKind kind = clang_getCursorKind(c);
  Kids k = kids_of(c);
  if (clang_isExpression(kind)) {
    TvStmt *s = new_stmt(ST_EXPR, c);
    s->expr = lower_expr(c);
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
        tv_push(&s->vars, lower_var(k.c[i], VAR_LOCAL));
    return s;
  case CXCursor_IfStmt:
    if ((k.n == 2 || k.n == 3) && clang_isExpression(clang_getCursorKind(k.c[0]))) {
      s = new_stmt(ST_IF, c);
      set_kids(s, 2);
      s->cond = lower_expr(k.c[0]);
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
      s->cond = lower_expr(k.c[0]);
      s->kids[0] = lower_stmt(k.c[1]);
      return s;
    }
    break;
  case CXCursor_DoStmt:
    if (k.n == 2) {
      s = new_stmt(ST_DO, c);
      set_kids(s, 1);
      s->kids[0] = lower_stmt(k.c[0]);
      s->cond = lower_expr(k.c[1]);
      return s;
    }
    break;
  case CXCursor_ReturnStmt:
    s = new_stmt(ST_RETURN, c);
    if (k.n == 1)
      s->expr = lower_expr(k.c[0]);
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
        tv_push(&s->exprs, lower_expr(k.c[i]));
    return s;
  case CXCursor_UnexposedStmt: // [[attributes]], #pragma unroll
    if (k.n == 1 && clang_isStatement(clang_getCursorKind(k.c[0])))
      return lower_stmt(k.c[0]);
    break;
  default:
    break;
  }
  // Anything else keeps its children so that walks still see them.
  s = new_stmt(ST_OTHER, c);
  int n = 0;
  for (int i = 0; i < k.n; i++)
    if (!clang_isExpression(clang_getCursorKind(k.c[i])) && clang_isStatement(clang_getCursorKind(k.c[i])))
      n++;
  set_kids(s, n);
  n = 0;
  for (int i = 0; i < k.n; i++) {
    enum CXCursorKind ck = clang_getCursorKind(k.c[i]);
    if (clang_isExpression(ck))
      tv_push(&s->exprs, lower_expr(k.c[i]));
    else if (clang_isStatement(ck))
      s->kids[n++] = lower_stmt(k.c[i]);
    else if (ck == CXCursor_VarDecl)
      tv_push(&s->vars, lower_var(k.c[i], VAR_LOCAL));
  }
  return s;
}

/* ---- functions and the file ---- */

TvFunc *tv_find_func(TvProgram *p, const char *name) {
  for (int i = 0; i < p->funcs.len; i++)
    if (!strcmp(TV_AT(p->funcs, TvFunc, i)->name, name))
      return TV_AT(p->funcs, TvFunc, i);
  return NULL;
}

// __launch_bounds__(N, ...) or launch_bounds(N, ...) among the tokens
// before the function's name.
static long long launch_bounds(CXCursor c) {
  unsigned b, e, l, col, name_off;
  if (!extent(c, &b, &e) || !in_main(clang_getCursorLocation(c), &l, &col, &name_off))
    return -1;
  for (unsigned i = tok_from(b); i + 2 < L.ntoks && L.toks[i].offset < name_off; i++)
    if ((!strcmp(L.toks[i].text, "__launch_bounds__") || !strcmp(L.toks[i].text, "launch_bounds")) &&
        !strcmp(L.toks[i + 1].text, "(") && L.toks[i + 2].kind == CXToken_Literal)
      return strtoll(L.toks[i + 2].text, NULL, 0);
  return -1;
}

static const char *usr_of(CXCursor c) {
  CXString s = clang_getCursorUSR(c);
  const char *r = tv_strdup(clang_getCString(s));
  clang_disposeString(s);
  return r;
}

static TvFunc *find_usr(const char *usr) {
  for (int i = 0; i < L.p->funcs.len; i++)
    if (!strcmp(TV_AT(L.p->funcs, TvFunc, i)->usr, usr))
      return TV_AT(L.p->funcs, TvFunc, i);
  return NULL;
}

static TvFunc *func_ref(CXCursor decl) {
  return find_usr(usr_of(decl)); // NULL for prelude functions: they have no body to analyse
}

static void lower_func(CXCursor c, bool extern_c) {
  unsigned l, col, off;
  if (!in_main(clang_getCursorLocation(c), &l, &col, &off))
    return;
  TvFunc *f = find_usr(usr_of(c));
  Kids k = kids_of(c);
  bool has_body = false;
  for (int i = 0; i < k.n; i++)
    has_body |= clang_getCursorKind(k.c[i]) == CXCursor_CompoundStmt;
  if (!f || f->body || (f->return_type && !has_body))
    return; // a redeclaration: the definition (or else the first declaration) wins
  f->cursor = c;
  f->loc = make_loc(clang_getCursorLocation(c));
  f->is_extern_c = extern_c;
  f->is_template = clang_getCursorKind(c) == CXCursor_FunctionTemplate;
  f->return_type = type_spelling(clang_getCursorResultType(c));
  f->launch_bounds = launch_bounds(c);
  f->params = (TvVec){0};
  f->is_global = f->is_device = f->is_host = false;
  for (int i = 0; i < k.n; i++) {
    switch (clang_getCursorKind(k.c[i])) {
    case CXCursor_CUDAGlobalAttr: f->is_global = true; break;
    case CXCursor_CUDADeviceAttr: f->is_device = true; break;
    case CXCursor_CUDAHostAttr: f->is_host = true; break;
    case CXCursor_ParmDecl: tv_push(&f->params, lower_var(k.c[i], VAR_PARAM)); break;
    default: break;
    }
  }
  if (!f->is_global && !f->is_device)
    f->is_host = true;
  // Lower the body last: it may refer to the function itself.
  for (int i = 0; i < k.n; i++)
    if (clang_getCursorKind(k.c[i]) == CXCursor_CompoundStmt)
      f->body = lower_stmt(k.c[i]);
}

static bool is_extern_c_block(CXCursor c) {
  unsigned b, e;
  if (!extent(c, &b, &e))
    return false;
  unsigned i = tok_from(b);
  return i + 1 < L.ntoks && !strcmp(L.toks[i].text, "extern") && !strcmp(L.toks[i + 1].text, "\"C\"");
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
    if (in_main(clang_getCursorLocation(c), &l, &col, &off))
      tv_push(&L.p->globals, lower_var(c, VAR_GLOBAL));
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
      in_main(clang_getCursorLocation(c), &l, &col, &off) && !find_usr(usr_of(c))) {
    TvFunc *f = tv_alloc(sizeof *f);
    f->name = spelling(c);
    f->usr = usr_of(c);
    f->cursor = c;
    f->loc = make_loc(clang_getCursorLocation(c));
    f->launch_bounds = -1;
    tv_push(&L.p->funcs, f);
  } else if (kind == CXCursor_LinkageSpec || kind == CXCursor_UnexposedDecl || kind == CXCursor_Namespace) {
    clang_visitChildren(c, declare, NULL);
  }
  return CXChildVisit_Continue;
}

void tv_lower(TvProgram *p) {
  memset(&L, 0, sizeof L);
  L.p = p;
  L.main_file = clang_getFile(p->tu, p->path);
  if (!L.main_file)
    return;
  tokenize_main();
  CXCursor root = clang_getTranslationUnitCursor(p->tu);
  clang_visitChildren(root, declare, NULL);
  bool extern_c = false;
  clang_visitChildren(root, top_level, &extern_c);
}

const char *tv_expr_text(const TvProgram *p, const TvExpr *e) {
  if (e->end <= e->begin || e->end > p->text_len)
    return e->name ? e->name : "?";
  // One line of source, with runs of white space collapsed.
  char *out = tv_alloc(e->end - e->begin + 1);
  size_t n = 0;
  bool space = false;
  for (unsigned i = e->begin; i < e->end; i++) {
    char ch = p->text[i];
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
      space = n > 0;
      continue;
    }
    if (space)
      out[n++] = ' ';
    space = false;
    out[n++] = ch;
  }
  return out;
}

TvExpr *tv_strip(TvExpr *e) {
  while (e && e->kind == EX_OTHER && e->nkids == 1 && !e->name)
    e = e->kids[0];
  return e;
}
