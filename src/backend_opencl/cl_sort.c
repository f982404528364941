/* gpux OpenCL backend: sort (gpux__sort_pass; kernels/cl/sort.cl). One program, in the form
 * of reduce.cl (b->red_cpu): in the GPU form every kernel runs in 1-d work-groups of
 * GPUX_SORT_THREADS, the grouped ones looping over their groups or tiles (a grid of at most
 * GPUX_CL_SORT_MAX_GROUPS work-groups serves any size); in the CPU form imgh takes a
 * work-item per group in work-groups of one (its groups are few and large), local a
 * work-item per row in work-groups of b->red_local, and onesweep at most
 * GPUX_CL_SORT_CPU_TAKERS work-items in work-groups of one, each taking tiles until none is
 * left (one a work-group: pocl runs a work-group's items in one loop, where one spinning on
 * another's look-back word would never end). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CL/cl_ext.h> /* CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV */
#include "cl_internal.h"

#define GPUX_CL_SORT_MAX_GROUPS 65536
#define GPUX_CL_SORT_CPU_TAKERS 64

enum { SK_ONESWEEP, SK_LOCAL, SK_NW };
typedef struct sort_state {
  cl_kernel img[GPUX_KDT_COUNT], imgh[GPUX_KDT_COUNT], out[GPUX_KDT_COUNT];
  cl_kernel w[SK_NW][2]; /* [kind][W 32, 64] */
  cl_kernel widen;
} sort_state;

static sort_state *state_of(gpux__bctx *b) { return (sort_state *)b->fam[GPUX_CL_FAM_sort]; }

