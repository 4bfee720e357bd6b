// Lowering, first half: libclang cursors -> the TvExpr/TvVar tree of
// Verify.h (statements and functions: AstStmt.c). Only functions written in
// the main file are lowered; the prelude is just declarations. libclang 14
// does not expose operator kinds, so they are read from the token stream of
// the main file, tokenized once up front.
#include "AstInternal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

AstState tv_ast;

/* ---- locations and tokens ---- */

bool tv_in_main(CXSourceLocation loc, unsigned *line, unsigned *col, unsigned *offset) {
  CXFile f;
  clang_getExpansionLocation(loc, &f, line, col, offset);
  return f && clang_File_isEqual(f, tv_ast.main_file);
}

TvLoc tv_make_loc(CXSourceLocation sl) {
  TvLoc loc = {0};
  CXFile f;
  clang_getExpansionLocation(sl, &f, &loc.line, &loc.col, NULL);
  if (!f) return loc;
  if (clang_File_isEqual(f, tv_ast.main_file)) {
    loc.file = tv_ast.p->path;
  } else {
    CXString s = clang_getFileName(f);
    loc.file = tv_strdup(clang_getCString(s));
    clang_disposeString(s);
  }
  return loc;
}

// The cursor's extent as main-file offsets; false when it is elsewhere.
bool tv_extent(CXCursor c, unsigned *begin, unsigned *end) {
  CXSourceRange r = clang_getCursorExtent(c);
  unsigned l, col;
  return tv_in_main(clang_getRangeStart(r), &l, &col, begin) &&
         tv_in_main(clang_getRangeEnd(r), &l, &col, end) && *begin <= *end;
}

