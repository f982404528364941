/* gpux-kernel-bench: the costs of the user's own kernels (include/gpux/kernel.h, issue 6).
 *
 *   gpux-kernel-bench --mode first-launch|launch [--backend cuda|opencl|auto] [--device N|gpu]
 *                     [--marker TEXT] [--label TEXT] [--calls 10000] [--batches 10]
 *                     [--json FILE] [--md FILE]
 *
 * --mode first-launch (the metric: the first launch of a kernel in a fresh process)
 *   Times, on the host's monotonic clock, in this process: gpux_context_create (backend module
 *   loaded, driver initialised), then gpux_program_create + gpux_kernel_create + one
 *   gpux_kernel_call + gpux_context_synchronize of a dialect kernel (the "first launch"),
 *   with that time split into program, kernel and launch + synchronize. The source carries
 *   --marker (default: pid and clock) so that a new marker is a source no cache has seen;
 *   run twice with the same marker and GPUX_CACHE_DIR, as fresh processes, for the cold and
 *   the warm figure (bench/run_h200.sh does). --label names the run in the output ("cold",
 *   "warm"); the program's origin (COMPILED, DISK_CACHE) is reported with it. On pocl gpux's
 *   cache sits on pocl's own (POCL_CACHE_DIR) unless GPUX_CACHE_POCL=0.
 * --mode launch (host cost of launching an already-built raw kernel with 4 arguments: two
 *   arrays, a float, an int; n = 1024)
 *   After 200 warm-up launches, --batches batches of --calls / --batches launches each,
 *   queued back to back and timed on the host clock (the queue is synchronized between
 *   batches, outside the timed region); the figure is the median over batches of us per
 *   call, with the minimum and maximum. Forms: kernel_launch (arguments set once,
 *   gpux_kernel_launch per call), kernel_call (gpux_kernel_call: sets the 4 arguments and
 *   launches, per call), kernel_launch_sync (gpux_kernel_launch + gpux_context_synchronize
 *   per call: latency; at most 100 calls per batch).
 * The output is checked against the host in both modes. Results: a table on stdout and one
 * JSON object per line (JSON Lines) on stdout and appended to --json FILE; --md appends rows
 * in gpux-bench's Markdown format. Exit status: 0, 1 on a failure, 2 on a usage error, 77
 * when the backend has no usable device. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gpux.h>

#include "bench_util.h"

#define KB_N 1024
#define KB_BLOCK 256u
#define KB_WARMUP 200
#define KB_SYNC_CALLS 100
#define KB_A 2.0f

static struct {
  int mode; /* 0 first-launch, 1 launch */
  char marker[128];
  const char *label;
} opt;
static bench_opts copt; /* --backend, --device, --calls, --batches, --json, --md */

static gpux_backend_kind g_backend;
static gpux_device_info g_dev;

/* y[i] = a * x[i] + i % 7 for i < n: exact in float32, so the check is exact. */
static char *kernel_source(const char *marker) {
  static const char fmt[] =
      "/* gpux-kernel-bench %s */\n"
      "GPUX_KERNEL kb_axpb(GPUX_GLOBAL const float *x, GPUX_GLOBAL float *y, const float a,\n"
      "                    const int n) {\n"
      "  gpux_i64 i = GPUX_GLOBAL_ID(0);\n"
      "  if (i < n) y[i] = a * x[i] + (float)(int)(i %% 7);\n"
      "}\n";
  size_t cap = sizeof fmt + strlen(marker) + 1;
  char *s = malloc(cap);
  if (s) snprintf(s, cap, fmt, marker);
  return s;
}

static float kb_x(int i) { return (float)(i % 100) - 50.0f; }
static float kb_want(int i) { return KB_A * kb_x(i) + (float)(i % 7); }

