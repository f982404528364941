/* gpux CUDA backend: internal declarations shared by the backend's C files.
 * The driver API is loaded at run time (dlopen "libcuda.so.1"); nothing here links to
 * libcuda. Names are gpux_cuda_* and hidden (the build uses -fvisibility=hidden); the
 * module exports only gpux_cuda_backend_entry. */
#ifndef GPUX_CUDA_BACKEND_H
#define GPUX_CUDA_BACKEND_H

#include <cuda.h>
#include <cudaTypedefs.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "gpux_backend.h"
#include "gpux_families_built.h" /* GPUX__KERNEL_FAMILIES, from the top CMakeLists.txt */

/* X(field, symbol, fallback symbol or NULL, PFN type). Versioned names are spelled out
 * (cuda.h maps e.g. cuMemAlloc to cuMemAlloc_v2 by macro; dlsym needs the real name). */
#define GPUX_CUDA_DRIVER_FUNCS(X)                                                           \
  X(GetErrorName, "cuGetErrorName", NULL, PFN_cuGetErrorName_v6000)                          \
  X(GetErrorString, "cuGetErrorString", NULL, PFN_cuGetErrorString_v6000)                    \
  X(Init, "cuInit", NULL, PFN_cuInit_v2000)                                                  \
  X(DriverGetVersion, "cuDriverGetVersion", NULL, PFN_cuDriverGetVersion_v2020)              \
  X(DeviceGet, "cuDeviceGet", NULL, PFN_cuDeviceGet_v2000)                                   \
  X(DeviceGetCount, "cuDeviceGetCount", NULL, PFN_cuDeviceGetCount_v2000)                    \
  X(DeviceGetName, "cuDeviceGetName", NULL, PFN_cuDeviceGetName_v2000)                       \
  X(DeviceGetAttribute, "cuDeviceGetAttribute", NULL, PFN_cuDeviceGetAttribute_v2000)        \
  X(DeviceTotalMem, "cuDeviceTotalMem_v2", NULL, PFN_cuDeviceTotalMem_v3020)                 \
  X(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", NULL,                                \
    PFN_cuDevicePrimaryCtxRetain_v7000)                                                      \
  X(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", NULL,                           \
    PFN_cuDevicePrimaryCtxRelease_v11000)                                                    \
  X(CtxGetCurrent, "cuCtxGetCurrent", NULL, PFN_cuCtxGetCurrent_v4000)                       \
  X(CtxGetDevice, "cuCtxGetDevice", NULL, PFN_cuCtxGetDevice_v2000)                          \
  X(CtxSetCurrent, "cuCtxSetCurrent", NULL, PFN_cuCtxSetCurrent_v4000)                       \
  X(CtxPushCurrent, "cuCtxPushCurrent_v2", NULL, PFN_cuCtxPushCurrent_v4000)                 \
  X(CtxPopCurrent, "cuCtxPopCurrent_v2", NULL, PFN_cuCtxPopCurrent_v4000)                    \
  X(StreamCreate, "cuStreamCreate", NULL, PFN_cuStreamCreate_v2000)                          \
  X(StreamDestroy, "cuStreamDestroy_v2", NULL, PFN_cuStreamDestroy_v4000)                    \
  X(StreamSynchronize, "cuStreamSynchronize", NULL, PFN_cuStreamSynchronize_v2000)           \
  X(StreamWaitEvent, "cuStreamWaitEvent", NULL, PFN_cuStreamWaitEvent_v3020)                 \
  X(ModuleLoadData, "cuModuleLoadData", NULL, PFN_cuModuleLoadData_v2000)                    \
  X(ModuleUnload, "cuModuleUnload", NULL, PFN_cuModuleUnload_v2000)                          \
  X(ModuleGetFunction, "cuModuleGetFunction", NULL, PFN_cuModuleGetFunction_v2000)           \
  X(LaunchKernel, "cuLaunchKernel", NULL, PFN_cuLaunchKernel_v4000)                          \
  X(FuncGetAttribute, "cuFuncGetAttribute", NULL, PFN_cuFuncGetAttribute_v2020)              \
  X(FuncSetAttribute, "cuFuncSetAttribute", NULL, PFN_cuFuncSetAttribute_v9000)              \
  X(MemAlloc, "cuMemAlloc_v2", NULL, PFN_cuMemAlloc_v3020)                                   \
  X(MemFree, "cuMemFree_v2", NULL, PFN_cuMemFree_v3020)                                      \
  X(MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", NULL, PFN_cuMemcpyHtoDAsync_v3020)              \
  X(MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", NULL, PFN_cuMemcpyDtoHAsync_v3020)              \
  X(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2", NULL, PFN_cuMemcpyDtoDAsync_v3020)              \
  X(MemsetD32Async, "cuMemsetD32Async", NULL, PFN_cuMemsetD32Async_v3020)                    \
  X(MemHostAlloc, "cuMemHostAlloc", NULL, PFN_cuMemHostAlloc_v2020)                          \
  X(MemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2", NULL,                           \
    PFN_cuMemHostGetDevicePointer_v3020)                                                     \
  X(MemFreeHost, "cuMemFreeHost", NULL, PFN_cuMemFreeHost_v2000)                             \
  X(PointerGetAttributes, "cuPointerGetAttributes", NULL, PFN_cuPointerGetAttributes_v7000)  \
  X(EventCreate, "cuEventCreate", NULL, PFN_cuEventCreate_v2000)                             \
  X(EventDestroy, "cuEventDestroy_v2", NULL, PFN_cuEventDestroy_v4000)                       \
  X(EventRecord, "cuEventRecord", NULL, PFN_cuEventRecord_v2000)                             \
  X(EventSynchronize, "cuEventSynchronize", NULL, PFN_cuEventSynchronize_v2000)              \
  X(EventQuery, "cuEventQuery", NULL, PFN_cuEventQuery_v2000)                                \
  X(EventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime",                         \
    PFN_cuEventElapsedTime_v2000)                                                            \
  X(OccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor",  \
    NULL, PFN_cuOccupancyMaxActiveBlocksPerMultiprocessor_v6050)