// Index of the first token at or after `offset`.
unsigned tv_tok_from(unsigned offset) {
  unsigned lo = 0, hi = tv_ast.ntoks;
  while (lo < hi) {
    unsigned mid = (lo + hi) / 2;
    if (tv_ast.toks[mid].offset < offset)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

void tv_tokenize_main(void) {
  CXSourceRange all = clang_getRange(
      clang_getLocationForOffset(tv_ast.p->tu, tv_ast.main_file, 0),
      clang_getLocationForOffset(tv_ast.p->tu, tv_ast.main_file, (unsigned)tv_ast.p->text_len));
  CXToken *toks;
  unsigned n;
  clang_tokenize(tv_ast.p->tu, all, &toks, &n);
  tv_ast.toks = tv_alloc(sizeof(Tok) * (n + 1));
  for (unsigned i = 0; i < n; i++) {
    CXString s = clang_getTokenSpelling(tv_ast.p->tu, toks[i]);
    tv_ast.toks[i].text = tv_strdup(clang_getCString(s));
    clang_disposeString(s);
    unsigned line, col;
    CXFile f;
    clang_getSpellingLocation(clang_getTokenLocation(tv_ast.p->tu, toks[i]), &f, &line, &col,
                              &tv_ast.toks[i].offset);
    tv_ast.toks[i].end = tv_ast.toks[i].offset + (unsigned)strlen(tv_ast.toks[i].text);
    tv_ast.toks[i].kind = clang_getTokenKind(toks[i]);
  }
  tv_ast.ntoks = n;
  clang_disposeTokens(tv_ast.p->tu, toks, n);
}

/* ---- children ---- */

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  Kids *k = data;
  if (k->n == k->cap) {
    int cap = k->cap ? k->cap * 2 : 8;
    CXCursor *nc = tv_alloc(sizeof(CXCursor) * (size_t)cap);
    if (k->n) memcpy(nc, k->c, sizeof(CXCursor) * (size_t)k->n);
    k->c = nc;
    k->cap = cap;
  }
  k->c[k->n++] = c;
  return CXChildVisit_Continue;
}

Kids tv_kids_of(CXCursor c) {
  Kids k = {0};
  clang_visitChildren(c, collect, &k);
  return k;
}

const char *tv_spelling(CXCursor c) {
  CXString s = clang_getCursorSpelling(c);
  const char *r = tv_strdup(clang_getCString(s));
  clang_disposeString(s);
  return r;
}

const char *tv_type_spelling(CXType t) {
  CXString s = clang_getTypeSpelling(t);
  const char *r = tv_strdup(clang_getCString(s));
  clang_disposeString(s);
  return r;
}

static bool is_integer_type(CXType t) {
  t = clang_getCanonicalType(t);
  return (t.kind >= CXType_Bool && t.kind <= CXType_Int128 && t.kind != CXType_Float) ||
         t.kind == CXType_Enum;
}

/* ---- variables ---- */

static TvVar *find_var(CXCursor c) {
  for (VarSlot *s = tv_ast.buckets[clang_hashCursor(c) % NBUCKETS]; s; s = s->next)
    if (clang_equalCursors(s->cursor, c)) return s->var;
  return NULL;
}

// The initializer of a VarDecl: the expression after its top-level '=',
// which is not simply its last child (array bounds are children too).
static TvExpr *var_init(CXCursor c, const Kids *k) {
  unsigned b, e, l, col, name_off;
  if (!tv_extent(c, &b, &e) || !tv_in_main(clang_getCursorLocation(c), &l, &col, &name_off))
    return NULL;
  int depth = 0;
  for (unsigned i = tv_tok_from(name_off); i < tv_ast.ntoks && tv_ast.toks[i].offset < e; i++) {
    const char *t = tv_ast.toks[i].text;
    if (!strcmp(t, "[") || !strcmp(t, "("))
      depth++;
    else if (!strcmp(t, "]") || !strcmp(t, ")"))
      depth--;
    else if (depth == 0 && !strcmp(t, "=")) {
      for (int j = 0; j < k->n; j++) {
        unsigned kb, ke;
        if (clang_isExpression(clang_getCursorKind(k->c[j])) && tv_extent(k->c[j], &kb, &ke) &&
            kb > tv_ast.toks[i].offset)
          return tv_lower_expr(k->c[j]);
      }
      return NULL;
    }
  }
  return NULL;
}

TvVar *tv_lower_var(CXCursor c, TvVarKind kind) {
  TvVar *v = find_var(c);
  if (v) return v;
  v = tv_alloc(sizeof *v);
  VarSlot *slot = tv_alloc(sizeof *slot);
  slot->cursor = c;
  slot->var = v;
  unsigned h = clang_hashCursor(c) % NBUCKETS;
  slot->next = tv_ast.buckets[h];
  tv_ast.buckets[h] = slot;

  v->name = tv_spelling(c);
  v->kind = kind;
  v->cursor = c;
  v->loc = tv_make_loc(clang_getCursorLocation(c));
  CXType t = clang_getCursorType(c);
  v->type = tv_type_spelling(t);
  v->ctype = tv_type_spelling(clang_getCanonicalType(t));
  v->size = clang_Type_getSizeOf(t);
  if (v->size < 0) v->size = -1;
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
  if (v->elem_size < 0) v->elem_size = -1;
  Kids k = tv_kids_of(c);
  for (int i = 0; i < k.n; i++)
    if (clang_getCursorKind(k.c[i]) == CXCursor_CUDASharedAttr) v->is_shared = true;
  if (v->is_shared && clang_Cursor_getStorageClass(c) == CX_SC_Extern &&
      clang_getCanonicalType(t).kind == CXType_IncompleteArray)
    v->is_dynamic_smem = true;
  if (kind != VAR_PARAM) v->init = var_init(c, &k);
  return v;
}

// A variable referenced but not lowered yet: the prelude's threadIdx, or a
// file-scope variable used before the walk reached it.
static TvVar *var_ref(CXCursor decl) {
  TvVar *v = find_var(decl);
  if (v) return v;
  CXCursor parent = clang_getCursorSemanticParent(decl);
  enum CXCursorKind pk = clang_getCursorKind(parent);
  bool local =
      pk == CXCursor_FunctionDecl || pk == CXCursor_FunctionTemplate || pk == CXCursor_CXXMethod;
  return tv_lower_var(decl, clang_getCursorKind(decl) == CXCursor_ParmDecl ? VAR_PARAM
                            : local                                        ? VAR_LOCAL
                                                                           : VAR_GLOBAL);
}

/* ---- expressions ---- */

static TvExpr *new_expr(TvExprKind kind, CXCursor c) {
  TvExpr *e = tv_alloc(sizeof *e);
  e->kind = kind;
  e->loc = tv_make_loc(clang_getRangeStart(clang_getCursorExtent(c)));
  if (!tv_extent(c, &e->begin, &e->end)) e->begin = e->end = 0;
  return e;
}

static void add_kid(TvExpr *e, TvExpr *k) {
  TvExpr **kids = tv_alloc(sizeof(TvExpr *) * (size_t)(e->nkids + 1));
  if (e->nkids) memcpy(kids, e->kids, sizeof(TvExpr *) * (size_t)e->nkids);
  kids[e->nkids++] = k;
  e->kids = kids;
}

static bool eval_int(CXCursor c, long long *out) {
  CXEvalResult r = clang_Cursor_Evaluate(c);
  if (!r) return false;
  bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
  if (ok) *out = clang_EvalResult_getAsLongLong(r);
  clang_EvalResult_dispose(r);
  return ok;
}

// The position of a template parameter in its template's parameter list.
static long long template_param_index(CXCursor param) {
  Kids k = tv_kids_of(clang_getCursorSemanticParent(param));
  long long n = 0;
  for (int i = 0; i < k.n; i++) {
    enum CXCursorKind kind = clang_getCursorKind(k.c[i]);
    if (kind != CXCursor_TemplateTypeParameter && kind != CXCursor_NonTypeTemplateParameter &&
        kind != CXCursor_TemplateTemplateParameter)
      continue;
    if (clang_equalCursors(k.c[i], param)) return n;
    n++;
  }
  return -1;
}

static TvExpr *lower_kids_as_other(CXCursor c, const Kids *k) {
  TvExpr *e = new_expr(EX_OTHER, c);
  for (int i = 0; i < k->n; i++)
    if (clang_isExpression(clang_getCursorKind(k->c[i]))) add_kid(e, tv_lower_expr(k->c[i]));
  return e;
}

static int expr_kids(const Kids *k, CXCursor *out, int max) {
  int n = 0;
  for (int i = 0; i < k->n && n < max; i++)
    if (clang_isExpression(clang_getCursorKind(k->c[i]))) out[n++] = k->c[i];
  return n;
}

// The operator of a binary expression: the first token after its left side.
static void binary_op(CXCursor lhs, char op[4]) {
  unsigned b, e;
  strcpy(op, "?");
  if (!tv_extent(lhs, &b, &e)) return;
  unsigned i = tv_tok_from(e);
  if (i < tv_ast.ntoks && tv_ast.toks[i].kind == CXToken_Punctuation &&
      strlen(tv_ast.toks[i].text) < 4)
    strcpy(op, tv_ast.toks[i].text);
}

static TvExpr *lower_unary(CXCursor c, CXCursor operand) {
  TvExpr *e = new_expr(EX_UNARY, c);
  strcpy(e->op, "?");
  unsigned i = tv_tok_from(e->begin);
  if (e->end > e->begin && i < tv_ast.ntoks && tv_ast.toks[i].offset == e->begin) {
    const Tok *t = &tv_ast.toks[i];
    if (t->kind == CXToken_Punctuation && strlen(t->text) < 4) {
      strcpy(e->op, t->text);
    } else {
      unsigned ob, oe;
      if (tv_extent(operand, &ob, &oe)) {
        unsigned j = tv_tok_from(oe);
        if (j < tv_ast.ntoks &&
            (!strcmp(tv_ast.toks[j].text, "++") || !strcmp(tv_ast.toks[j].text, "--")))
          snprintf(e->op, sizeof e->op, "p%s", tv_ast.toks[j].text);
      }
    }
  }
  if (!strcmp(e->op, "?")) e->kind = EX_OTHER;
  add_kid(e, tv_lower_expr(operand));
  return e;
}

static bool is_config_call(CXCursor c) {
  if (clang_getCursorKind(c) != CXCursor_CallExpr) return false;
  const char *n = tv_spelling(c);
  return !strcmp(n, "cudaConfigureCall") || !strcmp(n, "__cudaPushCallConfiguration");
}

static TvExpr *lower_call(CXCursor c, const Kids *k) {
  const char *name = tv_spelling(c);
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
      add_kid(e, tv_lower_expr(clang_Cursor_getArgument(c, 0)));
      return e;
    } else {
      strcpy(e->op, name + 8);
    }
    for (int i = 0; i < nargs; i++)
      add_kid(e, tv_lower_expr(clang_Cursor_getArgument(c, (unsigned)i)));
    return e;
  }
  for (int i = 0; i < k->n; i++) {
    if (!is_config_call(k->c[i])) continue;
    // kernel<<<config>>>(args): the config is a call to the launch-configuration function.
    TvExpr *e = new_expr(EX_LAUNCH, c);
    CXCursor callee = clang_getCursorReferenced(c);
    e->func = tv_func_ref(callee);
    e->name = tv_spelling(callee);
    int nc = clang_Cursor_getNumArguments(k->c[i]);
    for (int j = 0; j < nc; j++)
      add_kid(e, tv_lower_expr(clang_Cursor_getArgument(k->c[i], (unsigned)j)));
    e->nconfig = e->nkids;
    for (int j = 0; j < nargs; j++)
      add_kid(e, tv_lower_expr(clang_Cursor_getArgument(c, (unsigned)j)));
    return e;
  }
  // tlc's prelude spells Python's // and % on values it cannot prove
  // non-negative (ring slots and parities of loops with a runtime trip
  // count) as calls: the analyses read them as the operators they are.
  if (nargs == 2 && (!strcmp(name, "tl_floordiv") || !strcmp(name, "tl_floormod"))) {
    TvExpr *e = new_expr(EX_BINARY, c);
    strcpy(e->op, name[8] == 'd' ? "/" : "%");
    e->floor_op = true;
    for (int i = 0; i < nargs; i++)
      add_kid(e, tv_lower_expr(clang_Cursor_getArgument(c, (unsigned)i)));
    return e;
  }
  CXCursor callee = clang_getCursorReferenced(c);
  enum CXCursorKind ck = clang_getCursorKind(callee);
  if (ck == CXCursor_Constructor && nargs == 1 &&
      (clang_CXXConstructor_isCopyConstructor(callee) ||
       clang_CXXConstructor_isMoveConstructor(callee)))
    return tv_lower_expr(clang_Cursor_getArgument(c, 0)); // a copy is its source here
  TvExpr *e = new_expr(EX_CALL, c);
  e->name = name;
  int nt = ck == CXCursor_FunctionDecl ? clang_Cursor_getNumTemplateArguments(callee) : -1;
  if (nt > 0) {
    // tl_swz<32, 8, 4>(...): analyses read the template's body with these values.
    e->func = tv_func_ref(clang_getSpecializedCursorTemplate(callee));
    e->ntargs = nt;
    e->targs = tv_alloc(sizeof(long long) * (size_t)nt);
    for (int i = 0; i < nt; i++)
      e->targs[i] = clang_Cursor_getTemplateArgumentKind(callee, (unsigned)i) ==
                            CXTemplateArgumentKind_Integral
                        ? clang_Cursor_getTemplateArgumentValue(callee, (unsigned)i)
                        : TV_NEG_INF;
  } else if (ck == CXCursor_FunctionDecl || ck == CXCursor_FunctionTemplate) {
    e->func = tv_func_ref(callee);
  }
  if (nargs >= 0) {
    for (int i = 0; i < nargs; i++)
      add_kid(e, tv_lower_expr(clang_Cursor_getArgument(c, (unsigned)i)));
    // x.operator float() (a half_t read as float): the object x, after the
    // arguments, so that the analyses see the load in it.
    if (ck == CXCursor_CXXMethod || ck == CXCursor_ConversionFunction)
      for (int i = 0; i < k->n; i++)
        if (clang_getCursorKind(k->c[i]) == CXCursor_MemberRefExpr)
          add_kid(e, tv_lower_expr(k->c[i]));
  } else {
    // Constructor calls (dim3(1, 2, 3)): the arguments are the expression children.
    for (int i = 0; i < k->n; i++)
      if (clang_isExpression(clang_getCursorKind(k->c[i]))) add_kid(e, tv_lower_expr(k->c[i]));
  }
  return e;
}

