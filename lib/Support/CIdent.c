// C identifiers: which source names clash with C11, C++20, CUDA, the
// headers a .cu file includes, or tlc's own names, and how they are renamed
// (include/tlc/CIdent.h states the rules and why the renaming is injective).
//
// The lists below are the single source of truth: the CUDA emitter, the
// launcher, the --header file and the --harness reference all call
// tl_cident, and Sema renames kernel names with it. A name only has to be
// listed once to be safe everywhere; a word listed needlessly costs nothing
// but a trailing '_'.
#include "tlc/CIdent.h"

#include <stdlib.h>
#include <string.h>

// Words that are reserved in some output as they are spelled.
static const char *const words[] = {
    // C11 keywords (the _Xxx ones fall under the prefix rule)
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
    "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict",
    "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
    "unsigned", "void", "volatile", "while",
    // C11 header macros (stdbool, stdalign, stdnoreturn, complex)
    "bool", "true", "false", "noreturn", "complex", "imaginary",
    // C++20 keywords and alternative operator spellings (`xor` is a valid .tl
    // name but an operator token in C++)
    "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "catch", "char8_t", "char16_t",
    "char32_t", "class", "compl", "concept", "const_cast", "consteval", "constexpr", "constinit",
    "co_await", "co_return", "co_yield", "decltype", "delete", "dynamic_cast", "explicit", "export",
    "friend", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator",
    "or", "or_eq", "private", "protected", "public", "reinterpret_cast", "requires",
    "static_assert", "static_cast", "template", "this", "thread_local", "throw", "try", "typeid",
    "typename", "using", "virtual", "wchar_t", "xor", "xor_eq", "std",
    // CUDA: built-in variables and types, legacy keywords, and the types the
    // prelude defines
    "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "dim3", "texture", "surface",
    "half", "half2", "nv_bfloat16", "nv_bfloat162", "half_t", "bfloat16_t", "clock", "clock64",
    // stddef/stdint/stdio/time types
    "size_t", "ssize_t", "ptrdiff_t", "intptr_t", "uintptr_t", "intmax_t", "uintmax_t",
    "max_align_t", "nullptr_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
    "uint32_t", "uint64_t", "wint_t", "FILE", "div_t", "ldiv_t", "lldiv_t", "clock_t", "time_t",
    // object-like macros of the toolkit and C library headers without an
    // underscore (those with one fall under the upper-case rule); `linux` and
    // `unix` are defined to 1 by the host compiler in GNU mode
    "NULL", "EOF", "NAN", "SNAN", "SNANF", "SNANL", "SNANF32", "SNANF32X", "SNANF64", "SNANF64X",
    "INFINITY", "MAXFLOAT", "BUFSIZ", "NZERO", "NFDBITS", "CUDARTAPI", "WCONTINUED", "WEXITED",
    "WEXITSTATUS", "WIFCONTINUED", "WIFEXITED", "WIFSIGNALED", "WIFSTOPPED", "WNOHANG", "WNOWAIT",
    "WSTOPPED", "WSTOPSIG", "WTERMSIG", "WUNTRACED", "linux", "unix", "errno", "stdin", "stdout",
    "stderr", "environ", "assert", "assert_perror", "offsetof", "alloca", "isascii", "toascii",
    "issubnormal", "math_errhandling", "strdupa", "strndupa", "be16toh", "be32toh", "be64toh",
    "htobe16", "htobe32", "htobe64", "htole16", "htole32", "htole64", "le16toh", "le32toh",
    "le64toh",
    // C library and POSIX functions declared at file scope, which a kernel
    // name (a C symbol) must not redeclare
    "main", "exit", "abort", "atexit", "malloc", "calloc", "realloc", "free", "printf", "fprintf",
    "sprintf", "snprintf", "puts", "putchar", "fputs", "fflush", "fopen", "fclose", "fread",
    "fwrite", "remove", "rename", "tmpfile", "perror", "memcpy", "memmove", "memset", "memcmp",
    "memchr", "strlen", "strcmp", "strncmp", "strcpy", "strncpy", "strcat", "strchr", "strrchr",
    "strstr", "strdup", "strtol", "strtoul", "strtoll", "strtoull", "strtod", "strtof", "atoi",
    "atol", "atoll", "atof", "qsort", "bsearch", "rand", "srand", "random", "srandom", "getenv",
    "setenv", "system", "time", "sleep", "usleep", "read", "write", "open", "close", "select",
    "index", "rindex", "signal", "kill", "sync", "div", "ldiv", "lldiv", "abs", "labs", "llabs",
    // names the emitted code declares without tlc's prefix (the launcher's
    // stream, smem and err)
    "stream", "smem", "err",
    // device and math functions (the C99 float/long double forms, with a
    // trailing f or l, are matched by math_word)
    "min", "max", "umin", "umax", "llmin", "llmax", "ullmin", "ullmax", "saturate", "rsqrt",
    "rcbrt", "sinpi", "cospi", "sincos", "sincospi", "exp10", "erfinv", "erfcinv", "erfcx",
    "normcdf", "normcdfinv", "norm", "norm3d", "norm4d", "rnorm", "rnorm3d", "rnorm4d", "rhypot",
    "fdivide", "j0", "j1", "jn", "y0", "y1", "yn", "gamma", "drem", "finite", "significand",
    "scalb", "scalbln", "nexttoward", "isnan", "isinf", "isfinite", "isnormal", "signbit",
    "fpclassify", NULL};

