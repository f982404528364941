/* gpux: user programs and kernels (include/gpux/kernel.h).
 *
 * The front end reads the kernel declarations out of the source itself (a small scanner,
 * not a compiler: comments, strings and preprocessor lines are skipped), so that arguments
 * can be checked by type before a launch, as the backends' drivers cannot always tell
 * (OpenCL reports no parameter types without -cl-kernel-arg-info, CUDA only sizes). A
 * declaration the scanner does not understand only loses those checks. Built programs are
 * kept per context (the memory cache); the backends keep the disk cache. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define SET_ERROR gpux__set_error

/* ================================================================ source scanner */

typedef struct tok {
  const char *p;
  int len;
} tok;

/* Copy of src with comments, string and character literals and preprocessor lines blanked
 * (newlines kept), so that the tokens that remain are declarations and code. */
static char *clean_source(const char *src, size_t n) {
  char *o = malloc(n + 1);
  if (!o) return NULL;
  size_t i = 0;
  int line_start = 1;
  while (i < n) {
    char c = src[i];
    if (line_start && (c == ' ' || c == '\t')) {
      o[i] = c;
      i++;
      continue;
    }
    if (line_start && c == '#') { /* directive, with its continuation lines */
      while (i < n && src[i] != '\n') {
        if (src[i] == '\\' && i + 1 < n && src[i + 1] == '\n') {
          o[i] = ' ';
          o[i + 1] = '\n';
          i += 2;
          continue;
        }
        o[i++] = ' ';
      }
      continue;
    }
    line_start = 0;
    if (c == '/' && i + 1 < n && src[i + 1] == '/') {
      while (i < n && src[i] != '\n') o[i++] = ' ';
      continue;
    }
    if (c == '/' && i + 1 < n && src[i + 1] == '*') {
      o[i] = o[i + 1] = ' ';
      i += 2;
      while (i < n && !(src[i] == '*' && i + 1 < n && src[i + 1] == '/')) {
        o[i] = src[i] == '\n' ? '\n' : ' ';
        i++;
      }
      if (i < n) {
        o[i] = o[i + 1] = ' ';
        i += 2;
      }
      continue;
    }
    if (c == '"' || c == '\'') {
      o[i++] = c;
      while (i < n && src[i] != c && src[i] != '\n') {
        if (src[i] == '\\' && i + 1 < n) o[i++] = ' ';
        o[i++] = ' ';
      }
      if (i < n) {
        o[i] = src[i];
        i++;
      }
      continue;
    }
    if (c == '\n') line_start = 1;
    o[i++] = c;
  }
  o[n] = '\0';
  return o;
}

static int is_id0(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_id(char c) { return is_id0(c) || (c >= '0' && c <= '9'); }

/* Splits into identifiers/numbers and single punctuation characters ("::" is one token). */
static tok *tokenize(const char *s, int *count) {
  int cap = 256, n = 0;
  tok *t = malloc(sizeof *t * (size_t)cap);
  if (!t) return NULL;
  for (const char *p = s; *p;) {
    if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v') {
      p++;
      continue;
    }
    const char *q = p;
    if (is_id(*p)) {
      while (is_id(*q)) q++;
    } else if (p[0] == ':' && p[1] == ':') {
      q += 2;
    } else {
      q++;
    }
    if (n == cap) {
      cap *= 2;
      tok *nt = realloc(t, sizeof *t * (size_t)cap);
      if (!nt) {
        free(t);
        return NULL;
      }
      t = nt;
    }
    t[n].p = p;
    t[n].len = (int)(q - p);
    n++;
    p = q;
  }
  *count = n;
  return t;
}

static int tok_is(tok t, const char *w) {
  return t.len == (int)strlen(w) && memcmp(t.p, w, (size_t)t.len) == 0;
}

/* Qualifiers that do not change what an argument must be. */
static int is_qualifier(tok t) {
  static const char *const q[] = {"const", "volatile", "restrict", "__restrict__", "__restrict",
                                  "GPUX_RESTRICT", "__global", "global", "GPUX_GLOBAL",
                                  "__constant", "constant", "__private", "private",
                                  "__read_only", "__write_only", "read_only", "write_only",
                                  "__read_write", "read_write", "__grid_constant__", NULL};
  for (int i = 0; q[i]; i++)
    if (tok_is(t, q[i])) return 1;
  return 0;
}

