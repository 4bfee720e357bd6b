// Growable text (TlBuf) and pointer arrays (TlVec), both backed by the
// arena: growing copies into a larger arena allocation and abandons the old
// one, which the arena reclaims when the compilation ends.
#include "tlc/Support.h"

#include <string.h>

void tl_vec_push(TlArena *a, TlVec *v, void *item) {
  if (v->len == v->cap) {
    int cap = v->cap ? v->cap * 2 : 8;
    void **items = TL_NEW_ARRAY(a, void *, cap);
    if (v->len)
      memcpy(items, v->items, sizeof(void *) * (size_t)v->len);
    v->items = items;
    v->cap = cap;
  }
  v->items[v->len++] = item;
}

void tl_buf_init(TlBuf *b, TlArena *a) {
  b->arena = a;
  b->data = NULL;
  b->len = b->cap = 0;
}

static void reserve(TlBuf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap)
    return;
  size_t cap = b->cap ? b->cap * 2 : 256;
  while (cap < b->len + extra + 1)
    cap *= 2;
  char *data = tl_arena_alloc(b->arena, cap, 1);
  if (b->len)
    memcpy(data, b->data, b->len);
  b->data = data;
  b->cap = cap;
}

void tl_buf_write(TlBuf *b, const char *s, size_t n) {
  reserve(b, n);
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void tl_buf_putc(TlBuf *b, char c) {
  tl_buf_write(b, &c, 1);
}

void tl_buf_puts(TlBuf *b, const char *s) {
  tl_buf_write(b, s, strlen(s));
}

void tl_buf_vprintf(TlBuf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  reserve(b, (size_t)n);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  b->len += (size_t)n;
}

void tl_buf_printf(TlBuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  tl_buf_vprintf(b, fmt, ap);
  va_end(ap);
}

void tl_buf_indent(TlBuf *b, int level) {
  for (int i = 0; i < level; i++)
    tl_buf_write(b, "  ", 2);
}

void tl_buf_json_string(TlBuf *b, const char *s) {
  tl_buf_putc(b, '"');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      tl_buf_printf(b, "\\%c", *p);
    else if (*p < 0x20)
      tl_buf_printf(b, "\\u%04x", *p);
    else
      tl_buf_putc(b, (char)*p);
  }
  tl_buf_putc(b, '"');
}

void tl_buf_xml_text(TlBuf *b, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '&':
      tl_buf_puts(b, "&amp;");
      break;
    case '<':
      tl_buf_puts(b, "&lt;");
      break;
    case '>':
      tl_buf_puts(b, "&gt;");
      break;
    case '"':
      tl_buf_puts(b, "&quot;");
      break;
    case '\'':
      tl_buf_puts(b, "&apos;");
      break;
    default:
      tl_buf_putc(b, (unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' ? '?' : *s);
    }
  }
}

void tl_set_err(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || errlen == 0)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}
