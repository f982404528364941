/* gpux: elementwise kernels from expressions (include/gpux/kernel.h).
 *
 * An expression becomes a dialect program per combination of argument dtypes (and of which
 * inputs are scalars), generated at the first call with that combination, compiled through
 * gpux__program_get (memory and disk caches) and kept in the handle. The program has two
 * kernels: gpux_ew_<name>_c for operands that are all contiguous with the outputs' shape
 * (element i of every operand is at its offset + i) and gpux_ew_<name>_n for everything
 * else (the merged dims of gpux__plan_nd_multi, decomposed per element). Array operands
 * are passed as the base of their storage buffer and addressed with offsets in elements,
 * so OpenCL needs no sub-buffer (no base-address alignment rule) for views; the launch
 * parameters (n, shape, strides, offsets) are one struct passed by value, then come the
 * scalar inputs. Both kernels call one element function gpux_ew_<name>_el that holds the
 * body, so a compile error in the body is reported once. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "../../kernels/common/gpux_half.h" /* scalars of the half dtypes */

#define EW_MAX_PARAMS 16  /* inputs + outputs */
#define EW_IDENT_MAX 63   /* parameter and placeholder names */
#define EW_NAME_MAX 100   /* the kernel name: gpux_ew_<name>_c fits a kdecl name */
#define EW_BLOCK 256u
#define EW_EPT 4 /* elements per work-item of the contiguous kernel on GPUs */
#define EW_MAX_GRID 2147483647ull /* CUDA's grid x limit; OpenCL sizes fit it too */
#define EW_SCALAR 0x80u           /* key bit: the input is a scalar */

typedef struct ew_param {
  char name[EW_IDENT_MAX + 1];
  int dtype; /* a fixed gpux_dtype, or -1: placeholder ph */
  int ph;
  int is_out;
} ew_param;

/* One generated program: the dtype combination it was built for and its kernels. */
typedef struct ew_variant {
  unsigned char key[EW_MAX_PARAMS]; /* per parameter: dtype | EW_SCALAR */
  struct gpux_program *prog;
  struct gpux_kernel *kc, *kn;
} ew_variant;

struct gpux_elementwise {
  struct gpux_context *ctx;
  char *name, *body, *preamble; /* preamble: NULL when none */
  int nin, nparams;
  ew_param params[EW_MAX_PARAMS];
  int nph;
  char ph[EW_MAX_PARAMS][EW_IDENT_MAX + 1];
  ew_variant *vars;
  int nvars, capvars;
  pthread_mutex_t lock; /* vars: threads may call one kernel at once */
  char *src; /* the text gpux_elementwise_source returned last */
};

/* The arguments of one call as bound to the parameters. */
typedef struct ew_binding {
  unsigned char key[EW_MAX_PARAMS];
  gpux_dtype dtype[EW_MAX_PARAMS];    /* each parameter's dtype */
  gpux_dtype ph_dtype[EW_MAX_PARAMS]; /* each placeholder's */
  int ph_from[EW_MAX_PARAMS];         /* the parameter that bound it */
} ew_binding;

/* The type an expression sees a value of dt as (float16 and bfloat16: float, their exact
 * values; the store rounds once to the dtype). */
static const char *ctype_of(gpux_dtype dt) {
  switch (dt) {
    case GPUX_FLOAT32: case GPUX_FLOAT16: case GPUX_BFLOAT16: return "float";
    case GPUX_FLOAT64: return "double";
    case GPUX_BOOL: return "gpux_u8";
    default: { /* the integers: the dialect's gpux_<dt> (gpux_i32, gpux_u8, ...) */
#define EW_CTYPE(dt, bytes, name, kind, digits, exp) [GPUX_KDT_##dt] = "gpux_" #dt,
      static const char *const k_int[GPUX_DTYPE_COUNT] = {GPUX_DTYPES(EW_CTYPE)};
#undef EW_CTYPE
      return k_int[dt];
    }
  }
}
static int is_half(int dt) { return dt == GPUX_FLOAT16 || dt == GPUX_BFLOAT16; }
/* the type of dt's elements in memory */
static const char *mtype_of(gpux_dtype dt) { return is_half(dt) ? "gpux__hbits" : ctype_of(dt); }
/* How a kernel reads an array element of dt as the value the expression sees (load) and
 * writes one from it (store): "<open>element or value<close>". The half dtypes go through
 * the conversions of their bits (gpux__h2f_<f16|bf16>, gpux__f2h_<f16|bf16>: ops preludes;
 * the store rounds once to the dtype); other dtypes are as they are. */
typedef struct ew_conv {
  char open[24];
  const char *close;
} ew_conv;
static ew_conv conv_of(gpux_dtype dt, int store) {
  ew_conv c = {"", ""};
  if (is_half(dt)) {
    snprintf(c.open, sizeof c.open, "gpux__%s_%s(", store ? "f2h" : "h2f",
             dt == GPUX_FLOAT16 ? "f16" : "bf16");
    c.close = ")";
  }
  return c;
}

/* ---------------------------------------------------------------- names */

/* Words a parameter or placeholder cannot be: C11, C++ (NVRTC compiles C++) and OpenCL C
 * keywords and built-in type names. */
static const char *const reserved_words[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while", "_Alignas", "_Alignof", "_Atomic",
    "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn", "_Static_assert",
    "_Thread_local", "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "bool",
    "catch", "char16_t", "char32_t", "class", "compl", "constexpr", "const_cast", "decltype",
    "delete", "dynamic_cast", "explicit", "export", "false", "friend", "mutable", "namespace",
    "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private",
    "protected", "public", "reinterpret_cast", "static_assert", "static_cast", "template",
    "this", "thread_local", "throw", "true", "try", "typeid", "typename", "using", "virtual",
    "wchar_t", "xor", "xor_eq", "global", "local", "constant", "kernel", "read_only",
    "write_only", "read_write", "uniform", "pipe", "half", "uchar", "ushort", "uint", "ulong",
    "size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "image1d_t", "image2d_t", "image3d_t",
    "sampler_t", "event_t", "complex", "imaginary"};