/* C type spelling -> dtype class: a gpux_dtype, -1 any (void), -3 not a type gpux knows. */
static int type_class(const char *name, int *size) {
  static const struct {
    const char *n;
    int dt, size;
  } map[] = {
      {"float", GPUX_FLOAT32, 4}, {"gpux_f32", GPUX_FLOAT32, 4}, {"double", GPUX_FLOAT64, 8},
      {"gpux_f64", GPUX_FLOAT64, 8}, {"half", GPUX_FLOAT16, 2}, {"__half", GPUX_FLOAT16, 2},
      {"__nv_bfloat16", GPUX_BFLOAT16, 2}, {"bfloat16", GPUX_BFLOAT16, 2},
      {"__bf16", GPUX_BFLOAT16, 2}, {"int", GPUX_INT32, 4}, {"signed", GPUX_INT32, 4},
      {"signed int", GPUX_INT32, 4}, {"unsigned", GPUX_UINT32, 4},
      {"unsigned int", GPUX_UINT32, 4}, {"uint", GPUX_UINT32, 4}, {"int32_t", GPUX_INT32, 4},
      {"uint32_t", GPUX_UINT32, 4}, {"gpux_i32", GPUX_INT32, 4}, {"gpux_u32", GPUX_UINT32, 4},
      {"long", GPUX_INT64, 8}, {"long int", GPUX_INT64, 8}, {"signed long", GPUX_INT64, 8},
      {"unsigned long", GPUX_UINT64, 8}, {"unsigned long int", GPUX_UINT64, 8},
      {"ulong", GPUX_UINT64, 8}, {"long long", GPUX_INT64, 8}, {"long long int", GPUX_INT64, 8},
      {"signed long long", GPUX_INT64, 8}, {"unsigned long long", GPUX_UINT64, 8},
      {"unsigned long long int", GPUX_UINT64, 8}, {"int64_t", GPUX_INT64, 8},
      {"uint64_t", GPUX_UINT64, 8}, {"gpux_i64", GPUX_INT64, 8}, {"gpux_u64", GPUX_UINT64, 8},
      {"size_t", GPUX_UINT64, 8}, {"ptrdiff_t", GPUX_INT64, 8}, {"char", GPUX_INT8, 1},
      {"signed char", GPUX_INT8, 1}, {"unsigned char", GPUX_UINT8, 1},
      {"uchar", GPUX_UINT8, 1}, {"uint8_t", GPUX_UINT8, 1}, {"int8_t", GPUX_INT8, 1},
      {"gpux_u8", GPUX_UINT8, 1}, {"gpux_i8", GPUX_INT8, 1}, {"bool", GPUX_UINT8, 1},
      {"short", GPUX_INT16, 2}, {"short int", GPUX_INT16, 2}, {"signed short", GPUX_INT16, 2},
      {"unsigned short", GPUX_UINT16, 2}, {"ushort", GPUX_UINT16, 2},
      {"int16_t", GPUX_INT16, 2}, {"uint16_t", GPUX_UINT16, 2}, {"gpux_i16", GPUX_INT16, 2},
      {"gpux_u16", GPUX_UINT16, 2}, {"void", -1, 0}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strcmp(name, map[i].n) == 0) {
      *size = map[i].size;
      return map[i].dt;
    }
  *size = 0;
  return -3;
}

/* Joins the type words of t[a..b) (qualifiers dropped) with single spaces. 0 if any token
 * is not a plain word (templates, scopes, ...). */
static int type_words(const tok *t, int a, int b, char *out, size_t cap) {
  size_t len = 0;
  out[0] = '\0';
  for (int i = a; i < b; i++) {
    if (is_qualifier(t[i])) continue;
    if (!is_id0(t[i].p[0])) return 0;
    if (len + (size_t)t[i].len + 2 > cap) return 0;
    if (len) out[len++] = ' ';
    memcpy(out + len, t[i].p, (size_t)t[i].len);
    len += (size_t)t[i].len;
    out[len] = '\0';
  }
  return len > 0;
}

/* One parameter from tokens t[a..b). */
static void parse_param(const tok *t, int a, int b, gpux__kparam *p) {
  memset(p, 0, sizeof *p);
  p->dtype = -1;
  size_t tl = 0;
  for (int i = a; i < b && tl + (size_t)t[i].len + 2 < sizeof p->text; i++) {
    char prev = tl ? p->text[tl - 1] : '\0';
    if (tl && ((is_id(t[i].p[0]) && (is_id(prev) || prev == ')' || prev == '*')) ||
               (t[i].p[0] == '*' && is_id(prev))))
      p->text[tl++] = ' ';
    memcpy(p->text + tl, t[i].p, (size_t)t[i].len);
    tl += (size_t)t[i].len;
  }
  p->text[tl] = '\0';
  char words[96];
  int size = 0;
  /* GPUX_LOCAL_PTR(T) name */
  for (int i = a; i < b; i++)
    if (tok_is(t[i], "GPUX_LOCAL_PTR")) {
      int close = i + 2;
      while (close < b && !tok_is(t[close], ")")) close++;
      p->kind = GPUX_ARG_LOCAL;
      int dt = (i + 1 < b && tok_is(t[i + 1], "(") && type_words(t, i + 2, close, words, sizeof words))
                   ? type_class(words, &size)
                   : -3;
      p->dtype = dt >= 0 ? dt : -1;
      return;
    }
  int star = -1, local = 0, bracket = 0;
  for (int i = a; i < b; i++) {
    if (tok_is(t[i], "*") && star < 0) star = i;
    if (tok_is(t[i], "[")) bracket = 1;
    if (tok_is(t[i], "__local") || tok_is(t[i], "local")) local = 1;
    if (tok_is(t[i], "<") || tok_is(t[i], "::") || tok_is(t[i], "&") || tok_is(t[i], "struct") ||
        tok_is(t[i], "union") || tok_is(t[i], "enum"))
      return; /* templates, references, aggregates: not understood (kind 0) */
  }
  if (star >= 0 || bracket) {
    int end = star >= 0 ? star : b - 1;
    p->kind = local ? GPUX_ARG_LOCAL : GPUX_ARG_ARRAY;
    int dt = type_words(t, a, end, words, sizeof words) ? type_class(words, &size) : -3;
    p->dtype = dt >= 0 ? dt : -1; /* void or a type gpux does not know: any array */
    return;
  }
  /* scalar: the type words, then the name */
  if (b - a < 2 || !is_id0(t[b - 1].p[0])) return;
  int dt = type_words(t, a, b - 1, words, sizeof words) ? type_class(words, &size) : -3;
  if (dt == -3 || dt == -1) return; /* a typedef or struct gpux cannot see through */
  p->kind = GPUX_ARG_SCALAR;
  p->dtype = dt;
  p->size = size;
}

