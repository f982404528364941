/* What every example shares: checked gpux calls and opening the default context.
 * Define EXAMPLE (the program's name, a string) before including this file. */
#ifndef GPUX_EXAMPLE_UTIL_H
#define GPUX_EXAMPLE_UTIL_H
#include <stdio.h>

#include <gpux.h>

/* Runs a gpux call; on failure prints what failed and jumps to the cleanup label. */
#define CHECK(call)                                                                       \
  do {                                                                                    \
    gpux_status s_ = (call);                                                              \
    if (s_ != GPUX_SUCCESS) {                                                             \
      fprintf(stderr, EXAMPLE ": %s failed: %s (%s): %s\n", #call, gpux_status_name(s_),  \
              gpux_status_string(s_), gpux_last_error_message());                         \
      goto done;                                                                          \
    }                                                                                     \
  } while (0)

/* Opens a context on GPUX_BACKEND / GPUX_DEVICE and says which device runs the example.
 * Returns 0; 77 when no backend or device is usable (CTest reports that as skipped);
 * 1 on any other failure. */
static int example_open(gpux_context_t *ctx) {
  gpux_backend_kind backend;
  gpux_device_info dev;
  gpux_status s = gpux_context_create(ctx, GPUX_BACKEND_DEFAULT, -1);
  if (s == GPUX_ERROR_BACKEND_UNAVAILABLE || s == GPUX_ERROR_NO_DEVICE) {
    printf(EXAMPLE ": skipped, no usable backend/device: %s: %s\n", gpux_status_name(s),
           gpux_last_error_message());
    return 77;
  }
  CHECK(s);
  CHECK(gpux_context_backend(&backend, *ctx));
  CHECK(gpux_context_device_info(&dev, *ctx));
  printf("backend %s, device %d: %s (%s)\n", gpux_backend_name(backend), dev.index, dev.name,
         dev.platform);
  return 0;
done:
  return 1;
}
#endif