// File-scope names of the headers a .cu includes (cuda_runtime.h,
// cuda_fp16.h, cuda_bf16.h, stdint.h and the C library they pull in) that a
// kernel name, which becomes an extern "C" function, must not redeclare,
// beyond the lists above. Measured, not guessed: every identifier of the
// preprocessed prelude was made a kernel name and compiled with nvcc
// (CUDA 13.0, glibc 2.36); these are the ones nvcc rejected. Sorted
// (strcmp order) for bsearch.
// clang-format off
static const char *const c_globals[] = {
    "CUuuid", "a64l", "aligned_alloc", "arc4random", "arc4random_buf", "arc4random_uniform",
    "asctime", "asctime_r", "asprintf", "bcmp", "bcopy", "blkcnt64_t", "blkcnt_t", "blksize_t",
    "bzero", "caddr_t", "canonicalize", "canonicalize_file_name", "canonicalizef",
    "canonicalizef32", "canonicalizef32x", "canonicalizef64", "canonicalizef64x", "canonicalizel",
    "clearenv", "clearerr", "clearerr_unlocked", "clock_adjtime", "clock_getcpuclockid",
    "clock_getres", "clock_gettime", "clock_nanosleep", "clock_settime", "clockid_t",
    "comparison_fn_t", "cookie_close_function_t", "cookie_io_functions_t", "cookie_read_function_t",
    "cookie_seek_function_t", "cookie_write_function_t", "ctermid", "ctime", "ctime_r", "cuserid",
    "cyl_bessel_i0", "cyl_bessel_i0f", "cyl_bessel_i1", "cyl_bessel_i1f", "daddl", "daddr_t",
    "daylight", "ddivl", "dev_t", "dfmal", "difftime", "dmull", "double4_16a", "double4_32a",
    "double_t", "dprintf", "drand48", "drand48_r", "dremf", "dreml", "dsqrtl", "dsubl", "dysize",
    "ecvt", "ecvt_r", "erand48", "erand48_r", "erfcinvf", "erfcxf", "erfinvf", "explicit_bzero",
    "f32addf32x", "f32addf64", "f32addf64x", "f32divf32x", "f32divf64", "f32divf64x", "f32fmaf32x",
    "f32fmaf64", "f32fmaf64x", "f32mulf32x", "f32mulf64", "f32mulf64x", "f32sqrtf32x", "f32sqrtf64",
    "f32sqrtf64x", "f32subf32x", "f32subf64", "f32subf64x", "f32xaddf64", "f32xaddf64x",
    "f32xdivf64", "f32xdivf64x", "f32xfmaf64", "f32xfmaf64x", "f32xmulf64", "f32xmulf64x",
    "f32xsqrtf64", "f32xsqrtf64x", "f32xsubf64", "f32xsubf64x", "f64addf64x", "f64divf64x",
    "f64fmaf64x", "f64mulf64x", "f64sqrtf64x", "f64subf64x", "fadd", "faddl", "fcloseall", "fcvt",
    "fcvt_r", "fd_mask", "fd_set", "fdiv", "fdividef", "fdivl", "fdopen", "feof", "feof_unlocked",
    "ferror", "ferror_unlocked", "fflush_unlocked", "ffma", "ffmal", "ffs", "ffsl", "ffsll",
    "fgetc", "fgetc_unlocked", "fgetpos", "fgetpos64", "fgets", "fgets_unlocked", "fileno",
    "fileno_unlocked", "finitef", "finitel", "float_t", "flockfile", "fmaximum", "fmaximum_mag",
    "fmaximum_mag_num", "fmaximum_mag_numf", "fmaximum_mag_numf32", "fmaximum_mag_numf32x",
    "fmaximum_mag_numf64", "fmaximum_mag_numf64x", "fmaximum_mag_numl", "fmaximum_magf",
    "fmaximum_magf32", "fmaximum_magf32x", "fmaximum_magf64", "fmaximum_magf64x", "fmaximum_magl",
    "fmaximum_num", "fmaximum_numf", "fmaximum_numf32", "fmaximum_numf32x", "fmaximum_numf64",
    "fmaximum_numf64x", "fmaximum_numl", "fmaximumf", "fmaximumf32", "fmaximumf32x", "fmaximumf64",
    "fmaximumf64x", "fmaximuml", "fmaxmag", "fmaxmagf", "fmaxmagf32", "fmaxmagf32x", "fmaxmagf64",
    "fmaxmagf64x", "fmaxmagl", "fmemopen", "fminimum", "fminimum_mag", "fminimum_mag_num",
    "fminimum_mag_numf", "fminimum_mag_numf32", "fminimum_mag_numf32x", "fminimum_mag_numf64",
    "fminimum_mag_numf64x", "fminimum_mag_numl", "fminimum_magf", "fminimum_magf32",
    "fminimum_magf32x", "fminimum_magf64", "fminimum_magf64x", "fminimum_magl", "fminimum_num",
    "fminimum_numf", "fminimum_numf32", "fminimum_numf32x", "fminimum_numf64", "fminimum_numf64x",
    "fminimum_numl", "fminimumf", "fminimumf32", "fminimumf32x", "fminimumf64", "fminimumf64x",
    "fminimuml", "fminmag", "fminmagf", "fminmagf32", "fminmagf32x", "fminmagf64", "fminmagf64x",
    "fminmagl", "fmul", "fmull", "fopen64", "fopencookie", "fpos64_t", "fpos_t", "fputc",
    "fputc_unlocked", "fputs_unlocked", "fread_unlocked", "freopen", "freopen64", "fromfp",
    "fromfpf", "fromfpf32", "fromfpf32x", "fromfpf64", "fromfpf64x", "fromfpl", "fromfpx",
    "fromfpxf", "fromfpxf32", "fromfpxf32x", "fromfpxf64", "fromfpxf64x", "fromfpxl",
    "fsblkcnt64_t", "fsblkcnt_t", "fscanf", "fseek", "fseeko", "fseeko64", "fsetpos", "fsetpos64",
    "fsfilcnt64_t", "fsfilcnt_t", "fsid_t", "fsqrt", "fsqrtl", "fsub", "fsubl", "ftell", "ftello",
    "ftello64", "ftrylockfile", "funlockfile", "fwrite_unlocked", "gammaf", "gammal", "gcvt",
    "getc", "getc_unlocked", "getchar", "getchar_unlocked", "getdate", "getdate_err", "getdate_r",
    "getdelim", "getline", "getloadavg", "getpayload", "getpayloadf", "getpayloadf32",
    "getpayloadf32x", "getpayloadf64", "getpayloadf64x", "getpayloadl", "getpt", "getsubopt",
    "getw", "gid_t", "gmtime", "gmtime_r", "grantpt", "id_t", "initstate", "initstate_r", "ino64_t",
    "ino_t", "int_fast16_t", "int_fast32_t", "int_fast64_t", "int_fast8_t", "int_least16_t",
    "int_least32_t", "int_least64_t", "int_least8_t", "isalnum", "isalnum_l", "isalpha",
    "isalpha_l", "isblank", "isblank_l", "iscntrl", "iscntrl_l", "isctype", "isdigit", "isdigit_l",
    "isgraph", "isgraph_l", "isinff", "isinfl", "islower", "islower_l", "isnanf", "isnanl",
    "isprint", "isprint_l", "ispunct", "ispunct_l", "isspace", "isspace_l", "isupper", "isupper_l",
    "isxdigit", "isxdigit_l", "j0f", "j0f32", "j0f32x", "j0f64", "j0f64x", "j0l", "j1f", "j1f32",
    "j1f32x", "j1f64", "j1f64x", "j1l", "jnf", "jnf32", "jnf32x", "jnf64", "jnf64x", "jnl",
    "jrand48", "jrand48_r", "key_t", "l64a", "lcong48", "lcong48_r", "lgamma_r", "lgammaf32_r",
    "lgammaf32x_r", "lgammaf64_r", "lgammaf64x_r", "lgammaf_r", "lgammal_r", "libraryPropertyType",
    "llogb", "llogbf", "llogbf32", "llogbf32x", "llogbf64", "llogbf64x", "llogbl", "locale_t",
    "localtime", "localtime_r", "loff_t", "long4_16a", "long4_32a", "longlong4_16a",
    "longlong4_32a", "lrand48", "lrand48_r", "mblen", "mbstowcs", "mbtowc", "memccpy", "memfrob",
    "memmem", "mempcpy", "mkdtemp", "mkostemp", "mkostemp64", "mkostemps", "mkostemps64", "mkstemp",
    "mkstemp64", "mkstemps", "mkstemps64", "mktemp", "mktime", "mode_t", "mrand48", "mrand48_r",
    "nanosleep", "nextdown", "nextdownf", "nextdownf32", "nextdownf32x", "nextdownf64",
    "nextdownf64x", "nextdownl", "nexttowardf", "nexttowardl", "nextup", "nextupf", "nextupf32",
    "nextupf32x", "nextupf64", "nextupf64x", "nextupl", "nlink_t", "norm3df", "norm4df", "normcdff",
    "normcdfinvf", "normf", "nrand48", "nrand48_r", "nv", "nv_half", "nv_half2", "obstack_printf",
    "obstack_vprintf", "off64_t", "off_t", "on_exit", "open_memstream", "pclose", "pid_t", "popen",
    "posix_memalign", "posix_openpt", "pselect", "pthread_attr_t", "pthread_barrier_t",
    "pthread_barrierattr_t", "pthread_cond_t", "pthread_condattr_t", "pthread_key_t",
    "pthread_mutex_t", "pthread_mutexattr_t", "pthread_once_t", "pthread_rwlock_t",
    "pthread_rwlockattr_t", "pthread_spinlock_t", "pthread_t", "ptsname", "ptsname_r", "putc",
    "putc_unlocked", "putchar_unlocked", "putenv", "putw", "qecvt", "qecvt_r", "qfcvt", "qfcvt_r",
    "qgcvt", "qsort_r", "quad_t", "quick_exit", "rand_r", "random_r", "rcbrtf", "reallocarray",
    "realpath", "register_t", "renameat", "renameat2", "rewind", "rhypotf", "rnorm3df", "rnorm4df",
    "rnormf", "roundeven", "roundevenf", "roundevenf32", "roundevenf32x", "roundevenf64",
    "roundevenf64x", "roundevenl", "rpmatch", "scalbf", "scalbl", "scalblnf", "scalblnf32",
    "scalblnf32x", "scalblnf64", "scalblnf64x", "scalblnl", "scanf", "secure_getenv", "seed48",
    "seed48_r", "setbuf", "setbuffer", "setlinebuf", "setpayload", "setpayloadf", "setpayloadf32",
    "setpayloadf32x", "setpayloadf64", "setpayloadf64x", "setpayloadl", "setpayloadsig",
    "setpayloadsigf", "setpayloadsigf32", "setpayloadsigf32x", "setpayloadsigf64",
    "setpayloadsigf64x", "setpayloadsigl", "setstate", "setstate_r", "setvbuf", "sigabbrev_np",
    "sigdescr_np", "signgam", "significandf", "significandl", "sigset_t", "sincospif", "srand48",
    "srand48_r", "srandom_r", "sscanf", "stpcpy", "stpncpy", "strcasecmp", "strcasecmp_l",
    "strcoll", "strcoll_l", "strcspn", "strerror", "strerror_l", "strerror_r", "strerrordesc_np",
    "strerrorname_np", "strfromd", "strfromf", "strfromf32", "strfromf32x", "strfromf64",
    "strfromf64x", "strfroml", "strfry", "strftime", "strftime_l", "strncasecmp", "strncasecmp_l",
    "strncat", "strndup", "strnlen", "strptime", "strptime_l", "strsep", "strsignal", "strspn",
    "strtod_l", "strtof32", "strtof32_l", "strtof32x", "strtof32x_l", "strtof64", "strtof64_l",
    "strtof64x", "strtof64x_l", "strtof_l", "strtok", "strtok_r", "strtol_l", "strtold",
    "strtold_l", "strtoll_l", "strtoq", "strtoul_l", "strtoull_l", "strtouq", "strverscmp",
    "strxfrm", "strxfrm_l", "suseconds_t", "tempnam", "timegm", "timelocal", "timer_create",
    "timer_delete", "timer_getoverrun", "timer_gettime", "timer_settime", "timer_t", "timespec_get",
    "timespec_getres", "timezone", "tmpfile64", "tmpnam", "tmpnam_r", "tolower", "tolower_l",
    "totalorder", "totalorderf", "totalorderf32", "totalorderf32x", "totalorderf64",
    "totalorderf64x", "totalorderl", "totalordermag", "totalordermagf", "totalordermagf32",
    "totalordermagf32x", "totalordermagf64", "totalordermagf64x", "totalordermagl", "toupper",
    "toupper_l", "tzname", "tzset", "u_char", "u_int", "u_int16_t", "u_int32_t", "u_int64_t",
    "u_int8_t", "u_long", "u_quad_t", "u_short", "ufromfp", "ufromfpf", "ufromfpf32", "ufromfpf32x",
    "ufromfpf64", "ufromfpf64x", "ufromfpl", "ufromfpx", "ufromfpxf", "ufromfpxf32", "ufromfpxf32x",
    "ufromfpxf64", "ufromfpxf64x", "ufromfpxl", "uid_t", "uint", "uint_fast16_t", "uint_fast32_t",
    "uint_fast64_t", "uint_fast8_t", "uint_least16_t", "uint_least32_t", "uint_least64_t",
    "uint_least8_t", "ulong", "ulong4_16a", "ulong4_32a", "ulonglong4_16a", "ulonglong4_32a",
    "ungetc", "unlockpt", "unsetenv", "useconds_t", "ushort", "va_list", "valloc", "vasprintf",
    "vdprintf", "vfprintf", "vfscanf", "vprintf", "vscanf", "vsnprintf", "vsprintf", "vsscanf",
    "wcstombs", "wctomb", "y0f", "y0f32", "y0f32x", "y0f64", "y0f64x", "y0l", "y1f", "y1f32",
    "y1f32x", "y1f64", "y1f64x", "y1l", "ynf", "ynf32", "ynf32x", "ynf64", "ynf64x", "ynl",
};
// clang-format on