/* Kernel attributes whose parenthesised arguments sit between the qualifier and the name. */
static int is_attr(tok t) {
  return tok_is(t, "__launch_bounds__") || tok_is(t, "__attribute__") ||
         tok_is(t, "__maxnreg__") || tok_is(t, "__cluster_dims__") ||
         tok_is(t, "__declspec") || tok_is(t, "__noinline__") || tok_is(t, "__forceinline__");
}

/* The kernels a source declares: after GPUX_KERNEL (dialect), __global__ (CUDA) or
 * __kernel / kernel (OpenCL C), the first identifier followed by '(' that is not an
 * attribute is the name; its parenthesised list holds the parameters. Template kernels
 * are left out (their names need explicit instantiation). */
static gpux_status scan_kernels(const char *src, int lang, gpux__kdecl **out, int *count) {
  *out = NULL;
  *count = 0;
  size_t n = strlen(src);
  char *clean = clean_source(src, n);
  int nt = 0;
  tok *t = clean ? tokenize(clean, &nt) : NULL;
  gpux__kdecl *d = NULL;
  int nd = 0, cap = 0;
  gpux_status s = GPUX_SUCCESS;
  if (!t) {
    s = SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "gpux_program_create: scanning the source");
    goto done;
  }
  int stmt_start = 0; /* first token of the current declaration (for `template`) */
  for (int i = 0; i < nt; i++) {
    if (tok_is(t[i], ";") || tok_is(t[i], "}") || tok_is(t[i], "{")) stmt_start = i + 1;
    int hit = lang == GPUX__LANG_DIALECT ? tok_is(t[i], "GPUX_KERNEL")
              : lang == GPUX__LANG_CUDA  ? tok_is(t[i], "__global__")
                                         : (tok_is(t[i], "__kernel") || tok_is(t[i], "kernel"));
    if (!hit) continue;
    int templ = 0;
    for (int k = stmt_start; k < i; k++)
      if (tok_is(t[k], "template")) templ = 1;
    /* find the name */
    int j = i + 1, name = -1;
    while (j + 1 < nt) {
      if (is_id0(t[j].p[0]) && tok_is(t[j + 1], "(")) {
        if (is_attr(t[j])) { /* skip its balanced parentheses */
          int depth = 0;
          j++;
          do {
            if (tok_is(t[j], "(")) depth++;
            if (tok_is(t[j], ")")) depth--;
            j++;
          } while (j < nt && depth > 0);
          continue;
        }
        name = j;
        break;
      }
      if (tok_is(t[j], ";") || tok_is(t[j], "{")) break;
      j++;
    }
    if (name < 0 || templ) continue;
    /* the parameter list */
    int open = name + 1, close = open, depth = 0;
    for (; close < nt; close++) {
      if (tok_is(t[close], "(")) depth++;
      if (tok_is(t[close], ")") && --depth == 0) break;
    }
    if (close >= nt) continue;
    /* a declaration without a body (prototype) is skipped when the definition follows;
     * duplicates by name keep the first */
    int dup = 0;
    for (int k = 0; k < nd; k++)
      if ((int)strlen(d[k].name) == t[name].len && !memcmp(d[k].name, t[name].p, (size_t)t[name].len))
        dup = 1;
    if (dup || t[name].len >= (int)sizeof d[0].name) continue;
    if (nd == cap) {
      cap = cap ? cap * 2 : 8;
      gpux__kdecl *nd_ = realloc(d, sizeof *d * (size_t)cap);
      if (!nd_) {
        s = SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "gpux_program_create: scanning the source");
        goto done;
      }
      d = nd_;
    }
    gpux__kdecl *k = &d[nd++];
    memset(k, 0, sizeof *k);
    memcpy(k->name, t[name].p, (size_t)t[name].len);
    /* split at depth-0 commas ('<' '>' count as brackets inside a parameter list) */
    int np = 0, lo = open + 1;
    gpux__kparam tmp[GPUX__MAX_KPARAMS];
    int ok = 1, dp = 0;
    if (close == open + 1 || (close == open + 2 && tok_is(t[open + 1], "void"))) {
      np = 0;
    } else {
      for (int q = open + 1; q <= close; q++) {
        if (tok_is(t[q], "(") || tok_is(t[q], "<") || tok_is(t[q], "[")) dp++;
        if ((tok_is(t[q], ")") && q != close) || tok_is(t[q], ">") || tok_is(t[q], "]")) dp--;
        if ((tok_is(t[q], ",") && dp == 0) || q == close) {
          if (np == GPUX__MAX_KPARAMS || q == lo) {
            ok = 0;
            break;
          }
          parse_param(t, lo, q, &tmp[np++]);
          lo = q + 1;
        }
      }
    }
    if (!ok) {
      k->nparams = -1;
      continue;
    }
    k->nparams = np;
    if (np) {
      k->params = malloc(sizeof *k->params * (size_t)np);
      if (!k->params) {
        s = SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "gpux_program_create: scanning the source");
        goto done;
      }
      memcpy(k->params, tmp, sizeof *k->params * (size_t)np);
    }
  }
