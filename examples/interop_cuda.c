/* gpux inside a CUDA program: the program owns the CUDA context, the stream and the device
 * memory (driver API); gpux works on them without a copy.
 *
 * The program takes device 0's primary context (the one the CUDA runtime and cuBLAS use),
 * makes a stream and three allocations with cuMemAlloc, uploads two of them on its stream,
 * hands all of it to gpux (gpux_cuda_context_create, gpux_cuda_array_wrap), lets gpux compute
 * y = relu(x * 2 - w) into the third, downloads it on its stream and checks it against the
 * CPU. gpux's kernels run on the program's stream, in order between its copies; gpux never
 * frees the program's memory nor destroys its stream or context. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpux.h"
#include "gpux/cuda.h"

#define N 100003

static int check(gpux_status s, const char *what) {
  if (s == GPUX_SUCCESS) return 0;
  fprintf(stderr, "%s: %s (%s)\n", what, gpux_status_name(s), gpux_last_error_message());
  return 1;
}

static int cu_check(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS) return 0;
  const char *name = NULL;
  cuGetErrorName(r, &name);
  fprintf(stderr, "%s: %s\n", what, name ? name : "unknown CUDA error");
  return 1;
}

static void count_release(void *user) { ++*(int *)user; }

int main(void) {
  CUdevice dev;
  CUcontext cuctx;
  CUstream stream;
  int count = 0;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
    printf("interop_cuda: no CUDA device\n");
    return 77;
  }
  if (cu_check(cuDeviceGet(&dev, 0), "cuDeviceGet") ||
      cu_check(cuDevicePrimaryCtxRetain(&cuctx, dev), "cuDevicePrimaryCtxRetain") ||
      cu_check(cuCtxSetCurrent(cuctx), "cuCtxSetCurrent") ||
      cu_check(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate"))
    return 1;
  float *x = malloc(N * sizeof *x), *w = malloc(N * sizeof *w), *y = malloc(N * sizeof *y);
  for (int i = 0; i < N; i++) {
    x[i] = (float)((i * 37) % 1001) / 100.0f - 5.0f;
    w[i] = (float)((i * 11) % 97) / 10.0f;
  }
  /* the program's own memory, filled on its stream (from pageable memory these copies are
   * staged before they return) */
  CUdeviceptr dx, dw, dy;
  if (cu_check(cuMemAlloc(&dx, N * sizeof(float)), "cuMemAlloc") ||
      cu_check(cuMemAlloc(&dw, N * sizeof(float)), "cuMemAlloc") ||
      cu_check(cuMemAlloc(&dy, N * sizeof(float)), "cuMemAlloc") ||
      cu_check(cuMemcpyHtoDAsync(dx, x, N * sizeof(float), stream), "cuMemcpyHtoDAsync") ||
      cu_check(cuMemcpyHtoDAsync(dw, w, N * sizeof(float), stream), "cuMemcpyHtoDAsync"))
    return 1;

  /* gpux on the program's context and stream: its work follows the uploads in stream order */
  gpux_context_t ctx = NULL;
  gpux_array_t ax = NULL, aw = NULL, ay = NULL, t = NULL;
  int released = 0, bad = 0;
  const int64_t n = N;
  if (check(gpux_cuda_context_create(&ctx, cuctx, stream), "context")) return 1;
  bad |= check(gpux_cuda_array_wrap(&ax, ctx, dx, GPUX_FLOAT32, 1, &n, NULL, count_release,
                                    &released), "wrap x");
  bad |= check(gpux_cuda_array_wrap(&aw, ctx, dw, GPUX_FLOAT32, 1, &n, NULL, count_release,
                                    &released), "wrap w");
  bad |= check(gpux_cuda_array_wrap(&ay, ctx, dy, GPUX_FLOAT32, 1, &n, NULL, count_release,
                                    &released), "wrap y");
  if (bad) return 1;
  bad |= check(gpux_binary_scalar(&t, GPUX_MUL, ax, 2.0), "x * 2");
  bad |= check(gpux_binary_into(t, GPUX_SUB, t, aw), "- w");
  bad |= check(gpux_unary_into(ay, GPUX_RELU, t), "relu into y");
  gpux_array_release(t);
  gpux_array_release(ax);
  gpux_array_release(aw);
  gpux_array_release(ay); /* gpux waits for its work on each before letting it go */
  gpux_context_release(ctx);

  /* the program reads its memory on its stream */
  if (cu_check(cuMemcpyDtoHAsync(y, dy, N * sizeof(float), stream), "cuMemcpyDtoHAsync") ||
      cu_check(cuStreamSynchronize(stream), "cuStreamSynchronize"))
    return 1;
  int wrong = 0;
  for (int i = 0; i < N; i++) {
    const float want = x[i] * 2.0f - w[i] > 0.0f ? x[i] * 2.0f - w[i] : 0.0f;
    if (y[i] != want && wrong++ < 5) printf("y[%d] = %g, expected %g\n", i, y[i], want);
  }
  printf("interop_cuda: %d elements, %d wrong, %d allocations handed back\n", N, wrong, released);
  cuMemFree(dx);
  cuMemFree(dw);
  cuMemFree(dy);
  cuStreamDestroy(stream);
  cuDevicePrimaryCtxRelease(dev);
  free(x);
  free(w);
  free(y);
  return wrong || bad || released != 3;
}
