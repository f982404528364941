/* gpux OpenCL backend: the select family (gpux__select; kernels/cl/select.cl, the
 * algorithm in kernels/common/gpux_select.h). One program, in the form of reduce.cl
 * (b->red_cpu: the CPU form's work-item per key in hist), its kernels resolved into
 * [kind][dtype] plus those of no dtype. */
#include <stdio.h>
#include <string.h>
#include "cl_internal.h"

typedef struct select_state {
  cl_kernel k[GPUX_SEL_KIND_COUNT][GPUX_DTYPE_COUNT];
  cl_kernel pick, scan, pick12, map, gcnt;
} select_state;

static const char *const kind_name[GPUX_SEL_KIND_COUNT] = {
#define KNAME(k, id) [id] = #k,
    GPUX_SEL_KINDS(KNAME)
#undef KNAME
};
static const char *const dt_name[GPUX_DTYPE_COUNT] = {
#define DNAME(a, dt) [GPUX_KDT_##dt] = #dt,
    GPUX_SEL_DT(DNAME, _)
#undef DNAME
};

static select_state *state_of(gpux__bctx *b) {
  return (select_state *)b->fam[GPUX_CL_FAM_select];
}

static gpux_status resolve_select(gpux__bctx *b, cl_program p, int part) {
  (void)part;
  select_state *st = state_of(b);
  gpux_status s = gpux_cl_resolve(b, p, &st->pick, 0, "%s", GPUX_KN_SELECT_PICK);
  if (s == GPUX_SUCCESS) s = gpux_cl_resolve(b, p, &st->scan, 0, "%s", GPUX_KN_SELECT_SCAN);
  if (s == GPUX_SUCCESS)
    s = gpux_cl_resolve(b, p, &st->pick12, 0, "%s", GPUX_KN_SELECT_PICK12);
  if (s == GPUX_SUCCESS) s = gpux_cl_resolve(b, p, &st->map, 0, "%s", GPUX_KN_SELECT_MAP);
  if (s == GPUX_SUCCESS) s = gpux_cl_resolve(b, p, &st->gcnt, 0, "%s", GPUX_KN_SELECT_GCNT);
  for (int k = 0; k < GPUX_SEL_KIND_COUNT && s == GPUX_SUCCESS; k++)
    for (int d = 0; d < GPUX_DTYPE_COUNT && s == GPUX_SUCCESS; d++) {
      if (!dt_name[d]) continue;
      /* qfin computes in double for every dtype but the float32 / half ones */
      const int f64 = d == GPUX_KDT_f64 ||
                      (k == 5 && d != GPUX_KDT_f32 && d != GPUX_KDT_f16 && d != GPUX_KDT_bf16);
      s = gpux_cl_resolve(b, p, &st->k[k][d], f64, GPUX_KN_SELECT("%s", "%s"), kind_name[k],
                          dt_name[d]);
    }
  return s;
}

static void release_select(gpux__bctx *b) {
  select_state *st = state_of(b);
  gpux_cl_release_kernels(&st->k[0][0], sizeof st->k / sizeof(cl_kernel));
  gpux_cl_release_kernels(&st->pick, 1);
  gpux_cl_release_kernels(&st->scan, 1);
  gpux_cl_release_kernels(&st->pick12, 1);
  gpux_cl_release_kernels(&st->map, 1);
  gpux_cl_release_kernels(&st->gcnt, 1);
}

static void select_options(gpux__bctx *b, char *buf, size_t size) {
  snprintf(buf, size, "%s", b->red_build_options);
}

/* `groups` work-groups of `local` work-items */
static gpux_status enqueue_local(gpux__bq *q, const gpux_cl_args *a, int64_t groups,
                                 size_t local) {
  if (a->e != CL_SUCCESS)
    return gpux_cl_kernel_error(a->k, "clSetKernelArg", a->e, GPUX_ERROR_LAUNCH);
  size_t global = (size_t)groups * local;
  cl_int e = clEnqueueNDRangeKernel(q->queue, a->k, 1, NULL, &global, &local, 0, NULL, NULL);
  if (e != CL_SUCCESS)
    return gpux_cl_kernel_error(a->k, "clEnqueueNDRangeKernel", e, GPUX_ERROR_LAUNCH);
  return GPUX_SUCCESS;
}

