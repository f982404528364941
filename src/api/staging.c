/* Transfers from and to pageable host memory, staged through page-locked bounce buffers.
 *
 * A driver copies pageable memory through its own staging, one piece at a time, at a
 * fraction of the bus (PyTorch's pageable copy_ of 1 GiB on the H200: 6 to 19 GB/s up,
 * 13 down, against 55 GB/s from pinned memory). gpux copies in chunks through STAGE_DEPTH
 * page-locked buffers of the stream's own: while the device's copy engine moves chunk k, the
 * host copies chunk k + 1 into the next buffer, with several threads (memcpy_par) so that the
 * host side keeps up with the bus. An upload returns when the last chunk is in a bounce
 * buffer (the caller's memory is free again, as the blocking call promises; the DMA finishes
 * on the stream); a download returns when the last chunk is in the caller's memory. The
 * buffers are made on the first staged transfer of a stream and kept until the stream goes
 * (STAGE_DEPTH x STAGE_BUF bytes).
 *
 * Sizes, measured on the H200 machine (16 cores; bench/results/h200-2026-12-03-s29): 16 MiB
 * chunks and 8 copy threads moved 1 GiB at 41 / 38 GB/s (up / down), 4 MiB chunks and 4
 * threads at 20 / 20. A transfer is cut into at least STAGE_MIN_CHUNKS chunks (each a whole
 * MiB, at least STAGE_CHUNK_MIN) so that mid-sized ones pipeline too. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define STAGE_BUF ((size_t)16 << 20) /* a bounce buffer: the largest chunk */
#define STAGE_DEPTH 4
#define STAGE_MIN_CHUNKS 8
#define STAGE_CHUNK_MIN ((size_t)2 << 20)
#define STAGE_MIN ((size_t)4 << 20) /* smaller transfers take the driver's path */
#define PAR_MIN ((size_t)1 << 20)   /* smaller host copies take one thread */
#define PAR_MAX 8

struct gpux__staging {
  void *host[STAGE_DEPTH], *handle[STAGE_DEPTH];
  void *ev[STAGE_DEPTH]; /* timing-free: the copy engine is done with host[k] */
  int live[STAGE_DEPTH]; /* ev[k] recorded since host[k] was last waited for */
};

/* ---- host copies on several threads: a small process-wide pool, one job at a time (a
 * caller that finds it busy copies alone) */
static struct {
  pthread_once_t once;
  pthread_mutex_t job_lock; /* held by the caller that owns the pool for a job */
  pthread_mutex_t m;
  pthread_cond_t go, done;
  int nthreads; /* workers (the caller takes a part too) */
  uint64_t gen; /* job number */
  char *dst;
  const char *src;
  size_t n, part;
  int parts, next, finished;
} g_par = {PTHREAD_ONCE_INIT, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
           PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, NULL, NULL, 0, 0, 0, 0, 0};

/* takes parts of the current job until none is left; m held on entry and exit */
static void par_take(void) {
  while (g_par.next < g_par.parts) {
    const int k = g_par.next++;
    const size_t lo = (size_t)k * g_par.part,
                 len = lo + g_par.part < g_par.n ? g_par.part : g_par.n - lo;
    char *d = g_par.dst + lo;
    const char *s = g_par.src + lo;
    pthread_mutex_unlock(&g_par.m);
    memcpy(d, s, len);
    pthread_mutex_lock(&g_par.m);
    if (++g_par.finished == g_par.parts) pthread_cond_broadcast(&g_par.done);
  }
}

static void *par_worker(void *arg) {
  (void)arg;
  uint64_t seen = 0;
  pthread_mutex_lock(&g_par.m);
  for (;;) {
    while (g_par.gen == seen) pthread_cond_wait(&g_par.go, &g_par.m);
    seen = g_par.gen;
    par_take();
  }
  return NULL;
}

/* GPUX_COPY_THREADS (default: half the cores, at least 2 where there are 2, at most PAR_MAX;
 * 1: no pool). Half: the copies are bound by memory, not by cores (H200 machine: 4 threads
 * copied 38 GB/s, 16 threads 41). */
static void par_start(void) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN), half = cores / 2;
  int want = half > PAR_MAX ? PAR_MAX : half >= 2 ? (int)half : cores >= 2 ? 2 : 1;
  const char *env = getenv("GPUX_COPY_THREADS");
  if (env && *env) {
    char *end;
    long v = strtol(env, &end, 10);
    if (!*end && v >= 1) want = v > PAR_MAX ? PAR_MAX : (int)v;
  }
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
  for (int i = 0; i < want - 1; i++) {
    pthread_t t;
    if (pthread_create(&t, &at, par_worker, NULL) != 0) break;
    g_par.nthreads++;
  }
  pthread_attr_destroy(&at);
}

static void memcpy_par(void *dst, const void *src, size_t n) {
  pthread_once(&g_par.once, par_start);
  if (n < PAR_MIN || g_par.nthreads == 0 || pthread_mutex_trylock(&g_par.job_lock) != 0) {
    memcpy(dst, src, n);
    return;
  }
  pthread_mutex_lock(&g_par.m);
  g_par.dst = dst;
  g_par.src = src;
  g_par.n = n;
  g_par.parts = g_par.nthreads + 1;
  /* parts of whole 4 KiB pages */
  g_par.part = ((n + (size_t)g_par.parts - 1) / (size_t)g_par.parts + 4095) & ~(size_t)4095;
  g_par.parts = (int)((n + g_par.part - 1) / g_par.part);
  g_par.next = g_par.finished = 0;
  g_par.gen++;
  pthread_cond_broadcast(&g_par.go);
  par_take();
  while (g_par.finished < g_par.parts) pthread_cond_wait(&g_par.done, &g_par.m);
  pthread_mutex_unlock(&g_par.m);
  pthread_mutex_unlock(&g_par.job_lock);
}

