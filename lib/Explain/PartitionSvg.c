// explain-partition's svg: the space as a grid, one cell per point, coloured
// by thread, for a plan, --compare's shapes and a fragment nest.
#include "ExplainPartitionInternal.h"

#include <stdlib.h>
#include <string.h>

/* ---- svg: the space as a grid, one cell per point, coloured by thread ---- */

// Neighbouring threads get far-apart hues (a golden-angle-like step), and
// the light fill keeps the dark labels readable.
static void svg_fill(TlBuf *b, int64_t thread) {
  tl_buf_printf(b, "hsl(%d,70%%,82%%)", (int)(thread % 360 * 137 % 360));
}

// One line of text; widens *width to fit it (monospace glyphs are about
// 0.62 em wide, bold a little more).
static void svg_line(TlBuf *b, int x, int y, int size, const char *weight, const char *text,
                     int *width) {
  tl_buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" font-weight=\"%s\">", x, y, size,
                weight);
  tl_buf_xml_text(b, text);
  tl_buf_puts(b, "</text>\n");
  int right = x + (int)strlen(text) * size * 2 / 3 + SVG_MARGIN;
  *width = *width > right ? *width : right;
}

// What a section draws: the points of a plan or the elements of a fragment
// nest, each coloured by a thread and labelled with its slot or register.
typedef struct Space {
  const TlPartitionPlan *plan; // exactly one of plan and frag
  const TlFragNest *frag;
  int ndims;
  const int64_t *extents;
  int64_t total;
} Space;

static Space plan_space(const TlPartitionPlan *p) {
  return (Space){.plan = p, .ndims = p->ndims, .extents = p->extents, .total = p->total};
}

static void space_index(const Space *sp, int64_t flat, int64_t *idx) {
  if (sp->plan)
    tl_partition_unflatten(sp->plan, flat, idx);
  else
    tl_frag_nest_index(sp->frag, flat, idx);
}

// A row's label: its leading indices, "3" for a 2-D nest, "(1, 2)" deeper.
static const char *row_label(char *s, const Space *sp, int64_t row) {
  int64_t idx[TL_MAX_NEST];
  space_index(sp, row * sp->extents[sp->ndims - 1], idx);
  if (sp->ndims == 2) {
    snprintf(s, TUPLE_MAX, "%" PRId64, idx[0]);
    return s;
  }
  return tl_xp_tuple_str(s, idx, sp->ndims - 1);
}

// One cell: a tooltip with the whole mapping, the colour of its (first)
// thread, and the labels t<thread> and s<slot> (r<register> for fragments).
static void svg_cell(TlBuf *b, const Space *sp, int64_t flat, int cx, int cy) {
  int64_t idx[TL_MAX_NEST], thread, slot, holders = 1;
  char s[TUPLE_MAX];
  space_index(sp, flat, idx);
  if (sp->plan) {
    tl_partition_point(sp->plan, idx, &thread, &slot);
    tl_buf_printf(b, "<g><title>%s flat %" PRId64 ": thread %" PRId64 ", slot %" PRId64 "</title>",
                  tl_xp_tuple_str(s, idx, sp->ndims), flat, thread, slot);
  } else {
    holders = tl_frag_nest_holders(sp->frag, flat);
    tl_frag_nest_holder(sp->frag, flat, 0, &thread, &slot);
    tl_buf_printf(b, "<g><title>%s flat %" PRId64 ": thread %" PRId64,
                  tl_xp_tuple_str(s, idx, sp->ndims), flat, thread);
    if (holders > 1) tl_buf_printf(b, " and %" PRId64 " more", holders - 1);
    tl_buf_printf(b, ", register %" PRId64 "</title>", slot);
  }
  tl_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"", cx, cy, SVG_CELL_W,
                SVG_CELL_H);
  svg_fill(b, thread);
  tl_buf_printf(b,
                "\" stroke=\"#ffffff\"/>"
                "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">t%" PRId64
                "%s</text><text x=\"%d\" y=\"%d\" font-size=\"8\" text-anchor=\"middle\" "
                "fill=\"#444444\">%c%" PRId64 "</text></g>\n",
                cx + SVG_CELL_W / 2, cy + 13, thread, holders > 1 ? "+" : "", cx + SVG_CELL_W / 2,
                cy + 24, sp->plan ? 's' : 'r', slot);
}

