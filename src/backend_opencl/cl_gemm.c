/* gpux OpenCL backend: matrix products (gpux__gemm in src/api/gpux_backend.h).
 *
 * Two paths, resolved by the front end:
 *   vendor: CLBlast (linked when found at configure time: GPUX_HAVE_CLBLAST), float32,
 *     float64, complex64 and complex128 (CLBlast[SDCZ]gemm), row-major directly (CLBlast
 *     swaps the operands itself), on the given
 *     queue, without the launch lock (CLBlast is thread safe on its own); batches through
 *     the strided-batched API (a stride of 0, a broadcast operand, is accepted there);
 *     k == 0 (C = beta * C), which CLBlast rejects, through the native kernel. beta == 0
 *     with NaN in C: CLBlast 1.5.3 does not read C (tested on pocl, direct and indirect
 *     kernels). Conjugate transposes are CLBlastTransposeConjugate; an operand conjugated
 *     without a transpose (conj_a with trans_a 0), which BLAS cannot say, goes native.
 *   native: kernels/cl/gemm.cl, gpux_gemm_<dt> for GPUX_GEMM_DT (f32 f64, the integers), a
 *     program part per dtype (built on first use, cached on disk for non-pocl devices) in one of two
 *     forms fixed per context: GPU (work-groups of 256, 128x128 / 64x64 tiles) or CPU
 *     (work-groups of 64, 32x32 tiles; pocl), GPUX_OPENCL_GEMM=gpu|cpu forces one where the
 *     device allows it; GPUX_OPENCL_GEMM_OPTIONS adds build options (tuning). Its launches,
 *     and its build, run under the launch lock.
 *     Complex (GPUX_GEMM_DT_COMPLEX): gpux_gemm_c64 / _c128 in their parts, with their
 *     own tiles (GPU 64 x 64; CPU 32 rows x 32 / 16 columns) and conjugation flags.
 * float16 / bfloat16 products are not available on OpenCL (GPUX_ERROR_UNSUPPORTED_DTYPE). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cl_internal.h"
#ifdef GPUX_HAVE_CLBLAST
#include <clblast_c.h>
#endif

#define SET_ERROR(...) gpux_cl_host->set_error(__VA_ARGS__)

/* the family's own state (b->fam[GPUX_CL_FAM_gemm]) */
typedef struct gemm_state {
  cl_kernel gemm[GPUX_KDT_COUNT]; /* gpux_gemm_<dt>; NULL where absent */
  int cpu;                        /* the form, fixed when gemm.cl is built */
} gemm_state;
#define GEMM_STATE(b) ((gemm_state *)(b)->fam[GPUX_CL_FAM_gemm])

/* ---------------------------------------------------------------- native: program */
/* Launch configuration of each form; must match kernels/cl/gemm.cl.
 * GPU: one work-group of 256 per tile of C (128x128 for 4-byte dtypes, 64x64 for 8-byte),
 *      NDRange (tiles along n * 256, tiles along m, batch), tile0 = base of dim 1;
 * CPU: one work-item (work-groups of 1) per block of 32 rows x 64 (4-byte) or 32 (8-byte)
 *      columns, NDRange (blocks along m, blocks along n, batch), tile0 = base of dim 1. */
typedef struct gemm_form {
  size_t nt;          /* work-items per group (reqd_work_group_size) */
  int64_t rows4, cols4; /* rows and columns of C per group, 4-byte dtypes */
  int64_t rows8, cols8; /* likewise 8-byte dtypes */
  int64_t rowsc, cols_c64, cols_c128; /* likewise the complex kernels (end of gemm.cl) */
  size_t local_bytes; /* local memory the kernels need (the larger one) */
} gemm_form;
static const gemm_form forms[2] = {
    /* GPU: 2 operands x 2 buffers x BK x (BM + 4) elements (complex128: 2 x 8 x 64 x 16,
       less) */
    {256, 128, 128, 64, 64, 64, 64, 64, 2 * 2 * 16 * (64 + 4) * 8},
    /* CPU (complex: 32 rows x 2 vectors of 16 / 8 elements) */
    {1, 32, 64, 32, 32, 32, 32, 16, 0},
};

static int is_cplx(int dt) { return dt == GPUX_KDT_c64 || dt == GPUX_KDT_c128; }

