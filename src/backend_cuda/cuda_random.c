/* gpux CUDA backend: random numbers (gpux__random in src/api/gpux_backend.h). The kernels,
 * kernels/cuda/random.cu, loop over the draw's Philox blocks: GPUX_CUDA_RANDOM_THREADS threads
 * per thread block, as many thread blocks as the device holds at once (fewer for a small
 * draw: one Philox block per thread; float32 normals, GPUX_R_ZIG_MIN_ROUNDS blocks). */
#include <stdio.h>
#include <stdlib.h>

#include "cuda_backend.h"

#define GPUX_CUDA_RANDOM_THREADS 256u /* GPUX_CU_RTHREADS in random.cu */

#define GPUX_CUDA_RANDOM_NAME(kind, dt) [GPUX_RKID_##kind][GPUX_KDT_##dt] = GPUX_KN_RANDOM(#kind, #dt),
#define GPUX_CUDA_RANDOM_KIND(kind, id, dts) dts(GPUX_CUDA_RANDOM_NAME, kind)
static const char *const gpux_cuda_random_names[GPUX_RANDOM_KIND_COUNT][GPUX_KDT_COUNT] = {
    GPUX_RANDOM_KINDS(GPUX_CUDA_RANDOM_KIND)};
#undef GPUX_CUDA_RANDOM_KIND
#undef GPUX_CUDA_RANDOM_NAME

/* with the context: the float32 normals' settings */
static gpux_status gpux_cuda_random_init(gpux__bctx *b) {
  const char *zig = getenv("GPUX_RANDOM_ZIG");
  b->zig_tune = zig ? gpux_r_zig_tune_env(zig) : GPUX_R_ZIG_TUNE_CUDA;
  b->zig_dyn = gpux_r_zig_dyn_env(getenv("GPUX_RANDOM_ZIG_DYN"));
  return GPUX_SUCCESS;
}

/* float32 normals hold the ziggurat's table and queue in shared memory (34 KB a block:
 * 5 blocks on an H200 need a carveout of 196 KB or more). A hint, as for scans: the kernel
 * is right under any carveout, so a refusal is not an error. */
static void gpux_cuda_random_max_shared(CUfunction f) {
  (void)gpux_cuda_drv.FuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                       CU_SHAREDMEM_CARVEOUT_MAX_SHARED);
}

/* a random kernel's first use (gpux_cuda_kernel_init), before any launch reads its grid */
static void gpux_cuda_random_kernel_init(gpux__bctx *b, CUfunction f, int kind, int dt) {
  if (kind == GPUX_RK_NORMAL && dt == GPUX_KDT_f32) gpux_cuda_random_max_shared(f);
  /* one wave of resident thread blocks, each thread then looping over Philox blocks:
   * far fewer, longer-lived thread blocks than one Philox block per thread (2.6 -> 4.1
   * TB/s for uniform float32 on the H200) */
  b->random_grid[kind][dt] = gpux_cuda_one_wave(b, f, GPUX_CUDA_RANDOM_THREADS);
}

/* the standard normal's kernel (gpux_random_normal_f32_std) takes its grid from the float32
 * normals' kernel: only the carveout is its own */
static void gpux_cuda_zig_std_init(gpux__bctx *b, CUfunction f, int i, int j) {
  gpux_cuda_random_max_shared(f);
}

static void gpux_cuda_random_queue_release(gpux__bq *q) {
  if (q->zig_work) (void)gpux_cuda_drv.MemFree(q->zig_work);
  q->zig_work = 0;
}