/* `groups` work-groups of GPUX_SEL_THREADS (the kernels index rows and tiles by group) */
static gpux_status enqueue_groups(gpux__bq *q, const gpux_cl_args *a, int64_t groups) {
  return enqueue_local(q, a, groups, GPUX_SEL_THREADS);
}

/* cnt / emit over rows x tpr tiles (their last argument, rows, set here): the GPU form's
 * work-group per tile, the CPU form's work-item per tile */
static gpux_status enqueue_tiles(gpux__bq *q, gpux_cl_args *a, int64_t rows, int64_t tpr) {
  gpux_cl_arg_long(a, rows);
  if (q->b->red_cpu) return gpux_cl_enqueue_1d(q, a, (size_t)(rows * tpr));
  return enqueue_groups(q, a, rows * tpr);
}

/* h12, gcnt, gather and filt: an h12 group each, a work-group (GPU form) or a work-item in a
 * work-group of one (CPU form: a private histogram or a serial loop each, nothing for pocl to
 * vectorize across work-items) */
static gpux_status enqueue_h12_groups(gpux__bq *q, const gpux_cl_args *a, int64_t n) {
  return enqueue_local(q, a, n, q->b->red_cpu ? 1 : GPUX_SEL_THREADS);
}

/* an operand that may be absent (buf NULL): the kernel gets `other`'s buffer, unwritten */
static void arg_opt(gpux_cl_args *a, const gpux__operand *o, const gpux__operand *other) {
  gpux_cl_arg_c(a, o->buf ? o : other);
}