/* cuModuleGetFunctionCount, cuModuleEnumerateFunctions (12.4+), cuFuncGetName (12.3+):
 * whether a module has a kernel, asked without a call that fails */
typedef CUresult(CUDAAPI *gpux_cuda_pfn_ModuleGetFunctionCount)(unsigned int *count, CUmodule mod);
typedef CUresult(CUDAAPI *gpux_cuda_pfn_ModuleEnumerateFunctions)(CUfunction *functions,
                                                                  unsigned int n, CUmodule mod);
typedef CUresult(CUDAAPI *gpux_cuda_pfn_FuncGetName)(const char **name, CUfunction f);
/* cuFuncGetParamCount (newer than driver 13.0; optional), spelled out likewise */
typedef CUresult(CUDAAPI *gpux_cuda_pfn_FuncGetParamCount)(CUfunction func, size_t *count);
/* cuFuncGetParamInfo (driver 12.4+), spelled out: older toolkits' headers lack its PFN */
typedef CUresult(CUDAAPI *gpux_cuda_pfn_FuncGetParamInfo)(CUfunction func, size_t index,
                                                          size_t *offset, size_t *size);

typedef struct gpux_cuda_driver {
  void *lib; /* dlopen handle */
#define GPUX_CUDA_DRV_FIELD(field, sym, alt, pfn) pfn field;
  GPUX_CUDA_DRIVER_FUNCS(GPUX_CUDA_DRV_FIELD)
#undef GPUX_CUDA_DRV_FIELD
  /* optional: NULL when the driver lacks them */
  gpux_cuda_pfn_FuncGetParamInfo FuncGetParamInfo;
  gpux_cuda_pfn_FuncGetParamCount FuncGetParamCount;
  gpux_cuda_pfn_ModuleGetFunctionCount ModuleGetFunctionCount;
  gpux_cuda_pfn_ModuleEnumerateFunctions ModuleEnumerateFunctions;
  gpux_cuda_pfn_FuncGetName FuncGetName;
} gpux_cuda_driver;

extern gpux_cuda_driver gpux_cuda_drv;
extern const gpux__host_iface *gpux_cuda_host;

