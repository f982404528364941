/* Caching allocator: released device blocks are kept, sorted by size, and reused for later
 * requests of a similar size, so loops that create and release temporaries do not call the
 * driver's allocator. One pool per context, shared by its streams and threads (under the
 * context's lock).
 *
 * Streams: a block is allocated for a stream (its home) and, once freed, goes back to that
 * stream only: work on one queue runs in order, so the next user of the block queues after
 * every earlier one (PyTorch's caching allocator works per stream the same way). Unlike
 * PyTorch, whose users must call record_stream when another stream uses a tensor, gpux
 * notes every other stream that queues work on the memory (gpux__stream_use) and, at the
 * release, records an event on each of them; the block waits in `pending` until all have
 * passed, then goes home. A stream that goes first finishes its queue, so its blocks become
 * idle (any stream may take them), as do all blocks after a synchronization of every
 * stream. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define SMALL_LIMIT ((size_t)1 << 20)
#define SMALL_ROUND ((size_t)512)
#define LARGE_ROUND ((size_t)2 << 20)

static size_t round_size(size_t n) {
  size_t r = n < SMALL_LIMIT ? SMALL_ROUND : LARGE_ROUND;
  if (n > SIZE_MAX - r) return 0;
  return (n + r - 1) / r * r;
}

/* first free block with size >= n */
static size_t lower_bound(const gpux__pool *p, size_t n) {
  size_t lo = 0, hi = p->nfree;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (p->free_blocks[mid].size < n)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static void release_to_device(struct gpux_context *ctx, gpux__block b) {
  ctx->be->mem_free(ctx->b, b.buf);
  ctx->pool.stats.device_frees++;
}

/* Puts b on the free list (or back to the device beyond the limit). Lock held. */
static void cache_block(struct gpux_context *ctx, gpux__block b) {
  gpux__pool *p = &ctx->pool;
  if (p->stats.bytes_cached + b.size > p->limit) {
    release_to_device(ctx, b);
    return;
  }
  if (p->nfree == p->cap) {
    size_t cap = p->cap ? p->cap * 2 : 64;
    gpux__block *nb = realloc(p->free_blocks, cap * sizeof *nb);
    if (!nb) { /* cannot cache it: give it back */
      release_to_device(ctx, b);
      return;
    }
    p->free_blocks = nb;
    p->cap = cap;
  }
  size_t i = lower_bound(p, b.size);
  memmove(&p->free_blocks[i + 1], &p->free_blocks[i], (p->nfree - i) * sizeof *p->free_blocks);
  p->free_blocks[i] = b;
  p->nfree++;
  p->stats.bytes_cached += b.size;
}

static void spare_event(struct gpux_context *ctx, void *ev) {
  gpux__pool *p = &ctx->pool;
  if (p->nspare == p->scap) {
    size_t cap = p->scap ? p->scap * 2 : 16;
    void **n = realloc(p->spare_ev, cap * sizeof *n);
    if (!n) {
      ctx->be->event_destroy(ctx->b, ev);
      return;
    }
    p->spare_ev = n;
    p->scap = cap;
  }
  p->spare_ev[p->nspare++] = ev;
}

/* Moves the pending blocks whose streams have all passed their events to their homes'
 * free lists. wait: synchronize each event instead of asking. Lock held. */
static void collect_pending(struct gpux_context *ctx, int wait) {
  gpux__pool *p = &ctx->pool;
  size_t keep = 0;
  for (size_t i = 0; i < p->npending; i++) {
    gpux__pending *e = &p->pending[i];
    int done = 1;
    for (int k = 0; k < e->nev && done; k++) {
      int d = 1;
      if (wait)
        (void)ctx->be->event_synchronize(ctx->b, e->ev[k]);
      else if (ctx->be->event_query(ctx->b, e->ev[k], &d) != GPUX_SUCCESS)
        d = 1; /* a failed query: the queue's error shows at the next synchronize */
      done = d;
    }
    if (!done) {
      p->pending[keep++] = *e;
      continue;
    }
    for (int k = 0; k < e->nev; k++) spare_event(ctx, e->ev[k]);
    free(e->ev);
    cache_block(ctx, e->blk);
  }
  p->npending = keep;
}

gpux_status gpux__pool_alloc(struct gpux_context *ctx, struct gpux_stream *s, size_t bytes,
                             gpux__block *out) {
  gpux__pool *p = &ctx->pool;
  size_t need = round_size(bytes);
  if (need == 0)
    return gpux__set_error(GPUX_ERROR_SIZE_OVERFLOW, "allocation of %zu bytes overflows", bytes);
  pthread_mutex_lock(&ctx->lock);
  if (p->npending) collect_pending(ctx, 0);
  /* reuse a block of this stream's or an idle one, at most 1/4 larger than needed, so big
   * blocks are not wasted on small requests */
  size_t i = lower_bound(p, need);
  while (i < p->nfree && p->free_blocks[i].size - need <= need / 4 &&
         p->free_blocks[i].home != s && p->free_blocks[i].home != NULL)
    i++;
  if (i < p->nfree && p->free_blocks[i].size - need <= need / 4) {
    *out = p->free_blocks[i];
    memmove(&p->free_blocks[i], &p->free_blocks[i + 1], (p->nfree - i - 1) * sizeof *p->free_blocks);
    p->nfree--;
    p->stats.bytes_cached -= out->size;
    p->stats.pool_hits++;
  } else {
    /* more than the device's largest allocation fails without asking the driver (a failing
     * driver call would show in the user's own compute-sanitizer reports) */
    if (ctx->info.max_alloc_bytes && need > ctx->info.max_alloc_bytes) {
      pthread_mutex_unlock(&ctx->lock);
      return gpux__set_error(GPUX_ERROR_OUT_OF_MEMORY,
                             "%zu bytes requested; the largest allocation %s allows is %llu "
                             "bytes",
                             need, ctx->info.name, (unsigned long long)ctx->info.max_alloc_bytes);
    }
    void *buf = NULL;
    gpux_status st = ctx->be->mem_alloc(ctx->b, need, &buf);
    if (st == GPUX_ERROR_OUT_OF_MEMORY && (p->nfree || p->npending)) {
      /* cached blocks may be what is missing: wait for the pending ones, return them all
       * to the driver and try once more (cached blocks of other streams may still be in
       * use by their queues: the driver's free waits for the device) */
      collect_pending(ctx, 1);
      (void)ctx->be->synchronize(s->q);
      gpux__pool_trim(ctx);
      st = ctx->be->mem_alloc(ctx->b, need, &buf);
    }
    if (st != GPUX_SUCCESS) {
      pthread_mutex_unlock(&ctx->lock);
      return st;
    }
    out->buf = buf;
    out->size = need;
    p->stats.device_allocs++;
    p->stats.pool_misses++;
  }
  out->home = s;
  p->stats.bytes_in_use += out->size;
  if (p->stats.bytes_in_use > p->stats.peak_bytes_in_use)
    p->stats.peak_bytes_in_use = p->stats.bytes_in_use;
  pthread_mutex_unlock(&ctx->lock);
  return GPUX_SUCCESS;
}

/* Events recorded now on every live stream in `used` but home (the last slot is shared by
 * the streams beyond it: each of them gets one). Lock held. Returns the count; -1 when an
 * event could not be made or recorded (the caller then waits for every stream). */
static int record_users(struct gpux_context *ctx, const struct gpux_stream *home, uint64_t used,
                        void ***evs) {
  gpux__pool *p = &ctx->pool;
  int n = 0, cap = 0;
  void **ev = NULL;
  for (struct gpux_stream *s = &ctx->s0; s; s = s == &ctx->s0 ? ctx->streams : s->next) {
    if (s == home || !(used & ((uint64_t)1 << s->slot))) continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 4;
      void **m = realloc(ev, (size_t)cap * sizeof *m);
      if (!m) goto fail;
      ev = m;
    }
    void *e = NULL;
    if (p->nspare)
      e = p->spare_ev[--p->nspare];
    else if (ctx->be->event_create(ctx->b, 0, &e) != GPUX_SUCCESS)
      goto fail;
    ev[n++] = e;
    if (ctx->be->event_record(s->q, e) != GPUX_SUCCESS) goto fail;
  }
  *evs = ev;
  return n;
fail:
  for (int k = 0; k < n; k++) ctx->be->event_destroy(ctx->b, ev[k]);
  free(ev);
  return -1;
}

