/* gpux CUDA backend: matrix products (gpux__gemm, src/api/gpux_backend.h).
 *
 * Two paths, chosen by the front end (g->path):
 *   vendor: cuBLAS, loaded at run time with dlopen ("libcublas.so.13", ".so.12", ".so") on
 *     the first vendor product of the process, so the backend loads and runs without it;
 *     a missing library is GPUX_ERROR_UNSUPPORTED with the dlerror text (the front end may
 *     then take the native path). One cublasHandle_t per queue (q->cublas), created on the
 *     queue's first vendor product with the context's (primary) CUDA context current, bound
 *     to the queue's stream and destroyed with the queue; cuBLAS manages its own workspace
 *     (it is tied to the handle and its stream, so queued products never share one across
 *     streams), and a handle is used by one thread at a time, as cuBLAS wants.
 *     Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: the operands and m/n
 *     swap, the transpose flags stay (conjugate transposes: CUBLAS_OP_C; an operand
 *     conjugated without a transpose, which cuBLAS cannot express, takes the native kernel).
 *     complex64 / complex128 use CUDA_C_32F / CUDA_C_64F with CUBLAS_COMPUTE_32F / _64F
 *     (cgemm / zgemm; complex alpha, beta). float32 uses CUBLAS_COMPUTE_32F (float32-accurate;
 *     CUBLAS_COMPUTE_32F_FAST_TF32 when g->tf32), float64 CUBLAS_COMPUTE_64F, float16 and
 *     bfloat16 CUBLAS_COMPUTE_32F with float alpha/beta; the math mode forbids reductions
 *     in the (half-precision) output type, though with beta != 0 cuBLAS still rounds
 *     alpha * A @ B to it before adding beta * C (seen on the H200: two roundings). supports
 *     refuses int32/int64 and a missing cuBLAS for this path (the front end asks first, and
 *     auto then takes native). k == 0 takes the native kernel (C = beta * C without touching
 *     A or B).
 *   native: the kernels of kernels/cuda/gemm.cu (gpux_gemm_<dt>, each resolved on its first
 *     launch in the context), every dtype of GPUX_GEMM_DT, GPUX_GEMM_DT_HALF and
 *     GPUX_GEMM_DT_COMPLEX. */
#include <cublas_api.h>
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "cuda_backend.h"

/* the family's own state (b->fam[GPUX_CUDA_FAM_gemm]) */
#define GPUX_CUDA_GEMM_NDT GPUX_KDT_COUNT /* gemm kernels indexed by GPUX_KDT_* */
typedef struct gpux_cuda_gemm_state {
  CUfunction gemm[GPUX_CUDA_GEMM_NDT]; /* the native kernels; NULL until first use */
} gpux_cuda_gemm_state;
#define GPUX_CUDA_GEMM_STATE(b) ((gpux_cuda_gemm_state *)(b)->fam[GPUX_CUDA_FAM_gemm])

/* ---- the native kernels ---------------------------------------------------------------- */
/* flags of the kernels (GPUX_CU_GEMM_* in kernels/cuda/gemm.cu) */
#define GPUX_CUDA_GEMM_TRANS_A 1
#define GPUX_CUDA_GEMM_TRANS_B 2
#define GPUX_CUDA_GEMM_VEC_A 4
#define GPUX_CUDA_GEMM_VEC_B 8
#define GPUX_CUDA_GEMM_VEC_C 16
#define GPUX_CUDA_GEMM_CONJ_A 32
#define GPUX_CUDA_GEMM_CONJ_B 64
#define GPUX_CUDA_GEMM_THREADS 256u /* GPUX_CU_GEMM_THREADS */

#define GPUX_CUDA_GEMM_NAME(unused, dt) [GPUX_KDT_##dt] = GPUX_KN_GEMM(#dt),
static const char *const gpux_cuda_gemm_names[GPUX_CUDA_GEMM_NDT] = {
    GPUX_GEMM_DT(GPUX_CUDA_GEMM_NAME, _) GPUX_GEMM_DT_HALF(GPUX_CUDA_GEMM_NAME, _)
        GPUX_GEMM_DT_COMPLEX(GPUX_CUDA_GEMM_NAME, _)};