static int is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static int is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

static int is_identifier(const char *s) {
  if (!is_ident_start(*s)) return 0;
  while (*++s)
    if (!is_ident_char(*s)) return 0;
  return 1;
}

/* OpenCL vector types (float4, uchar16, ...). */
static int is_vector_type(const char *s) {
  static const char *const scal[] = {"char", "uchar", "short", "ushort", "int", "uint", "long",
                                     "ulong", "float", "double", "half", "bool"};
  for (size_t i = 0; i < sizeof scal / sizeof scal[0]; i++) {
    size_t n = strlen(scal[i]);
    if (strncmp(s, scal[i], n) == 0) {
      const char *w = s + n;
      if (!strcmp(w, "2") || !strcmp(w, "3") || !strcmp(w, "4") || !strcmp(w, "8") ||
          !strcmp(w, "16"))
        return 1;
    }
  }
  return 0;
}

/* NULL when s can name a variable or placeholder of generated code, else why not. */
static const char *ident_problem(const char *s) {
  if (!is_identifier(s)) return "is not a C identifier";
  if (!strncmp(s, "gpux_", 5) || !strncmp(s, "GPUX_", 5) || !strncmp(s, "__", 2))
    return "is reserved (gpux_, GPUX_ and __ prefixes belong to the generated code)";
  for (size_t i = 0; i < sizeof reserved_words / sizeof reserved_words[0]; i++)
    if (!strcmp(s, reserved_words[i])) return "is a keyword or built-in type of C, C++ or OpenCL C";
  if (is_vector_type(s)) return "is an OpenCL vector type";
  return NULL;
}

static int dtype_by_name(const char *s) {
  for (int i = 0; i < GPUX_DTYPE_COUNT; i++)
    if (!strcmp(s, gpux_dtype_name((gpux_dtype)i))) return i;
  return -1;
}

/* ---------------------------------------------------------------- parameter lists */

/* Copies the identifier at *p (advancing it) into out; 0 when there is none or it is
 * longer than EW_IDENT_MAX. */
static int read_ident(const char **p, char *out) {
  const char *s = *p;
  if (!is_ident_start(*s)) return 0;
  size_t n = 0;
  while (is_ident_char(s[n])) n++;
  if (n > EW_IDENT_MAX) return 0;
  memcpy(out, s, n);
  out[n] = '\0';
  *p = s + n;
  return 1;
}

static const char *skip_ws(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  return p;
}

/* Appends the "type name" items of list to ew->params. */
static gpux_status parse_params(struct gpux_elementwise *ew, const char *list, int is_out) {
  const char *what = is_out ? "out_params" : "in_params";
  const char *p = skip_ws(list);
  if (!*p) return GPUX_SUCCESS; /* no parameters */
  for (;;) {
    char type[EW_IDENT_MAX + 1], name[EW_IDENT_MAX + 1];
    const char *item = p;
    if (!read_ident(&p, type) || (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') ||
        (p = skip_ws(p), !read_ident(&p, name)))
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                             "gpux_elementwise_create: %s \"%s\": expected \"type name\" at \"%.40s\" "
                             "(a type is a dtype name or a placeholder identifier; names have "
                             "at most %d characters)",
                             what, list, item, EW_IDENT_MAX);
    p = skip_ws(p);
    if (*p != ',' && *p)
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                             "gpux_elementwise_create: %s \"%s\": unexpected \"%.40s\" after "
                             "parameter %s (items are \"type name\", separated by commas)",
                             what, list, p, name);
    if (ew->nparams == EW_MAX_PARAMS)
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                             "gpux_elementwise_create: more than %d parameters (inputs and "
                             "outputs together)",
                             EW_MAX_PARAMS);
    const char *why = ident_problem(name);
    if (why)
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                             "gpux_elementwise_create: %s: parameter name \"%s\" %s", what,
                             name, why);
    ew_param *prm = &ew->params[ew->nparams];
    strcpy(prm->name, name);
    prm->is_out = is_out;
    prm->ph = -1;
    prm->dtype = dtype_by_name(type);
    if (prm->dtype < 0) { /* a placeholder */
      why = ident_problem(type);
      if (why)
        return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                               "gpux_elementwise_create: %s: type \"%s\" of parameter %s is "
                               "not a dtype name (float32, float64, int32, int64, uint8, bool), "
                               "and as a placeholder it %s",
                               what, type, name, why);
      int k = 0;
      while (k < ew->nph && strcmp(ew->ph[k], type)) k++;
      if (k == ew->nph) strcpy(ew->ph[ew->nph++], type);
      prm->ph = k;
    }
    ew->nparams++;
    if (!*p) return GPUX_SUCCESS;
    p = skip_ws(p + 1);
  }
}

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

GPUX_API void gpux_elementwise_release(gpux_elementwise_t ew) {
  if (!ew) return;
  for (int i = 0; i < ew->nvars; i++) {
    gpux_kernel_release(ew->vars[i].kc);
    gpux_kernel_release(ew->vars[i].kn);
    gpux_program_release(ew->vars[i].prog);
  }
  free(ew->vars);
  pthread_mutex_destroy(&ew->lock);
  free(ew->name);
  free(ew->body);
  free(ew->preamble);
  free(ew->src);
  struct gpux_context *ctx = ew->ctx;
  free(ew);
  gpux__context_unref(ctx);
}