/* rows and columns of C per group of dtype dt in form f */
static void form_tile(const gemm_form *f, int dt, int64_t *rows, int64_t *cols) {
  if (is_cplx(dt)) {
    *rows = f->rowsc;
    *cols = dt == GPUX_KDT_c64 ? f->cols_c64 : f->cols_c128;
  } else if (gpux_cl_dt_size[dt] == 8) {
    *rows = f->rows8;
    *cols = f->cols8;
  } else {
    *rows = f->rows4;
    *cols = f->cols4;
  }
}

#define DT_SIZE(dt) ((int)gpux_cl_dt_size[dt])

static void release_gemm(gpux__bctx *b) { gpux_cl_release_kernels(GEMM_STATE(b)->gemm, GPUX_KDT_COUNT); }

/* The form this context uses: CPU devices (and devices without room for the GPU form) the
 * CPU form; GPUX_OPENCL_GEMM=gpu|cpu forces one where the device allows it. */
static int pick_cpu_form(const gpux__bctx *b) {
  size_t maxwg = 0;
  cl_ulong local_mem = 0;
  clGetDeviceInfo(b->dev->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof maxwg, &maxwg, NULL);
  clGetDeviceInfo(b->dev->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem, NULL);
  int gpu_ok = maxwg >= forms[0].nt && local_mem >= forms[0].local_bytes;
  int cpu = !b->dev->is_gpu || !gpu_ok;
  const char *env = getenv("GPUX_OPENCL_GEMM");
  if (env && !strcmp(env, "cpu")) cpu = 1;
  if (env && !strcmp(env, "gpu") && gpu_ok) cpu = 0;
  return cpu;
}

/* The form (gemm_state.cpu, fixed when gemm.cl is built) and its options. */
static void gemm_options(gpux__bctx *b, char *buf, size_t size) {
  const int cpu = pick_cpu_form(b);
  /* GPUX_OPENCL_GEMM_OPTIONS: extra build options for tuning (e.g. -cl-nv-maxrregcount=128) */
  const char *extra = getenv("GPUX_OPENCL_GEMM_OPTIONS");
  snprintf(buf, size, "%s%s%s%s", b->build_options, cpu ? " -DGPUX_CL_CPU=1" : "",
           extra && *extra ? " " : "", extra && *extra ? extra : "");
  GEMM_STATE(b)->cpu = cpu;
}

/* Split by dtype (gpux_kernels.h: program parts): part is the dtype whose gpux_gemm_<dt> a
 * first product of that dtype builds, so a float32 program does not compile the complex
 * kernels (which doubled gemm.cl's cold build on pocl). */
