// tlc-verify support: one arena for everything (the tool runs once and
// exits, so nothing is freed piecemeal), growable arrays, and the findings
// list, which is sorted before printing so that output does not depend on
// the order the checks run in.
#include "Verify.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Blocks of 1 MB carved by a bump pointer (one calloc per allocation spent
// most of a long run in the allocator); a larger request gets its own block.
typedef struct Chunk {
  struct Chunk *next;
} Chunk;
static Chunk *chunks;
static char *bump, *bump_end;

enum { BLOCK_BYTES = 1 << 20 };

static Chunk *new_chunk(size_t payload) {
  Chunk *c = calloc(1, sizeof(Chunk) + payload + 16);
  if (!c) {
    fputs("tlc-verify: out of memory\n", stderr);
    exit(2);
  }
  c->next = chunks;
  chunks = c;
  return c;
}

static char *payload_of(Chunk *c) {
  // Keep the payload 16-byte aligned whatever sizeof(Chunk) is.
  return (char *)c + ((sizeof(Chunk) + 15) & ~(size_t)15);
}

void *tv_alloc(size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (n > BLOCK_BYTES / 4) return payload_of(new_chunk(n));
  if (!bump || (size_t)(bump_end - bump) < n) {
    bump = payload_of(new_chunk(BLOCK_BYTES));
    bump_end = bump + BLOCK_BYTES;
  }
  void *p = bump;
  bump += n;
  return p; // zeroed: blocks come from calloc and are never reused
}

void tv_free_all(void) {
  bump = bump_end = NULL;
  while (chunks) {
    Chunk *next = chunks->next;
    free(chunks);
    chunks = next;
  }
}

char *tv_strndup(const char *s, size_t n) {
  char *d = tv_alloc(n + 1);
  memcpy(d, s, n);
  return d;
}

char *tv_strdup(const char *s) {
  return tv_strndup(s, strlen(s));
}

static char *vformat(const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  char *s = tv_alloc((size_t)n + 1);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  return s;
}

char *tv_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = vformat(fmt, ap);
  va_end(ap);
  return s;
}

void tv_push(TvVec *v, void *item) {
  if (v->len == v->cap) {
    int cap = v->cap ? v->cap * 2 : 8;
    void **items = tv_alloc(sizeof(void *) * (size_t)cap);
    if (v->len) memcpy(items, v->items, sizeof(void *) * (size_t)v->len);
    v->items = items;
    v->cap = cap;
  }
  v->items[v->len++] = item;
}

typedef struct Finding {
  TvLoc loc;
  const char *msg;
  int seq; // keeps findings at one location in the order they were made
} Finding;
static TvVec findings;

void tv_error(TvLoc loc, const char *fmt, ...) {
  Finding *f = tv_alloc(sizeof *f);
  va_list ap;
  va_start(ap, fmt);
  f->msg = vformat(fmt, ap);
  va_end(ap);
  f->loc = loc;
  f->seq = findings.len;
  tv_push(&findings, f);
}

int tv_error_count(void) {
  return findings.len;
}

static int cmp_finding(const void *a, const void *b) {
  const Finding *x = *(Finding *const *)a, *y = *(Finding *const *)b;
  const char *fx = x->loc.file ? x->loc.file : "", *fy = y->loc.file ? y->loc.file : "";
  int c = strcmp(fx, fy);
  if (c) return c;
  if (x->loc.line != y->loc.line) return x->loc.line < y->loc.line ? -1 : 1;
  if (x->loc.col != y->loc.col) return x->loc.col < y->loc.col ? -1 : 1;
  return x->seq - y->seq;
}

void tv_print_findings(void) {
  if (findings.len > 1) qsort(findings.items, (size_t)findings.len, sizeof(void *), cmp_finding);
  for (int i = 0; i < findings.len; i++) {
    const Finding *f = TV_AT(findings, Finding, i);
    if (f->loc.file)
      printf("%s:%u:%u: error: %s\n", f->loc.file, f->loc.line, f->loc.col, f->msg);
    else
      printf("error: %s\n", f->msg);
  }
}