static const char *origin_name(gpux_program_origin o) {
  switch (o) {
    case GPUX_PROGRAM_COMPILED: return "compiled";
    case GPUX_PROGRAM_DISK_CACHE: return "disk_cache";
    case GPUX_PROGRAM_MEMORY_CACHE: return "memory_cache";
  }
  return "?";
}

#define TRY(call) BENCH_TRY(call, (void)0)

/* ---- output: JSON Lines and gpux-bench's Markdown rows */

/* One result. Times in ms; us_per_call > 0 for the launch forms. extra: more JSON members
 * (", \"k\": v" ...) or "". */
typedef struct row {
  const char *op;
  int64_t n;
  double median_ms, min_ms, max_ms, us_per_call;
  int reps;
  char timing[96];
  char note[192];
  char extra[512];
} row;

static void json_row(FILE *f, const row *r) {
  char stamp[32];
  bench_utc_stamp(stamp, sizeof stamp);
  fprintf(f, "{\"tool\": \"gpux-kernel-bench\", \"gpux_version\": ");
  bench_json_str(f, gpux_version_string());
  fprintf(f, ", \"date\": \"%s\"", stamp);
  bench_json_kv(f, "op", r->op);
  bench_json_kv(f, "backend", gpux_backend_name(g_backend));
  bench_json_kv(f, "device", g_dev.name);
  bench_json_kv(f, "platform", g_dev.platform);
  bench_json_kv(f, "driver_version", g_dev.driver_version);
  fprintf(f, ", \"is_gpu\": %s, \"n\": %lld, \"median_ms\": %.6g, \"min_ms\": %.6g, "
             "\"max_ms\": %.6g, \"reps\": %d",
          g_dev.is_gpu ? "true" : "false", (long long)r->n, r->median_ms, r->min_ms, r->max_ms,
          r->reps);
  if (r->us_per_call > 0)
    fprintf(f, ", \"median_us\": %.4g, \"min_us\": %.4g, \"max_us\": %.4g", r->us_per_call,
            r->min_ms * 1e3, r->max_ms * 1e3);
  fputs(r->extra, f);
  bench_json_kv(f, "timing", r->timing);
  bench_json_kv(f, "note", r->note);
  fprintf(f, "}\n");
}

static int emit(const row *r) {
  int rc = 0;
  json_row(stdout, r);
  fflush(stdout);
  if (copt.json_path) {
    FILE *f = bench_fopen(copt.json_path, "a");
    if (!f) return 1;
    json_row(f, r);
    rc |= fclose(f) != 0;
  }
  if (copt.md_path) { /* the columns of gpux-bench --md */
    FILE *f = bench_md_open(copt.md_path);
    if (!f) return 1;
    char us[32] = "";
    if (r->us_per_call > 0) snprintf(us, sizeof us, "%.2f", r->us_per_call);
    fprintf(f, "| %s | %s | %s | float32 | %lld | %.4g |  |  | %s | %s |\n",
            gpux_backend_name(g_backend), g_dev.name, r->op, (long long)r->n, r->median_ms, us,
            r->note);
    rc |= fclose(f) != 0;
  }
  return rc;
}

/* ---- the kernel, its source and its data */

typedef struct kdata {
  char *src;
  gpux_program_t p;
  gpux_kernel_t k;
  gpux_array_t x, y;
  gpux_arg args[4];
} kdata;

static void kdata_release(kdata *d) {
  gpux_kernel_release(d->k);
  gpux_program_release(d->p);
  gpux_array_release(d->x);
  gpux_array_release(d->y);
  free(d->src);
}

static gpux_status kdata_make(kdata *d, gpux_context_t ctx) {
  float x[KB_N], y[KB_N];
  int64_t shape[1] = {KB_N};
  for (int i = 0; i < KB_N; i++) {
    x[i] = kb_x(i);
    y[i] = -1.0f;
  }
  gpux_status s = gpux_array_from_host(&d->x, ctx, GPUX_FLOAT32, 1, shape, x);
  if (s == GPUX_SUCCESS) s = gpux_array_from_host(&d->y, ctx, GPUX_FLOAT32, 1, shape, y);
  if (s == GPUX_SUCCESS) s = gpux_context_synchronize(ctx);
  d->args[0] = gpux_arg_array(d->x);
  d->args[1] = gpux_arg_array(d->y);
  d->args[2] = gpux_arg_f32(KB_A);
  d->args[3] = gpux_arg_i32(KB_N);
  return s;
}