static gpux_status gpux_cuda_random(gpux__bq *q, const gpux__random *r) {
  gpux__bctx *b = q->b;
  const int kind = r->kind, dt = r->out.dtype;
  CUfunction f;
  /* first: b->random_grid[kind][dt] is set with the handle */
  GPUX_CUDA_GET_KERNEL(f, &b->random[kind][dt],
                       gpux_cuda_resolve(b, GPUX_CUDA_FAM_random, &b->random[kind][dt],
                                         gpux_cuda_random_names[kind][dt],
                                         gpux_cuda_random_kernel_init, kind, dt, &f));
  CUdeviceptr out = gpux_cuda_opnd_ptr(&r->out, dt), work = 0;
  gpux_rparams p = r->p;
  const uint64_t groups = (p.nblocks + GPUX_CUDA_RANDOM_THREADS - 1) / GPUX_CUDA_RANDOM_THREADS;
  const uint64_t cap = b->random_grid[kind][dt];
  gpux_cuda_grid grid = {(unsigned)(groups > cap ? cap : groups), 1, 1, GPUX_CUDA_RANDOM_THREADS, 1};
  void *args[] = {&out, &p, &work};
  int dynamic = 0;
  if (kind == GPUX_RK_NORMAL && dt == GPUX_KDT_f32) {
    p.pc = b->zig_tune;
    p.pd = GPUX_R_PRE(p.stream); /* the loop's Philox first-round product */
    if (GPUX_R_STD_F32(&p)) {
      GPUX_CUDA_GET_KERNEL(f, &b->zig_std,
                           gpux_cuda_resolve(b, GPUX_CUDA_FAM_random, &b->zig_std,
                                             GPUX_KN_RANDOM_NORMAL_STD, gpux_cuda_zig_std_init,
                                             0, 0, &f));
    }
    /* dynamic chunks (from the queue's counter): one wave */
    dynamic = gpux_r_zig_dyn(p.nblocks, grid.gx, GPUX_CUDA_RANDOM_THREADS, b->zig_tune,
                             b->zig_dyn);
    if (!dynamic) {
      const uint64_t few = gpux_r_zig_static_groups(p.nblocks, GPUX_CUDA_RANDOM_THREADS);
      if (few < grid.gx) grid.gx = (unsigned)few; /* >= 1: nblocks >= 1 here */
    }
    /* the static loop counts its rounds (nblocks / threads of the grid) in 32 bits */
    if (!dynamic && grid.gx &&
        p.nblocks / ((uint64_t)grid.gx * GPUX_CUDA_RANDOM_THREADS) >= 0xffffffffu)
      return gpux_cuda_host->set_error(GPUX_ERROR_SIZE_OVERFLOW,
                                       "cuda: a draw of %llu float32 normals is too large for one launch",
                                       (unsigned long long)p.n);
  }
  int pushed = 0;
  CUresult e = gpux_cuda_enter(q->b, &pushed);
  if (e != CUDA_SUCCESS) return gpux_cuda_error(GPUX_ERROR_DRIVER, e, "cuCtxPushCurrent");
  /* the queue's dynamic chunks' counter, zeroed once on its stream before the first launch
   * that takes it (the kernels leave it zero) */
  if (dynamic && !q->zig_work) {
    CUdeviceptr w = 0;
    e = gpux_cuda_drv.MemAlloc(&w, 2 * sizeof(uint32_t));
    if (e == CUDA_SUCCESS) {
      e = gpux_cuda_drv.MemsetD32Async(w, 0, 2, q->stream);
      if (e == CUDA_SUCCESS) q->zig_work = w;
      else (void)gpux_cuda_drv.MemFree(w);
    }
    if (e != CUDA_SUCCESS) {
      gpux_cuda_leave(pushed);
      return gpux_cuda_error(GPUX_ERROR_DRIVER, e,
                             "cuMemAlloc/cuMemsetD32Async (the float32 normals' counter)");
    }
  }
  if (dynamic) work = q->zig_work;
  e = gpux_cuda_launch_current(q, f, grid, args);
  gpux_cuda_leave(pushed);
  if (e != CUDA_SUCCESS)
    return gpux_cuda_error(GPUX_ERROR_LAUNCH, e, "cuLaunchKernel(%s, %llu values)",
                           gpux_cuda_random_names[kind][dt], (unsigned long long)p.n);
  return GPUX_SUCCESS;
}

static void gpux_cuda_random_install(gpux__backend_iface *it) { it->random = gpux_cuda_random; }
const gpux_cuda_family gpux_cuda_fam_random = {
    .init = gpux_cuda_random_init,
    .queue_release = gpux_cuda_random_queue_release,
    .install = gpux_cuda_random_install,
    .query = -1,
};