#define NEED(x, what) \
  if (!(x)) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: %s is NULL", __func__, what)

GPUX_API gpux_status gpux_elementwise_create(gpux_elementwise_t *out, gpux_context_t ctx,
                                             const char *in_params, const char *out_params,
                                             const char *body, const char *name,
                                             const char *preamble) {
  GPUX__API_FN();
  NEED(out, "out");
  *out = NULL;
  NEED(ctx, "ctx");
  if (!in_params)
    return gpux__set_error(GPUX_ERROR_NULL_POINTER,
                           "gpux_elementwise_create: in_params is NULL (pass \"\" for no inputs)");
  NEED(out_params, "out_params");
  NEED(body, "body");
  NEED(name, "name");
  if (!*skip_ws(body))
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "gpux_elementwise_create: body is empty");
  if (!is_identifier(name) || strlen(name) > EW_NAME_MAX)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "gpux_elementwise_create: name \"%s\" is not a C identifier of at "
                           "most %d characters",
                           name, EW_NAME_MAX);
  gpux_status st = GPUX_SUCCESS;
  struct gpux_elementwise *ew = calloc(1, sizeof *ew);
  if (!ew) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  ew->ctx = ctx;
  pthread_mutex_init(&ew->lock, NULL);
  gpux__context_retain(ctx); /* gpux_elementwise_release drops it, also below */
  st = parse_params(ew, in_params, 0);
  if (st != GPUX_SUCCESS) goto done;
  ew->nin = ew->nparams;
  st = parse_params(ew, out_params, 1);
  if (st != GPUX_SUCCESS) goto done;
  if (ew->nparams == ew->nin) {
    st = gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                         "gpux_elementwise_create: out_params \"%s\" declares no output",
                         out_params);
    goto done;
  }
  for (int i = 0; i < ew->nparams; i++) {
    for (int j = 0; j < i; j++)
      if (!strcmp(ew->params[i].name, ew->params[j].name)) {
        st = gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                             "gpux_elementwise_create: parameter name %s is declared twice",
                             ew->params[i].name);
        goto done;
      }
    for (int k = 0; k < ew->nph; k++)
      if (!strcmp(ew->params[i].name, ew->ph[k])) {
        st = gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                             "gpux_elementwise_create: %s names both a parameter and a "
                             "placeholder type",
                             ew->ph[k]);
        goto done;
      }
  }
  ew->name = dup_str(name);
  ew->body = dup_str(body);
  ew->preamble = preamble ? dup_str(preamble) : NULL;
  if (!ew->name || !ew->body || (preamble && !ew->preamble)) {
    st = gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    goto done;
  }
done:
  if (st != GPUX_SUCCESS) {
    gpux_elementwise_release(ew);
    return st;
  }
  *out = ew;
  return GPUX_SUCCESS;
}

/* ---------------------------------------------------------------- binding arguments */

/* Checks the kinds and dtypes of args against ew's parameters and binds the placeholders. */
static gpux_status bind(const struct gpux_elementwise *ew, int nargs, const gpux_arg *args,
                        ew_binding *b, const char *fn) {
  if (nargs != ew->nparams) {
    char list[EW_MAX_PARAMS * (EW_IDENT_MAX + 12)]; /* fits every name and separator */
    size_t pos = 0;
    for (int i = 0; i < ew->nparams; i++)
      pos += (size_t)snprintf(list + pos, sizeof list - pos, "%s%s",
                              i == 0 ? "" : i == ew->nin ? "; outputs " : ", ", ew->params[i].name);
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "%s: elementwise kernel %s takes %d arguments (%s%s), got %d", fn,
                           ew->name, ew->nparams, ew->nin ? "inputs " : "outputs ", list, nargs);
  }
  if (!args) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: args is NULL", fn);
  for (int i = 0; i < nargs; i++) {
    const ew_param *prm = &ew->params[i];
    const gpux_arg *a = &args[i];
    if (a->kind == GPUX_ARG_ARRAY) {
      if (!a->v.array)
        return gpux__set_error(GPUX_ERROR_NULL_POINTER, "%s: %s: the array of %s is NULL", fn,
                               ew->name, prm->name);
      if (a->v.array->ctx != ew->ctx)
        return gpux__set_error(GPUX_ERROR_CONTEXT_MISMATCH,
                               "%s: %s: the array of %s belongs to another context than the "
                               "elementwise kernel",
                               fn, ew->name, prm->name);
    } else if (a->kind == GPUX_ARG_SCALAR && !prm->is_out) {
      GPUX__CHECK(gpux__check_dtype(a->dtype, prm->name));
    } else {
      return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                             "%s: %s: argument %d (%s, an %s) must be %s", fn, ew->name, i,
                             prm->name, prm->is_out ? "output" : "input",
                             prm->is_out ? "an array" : "an array or a scalar");
    }
  }
  /* a placeholder takes the dtype of its first array argument, else of its first scalar */
  for (int k = 0; k < ew->nph; k++) b->ph_from[k] = -1;
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < nargs; i++) {
      const ew_param *prm = &ew->params[i];
      int is_array = args[i].kind == GPUX_ARG_ARRAY;
      if (prm->ph < 0 || b->ph_from[prm->ph] >= 0 || is_array != (pass == 0)) continue;
      b->ph_from[prm->ph] = i;
      b->ph_dtype[prm->ph] = is_array ? args[i].v.array->dtype : args[i].dtype;
    }
  for (int i = 0; i < nargs; i++) {
    const ew_param *prm = &ew->params[i];
    gpux_dtype dt = prm->ph >= 0 ? b->ph_dtype[prm->ph] : (gpux_dtype)prm->dtype;
    b->dtype[i] = dt;
    if (gpux__dt_is_complex(dt)) /* the expression dialect has no complex type yet */
      return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE,
                             "%s: %s: %s is %s, which elementwise kernels do not take yet", fn,
                             ew->name, prm->name, gpux_dtype_name(dt));
    if (args[i].kind == GPUX_ARG_ARRAY) {
      gpux_dtype got = args[i].v.array->dtype;
      if (got != dt) {
        if (prm->ph >= 0)
          return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH,
                                 "%s: %s: %s is a %s array, but its type %s is %s (bound by %s)",
                                 fn, ew->name, prm->name, gpux_dtype_name(got), ew->ph[prm->ph],
                                 gpux_dtype_name(dt), ew->params[b->ph_from[prm->ph]].name);
        return gpux__set_error(GPUX_ERROR_DTYPE_MISMATCH,
                               "%s: %s: %s is declared %s, got a %s array (cast it first)", fn,
                               ew->name, prm->name, gpux_dtype_name(dt), gpux_dtype_name(got));
      }
      b->key[i] = (unsigned char)dt;
    } else {
      b->key[i] = (unsigned char)(dt | EW_SCALAR);
    }
  }
  for (int i = nargs; i < EW_MAX_PARAMS; i++) b->key[i] = 0xffu;
  return GPUX_SUCCESS;
}

