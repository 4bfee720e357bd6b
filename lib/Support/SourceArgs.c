// The command-line options of every command that compiles a source file:
// --call, -D and --target, read the same way by tlc and the FILE modes of
// explain-partition and explain-pipeline. Each caller reports a refusal in
// its own voice (tlc: exit status 2 with "(see tlc --help)"; the tools:
// their name before the message).
#include <string.h>

#include "tlc/Support.h"

// The value of `--name VALUE` or `--name=VALUE` (for -D also `-DVALUE`),
// advancing *i past a separate value; NULL when there is none.
static const char *value_of(int argc, char **argv, int *i, size_t name_len) {
  const char *arg = argv[*i];
  if (arg[name_len] == '=' && arg[1] == '-') return arg + name_len + 1;
  if (arg[name_len] && arg[1] == 'D') return arg + name_len; // -DNAME=VALUE
  return *i + 1 < argc ? argv[++*i] : NULL;
}

// True when arg is `name`, `name=...` or (for -D) `-D...`.
static bool is_option(const char *arg, const char *name) {
  size_t n = strlen(name);
  if (strncmp(arg, name, n) != 0) return false;
  return arg[n] == '\0' || arg[n] == '=' || strcmp(name, "-D") == 0;
}

// NAME of NAME=VALUE is a Python identifier.
static bool define_names_identifier(const char *v) {
  size_t n = strcspn(v, "=");
  bool ident = n > 0 && !(v[0] >= '0' && v[0] <= '9');
  for (size_t j = 0; j < n; j++)
    ident = ident && (v[j] == '_' || (v[j] >= 'a' && v[j] <= 'z') || (v[j] >= 'A' && v[j] <= 'Z') ||
                      (v[j] >= '0' && v[j] <= '9'));
  return ident;
}

static TlArgResult take_call(TlSourceArgs *s, const char *v, char *err, size_t errlen) {
  if (!v || !*v) {
    tl_set_err(err, errlen, "--call needs a call such as 'matmul(1024, 1024, 1024)'");
    return TL_ARG_BAD;
  }
  if (s->ncalls == TL_MAX_SOURCE_ARGS) {
    tl_set_err(err, errlen, "more than %d --call options", TL_MAX_SOURCE_ARGS);
    return TL_ARG_BAD;
  }
  s->calls[s->ncalls++] = v;
  return TL_ARG_TAKEN;
}

static TlArgResult take_define(TlSourceArgs *s, const char *v, char *err, size_t errlen) {
  if (!v || !*v) {
    tl_set_err(err, errlen, "-D needs NAME=VALUE");
    return TL_ARG_BAD;
  }
  if (!define_names_identifier(v)) {
    tl_set_err(err, errlen, "-D '%s': expected NAME=VALUE with NAME a Python identifier", v);
    return TL_ARG_BAD;
  }
  if (s->ndefines == TL_MAX_SOURCE_ARGS) {
    tl_set_err(err, errlen, "more than %d -D options", TL_MAX_SOURCE_ARGS);
    return TL_ARG_BAD;
  }
  s->defines[s->ndefines++] = v;
  return TL_ARG_TAKEN;
}

TlArgResult tl_source_arg(int argc, char **argv, int *i, TlSourceArgs *s, char *err,
                          size_t errlen) {
  const char *arg = argv[*i];
  if (is_option(arg, "--call")) return take_call(s, value_of(argc, argv, i, 6), err, errlen);
  if (is_option(arg, "-D")) return take_define(s, value_of(argc, argv, i, 2), err, errlen);
  if (!is_option(arg, "--target")) return TL_ARG_OTHER;
  const char *v = value_of(argc, argv, i, 8);
  if (!v || !*v) {
    // Which names exist is the target reader's to say (targets/*.yaml).
    tl_set_err(err, errlen, "--target needs a name such as sm_90a");
    return TL_ARG_BAD;
  }
  s->target = v;
  return TL_ARG_TAKEN;
}
