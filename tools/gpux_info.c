/* gpux-info: what gpux sees on this machine, in the manner of clinfo.
 *
 *   gpux-info           every backend, its devices or the reason it is unavailable, and the
 *                       backend/device that GPUX_BACKEND_DEFAULT (GPUX_BACKEND, GPUX_DEVICE)
 *                       would pick
 *   gpux-info --list    one line per device: "<backend> <index> <gpu|cpu> <name>"
 *
 * Exits 0 when a backend (or every backend) is absent: that is information, not a failure.
 * Exits 1 only when gpux itself misbehaves (an internal error, out of host memory, a device
 * that is counted but cannot be described), 2 on a usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpux.h>

static const gpux_backend_kind k_backends[] = {GPUX_BACKEND_CUDA, GPUX_BACKEND_OPENCL};
#define N_BACKENDS ((int)(sizeof k_backends / sizeof k_backends[0]))

/* Statuses that point at gpux itself (or a starved host) rather than at a backend, driver
 * or device that is missing or misconfigured. */
static int is_internal(gpux_status s) {
  return s == GPUX_ERROR_INTERNAL || s == GPUX_ERROR_OUT_OF_HOST_MEMORY ||
         s == GPUX_ERROR_NULL_POINTER;
}

static const char *env_or(const char *name, const char *dflt) {
  const char *v = getenv(name);
  return (v && *v) ? v : dflt;
}

static void print_bytes(const char *label, uint64_t b) {
  const char *unit = "B";
  double v = (double)b;
  if (b >= (1ull << 30)) {
    v /= (double)(1ull << 30);
    unit = "GiB";
  } else if (b >= (1ull << 20)) {
    v /= (double)(1ull << 20);
    unit = "MiB";
  } else if (b >= (1ull << 10)) {
    v /= 1024.0;
    unit = "KiB";
  }
  printf("    %-18s %.1f %s (%llu bytes)\n", label, v, unit, (unsigned long long)b);
}

static void print_device(const gpux_device_info *d) {
  printf("  Device %d\n", d->index);
  printf("    %-18s %s\n", "Name", d->name);
  printf("    %-18s %s\n", "Vendor", d->vendor);
  printf("    %-18s %s\n", "Platform", d->platform);
  printf("    %-18s %s\n", "Type", d->is_gpu ? "GPU" : "CPU");
  printf("    %-18s %s\n", "Driver version", d->driver_version);
  printf("    %-18s %s\n", "Version", d->version);
  print_bytes("Global memory", d->global_mem_bytes);
  print_bytes("Max allocation", d->max_alloc_bytes);
  printf("    %-18s %d\n", "Compute units", d->compute_units);
  printf("    %-18s %s\n", "float64", d->fp64 ? "yes" : "no");
}

/* Returns 0, or 1 on an internal failure. */
static int show_backend(gpux_backend_kind b, int list_only) {
  int count = 0, failed = 0;
  const char *name = gpux_backend_name(b);
  gpux_clear_error();
  gpux_status s = gpux_device_count(&count, b);
  if (s != GPUX_SUCCESS || count <= 0) {
    if (s == GPUX_SUCCESS) s = GPUX_ERROR_NO_DEVICE;
    if (!list_only) {
      const char *msg = gpux_last_error_message();
      printf("Backend %s: unavailable\n", name);
      printf("  %-20s %s (%s)\n", "Status", gpux_status_name(s), gpux_status_string(s));
      printf("  %-20s %s\n", "Reason", (msg && *msg) ? msg : "(no detail)");
      printf("\n");
    }
    if (is_internal(s)) {
      fprintf(stderr, "gpux-info: gpux_device_count(%s) failed unexpectedly: %s: %s\n", name,
              gpux_status_name(s), gpux_last_error_message());
      return 1;
    }
    return 0;
  }
  if (!list_only) printf("Backend %s: %d device%s\n", name, count, count == 1 ? "" : "s");
  for (int i = 0; i < count; i++) {
    gpux_device_info d;
    memset(&d, 0, sizeof d);
    s = gpux_device_get_info(&d, b, i);
    if (s != GPUX_SUCCESS) {
      fprintf(stderr, "gpux-info: gpux_device_get_info(%s, %d) failed: %s: %s\n", name, i,
              gpux_status_name(s), gpux_last_error_message());
      failed = 1;
      continue;
    }
    if (list_only)
      printf("%s %d %s %s\n", name, d.index, d.is_gpu ? "gpu" : "cpu", d.name);
    else
      print_device(&d);
  }
  if (!list_only) printf("\n");
  return failed;
}

