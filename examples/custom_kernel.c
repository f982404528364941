/* custom_kernel: your own kernel, written once in gpux's kernel dialect, run on CUDA or on
 * OpenCL. This is the classic Numba example
 *
 *     @cuda.jit
 *     def vector_add(a, b, c):
 *         i = cuda.grid(1)
 *         if i < c.size:
 *             c[i] = a[i] + b[i]
 *
 *     vector_add[blocks, 256](a, b, c)
 *
 * in C: 1024 elements, 256 threads per block, checked against the CPU.
 *
 * The backend comes from GPUX_BACKEND (cuda, opencl, auto; unset = auto) and the device from
 * GPUX_DEVICE. Exits 0 on success, 77 when the chosen backend has no usable device, 1 on any
 * other failure (with the status and gpux_last_error_message(), which holds the compiler's
 * log when the kernel does not compile). */
#include <stdio.h>
#include <stdlib.h>

#define EXAMPLE "custom_kernel"
#include "example_util.h"

#define N 1024
#define THREADS 256

/* The dialect: GPUX_KERNEL, GPUX_GLOBAL and GPUX_GLOBAL_ID(0) become __global__ /
 * blockIdx.x * blockDim.x + threadIdx.x on CUDA and __kernel / __global / get_global_id(0)
 * on OpenCL (docs/kernels.md). */
static const char *source =
    "GPUX_KERNEL vector_add(GPUX_GLOBAL const float *a, GPUX_GLOBAL const float *b,\n"
    "                       GPUX_GLOBAL float *c, const int n) {\n"
    "  gpux_i64 i = GPUX_GLOBAL_ID(0);\n"
    "  if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";

int main(void) {
  int rc = 1;
  gpux_context_t ctx = NULL;
  gpux_program_t prog = NULL;
  gpux_kernel_t kernel = NULL;
  gpux_array_t a = NULL, b = NULL, c = NULL;
  gpux_backend_kind backend;
  static float ha[N], hb[N], hc[N];
  const int64_t shape[1] = {N};

  rc = example_open(&ctx);
  if (rc != 0) goto done;
  rc = 1;
  CHECK(gpux_context_backend(&backend, ctx));

  for (int i = 0; i < N; i++) {
    ha[i] = (float)i * 0.5f;
    hb[i] = 1000.0f - (float)i;
  }
  CHECK(gpux_array_from_host(&a, ctx, GPUX_FLOAT32, 1, shape, ha));
  CHECK(gpux_array_from_host(&b, ctx, GPUX_FLOAT32, 1, shape, hb));
  CHECK(gpux_array_empty(&c, ctx, GPUX_FLOAT32, 1, shape));

  /* compiled at run time (NVRTC or clBuildProgram), then cached in memory and on disk */
  CHECK(gpux_program_create(&prog, ctx, GPUX_SOURCE_DIALECT, source, NULL));
  CHECK(gpux_kernel_create(&kernel, prog, "vector_add"));

  const gpux_arg args[4] = {gpux_arg_array(a), gpux_arg_array(b), gpux_arg_array(c),
                            gpux_arg_i32(N)};
  const uint64_t blocks[1] = {(N + THREADS - 1) / THREADS};
  const uint32_t threads[1] = {THREADS};
  CHECK(gpux_kernel_call(kernel, 1, blocks, threads, 4, args)); /* queued */
  CHECK(gpux_array_read(c, hc, sizeof hc));                     /* waits */

  int bad = 0;
  for (int i = 0; i < N; i++) {
    float want = ha[i] + hb[i];
    if (hc[i] != want && bad++ < 5)
      fprintf(stderr, EXAMPLE ": c[%d] = %g, expected %g\n", i, hc[i], want);
  }
  printf("%s: vector_add<<<%u, %u>>> c[0..3] = %g %g %g %g, c[%d] = %g\n",
         gpux_backend_name(backend), (unsigned)blocks[0], threads[0], hc[0], hc[1], hc[2], hc[3],
         N - 1, hc[N - 1]);
  if (bad) {
    fprintf(stderr, EXAMPLE ": FAILED, %d of %d elements differ from the CPU\n", bad, N);
    goto done;
  }
  printf(EXAMPLE ": OK, all %d elements match the CPU\n", N);
  rc = 0;

done:
  gpux_kernel_release(kernel);
  gpux_program_release(prog);
  gpux_array_release(c);
  gpux_array_release(b);
  gpux_array_release(a);
  gpux_context_release(ctx);
  return rc;
}
