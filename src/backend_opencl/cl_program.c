/* gpux OpenCL backend: user programs and kernels (include/gpux/kernel.h, docs/kernels.md).
 *
 * A program's text is [dialect prelude (GPUX_SOURCE_DIALECT)] [ops prelude (GPUX__PROG_OPS)]
 * [#pragma OPENCL FP_CONTRACT OFF (GPUX__PROG_NO_CONTRACT)] [#line 1] [the caller's source],
 * built through gpux_cl_build (cl_launch.c), the build path of the built-in families, with
 * the on-disk cache on every device. On pocl too, unlike the built-in families: a warm first
 * launch measured 3.2 ms from gpux's cache against 220 ms from pocl's own (pocl still starts
 * its compiler for a source build), at the price of a slower first build (pocl compiles every
 * kernel when asked for the binary); GPUX_CACHE_POCL=0 leaves user programs to pocl's cache.
 * A kernel is a cl_kernel, which threads may share; a launch sets every argument and
 * enqueues once, under the launch lock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cl_internal.h"

#define SET_ERROR(...) gpux_cl_host->set_error(__VA_ARGS__)

/* Live programs and kernels are listed in their context, which releases what the front end
 * has not. */
/* The front end owns programs and kernels (released before their context) */
struct gpux__uprog {
  cl_program prog;
};
struct gpux__ukern {
  cl_kernel k;
};

/* the name of the caller's text in compiler messages (#line) */
#define USER_FILE "source"

/* ---------------------------------------------------------------- programs */
typedef struct textbuf {
  char *p;
  size_t len, cap;
  int oom;
} textbuf;

static void tb_add(textbuf *t, const void *s, size_t n) {
  if (t->oom) return;
  if (t->len + n + 1 > t->cap) {
    size_t cap = t->cap ? t->cap : 4096;
    while (cap < t->len + n + 1) cap *= 2;
    char *p = realloc(t->p, cap);
    if (!p) {
      t->oom = 1;
      return;
    }
    t->p = p;
    t->cap = cap;
  }
  memcpy(t->p + t->len, s, n);
  t->len += n;
  t->p[t->len] = '\0';
}
static void tb_str(textbuf *t, const char *s) { tb_add(t, s, strlen(s)); }

static size_t count_lines(const char *s, size_t n) {
  size_t c = 0;
  for (size_t i = 0; i < n; i++) c += s[i] == '\n';
  return c;
}

/* NVIDIA's compiler ignores #line and numbers the whole text: "<kernel>:N:" becomes
 * "<kernel>:N-P:" where P lines precede the caller's. Compilers that honour #line (pocl:
 * "source:1:52:") are left alone. Lines of the prelude itself (N <= P) keep their number. */
static void renumber_log(char *log, size_t prefix_lines) {
  static const char tag[] = "<kernel>:";
  const size_t tl = sizeof tag - 1;
  char *r = log, *w = log;
  while (*r) {
    if (!strncmp(r, tag, tl)) {
      const char *d = r + tl;
      unsigned long long n = 0;
      int nd = 0;
      while (d[nd] >= '0' && d[nd] <= '9' && nd < 18) n = n * 10 + (unsigned)(d[nd++] - '0');
      if (nd > 0 && d[nd] == ':' && n > prefix_lines) {
        /* the new number is no longer than the old one: rewriting in place is safe */
        char num[24];
        int nl = snprintf(num, sizeof num, "%llu", n - prefix_lines);
        memmove(w, tag, tl);
        memcpy(w + tl, num, (size_t)nl);
        w += tl + (size_t)nl;
        r += tl + (size_t)nd;
        continue;
      }
    }
    *w++ = *r++;
  }
  *w = '\0';
}

static int cache_pocl(void) {
  const char *v = getenv("GPUX_CACHE_POCL");
  return !(v && !strcmp(v, "0"));
}

