/* gpux OpenCL backend: boolean masks (gpux__mask_pass; kernels/cl/mask.cl). One program, in
 * the form of reduce.cl and scan.cl (b->red_cpu: the GPU form's work-group per tile, or the
 * CPU form's work-item per tile), its kernels resolved into the family's table
 * [kind][element size]. */
#include <stdio.h>
#include <string.h>
#include "cl_internal.h"

typedef struct mask_state {
  cl_kernel k[GPUX_MASK_KIND_COUNT][GPUX_CL_NSIZES]; /* nonzero, ids: [.][0] only; starts:
                                                        no 16-byte kernel */
} mask_state;

#define KID(k, id) MK_##k = id,
enum { GPUX_MASK_KINDS(KID) MK_END_ };
#undef KID

static const char *const kind_name[GPUX_MASK_KIND_COUNT] = {
#define KNAME(k, id) [id] = #k,
    GPUX_MASK_KINDS(KNAME)
#undef KNAME
};
static const int elem_size[GPUX_CL_NSIZES] = {
#define ESIZE(sz) sz,
    GPUX_ELEM_SIZES(ESIZE)
#undef ESIZE
};

static mask_state *state_of(gpux__bctx *b) { return (mask_state *)b->fam[GPUX_CL_FAM_mask]; }

static gpux_status resolve_mask(gpux__bctx *b, cl_program p, int part) {
  (void)part;
  mask_state *st = state_of(b);
  for (int k = 0; k < GPUX_MASK_KIND_COUNT; k++)
    for (int i = 0; i < GPUX_CL_NSIZES && !((k == MK_nonzero || k == MK_ids) && i > 0) &&
                    !(k == MK_starts && elem_size[i] > 8);
         i++) {
      gpux_status s =
          k == MK_nonzero ? gpux_cl_resolve(b, p, &st->k[k][i], 0, GPUX_KN_MASK_NONZERO)
          : k == MK_ids   ? gpux_cl_resolve(b, p, &st->k[k][i], 0, GPUX_KN_MASK_IDS)
                          : gpux_cl_resolve(b, p, &st->k[k][i], 0, GPUX_KN_MASK("%s", "%d"),
                                            kind_name[k], elem_size[i]);
      if (s != GPUX_SUCCESS) return s;
    }
  return GPUX_SUCCESS;
}

static void release_mask(gpux__bctx *b) {
  mask_state *st = state_of(b);
  gpux_cl_release_kernels(&st->k[0][0], sizeof st->k / sizeof(cl_kernel));
}

/* the form of reduce.cl / scan.cl (fixed with the context) */
static void mask_options(gpux__bctx *b, char *buf, size_t size) {
  snprintf(buf, size, "%s", b->red_build_options);
}

/* groups as 2-d NDRanges of up to 2^20 x 32768 (cl_reduce.c's launch_groups), the kernel's
 * last argument the first group's index */
#define GROUPS_DIM0 ((int64_t)1 << 20)
#define GROUPS_DIM1 ((int64_t)32768)
static gpux_status launch_groups(gpux__bq *q, gpux_cl_args *a, size_t local, int64_t groups) {
  const cl_uint gbase_arg = a->i;
  if (a->e != CL_SUCCESS)
    return gpux_cl_kernel_error(a->k, "clSetKernelArg", a->e, GPUX_ERROR_LAUNCH);
  for (int64_t base = 0; base < groups;) {
    const int64_t left = groups - base;
    const int64_t g0 = left >= GROUPS_DIM0 ? GROUPS_DIM0 : left;
    int64_t g1 = left >= GROUPS_DIM0 ? left / GROUPS_DIM0 : 1;
    if (g1 > GROUPS_DIM1) g1 = GROUPS_DIM1;
    const cl_long gb = (cl_long)base;
    cl_int e = clSetKernelArg(a->k, gbase_arg, sizeof gb, &gb);
    if (e != CL_SUCCESS) return gpux_cl_kernel_error(a->k, "clSetKernelArg", e, GPUX_ERROR_LAUNCH);
    size_t global[2] = {(size_t)g0 * local, (size_t)g1}, lsz[2] = {local, 1};
    e = clEnqueueNDRangeKernel(q->queue, a->k, 2, NULL, global, lsz, 0, NULL, NULL);
    if (e != CL_SUCCESS)
      return gpux_cl_kernel_error(a->k, "clEnqueueNDRangeKernel", e, GPUX_ERROR_LAUNCH);
    base += g0 * g1;
  }
  return GPUX_SUCCESS;
}