#undef GPUX_CUDA_GEMM_NAME

/* the kernels' block tile (geo<T> in gemm.cu: 128 x 128, 8-byte types 128 x 64,
 * complex128 64 x 64) */
static int gpux_cuda_gemm_bm(int dt) { return gpux_cuda_dt_size[dt] == 16 ? 64 : 128; }
static int gpux_cuda_gemm_bn(int dt) { return gpux_cuda_dt_size[dt] >= 8 ? 64 : 128; }

static const char *gpux_cuda_gemm_dt_name(int dt) {
  static const char *const names[GPUX_KDT_COUNT] = {GPUX_DTYPES(GPUX_KDT_NAME_INIT)};
  return (unsigned)dt < GPUX_KDT_COUNT ? names[dt] : "unknown dtype";
}

/* element pointer of an operand */
static CUdeviceptr gpux_cuda_gemm_ptr(const gpux__operand *o, int esize) {
  return (CUdeviceptr)(uintptr_t)o->buf + (CUdeviceptr)(o->offset * (int64_t)esize);
}

/* 4-element vectors of the operand may be read/written: the first element aligned to the
 * vector (16 bytes; 8 for 2-byte types, whose vectors are 8 bytes) and every row and batch
 * item starting at a multiple of 4 elements. */
static int gpux_cuda_gemm_vec_ok(CUdeviceptr p, int esize, int64_t ld, int64_t stride,
                                 int64_t batch) {
  const unsigned long long align = esize >= 4 ? 16u : (unsigned long long)(4 * esize);
  return (p % align) == 0 && ld % 4 == 0 && (batch == 1 || stride % 4 == 0);
}