/* The kernel families (kernels/cuda/<family>.cu, each embedded as the fatbin
 * gpux_cuda_fatbin_<family>): GPUX_CUDA_FAM_<family> is its slot in gpux__bctx.mod and .fam.
 * The family's file defines its record, gpux_cuda_fam_<family>; cuda_backend.c calls its
 * init with the context, loads its module on the first launch of one of its kernels
 * (gpux_cuda_resolve), and installs its interface entries when the backend module is
 * opened. A new family needs no edit outside its own files. */
#define GPUX_CUDA_FAM_ID(f) GPUX_CUDA_FAM_##f,
enum { GPUX__KERNEL_FAMILIES(GPUX_CUDA_FAM_ID) GPUX_CUDA_FAM_COUNT };
#undef GPUX_CUDA_FAM_ID
typedef struct gpux_cuda_family {
  /* bytes of the family's own state, b->fam[id] (zeroed with the context before init, freed
   * after unload); 0: none (the older families keep their tables in gpux__bctx) */
  size_t state_size;
  /* with the context (context current): the family's settings (environment, device
   * attributes), nothing that needs its module: kernels resolve on first use. NULL: nothing */
  gpux_status (*init)(gpux__bctx *b);
  /* undoes init, also after a failed one or none (context current, every queue idle); the
   * module, if it was loaded, goes after it. NULL: nothing */
  void (*unload)(gpux__bctx *b);
  /* frees what the family keeps in queue q (context current, q's stream idle), when q goes
   * (the default queue: before unload). NULL: nothing */
  void (*queue_release)(gpux__bq *q);
  /* sets the interface entries the family runs */
  void (*install)(gpux__backend_iface *it);
  /* answers supports for the GPUX__Q_* family `query` (NULL: the family runs everything the
   * front end passes) */
  int query;
  gpux_status (*supports)(gpux__bctx *b, const gpux__query *q, char *why, size_t len);
} gpux_cuda_family;
#define GPUX_CUDA_FAM_DECL(f)                        \
  extern const gpux_cuda_family gpux_cuda_fam_##f; \
  extern const unsigned char gpux_cuda_fatbin_##f[];
GPUX__KERNEL_FAMILIES(GPUX_CUDA_FAM_DECL)
#undef GPUX_CUDA_FAM_DECL

/* Kernel handle tables: a slot is NULL until the kernel's first launch resolves it
 * (GPUX_CUDA_GET_KERNEL), then keeps the handle for the context's life. Layout index =
 * GPUX_LAYOUT_*. */
#define GPUX_CUDA_NLAYOUTS 3
#define GPUX_CUDA_NSIZES GPUX_ELEM_SIZE_COUNT /* copy kernels by element size */
#define GPUX_CUDA_NRLAYOUTS 2 /* reductions: GPUX_RL_ROW, GPUX_RL_COL */

/* launch limits */
#define GPUX_CUDA_BLOCK 256u
#define GPUX_CUDA_MAX_GRID_X 0x7fffffffULL
#define GPUX_CUDA_MAX_GRID_YZ 65535ULL

/* A queue: a stream and the scratch that the work queued on it uses, so that queues never
 * share any (gpux_backend.h: one thread at a time uses a queue, so none of it is locked). */
struct gpux__bq {
  gpux__bctx *b;
  CUstream stream; /* non-blocking; an adopted context's default queue: the application's */
  gpux__bq *next;  /* the context's next created queue (b->lock) */
  /* the single-pass scan's tile counter and tile states (cuda_reduce.c), grown on demand */
  CUdeviceptr scan_state;
  size_t scan_state_bytes;
  /* page-locked host memory mapped into the device (host_result): kernels write scalar
   * results there, so returning one to the host needs no copy (allocated on first use) */
  void *result_host;
  CUdeviceptr result_dev;
  /* the float32 normals' dynamic chunks' counter (cuda_random.c): 2 words, zero between
   * launches (allocated on first use) */
  CUdeviceptr zig_work;
  void *cublas; /* cublasHandle_t (cuda_gemm.c), created on the first vendor product, bound
                   to stream */
};

