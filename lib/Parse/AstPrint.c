// AST printer for --emit=ast: one node per line, children indented, with the
// node's line:col, so tests can check both the shape and the locations.
#include "tlc/Ast.h"

static void print_node(TlBuf *out, const TlNode *n, int level, const char *role);

static void print_list(TlBuf *out, const TlVec *v, int level, const char *role) {
  for (int i = 0; i < v->len; i++)
    print_node(out, TL_VEC_AT(*v, TlNode, i), level, role);
}

static void print_node(TlBuf *out, const TlNode *n, int level, const char *role) {
  if (!n)
    return;
  tl_buf_indent(out, level);
  if (role)
    tl_buf_printf(out, "%s: ", role);
  tl_buf_printf(out, "%s", tl_node_kind_name(n->kind));
  switch (n->kind) {
  case ND_INT:
    tl_buf_printf(out, " %lld", (long long)n->ival);
    break;
  case ND_FLOAT:
    tl_buf_printf(out, " %.17g", n->fval);
    break;
  case ND_BOOL:
    tl_buf_puts(out, n->ival ? " True" : " False");
    break;
  case ND_STR:
    tl_buf_printf(out, " \"%s\"", n->str);
    break;
  case ND_BINOP:
  case ND_UNARY:
  case ND_COMPARE:
  case ND_AUGASSIGN:
    tl_buf_printf(out, " '%s'", tl_token_kind_name(n->op));
    break;
  case ND_IMPORT:
    tl_buf_printf(out, " %s%s%s", n->name, n->str ? " as " : "", n->str ? n->str : "");
    break;
  default:
    if (n->name)
      tl_buf_printf(out, " %s", n->name);
    break;
  }
  tl_buf_printf(out, " @%d:%d\n", n->loc.line, n->loc.col);
  print_list(out, &n->params, level + 1, "param");
  switch (n->kind) {
  case ND_DEF:
    print_list(out, &n->list2, level + 1, "decorator");
    print_node(out, n->a, level + 1, "returns");
    print_list(out, &n->list, level + 1, NULL);
    return;
  case ND_PARAM:
    print_node(out, n->a, level + 1, "annotation");
    print_node(out, n->b, level + 1, "default");
    return;
  case ND_FOR:
    print_list(out, &n->list2, level + 1, "target");
    print_node(out, n->a, level + 1, "iter");
    print_list(out, &n->list, level + 1, NULL);
    print_list(out, &n->params, level + 1, "else");
    return;
  case ND_IF:
    print_node(out, n->a, level + 1, "cond");
    print_list(out, &n->list, level + 1, "then");
    print_list(out, &n->list2, level + 1, "else");
    return;
  case ND_IFEXP:
    print_node(out, n->a, level + 1, "cond");
    print_node(out, n->b, level + 1, "then");
    print_node(out, n->c, level + 1, "else");
    return;
  case ND_WITH:
    print_node(out, n->a, level + 1, "item");
    print_node(out, n->b, level + 1, "as");
    print_list(out, &n->list, level + 1, NULL);
    return;
  case ND_ASSIGN:
    print_list(out, &n->list, level + 1, "target");
    print_node(out, n->a, level + 1, "value");
    return;
  case ND_CALL:
    print_node(out, n->a, level + 1, "func");
    print_list(out, &n->list, level + 1, "arg");
    print_list(out, &n->list2, level + 1, NULL);
    return;
  default:
    print_node(out, n->a, level + 1, NULL);
    print_node(out, n->b, level + 1, NULL);
    print_node(out, n->c, level + 1, NULL);
    print_list(out, &n->list, level + 1, NULL);
    print_list(out, &n->list2, level + 1, NULL);
    return;
  }
}

void tl_ast_print(TlBuf *out, const TlNode *n) {
  print_node(out, n, 0, NULL);
}
