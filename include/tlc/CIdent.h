// C identifiers: the one place that decides how a name from the source
// (a kernel, a buffer, a scalar) is spelled in the emitted C, C++ and CUDA.
// The CUDA emitter, the launcher, the --header file and the --harness
// reference all print names through it, so one name reads the same in
// every output and no emitter can forget a keyword another one knows.
//
// A name that would clash (a C11/C++20 keyword, a CUDA builtin, a macro or
// global of the headers the .cu includes, a name tlc itself emits) is
// renamed, never rejected:
//   * names that start with tlc's prefixes (tl..., cuda..., cublas..., in
//     any case), with "__" or with '_' and an upper-case letter get a 'u' in
//     front:                   tl_x -> utl_x, __x -> u__x;
//   * the other clashing names get a trailing '_':
//                              namespace -> namespace_, threadIdx -> threadIdx_.
// The renaming is injective (two different names never meet): a name that
// already looks renamed (utl_x, namespace_) is escaped again (uutl_x,
// namespace__). Names ending in _kernel and _ref (the suffixes of tlc's
// kernel symbols) and, for buffers, in _<digits> (the form of tlc's numbered
// variables) are renamed too, so no user name meets a name tlc derives from
// another one.
#ifndef TLC_CIDENT_H
#define TLC_CIDENT_H

#include "tlc/Support.h"

// Where a name lives: buffers and parameters in a kernel's or launcher's
// scope (LOCAL), kernel names as C symbols at file scope (GLOBAL). They
// differ in one rule: a local name ending in _<digits> could meet a numbered
// variable, a kernel name cannot, so "gemm_1000" stays a kernel's name.
typedef enum { TL_CIDENT_LOCAL, TL_CIDENT_GLOBAL } TlCIdentScope;

// True when the name cannot be printed as it is (tl_cident renames it).
bool tl_cident_clashes(const char *name, TlCIdentScope scope);

// The name as the emitted code spells it: the name itself when it does not
// clash, else the renamed form above (in the arena).
const char *tl_cident(TlArena *a, const char *name, TlCIdentScope scope);

// The spelling of the id-th numbered variable named `name` ("i" -> "i_3"):
// the prefix rule only, since "_<id>" already keeps it off every keyword.
const char *tl_cident_numbered(TlArena *a, const char *name, int id);

#endif