static gpux_status gpux_cuda_gemm_native(gpux__bq *q, const gpux__gemm *g) {
  const int dt = g->dtype;
  CUfunction f;
  CUdeviceptr pa, pb, pc;
  long long m, n, k, lda, ldb, ldc, sa, sb, sc, batch;
  int flags = 0, esize, pushed = 0;
  float alpha32, beta32;
  void *alpha, *beta;
  uint64_t tiles;
  gpux_cuda_grid grid = {1, 1, 1, GPUX_CUDA_GEMM_THREADS, 1};
  CUresult r;

  /* every dtype of GPUX_GEMM_DT and _DT_HALF has a kernel (the front end asked supports) */
  CUfunction *slot = &GPUX_CUDA_GEMM_STATE(q->b)->gemm[dt];
  GPUX_CUDA_GET_KERNEL(f, slot, gpux_cuda_resolve(q->b, GPUX_CUDA_FAM_gemm, slot,
                                                  gpux_cuda_gemm_names[dt], NULL, 0, 0, &f));
  esize = gpux_cuda_dt_size[dt];
  m = (long long)g->m;
  n = (long long)g->n;
  k = (long long)g->k;
  lda = (long long)g->lda;
  ldb = (long long)g->ldb;
  ldc = (long long)g->ldc;
  sa = (long long)g->stride_a;
  sb = (long long)g->stride_b;
  sc = (long long)g->stride_c;
  batch = (long long)g->batch;
  pa = gpux_cuda_gemm_ptr(&g->a, esize);
  pb = gpux_cuda_gemm_ptr(&g->b, esize);
  pc = gpux_cuda_gemm_ptr(&g->c, esize);
  if (g->trans_a) flags |= GPUX_CUDA_GEMM_TRANS_A;
  if (g->trans_b) flags |= GPUX_CUDA_GEMM_TRANS_B;
  if (g->conj_a) flags |= GPUX_CUDA_GEMM_CONJ_A;
  if (g->conj_b) flags |= GPUX_CUDA_GEMM_CONJ_B;
  if (gpux_cuda_gemm_vec_ok(pa, esize, lda, sa, batch)) flags |= GPUX_CUDA_GEMM_VEC_A;
  if (gpux_cuda_gemm_vec_ok(pb, esize, ldb, sb, batch)) flags |= GPUX_CUDA_GEMM_VEC_B;
  if (gpux_cuda_gemm_vec_ok(pc, esize, ldc, sc, batch)) flags |= GPUX_CUDA_GEMM_VEC_C;
  /* alpha/beta in the kernel's argument type (tr<T>::S): float for f32/f16/bf16, double
   * for f64; integers: the dtype's bits zero-extended to 4 or 8 bytes (the front end's
   * scalar is zeroed past them); complex: (re, im) as the component type (cx in gemm.cu) */
  if (dt == GPUX_KDT_c64) {
    alpha = (void *)g->alpha.c64;
    beta = (void *)g->beta.c64;
  } else if (dt == GPUX_KDT_c128) {
    alpha = (void *)g->alpha.c128;
    beta = (void *)g->beta.c128;
  } else if (gpux_cuda_dt_kind[dt] != 'f') {
    alpha = (void *)&g->alpha.u64;
    beta = (void *)&g->beta.u64;
  } else if (dt == GPUX_KDT_f64) {
    alpha = (void *)&g->alpha.f64;
    beta = (void *)&g->beta.f64;
  } else {
    alpha32 = g->alpha.f32;
    beta32 = g->beta.f32;
    alpha = &alpha32;
    beta = &beta32;
  }
  {
    const uint64_t bn = (uint64_t)gpux_cuda_gemm_bn(dt);
    const uint64_t bm = (uint64_t)gpux_cuda_gemm_bm(dt);
    const uint64_t tm = ((uint64_t)m + bm - 1) / bm;
    const uint64_t tn = ((uint64_t)n + bn - 1) / bn;
    tiles = tm * tn;
  }
  /* the kernel loops over tiles (grid.x) and batch items (grid.y) */
  grid.gx = (unsigned)(tiles > GPUX_CUDA_MAX_GRID_X ? GPUX_CUDA_MAX_GRID_X : tiles);
  grid.gy = (unsigned)((uint64_t)batch > GPUX_CUDA_MAX_GRID_YZ ? GPUX_CUDA_MAX_GRID_YZ
                                                               : (uint64_t)batch);
  {
    void *args[] = {&pa, &pb, &pc, &m, &n, &k, &lda, &ldb, &ldc,
                    &sa, &sb, &sc, &batch, alpha, beta, &flags};
    r = gpux_cuda_enter(q->b, &pushed);
    if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
    r = gpux_cuda_launch_current(q, f, grid, args);
    gpux_cuda_leave(pushed);
  }
  if (r != CUDA_SUCCESS)
    return gpux_cuda_error(GPUX_ERROR_LAUNCH, r,
                           "cuLaunchKernel(%s, %lld x %lld x %lld, batch %lld)",
                           gpux_cuda_gemm_names[dt], m, n, k, batch);
  return GPUX_SUCCESS;
}

