/* gpux tests: the backend loader checks a module's required entries. GPUX_BACKEND_PATH
 * points at a directory whose libgpux-opencl.so (tests/registry/fake_backend.c) lacks
 * mem_copy: loading it must fail with GPUX_ERROR_BACKEND_UNAVAILABLE and a message that
 * names the entry, for every call that needs the backend, and leave the process usable. */
#include <stdio.h>
#include <string.h>

#include "gpux.h"

static int failures = 0, checks = 0;

static void expect_refused(gpux_status s, const char *what) {
  const char *m = gpux_last_error_message();
  checks++;
  if (s != GPUX_ERROR_BACKEND_UNAVAILABLE || !strstr(m, "mem_copy") || !strstr(m, what)) {
    printf("FAIL %s: %s, message: %s\n", what, gpux_status_name(s), m);
    failures++;
  }
}

int main(void) {
  int n = -1;
  gpux_context_t c = NULL;
  gpux_device_info info;
  expect_refused(gpux_device_count(&n, GPUX_BACKEND_OPENCL), "gpux_device_count");
  expect_refused(gpux_context_create(&c, GPUX_BACKEND_OPENCL, 0), "gpux_context_create");
  expect_refused(gpux_device_get_info(&info, GPUX_BACKEND_OPENCL, 0), "gpux_device_get_info");
  checks++;
  if (c != NULL) {
    printf("FAIL: a context was made on the refused backend\n");
    failures++;
  }
  printf("%d passed, %d failed\n", checks - failures, failures);
  return failures ? 1 : 0;
}