gpux_status gpux_cl_program_build(gpux__bctx *b, int lang, const char *src, size_t len,
                                  const char *options, unsigned flags, const char *const *names,
                                  int nnames, gpux__uprog **out, char **log, int *origin) {
  (void)names; /* OpenCL C kernel names are not mangled */
  (void)nnames;
  gpux_status s = GPUX_SUCCESS;
  textbuf text = {0}, key = {0}, opts = {0};
  gpux__uprog *up = NULL;
  cl_program p = NULL;
  int from_cache = 0;
  *out = NULL;
  *log = NULL;
  *origin = GPUX_PROGRAM_COMPILED;

  /* the text: preludes, then the caller's source from its line 1 */
  const int dialect = lang == GPUX__LANG_DIALECT, ops = (flags & GPUX__PROG_OPS) != 0;
  if (dialect) tb_add(&text, gpux_cl_src_dialect, gpux_cl_src_dialect_size);
  if (ops) tb_add(&text, gpux_cl_src_ew_ops, gpux_cl_src_ew_ops_size);
  if (flags & GPUX__PROG_NO_CONTRACT) tb_str(&text, "\n#pragma OPENCL FP_CONTRACT OFF\n");
  if (text.len) tb_str(&text, "\n#line 1 \"" USER_FILE "\"\n");
  const size_t prefix_lines = count_lines(text.p ? text.p : "", text.len);
  tb_add(&text, src, len);
  /* options: what the preludes need, then the caller's (which win where they clash) */
  if (dialect || ops) tb_str(&opts, b->uprog_options);
  if (options && *options) {
    if (opts.len) tb_str(&opts, " ");
    tb_str(&opts, options);
  }
  tb_str(&opts, "");
  if (text.oom || opts.oom) {
    s = SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "opencl: out of host memory");
    goto done;
  }

  /* gpux's disk cache: the whole text and everything that changes the binary */
  int use_cache = !b->dev->is_pocl || cache_pocl();
  if (use_cache) {
    char head[1024];
    int n = snprintf(head, sizeof head,
                     "gpux-user-program\nopencl\n%s\n%s\n%s\nlang %d\nflags %u\n", b->device_name,
                     b->driver_version, b->device_version, lang, flags);
    if (n < 0 || (size_t)n >= sizeof head) n = (int)sizeof head - 1;
    tb_add(&key, head, (size_t)n);
    tb_add(&key, opts.p, opts.len);
    tb_str(&key, "\n");
    tb_add(&key, text.p, text.len);
    if (key.oom) use_cache = 0; /* the cache only saves time */
  }
  s = gpux_cl_build(b, dialect ? "gpux dialect program" : "OpenCL C program", text.p, text.len,
                    opts.p, use_cache ? key.p : NULL, use_cache ? key.len : 0, &p, log,
                    &from_cache);
  if (*log && prefix_lines) renumber_log(*log, prefix_lines);
  if (s != GPUX_SUCCESS) goto done;
  up = calloc(1, sizeof *up);
  if (!up) {
    s = SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "opencl: out of host memory");
    goto done;
  }
  up->prog = p;
  p = NULL;
  *out = up;
  *origin = from_cache ? GPUX_PROGRAM_DISK_CACHE : GPUX_PROGRAM_COMPILED;
done:
  if (p) clReleaseProgram(p);
  free(text.p);
  free(key.p);
  free(opts.p);
  return s;
}

void gpux_cl_program_release(gpux__bctx *b, gpux__uprog *p) {
  (void)b;
  if (!p) return;
  clReleaseProgram(p->prog); /* kernels created from it keep it alive */
  free(p);
}

/* ---------------------------------------------------------------- kernels */
gpux_status gpux_cl_kernel_create(gpux__bctx *b, gpux__uprog *p, const char *name,
                                  gpux__ukern **out, int *nparams, uint32_t *param_size,
                                  uint32_t *max_block) {
  gpux_status s = GPUX_SUCCESS;
  gpux__ukern *uk = NULL;
  cl_uint na = 0;
  size_t wg = 0;
  cl_int e;
  *out = NULL;
  cl_kernel k = clCreateKernel(p->prog, name, &e);
  if (e != CL_SUCCESS) {
    k = NULL;
    s = e == CL_INVALID_KERNEL_NAME
            ? SET_ERROR(GPUX_ERROR_KERNEL_NOT_FOUND, "opencl: the program has no kernel '%s'",
                        name)
            : SET_ERROR(gpux_cl_status(e, GPUX_ERROR_DRIVER), "clCreateKernel(%s): %s (%d)",
                        name, gpux_cl_error_name(e), (int)e);
    goto done;
  }
  e = clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof na, &na, NULL);
  if (e != CL_SUCCESS) {
    s = gpux_cl_kernel_error(k, "clGetKernelInfo(CL_KERNEL_NUM_ARGS)", e, GPUX_ERROR_DRIVER);
    goto done;
  }
  if (na > GPUX__MAX_KPARAMS) {
    s = SET_ERROR(GPUX_ERROR_UNSUPPORTED, "opencl: kernel '%s' has %u parameters; gpux takes at most %d",
                  name, (unsigned)na, GPUX__MAX_KPARAMS);
    goto done;
  }
  e = clGetKernelWorkGroupInfo(k, b->dev->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg,
                               NULL);
  if (e != CL_SUCCESS) {
    s = gpux_cl_kernel_error(k, "clGetKernelWorkGroupInfo(CL_KERNEL_WORK_GROUP_SIZE)", e,
                             GPUX_ERROR_DRIVER);
    goto done;
  }
  uk = calloc(1, sizeof *uk);
  if (!uk) {
    s = SET_ERROR(GPUX_ERROR_OUT_OF_HOST_MEMORY, "opencl: out of host memory");
    goto done;
  }
  uk->k = k;
  k = NULL;
  *nparams = (int)na;
  for (cl_uint i = 0; i < na; i++) param_size[i] = 0; /* OpenCL does not tell */
  *max_block = wg > UINT32_MAX ? UINT32_MAX : (uint32_t)wg;
  *out = uk;
