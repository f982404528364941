/* gpux-launch-floor: the host cost of a bare cuLaunchKernel on this machine, without gpux,
 * measured as gpux-bench measures `hostcost`: batches of launches of an empty 4-argument
 * kernel queued back to back on one stream, host monotonic clock, median microseconds per
 * call. gpux's per-op host cost sits on this floor, so results are compared against it.
 * The driver is loaded with dlopen, as the CUDA backend does. Exit 77 without a driver. */
#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const char ptx[] =
    ".version 7.8\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 n) { ret; }\n";

#define FN(name) static __typeof__(&name) p_##name
FN(cuInit);
FN(cuDeviceGet);
FN(cuDevicePrimaryCtxRetain);
FN(cuCtxSetCurrent);
FN(cuModuleLoadData);
FN(cuModuleGetFunction);
FN(cuStreamCreate);
FN(cuLaunchKernel);
FN(cuStreamSynchronize);

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int batches = 10, calls = argc > 1 ? atoi(argv[1]) : 1000;
  void *h = dlopen("libcuda.so.1", RTLD_NOW);
  if (!h) {
    printf("gpux-launch-floor: no CUDA driver (%s)\n", dlerror());
    return 77;
  }
#define LOAD(name, sym)                                         \
  if (!(*(void **)&p_##name = dlsym(h, sym))) {                 \
    printf("gpux-launch-floor: missing %s\n", sym);             \
    return 1;                                                   \
  }
  LOAD(cuInit, "cuInit");
  LOAD(cuDeviceGet, "cuDeviceGet");
  LOAD(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  LOAD(cuCtxSetCurrent, "cuCtxSetCurrent");
  LOAD(cuModuleLoadData, "cuModuleLoadData");
  LOAD(cuModuleGetFunction, "cuModuleGetFunction");
  LOAD(cuStreamCreate, "cuStreamCreate");
  LOAD(cuLaunchKernel, "cuLaunchKernel");
  LOAD(cuStreamSynchronize, "cuStreamSynchronize");
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction f;
  CUstream st;
  if (p_cuInit(0) || p_cuDeviceGet(&dev, 0) || p_cuDevicePrimaryCtxRetain(&ctx, dev) ||
      p_cuCtxSetCurrent(ctx) || p_cuModuleLoadData(&mod, ptx) ||
      p_cuModuleGetFunction(&f, mod, "k") || p_cuStreamCreate(&st, CU_STREAM_NON_BLOCKING)) {
    printf("gpux-launch-floor: CUDA set-up failed\n");
    return 77;
  }
  unsigned long long a = 0, b = 0, c = 0, n = 1000;
  void *args[] = {&a, &b, &c, &n};
  double us[64];
  for (int w = 0; w < 200; w++) p_cuLaunchKernel(f, 4, 1, 1, 256, 1, 1, 0, st, args, NULL);
  p_cuStreamSynchronize(st);
  for (int bi = 0; bi < batches; bi++) {
    double t0 = now_us();
    for (int i = 0; i < calls; i++)
      if (p_cuLaunchKernel(f, 4, 1, 1, 256, 1, 1, 0, st, args, NULL)) {
        printf("gpux-launch-floor: launch failed\n");
        return 1;
      }
    double t1 = now_us();
    p_cuStreamSynchronize(st); /* outside the timed region */
    us[bi] = (t1 - t0) / calls;
  }
  qsort(us, (size_t)batches, sizeof us[0], cmp);
  printf("bare cuLaunchKernel, empty 4-argument kernel: %.2f us/call (median of %d batches x %d "
         "calls; min %.2f, max %.2f)\n",
         (us[batches / 2 - 1] + us[batches / 2]) / 2, batches, calls, us[0], us[batches - 1]);
  return 0;
}