static gpux_status launch_mask(gpux__bq *q, const gpux__mask_pass *p) {
  gpux__bctx *b = q->b;
  const int si = p->kind == MK_nonzero || p->kind == MK_ids ? 0 : GPUX_ELEM_SIZE_INDEX(p->elem_size);
  cl_kernel k;
  GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_mask, 0, state_of(b)->k[p->kind][si], 0);
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  const cl_ulong nzbits = (cl_ulong)p->nzbits;
  switch (p->kind) {
  case MK_flags:
    gpux_cl_arg_c(&a, &p->x);
    gpux_cl_arg(&a, sizeof nzbits, &nzbits);
    gpux_cl_arg_c(&a, &p->bits);
    gpux_cl_arg_c(&a, &p->out);
    gpux_cl_arg_long(&a, p->n);
    break;
  case MK_starts: {
    const cl_int kcls = p->kcls;
    const cl_ulong em = (cl_ulong)p->em, mm = (cl_ulong)p->mm;
    gpux_cl_arg_c(&a, &p->x);
    gpux_cl_arg(&a, sizeof kcls, &kcls);
    gpux_cl_arg(&a, sizeof em, &em);
    gpux_cl_arg(&a, sizeof mm, &mm);
    gpux_cl_arg_c(&a, &p->bits);
    gpux_cl_arg_c(&a, &p->out);
    gpux_cl_arg_long(&a, p->n);
    break;
  }
  case MK_nonzero:
    gpux_cl_arg_c(&a, &p->bits);
    gpux_cl_arg_c(&a, &p->incl);
    gpux_cl_arg_c(&a, &p->out);
    gpux_cl_arg_long(&a, p->n);
    gpux_cl_arg_long(&a, p->sp);
    gpux_cl_arg_long(&a, p->sd);
    gpux_cl_arg(&a, sizeof p->nd, &p->nd);
    break;
  case MK_ids:
    gpux_cl_arg_c(&a, &p->bits);
    gpux_cl_arg_c(&a, &p->incl);
    gpux_cl_arg_c(&a, &p->x); /* perm (a NULL buffer: none) */
    gpux_cl_arg_c(&a, &p->out);
    gpux_cl_arg_long(&a, p->n);
    break;
  default: /* compress, put */
    gpux_cl_arg_c(&a, &p->x);
    gpux_cl_arg_c(&a, &p->bits);
    gpux_cl_arg_c(&a, &p->incl);
    gpux_cl_arg_c(&a, p->kind == MK_compress ? &p->out : &p->vals);
    gpux_cl_arg_long(&a, p->n);
  }
  /* GPU form: a group per tile; CPU form: a work-item per tile */
  const int64_t groups =
      b->red_cpu ? (p->ntiles + (int64_t)b->red_local - 1) / (int64_t)b->red_local : p->ntiles;
  return launch_groups(q, &a, b->red_cpu ? b->red_local : GPUX_MASK_THREADS, groups);
}

static gpux_status gpux_cl_mask(gpux__bq *q, const gpux__mask_pass *p) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_mask(q, p));
}

static void install_mask(gpux__backend_iface *it) { it->mask = gpux_cl_mask; }
const gpux_cl_family gpux_cl_fam_mask = {
    GPUX_CL_FAM_SOURCE(mask),
    .options = mask_options,
    .split = 0,
    .resolve = resolve_mask,
    .release = release_mask,
    .state_size = sizeof(mask_state),
    .install = install_mask,
    .query = -1,
};