done:
  free(t);
  free(clean);
  if (s != GPUX_SUCCESS) {
    for (int k = 0; k < nd; k++) free(d[k].params);
    free(d);
    return s;
  }
  *out = d;
  *count = nd;
  return GPUX_SUCCESS;
}

/* 1 when a parameter's text reads as one parameter: type words and a name (or an array's
 * brackets) at the end, no parentheses but the dialect's own GPUX_LOCAL_PTR(T) type; a lone
 * word may be a macro of several. */
static int one_param(const char *text) {
  static const char local_ptr[] = "GPUX_LOCAL_PTR(";
  int words = 0;
  size_t n = strlen(text);
  if (n + 1 >= sizeof((gpux__kparam *)0)->text) return 0; /* cut short */
  const char *lp = strstr(text, local_ptr), *open = strchr(text, '(');
  if (lp && open == lp + sizeof local_ptr - 2) {
    /* GPUX_LOCAL_PTR(T) name: one type, whatever T is, when nothing but a name follows */
    const char *close = strchr(lp, ')');
    if (!close || strchr(close + 1, '(') || strchr(close + 1, ')')) return 0;
    text = close + 1;
    n = strlen(text);
    words = 1;
  }
  if (strchr(text, '(') || strstr(text, "..."))
    return 0; /* a call-like macro or a parameter pack */
  for (size_t i = 0; i < n; i++)
    if (is_id0(text[i]) && (i == 0 || !is_id(text[i - 1]))) words++;
  while (n && text[n - 1] == ' ') n--;
  return words >= 2 && n && (is_id(text[n - 1]) || text[n - 1] == ']');
}

/* ================================================================ programs */

static const char *lang_name(int lang) {
  return lang == GPUX__LANG_DIALECT ? "gpux dialect"
         : lang == GPUX__LANG_CUDA  ? "CUDA C++"
                                    : "OpenCL C";
}

static void core_unref(gpux__pcore *c) {
  if (!c || __atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL) > 0) return;
  if (c->bp && c->ctx->be->program_release) c->ctx->be->program_release(c->ctx->b, c->bp);
  for (int i = 0; i < c->nkernels; i++) free(c->kernels[i].params);
  free(c->kernels);
  free(c->log);
  free(c);
}

/* Programs the memory cache keeps beyond those in use; older unused ones are dropped. */
#define GPUX_PROGRAM_CACHE_MAX 256

/* ctx->prog_lock held */
static void cache_insert(struct gpux_context *ctx, gpux__pcore *c) {
  __atomic_add_fetch(&c->refs, 1, __ATOMIC_RELAXED); /* the cache's reference */
  c->next = ctx->programs;
  ctx->programs = c;
  int count = 0;
  for (gpux__pcore **pp = &ctx->programs; *pp;) {
    gpux__pcore *x = *pp;
    if (++count > GPUX_PROGRAM_CACHE_MAX && __atomic_load_n(&x->refs, __ATOMIC_ACQUIRE) == 1) {
      /* only the cache holds it, and only the cache (under the lock) hands it out */
      *pp = x->next;
      core_unref(x);
      continue;
    }
    pp = &x->next;
  }
}

void gpux__program_cache_clear(struct gpux_context *ctx) {
  gpux__pcore *c = ctx->programs;
  ctx->programs = NULL;
  while (c) {
    gpux__pcore *next = c->next;
    c->next = NULL;
    core_unref(c);
    c = next;
  }
}

static void program_key(uint64_t key[2], int lang, unsigned flags, const char *options,
                        const char *source) {
  uint64_t h[2] = {14695981039346656037ull, 0x9e3779b97f4a7c15ull};
  int32_t head[2] = {lang, (int32_t)flags};
  size_t ol = strlen(options) + 1; /* the NUL separates options from source */
  for (int i = 0; i < 2; i++) {
    h[i] = gpux__fnv1a(head, sizeof head, h[i]);
    h[i] = gpux__fnv1a(options, ol, h[i]);
    h[i] = gpux__fnv1a(source, strlen(source), h[i]);
  }
  key[0] = h[0];
  key[1] = h[1];
}

static gpux_status program_get(struct gpux_program **out, struct gpux_context *ctx, int lang,
                               const char *source, const char *options, unsigned flags);

/* Under the context's program lock: threads asking for one program at once build it once */
gpux_status gpux__program_get(struct gpux_program **out, struct gpux_context *ctx, int lang,
                              const char *source, const char *options, unsigned flags) {
  pthread_mutex_lock(&ctx->prog_lock);
  gpux_status s = program_get(out, ctx, lang, source, options, flags);
  pthread_mutex_unlock(&ctx->prog_lock);
  return s;
}