/* A scalar argument in dtype dt, with gpux_array_cast's rules (float sources: the
 * conversion of a double; integer sources convert exactly, int to int wraps). */
static gpux__scalar scalar_to(const gpux_arg *a, gpux_dtype dt) {
  if (a->dtype == GPUX_FLOAT32) return gpux__scalar_from_double(a->v.f32, dt);
  if (a->dtype == GPUX_FLOAT64) return gpux__scalar_from_double(a->v.f64, dt);
  if (is_half(a->dtype)) { /* the exact value, then dt's rounding */
    const uint32_t fb = a->dtype == GPUX_FLOAT16 ? gpux_f16_to_f32(a->v.bits16)
                                                 : gpux_bf16_to_f32(a->v.bits16);
    float f;
    memcpy(&f, &fb, sizeof f);
    return gpux__scalar_from_double((double)f, dt);
  }
  /* an integer or bool: its value as 64-bit two's complement bits (sign-extended) */
  uint64_t u = gpux__int_load(&a->v, a->dtype);
  if (a->dtype == GPUX_BOOL) u = u != 0;
  const int neg = gpux__dt_info[a->dtype].kind == 'i' && (int64_t)u < 0;
  gpux__scalar s;
  memset(&s, 0, sizeof s);
  switch (dt) {
    case GPUX_FLOAT32: s.f32 = neg ? (float)(int64_t)u : (float)u; break; /* one rounding */
    case GPUX_FLOAT64: s.f64 = neg ? (double)(int64_t)u : (double)u; break;
    case GPUX_FLOAT16: /* exact in float up to 2^24; anything larger is inf in float16 */
      s = gpux__scalar_from_double(neg ? (double)(int64_t)u : (double)u, dt);
      break;
    case GPUX_BFLOAT16: /* one rounding, as casts do */
      s.bf16 = neg ? gpux_i64_to_bf16((int64_t)u) : gpux_u64_to_bf16(u);
      break;
    case GPUX_BOOL: s.b8 = u != 0; break;
    default: gpux__int_store(&s, dt, u); /* integer to integer wraps: the low bits */
  }
  return s;
}

/* ---------------------------------------------------------------- source generation */

typedef struct sbuf {
  char *p;
  size_t len, cap;
  int oom;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void sb_printf(sbuf *b, const char *fmt, ...) {
  if (b->oom) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
      b->oom = 1;
      return;
    }
    if (b->p && b->len + (size_t)n < b->cap) {
      b->len += (size_t)n;
      return;
    }
    size_t cap = b->cap ? b->cap : 4096;
    while (cap <= b->len + (size_t)n) cap *= 2;
    char *q = realloc(b->p, cap);
    if (!q) {
      b->oom = 1;
      return;
    }
    b->p = q;
    b->cap = cap;
  }
}

/* The element function both kernels call, so that the body (and a compile error in it)
 * appears once: the placeholders as typedefs, the inputs as parameters of their names, the
 * outputs as locals (zero until the body assigns them) stored through pointers after the
 * body (bool normalised to 0 or 1). */
static void emit_element_fn(sbuf *sb, const struct gpux_elementwise *ew, const ew_binding *b) {
  sb_printf(sb, "GPUX_FUNC void gpux_ew_%s_el(", ew->name);
  for (int i = 0; i < ew->nparams; i++) {
    const ew_param *prm = &ew->params[i];
    sb_printf(sb, prm->is_out ? "%s%s *gpux_out_%s" : "%sconst %s %s", i ? ", " : "",
              ctype_of(b->dtype[i]), prm->name);
  }
  sb_printf(sb, ") {\n");
  for (int k = 0; k < ew->nph; k++)
    sb_printf(sb, "  typedef %s %s;\n", ctype_of(b->ph_dtype[k]), ew->ph[k]);
  for (int i = ew->nin; i < ew->nparams; i++) {
    const ew_param *prm = &ew->params[i];
    sb_printf(sb, "  %s %s = 0;\n", prm->ph >= 0 ? ew->ph[prm->ph] : ctype_of(b->dtype[i]),
              prm->name);
  }
  sb_printf(sb, "  {\n%s\n;\n  }\n", ew->body);
  for (int i = ew->nin; i < ew->nparams; i++) {
    const char *pn = ew->params[i].name;
    if (b->dtype[i] == GPUX_BOOL)
      sb_printf(sb, "  *gpux_out_%s = (gpux_u8)(%s != 0);\n", pn, pn);
    else
      sb_printf(sb, "  *gpux_out_%s = %s;\n", pn, pn);
  }
  sb_printf(sb, "}\n\n");
}

