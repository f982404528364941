/* bench_util: see bench_util.h. */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *bench_tool = "gpux-bench";

int bench_fail_status(const char *what, gpux_status s) {
  fprintf(stderr, "%s: %s failed: %s (%s): %s\n", bench_tool, what, gpux_status_name(s),
          gpux_status_string(s), gpux_last_error_message());
  return 1;
}

/* ---- time */

double bench_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double bench_median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void bench_batch_stats(double *v, int n, double *med, double *lo, double *hi) {
  *med = bench_median(v, n);
  *lo = v[0];
  *hi = v[n - 1];
}

/* ---- options */

void bench_opts_init(bench_opts *o, int int_max) {
  memset(o, 0, sizeof *o);
  o->backend = GPUX_BACKEND_DEFAULT;
  o->device = -1;
  o->calls = 10000;
  o->batches = 10;
  o->int_max = int_max;
}

int bench_parse_int(const char *s, int lo, int hi, int *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi) return -1;
  *out = (int)v;
  return 0;
}

/* 0 taken, nonzero a bad value, BENCH_UNKNOWN_OPTION not one of bench_opts */
static int common_option(bench_opts *o, const char *a, const char *v) {
  if (!strcmp(a, "--backend")) return gpux_backend_from_name(&o->backend, v) != GPUX_SUCCESS;
  if (!strcmp(a, "--device")) {
    if (!strcmp(v, "gpu")) {
      o->device_gpu = 1;
      return 0;
    }
    return bench_parse_int(v, 0, o->int_max, &o->device);
  }
  if (!strcmp(a, "--calls")) return bench_parse_int(v, 1, o->int_max, &o->calls);
  if (!strcmp(a, "--batches")) return bench_parse_int(v, 1, o->int_max, &o->batches);
  if (!strcmp(a, "--json")) {
    o->json_path = v;
    return 0;
  }
  if (!strcmp(a, "--md")) {
    o->md_path = v;
    return 0;
  }
  return BENCH_UNKNOWN_OPTION;
}

int bench_parse_args(int argc, char **argv, bench_opts *o,
                     int (*own)(const char *name, const char *value), void (*usage)(FILE *f)) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    }
    if (!v) {
      fprintf(stderr, "%s: unknown option or missing value: '%s'\n", bench_tool, a);
      usage(stderr);
      return 2;
    }
    i++;
    int bad = common_option(o, a, v);
    if (bad == BENCH_UNKNOWN_OPTION) bad = own(a, v);
    if (bad == BENCH_UNKNOWN_OPTION) {
      fprintf(stderr, "%s: unknown option '%s'\n", bench_tool, a);
      usage(stderr);
      return 2;
    }
    if (bad) {
      fprintf(stderr, "%s: bad value for %s: '%s'\n", bench_tool, a, v);
      return 2;
    }
  }
  return -1;
}

int bench_pick_gpu_device(bench_opts *o) {
  gpux_backend_kind kinds[2];
  int nk = 0;
  gpux_backend_kind b = o->backend;
  if (b == GPUX_BACKEND_DEFAULT) {
    const char *e = getenv("GPUX_BACKEND");
    b = GPUX_BACKEND_AUTO;
    if (e && *e && gpux_backend_from_name(&b, e) != GPUX_SUCCESS) {
      fprintf(stderr, "%s: GPUX_BACKEND='%s': %s\n", bench_tool, e, gpux_last_error_message());
      return -1;
    }
  }
  if (b == GPUX_BACKEND_AUTO || b == GPUX_BACKEND_DEFAULT) {
    kinds[nk++] = GPUX_BACKEND_CUDA;
    kinds[nk++] = GPUX_BACKEND_OPENCL;
  } else {
    kinds[nk++] = b;
  }
  for (int k = 0; k < nk; k++) {
    int count = 0;
    if (gpux_device_count(&count, kinds[k]) != GPUX_SUCCESS) continue;
    for (int i = 0; i < count; i++) {
      gpux_device_info d;
      if (gpux_device_get_info(&d, kinds[k], i) == GPUX_SUCCESS && d.is_gpu) {
        o->backend = kinds[k];
        o->device = i;
        return 0;
      }
    }
  }
  fprintf(stderr, "%s: --device gpu: no GPU device on backend %s\n", bench_tool,
          gpux_backend_name(b));
  return -1;
}

int bench_open_context(gpux_context_t *ctx, const bench_opts *o, gpux_backend_kind *backend,
                       gpux_device_info *dev, double *create_ms) {
  double t0 = bench_now_s();
  gpux_status s = gpux_context_create(ctx, o->backend, o->device);
  if (create_ms) *create_ms = (bench_now_s() - t0) * 1e3;
  if (s == GPUX_ERROR_BACKEND_UNAVAILABLE || s == GPUX_ERROR_NO_DEVICE) {
    const char *env = getenv("GPUX_BACKEND");
    fprintf(stderr, "%s: backend %s unavailable: %s: %s\n", bench_tool,
            o->backend != GPUX_BACKEND_DEFAULT ? gpux_backend_name(o->backend)
            : (env && *env)                    ? env
                                               : "auto",
            gpux_status_name(s), gpux_last_error_message());
    *ctx = NULL;
    return 77;
  }
  if (s != GPUX_SUCCESS) {
    *ctx = NULL;
    return bench_fail_status("gpux_context_create", s);
  }
  if ((s = gpux_context_backend(backend, *ctx)) != GPUX_SUCCESS ||
      (s = gpux_context_device_info(dev, *ctx)) != GPUX_SUCCESS) {
    gpux_context_release(*ctx);
    *ctx = NULL;
    return bench_fail_status("querying the context", s);
  }
  printf("%s: gpux %s, backend %s, device %d: %s (%s, %s)\n", bench_tool, gpux_version_string(),
         gpux_backend_name(*backend), dev->index, dev->name, dev->platform,
         dev->is_gpu ? "GPU" : "CPU");
  return 0;
}

/* ---- output */

void bench_json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch < 0x20)
      fprintf(f, "\\u%04x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
}

void bench_json_kv(FILE *f, const char *key, const char *value) {
  fprintf(f, ", \"%s\": ", key);
  bench_json_str(f, value);
}

void bench_utc_stamp(char *buf, size_t len) {
  time_t t = time(NULL);
  strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
}

FILE *bench_fopen(const char *path, const char *mode) {
  FILE *f = fopen(path, mode);
  if (!f) fprintf(stderr, "%s: cannot write %s: %s\n", bench_tool, path, strerror(errno));
  return f;
}

FILE *bench_md_open(const char *path) {
  FILE *f = bench_fopen(path, "a");
  if (f && ftell(f) == 0)
    fprintf(f, "| backend | device | op | dtype | n | median ms | GB/s | TFLOP/s | us/call | note |\n"
               "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
  return f;
}