// The C99 math functions: each is also declared with a trailing f (float),
// l (long double) and glibc's _FloatN suffixes (f32, f64x...).
static const char *const math[] = {
    "acos",      "acosh",     "asin",  "asinh",     "atan",   "atan2",  "atanh",   "cbrt",
    "ceil",      "copysign",  "cos",   "cosh",      "erf",    "erfc",   "exp",     "exp2",
    "expm1",     "fabs",      "fdim",  "floor",     "fma",    "fmax",   "fmin",    "fmod",
    "frexp",     "hypot",     "ilogb", "ldexp",     "lgamma", "llrint", "llround", "log",
    "log10",     "log1p",     "log2",  "logb",      "lrint",  "lround", "modf",    "nan",
    "nearbyint", "nextafter", "pow",   "remainder", "remquo", "rint",   "round",   "scalbn",
    "sin",       "sinh",      "sqrt",  "tan",       "tanh",   "tgamma", "trunc",   "exp10",
    "rsqrt",     "sincos",    "sinpi", "cospi",     NULL};

static bool in_list(const char *const *list, const char *s, size_t n) {
  for (int i = 0; list[i]; i++)
    if (strlen(list[i]) == n && memcmp(list[i], s, n) == 0) return true;
  return false;
}

// s[0..n) ends with suffix, and something comes before it.
static bool ends_with(const char *s, size_t n, const char *suffix) {
  size_t m = strlen(suffix);
  return n > m && memcmp(s + n - m, suffix, m) == 0;
}

