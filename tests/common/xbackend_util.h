/* gpux tests: what the cross-backend checks (test_*_xbackend.c) share. Plain C, no cmocka:
 * CHECK exits on a failing call, naming it; xmalloc exits when the host is out of memory;
 * opencl_device picks the OpenCL device to compare with CUDA (the first GPU, else 0);
 * open_pair opens both contexts. */
#ifndef GPUX_TEST_XBACKEND_UTIL_H
#define GPUX_TEST_XBACKEND_UTIL_H
#include <stdio.h>
#include <stdlib.h>
#include "gpux.h"

#define CHECK(call)                                                                       \
  do {                                                                                    \
    gpux_status s_ = (call);                                                              \
    if (s_ != GPUX_SUCCESS) {                                                             \
      fprintf(stderr, "%s:%d: %s: %s: %s\n", __FILE__, __LINE__, #call,                   \
              gpux_status_name(s_), gpux_last_error_message());                           \
      exit(1);                                                                            \
    }                                                                                     \
  } while (0)

static inline void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "out of host memory\n");
    exit(1);
  }
  return p;
}

/* -1 when there is no OpenCL device */
static inline int opencl_device(void) {
  int n = 0;
  if (gpux_device_count(&n, GPUX_BACKEND_OPENCL) != GPUX_SUCCESS) return -1;
  for (int i = 0; i < n; i++) {
    gpux_device_info info;
    if (gpux_device_get_info(&info, GPUX_BACKEND_OPENCL, i) == GPUX_SUCCESS && info.is_gpu) return i;
  }
  return n > 0 ? 0 : -1;
}

/* A CUDA context and an OpenCL one (opencl_device()), described on stdout; 77 (skip) with
 * the reason when either is missing, else 0. */
static inline int open_pair(const char *test, gpux_context_t *cu, gpux_context_t *cl) {
  *cu = *cl = NULL;
  gpux_status s = gpux_context_create(cu, GPUX_BACKEND_CUDA, 0);
  if (s != GPUX_SUCCESS) {
    printf("%s: SKIP: no CUDA context: %s: %s\n", test, gpux_status_name(s),
           gpux_last_error_message());
    return 77;
  }
  int cldev = opencl_device();
  s = cldev < 0 ? GPUX_ERROR_NO_DEVICE : gpux_context_create(cl, GPUX_BACKEND_OPENCL, cldev);
  if (s != GPUX_SUCCESS) {
    printf("%s: SKIP: no OpenCL context: %s: %s\n", test, gpux_status_name(s),
           gpux_last_error_message());
    gpux_context_release(*cu);
    *cu = NULL;
    return 77;
  }
  gpux_device_info i1, i2;
  CHECK(gpux_context_device_info(&i1, *cu));
  CHECK(gpux_context_device_info(&i2, *cl));
  printf("%s: CUDA device %d: %s; OpenCL device %d: %s (%s)\n", test, i1.index, i1.name,
         i2.index, i2.name, i2.platform);
  return 0;
}
#endif