/* A kernel's element: array operand k is at gpux_a_<name>[gpux_o<k>]. */
static void emit_element(sbuf *sb, const struct gpux_elementwise *ew, const ew_binding *b) {
  for (int i = ew->nin; i < ew->nparams; i++)
    sb_printf(sb, "  %s gpux_v_%s = 0;\n", ctype_of(b->dtype[i]), ew->params[i].name);
  sb_printf(sb, "  gpux_ew_%s_el(", ew->name);
  int k = 0;
  for (int i = 0; i < ew->nparams; i++) {
    const char *pn = ew->params[i].name;
    const char *sep = i ? ", " : "";
    const ew_conv c = conv_of(b->dtype[i], 0);
    if (b->key[i] & EW_SCALAR)
      sb_printf(sb, "%s%s", sep, pn);
    else if (ew->params[i].is_out)
      sb_printf(sb, "%s&gpux_v_%s", sep, pn);
    else
      sb_printf(sb, "%s%sgpux_a_%s[gpux_o%d]%s", sep, c.open, pn, k, c.close);
    k += !(b->key[i] & EW_SCALAR);
  }
  sb_printf(sb, ");\n");
  k = 0;
  for (int i = 0; i < ew->nparams; i++) {
    if (b->key[i] & EW_SCALAR) continue;
    const char *pn = ew->params[i].name;
    const ew_conv c = conv_of(b->dtype[i], 1);
    if (ew->params[i].is_out)
      sb_printf(sb, "  gpux_a_%s[gpux_o%d] = %sgpux_v_%s%s;\n", pn, k, c.open, pn, c.close);
    k++;
  }
}

static void emit_signature(sbuf *sb, const struct gpux_elementwise *ew, const ew_binding *b,
                           char layout, int exact) {
  sb_printf(sb, "GPUX_KERNEL gpux_ew_%s_%c(", ew->name, layout);
  for (int i = 0; i < ew->nparams; i++) {
    if (b->key[i] & EW_SCALAR) continue;
    const ew_param *prm = &ew->params[i];
    sb_printf(sb, "GPUX_GLOBAL %s%s *gpux_a_%s, ", prm->is_out ? "" : "const ",
              mtype_of(b->dtype[i]), prm->name);
  }
  sb_printf(sb, "const gpux_ew_%s_%cp gpux_p", ew->name, layout);
  for (int i = 0; i < ew->nparams; i++)
    if (b->key[i] & EW_SCALAR)
      sb_printf(sb, ", const %s %s", ctype_of(b->dtype[i]), ew->params[i].name);
  if (layout == 'c' && exact) /* every work-item is an element: no bounds test */
    sb_printf(sb, ") {\n  const gpux_i64 gpux_i = gpux_p.base + GPUX_GLOBAL_ID(0);\n");
  else if (layout == 'c') /* EW_EPT elements per work-item: emit_c_multi */
    sb_printf(sb, ") {\n");
  else
    sb_printf(sb, ") {\n  const gpux_i64 gpux_i = GPUX_GLOBAL_ID(0);\n"
                  "  if (gpux_i >= gpux_p.n) return;\n");
}

/* The contiguous kernel's body on GPUs: EW_EPT elements per work-item, a block's elements
 * apart by the block size (coalesced), all loads issued before the first store, so a
 * work-item keeps EW_EPT loads in flight (an output may be an input's view, but then at the
 * same element, so loading first is the same as element by element). */
static void emit_c_multi(sbuf *sb, const struct gpux_elementwise *ew, const ew_binding *b) {
  sb_printf(sb, "  const gpux_i64 gpux_t = GPUX_GROUP_ID(0) * (GPUX_LOCAL_SIZE(0) * %d) + "
                "GPUX_LOCAL_ID(0);\n", EW_EPT);
  for (int j = 0; j < EW_EPT; j++)
    sb_printf(sb, "  const gpux_i64 gpux_i%d = gpux_t + %d * GPUX_LOCAL_SIZE(0);\n"
                  "  const int gpux_in%d = gpux_i%d < gpux_p.n;\n", j, j, j, j);
  for (int j = 0; j < EW_EPT; j++) {
    int k = 0;
    for (int i = 0; i < ew->nparams; i++) {
      if (b->key[i] & EW_SCALAR) continue;
      const char *pn = ew->params[i].name, *ct = ctype_of(b->dtype[i]);
      const ew_conv c = conv_of(b->dtype[i], 0);
      if (!ew->params[i].is_out)
        sb_printf(sb, "  const %s gpux_l%d_%s = gpux_in%d ? %sgpux_a_%s[gpux_p.offset[%d] + "
                      "gpux_i%d]%s : (%s)0;\n", ct, j, pn, j, c.open, pn, k, j, c.close, ct);
      k++;
    }
  }
  for (int j = 0; j < EW_EPT; j++) {
    for (int i = ew->nin; i < ew->nparams; i++)
      sb_printf(sb, "  %s gpux_v%d_%s = 0;\n", ctype_of(b->dtype[i]), j, ew->params[i].name);
    /* only in range: the body must not see the made-up zeros (an integer 0 / 0 traps on
     * CPUs) */
    sb_printf(sb, "  if (gpux_in%d) gpux_ew_%s_el(", j, ew->name);
    for (int i = 0; i < ew->nparams; i++) {
      const char *pn = ew->params[i].name, *sep = i ? ", " : "";
      if (b->key[i] & EW_SCALAR)
        sb_printf(sb, "%s%s", sep, pn);
      else if (ew->params[i].is_out)
        sb_printf(sb, "%s&gpux_v%d_%s", sep, j, pn);
      else
        sb_printf(sb, "%sgpux_l%d_%s", sep, j, pn);
    }
    sb_printf(sb, ");\n");
  }
  for (int j = 0; j < EW_EPT; j++) {
    sb_printf(sb, "  if (gpux_in%d) {\n", j);
    int k = 0;
    for (int i = 0; i < ew->nparams; i++) {
      if (b->key[i] & EW_SCALAR) continue;
      const char *pn = ew->params[i].name;
      const ew_conv c = conv_of(b->dtype[i], 1);
      if (ew->params[i].is_out)
        sb_printf(sb, "    gpux_a_%s[gpux_p.offset[%d] + gpux_i%d] = %sgpux_v%d_%s%s;\n", pn, k,
                  j, c.open, j, pn, c.close);
      k++;
    }
    sb_printf(sb, "  }\n");
  }
}