void gpux__pool_free(struct gpux_context *ctx, gpux__block b, struct gpux_stream *home,
                     uint64_t used) {
  gpux__pool *p = &ctx->pool;
  pthread_mutex_lock(&ctx->lock);
  p->stats.bytes_in_use -= b.size;
  b.home = home;
  used &= ~((uint64_t)1 << home->slot);
  if (used) {
    void **ev = NULL;
    int n = record_users(ctx, home, used, &ev);
    if (n < 0) {
      /* no events: wait for the streams here rather than risk a reuse */
      pthread_mutex_unlock(&ctx->lock);
      (void)gpux__sync_all(ctx);
      pthread_mutex_lock(&ctx->lock);
    } else if (n > 0) {
      if (p->npending == p->pcap) {
        size_t cap = p->pcap ? p->pcap * 2 : 16;
        gpux__pending *m = realloc(p->pending, cap * sizeof *m);
        if (m) {
          p->pending = m;
          p->pcap = cap;
        }
      }
      if (p->npending < p->pcap) {
        p->pending[p->npending++] = (gpux__pending){b, n, ev};
        pthread_mutex_unlock(&ctx->lock);
        return;
      }
      /* no room to wait without blocking: wait now */
      for (int k = 0; k < n; k++) {
        (void)ctx->be->event_synchronize(ctx->b, ev[k]);
        spare_event(ctx, ev[k]);
      }
      free(ev);
    }
  }
  cache_block(ctx, b);
  pthread_mutex_unlock(&ctx->lock);
}

