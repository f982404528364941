/* Caching allocator: released device blocks are kept, sorted by size, and reused for later
 * requests of a similar size, so loops that create and release temporaries do not call the
 * driver's allocator. One pool per context; work is ordered on the context's single
 * stream/queue, so a block may be reused as soon as it is released (as PyTorch's caching
 * allocator does per stream). */
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

gpux_status gpux__pool_alloc(struct gpux_context *ctx, size_t bytes, gpux__block *out) {
  gpux__pool *p = &ctx->pool;
  size_t need = round_size(bytes);
  if (need == 0)
    return gpux__set_error(GPUX_ERROR_SIZE_OVERFLOW, "allocation of %zu bytes overflows", bytes);
  size_t i = lower_bound(p, need);
  /* reuse a block at most 1/4 larger than needed, so big blocks are not wasted on small
   * requests */
  if (i < p->nfree && p->free_blocks[i].size - need <= need / 4) {
    *out = p->free_blocks[i];
    memmove(&p->free_blocks[i], &p->free_blocks[i + 1], (p->nfree - i - 1) * sizeof *p->free_blocks);
    p->nfree--;
    p->stats.bytes_cached -= out->size;
    p->stats.pool_hits++;
  } else {
    /* more than the device's largest allocation fails without asking the driver (a failing
     * driver call would show in the user's own compute-sanitizer reports) */
    if (ctx->info.max_alloc_bytes && need > ctx->info.max_alloc_bytes)
      return gpux__set_error(GPUX_ERROR_OUT_OF_MEMORY,
                             "%zu bytes requested; the largest allocation %s allows is %llu "
                             "bytes",
                             need, ctx->info.name, (unsigned long long)ctx->info.max_alloc_bytes);
    void *buf = NULL;
    gpux_status s = ctx->be->mem_alloc(ctx->b, need, &buf);
    if (s == GPUX_ERROR_OUT_OF_MEMORY && p->nfree) {
      /* cached blocks may be what is missing: return them and try once more */
      (void)ctx->be->synchronize(ctx->b);
      gpux__pool_trim(ctx);
      s = ctx->be->mem_alloc(ctx->b, need, &buf);
    }
    if (s != GPUX_SUCCESS) return s;
    out->buf = buf;
    out->size = need;
    p->stats.device_allocs++;
    p->stats.pool_misses++;
  }
  p->stats.bytes_in_use += out->size;
  if (p->stats.bytes_in_use > p->stats.peak_bytes_in_use)
    p->stats.peak_bytes_in_use = p->stats.bytes_in_use;
  return GPUX_SUCCESS;
}

void gpux__pool_free(struct gpux_context *ctx, gpux__block b) {
  gpux__pool *p = &ctx->pool;
  p->stats.bytes_in_use -= b.size;
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

void gpux__pool_trim(struct gpux_context *ctx) {
  gpux__pool *p = &ctx->pool;
  for (size_t i = 0; i < p->nfree; i++) release_to_device(ctx, p->free_blocks[i]);
  p->nfree = 0;
  p->stats.bytes_cached = 0;
}

/* Drops the largest cached blocks until the cache fits the limit. */
void gpux__pool_trim_to_limit(struct gpux_context *ctx) {
  gpux__pool *p = &ctx->pool;
  while (p->nfree && p->stats.bytes_cached > p->limit) {
    gpux__block b = p->free_blocks[--p->nfree];
    p->stats.bytes_cached -= b.size;
    release_to_device(ctx, b);
  }
}

void gpux__pool_destroy(struct gpux_context *ctx) {
  gpux__pool_trim(ctx);
  free(ctx->pool.free_blocks);
  ctx->pool.free_blocks = NULL;
  ctx->pool.cap = 0;
}
