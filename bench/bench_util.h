/* bench_util: what gpux-bench (gpux_bench.c) and gpux-kernel-bench (kernel_bench.c) share:
 * the host clock, medians over batches, the options both take (--backend, --device N|gpu,
 * --calls, --batches, --json, --md) and the loop that reads argv, opening the context with
 * the exit status 77 when the backend has no device, and pieces of the JSON and Markdown
 * output. Messages start with bench_tool, which each program sets first thing. */
#ifndef GPUX_BENCH_UTIL_H
#define GPUX_BENCH_UTIL_H
#include <stddef.h>
#include <stdio.h>

#include <gpux.h>

/* the program's name in its messages, e.g. "gpux-bench" */
extern const char *bench_tool;

/* ---- errors */

/* Says "<tool>: <what> failed: <status> (<text>): <last error>" on stderr; returns 1. */
int bench_fail_status(const char *what, gpux_status s);

/* Runs call; when it fails: runs on_fail (which may read the status s_), says so with
 * bench_fail_status, sets the caller's rc to 1 and jumps to the caller's label done. */
#define BENCH_TRY(call, on_fail)              \
  do {                                        \
    gpux_status s_ = (call);                  \
    if (s_ != GPUX_SUCCESS) {                 \
      on_fail;                                \
      rc = bench_fail_status(#call, s_);      \
      goto done;                              \
    }                                         \
  } while (0)

/* ---- time */

double bench_now_s(void); /* the host's monotonic clock, in seconds */
double bench_median(double *v, int n); /* sorts v[0..n) */
/* median, minimum and maximum of v[0..n) (n >= 1; sorts v) */
void bench_batch_stats(double *v, int n, double *med, double *lo, double *hi);

/* ---- options */

typedef struct bench_opts {
  gpux_backend_kind backend; /* --backend; GPUX_BACKEND_DEFAULT: GPUX_BACKEND, else auto */
  int device;                /* --device N; -1: GPUX_DEVICE */
  int device_gpu;            /* --device gpu */
  int calls, batches;        /* --calls (10000), --batches (10) */
  const char *json_path, *md_path;
  int int_max;               /* the largest value an integer option takes */
} bench_opts;

/* the defaults above; int_max as given */
void bench_opts_init(bench_opts *o, int int_max);

/* Reads s as a decimal int in [lo, hi] into *out; 0, or -1 when it is not one. */
int bench_parse_int(const char *s, int lo, int hi, int *out);

/* Reads argv as "-h"/"--help" and "--name value" pairs: the options of bench_opts go into o,
 * every other pair to own(name, value), which returns 0 (taken), nonzero (a bad value) or
 * BENCH_UNKNOWN_OPTION. Returns -1 when the program goes on, else its exit status: 0 after
 * --help (usage on stdout), 2 on a usage error (said on stderr). */
#define BENCH_UNKNOWN_OPTION (-1000)
int bench_parse_args(int argc, char **argv, bench_opts *o,
                     int (*own)(const char *name, const char *value), void (*usage)(FILE *f));

/* --device gpu: sets o->backend and o->device to the first GPU of o's backend (all when
 * auto); 0, or -1 when there is none (said on stderr). */
int bench_pick_gpu_device(bench_opts *o);

/* Creates *ctx on o's backend and device, reads its backend and device into *backend and
 * *dev and prints "<tool>: gpux V, backend B, device N: NAME (PLATFORM, GPU|CPU)" on stdout.
 * *create_ms (when not NULL): gpux_context_create alone, host clock. Returns 0; 77 when the
 * backend is unavailable or has no device; 1 on another failure (said on stderr; *ctx is
 * then NULL). */
int bench_open_context(gpux_context_t *ctx, const bench_opts *o, gpux_backend_kind *backend,
                       gpux_device_info *dev, double *create_ms);

/* ---- output */

void bench_json_str(FILE *f, const char *s); /* s as a JSON string, quoted */
/* ', "key": ' and value as a JSON string: a member after the first */
void bench_json_kv(FILE *f, const char *key, const char *value);
void bench_utc_stamp(char *buf, size_t len); /* now, "YYYY-MM-DDTHH:MM:SSZ" */
/* fopen, saying "<tool>: cannot write PATH: ..." on stderr when it fails */
FILE *bench_fopen(const char *path, const char *mode);
/* path opened to append gpux-bench's Markdown table rows, the header written when the file
 * is new; NULL (said) when it cannot be opened */
FILE *bench_md_open(const char *path);

#endif