static int kdata_check(const kdata *d) {
  float y[KB_N];
  gpux_status s = gpux_array_read(d->y, y, sizeof y);
  if (s != GPUX_SUCCESS) return bench_fail_status("reading the output", s);
  for (int i = 0; i < KB_N; i++)
    if (y[i] != kb_want(i)) {
      fprintf(stderr, "gpux-kernel-bench: WRONG RESULT: y[%d] = %g, expected %g\n", i,
              (double)y[i], (double)kb_want(i));
      return 1;
    }
  return 0;
}

static const uint64_t k_grid[1] = {(KB_N + KB_BLOCK - 1) / KB_BLOCK};
static const uint32_t k_block[1] = {KB_BLOCK};

/* ---- --mode first-launch */

/* The rows of one first-launch run: t0 .. t3 bracket program, kernel, launch + sync. */
static int report_first_launch(gpux_program_origin origin, double context_ms, double t0,
                               double t1, double t2, double t3) {
  int rc = 0;
  const char *label = opt.label ? opt.label : "run";
  const char *cache = getenv("GPUX_CACHE_DIR");
  char ctx_op[64], fl_op[64];
  snprintf(ctx_op, sizeof ctx_op, "context_create_%s", label);
  snprintf(fl_op, sizeof fl_op, "first_launch_%s", label);
  double fl_ms = (t3 - t0) * 1e3;
  row r;
  memset(&r, 0, sizeof r);
  r.op = ctx_op;
  r.median_ms = r.min_ms = r.max_ms = context_ms;
  r.reps = 1;
  snprintf(r.timing, sizeof r.timing, "host monotonic clock, one run in a fresh process");
  snprintf(r.note, sizeof r.note, "gpux_context_create in a fresh process (module load, driver init)");
  snprintf(r.extra, sizeof r.extra, ", \"label\": \"%s\"", label);
  rc |= emit(&r);

  memset(&r, 0, sizeof r);
  r.op = fl_op;
  r.n = KB_N;
  r.median_ms = r.min_ms = r.max_ms = fl_ms;
  r.reps = 1;
  snprintf(r.timing, sizeof r.timing, "host monotonic clock, one run in a fresh process");
  snprintf(r.note, sizeof r.note,
           "program %s: create %.2f ms, kernel %.3f ms, launch + sync %.2f ms; with context %.1f ms",
           origin_name(origin), (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3,
           context_ms + fl_ms);
  snprintf(r.extra, sizeof r.extra,
           ", \"label\": \"%s\", \"origin\": \"%s\", \"program_ms\": %.6g, \"kernel_ms\": %.6g, "
           "\"launch_sync_ms\": %.6g, \"context_ms\": %.6g, \"total_with_context_ms\": %.6g, "
           "\"cache_dir_set\": %s, \"gpux_cache_pocl\": %s",
           label, origin_name(origin), (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3,
           context_ms, context_ms + fl_ms, cache && *cache ? "true" : "false",
           getenv("GPUX_CACHE_POCL") && !strcmp(getenv("GPUX_CACHE_POCL"), "0") ? "false" : "true");
  rc |= emit(&r);
  printf("%s first launch (%s): context %.2f ms, first launch %.2f ms (program %s %.2f ms, "
         "kernel %.3f ms, launch + sync %.2f ms), total %.2f ms\n",
         gpux_backend_name(g_backend), label, context_ms, fl_ms, origin_name(origin),
         (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3, context_ms + fl_ms);
  return rc;
}

static int first_launch(gpux_context_t ctx, double context_ms) {
  int rc = 0;
  kdata d = {0};
  gpux_program_origin origin = GPUX_PROGRAM_COMPILED;
  double t0, t1, t2, t3;
  if (!(d.src = kernel_source(opt.marker))) {
    fprintf(stderr, "gpux-kernel-bench: out of host memory\n");
    return 1;
  }
  TRY(kdata_make(&d, ctx));
  /* the first launch: everything from the source text to the kernel's completion */
  t0 = bench_now_s();
  TRY(gpux_program_create(&d.p, ctx, GPUX_SOURCE_DIALECT, d.src, NULL));
  t1 = bench_now_s();
  TRY(gpux_kernel_create(&d.k, d.p, "kb_axpb"));
  t2 = bench_now_s();
  TRY(gpux_kernel_call(d.k, 1, k_grid, k_block, 4, d.args));
  TRY(gpux_context_synchronize(ctx));
  t3 = bench_now_s();
  TRY(gpux_program_origin_of(&origin, d.p));
  if ((rc = kdata_check(&d)) != 0) goto done;

  rc = report_first_launch(origin, context_ms, t0, t1, t2, t3);
done:
  kdata_release(&d);
  return rc;
}

/* ---- --mode launch */

static int launch_cost(gpux_context_t ctx) {
  int rc = 0;
  kdata d = {0};
  gpux_kernel_t k = NULL;
  double *us = malloc(sizeof(double) * (size_t)copt.batches);
  int per_batch = copt.calls / copt.batches;
  if (per_batch < 1) per_batch = 1;
  if (!(d.src = kernel_source("launch")) || !us) {
    fprintf(stderr, "gpux-kernel-bench: out of host memory\n");
    rc = 1;
    goto done;
  }
  TRY(kdata_make(&d, ctx));
  TRY(gpux_program_create(&d.p, ctx, GPUX_SOURCE_DIALECT, d.src, NULL));
  TRY(gpux_kernel_create(&d.k, d.p, "kb_axpb"));
  k = d.k;
  TRY(gpux_kernel_set_args(k, 4, d.args));
  for (int i = 0; i < KB_WARMUP; i++) {
    TRY(gpux_kernel_launch(k, 1, k_grid, k_block, 0));
    TRY(gpux_kernel_call(k, 1, k_grid, k_block, 4, d.args));
  }
  TRY(gpux_context_synchronize(ctx));
  if ((rc = kdata_check(&d)) != 0) goto done;

  static const char *const names[3] = {"kernel_launch", "kernel_call", "kernel_launch_sync"};
  static const char *const notes[3] = {
      "gpux_kernel_launch, 4 args set once, queued back to back, sync between batches",
      "gpux_kernel_call (sets the 4 args, launches), queued back to back",
      "gpux_kernel_launch + gpux_context_synchronize each call (latency)"};
  for (int form = 0; form < 3; form++) {
    int calls = form == 2 ? (per_batch < KB_SYNC_CALLS ? per_batch : KB_SYNC_CALLS) : per_batch;
    TRY(gpux_kernel_set_args(k, 4, d.args));
    for (int b = 0; b < copt.batches; b++) {
      double t0 = bench_now_s();
      if (form == 0) {
        for (int i = 0; i < calls; i++) TRY(gpux_kernel_launch(k, 1, k_grid, k_block, 0));
      } else if (form == 1) {
        for (int i = 0; i < calls; i++) TRY(gpux_kernel_call(k, 1, k_grid, k_block, 4, d.args));
      } else {
        for (int i = 0; i < calls; i++) {
          TRY(gpux_kernel_launch(k, 1, k_grid, k_block, 0));
          TRY(gpux_context_synchronize(ctx));
        }
      }
      double t1 = bench_now_s();
      TRY(gpux_context_synchronize(ctx)); /* outside the timed region */
      us[b] = (t1 - t0) * 1e6 / calls;
    }
    row r;
    double lo, hi;
    memset(&r, 0, sizeof r);
    r.op = names[form];
    r.n = KB_N;
    bench_batch_stats(us, copt.batches, &r.us_per_call, &lo, &hi);
    r.median_ms = r.us_per_call * 1e-3;
    r.min_ms = lo * 1e-3;
    r.max_ms = hi * 1e-3;
    r.reps = copt.batches;
    snprintf(r.timing, sizeof r.timing, "host monotonic clock, median of %d batches x %d calls",
             copt.batches, calls);
    snprintf(r.note, sizeof r.note, "%s", notes[form]);
    snprintf(r.extra, sizeof r.extra, ", \"args\": 4, \"calls_per_batch\": %d, \"batches\": %d",
             calls, copt.batches);
    rc |= emit(&r);
    printf("%s %-18s %8.2f us/call (min %.2f, max %.2f; %d batches x %d)\n",
           gpux_backend_name(g_backend), names[form], r.us_per_call, lo, hi, copt.batches, calls);
  }
  if (kdata_check(&d)) rc = 1;
done:
  kdata_release(&d);
  free(us);
  return rc;
}

/* ---- options */

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpux-kernel-bench --mode first-launch|launch [--backend cuda|opencl|auto]\n"
          "         [--device N|gpu] [--marker TEXT] [--label TEXT] [--calls N] [--batches N]\n"
          "         [--json FILE] [--md FILE]\n"
          "  first-launch  context creation, then program + kernel + one launch + sync of a\n"
          "                dialect kernel whose source carries --marker (default: pid and clock)\n"
          "  launch        host us per launch of a built 4-argument kernel: median over batches\n"
          "  --calls N     launch: calls in all (default 10000); --batches N (default 10)\n"
          "  --json FILE   append the results as JSON Lines; --md FILE: gpux-bench table rows\n");
}

/* gpux-kernel-bench's own options (bench_parse_args) */
static int have_mode;
static int own_option(const char *a, const char *v) {
  int bad = 0;
  if (!strcmp(a, "--mode")) {
    have_mode = 1;
    if (!strcmp(v, "first-launch")) opt.mode = 0;
    else if (!strcmp(v, "launch")) opt.mode = 1;
    else bad = 1;
  } else if (!strcmp(a, "--marker")) {
    bad = strlen(v) >= sizeof opt.marker || strstr(v, "*/") != NULL;
    if (!bad) snprintf(opt.marker, sizeof opt.marker, "%s", v);
  } else if (!strcmp(a, "--label")) {
    opt.label = v;
    for (const char *c = v; *c; c++) bad |= !(*c == '_' || *c == '-' || (*c >= '0' && *c <= '9') ||
                                             (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z'));
  } else {
    bad = BENCH_UNKNOWN_OPTION;
  }
  return bad;
}

int main(int argc, char **argv) {
  int rc;
  bench_tool = "gpux-kernel-bench";
  bench_opts_init(&copt, 1000000000);
  if ((rc = bench_parse_args(argc, argv, &copt, own_option, usage)) >= 0) return rc;
  if (!have_mode) {
    fprintf(stderr, "gpux-kernel-bench: --mode is required\n");
    usage(stderr);
    return 2;
  }
  if (!opt.marker[0]) { /* a source no cache has seen */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(opt.marker, sizeof opt.marker, "pid %ld t %lld.%09ld", (long)getpid(),
             (long long)ts.tv_sec, ts.tv_nsec);
  }
  if (copt.device_gpu && bench_pick_gpu_device(&copt)) return 77;

  gpux_context_t ctx = NULL;
  double context_ms = 0;
  if ((rc = bench_open_context(&ctx, &copt, &g_backend, &g_dev, &context_ms)) != 0) return rc;
  fflush(stdout);
  rc = opt.mode == 0 ? first_launch(ctx, context_ms) : launch_cost(ctx);
  gpux_context_release(ctx);
  return rc ? 1 : 0;
}