/* ---- cuBLAS, loaded at run time ---------------------------------------------------------- */
typedef cublasStatus_t (*gpux_pfn_cublasCreate)(cublasHandle_t *);
typedef cublasStatus_t (*gpux_pfn_cublasDestroy)(cublasHandle_t);
typedef cublasStatus_t (*gpux_pfn_cublasSetStream)(cublasHandle_t, cudaStream_t);
typedef cublasStatus_t (*gpux_pfn_cublasSetMathMode)(cublasHandle_t, cublasMath_t);
typedef const char *(*gpux_pfn_cublasGetStatusName)(cublasStatus_t);
typedef cublasStatus_t (*gpux_pfn_cublasGemmEx)(
    cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void *,
    const void *, cudaDataType, int, const void *, cudaDataType, int, const void *, void *,
    cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
typedef cublasStatus_t (*gpux_pfn_cublasGemmEx_64)(
    cublasHandle_t, cublasOperation_t, cublasOperation_t, int64_t, int64_t, int64_t,
    const void *, const void *, cudaDataType, int64_t, const void *, cudaDataType, int64_t,
    const void *, void *, cudaDataType, int64_t, cublasComputeType_t, cublasGemmAlgo_t);
typedef cublasStatus_t (*gpux_pfn_cublasGemmStridedBatchedEx)(
    cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void *,
    const void *, cudaDataType, int, long long, const void *, cudaDataType, int, long long,
    const void *, void *, cudaDataType, int, long long, int, cublasComputeType_t,
    cublasGemmAlgo_t);
typedef cublasStatus_t (*gpux_pfn_cublasGemmStridedBatchedEx_64)(
    cublasHandle_t, cublasOperation_t, cublasOperation_t, int64_t, int64_t, int64_t,
    const void *, const void *, cudaDataType, int64_t, long long, const void *, cudaDataType,
    int64_t, long long, const void *, void *, cudaDataType, int64_t, long long, int64_t,
    cublasComputeType_t, cublasGemmAlgo_t);

/* X(field, symbol, required) */
#define GPUX_CUBLAS_FUNCS(X)                                      \
  X(Create, "cublasCreate_v2", 1)                                 \
  X(Destroy, "cublasDestroy_v2", 1)                               \
  X(SetStream, "cublasSetStream_v2", 1)                           \
  X(SetMathMode, "cublasSetMathMode", 1)                          \
  X(GemmEx, "cublasGemmEx", 1)                                    \
  X(GemmStridedBatchedEx, "cublasGemmStridedBatchedEx", 1)        \
  X(GetStatusName, "cublasGetStatusName", 0)                      \
  X(GemmEx_64, "cublasGemmEx_64", 0)                              \
  X(GemmStridedBatchedEx_64, "cublasGemmStridedBatchedEx_64", 0)

static struct {
  void *lib; /* kept for the life of the process (cuBLAS is not dlclose'd) */
  const char *soname;
#define GPUX_CUBLAS_FIELD(field, sym, req) gpux_pfn_cublas##field field;
  GPUX_CUBLAS_FUNCS(GPUX_CUBLAS_FIELD)
#undef GPUX_CUBLAS_FIELD
} gpux_cublas;
static pthread_once_t gpux_cublas_once = PTHREAD_ONCE_INIT;
static char gpux_cublas_why[768]; /* why cuBLAS is unavailable; empty when loaded */
/* cublasCreate said NOT_INITIALIZED once (atomic: threads of any context set and read it) */
static int gpux_cublas_create_failed;

static void gpux_cublas_load_once(void) {
  static const char *const names[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};
  const char *missing = NULL;
  void *lib;

  lib = gpux_cuda_dlopen_first(names, sizeof names / sizeof names[0], &gpux_cublas.soname,
                               gpux_cublas_why, sizeof gpux_cublas_why);
  if (!lib) return;
#define GPUX_CUBLAS_LOAD(field, sym, req)                                                      \
  if (!gpux_cuda_sym(lib, sym, NULL, &gpux_cublas.field, sizeof gpux_cublas.field) && (req) && \
      !missing)                                                                                \
    missing = sym;
  GPUX_CUBLAS_FUNCS(GPUX_CUBLAS_LOAD)
#undef GPUX_CUBLAS_LOAD
  if (missing) {
    snprintf(gpux_cublas_why, sizeof gpux_cublas_why, "dlsym(%s, %s): symbol not found",
             gpux_cublas.soname, missing);
    dlclose(lib);
    memset(&gpux_cublas, 0, sizeof gpux_cublas);
    return;
  }
  gpux_cublas.lib = lib;
  gpux_cublas_why[0] = '\0';
}

_Static_assert(sizeof(void *) == sizeof(gpux_pfn_cublasCreate), "function pointer size");

static const char *gpux_cublas_status_name(cublasStatus_t st) {
  if (gpux_cublas.GetStatusName) {
    const char *s = gpux_cublas.GetStatusName(st);
    if (s) return s;
  }
  switch (st) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    default: return "CUBLAS_STATUS_UNRECOGNIZED";
  }
}

/* "<what>: CUBLAS_STATUS_X (n)" with a status that says what the caller can do:
 * out of memory; not supported here (the front end may take the native path: e.g.
 * CUBLAS_STATUS_NOT_INITIALIZED when the CUDA runtime inside cuBLAS cannot start on this
 * driver, CUBLAS_STATUS_ARCH_MISMATCH for a dtype the GPU lacks); a failed launch. */