static int count_arrays(const struct gpux_elementwise *ew, const ew_binding *b) {
  int n = 0;
  for (int i = 0; i < ew->nparams; i++) n += !(b->key[i] & EW_SCALAR);
  return n;
}

/* The contiguous kernel's form: the CPU form (exact launches) on CPU devices, else the GPU
 * form (EW_EPT elements per work-item); GPUX_OPENCL_EW=gpu|cpu forces one on OpenCL, so the
 * tests run both on pocl. The variants cache is per binding: a form changes with the
 * device only, which an ew object never does (the variable is read once per process). */
static int cpu_form(const struct gpux_elementwise *ew) {
  static int forced = -2; /* -2 unread, -1 none, 0 gpu, 1 cpu */
  if (forced == -2) {
    const char *v = getenv("GPUX_OPENCL_EW");
    forced = v && !strcmp(v, "gpu") ? 0 : v && !strcmp(v, "cpu") ? 1 : -1;
  }
  if (forced >= 0 && ew->ctx->kind == GPUX_BACKEND_OPENCL) return forced;
  return !ew->ctx->info.is_gpu;
}

/* The program text for binding b (malloc'd), or NULL when out of memory. */
static char *generate(const struct gpux_elementwise *ew, const ew_binding *b) {
  sbuf sb = {0};
  int na = count_arrays(ew, b);
  /* CPU devices (pocl) vectorize across work-items, and a bounds test costs several times
   * the speed there (kernels/cl/gpux_cl_prelude.h, GPUX_EXACT_LAUNCH): the contiguous kernel
   * runs exactly n work-items instead, as whole work-groups plus a tail launch (base) */
  int exact = cpu_form(ew);
  sb_printf(&sb, "/* gpux elementwise kernel %s:", ew->name);
  for (int i = 0; i < ew->nparams; i++)
    sb_printf(&sb, "%s %s %s%s", i == 0 ? "" : i == ew->nin ? " ->" : ",", ew->params[i].name,
              gpux_dtype_name(b->dtype[i]), (b->key[i] & EW_SCALAR) ? " scalar" : "");
  sb_printf(&sb, " */\n");
  if (ew->preamble) sb_printf(&sb, "%s\n", ew->preamble);
  /* launch parameters: 64-bit fields only, so host and device layouts agree */
  sb_printf(&sb,
            "typedef struct gpux_ew_%s_cp {\n  gpux_i64 n;\n  gpux_i64 base;\n"
            "  gpux_i64 offset[%d];\n} gpux_ew_%s_cp;\n",
            ew->name, na, ew->name);
  sb_printf(&sb,
            "typedef struct gpux_ew_%s_np {\n  gpux_i64 n;\n  gpux_i64 ndim;\n"
            "  gpux_i64 shape[%d];\n  gpux_i64 stride[%d][%d];\n  gpux_i64 offset[%d];\n"
            "} gpux_ew_%s_np;\n\n",
            ew->name, GPUX_MAX_DIMS, na, GPUX_MAX_DIMS, na, ew->name);
  emit_element_fn(&sb, ew, b);

  /* contiguous: element i of every operand at its offset + i */
  emit_signature(&sb, ew, b, 'c', exact);
  if (exact) {
    for (int k = 0; k < na; k++)
      sb_printf(&sb, "  const gpux_i64 gpux_o%d = gpux_p.offset[%d] + gpux_i;\n", k, k);
    emit_element(&sb, ew, b);
  } else {
    emit_c_multi(&sb, ew, b);
  }
  sb_printf(&sb, "}\n\n");

  /* general: row-major decomposition of i over the merged dims (32-bit division when the
   * index fits, much faster on GPUs) */
  emit_signature(&sb, ew, b, 'n', exact);
  for (int k = 0; k < na; k++)
    sb_printf(&sb, "  gpux_i64 gpux_o%d = gpux_p.offset[%d];\n", k, k);
  for (int wide = 0; wide < 2; wide++) {
    const char *ut = wide ? "gpux_i64" : "gpux_u32";
    sb_printf(&sb,
              wide ? "  } else {\n" : "  if (gpux_p.n <= (gpux_i64)0xffffffff) {\n");
    sb_printf(&sb,
              "    %s gpux_r = (%s)gpux_i;\n"
              "    for (int gpux_d = %d; gpux_d >= 0; --gpux_d)\n"
              "      if (gpux_d < gpux_p.ndim) {\n"
              "        const %s gpux_s = (%s)gpux_p.shape[gpux_d], gpux_q = gpux_r / gpux_s;\n"
              "        const gpux_i64 gpux_x = (gpux_i64)(gpux_r - gpux_q * gpux_s);\n"
              "        gpux_r = gpux_q;\n",
              ut, ut, GPUX_MAX_DIMS - 1, ut, ut);
    for (int k = 0; k < na; k++)
      sb_printf(&sb, "        gpux_o%d += gpux_x * gpux_p.stride[%d][gpux_d];\n", k, k);
    sb_printf(&sb, "      }\n");
  }
  sb_printf(&sb, "  }\n");
  emit_element(&sb, ew, b);
  sb_printf(&sb, "}\n");
  if (sb.oom) {
    free(sb.p);
    return NULL;
  }
  return sb.p;
}