static bool math_word(const char *s, size_t n) {
  static const char *const suffixes[] = {"",     "f",    "l",    "f16",   "f32", "f64",
                                         "f128", "f32x", "f64x", "f128x", NULL};
  for (int i = 0; suffixes[i]; i++)
    if (ends_with(s, n, suffixes[i]) && in_list(math, s, n - strlen(suffixes[i]))) return true;
  return false;
}

static int cmp_name(const void *key, const void *item) {
  return strcmp((const char *)key, *(const char *const *)item);
}

// Whether s[0..n) is one of c_globals.
static bool c_global(const char *s, size_t n) {
  char key[64];
  if (n >= sizeof key) return false; // longer than every entry
  memcpy(key, s, n);
  key[n] = '\0';
  return bsearch(key, c_globals, sizeof c_globals / sizeof *c_globals, sizeof *c_globals,
                 cmp_name) != NULL;
}

static bool is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}
static bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

static bool starts_nocase(const char *s, const char *prefix) {
  for (; *prefix; s++, prefix++)
    if ((*s | 0x20) != *prefix) return false;
  return true;
}

// CUDA's vector types (char1..4, uchar1..4, ..., double1..4) and their
// make_ functions.
static bool vector_type(const char *s, size_t n) {
  static const char *const bases[] = {"char",  "uchar",  "short", "ushort",   "int",
                                      "uint",  "long",   "ulong", "longlong", "ulonglong",
                                      "float", "double", NULL};
  if (n > 5 && memcmp(s, "make_", 5) == 0) return vector_type(s + 5, n - 5);
  return n > 1 && s[n - 1] >= '1' && s[n - 1] <= '4' && in_list(bases, s, n - 1);
}