static gpux_status gpux_cublas_error(cublasStatus_t st, const char *what) {
  gpux_status s;
  switch (st) {
    case CUBLAS_STATUS_ALLOC_FAILED: s = GPUX_ERROR_OUT_OF_MEMORY; break;
    case CUBLAS_STATUS_NOT_INITIALIZED:
    case CUBLAS_STATUS_NOT_SUPPORTED:
    case CUBLAS_STATUS_ARCH_MISMATCH:
    case CUBLAS_STATUS_LICENSE_ERROR: s = GPUX_ERROR_UNSUPPORTED; break;
    case CUBLAS_STATUS_EXECUTION_FAILED: s = GPUX_ERROR_LAUNCH; break;
    case CUBLAS_STATUS_INVALID_VALUE: s = GPUX_ERROR_INVALID_ARGUMENT; break;
    default: s = GPUX_ERROR_DRIVER; break;
  }
  return gpux_cuda_host->set_error(s, "%s: %s (%d)", what, gpux_cublas_status_name(st), (int)st);
}

/* q's handle, created on first use; q's context current */
static gpux_status gpux_cublas_handle(gpux__bq *q, cublasHandle_t *out) {
  cublasHandle_t h = NULL;
  cublasStatus_t st;
  gpux_status s = GPUX_SUCCESS;

  if (q->cublas) {
    *out = (cublasHandle_t)q->cublas;
    return GPUX_SUCCESS;
  }
  *out = NULL;
  /* CUBLAS_STATUS_NOT_INITIALIZED: the CUDA runtime inside cuBLAS cannot start (a driver
   * older than the cuBLAS build); it will not start later either, so later products skip
   * the attempt (each costs a runtime start-up) and report it again */
  st = __atomic_load_n(&gpux_cublas_create_failed, __ATOMIC_RELAXED)
           ? CUBLAS_STATUS_NOT_INITIALIZED
           : gpux_cublas.Create(&h);
  if (st != CUBLAS_STATUS_SUCCESS) {
    char what[96];
    if (st == CUBLAS_STATUS_NOT_INITIALIZED)
      __atomic_store_n(&gpux_cublas_create_failed, 1, __ATOMIC_RELAXED);
    snprintf(what, sizeof what, "cublasCreate (%s)", gpux_cublas.soname);
    return gpux_cublas_error(st, what);
  }
  /* the driver's CUstream is the runtime's cudaStream_t (both struct CUstream_st *) */
  st = gpux_cublas.SetStream(h, q->stream);
  if (st != CUBLAS_STATUS_SUCCESS) {
    s = gpux_cublas_error(st, "cublasSetStream");
    goto cleanup;
  }
  /* default math (no TF32 unless a product asks for CUBLAS_COMPUTE_32F_FAST_TF32); split
   * reductions stay in the compute type, so float16/bfloat16 results are rounded once */
  st = gpux_cublas.SetMathMode(
      h, (cublasMath_t)(CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION));
  if (st != CUBLAS_STATUS_SUCCESS) {
    s = gpux_cublas_error(st, "cublasSetMathMode");
    goto cleanup;
  }
  q->cublas = (void *)h;
  *out = h;
  h = NULL;
cleanup:
  if (h) (void)gpux_cublas.Destroy(h);
  return s;
}