done:
  if (k) clReleaseKernel(k);
  return s;
}

void gpux_cl_kernel_release(gpux__bctx *b, gpux__ukern *k) {
  (void)b;
  if (!k) return;
  clReleaseKernel(k->k);
  free(k);
}

/* the kernel's name, for messages */
static const char *kernel_name(cl_kernel k, char name[128]) {
  if (clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, 128, name, NULL) != CL_SUCCESS)
    strcpy(name, "?");
  name[127] = '\0';
  return name;
}

/* "<call>(<kernel>, argument i): CL_... (code)" */
static gpux_status arg_error(cl_kernel k, int i, cl_int e, const char *why) {
  char name[128];
  gpux_status st = e == CL_INVALID_ARG_SIZE || e == CL_INVALID_ARG_VALUE ||
                           e == CL_INVALID_MEM_OBJECT || e == CL_INVALID_SAMPLER
                       ? GPUX_ERROR_INVALID_ARGUMENT
                       : gpux_cl_status(e, GPUX_ERROR_LAUNCH);
  return SET_ERROR(st, "clSetKernelArg(%s, argument %d): %s (%d)%s", kernel_name(k, name), i,
                   gpux_cl_error_name(e), (int)e, why);
}

static gpux_status launch_user(gpux__bq *q, gpux__ukern *uk, int nargs,
                               const gpux__uarg *args, const uint64_t grid[3],
                               const uint32_t block[3]) {
  const gpux__bctx *b = q->b;
  cl_kernel k = uk->k;
  gpux_status s = GPUX_SUCCESS;
  cl_mem subs[GPUX__MAX_KPARAMS]; /* sub-buffers of offset views, released after enqueueing */
  int nsubs = 0;
  uint64_t local_total = 0;
  cl_int e;
  for (int i = 0; i < nargs; i++) {
    const gpux__uarg *a = &args[i];
    switch (a->kind) {
      case GPUX_ARG_ARRAY: {
        cl_mem m = (cl_mem)a->buf; /* NULL for an empty array: a null pointer */
        if (m && a->offset_bytes) {
          size_t size = 0;
          e = clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL);
          if (e != CL_SUCCESS) {
            s = arg_error(k, i, e, " (clGetMemObjectInfo(CL_MEM_SIZE))");
            goto done;
          }
          if (a->offset_bytes % b->base_align != 0 || a->offset_bytes >= size) {
            char name[128];
            s = SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT,
                          "opencl: argument %d of kernel %s is a view that starts %llu bytes "
                          "into its buffer; OpenCL passes a view only when that offset is "
                          "aligned to a multiple of %u bytes (CL_DEVICE_MEM_BASE_ADDR_ALIGN of "
                          "%s): pass a copy of the view, or the whole array and the offset as a "
                          "scalar",
                          i, kernel_name(k, name), (unsigned long long)a->offset_bytes, (unsigned)b->base_align,
                          b->device_name);
            goto done;
          }
          cl_buffer_region region = {(size_t)a->offset_bytes, size - (size_t)a->offset_bytes};
          m = clCreateSubBuffer(m, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &e);
          if (e != CL_SUCCESS) {
            s = arg_error(k, i, e, " (clCreateSubBuffer for the view's offset)");
            goto done;
          }
          subs[nsubs++] = m;
        }
        e = clSetKernelArg(k, (cl_uint)i, sizeof m, &m);
        break;
      }
      case GPUX_ARG_SCALAR:
        e = clSetKernelArg(k, (cl_uint)i, a->size, &a->value); /* bytes from the lowest address */
        break;
      case GPUX_ARG_LOCAL:
        local_total += a->local_bytes;
        e = clSetKernelArg(k, (cl_uint)i, (size_t)a->local_bytes, NULL);
        break;
      case GPUX__UARG_BYTES:
        e = clSetKernelArg(k, (cl_uint)i, a->size, (const void *)(uintptr_t)a->value);
        break;
      default:
        s = SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT, "opencl: argument %d has unknown kind %d", i,
                      a->kind);
        goto done;
    }
    if (e != CL_SUCCESS) {
      s = arg_error(k, i, e,
                    e == CL_INVALID_ARG_SIZE ? ": the value's size does not match the parameter"
                                             : "");
      goto done;
    }
  }
  if (b->local_mem && local_total > b->local_mem) {
    char name[128];
    s = SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT,
                  "opencl: kernel %s: %llu bytes of local memory requested by its arguments; "
                  "%s has %llu (CL_DEVICE_LOCAL_MEM_SIZE)",
                  kernel_name(k, name), (unsigned long long)local_total, b->device_name,
                  (unsigned long long)b->local_mem);
    goto done;
  }
  size_t global[3], local[3];
  cl_uint dims = 1;
  for (int d = 0; d < 3; d++) {
    if (block[d] && grid[d] > SIZE_MAX / block[d]) {
      s = SET_ERROR(GPUX_ERROR_INVALID_ARGUMENT,
                    "opencl: grid[%d] (%llu) x block[%d] (%u) overflows a global work size", d,
                    (unsigned long long)grid[d], d, (unsigned)block[d]);
      goto done;
    }
    global[d] = (size_t)grid[d] * block[d];
    local[d] = block[d];
    if (global[d] != 1 || local[d] != 1) dims = (cl_uint)d + 1;
  }
  e = clEnqueueNDRangeKernel(q->queue, k, dims, NULL, global, local, 0, NULL, NULL);
  if (e != CL_SUCCESS) {
    const char *why = "";
    gpux_status st = gpux_cl_status(e, GPUX_ERROR_LAUNCH);
    switch (e) {
      case CL_INVALID_WORK_GROUP_SIZE:
        why = ": the block is larger than the kernel can run (gpux_kernel_max_block_size) or "
              "than its required work-group size";
        st = GPUX_ERROR_INVALID_ARGUMENT;
        break;
      case CL_INVALID_WORK_ITEM_SIZE:
        why = ": a block dimension exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES";
        st = GPUX_ERROR_INVALID_ARGUMENT;
        break;
      case CL_INVALID_GLOBAL_WORK_SIZE:
        why = ": grid x block exceeds what the device can run";
        st = GPUX_ERROR_INVALID_ARGUMENT;
        break;
      case CL_INVALID_KERNEL_ARGS:
        why = ": an argument is not set";
        st = GPUX_ERROR_INVALID_ARGUMENT;
        break;
      case CL_OUT_OF_RESOURCES:
        why = ": the device lacks the resources for this launch (local memory, or registers "
              "for this block size)";
        break;
      default: break;
    }
    char name[128];
    s = SET_ERROR(st,
                  "clEnqueueNDRangeKernel(%s, grid %llux%llux%llu, block %ux%ux%u): %s (%d)%s",
                  kernel_name(k, name), (unsigned long long)grid[0], (unsigned long long)grid[1],
                  (unsigned long long)grid[2], (unsigned)block[0], (unsigned)block[1],
                  (unsigned)block[2], gpux_cl_error_name(e), (int)e, why);
  }
done:
  for (int i = 0; i < nsubs; i++) clReleaseMemObject(subs[i]); /* the queued launch holds them */
  return s;
}

gpux_status gpux_cl_kernel_launch(gpux__bq *q, gpux__ukern *uk, int nargs,
                                  const gpux__uarg *args, const uint64_t grid[3],
                                  const uint32_t block[3], size_t shared_bytes) {
  (void)shared_bytes; /* OpenCL takes local memory as arguments */
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_user(q, uk, nargs, args, grid, block));
}