void gpux__pool_all_idle(struct gpux_context *ctx) {
  gpux__pool *p = &ctx->pool;
  pthread_mutex_lock(&ctx->lock);
  collect_pending(ctx, 1);
  for (size_t i = 0; i < p->nfree; i++) p->free_blocks[i].home = NULL;
  pthread_mutex_unlock(&ctx->lock);
}

void gpux__pool_forget_stream(struct gpux_context *ctx, struct gpux_stream *s) {
  gpux__pool *p = &ctx->pool;
  /* lock held by the caller (stream.c) */
  for (size_t i = 0; i < p->nfree; i++)
    if (p->free_blocks[i].home == s) p->free_blocks[i].home = NULL;
  for (size_t i = 0; i < p->npending; i++)
    if (p->pending[i].blk.home == s) p->pending[i].blk.home = NULL;
}

/* Lock held, or the context going. */
void gpux__pool_trim(struct gpux_context *ctx) {
  gpux__pool *p = &ctx->pool;
  for (size_t i = 0; i < p->nfree; i++) release_to_device(ctx, p->free_blocks[i]);
  p->nfree = 0;
  p->stats.bytes_cached = 0;
}

/* Drops the largest cached blocks until the cache fits the limit. Lock held. */
void gpux__pool_trim_to_limit(struct gpux_context *ctx) {
  gpux__pool *p = &ctx->pool;
  while (p->nfree && p->stats.bytes_cached > p->limit) {
    gpux__block b = p->free_blocks[--p->nfree];
    p->stats.bytes_cached -= b.size;
    release_to_device(ctx, b);
  }
}

/* The context goes: every stream was synchronized. */
void gpux__pool_destroy(struct gpux_context *ctx) {
  gpux__pool *p = &ctx->pool;
  collect_pending(ctx, 1);
  gpux__pool_trim(ctx);
  for (size_t i = 0; i < p->nspare; i++) ctx->be->event_destroy(ctx->b, p->spare_ev[i]);
  free(p->spare_ev);
  free(p->pending);
  free(p->free_blocks);
  memset(p, 0, sizeof *p);
}