static gpux_status gpux_cuda_gemm_vendor(gpux__bq *q, const gpux__gemm *g) {
  const int dt = g->dtype;
  const int esize = gpux_cuda_dt_size[dt];
  cudaDataType type;
  cublasComputeType_t compute;
  cublasOperation_t opa, opb;
  cublasHandle_t h = NULL;
  cublasStatus_t st;
  gpux_status s = GPUX_SUCCESS;
  const void *alpha, *beta;
  const void *pa, *pb;
  void *pc;
  const char *call;
  int pushed = 0, small;
  CUresult r;

  switch (dt) {
    case GPUX_KDT_c64: /* cgemm: float32 components, never TF32 */
      type = CUDA_C_32F;
      compute = CUBLAS_COMPUTE_32F;
      alpha = g->alpha.c64;
      beta = g->beta.c64;
      break;
    case GPUX_KDT_c128: /* zgemm */
      type = CUDA_C_64F;
      compute = CUBLAS_COMPUTE_64F;
      alpha = g->alpha.c128;
      beta = g->beta.c128;
      break;
    case GPUX_KDT_f64:
      type = CUDA_R_64F;
      compute = CUBLAS_COMPUTE_64F;
      alpha = &g->alpha.f64;
      beta = &g->beta.f64;
      break;
    case GPUX_KDT_f16:
      type = CUDA_R_16F;
      compute = CUBLAS_COMPUTE_32F;
      alpha = &g->alpha.f32;
      beta = &g->beta.f32;
      break;
    case GPUX_KDT_bf16:
      type = CUDA_R_16BF;
      compute = CUBLAS_COMPUTE_32F;
      alpha = &g->alpha.f32;
      beta = &g->beta.f32;
      break;
    default: /* float32: the front end asked supports, which admits only these dtypes and
                only with cuBLAS loaded */
      type = CUDA_R_32F;
      compute = g->tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
      alpha = &g->alpha.f32;
      beta = &g->beta.f32;
      break;
  }
  /* C = beta * C: no product to compute (and BLAS ignores alpha); the native kernel does it.
   * A conjugated operand read without a transpose has no cuBLAS op (only N, T, C): native. */
  if (g->k == 0 || (g->conj_a && !g->trans_a) || (g->conj_b && !g->trans_b))
    return gpux_cuda_gemm_native(q, g);

  small = g->m <= INT_MAX && g->n <= INT_MAX && g->k <= INT_MAX && g->lda <= INT_MAX &&
          g->ldb <= INT_MAX && g->ldc <= INT_MAX && g->batch <= INT_MAX;
  if (!small && (g->batch == 1 ? gpux_cublas.GemmEx_64 == NULL
                               : gpux_cublas.GemmStridedBatchedEx_64 == NULL))
    return gpux_cuda_host->set_error(
        GPUX_ERROR_UNSUPPORTED,
        "%s lacks the 64-bit GEMM API needed for %lld x %lld x %lld (batch %lld)",
        gpux_cublas.soname, (long long)g->m, (long long)g->n, (long long)g->k,
        (long long)g->batch);

  /* row-major C (m x n) is column-major C^T (n x m) = op(B)^T op(A)^T */
  /* conjugate transposes stay conjugate transposes: (op(B)^T)^T = conj(B) read transposed */
  opa = g->conj_b ? CUBLAS_OP_C : g->trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  opb = g->conj_a ? CUBLAS_OP_C : g->trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  pa = (const void *)(uintptr_t)gpux_cuda_gemm_ptr(&g->b, esize);
  pb = (const void *)(uintptr_t)gpux_cuda_gemm_ptr(&g->a, esize);
  pc = (void *)(uintptr_t)gpux_cuda_gemm_ptr(&g->c, esize);

  r = gpux_cuda_enter(q->b, &pushed);
  if (r != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, r, "cuCtxPushCurrent");
  s = gpux_cublas_handle(q, &h);
  if (s != GPUX_SUCCESS) goto cleanup;
  if (g->batch == 1) {
    if (small) {
      call = "cublasGemmEx";
      st = gpux_cublas.GemmEx(h, opa, opb, (int)g->n, (int)g->m, (int)g->k, alpha, pa, type,
                              (int)g->ldb, pb, type, (int)g->lda, beta, pc, type, (int)g->ldc,
                              compute, CUBLAS_GEMM_DEFAULT);
    } else {
      call = "cublasGemmEx_64";
      st = gpux_cublas.GemmEx_64(h, opa, opb, g->n, g->m, g->k, alpha, pa, type, g->ldb, pb,
                                 type, g->lda, beta, pc, type, g->ldc, compute,
                                 CUBLAS_GEMM_DEFAULT);
    }
  } else if (small) {
    call = "cublasGemmStridedBatchedEx";
    st = gpux_cublas.GemmStridedBatchedEx(
        h, opa, opb, (int)g->n, (int)g->m, (int)g->k, alpha, pa, type, (int)g->ldb,
        (long long)g->stride_b, pb, type, (int)g->lda, (long long)g->stride_a, beta, pc, type,
        (int)g->ldc, (long long)g->stride_c, (int)g->batch, compute, CUBLAS_GEMM_DEFAULT);
  } else {
    call = "cublasGemmStridedBatchedEx_64";
    st = gpux_cublas.GemmStridedBatchedEx_64(
        h, opa, opb, g->n, g->m, g->k, alpha, pa, type, g->ldb, (long long)g->stride_b, pb,
        type, g->lda, (long long)g->stride_a, beta, pc, type, g->ldc, (long long)g->stride_c,
        g->batch, compute, CUBLAS_GEMM_DEFAULT);
  }
  if (st != CUBLAS_STATUS_SUCCESS) {
    char what[192];
    snprintf(what, sizeof what, "%s(%s, %s%s, %lld x %lld x %lld, batch %lld)", call,
             gpux_cuda_gemm_dt_name(dt),
             g->conj_a ? (g->trans_a ? "A^H" : "conj(A)") : g->trans_a ? "A^T" : "A",
             g->conj_b ? (g->trans_b ? " B^H" : " conj(B)") : g->trans_b ? " B^T" : " B",
             (long long)g->m, (long long)g->n, (long long)g->k, (long long)g->batch);
    s = gpux_cublas_error(st, what);
  }
cleanup:
  gpux_cuda_leave(pushed);
  return s;
}

