/* gpux inside an OpenCL program: the program owns the OpenCL context, the command queue and
 * the buffers; gpux works on them without a copy.
 *
 * The program makes a context and an in-order queue on the first OpenCL device, fills two
 * buffers with clEnqueueWriteBuffer, hands all of it to gpux (gpux_opencl_context_create,
 * gpux_opencl_array_wrap), lets gpux compute y = relu(x * 2 - w) into a third buffer of its
 * own, reads that buffer with clEnqueueReadBuffer and checks it against the CPU. gpux never
 * releases the program's handles: the program does, after gpux is done with them. */
#define CL_TARGET_OPENCL_VERSION 120
#include <stdio.h>
#include <stdlib.h>

#include "gpux.h"
#include "gpux/opencl.h"

#define N 100003

static int check(gpux_status s, const char *what) {
  if (s == GPUX_SUCCESS) return 0;
  fprintf(stderr, "%s: %s (%s)\n", what, gpux_status_name(s), gpux_last_error_message());
  return 1;
}

static void count_release(void *user) { ++*(int *)user; }

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_uint np = 0;
  if (clGetPlatformIDs(1, &platform, &np) != CL_SUCCESS || np == 0 ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
    printf("interop_opencl: no OpenCL device\n");
    return 77;
  }
  cl_int e;
  cl_context clctx = clCreateContext(NULL, 1, &device, NULL, NULL, &e);
  cl_command_queue queue = clCreateCommandQueue(clctx, device, 0, &e);
  if (e != CL_SUCCESS) return 1;
  float *x = malloc(N * sizeof *x), *w = malloc(N * sizeof *w), *y = malloc(N * sizeof *y);
  for (int i = 0; i < N; i++) {
    x[i] = (float)((i * 37) % 1001) / 100.0f - 5.0f;
    w[i] = (float)((i * 11) % 97) / 10.0f;
  }
  /* the program's own buffers */
  cl_mem bx = clCreateBuffer(clctx, CL_MEM_READ_WRITE, N * sizeof(float), NULL, &e);
  cl_mem bw = clCreateBuffer(clctx, CL_MEM_READ_WRITE, N * sizeof(float), NULL, &e);
  cl_mem by = clCreateBuffer(clctx, CL_MEM_READ_WRITE, N * sizeof(float), NULL, &e);
  clEnqueueWriteBuffer(queue, bx, CL_FALSE, 0, N * sizeof(float), x, 0, NULL, NULL);
  clEnqueueWriteBuffer(queue, bw, CL_FALSE, 0, N * sizeof(float), w, 0, NULL, NULL);

  /* gpux on the program's context and queue: its work follows the writes in queue order */
  gpux_context_t ctx = NULL;
  gpux_array_t ax = NULL, aw = NULL, ay = NULL, t = NULL;
  int released = 0, bad = 0;
  const int64_t n = N;
  if (check(gpux_opencl_context_create(&ctx, clctx, device, queue), "context")) return 1;
  bad |= check(gpux_opencl_array_wrap(&ax, ctx, bx, 0, GPUX_FLOAT32, 1, &n, NULL,
                                      count_release, &released), "wrap x");
  bad |= check(gpux_opencl_array_wrap(&aw, ctx, bw, 0, GPUX_FLOAT32, 1, &n, NULL,
                                      count_release, &released), "wrap w");
  bad |= check(gpux_opencl_array_wrap(&ay, ctx, by, 0, GPUX_FLOAT32, 1, &n, NULL,
                                      count_release, &released), "wrap y");
  if (bad) return 1;
  bad |= check(gpux_binary_scalar(&t, GPUX_MUL, ax, 2.0), "x * 2");
  bad |= check(gpux_binary_into(t, GPUX_SUB, t, aw), "- w");
  bad |= check(gpux_unary_into(ay, GPUX_RELU, t), "relu into y");
  gpux_array_release(t);
  gpux_array_release(ax);
  gpux_array_release(aw);
  gpux_array_release(ay); /* gpux waits for its work on each before letting it go */
  gpux_context_release(ctx);

  /* the program reads its buffer: gpux's kernels ran on its queue */
  clEnqueueReadBuffer(queue, by, CL_TRUE, 0, N * sizeof(float), y, 0, NULL, NULL);
  int wrong = 0;
  for (int i = 0; i < N; i++) {
    const float want = x[i] * 2.0f - w[i] > 0.0f ? x[i] * 2.0f - w[i] : 0.0f;
    if (y[i] != want && wrong++ < 5) printf("y[%d] = %g, expected %g\n", i, y[i], want);
  }
  printf("interop_opencl: %d elements, %d wrong, %d buffers handed back\n", N, wrong, released);
  clReleaseMemObject(bx);
  clReleaseMemObject(bw);
  clReleaseMemObject(by);
  clReleaseCommandQueue(queue);
  clReleaseContext(clctx);
  free(x);
  free(w);
  free(y);
  return wrong || bad || released != 3;
}