GPUX_API gpux_status gpux_elementwise_source(const char **src, gpux_elementwise_t ew, int nargs,
                                             const gpux_arg *args) {
  GPUX__API_FN();
  NEED(src, "src");
  *src = NULL;
  NEED(ew, "ew");
  ew_binding b;
  GPUX__CHECK(bind(ew, nargs, args, &b, __func__));
  char *text = generate(ew, &b);
  if (!text) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  free(ew->src);
  ew->src = text;
  *src = text;
  return GPUX_SUCCESS;
}

/* ---------------------------------------------------------------- calls */

/* The program and kernels for binding b: from ew's table, else generated and built. */
static gpux_status get_variant(ew_variant **out, struct gpux_elementwise *ew,
                               const ew_binding *b) {
  for (int i = 0; i < ew->nvars; i++)
    if (!memcmp(ew->vars[i].key, b->key, sizeof b->key)) {
      *out = &ew->vars[i];
      return GPUX_SUCCESS;
    }
  if (ew->nvars == ew->capvars) {
    int cap = ew->capvars ? 2 * ew->capvars : 4;
    ew_variant *v = realloc(ew->vars, (size_t)cap * sizeof *v);
    if (!v) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    ew->vars = v;
    ew->capvars = cap;
  }
  ew_variant var;
  memset(&var, 0, sizeof var);
  memcpy(var.key, b->key, sizeof var.key);
  char kname[2][EW_NAME_MAX + 16];
  gpux_status st = GPUX_SUCCESS;
  char *text = generate(ew, b);
  if (!text) {
    st = gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    goto done;
  }
  st = gpux__program_get(&var.prog, ew->ctx, GPUX__LANG_DIALECT, text, NULL,
                         GPUX__PROG_NO_CONTRACT | GPUX__PROG_OPS);
  if (st == GPUX_ERROR_KERNEL_BUILD) {
    /* say which kernel and where the line numbers count; the log follows */
    char *log = dup_str(gpux__error_body());
    if (log)
      gpux__set_error(st,
                      "elementwise kernel %s: the generated source does not compile (line "
                      "numbers count in the text gpux_elementwise_source returns): %s",
                      ew->name, log);
    free(log);
  }
  if (st != GPUX_SUCCESS) goto done;
  snprintf(kname[0], sizeof kname[0], "gpux_ew_%s_c", ew->name);
  snprintf(kname[1], sizeof kname[1], "gpux_ew_%s_n", ew->name);
  st = gpux_kernel_create(&var.kc, var.prog, kname[0]);
  if (st != GPUX_SUCCESS) goto done;
  st = gpux_kernel_create(&var.kn, var.prog, kname[1]);
done:
  free(text);
  if (st != GPUX_SUCCESS) {
    gpux_kernel_release(var.kc);
    gpux_kernel_release(var.kn);
    gpux_program_release(var.prog);
    return st;
  }
  ew->vars[ew->nvars] = var;
  *out = &ew->vars[ew->nvars++];
  return GPUX_SUCCESS;
}