static gpux_status program_get(struct gpux_program **out, struct gpux_context *ctx, int lang,
                               const char *source, const char *options, unsigned flags) {
  const gpux__backend_iface *be = ctx->be;
  if (!options) options = "";
  GPUX__NEED(ctx, GPUX__Q_PROGRAM, lang, -1, -1);
  struct gpux_program *h = malloc(sizeof *h);
  if (!h) return SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "gpux_program_create: handle");
  uint64_t key[2];
  program_key(key, lang, flags, options, source);
  for (gpux__pcore *c = ctx->programs; c; c = c->next)
    if (c->key[0] == key[0] && c->key[1] == key[1]) {
      __atomic_add_fetch(&c->refs, 1, __ATOMIC_RELAXED);
      h->core = c;
      h->origin = GPUX_PROGRAM_MEMORY_CACHE;
      gpux__context_retain(ctx);
      *out = h;
      return GPUX_SUCCESS;
    }

  gpux_status s;
  gpux__pcore *c = calloc(1, sizeof *c);
  const char **names = NULL;
  char *log = NULL;
  if (!c) {
    s = SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "gpux_program_create: program");
    goto fail;
  }
  c->ctx = ctx;
  c->key[0] = key[0];
  c->key[1] = key[1];
  if ((s = scan_kernels(source, lang, &c->kernels, &c->nkernels)) != GPUX_SUCCESS) goto fail;
  if (c->nkernels) {
    names = malloc(sizeof *names * (size_t)c->nkernels);
    if (!names) {
      s = SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "gpux_program_create: names");
      goto fail;
    }
    for (int i = 0; i < c->nkernels; i++) names[i] = c->kernels[i].name;
  }
  int origin = GPUX_PROGRAM_COMPILED;
  s = be->program_build(ctx->b, lang, source, strlen(source), options, flags, names,
                        c->nkernels, &c->bp, &log, &origin);
  if (s != GPUX_SUCCESS) {
    if (s == GPUX_ERROR_KERNEL_BUILD) { /* the backend's line, then the compiler's log */
      char head[1024];
      snprintf(head, sizeof head, "%s", gpux__error_body());
      s = SET_ERROR(s, "(%s, options \"%s\"): %s\n%s", lang_name(lang),
                    options, head, log && *log ? log : "(the compiler gave no log)");
    }
    goto fail;
  }
  c->origin = origin;
  c->log = log ? log : calloc(1, 1);
  log = NULL;
  if (!c->log) {
    s = SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "gpux_program_create: log");
    goto fail;
  }
  free(names);
  c->refs = 1; /* the handle's */
  cache_insert(ctx, c);
  h->core = c;
  h->origin = origin;
  gpux__context_retain(ctx);
  *out = h;
  return GPUX_SUCCESS;
fail:
  free(log);
  free(names);
  if (c) {
    c->refs = 1;
    core_unref(c);
  }
  free(h);
  return s;
}

GPUX_API gpux_status gpux_program_create(gpux_program_t *out, gpux_context_t ctx,
                                         gpux_source_lang lang, const char *source,
                                         const char *options) {
  GPUX__API_FN();
  if (!out) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "gpux_program_create: out is NULL");
  *out = NULL;
  if (!ctx) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "gpux_program_create: context is NULL");
  if (!source) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "gpux_program_create: source is NULL");
  if ((int)lang < GPUX__LANG_DIALECT || (int)lang > GPUX__LANG_OPENCL)
    return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "gpux_program_create: unknown source language %d",
                     (int)lang);
  return gpux__program_get(out, ctx, (int)lang, source, options, 0);
}

GPUX_API void gpux_program_release(gpux_program_t prog) {
  if (!prog) return;
  struct gpux_context *ctx = prog->core->ctx;
  core_unref(prog->core);
  free(prog);
  gpux__context_unref(ctx);
}

GPUX_API gpux_status gpux_program_build_log(const char **log, gpux_program_t prog) {
  GPUX__API_FN();
  if (!log) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "gpux_program_build_log: log is NULL");
  if (!prog) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "gpux_program_build_log: program is NULL");
  *log = prog->origin == GPUX_PROGRAM_COMPILED ? prog->core->log : "";
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_program_origin_of(gpux_program_origin *out, gpux_program_t prog) {
  GPUX__API_FN();
  if (!out) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "gpux_program_origin_of: out is NULL");
  if (!prog) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "gpux_program_origin_of: program is NULL");
  *out = (gpux_program_origin)prog->origin;
  return GPUX_SUCCESS;
}

/* ================================================================ kernels */