static gpux_status resolve_gemm(gpux__bctx *b, cl_program p, int part) {
  gpux_status s = GPUX_SUCCESS;
#define RESOLVE(a, dt)                                                                   \
  if (s == GPUX_SUCCESS && part == GPUX_KDT_##dt)                                        \
    s = gpux_cl_resolve(b, p, &GEMM_STATE(b)->gemm[GPUX_KDT_##dt], GPUX_CL_IS_F64(GPUX_KDT_##dt),    \
                        GPUX_KN_GEMM(#dt));
  GPUX_GEMM_DT(RESOLVE, _)
  GPUX_GEMM_DT_COMPLEX(RESOLVE, _)
#undef RESOLVE
  return s;
}


/* ---------------------------------------------------------------- native: launch */
#define F_TA 1
#define F_TB 2
#define F_VA 4
#define F_VB 8
#define F_VC 16
#define F_BETA0 32
#define F_CA 64
#define F_CB 128
#define GROUPS_LIM ((int64_t)32768) /* groups per launch along dims 1 and 2 */

static int aligned4(int64_t off, int64_t ld, int64_t stride, int64_t batch) {
  return off % 4 == 0 && ld % 4 == 0 && (batch == 1 || stride % 4 == 0);
}

static int beta_is_zero(const gpux__gemm *g) {
  switch (g->dtype) {
    case GPUX_KDT_f32: return g->beta.f32 == 0.0f;
    case GPUX_KDT_f64: return g->beta.f64 == 0.0;
    case GPUX_KDT_c64: return g->beta.c64[0] == 0.0f && g->beta.c64[1] == 0.0f;
    case GPUX_KDT_c128: return g->beta.c128[0] == 0.0 && g->beta.c128[1] == 0.0;
    default: return g->beta.u64 == 0; /* integers: zeroed past their width */
  }
}

static gpux_status launch_native(gpux__bq *q, const gpux__gemm *g) {
  gpux__bctx *b = q->b;
  const int dt = g->dtype; /* one gemm_supports accepted for this path */
  cl_kernel k;
  gemm_state *st = GEMM_STATE(b);
  GPUX_CL_GET_KERNEL(k, &gpux_cl_fam_gemm, dt, st->gemm[dt], GPUX_CL_IS_F64(dt));
  const gemm_form *f = &forms[st->cpu ? 1 : 0];
  const int cpu = st->cpu;
  int64_t br, bc;
  form_tile(f, dt, &br, &bc);
  const int64_t tn = (g->n + bc - 1) / bc, tm = (g->m + br - 1) / br;
  /* dim 0 unsplit (tiles along n on GPUs, along m on CPUs), dim 1 split by GROUPS_LIM */
  const int64_t d0 = cpu ? tm : tn, d1 = cpu ? tn : tm;
  int flags = (g->trans_a ? F_TA : 0) | (g->trans_b ? F_TB : 0) | (beta_is_zero(g) ? F_BETA0 : 0) |
              (g->conj_a ? F_CA : 0) | (g->conj_b ? F_CB : 0);
  if (aligned4(g->a.offset, g->lda, g->stride_a, g->batch)) flags |= F_VA;
  if (aligned4(g->b.offset, g->ldb, g->stride_b, g->batch)) flags |= F_VB;
  if (aligned4(g->c.offset, g->ldc, g->stride_c, g->batch)) flags |= F_VC;
  const size_t esz = (size_t)DT_SIZE(dt);
  gpux_cl_args a = {k, 0, CL_SUCCESS};
  gpux_cl_arg_c(&a, &g->a);
  gpux_cl_arg_long(&a, g->lda);
  gpux_cl_arg_long(&a, g->stride_a);
  gpux_cl_arg_c(&a, &g->b);
  gpux_cl_arg_long(&a, g->ldb);
  gpux_cl_arg_long(&a, g->stride_b);
  gpux_cl_arg_c(&a, &g->c);
  gpux_cl_arg_long(&a, g->ldc);
  gpux_cl_arg_long(&a, g->stride_c);
  gpux_cl_arg_long(&a, g->m);
  gpux_cl_arg_long(&a, g->n);
  gpux_cl_arg_long(&a, g->k);
  gpux_cl_arg(&a, esz, &g->alpha);
  gpux_cl_arg(&a, esz, &g->beta);
  gpux_cl_arg_int(&a, flags);
  const cl_uint base_arg = a.i; /* batch0, tile0 */
  if (a.e != CL_SUCCESS) return gpux_cl_kernel_error(k, "clSetKernelArg", a.e, GPUX_ERROR_LAUNCH);
  for (int64_t z = 0; z < g->batch; z += GROUPS_LIM)
    for (int64_t y = 0; y < d1; y += GROUPS_LIM) {
      cl_long z0 = (cl_long)z, y0 = (cl_long)y;
      cl_int e = clSetKernelArg(k, base_arg, sizeof z0, &z0);
      if (e == CL_SUCCESS) e = clSetKernelArg(k, base_arg + 1, sizeof y0, &y0);
      if (e != CL_SUCCESS) return gpux_cl_kernel_error(k, "clSetKernelArg", e, GPUX_ERROR_LAUNCH);
      size_t global[3] = {(size_t)d0 * f->nt,
                          (size_t)(d1 - y < GROUPS_LIM ? d1 - y : GROUPS_LIM),
                          (size_t)(g->batch - z < GROUPS_LIM ? g->batch - z : GROUPS_LIM)};
      size_t local[3] = {f->nt, 1, 1};
      e = clEnqueueNDRangeKernel(q->queue, k, 3, NULL, global, local, 0, NULL, NULL);
      if (e != CL_SUCCESS)
        return gpux_cl_kernel_error(k, "clEnqueueNDRangeKernel", e, GPUX_ERROR_LAUNCH);
    }
  return GPUX_SUCCESS;
}

static gpux_status gemm_native(gpux__bq *q, const gpux__gemm *g) {
  gpux_cl_lock(q->b);
  return gpux_cl_unlock(q->b, launch_native(q, g));
}

/* ---------------------------------------------------------------- vendor: CLBlast */
#ifdef GPUX_HAVE_CLBLAST
static const char *clblast_name(CLBlastStatusCode c) {
  switch (c) {
#define C(x) \
  case x:    \
    return #x;
    C(CLBlastNotImplemented) C(CLBlastInvalidMatrixA) C(CLBlastInvalidMatrixB)
    C(CLBlastInvalidMatrixC) C(CLBlastInvalidVectorX) C(CLBlastInvalidVectorY)
    C(CLBlastInvalidDimension) C(CLBlastInvalidLeadDimA) C(CLBlastInvalidLeadDimB)
    C(CLBlastInvalidLeadDimC) C(CLBlastInvalidIncrementX) C(CLBlastInvalidIncrementY)
    C(CLBlastInsufficientMemoryA) C(CLBlastInsufficientMemoryB) C(CLBlastInsufficientMemoryC)
    C(CLBlastInsufficientMemoryX) C(CLBlastInsufficientMemoryY) C(CLBlastInsufficientMemoryTemp)
    C(CLBlastInvalidBatchCount) C(CLBlastInvalidOverrideKernel) C(CLBlastMissingOverrideParameter)
    C(CLBlastInvalidLocalMemUsage) C(CLBlastNoHalfPrecision) C(CLBlastNoDoublePrecision)
    C(CLBlastInvalidVectorScalar) C(CLBlastInsufficientMemoryScalar) C(CLBlastDatabaseError)
    C(CLBlastUnknownError) C(CLBlastUnexpectedError)
#undef C
    default: return gpux_cl_error_name((cl_int)c); /* the codes above -1000 are OpenCL's */
  }
}

static gpux_status clblast_error(const gpux__bctx *b, const char *call, const gpux__gemm *g,
                                 CLBlastStatusCode c) {
  gpux_status s = GPUX_ERROR_LAUNCH;
  switch ((int)c) {
    case CLBlastTempBufferAllocFailure: /* CL_MEM_OBJECT_ALLOCATION_FAILURE */
    case CLBlastInsufficientMemoryTemp: s = GPUX_ERROR_OUT_OF_MEMORY; break;
    case CLBlastOpenCLOutOfHostMemory: s = GPUX_ERROR_OUT_OF_HOST_MEMORY; break;
    case CLBlastOpenCLBuildProgramFailure:
    case CLBlastOpenCLCompilerNotAvailable:
    case CLBlastInvalidBinary:
    case CLBlastInvalidBuildOptions:
    case CLBlastInvalidProgram: s = GPUX_ERROR_KERNEL_BUILD; break;
    case CLBlastNoDoublePrecision:
    case CLBlastNoHalfPrecision: s = GPUX_ERROR_UNSUPPORTED_DTYPE; break;
    case CLBlastNotImplemented: s = GPUX_ERROR_UNSUPPORTED; break;
    case CLBlastInvalidDimension:
    case CLBlastInvalidLeadDimA:
    case CLBlastInvalidLeadDimB:
    case CLBlastInvalidLeadDimC:
    case CLBlastInvalidBatchCount:
    case CLBlastInsufficientMemoryA:
    case CLBlastInsufficientMemoryB:
    case CLBlastInsufficientMemoryC: s = GPUX_ERROR_INTERNAL; break; /* front end checked */
    default: break;
  }
  return SET_ERROR(s,
                   "%s(m=%lld, n=%lld, k=%lld, batch=%lld, trans %d %d, lda=%lld, ldb=%lld, "
                   "ldc=%lld) on %s: %s (%d)",
                   call, (long long)g->m, (long long)g->n, (long long)g->k, (long long)g->batch,
                   g->trans_a, g->trans_b, (long long)g->lda, (long long)g->ldb,
                   (long long)g->ldc, b->device_name, clblast_name(c), (int)c);
}
#endif

#ifdef GPUX_HAVE_CLBLAST
/* CLBlastCgemm / CLBlastZgemm (and their strided batches): alpha and beta as cl_float2 /
 * cl_double2 (re, im) */
static gpux_status gemm_vendor_complex(gpux__bq *q, const gpux__gemm *g, CLBlastLayout L,
                                       CLBlastTranspose ta, CLBlastTranspose tb) {
  const size_t m = (size_t)g->m, n = (size_t)g->n, k = (size_t)g->k;
  const size_t lda = (size_t)g->lda, ldb = (size_t)g->ldb, ldc = (size_t)g->ldc;
  const size_t ao = (size_t)g->a.offset, bo = (size_t)g->b.offset, co = (size_t)g->c.offset;
  cl_mem A = (cl_mem)g->a.buf, B = (cl_mem)g->b.buf, C = (cl_mem)g->c.buf;
  cl_command_queue *cq = &q->queue;
  CLBlastStatusCode c;
  const char *call;
  if (g->dtype == GPUX_KDT_c64) {
    cl_float2 al, be;
    al.s[0] = g->alpha.c64[0];
    al.s[1] = g->alpha.c64[1];
    be.s[0] = g->beta.c64[0];
    be.s[1] = g->beta.c64[1];
    if (g->batch > 1) {
      call = "CLBlastCgemmStridedBatched";
      c = CLBlastCgemmStridedBatched(L, ta, tb, m, n, k, al, A, ao, lda, (size_t)g->stride_a, B,
                                     bo, ldb, (size_t)g->stride_b, be, C, co, ldc,
                                     (size_t)g->stride_c, (size_t)g->batch, cq, NULL);
    } else {
      call = "CLBlastCgemm";
      c = CLBlastCgemm(L, ta, tb, m, n, k, al, A, ao, lda, B, bo, ldb, be, C, co, ldc, cq, NULL);
    }
  } else {
    cl_double2 al, be;
    al.s[0] = g->alpha.c128[0];
    al.s[1] = g->alpha.c128[1];
    be.s[0] = g->beta.c128[0];
    be.s[1] = g->beta.c128[1];
    if (g->batch > 1) {
      call = "CLBlastZgemmStridedBatched";
      c = CLBlastZgemmStridedBatched(L, ta, tb, m, n, k, al, A, ao, lda, (size_t)g->stride_a, B,
                                     bo, ldb, (size_t)g->stride_b, be, C, co, ldc,
                                     (size_t)g->stride_c, (size_t)g->batch, cq, NULL);
    } else {
      call = "CLBlastZgemm";
      c = CLBlastZgemm(L, ta, tb, m, n, k, al, A, ao, lda, B, bo, ldb, be, C, co, ldc, cq, NULL);
    }
  }
  if (c != CLBlastSuccess) return clblast_error(q->b, call, g, c);
  return GPUX_SUCCESS;
}
#endif

static gpux_status gemm_vendor(gpux__bq *q, const gpux__gemm *g) {
  const int dt = g->dtype; /* float32 or float64: gemm_supports accepted the path */
#ifndef GPUX_HAVE_CLBLAST
  (void)q;
  (void)dt; /* never called: supports refuses the vendor path without CLBlast */
  return SET_ERROR(GPUX_ERROR_INTERNAL, "opencl gemm: built without CLBlast");
#else
  /* k == 0: C = beta * C, which CLBlast rejects (CLBlastInvalidDimension); conjugation
   * without transposition: no BLAS op says it */
  if (g->k == 0 || (g->conj_a && !g->trans_a) || (g->conj_b && !g->trans_b))
    return gemm_native(q, g);
  const CLBlastLayout L = CLBlastLayoutRowMajor;
  const CLBlastTranspose ta = g->conj_a    ? CLBlastTransposeConjugate
                              : g->trans_a ? CLBlastTransposeYes
                                           : CLBlastTransposeNo;
  const CLBlastTranspose tb = g->conj_b    ? CLBlastTransposeConjugate
                              : g->trans_b ? CLBlastTransposeYes
                                           : CLBlastTransposeNo;
  const size_t m = (size_t)g->m, n = (size_t)g->n, k = (size_t)g->k;
  const size_t lda = (size_t)g->lda, ldb = (size_t)g->ldb, ldc = (size_t)g->ldc;
  cl_mem A = (cl_mem)g->a.buf, B = (cl_mem)g->b.buf, C = (cl_mem)g->c.buf;
  cl_command_queue *cq = &q->queue;
  CLBlastStatusCode c = CLBlastSuccess;
  const char *call;
  const int f64 = dt == GPUX_KDT_f64;
  if (is_cplx(dt)) return gemm_vendor_complex(q, g, L, ta, tb);
  if (g->batch > 1) { /* stride 0 (a broadcast operand) is accepted: CLBlast 1.5.3, pocl */
    call = f64 ? "CLBlastDgemmStridedBatched" : "CLBlastSgemmStridedBatched";
    if (f64)
      c = CLBlastDgemmStridedBatched(L, ta, tb, m, n, k, g->alpha.f64, A, (size_t)g->a.offset,
                                     lda, (size_t)g->stride_a, B, (size_t)g->b.offset, ldb,
                                     (size_t)g->stride_b, g->beta.f64, C, (size_t)g->c.offset,
                                     ldc, (size_t)g->stride_c, (size_t)g->batch, cq, NULL);
    else
      c = CLBlastSgemmStridedBatched(L, ta, tb, m, n, k, g->alpha.f32, A, (size_t)g->a.offset,
                                     lda, (size_t)g->stride_a, B, (size_t)g->b.offset, ldb,
                                     (size_t)g->stride_b, g->beta.f32, C, (size_t)g->c.offset,
                                     ldc, (size_t)g->stride_c, (size_t)g->batch, cq, NULL);
  } else {
    call = f64 ? "CLBlastDgemm" : "CLBlastSgemm";
    const size_t ao = (size_t)g->a.offset, bo = (size_t)g->b.offset, co = (size_t)g->c.offset;
    if (f64)
      c = CLBlastDgemm(L, ta, tb, m, n, k, g->alpha.f64, A, ao, lda, B, bo, ldb, g->beta.f64, C,
                       co, ldc, cq, NULL);
    else
      c = CLBlastSgemm(L, ta, tb, m, n, k, g->alpha.f32, A, ao, lda, B, bo, ldb, g->beta.f32, C,
                       co, ldc, cq, NULL);
  }
  if (c != CLBlastSuccess) return clblast_error(q->b, call, g, c);
  return GPUX_SUCCESS;
#endif
}

/* ---------------------------------------------------------------- entry */
/* the native kernels' dtypes (GPUX_GEMM_DT) */
#define GEMM_DT_BIT(a, dt) | (1u << GPUX_KDT_##dt)
static gpux_status gemm_supports(gpux__bctx *b, const gpux__query *q, char *why, size_t len) {
  static const unsigned native =
      0u GPUX_GEMM_DT(GEMM_DT_BIT, _) GPUX_GEMM_DT_COMPLEX(GEMM_DT_BIT, _);
  const int dt = q->dtype;
  (void)b;
  if (dt < 0 || dt >= GPUX_KDT_COUNT || !(native >> dt & 1u)) {
    snprintf(why, len, "no products of this dtype");
    return GPUX_ERROR_UNSUPPORTED_DTYPE;
  }
  if (q->op != GPUX_GEMM_VENDOR) return GPUX_SUCCESS;
  if (gpux_cl_dt_kind[dt] != 'f' && gpux_cl_dt_kind[dt] != 'c') {
    snprintf(why, len, "CLBlast (the vendor path) has no integer products (the native path has them)");
    return GPUX_ERROR_UNSUPPORTED_DTYPE;
  }
#ifndef GPUX_HAVE_CLBLAST
  snprintf(why, len, "the vendor path: libgpux-opencl was built without CLBlast");
  return GPUX_ERROR_UNSUPPORTED;
#else
  return GPUX_SUCCESS;
#endif
}

static gpux_status gpux_cl_gemm(gpux__bq *q, const gpux__gemm *g) {
  if (g->path == GPUX_GEMM_VENDOR) return gemm_vendor(q, g);
  return gemm_native(q, g);
}

static void install_gemm(gpux__backend_iface *it) { it->gemm = gpux_cl_gemm; }
/* gemm.cl, each dtype's part built on first use (from the on-disk cache on non-pocl
 * devices) */
const gpux_cl_family gpux_cl_fam_gemm = {
    GPUX_CL_FAM_SOURCE(gemm),
    .split = 1,
    .options = gemm_options,
    .resolve = resolve_gemm,
    .release = release_gemm,
    .state_size = sizeof(gemm_state),
    .install = install_gemm,
    .query = GPUX__Q_GEMM,
    .supports = gemm_supports,
};
