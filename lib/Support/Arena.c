// Arena: a chain of blocks handed out by bumping a pointer. One arena per
// compilation; nothing is freed one by one. Large requests get a block of
// their own so a big output buffer does not waste a standard block.
// This is the only file that calls malloc/free.
#include "tlc/Support.h"

#include <stdlib.h>
#include <string.h>

enum { BLOCK_SIZE = 64 * 1024 };

struct TlArenaBlock {
  TlArenaBlock *next;
  size_t used, size;
  _Alignas(16) unsigned char data[];
};

_Noreturn void tl_fatal_oom(void) {
  fputs("tlc: error: out of memory\n", stderr);
  exit(1);
}

_Noreturn void tl_internal_error(const char *where, const char *file, int line, const char *fmt,
                                 ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "tlc: internal error in %s: ", where);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, " (at %s:%d)\nplease report this as a tlc bug, with the input file\n", file,
          line);
  va_end(ap);
  abort();
}

void tl_arena_init(TlArena *a) {
  a->head = NULL;
  a->bytes_used = 0;
}

void tl_arena_free(TlArena *a) {
  TlArenaBlock *b = a->head;
  while (b) {
    TlArenaBlock *next = b->next;
    free(b);
    b = next;
  }
  a->head = NULL;
  a->bytes_used = 0;
}

static TlArenaBlock *new_block(size_t size) {
  TlArenaBlock *b = malloc(sizeof(TlArenaBlock) + size);
  if (!b)
    tl_fatal_oom();
  b->next = NULL;
  b->used = 0;
  b->size = size;
  return b;
}

void *tl_arena_alloc(TlArena *a, size_t size, size_t align) {
  if (align < 1)
    align = 1;
  if (size == 0)
    size = 1;
  if (size > BLOCK_SIZE / 4) {
    // Oversize: its own block, linked behind the head so the head keeps
    // serving small requests.
    TlArenaBlock *b = new_block(size + align);
    uintptr_t p = ((uintptr_t)b->data + align - 1) & ~(uintptr_t)(align - 1);
    if (a->head) {
      b->next = a->head->next;
      a->head->next = b;
    } else {
      a->head = b;
      b->used = b->size;
    }
    memset((void *)p, 0, size);
    a->bytes_used += size;
    return (void *)p;
  }
  TlArenaBlock *h = a->head;
  if (h) {
    uintptr_t p = ((uintptr_t)h->data + h->used + align - 1) & ~(uintptr_t)(align - 1);
    if (p + size <= (uintptr_t)h->data + h->size) {
      h->used = (size_t)(p + size - (uintptr_t)h->data);
      memset((void *)p, 0, size);
      a->bytes_used += size;
      return (void *)p;
    }
  }
  TlArenaBlock *b = new_block(BLOCK_SIZE);
  b->next = a->head;
  a->head = b;
  return tl_arena_alloc(a, size, align);
}

char *tl_arena_strndup(TlArena *a, const char *s, size_t n) {
  char *p = tl_arena_alloc(a, n + 1, 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *tl_arena_strdup(TlArena *a, const char *s) {
  return tl_arena_strndup(a, s, strlen(s));
}

char *tl_arena_printf(TlArena *a, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *p = tl_arena_alloc(a, (size_t)n + 1, 1);
  vsnprintf(p, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return p;
}