GPUX_API gpux_status gpux_kernel_create(gpux_kernel_t *out, gpux_program_t prog, const char *name) {
  GPUX__API_FN();
  if (!out) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "gpux_kernel_create: out is NULL");
  *out = NULL;
  if (!prog) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "gpux_kernel_create: program is NULL");
  if (!name) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "gpux_kernel_create: name is NULL");
  gpux__pcore *c = prog->core;
  struct gpux_context *ctx = c->ctx;
  const gpux__kdecl *decl = NULL;
  for (int i = 0; i < c->nkernels; i++)
    if (strcmp(c->kernels[i].name, name) == 0) decl = &c->kernels[i];
  struct gpux_kernel *k = calloc(1, sizeof *k);
  if (!k) return SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "gpux_kernel_create: kernel");
  /* the count read from a declaration whose every parameter reads as one ("type name"), so
   * that no macro hides a parameter */
  int np = decl ? decl->nparams : -1;
  for (int i = 0; i < np; i++)
    if (!one_param(decl->params[i].text)) np = -1;
  gpux_status s = ctx->be->kernel_create(ctx->b, c->bp, name, &k->bk, &np, k->param_size,
                                         &k->max_block);
  if (s != GPUX_SUCCESS) {
    free(k);
    if (s == GPUX_ERROR_KERNEL_NOT_FOUND) {
      char list[2048];
      size_t len = 0;
      list[0] = '\0';
      for (int i = 0; i < c->nkernels && len + 140 < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "",
                                c->kernels[i].name);
      return SET_ERROR(s, "gpux_kernel_create: the program has no kernel named \"%s\"; it %s%s",
                       name, c->nkernels ? "defines: " : "defines no kernel gpux could find",
                       list);
    }
    return s;
  }
  if (np < 0) np = decl ? decl->nparams : -1;
  if (decl && decl->nparams != np) decl = NULL; /* macros hid parameters: trust the driver */
  k->core = c;
  snprintf(k->name, sizeof k->name, "%s", name);
  k->decl = decl;
  k->nparams = np;
  __atomic_add_fetch(&c->refs, 1, __ATOMIC_RELAXED);
  gpux__context_retain(ctx);
  *out = k;
  return GPUX_SUCCESS;
}

GPUX_API void gpux_kernel_release(gpux_kernel_t k) {
  if (!k) return;
  gpux__pcore *c = k->core;
  struct gpux_context *ctx = c->ctx;
  if (ctx->be->kernel_release) ctx->be->kernel_release(ctx->b, k->bk);
  core_unref(c);
  free(k);
  gpux__context_unref(ctx);
}

GPUX_API gpux_status gpux_kernel_num_args(int *out, gpux_kernel_t k) {
  GPUX__API_FN();
  if (!out) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "gpux_kernel_num_args: out is NULL");
  if (!k) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "gpux_kernel_num_args: kernel is NULL");
  if (k->nparams < 0)
    return SET_ERROR(GPUX_ERROR_UNSUPPORTED, "gpux_kernel_num_args: neither the driver nor the "
                     "source tells the parameter count of this kernel");
  *out = k->nparams;
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_kernel_max_block_size(uint32_t *out, gpux_kernel_t k) {
  GPUX__API_FN();
  if (!out) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "gpux_kernel_max_block_size: out is NULL");
  if (!k) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "gpux_kernel_max_block_size: kernel is NULL");
  *out = k->max_block;
  return GPUX_SUCCESS;
}

static const char *kname(const struct gpux_kernel *k) { return k->name; }

static const char *dt_name(int dt) {
  const char *n = dt >= 0 ? gpux_dtype_name((gpux_dtype)dt) : NULL;
  return n ? n : "?";
}

/* What a parameter takes, for messages. */
static const char *param_wants(const gpux__kparam *p, char *buf, size_t cap) {
  if (p->kind == GPUX_ARG_ARRAY)
    snprintf(buf, cap, "a pointer (an array%s%s)", p->dtype >= 0 ? " of " : "",
             p->dtype >= 0 ? dt_name(p->dtype) : "");
  else if (p->kind == GPUX_ARG_LOCAL)
    snprintf(buf, cap, "local memory (gpux_arg_local)");
  else
    snprintf(buf, cap, "a %s scalar", dt_name(p->dtype));
  return buf;
}

/* An integer parameter takes any integer of its width, signed or not (a kernel may read
 * int32 data as unsigned); a 1-byte one takes bool too, and a 2-byte one float16 and
 * bfloat16 (stored as ushort bits: OpenCL kernels take them so). */
static int fits(int want, int got) {
  if (want == got) return 1;
  if (want < 0 || !gpux__dt_is_int((gpux_dtype)want)) return 0;
  const size_t w = gpux_dtype_size((gpux_dtype)want);
  return w == gpux_dtype_size((gpux_dtype)got) &&
         (gpux__dt_is_int((gpux_dtype)got) || got == GPUX_BOOL || w == 2);
}
static int scalar_fits(int want, int got) { return fits(want, got); }
static int array_fits(int want, int got) { return want < 0 || fits(want, got); }