/* ---- entry points ------------------------------------------------------------------------ */
static gpux_status gpux_cuda_gemm_supports(gpux__bctx *b, const gpux__query *q, char *why,
                                           size_t len) {
  const int dt = q->dtype;
  if ((unsigned)dt >= GPUX_CUDA_GEMM_NDT || !gpux_cuda_gemm_names[dt]) {
    snprintf(why, len, "no products of this dtype");
    return GPUX_ERROR_UNSUPPORTED_DTYPE;
  }
  if (q->op != GPUX_GEMM_VENDOR) return GPUX_SUCCESS;
  if (gpux_cuda_dt_kind[dt] != 'f' && gpux_cuda_dt_kind[dt] != 'c') {
    snprintf(why, len, "cuBLAS (the vendor path) has no integer products (the native path has them)");
    return GPUX_ERROR_UNSUPPORTED_DTYPE;
  }
  if (pthread_once(&gpux_cublas_once, gpux_cublas_load_once) != 0 || !gpux_cublas.lib) {
    snprintf(why, len, "cuBLAS (the vendor path) is unavailable: %s",
             gpux_cublas_why[0] ? gpux_cublas_why : "pthread_once failed");
    return GPUX_ERROR_UNSUPPORTED;
  }
  return GPUX_SUCCESS;
}

static gpux_status gpux_cuda_gemm(gpux__bq *q, const gpux__gemm *g) {
  if (g->path == GPUX_GEMM_VENDOR) return gpux_cuda_gemm_vendor(q, g);
  return gpux_cuda_gemm_native(q, g);
}

static void gpux_cuda_gemm_queue_release(gpux__bq *q) {
  /* cuBLAS frees its workspace on the context (q's stream idle) */
  if (q->cublas && gpux_cublas.lib) (void)gpux_cublas.Destroy((cublasHandle_t)q->cublas);
  q->cublas = NULL;
}

static void gpux_cuda_gemm_install(gpux__backend_iface *it) { it->gemm = gpux_cuda_gemm; }
const gpux_cuda_family gpux_cuda_fam_gemm = {
    .state_size = sizeof(gpux_cuda_gemm_state),
    .queue_release = gpux_cuda_gemm_queue_release,
    .install = gpux_cuda_gemm_install,
    .query = GPUX__Q_GEMM,
    .supports = gpux_cuda_gemm_supports,
};