static TvExpr *lower_member(CXCursor c, const Kids *k) {
  static const char *const builtins[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
  const char *member = tv_spelling(c);
  CXCursor base[1];
  int nb = expr_kids(k, base, 1);
  if (nb == 1 && clang_getCursorKind(base[0]) == CXCursor_DeclRefExpr && strlen(member) == 1 &&
      member[0] >= 'x' && member[0] <= 'z') {
    const char *bn = tv_spelling(base[0]);
    CXCursor decl = clang_getCursorReferenced(base[0]);
    for (int i = 0; i < 4; i++)
      if (!strcmp(bn, builtins[i]) &&
          clang_getCursorKind(clang_getCursorSemanticParent(decl)) == CXCursor_TranslationUnit) {
        TvExpr *e = new_expr(EX_BUILTIN, c);
        e->builtin = (TvBuiltin)i;
        e->dim = member[0] - 'x';
        e->name = tv_printf("%s.%s", bn, member);
        return e;
      }
  }
  TvExpr *e = new_expr(EX_MEMBER, c);
  e->name = member;
  if (nb == 1) add_kid(e, tv_lower_expr(base[0]));
  return e;
}

TvExpr *tv_lower_expr(CXCursor c) {
  enum CXCursorKind kind = clang_getCursorKind(c);
  Kids k = tv_kids_of(c);
  CXCursor ek[3];
  int ne = expr_kids(&k, ek, 3);
  long long v;
  switch (kind) {
  case CXCursor_UnexposedExpr:
  case CXCursor_ParenExpr:
    // Implicit conversions, temporaries, parentheses: transparent here.
    if (ne == 1 && k.n == 1) return tv_lower_expr(ek[0]);
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
      e->name = tv_spelling(d);
      e->value = template_param_index(d);
    } else if (dk == CXCursor_FunctionDecl || dk == CXCursor_FunctionTemplate) {
      e = new_expr(EX_FUNCREF, c);
      e->func = tv_func_ref(d);
      e->name = tv_spelling(d);
    } else {
      e = new_expr(EX_OTHER, c);
      e->name = tv_spelling(c);
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
      add_kid(e, tv_lower_expr(ek[0]));
      add_kid(e, tv_lower_expr(ek[1]));
      if (!strcmp(e->op, "?")) e->kind = EX_OTHER;
      return e;
    }
    return lower_kids_as_other(c, &k);
  case CXCursor_UnaryOperator:
    if (ne == 1) return lower_unary(c, ek[0]);
    return lower_kids_as_other(c, &k);
  case CXCursor_ConditionalOperator:
    if (ne == 3) {
      TvExpr *e = new_expr(EX_COND, c);
      for (int i = 0; i < 3; i++)
        add_kid(e, tv_lower_expr(ek[i]));
      return e;
    }
    return lower_kids_as_other(c, &k);
  case CXCursor_ArraySubscriptExpr:
    if (ne == 2) {
      TvExpr *e = new_expr(EX_SUBSCRIPT, c);
      add_kid(e, tv_lower_expr(ek[0]));
      add_kid(e, tv_lower_expr(ek[1]));
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
      e->cast_type = tv_type_spelling(clang_getCursorType(c));
      e->cast_to_integer = is_integer_type(t);
      e->cast_to_pointer = t.kind == CXType_Pointer;
      e->cast_pointee_size =
          e->cast_to_pointer ? clang_Type_getSizeOf(clang_getPointeeType(t)) : -1;
      add_kid(e, tv_lower_expr(ek[ne - 1]));
      return e;
    }
    return lower_kids_as_other(c, &k);
  case CXCursor_CallExpr:
    return lower_call(c, &k);
  default:
    return lower_kids_as_other(c, &k);
  }
}

const char *tv_expr_text(const TvProgram *p, const TvExpr *e) {
  if (e->end <= e->begin || e->end > p->text_len) return e->name ? e->name : "?";
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
    if (space) out[n++] = ' ';
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