GPUX_API gpux_status gpux_kernel_set_arg(gpux_kernel_t k, int index, const gpux_arg *arg) {
  GPUX__API_FN();
  static const char fn[] = "gpux_kernel_set_arg";
  if (!k) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "%s: kernel is NULL", fn);
  if (!arg) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "%s(%s, %d): arg is NULL", fn, kname(k), index);
  int limit = k->nparams >= 0 ? k->nparams : GPUX__MAX_KPARAMS;
  if (index < 0 || index >= limit)
    return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "%s(%s): index %d is outside 0..%d (the kernel "
                     "has %d parameters)", fn, kname(k), index, limit - 1, limit);
  const gpux__kparam *p = k->decl ? &k->decl->params[index] : NULL;
  if (p && p->kind == 0) p = NULL; /* not understood: the driver's size check only */
  uint32_t psize = k->param_size[index];
  char want[96];
  gpux__uarg u;
  memset(&u, 0, sizeof u);
  u.kind = arg->kind;
  switch (arg->kind) {
    case GPUX_ARG_ARRAY: {
      const struct gpux_array *a = arg->v.array;
      if (!a) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "%s(%s, %d): array is NULL", fn, kname(k), index);
      if (a->ctx != k->core->ctx)
        return SET_ERROR(GPUX_ERROR_CONTEXT_MISMATCH, "%s(%s, %d): the array belongs to another "
                         "context than the kernel", fn, kname(k), index);
      if (p && p->kind != GPUX_ARG_ARRAY)
        return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "%s(%s, %d): parameter `%s` takes %s, got "
                         "an array", fn, kname(k), index, p->text, param_wants(p, want, sizeof want));
      if (p && !array_fits(p->dtype, a->dtype))
        return SET_ERROR(GPUX_ERROR_DTYPE_MISMATCH, "%s(%s, %d): parameter `%s` points to %s, got "
                         "a %s array", fn, kname(k), index, p->text, dt_name(p->dtype),
                         dt_name(a->dtype));
      if (!p && psize && psize != sizeof(void *) && k->core->ctx->kind == GPUX_BACKEND_CUDA)
        return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "%s(%s, %d): the parameter has %u bytes, "
                         "not a pointer's", fn, kname(k), index, (unsigned)psize);
      u.buf = a->st ? a->st->blk.buf : NULL;
      u.offset_bytes = (uint64_t)a->offset * gpux_dtype_size(a->dtype);
      break;
    }
    case GPUX_ARG_SCALAR: {
      size_t sz = gpux_dtype_size(arg->dtype);
      if (sz == 0)
        return SET_ERROR(GPUX_ERROR_INVALID_DTYPE, "%s(%s, %d): unknown scalar dtype %d", fn,
                         kname(k), index, (int)arg->dtype);
      if (gpux__dt_is_complex(arg->dtype)) /* gpux_arg holds no complex value */
        return SET_ERROR(GPUX_ERROR_UNSUPPORTED_DTYPE, "%s(%s, %d): %s scalars are not kernel "
                         "arguments yet (pass the parts as two float scalars)", fn, kname(k),
                         index, dt_name(arg->dtype));
      if (p && p->kind != GPUX_ARG_SCALAR)
        return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "%s(%s, %d): parameter `%s` takes %s, got "
                         "a %s scalar", fn, kname(k), index, p->text,
                         param_wants(p, want, sizeof want), dt_name(arg->dtype));
      if (p && !scalar_fits(p->dtype, arg->dtype))
        return SET_ERROR(GPUX_ERROR_DTYPE_MISMATCH, "%s(%s, %d): parameter `%s` takes %s, got a "
                         "%s scalar", fn, kname(k), index, p->text,
                         param_wants(p, want, sizeof want), dt_name(arg->dtype));
      if (psize && psize != sz)
        return SET_ERROR(GPUX_ERROR_DTYPE_MISMATCH, "%s(%s, %d): the parameter has %u bytes, a "
                         "%s scalar %zu", fn, kname(k), index, (unsigned)psize,
                         dt_name(arg->dtype), sz);
      u.size = (uint32_t)sz;
      /* the value's bytes from the lowest address, as the kernel reads them (every member of
       * the union starts at its address) */
      memcpy(&u.value, &arg->v, sz);
      if (arg->dtype == GPUX_BOOL) u.value = arg->v.u8 != 0;
      break;
    }
    case GPUX_ARG_LOCAL:
      if (p && p->kind != GPUX_ARG_LOCAL)
        return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "%s(%s, %d): parameter `%s` takes %s, got "
                         "local memory", fn, kname(k), index, p->text, param_wants(p, want, sizeof want));
      if (arg->v.local_bytes == 0 || arg->v.local_bytes > ((uint64_t)1 << 31))
        return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "%s(%s, %d): %llu bytes of local memory "
                         "(1 .. 2^31)", fn, kname(k), index,
                         (unsigned long long)arg->v.local_bytes);
      u.local_bytes = arg->v.local_bytes;
      break;
    default:
      return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "%s(%s, %d): unknown argument kind %d", fn,
                       kname(k), index, (int)arg->kind);
  }
  k->args[index] = u;
  k->arg_st[index] = u.kind == GPUX_ARG_ARRAY ? arg->v.array->st : NULL;
  k->set_mask[index / 64] |= 1ull << (index % 64);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_kernel_set_args(gpux_kernel_t k, int nargs, const gpux_arg *args) {
  GPUX__API_FN();
  if (!k) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "gpux_kernel_set_args: kernel is NULL");
  if (nargs > 0 && !args)
    return SET_ERROR(GPUX_ERROR_NULL_POINTER, "gpux_kernel_set_args(%s): args is NULL", kname(k));
  if (nargs < 0 || (k->nparams >= 0 && nargs != k->nparams) || nargs > GPUX__MAX_KPARAMS)
    return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "gpux_kernel_set_args(%s): %d arguments for a "
                     "kernel of %d parameters", kname(k), nargs, k->nparams);
  for (int i = 0; i < nargs; i++) GPUX__CHECK(gpux_kernel_set_arg(k, i, &args[i]));
  return GPUX_SUCCESS;
}

