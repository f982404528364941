/* gpux OpenCL backend: sort (gpux__sort_pass; kernels/cl/sort.cl). One program, in the form
 * of reduce.cl (b->red_cpu): in the GPU form every kernel runs in 1-d work-groups of
 * GPUX_SORT_THREADS, the tiled ones looping over their groups (a grid of at most
 * GPUX_CL_SORT_MAX_GROUPS work-groups serves any size); in the CPU form hist, scatter and
 * local take a work-item per tile or row, in work-groups of b->red_local. */
#include <stdio.h>
#include <string.h>
#include "cl_internal.h"

#define GPUX_CL_SORT_MAX_GROUPS 65536

enum { SK_HIST, SK_SCATTER, SK_LOCAL, SK_NW };
typedef struct sort_state {
  cl_kernel img[GPUX_KDT_COUNT], out[GPUX_KDT_COUNT];
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
    s = gpux_cl_resolve(b, p, &st->out[GPUX_KDT_##dt], 0,                                   \
                        GPUX_KN_SORT_OUT(#dt));
  GPUX_SORT_DTYPES(SK_DT)
#undef SK_DT
  static const char *const wn[2] = {"32", "64"};
  for (int i = 0; i < 2 && s == GPUX_SUCCESS; i++) {
    s = gpux_cl_resolve(b, p, &st->w[SK_HIST][i], 0, GPUX_KN_SORT_HIST("%s"), wn[i]);
    if (s == GPUX_SUCCESS)
      s = gpux_cl_resolve(b, p, &st->w[SK_SCATTER][i], 0, GPUX_KN_SORT_SCATTER("%s"), wn[i]);
    if (s == GPUX_SUCCESS)
      s = gpux_cl_resolve(b, p, &st->w[SK_LOCAL][i], 0, GPUX_KN_SORT_LOCAL("%s"), wn[i]);
  }
  if (s == GPUX_SUCCESS) s = gpux_cl_resolve(b, p, &st->widen, 0, GPUX_KN_SORT_WIDEN);
  return s;
}

static void release_sort(gpux__bctx *b) {
  sort_state *st = state_of(b);
  gpux_cl_release_kernels(st->img, GPUX_KDT_COUNT);
  gpux_cl_release_kernels(st->out, GPUX_KDT_COUNT);
  gpux_cl_release_kernels(&st->w[0][0], SK_NW * 2);
  gpux_cl_release_kernels(&st->widen, 1);
}

/* the form of reduce.cl (fixed with the context): GPUX_CL_CPU=1 on CPU devices */
static void sort_options(gpux__bctx *b, char *buf, size_t size) {
  snprintf(buf, size, "%s", b->red_build_options);
}

/* groups work-groups of GPUX_SORT_THREADS (capped; the kernels loop); per_item: the CPU
 * form's tiled kernels, a work-item per group in work-groups of b->red_local */
static gpux_status launch(gpux__bq *q, const gpux_cl_args *a, int64_t groups, int per_item) {
  if (a->e != CL_SUCCESS)
    return gpux_cl_kernel_error(a->k, "clSetKernelArg", a->e, GPUX_ERROR_LAUNCH);
  size_t local = GPUX_SORT_THREADS, global;
  if (per_item) {
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
  const int64_t n = p->rows * p->len, tiles = p->rows * p->ntiles;
  const int64_t egroups = (n + GPUX_SORT_TILE - 1) / GPUX_SORT_TILE;
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
    return launch(q, &a, egroups, 0);
  case GPUX__SO_HIST:
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_sort, 0, st->w[SK_HIST][wi], 0);
    a.k = k;
    gpux_cl_arg_c(&a, &p->img_in);
    gpux_cl_arg_c(&a, &p->counts);
    gpux_cl_arg_long(&a, p->len);
    gpux_cl_arg_long(&a, p->ntiles);
    gpux_cl_arg_int(&a, p->shift);
    gpux_cl_arg_long(&a, tiles);
    return launch(q, &a, tiles, b->red_cpu);
  case GPUX__SO_SCATTER:
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_sort, 0, st->w[SK_SCATTER][wi], 0);
    a.k = k;
    gpux_cl_arg_c(&a, &p->img_in);
    gpux_cl_arg_c(&a, &p->pos_in);
    gpux_cl_arg_c(&a, &p->offs);
    gpux_cl_arg_c(&a, &p->img_out);
    gpux_cl_arg_c(&a, &p->pos_out);
    gpux_cl_arg_long(&a, p->len);
    gpux_cl_arg_long(&a, p->ntiles);
    gpux_cl_arg_int(&a, p->shift);
    gpux_cl_arg_long(&a, tiles);
    return launch(q, &a, tiles, b->red_cpu);
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