/* Shapes and overlaps of the arrays (bind checked kinds, contexts and dtypes). */
static gpux_status check_arrays(const struct gpux_elementwise *ew, const gpux_arg *args,
                                const struct gpux_array *out0, const char *fn) {
  char s1[256], s2[256];
  for (int i = 0; i < ew->nparams; i++) {
    if (args[i].kind != GPUX_ARG_ARRAY) continue;
    const struct gpux_array *a = args[i].v.array;
    const char *pn = ew->params[i].name;
    if (ew->params[i].is_out ? !gpux__same_shape(a, out0) : !gpux__broadcasts_to(a, out0))
      return gpux__set_error(GPUX_ERROR_SHAPE_MISMATCH,
                             ew->params[i].is_out
                                 ? "%s: %s: output %s has shape %s, the first output %s"
                                 : "%s: %s: input %s of shape %s does not broadcast to the "
                                   "outputs' shape %s",
                             fn, ew->name, pn, gpux__shape_str(s1, sizeof s1, a->ndim, a->shape),
                             gpux__shape_str(s2, sizeof s2, out0->ndim, out0->shape));
    if (!ew->params[i].is_out) continue;
    /* an output may be the very view of an input (in place), never a partial overlap; two
     * outputs may not share an element (which write would win is not defined) */
    for (int j = 0; j < ew->nparams; j++) {
      if (j == i || args[j].kind != GPUX_ARG_ARRAY) continue;
      const struct gpux_array *o = args[j].v.array;
      if (ew->params[j].is_out ? (j < i && gpux__overlaps(a, o)) : gpux__partial_overlap(a, o))
        return gpux__set_error(GPUX_ERROR_OVERLAP, "%s: %s: output %s %s %s %s", fn, ew->name,
                               pn, ew->params[j].is_out ? "overlaps" : "partially overlaps",
                               ew->params[j].is_out ? "output" : "input", ew->params[j].name);
    }
  }
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_elementwise_call(gpux_elementwise_t ew, int nargs,
                                           const gpux_arg *args) {
  GPUX__API_FN();
  NEED(ew, "ew");
  ew_binding b;
  GPUX__CHECK(bind(ew, nargs, args, &b, __func__));
  const struct gpux_array *out0 = args[ew->nin].v.array;
  GPUX__CHECK(check_arrays(ew, args, out0, __func__));
  if (out0->size == 0) return GPUX_SUCCESS;
  if (!ew->ctx->info.fp64)
    for (int i = 0; i < nargs; i++)
      if (b.dtype[i] == GPUX_FLOAT64)
        return gpux__set_error(GPUX_ERROR_UNSUPPORTED_DTYPE,
                               "%s: %s: %s is float64, which the device does not support",
                               __func__, ew->name, ew->params[i].name);
  ew_variant *var = NULL, v;
  pthread_mutex_lock(&ew->lock);
  gpux_status gs = get_variant(&var, ew, &b);
  if (gs == GPUX_SUCCESS) v = *var; /* vars may move once the lock is gone */
  pthread_mutex_unlock(&ew->lock);
  GPUX__CHECK(gs);

  /* array operands in parameter order, then the launch parameters, then the scalars */
  const struct gpux_array *ops[EW_MAX_PARAMS];
  gpux__uarg ua[EW_MAX_PARAMS + 1];
  int na = 0, nu = 0, contiguous = 1;
  struct gpux_stream *q = gpux__stream_cur(out0->ctx);
  for (int i = 0; i < nargs; i++) {
    if (args[i].kind != GPUX_ARG_ARRAY) continue;
    const struct gpux_array *a = args[i].v.array;
    gpux__stream_use(q, a);
    ops[na++] = a;
    contiguous &= a->size == out0->size && gpux__is_contiguous(a);
    memset(&ua[nu], 0, sizeof ua[nu]);
    ua[nu].kind = GPUX_ARG_ARRAY;
    ua[nu].buf = a->st->blk.buf; /* size > 0: every operand has memory */
    nu++;
  }
  /* n, ndim, shape[8], stride[na][8], offset[na] (layout n); n, offset[na] (layout c) */
  int64_t p[2 + GPUX_MAX_DIMS + EW_MAX_PARAMS * (GPUX_MAX_DIMS + 1)];
  size_t plen;
  memset(p, 0, sizeof p);
  if (contiguous) {
    p[0] = out0->size;
    p[1] = 0; /* base */
    for (int k = 0; k < na; k++) p[2 + k] = ops[k]->offset;
    plen = (size_t)(2 + na);
  } else {
    int nd;
    int64_t(*stride)[GPUX_MAX_DIMS] = (int64_t(*)[GPUX_MAX_DIMS])(p + 2 + GPUX_MAX_DIMS);
    p[0] = gpux__plan_nd_multi(na, ops, out0->ndim, out0->shape, &nd, p + 2, stride,
                               p + 2 + GPUX_MAX_DIMS + na * GPUX_MAX_DIMS);
    p[1] = nd;
    plen = (size_t)(2 + GPUX_MAX_DIMS + na * (GPUX_MAX_DIMS + 1));
  }
  memset(&ua[nu], 0, sizeof ua[nu]);
  ua[nu].kind = GPUX__UARG_BYTES;
  ua[nu].size = (uint32_t)(plen * sizeof p[0]);
  ua[nu].value = (uint64_t)(uintptr_t)p;
  nu++;
  for (int i = 0; i < nargs; i++) {
    if (args[i].kind != GPUX_ARG_SCALAR) continue;
    gpux__scalar s = scalar_to(&args[i], b.dtype[i]);
    memset(&ua[nu], 0, sizeof ua[nu]);
    ua[nu].kind = GPUX_ARG_SCALAR;
    if (is_half(b.dtype[i])) { /* passed as the float the expression sees: the half value */
      const uint32_t f = b.dtype[i] == GPUX_FLOAT16 ? gpux_f16_to_f32(s.f16) : gpux_bf16_to_f32(s.bf16);
      ua[nu].size = 4;
      memcpy(&ua[nu].value, &f, 4);
    } else {
      ua[nu].size = (uint32_t)gpux_dtype_size(b.dtype[i]);
      memcpy(&ua[nu].value, &s, ua[nu].size);
    }
    nu++;
  }

  struct gpux_kernel *k = contiguous ? v.kc : v.kn;
  uint32_t block[3] = {EW_BLOCK, 1, 1};
  if (k->max_block > 0 && k->max_block < EW_BLOCK) block[0] = k->max_block;
  uint64_t n = (uint64_t)out0->size;
  int exact = cpu_form(ew);
  uint64_t per_block = (uint64_t)block[0] * (contiguous && !exact ? EW_EPT : 1);
  uint64_t grid[3] = {(n + per_block - 1) / per_block, 1, 1};
  if (grid[0] > EW_MAX_GRID)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "%s: %s: %llu elements need %llu blocks of %u, over the device's "
                           "limit of %llu",
                           __func__, ew->name, (unsigned long long)n,
                           (unsigned long long)grid[0], block[0], EW_MAX_GRID);
  if (contiguous && exact) { /* whole work-groups, then the tail */
    uint64_t whole = n / block[0], tail = n % block[0];
    grid[0] = whole;
    GPUX__CHECK(gpux__kernel_launch_uargs(k, nu, ua, grid, block)); /* grid 0: nothing */
    if (tail == 0) return GPUX_SUCCESS;
    p[1] = (int64_t)(whole * block[0]);
    grid[0] = tail;
    block[0] = 1; /* one work-group size for every tail length: pocl compiles one variant */
  }
  return gpux__kernel_launch_uargs(k, nu, ua, grid, block);
}