struct gpux__bctx {
  int index;
  CUdevice dev;
  CUcontext ctx; /* the device's primary context (retained), or the application's */
  gpux__bq q0;   /* the default queue; its next starts the list of created queues */
  int adopted;   /* ctx and q0.stream are the application's: never released or destroyed here */
  /* guards what changes after creation: the queue list, user kernels' shared-memory
   * opt-in (cuda_program.c) */
  pthread_mutex_t lock;
  /* guards loading the modules and filling the kernel slots (gpux_cuda_resolve): taken on a
   * kernel's first launch only, never across a launch; apart from lock, whose holder may
   * wait for every queue (gpux_cuda_sync_all) */
  pthread_mutex_t load_lock;
  CUmodule mod[GPUX_CUDA_FAM_COUNT]; /* each family's module; NULL until first use */
  void *fam[GPUX_CUDA_FAM_COUNT];    /* each family's own state (gpux_cuda_family) */
  CUfunction binary[GPUX_BINARY_OP_COUNT][GPUX_KDT_COUNT][GPUX_CUDA_NLAYOUTS];
  CUfunction unary[GPUX_UNARY_OP_COUNT][GPUX_KDT_COUNT][GPUX_CUDA_NLAYOUTS];
  CUfunction where[GPUX_KDT_COUNT][GPUX_CUDA_NLAYOUTS];
  CUfunction cast[GPUX_KDT_COUNT][GPUX_KDT_COUNT][GPUX_CUDA_NLAYOUTS];
  CUfunction copy_n[GPUX_CUDA_NSIZES];
  CUfunction copy_t[GPUX_CUDA_NSIZES];
  CUfunction fill[GPUX_KDT_COUNT];
  CUfunction arange[GPUX_KDT_COUNT];
  CUfunction linspace[GPUX_KDT_COUNT];
  /* reductions and scans (cuda_reduce.c); [kind][input dtype][GPUX_RL_*] */
  CUfunction reduce[GPUX_REDUCE_KIND_COUNT][GPUX_KDT_COUNT][GPUX_CUDA_NRLAYOUTS];
  CUfunction scan[GPUX_SCAN_KIND_COUNT][GPUX_KDT_COUNT];
  unsigned scan_grid[GPUX_SCAN_KIND_COUNT][GPUX_KDT_COUNT]; /* one wave (gpux_cuda_one_wave) */
  int scan_pair; /* SV_PAIR for long rows (else SV_LOOKBACK); GPUX_CUDA_SCAN=plain: 0 */
  /* random numbers (cuda_random.c): [GPUX_RK_*][output dtype] */
  CUfunction random[GPUX_RANDOM_KIND_COUNT][GPUX_KDT_COUNT];
  unsigned random_grid[GPUX_RANDOM_KIND_COUNT][GPUX_KDT_COUNT]; /* blocks per launch: one
                                                                   wave (the kernels loop) */
  uint64_t zig_tune; /* float32 normals' queue settings (GPUX_RANDOM_ZIG), read at init */
  uint64_t zig_dyn;  /* the least draw (Philox blocks) with dynamic chunks (GPUX_RANDOM_ZIG_DYN) */
  CUfunction zig_std; /* gpux_random_normal_f32_std: the standard normal's kernel */
};
#define GPUX_CUDA_RESULT_BYTES ((size_t)4096)

/* cuda_backend.c: waits for every queue of b (context current), for what any queued work
 * may still use */
void gpux_cuda_sync_all(gpux__bctx *b);

/* The kernel in a table slot of b: the hot path of every built-in launch is this acquire
 * load and one branch, taken once per kernel and context. The acquire pairs with
 * gpux_cuda_resolve's release store, so whoever sees the handle also sees what the
 * kernel's init wrote for it. */
static inline CUfunction gpux_cuda_kernel_get(CUfunction *slot) {
  return __atomic_load_n(slot, __ATOMIC_ACQUIRE);
}
/* f = the kernel in *slot; while the slot is NULL, `resolve` runs (a gpux_status
 * expression: builds the kernel's name, calls gpux_cuda_resolve) and an error from it is
 * returned from the caller. Use it before entering the context or taking anything that
 * needs releasing. */