/* What GPUX_BACKEND_DEFAULT with device -1 (the environment, else auto) picks: creates the
 * context, as an application would, so this is the real answer and not a re-derivation. */
static int show_default(void) {
  gpux_context_t ctx = NULL;
  gpux_device_info d;
  gpux_backend_kind kind;
  int rc = 0;
  printf("Default selection (GPUX_BACKEND=%s, GPUX_DEVICE=%s)\n", env_or("GPUX_BACKEND", "unset: auto"),
         env_or("GPUX_DEVICE", "unset: 0"));
  gpux_clear_error();
  gpux_status s = gpux_context_create(&ctx, GPUX_BACKEND_DEFAULT, -1);
  if (s != GPUX_SUCCESS) {
    printf("  %-20s none\n", "Picks");
    printf("  %-20s %s: %s\n", "Reason", gpux_status_name(s), gpux_last_error_message());
    if (is_internal(s)) {
      fprintf(stderr, "gpux-info: gpux_context_create failed unexpectedly\n");
      rc = 1;
    }
    return rc;
  }
  memset(&d, 0, sizeof d);
  s = gpux_context_backend(&kind, ctx);
  if (s == GPUX_SUCCESS) s = gpux_context_device_info(&d, ctx);
  if (s != GPUX_SUCCESS) {
    fprintf(stderr, "gpux-info: querying the default context failed: %s: %s\n",
            gpux_status_name(s), gpux_last_error_message());
    rc = 1;
  } else {
    printf("  %-20s %s device %d: %s (%s, %s)\n", "Picks", gpux_backend_name(kind), d.index,
           d.name, d.platform, d.is_gpu ? "GPU" : "CPU");
  }
  gpux_context_release(ctx);
  return rc;
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpux-info [--list] [--no-default]\n"
          "  Lists gpux's backends (cuda, opencl) and their devices, or why a backend is\n"
          "  unavailable, then the backend and device that GPUX_BACKEND / GPUX_DEVICE (unset:\n"
          "  auto, device 0) select.\n"
          "  --list        one line per device: <backend> <index> <gpu|cpu> <name>\n"
          "  --no-default  do not create a context to show the default selection\n");
}

int main(int argc, char **argv) {
  int list_only = 0, show_dflt = 1, rc = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--list") || !strcmp(argv[i], "-l")) {
      list_only = 1;
    } else if (!strcmp(argv[i], "--no-default")) {
      show_dflt = 0;
    } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    } else {
      fprintf(stderr, "gpux-info: unknown option '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    }
  }
  if (!list_only) {
    printf("gpux %s (library), %s (headers)\n", gpux_version_string(), GPUX_VERSION_STRING);
    printf("Environment: GPUX_BACKEND=%s GPUX_DEVICE=%s GPUX_BACKEND_PATH=%s "
           "GPUX_CACHE_DIR=%s POCL_CACHE_DIR=%s\n\n",
           env_or("GPUX_BACKEND", "(unset)"), env_or("GPUX_DEVICE", "(unset)"),
           env_or("GPUX_BACKEND_PATH", "(unset)"), env_or("GPUX_CACHE_DIR", "(unset)"),
           env_or("POCL_CACHE_DIR", "(unset)"));
  }
  for (int i = 0; i < N_BACKENDS; i++) rc |= show_backend(k_backends[i], list_only);
  if (!list_only && show_dflt) rc |= show_default();
  fflush(stdout);
  return rc ? 1 : 0;
}
