// Source files: read whole into the arena, with the checks that keep the
// lexer simple (a regular file, bounded size). A NUL byte inside the text is
// kept: the lexer reports it with its line and column.
#include "tlc/Support.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

enum { MAX_SOURCE_BYTES = 16 * 1024 * 1024 };

static TlSource *finish(TlArena *a, const char *name, char *text, size_t len) {
  TlSource *s = TL_NEW(a, TlSource);
  s->name = tl_arena_strdup(a, name);
  s->text = text;
  s->len = len;
  return s;
}

TlSource *tl_source_read(TlArena *a, const char *path, char *err, size_t errlen) {
  bool is_stdin = strcmp(path, "-") == 0;
  FILE *f = stdin;
  if (!is_stdin) {
    struct stat st;
    if (stat(path, &st) != 0) {
      snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
      return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
      snprintf(err, errlen, "'%s' is a directory, not a .tl file", path);
      return NULL;
    }
    f = fopen(path, "rb");
    if (!f) {
      snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
      return NULL;
    }
  }
  size_t cap = 4096, len = 0;
  char *text = tl_arena_alloc(a, cap, 1);
  for (;;) {
    if (len + 1 >= cap) {
      if (cap > MAX_SOURCE_BYTES) {
        snprintf(err, errlen, "'%s' is larger than the %d MiB source limit",
                 is_stdin ? "<stdin>" : path, MAX_SOURCE_BYTES / (1024 * 1024));
        if (!is_stdin)
          fclose(f);
        return NULL;
      }
      char *bigger = tl_arena_alloc(a, cap * 2, 1);
      memcpy(bigger, text, len);
      text = bigger;
      cap *= 2;
    }
    size_t n = fread(text + len, 1, cap - len - 1, f);
    len += n;
    if (n == 0)
      break;
  }
  bool failed = ferror(f);
  if (!is_stdin)
    fclose(f);
  if (failed) {
    snprintf(err, errlen, "cannot read '%s'", is_stdin ? "<stdin>" : path);
    return NULL;
  }
  text[len] = '\0';
  return finish(a, is_stdin ? "<stdin>" : path, text, len);
}

TlSource *tl_source_from_string(TlArena *a, const char *name, const char *text) {
  size_t len = strlen(text);
  return finish(a, name, tl_arena_strndup(a, text, len), len);
}