#define GPUX_CUDA_GET_KERNEL(f, slot, resolve)            \
  do {                                                     \
    if (((f) = gpux_cuda_kernel_get(slot)) == NULL) {      \
      const gpux_status s_ = (resolve);                    \
      if (s_ != GPUX_SUCCESS) return s_;                   \
    }                                                      \
  } while (0)
/* what a family sets up for one of its kernels on first use, before any launch can see
 * the handle (b->load_lock held, context current): attributes, grids. i, j: the caller's
 * (the kernel's indices in its table). */
typedef void (*gpux_cuda_kernel_init)(gpux__bctx *b, CUfunction f, int i, int j);
/* The slow path of GPUX_CUDA_GET_KERNEL: makes b's context current and, under
 * b->load_lock, loads family fam's module if it is not loaded yet, resolves `name` into
 * *slot unless another thread got there first, runs init (if any) on the new handle, and
 * stores it with release. Errors leave the slot NULL (the next launch tries again) and the
 * context usable: cuModuleLoadData's is GPUX_ERROR_KERNEL_BUILD naming the family's
 * fatbin, cuModuleGetFunction's GPUX_ERROR_KERNEL_NOT_FOUND naming the kernel. */
gpux_status gpux_cuda_resolve(gpux__bctx *b, int fam, CUfunction *slot, const char *name,
                              gpux_cuda_kernel_init init, int i, int j, CUfunction *f);

/* cuda_driver.c */
gpux_status gpux_cuda_load_driver(void);
/* Copies dlsym(lib, sym) (else alt, which may be NULL) into a function-pointer slot; 0 when
 * absent. */
int gpux_cuda_sym(void *lib, const char *sym, const char *alt, void *fn_slot, size_t slot_size);
/* dlopen of the first of names[0..n) that loads (the vendor libraries' sonames, newest
 * first), its name in *soname; NULL when none does, with every dlerror text in why. */
void *gpux_cuda_dlopen_first(const char *const *names, size_t n, const char **soname,
                             char *why, size_t why_len);
void gpux_cuda_unload_driver(void);
const char *gpux_cuda_result_name(CUresult r);
/* Sets the thread's error detail "<what>: <CUDA_ERROR_NAME> (<code>): <description>" and
 * returns the status. s is kept when it is GPUX_ERROR_ASYNC, _BACKEND_UNAVAILABLE or
 * _NO_DEVICE; otherwise CUDA_ERROR_OUT_OF_MEMORY gives GPUX_ERROR_OUT_OF_MEMORY and errors
 * raised by earlier queued work (illegal address, launch failure, ...) GPUX_ERROR_ASYNC. */