// Draws one space at vertical offset y: heading, summary, the grid (rows =
// leading dims flattened, columns = the last dim; at most SVG_MAX of each)
// and a legend of `legend` threads. Returns the y below it and widens *width
// as needed.
static int svg_section(TlBuf *b, const Space *sp, const char *heading, const char *summary,
                       int64_t legend, int y, int *width) {
  int64_t cols = sp->extents[sp->ndims - 1], rows = sp->total / cols;
  int shown_c = cols < SVG_MAX ? (int)cols : SVG_MAX,
      shown_r = rows < SVG_MAX ? (int)rows : SVG_MAX;
  char s[TUPLE_MAX], line[512];

  svg_line(b, SVG_MARGIN, y += 18, 15, "bold", heading, width);
  svg_line(b, SVG_MARGIN, y += 18, 11, "normal", summary, width);
  if (shown_c < cols || shown_r < rows) {
    snprintf(line, sizeof line,
             "truncated: showing the top-left %d x %d cells of %" PRId64 " x %" PRId64, shown_r,
             shown_c, rows, cols);
    svg_line(b, SVG_MARGIN, y += 16, 11, "normal", line, width);
  }

  // Row labels are the leading indices; 1-D nests have a single, unlabelled row.
  int label_w = 0;
  for (int r = 0; sp->ndims > 1 && r < shown_r; r++) {
    int len = (int)strlen(row_label(s, sp, r));
    label_w = len * 6 + 8 > label_w ? len * 6 + 8 : label_w;
  }
  int x0 = SVG_MARGIN + label_w, y0 = y + 22;
  for (int c = 0; c < shown_c; c++)
    tl_buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"9\" text-anchor=\"middle\">%d</text>\n",
                  x0 + c * SVG_CELL_W + SVG_CELL_W / 2, y0 - 4, c);
  for (int r = 0; r < shown_r; r++) {
    int cy = y0 + r * SVG_CELL_H;
    if (sp->ndims > 1)
      tl_buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"9\" text-anchor=\"end\">%s</text>\n",
                    x0 - 4, cy + SVG_CELL_H / 2 + 3, row_label(s, sp, r));
    for (int c = 0; c < shown_c; c++)
      svg_cell(b, sp, (int64_t)r * cols + c, x0 + c * SVG_CELL_W, cy);
  }
  y = y0 + shown_r * SVG_CELL_H;
  int right = x0 + shown_c * SVG_CELL_W + SVG_MARGIN;

  // Legend: one swatch per thread, up to SVG_LEGEND_MAX.
  int64_t nswatch = legend < SVG_LEGEND_MAX ? legend : SVG_LEGEND_MAX;
  y += 22;
  tl_buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\">threads:</text>\n", SVG_MARGIN, y);
  int lx = SVG_MARGIN + 64;
  for (int64_t t = 0; t < nswatch; t++, lx += 44) {
    tl_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"", lx, y - 10);
    svg_fill(b, t);
    tl_buf_printf(b, "\"/><text x=\"%d\" y=\"%d\" font-size=\"10\">t%" PRId64 "</text>\n", lx + 15,
                  y, t);
  }
  if (legend > nswatch)
    tl_buf_printf(b,
                  "<text x=\"%d\" y=\"%d\" font-size=\"10\">... %" PRId64
                  " more (hue = thread * 137 mod 360)</text>\n",
                  lx, y, legend - nswatch);
  if (legend > nswatch) right = right > lx + 260 ? right : lx + 260;
  right = right > lx ? right : lx;
  *width = *width > right ? *width : right;
  return y + 12;
}

// A plan's section: its summary line and the threads that own points.
static int svg_plan_section(TlBuf *b, const TlPartitionPlan *p, const char *heading, int y,
                            int *width) {
  char line[512];
  snprintf(line, sizeof line,
           "%" PRId64 " points; threads used: %" PRId64 " of %" PRId64 "; %" PRId64
           " slots per thread (%" PRId64 " steps x vector %" PRId64 "); %s",
           p->total, p->threads_used, p->threads, p->slots, p->steps, p->vector,
           p->guard ? "needs a guard" : "no guard");
  Space sp = plan_space(p);
  return svg_section(b, &sp, heading, line, p->threads_used, y, width);
}