// Upper-case names with an underscore are the C library's and the toolkit's
// macro namespace (INT_MAX, SIZE_MAX, EXIT_SUCCESS, CUDART_INF_FP16), like
// M_ followed by an upper-case letter (M_PI, M_PIf, M_LN2l).
static bool macro_like(const char *s, size_t n) {
  if (n > 2 && s[0] == 'M' && s[1] == '_' && (is_upper(s[2]) || is_digit(s[2]))) return true;
  bool underscore = false, upper = false;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '_')
      underscore = true;
    else if (is_upper(s[i]))
      upper = true;
    else if (!is_digit(s[i]))
      return false;
  }
  return underscore && upper;
}

// Names whose start belongs to someone else: tlc's emitted helpers and
// harness (tl_, tlh_, tlr_, TlhTensor, TLH_, TLC_), the CUDA runtime and
// cuBLAS (cudaMalloc, CUDA_R_16F, cublasCreate), and the implementation
// (__x, _X). Leading 'u's are skipped so that an escaped name is escaped
// again (utl_x -> uutl_x) instead of meeting the escape of tl_x.
static bool prefix_clash(const char *name) {
  const char *s = name;
  while (*s == 'u')
    s++;
  if (s[0] == '_' && (s[1] == '_' || is_upper(s[1]))) return true;
  return starts_nocase(s, "tl") || starts_nocase(s, "cuda") || starts_nocase(s, "cublas");
}