gpux_status gpux_cuda_error(gpux_status s, CUresult r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Makes b's context current on the calling thread. A thread with no current context gets
 * it for good (as cudaSetDevice does; the next call finds it current and does nothing);
 * a thread with another context current gets it pushed, and gpux_cuda_leave pops it. */
static inline CUresult gpux_cuda_enter(gpux__bctx *b, int *pushed) {
  CUcontext cur = NULL;
  CUresult r = gpux_cuda_drv.CtxGetCurrent(&cur);
  *pushed = 0;
  if (r != CUDA_SUCCESS || cur == b->ctx) return r;
  if (!cur) return gpux_cuda_drv.CtxSetCurrent(b->ctx);
  r = gpux_cuda_drv.CtxPushCurrent(b->ctx);
  if (r == CUDA_SUCCESS) *pushed = 1;
  return r;
}
static inline void gpux_cuda_leave(int pushed) {
  if (pushed) {
    CUcontext popped;
    (void)gpux_cuda_drv.CtxPopCurrent(&popped);
  }
}

/* cuda_launch.c: what every family shares (the bottom of the backend: it calls no family
 * file) */
extern const int gpux_cuda_dt_size[GPUX_KDT_COUNT]; /* bytes */
extern const char gpux_cuda_dt_kind[GPUX_KDT_COUNT]; /* 'b', 'u', 'i' or 'f' */
/* cuModuleLoadData of an embedded fatbin; `what` names it in the error */
gpux_status gpux_cuda_module_load(CUmodule *m, const unsigned char *image, const char *what);
/* cuModuleGetFunction; GPUX_ERROR_KERNEL_NOT_FOUND naming the kernel */
gpux_status gpux_cuda_get_function(CUmodule m, const char *name, CUfunction *f);
/* Blocks of `threads` that the whole device holds at once (one wave) for kernels that loop
 * over their work: SMs x resident blocks per SM, each taken as 1 where the driver cannot
 * tell (any grid is right for such kernels) */
unsigned gpux_cuda_one_wave(gpux__bctx *b, CUfunction f, unsigned threads);

typedef struct gpux_cuda_grid {
  unsigned gx, gy, gz, bx, by;
} gpux_cuda_grid;

/* queues f on q's stream with `shared` bytes of dynamic shared memory; q's context must be
 * current (gpux_cuda_enter) */
static inline CUresult gpux_cuda_launch_current_shared(gpux__bq *q, CUfunction f,
                                                       gpux_cuda_grid g, unsigned shared,
                                                       void **args) {
  return gpux_cuda_drv.LaunchKernel(f, g.gx, g.gy, g.gz, g.bx, g.by, 1, shared, q->stream,
                                    args, NULL);
}
static inline CUresult gpux_cuda_launch_current(gpux__bq *q, CUfunction f, gpux_cuda_grid g,
                                                void **args) {
  return gpux_cuda_launch_current_shared(q, f, g, 0, args);
}
/* gpux_cuda_launch_current_shared inside q's context (entered and left here); a failed
 * launch is GPUX_ERROR_LAUNCH "cuLaunchKernel(<name>, <count> <unit>)" */
static inline gpux_status gpux_cuda_launch_counted_shared(gpux__bq *q, CUfunction f,
                                                          gpux_cuda_grid g, unsigned shared,
                                                          void **args, const char *name,
                                                          long long count, const char *unit) {
  int pushed = 0;
  CUresult e = gpux_cuda_enter(q->b, &pushed);
  if (e != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, e, "cuCtxPushCurrent");
  e = gpux_cuda_launch_current_shared(q, f, g, shared, args);
  gpux_cuda_leave(pushed);
  if (e != CUDA_SUCCESS)
    return gpux_cuda_error(GPUX_ERROR_LAUNCH, e, "cuLaunchKernel(%s, %lld %s)", name, count,
                           unit);
  return GPUX_SUCCESS;
}
/* the same without dynamic shared memory */
static inline gpux_status gpux_cuda_launch_counted(gpux__bq *q, CUfunction f, gpux_cuda_grid g,
                                                   void **args, const char *name,
                                                   long long count, const char *unit) {
  return gpux_cuda_launch_counted_shared(q, f, g, 0, args, name, count, unit);
}
/* layouts C and S: the buffer plus the operand's element offset (dt: its dtype) */
static inline CUdeviceptr gpux_cuda_opnd_ptr(const gpux__operand *o, int dt) {
  return (CUdeviceptr)(uintptr_t)o->buf +
         (CUdeviceptr)(o->offset * (int64_t)gpux_cuda_dt_size[dt]);
}

/* cuda_program.c: user programs and kernels (NVRTC loaded on first use) */
gpux_status gpux_cuda_program_build(gpux__bctx *b, int lang, const char *src, size_t len,
                                    const char *options, unsigned flags,
                                    const char *const *names, int nnames, gpux__uprog **out,
                                    char **log, int *origin);
void gpux_cuda_program_release(gpux__bctx *b, gpux__uprog *p);
gpux_status gpux_cuda_kernel_create(gpux__bctx *b, gpux__uprog *p, const char *name,
                                    gpux__ukern **out, int *nparams, uint32_t *param_size,
                                    uint32_t *max_block);
void gpux_cuda_kernel_release(gpux__bctx *b, gpux__ukern *k);
gpux_status gpux_cuda_kernel_launch(gpux__bq *q, gpux__ukern *k, int nargs,
                                    const gpux__uarg *args, const uint64_t grid[3],
                                    const uint32_t block[3], size_t shared_bytes);

#endif