static gpux_status launch_select(gpux__bq *q, const gpux__select *p) {
  gpux__bctx *b = q->b;
  select_state *st = state_of(b);
  cl_kernel k;
  const int f64 = p->dtype == GPUX_KDT_f64;
  if (p->kind == GPUX__SEL_PICK) {
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_select, 0, st->pick, 0);
  } else if (p->kind == GPUX__SEL_SCAN) {
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_select, 0, st->scan, 0);
  } else if (p->kind == GPUX__SEL_PICK12) {
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_select, 0, st->pick12, 0);
  } else if (p->kind == GPUX__SEL_MAP) {
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_select, 0, st->map, 0);
  } else if (p->kind == GPUX__SEL_GCNT) {
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_select, 0, st->gcnt, 0);
  } else {
    GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_select, 0, st->k[p->kind][p->dtype], f64);
  }
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  const cl_uint flags = p->flags;
  const int64_t he = b->red_cpu ? 1 : 16;
  const int64_t gpr = (p->len + GPUX_SEL_THREADS * he - 1) / (GPUX_SEL_THREADS * he);
  const int64_t tpr = (p->len + GPUX_SEL_TILE - 1) / GPUX_SEL_TILE;
  /* h12, gcnt, gather and filt: h12's groups a row and keys a group; filt's and gather's
   * list: cb's words a group */
  int64_t g12, capg;
  const int64_t hk = gpux__sel_groups(p, b->red_cpu, &g12, &capg);
  switch (p->kind) {
  case 0: /* ss */
    gpux_cl_arg_c(&a, &p->x);
    gpux_cl_arg_long(&a, p->len);
    gpux_cl_arg_c(&a, &p->q);
    gpux_cl_arg_long(&a, p->n);
    gpux_cl_arg_int(&a, p->right);
    gpux_cl_arg_c(&a, &p->out);
    return gpux_cl_enqueue_1d(q, &a, (size_t)p->n);
  case 1: /* hist */
    gpux_cl_arg_c(&a, &p->x);
    gpux_cl_arg_long(&a, p->len);
    gpux_cl_arg_long(&a, gpr);
    gpux_cl_arg_int(&a, p->nt);
    gpux_cl_arg_int(&a, p->shift);
    gpux_cl_arg(&a, sizeof flags, &flags);
    gpux_cl_arg_mem(&a, &p->st);
    gpux_cl_arg_mem(&a, &p->hist);
    return enqueue_groups(q, &a, p->rows * gpr);
  case 2: /* cnt */
  case 3: /* emit: cnt's arguments, then its own */
    gpux_cl_arg_c(&a, &p->x);
    gpux_cl_arg_long(&a, p->len);
    gpux_cl_arg_long(&a, tpr);
    gpux_cl_arg(&a, sizeof flags, &flags);
    gpux_cl_arg_mem(&a, &p->st);
    gpux_cl_arg_mem(&a, &p->cnt);
    if (p->kind == 2) return enqueue_tiles(q, &a, p->rows, tpr);
    gpux_cl_arg_int(&a, p->mode);
    gpux_cl_arg_long(&a, p->k);
    arg_opt(&a, &p->vals, &p->x);
    arg_opt(&a, &p->idx, &p->cnt);
    gpux_cl_arg_int(&a, p->vals.buf != NULL);
    gpux_cl_arg_int(&a, p->idx.buf != NULL);
    return enqueue_tiles(q, &a, p->rows, tpr);
  case 4: /* rank */
    gpux_cl_arg_mem(&a, &p->tv);
    gpux_cl_arg_mem(&a, &p->ti);
    gpux_cl_arg_long(&a, p->rows);
    gpux_cl_arg_long(&a, p->k);
    gpux_cl_arg(&a, sizeof flags, &flags);
    gpux_cl_arg_c(&a, &p->vals);
    gpux_cl_arg_c(&a, &p->idx);
    return gpux_cl_enqueue_1d(q, &a, (size_t)(p->rows * p->k));
  case 5: /* qfin */
    gpux_cl_arg_mem(&a, &p->st);
    gpux_cl_arg_mem(&a, &p->rk);
    gpux_cl_arg_mem(&a, &p->gam);
    gpux_cl_arg_long(&a, p->rows);
    gpux_cl_arg_int(&a, p->nq);
    gpux_cl_arg_int(&a, p->mode);
    gpux_cl_arg_c(&a, &p->out);
    gpux_cl_arg_long(&a, p->len);
    return gpux_cl_enqueue_1d(q, &a, (size_t)(p->rows * p->nq));
  case 6: { /* h12 */
    gpux_cl_arg_c(&a, &p->x);
    gpux_cl_arg_long(&a, p->len);
    gpux_cl_arg_long(&a, g12);
    gpux_cl_arg_long(&a, hk);
    gpux_cl_arg(&a, sizeof flags, &flags);
    gpux_cl_arg_mem(&a, &p->hist);
    gpux_cl_arg_mem(&a, &p->hb);
    gpux_cl_arg_long(&a, p->rows);
    return enqueue_h12_groups(q, &a, p->rows * g12);
  }
  case 7: /* gather: an h12 group each (a work-group, or a work-item in the CPU form) */
    gpux_cl_arg_c(&a, &p->x);
    gpux_cl_arg_long(&a, p->len);
    gpux_cl_arg_long(&a, g12);
    gpux_cl_arg_long(&a, hk);
    gpux_cl_arg(&a, sizeof flags, &flags);
    gpux_cl_arg_mem(&a, &p->pc);
    gpux_cl_arg_long(&a, p->pcs);
    gpux_cl_arg_int(&a, p->shift);
    gpux_cl_arg_mem(&a, &p->gc);
    gpux_cl_arg_mem(&a, p->cb.buf ? &p->cb : &p->gc); /* capg 0: never read */
    gpux_cl_arg_long(&a, capg);
    gpux_cl_arg_mem(&a, &p->cand);
    gpux_cl_arg_mem(&a, &p->cpos);
    gpux_cl_arg_long(&a, p->cstride);
    gpux_cl_arg_long(&a, p->rows);
    return enqueue_h12_groups(q, &a, p->rows * g12);
  case 8: /* ssel: a work-group per row (both forms) */
    gpux_cl_arg_c(&a, &p->x);
    gpux_cl_arg_long(&a, p->len);
    gpux_cl_arg_long(&a, p->n);
    gpux_cl_arg_long(&a, p->k);
    gpux_cl_arg(&a, sizeof flags, &flags);
    gpux_cl_arg_mem(&a, &p->st);
    gpux_cl_arg_long(&a, p->rows);
    return enqueue_groups(q, &a, p->rows);
  case 9: /* filt: an h12 group each */
    gpux_cl_arg_c(&a, &p->x);
    gpux_cl_arg_long(&a, p->len);
    gpux_cl_arg_long(&a, g12);
    gpux_cl_arg_long(&a, hk);
    gpux_cl_arg(&a, sizeof flags, &flags);
    gpux_cl_arg_mem(&a, &p->st);
    gpux_cl_arg_mem(&a, &p->cb);
    gpux_cl_arg_long(&a, capg);
    gpux_cl_arg_mem(&a, &p->gc);
    gpux_cl_arg_mem(&a, &p->tot);
    gpux_cl_arg_long(&a, p->rows);
    return enqueue_h12_groups(q, &a, p->rows * g12);
  case GPUX__SEL_GCNT:
    gpux_cl_arg_mem(&a, &p->hb);
    gpux_cl_arg_mem(&a, &p->pc);
    gpux_cl_arg_mem(&a, &p->gc);
    gpux_cl_arg_long(&a, g12);
    gpux_cl_arg_long(&a, p->rows);
    return enqueue_h12_groups(q, &a, p->rows * g12);
  case GPUX__SEL_PICK12:
    gpux_cl_arg_mem(&a, &p->hist);
    gpux_cl_arg_long(&a, p->k);
    gpux_cl_arg_mem(&a, &p->pc);
    gpux_cl_arg_long(&a, p->rows);
    return gpux_cl_enqueue_1d(q, &a, (size_t)p->rows);
  case GPUX__SEL_MAP:
    gpux_cl_arg_c(&a, &p->idx);
    gpux_cl_arg_c(&a, &p->cpos);
    gpux_cl_arg_long(&a, p->k);
    return gpux_cl_enqueue_1d(q, &a, (size_t)p->k);
  case GPUX__SEL_PICK:
    gpux_cl_arg_mem(&a, &p->st);
    gpux_cl_arg_mem(&a, &p->hist);
    gpux_cl_arg_mem(&a, &p->rk);
    gpux_cl_arg_long(&a, p->n);
    gpux_cl_arg_int(&a, p->nt);
    gpux_cl_arg_int(&a, p->shift);
    gpux_cl_arg_int(&a, p->first);
    return gpux_cl_enqueue_1d(q, &a, (size_t)p->n);
  default: /* SCAN: the GPU form's work-group per row, the CPU form's work-item per row */
    gpux_cl_arg_mem(&a, &p->cnt);
    gpux_cl_arg_mem(&a, &p->st);
    gpux_cl_arg_long(&a, p->rows);
    gpux_cl_arg_long(&a, tpr);
    if (b->red_cpu) return gpux_cl_enqueue_1d(q, &a, (size_t)p->rows);
    return enqueue_groups(q, &a, p->rows);
  }
}

static gpux_status gpux_cl_select(gpux__bq *q, const gpux__select *p) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_select(q, p));
}

static void install_select(gpux__backend_iface *it) { it->select = gpux_cl_select; }
const gpux_cl_family gpux_cl_fam_select = {
    GPUX_CL_FAM_SOURCE(select),
    .options = select_options,
    .split = 0,
    .resolve = resolve_select,
    .release = release_select,
    .state_size = sizeof(select_state),
    .install = install_select,
    .query = -1,
};