// Names that clash as a whole word. Trailing '_'s are ignored so that
// namespace_ (which could be the rename of namespace) is renamed too.
static bool word_clash(const char *name, TlCIdentScope scope) {
  size_t n = strlen(name);
  while (n > 0 && name[n - 1] == '_')
    n--;
  if (n == 0) return false;
  if (in_list(words, name, n) || math_word(name, n) || vector_type(name, n) || macro_like(name, n))
    return true;
  // tlc's derived names: the kernel of a launcher (NAME_kernel, which the
  // launcher calls with the parameters in scope) and the harness reference
  // (NAME_ref).
  if (ends_with(name, n, "_kernel") || ends_with(name, n, "_ref")) return true;
  if (scope == TL_CIDENT_GLOBAL) return c_global(name, n);
  // Numbered variables (x_3, tl_cident_numbered) share a kernel's scope with
  // its buffers; kernels, at file scope, never meet them.
  size_t d = n;
  while (d > 0 && is_digit(name[d - 1]))
    d--;
  return d < n && d > 0 && name[d - 1] == '_';
}

bool tl_cident_clashes(const char *name, TlCIdentScope scope) {
  return prefix_clash(name) || word_clash(name, scope);
}

const char *tl_cident(TlArena *a, const char *name, TlCIdentScope scope) {
  bool prefix = prefix_clash(name), word = word_clash(name, scope);
  if (!prefix && !word) return name;
  return tl_arena_printf(a, "%s%s%s", prefix ? "u" : "", name, word ? "_" : "");
}

const char *tl_cident_numbered(TlArena *a, const char *name, int id) {
  return tl_arena_printf(a, "%s%s_%d", prefix_clash(name) ? "u" : "", name, id);
}