static void svg_document(TlBuf *out, const char *title, const TlBuf *body, int width, int height) {
  tl_buf_printf(out,
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                "viewBox=\"0 0 %d %d\" font-family=\"monospace\">\n<title>",
                width, height, width, height);
  tl_buf_xml_text(out, title);
  tl_buf_printf(out, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width,
                height);
  if (body->len) tl_buf_write(out, body->data, body->len);
  tl_buf_puts(out, "</svg>\n");
}

void tl_xp_svg_render(TlBuf *out, const TlPartitionPlan *p, const char *title) {
  char s[TUPLE_MAX], heading[TUPLE_MAX + 64];
  snprintf(heading, sizeof heading, "T.Parallel%s  threads=%" PRId64 "  vector_size=%" PRId64,
           tl_xp_tuple_str(s, p->extents, p->ndims), p->threads, p->vector);
  TlBuf body;
  tl_buf_init(&body, out->arena);
  int width = 0, y = SVG_MARGIN / 2;
  if (title) svg_line(&body, SVG_MARGIN, y += 18, 13, "normal", title, &width);
  y = svg_plan_section(&body, p, heading, y, &width);
  svg_document(out, title ? title : heading, &body, width, y + SVG_MARGIN);
}

void tl_xp_compare_svg(TlBuf *out, int64_t threads, int64_t vector) {
  char s[TUPLE_MAX], heading[TUPLE_MAX + 64];
  snprintf(heading, sizeof heading,
           "Same total work, different nest shapes (threads=%" PRId64 ", vector=%" PRId64 ")",
           threads, vector);
  TlBuf body;
  tl_buf_init(&body, out->arena);
  int width = 0, y = SVG_MARGIN / 2;
  svg_line(&body, SVG_MARGIN, y += 20, 16, "bold", heading, &width);
  for (int i = 0; i < NSHAPES; i++) {
    TlPartitionPlan p;
    tl_xp_shape_plan(&p, i, threads, vector);
    char sub[TUPLE_MAX + 16];
    snprintf(sub, sizeof sub, "T.Parallel%s", tl_xp_tuple_str(s, p.extents, p.ndims));
    y = svg_plan_section(&body, &p, sub, y + 12, &width);
  }
  svg_document(out, heading, &body, width, y + SVG_MARGIN);
}

// A fragment nest: the grid of its elements coloured by (first) holding
// thread, "+" marking replicated elements; an unmapped layout gets only its
// summary.
void tl_xp_frag_svg(TlBuf *out, const TlFragNest *n, const char *title, const char *follows,
                    const char *fragment) {
  char s[TUPLE_MAX], heading[TUPLE_MAX + 512], line[512];
  snprintf(heading, sizeof heading, "T.Parallel%s  threads=%" PRId64 "  follows %s%s%s",
           tl_xp_tuple_str(s, n->extents, n->ndims), n->threads, follows,
           fragment ? ", the layout of " : "", fragment ? fragment : "");
  TlBuf body;
  tl_buf_init(&body, out->arena);
  int width = 0, y = SVG_MARGIN / 2;
  if (title) svg_line(&body, SVG_MARGIN, y += 18, 13, "normal", title, &width);
  if (!n->mapped) {
    svg_line(&body, SVG_MARGIN, y += 18, 15, "bold", heading, &width);
    snprintf(line, sizeof line,
             "elements not listed: %" PRId64 " threads x %" PRId64
             " registers is more than a register file holds",
             n->threads, n->registers);
    svg_line(&body, SVG_MARGIN, y += 18, 11, "normal", line, &width);
  } else {
    snprintf(line, sizeof line,
             "%" PRId64 " elements; threads holding elements: %" PRId64 " of %" PRId64 "; %" PRId64
             " registers per thread; %" PRId64 " threads per element%s",
             n->elements, n->threads_used, n->threads, n->registers, n->replicas,
             n->guard ? "; guarded" : "");
    Space sp = {.frag = n, .ndims = n->ndims, .extents = n->extents, .total = n->elements};
    y = svg_section(&body, &sp, heading, line, n->threads, y, &width);
  }
  svg_document(out, title ? title : heading, &body, width, y + SVG_MARGIN);
}