/* Grid and block as the backend takes them; 0 when nothing is to be queued. */
static gpux_status plan_shape(const struct gpux_kernel *k, int ndim, const uint64_t *grid,
                              const uint32_t *block, uint64_t g[3], uint32_t bl[3], int *empty) {
  static const char fn[] = "gpux_kernel_launch";
  if (ndim < 1 || ndim > 3)
    return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "%s(%s): ndim %d is outside 1..3", fn, kname(k), ndim);
  if (!grid || !block)
    return SET_ERROR(GPUX_ERROR_NULL_POINTER, "%s(%s): %s is NULL", fn, kname(k), grid ? "block" : "grid");
  *empty = 0;
  uint64_t threads = 1;
  for (int d = 0; d < 3; d++) {
    g[d] = d < ndim ? grid[d] : 1;
    bl[d] = d < ndim ? block[d] : 1;
    if (bl[d] == 0)
      return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "%s(%s): block[%d] is 0", fn, kname(k), d);
    if (g[d] == 0) *empty = 1;
    threads *= bl[d];
  }
  if (k->max_block && threads > k->max_block)
    return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "%s(%s): a block of %u x %u x %u = %llu threads; "
                     "the device runs this kernel with at most %u", fn, kname(k), bl[0], bl[1],
                     bl[2], (unsigned long long)threads, k->max_block);
  for (int d = 0; d < 3; d++)
    if (g[d] > (UINT64_MAX >> 1) / bl[d])
      return SET_ERROR(GPUX_ERROR_SIZE_OVERFLOW, "%s(%s): grid[%d] * block[%d] overflows", fn,
                       kname(k), d, d);
  if (k->core->ctx->kind == GPUX_BACKEND_CUDA) { /* the CUDA grid limits of every device */
    static const uint64_t gmax[3] = {2147483647ull, 65535ull, 65535ull};
    static const uint32_t bmax[3] = {1024u, 1024u, 64u};
    for (int d = 0; d < 3; d++) {
      if (bl[d] > bmax[d])
        return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "%s(%s): block[%d] = %u exceeds CUDA's "
                         "limit %u", fn, kname(k), d, bl[d], bmax[d]);
      if (g[d] > gmax[d])
        return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "%s(%s): grid[%d] = %llu exceeds CUDA's "
                         "limit %llu", fn, kname(k), d, (unsigned long long)g[d],
                         (unsigned long long)gmax[d]);
    }
  }
  return GPUX_SUCCESS;
}

gpux_status gpux__kernel_launch_uargs(struct gpux_kernel *k, int nargs, const gpux__uarg *args,
                                      const uint64_t grid[3], const uint32_t block[3]) {
  uint64_t g[3];
  uint32_t bl[3];
  int empty;
  GPUX__CHECK(plan_shape(k, 3, grid, block, g, bl, &empty));
  if (empty) return GPUX_SUCCESS;
  struct gpux_context *ctx = k->core->ctx;
  return ctx->be->kernel_launch(gpux__q(ctx), k->bk, nargs, args, g, bl, 0);
}

GPUX_API gpux_status gpux_kernel_launch(gpux_kernel_t k, int ndim, const uint64_t *grid,
                                        const uint32_t *block, size_t shared_bytes) {
  GPUX__API_FN();
  if (!k) return SET_ERROR(GPUX_ERROR_NULL_POINTER, "gpux_kernel_launch: kernel is NULL");
  uint64_t g[3];
  uint32_t bl[3];
  int empty;
  GPUX__CHECK(plan_shape(k, ndim, grid, block, g, bl, &empty));
  struct gpux_context *ctx = k->core->ctx;
  if (shared_bytes && ctx->kind != GPUX_BACKEND_CUDA)
    return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "gpux_kernel_launch(%s): shared_bytes is for "
                     "CUDA's extern __shared__; OpenCL kernels take local memory as arguments "
                     "(gpux_arg_local)", kname(k));
  int n = k->nparams;
  if (n < 0) { /* count unknown: the arguments set, which must have no gaps */
    n = 0;
    for (int i = 0; i < GPUX__MAX_KPARAMS; i++)
      if (k->set_mask[i / 64] >> (i % 64) & 1) n = i + 1;
  }
  for (int i = 0; i < n; i++)
    if (!(k->set_mask[i / 64] >> (i % 64) & 1))
      return SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "gpux_kernel_launch(%s): argument %d is not "
                       "set", kname(k), i);
  if (empty) return GPUX_SUCCESS;
  struct gpux_stream *q = gpux__stream_cur(ctx);
  for (int i = 0; i < n; i++) gpux__stream_use_st(q, k->arg_st[i]);
  return ctx->be->kernel_launch(q->q, k->bk, n, k->args, g, bl, shared_bytes);
}

GPUX_API gpux_status gpux_kernel_call(gpux_kernel_t k, int ndim, const uint64_t *grid,
                                      const uint32_t *block, int nargs, const gpux_arg *args) {
  GPUX__API_FN();
  GPUX__CHECK(gpux_kernel_set_args(k, nargs, args));
  return gpux_kernel_launch(k, ndim, grid, block, 0);
}