/* ---- the bounce buffers */
int gpux__staging_applies(struct gpux_context *ctx, const void *host, size_t bytes) {
  const gpux__backend_iface *be = ctx->be;
  if (bytes < STAGE_MIN || !be->host_alloc || !be->mem_upload_async || !be->mem_download_async ||
      !be->event_create || !be->event_record || !be->event_synchronize)
    return 0;
  if (gpux__pinned_contains(host, bytes)) return 0;
  int pinned = 0;
  if (be->host_pinned && be->host_pinned(ctx->b, host, &pinned) == GPUX_SUCCESS && pinned)
    return 0;
  return 1;
}

void gpux__staging_free(struct gpux_context *ctx, gpux__staging *st) {
  if (!st) return;
  for (int k = 0; k < STAGE_DEPTH; k++) {
    if (st->ev[k]) ctx->be->event_destroy(ctx->b, st->ev[k]);
    if (st->host[k]) ctx->be->host_free(ctx->b, st->host[k], st->handle[k]);
  }
  free(st);
}

static gpux_status staging_get(gpux__staging **out, struct gpux_stream *s) {
  struct gpux_context *ctx = s->ctx;
  if (s->staging) {
    *out = s->staging;
    return GPUX_SUCCESS;
  }
  gpux__staging *st = calloc(1, sizeof *st);
  if (!st) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
  gpux_status r = GPUX_SUCCESS;
  for (int k = 0; k < STAGE_DEPTH && r == GPUX_SUCCESS; k++) {
    r = ctx->be->host_alloc(ctx->b, STAGE_BUF, &st->host[k], &st->handle[k]);
    if (r == GPUX_SUCCESS) r = ctx->be->event_create(ctx->b, 0, &st->ev[k]);
  }
  if (r != GPUX_SUCCESS) {
    gpux__staging_free(ctx, st);
    return r;
  }
  *out = s->staging = st;
  return GPUX_SUCCESS;
}

/* the chunk length for a transfer of `bytes`: STAGE_MIN_CHUNKS or more whole-MiB chunks, each
 * from STAGE_CHUNK_MIN to STAGE_BUF */
static size_t stage_chunk(size_t bytes) {
  size_t c = (bytes / STAGE_MIN_CHUNKS + ((size_t)1 << 20) - 1) & ~(((size_t)1 << 20) - 1);
  return c < STAGE_CHUNK_MIN ? STAGE_CHUNK_MIN : c > STAGE_BUF ? STAGE_BUF : c;
}

/* waits until the copy engine is done with bounce buffer k */
static gpux_status stage_wait(struct gpux_context *ctx, gpux__staging *st, int k) {
  if (!st->live[k]) return GPUX_SUCCESS;
  st->live[k] = 0;
  return ctx->be->event_synchronize(ctx->b, st->ev[k]);
}

gpux_status gpux__staged_upload(struct gpux_stream *s, void *buf, size_t offset,
                                const void *src, size_t bytes) {
  struct gpux_context *ctx = s->ctx;
  gpux__staging *st;
  GPUX__CHECK(staging_get(&st, s));
  const size_t chunk = stage_chunk(bytes);
  for (size_t done = 0, i = 0; done < bytes; i++) {
    const int k = (int)(i % STAGE_DEPTH);
    const size_t len = bytes - done < chunk ? bytes - done : chunk;
    GPUX__CHECK(stage_wait(ctx, st, k));
    memcpy_par(st->host[k], (const char *)src + done, len);
    GPUX__CHECK(ctx->be->mem_upload_async(s->q, buf, offset + done, st->host[k], len));
    GPUX__CHECK(ctx->be->event_record(s->q, st->ev[k]));
    st->live[k] = 1;
    done += len;
  }
  return GPUX_SUCCESS;
}

gpux_status gpux__staged_download(struct gpux_stream *s, void *buf, size_t offset, void *dst,
                                  size_t bytes) {
  struct gpux_context *ctx = s->ctx;
  gpux__staging *st;
  GPUX__CHECK(staging_get(&st, s));
  const size_t chunk = stage_chunk(bytes), nchunks = (bytes + chunk - 1) / chunk;
  size_t queued = 0; /* chunks whose download is queued */
  gpux_status r = GPUX_SUCCESS;
  for (size_t i = 0; i < nchunks && r == GPUX_SUCCESS; i++) {
    /* keep STAGE_DEPTH downloads in flight ahead of the host's copies */
    while (r == GPUX_SUCCESS && queued < nchunks && queued < i + STAGE_DEPTH) {
      const int k = (int)(queued % STAGE_DEPTH);
      const size_t lo = queued * chunk, len = bytes - lo < chunk ? bytes - lo : chunk;
      r = stage_wait(ctx, st, k); /* an upload's earlier use of it */
      if (r == GPUX_SUCCESS) r = ctx->be->mem_download_async(s->q, buf, offset + lo, st->host[k], len);
      if (r == GPUX_SUCCESS) r = ctx->be->event_record(s->q, st->ev[k]);
      if (r == GPUX_SUCCESS) st->live[k] = 1;
      queued++;
    }
    if (r != GPUX_SUCCESS) break;
    const int k = (int)(i % STAGE_DEPTH);
    const size_t lo = i * chunk, len = bytes - lo < chunk ? bytes - lo : chunk;
    r = stage_wait(ctx, st, k);
    if (r == GPUX_SUCCESS) memcpy_par((char *)dst + lo, st->host[k], len);
  }
  if (r != GPUX_SUCCESS) (void)ctx->be->synchronize(s->q); /* nothing of ours left queued */
  return r;
}