static gpux_status resolve_sort(gpux__bctx *b, cl_program p, int part) {
  (void)part;
  sort_state *st = state_of(b);
  gpux_status s = GPUX_SUCCESS;
#define SK_DT(dt, w, W, cls, em, mm, nan)                                                   \
  if (s == GPUX_SUCCESS)                                                                    \
    s = gpux_cl_resolve(b, p, &st->img[GPUX_KDT_##dt], 0,                                   \
                        GPUX_KN_SORT_IMG(#dt));                                             \
  if (s == GPUX_SUCCESS)                                                                    \
    s = gpux_cl_resolve(b, p, &st->imgh[GPUX_KDT_##dt], 0,                                  \
                        GPUX_KN_SORT_IMGH(#dt));                                            \
  if (s == GPUX_SUCCESS)                                                                    \
    s = gpux_cl_resolve(b, p, &st->out[GPUX_KDT_##dt], 0,                                   \
                        GPUX_KN_SORT_OUT(#dt));
  GPUX_SORT_DTYPES(SK_DT)
#undef SK_DT
  static const char *const wn[2] = {"32", "64"};
  for (int i = 0; i < 2 && s == GPUX_SUCCESS; i++) {
    s = gpux_cl_resolve(b, p, &st->w[SK_ONESWEEP][i], 0, GPUX_KN_SORT_ONESWEEP("%s"), wn[i]);
    if (s == GPUX_SUCCESS)
      s = gpux_cl_resolve(b, p, &st->w[SK_LOCAL][i], 0, GPUX_KN_SORT_LOCAL("%s"), wn[i]);
  }
  if (s == GPUX_SUCCESS) s = gpux_cl_resolve(b, p, &st->widen, 0, GPUX_KN_SORT_WIDEN);
  return s;
}

static void release_sort(gpux__bctx *b) {
  sort_state *st = state_of(b);
  gpux_cl_release_kernels(st->img, GPUX_KDT_COUNT);
  gpux_cl_release_kernels(st->imgh, GPUX_KDT_COUNT);
  gpux_cl_release_kernels(st->out, GPUX_KDT_COUNT);
  gpux_cl_release_kernels(&st->w[0][0], SK_NW * 2);
  gpux_cl_release_kernels(&st->widen, 1);
}

/* Whether onesweep's GPU form may rank with warp votes in inline PTX (sort.cl
 * GPUX_SK_RANK): NVIDIA's OpenCL, where a probe with the same instructions builds and gives
 * the right ballots and shuffles in two work-groups of 64 (lane l of each 32 work-items
 * votes l & 1, reads lane 31 - l's id and, shuffled up, lane l - 1's), unless
 * GPUX_OPENCL_SORT_WARP=off (the local-memory ranking and scan every device runs, for
 * comparison). */
static int nv_warp(gpux__bctx *b) {
  const char *env = getenv("GPUX_OPENCL_SORT_WARP");
  if (b->red_cpu || (env && !strcmp(env, "off"))) return 0;
  char vendor[128] = "";
  if (clGetDeviceInfo(b->dev->device, CL_DEVICE_VENDOR, sizeof vendor - 1, vendor, NULL) !=
          CL_SUCCESS ||
      !strstr(vendor, "NVIDIA"))
    return 0;
  static const char *probe =
      "__kernel void p(__global uint *o) {\n"
      "  uint l = get_local_id(0) & 31u, r, v, q = l & 1u, s = 31u - l;\n"
      "  __asm__ __volatile__(\"{\\n\\t.reg .pred q;\\n\\tsetp.ne.u32 q, %1, 0;\\n\\t\"\n"
      "    \"vote.sync.ballot.b32 %0, q, 0xffffffff;\\n\\t}\" : \"=r\"(r) : \"r\"(q));\n"
      "  __asm__ __volatile__(\"shfl.sync.idx.b32 %0, %1, %2, 31, 0xffffffff;\"\n"
      "    : \"=r\"(v) : \"r\"(l), \"r\"(s));\n"
      "  __asm__ __volatile__(\"shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;\"\n"
      "    : \"=r\"(s) : \"r\"(l), \"r\"(1u));\n"
      "  o[get_global_id(0)] = r ^ v ^ (s << 8); }\n";
  enum { N = 128 };
  cl_uint got[N];
  int ok = 0;
  cl_int e = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(b->ctx, 1, &probe, NULL, &e);
  cl_kernel k = NULL;
  cl_mem m = NULL;
  cl_command_queue q = NULL;
  if (e == CL_SUCCESS) e = clBuildProgram(p, 1, &b->dev->device, "-cl-std=CL1.2", NULL, NULL);
  if (e == CL_SUCCESS) k = clCreateKernel(p, "p", &e);
  if (e == CL_SUCCESS) m = clCreateBuffer(b->ctx, CL_MEM_WRITE_ONLY, sizeof got, NULL, &e);
  if (e == CL_SUCCESS) q = clCreateCommandQueue(b->ctx, b->dev->device, 0, &e);
  if (e == CL_SUCCESS) e = clSetKernelArg(k, 0, sizeof m, &m);
  if (e == CL_SUCCESS) {
    const size_t global = N, local = 64;
    e = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
  }
  if (e == CL_SUCCESS) e = clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
  if (e == CL_SUCCESS) {
    ok = 1;
    for (int i = 0; i < N; i++) {
      const cl_uint l = (cl_uint)(i & 31);
      ok &= got[i] == (0xaaaaaaaau ^ (31u - l) ^ ((l ? l - 1u : 0u) << 8));
    }
  }
  if (q) clReleaseCommandQueue(q);
  if (m) clReleaseMemObject(m);
  if (k) clReleaseKernel(k);
  if (p) clReleaseProgram(p);
  return ok;
}

/* The warp votes' ranking by local ORs (sort.cl's GPUX_CL_NV_MATCH_OR) takes 8 KB of local
 * memory more than the 48 KB before Volta: compute capability 7.0 or later, read through
 * cl_nv_device_attribute_query (0 when the query fails: the eight ballots) */
static int nv_cc_major(gpux__bctx *b) {
  cl_uint major = 0;
  if (clGetDeviceInfo(b->dev->device, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major,
                      NULL) != CL_SUCCESS)
    return 0;
  return (int)major;
}

/* the form of reduce.cl (fixed with the context): GPUX_CL_CPU=1 on CPU devices; the warp
 * votes where nv_warp allows them */
static void sort_options(gpux__bctx *b, char *buf, size_t size) {
  const int warp = nv_warp(b);
  snprintf(buf, size, "%s%s%s", b->red_build_options, warp ? " -DGPUX_CL_NV_WARP=1" : "",
           warp && nv_cc_major(b) < 7 ? " -DGPUX_CL_NV_MATCH_OR=0" : "");
}

/* groups work-groups of GPUX_SORT_THREADS (capped; the kernels loop); per_item: the CPU
 * form's grouped kernels, a work-item per group in work-groups of b->red_local, or (-1) in
 * work-groups of one (imgh's few large groups spread over pocl's threads; onesweep) */
static gpux_status launch(gpux__bq *q, const gpux_cl_args *a, int64_t groups, int per_item) {
  if (a->e != CL_SUCCESS)
    return gpux_cl_kernel_error(a->k, "clSetKernelArg", a->e, GPUX_ERROR_LAUNCH);
  size_t local = GPUX_SORT_THREADS, global;
  if (per_item < 0) {
    local = 1;
    global = (size_t)groups;
  } else if (per_item) {
    local = q->b->red_local;
    global = ((size_t)groups + local - 1) / local * local;
  } else {
    if (groups > GPUX_CL_SORT_MAX_GROUPS) groups = GPUX_CL_SORT_MAX_GROUPS;
    global = (size_t)groups * local;
  }
  cl_int e = clEnqueueNDRangeKernel(q->queue, a->k, 1, NULL, &global, &local, 0, NULL, NULL);
  if (e != CL_SUCCESS)
    return gpux_cl_kernel_error(a->k, "clEnqueueNDRangeKernel", e, GPUX_ERROR_LAUNCH);
  return GPUX_SUCCESS;
}

static gpux_status launch_sort(gpux__bq *q, const gpux__sort_pass *p) {
  gpux__bctx *b = q->b;
  sort_state *st = state_of(b);
  const int wi = p->width == 8;
  const int64_t n = p->rows * p->len, tiles = p->rows * p->tpp;
  const int64_t egroups = (n + GPUX_SORT_ELEMS - 1) / GPUX_SORT_ELEMS;
  const cl_uint flags = (cl_uint)p->flags;
  cl_kernel k;
  gpux_cl_args a = {0, 0, CL_SUCCESS};
  switch (p->stage) {
  case GPUX__SO_IMG:
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_sort, 0, st->img[p->dtype], 0);
    a.k = k;
    gpux_cl_arg_c(&a, &p->keys);
    gpux_cl_arg_c(&a, &p->img_out);
    gpux_cl_arg_c(&a, &p->pos_out);
    gpux_cl_arg_c(&a, &p->bits);
    gpux_cl_arg_long(&a, n);
    gpux_cl_arg_long(&a, p->len);
    gpux_cl_arg(&a, sizeof flags, &flags);
    return launch(q, &a, egroups, 0);
  case GPUX__SO_OUT:
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_sort, 0, st->out[p->dtype], 0);
    a.k = k;
    gpux_cl_arg_c(&a, &p->img_in);
    gpux_cl_arg_c(&a, &p->keys);
    gpux_cl_arg_long(&a, n);
    gpux_cl_arg(&a, sizeof flags, &flags);
    return launch(q, &a, egroups, 0);
  case GPUX__SO_WIDEN:
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_sort, 0, st->widen, 0);
    a.k = k;
    gpux_cl_arg_c(&a, &p->pos_in);
    gpux_cl_arg_c(&a, &p->out);
    gpux_cl_arg_long(&a, n);
    gpux_cl_arg_long(&a, p->len);
    return launch(q, &a, egroups, 0);
  case GPUX__SO_IMGH:
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_sort, 0, st->imgh[p->dtype], 0);
    a.k = k;
    gpux_cl_arg_c(&a, &p->keys);
    gpux_cl_arg_c(&a, &p->img_out);
    gpux_cl_arg_c(&a, &p->bits);
    gpux_cl_arg_c(&a, &p->counts);
    gpux_cl_arg_long(&a, p->len);
    gpux_cl_arg_long(&a, p->hk);
    gpux_cl_arg_long(&a, p->gpr);
    gpux_cl_arg_long(&a, p->ngroups);
    gpux_cl_arg_int(&a, p->nportions);
    gpux_cl_arg_long(&a, p->pkeys);
    gpux_cl_arg(&a, sizeof flags, &flags);
    return launch(q, &a, p->ngroups, b->red_cpu ? -1 : 0);
  case GPUX__SO_ONESWEEP:
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_sort, 0, st->w[SK_ONESWEEP][wi], 0);
    a.k = k;
    gpux_cl_arg_c(&a, &p->img_in);
    gpux_cl_arg_c(&a, &p->pos_in);
    gpux_cl_arg_c(&a, &p->img_out);
    gpux_cl_arg_c(&a, &p->pos_out);
    gpux_cl_arg_c(&a, &p->counts);
    gpux_cl_arg_c(&a, &p->lb);
    gpux_cl_arg_long(&a, p->len);
    gpux_cl_arg_long(&a, p->rows);
    gpux_cl_arg_long(&a, p->p0);
    gpux_cl_arg_long(&a, p->plen);
    gpux_cl_arg_long(&a, p->tpp);
    gpux_cl_arg_int(&a, p->pass);
    gpux_cl_arg_int(&a, p->npass);
    gpux_cl_arg_int(&a, p->portion);
    gpux_cl_arg_int(&a, p->nportions);
    {
      const gpux__sort_keycv cv = gpux__sort_keycv_of(p->dtype);
      const cl_ulong em = cv.em, mm = cv.mm, knan = cv.nan;
      gpux_cl_arg_c(&a, &p->kin);
      gpux_cl_arg_c(&a, &p->kout);
      gpux_cl_arg_c(&a, &p->pos64);
      gpux_cl_arg_int(&a, cv.w);
      gpux_cl_arg_int(&a, cv.cls);
      gpux_cl_arg(&a, sizeof flags, &flags);
      gpux_cl_arg(&a, sizeof em, &em);
      gpux_cl_arg(&a, sizeof mm, &mm);
      gpux_cl_arg(&a, sizeof knan, &knan);
    }
    if (b->red_cpu) /* takers, each looping over tiles */
      return launch(q, &a, tiles < GPUX_CL_SORT_CPU_TAKERS ? tiles : GPUX_CL_SORT_CPU_TAKERS, -1);
    return launch(q, &a, tiles, 0);
  default: /* GPUX__SO_LOCAL */
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_sort, 0, st->w[SK_LOCAL][wi], 0);
    a.k = k;
    gpux_cl_arg_c(&a, &p->img_in);
    gpux_cl_arg_c(&a, &p->pos_in);
    gpux_cl_arg_c(&a, &p->img_out);
    gpux_cl_arg_c(&a, &p->pos_out);
    gpux_cl_arg_long(&a, p->len);
    gpux_cl_arg_long(&a, p->rows);
    return launch(q, &a, p->rows, b->red_cpu);
  }
}

static gpux_status gpux_cl_sort(gpux__bq *q, const gpux__sort_pass *p) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_sort(q, p));
}

static void install_sort(gpux__backend_iface *it) { it->sort = gpux_cl_sort; }
const gpux_cl_family gpux_cl_fam_sort = {
    GPUX_CL_FAM_SOURCE(sort),
    .options = sort_options,
    .split = 0,
    .resolve = resolve_sort,
    .release = release_sort,
    .state_size = sizeof(sort_state),
    .install = install_sort,
    .query = -1,
};
