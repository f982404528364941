/* gpux front end: internal structures and helpers (never installed). */
#ifndef GPUX_INTERNAL_H
#define GPUX_INTERNAL_H
#include <pthread.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "gpux_backend.h"

/* ---- errors (status.c) */
gpux_status gpux__set_error(gpux_status s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The public function being run: an error raised anywhere below it (a helper, a backend)
 * gets its name in front ("gpux_matmul: ..."), so every message names the call that failed
 * in one style. Each public function that returns a status starts with GPUX__API_FN(); in a
 * nested public call the outermost one names the error. */
const char *gpux__api_enter(const char *fn);
void gpux__api_leave(const char **prev);
#define GPUX__API_FN()                                                                     \
  const char *gpux__api_prev_ __attribute__((cleanup(gpux__api_leave), unused)) =          \
      gpux__api_enter(__func__)
/* The thread's message without the running public function's name in front: for a message
 * that wraps another one. */
const char *gpux__error_body(void);
/* A call that may fail as expected (a probe, auto's first choice) runs between save and
 * restore, so that a call that succeeds leaves the thread's message as it found it. */
char *gpux__error_save(void);
void gpux__error_restore(char *saved);
/* "(3, 4, 5)" into buf */
const char *gpux__shape_str(char *buf, size_t len, int ndim, const int64_t *shape);

/* ---- backends (registry.c) */
/* Loads (once) and returns the backend for kind CUDA or OPENCL; on failure sets the error. */
gpux_status gpux__backend_get(const gpux__backend_iface **out, gpux_backend_kind kind);
/* The known backends, in auto's order of preference (CUDA, then OpenCL). */
int gpux__backend_count(void);
gpux_backend_kind gpux__backend_kind_at(int i);
int gpux__backend_known(gpux_backend_kind kind);
extern const gpux__host_iface gpux__host;

/* ---- capabilities (context.c) */
struct gpux_context;
/* GPUX_SUCCESS when ctx's backend and device run q (its entry is filled and supports says
 * yes); else the status a call would fail with, and the reason in why. Sets no error. */
gpux_status gpux__can(const struct gpux_context *ctx, const gpux__query *q, char *why, size_t len);
/* gpux__can, with the error set ("<why> (<backend> backend, <device>)") when it says no. */
gpux_status gpux__need(const struct gpux_context *ctx, const gpux__query *q);
#define GPUX__NEED(ctx, family, op, dtype, dtype2) \
  GPUX__CHECK(gpux__need((ctx), &(const gpux__query){(family), (int)(op), (int)(dtype), (int)(dtype2)}))

/* ---- on-disk cache (cache.c) */
int gpux__cache_load(const void *key, size_t key_len, void **data, size_t *size);
void gpux__cache_store(const void *key, size_t key_len, const void *data, size_t size);
/* 64-bit FNV-1a of p[0..n) continuing from h (chain calls to hash several pieces) */
uint64_t gpux__fnv1a(const void *p, size_t n, uint64_t h);

/* ---- memory pool (pool.c): one per context, shared by its streams and threads (under
 * the context's lock) */
struct gpux_stream;
typedef struct gpux__block {
  void *buf;   /* backend buffer */
  size_t size; /* rounded size */
  /* free blocks: the stream whose queue may still use the block, the only one it may go to
   * (work on one queue is ordered); NULL: idle, for any stream */
  struct gpux_stream *home;
} gpux__block;

/* A freed block that other streams than its home used: it goes back to its home when
 * every one of those streams has passed the event recorded on it at the release. */
typedef struct gpux__pending {
  gpux__block blk;
  int nev;
  void **ev; /* timing-free backend events */
} gpux__pending;

typedef struct gpux__pool {
  gpux__block *free_blocks; /* sorted by size */
  size_t nfree, cap;
  gpux__pending *pending;
  size_t npending, pcap;
  void **spare_ev; /* recorded-and-passed events kept for reuse */
  size_t nspare, scap;
  uint64_t limit; /* max cached bytes */
  gpux_pool_stats stats;
} gpux__pool;

struct gpux_context;
/* A block for work on stream s. */
gpux_status gpux__pool_alloc(struct gpux_context *ctx, struct gpux_stream *s, size_t bytes,
                             gpux__block *out);
/* Gives back a block allocated for stream home, which the streams in `used` (slot bits,
 * gpux__stream_use) may also have queued work on. */
void gpux__pool_free(struct gpux_context *ctx, gpux__block blk, struct gpux_stream *home,
                     uint64_t used);
/* After every stream of ctx was synchronized: every cached block is idle. */
void gpux__pool_all_idle(struct gpux_context *ctx);
/* Stream s goes (its queue finished): its cached blocks become idle. */
void gpux__pool_forget_stream(struct gpux_context *ctx, struct gpux_stream *s);
void gpux__pool_trim(struct gpux_context *ctx);
void gpux__pool_trim_to_limit(struct gpux_context *ctx);
void gpux__pool_destroy(struct gpux_context *ctx);

/* ---- streams (stream.c) */
#define GPUX__STREAM_SLOTS 64 /* bits of a storage's use mask; the last is shared */
typedef struct gpux__staging gpux__staging;
struct gpux_stream {
  struct gpux_context *ctx;
  gpux__bq *q;
  gpux__staging *staging; /* bounce buffers of its pageable transfers (staging.c), or NULL */
  int64_t refs; /* the caller's, plus one per storage allocated for it and per thread that
                   has it current (atomic); the default stream is the context's, never
                   released on its own */
  int slot;     /* its bit in the storages' use masks */
  int is_default;
  struct gpux_stream *next; /* the context's list of created streams */
  struct gpux__deferred *deferred; /* checked indexing's error words (deferred.c), or NULL */
};

/* ---- the deferred error of checked indexing (deferred.c; "THE DEFERRED ERROR WORD" in
 * kernels/common/gpux_kernels.h). A kernel that may meet a bad index under
 * GPUX_INDEX_CHECKED records it in its stream's error words; the next call that waits on
 * the stream reports it. Use: gpux__deferred_arm before queueing the op (slot: the words'
 * buffer, the op's key), pass slot.buf and slot.key to the kernels, then
 * gpux__deferred_after. */
typedef struct gpux__deferred_slot {
  void *buf;   /* backend buffer of two int64 words (err[0] the key, err[1] the value) */
  int64_t key; /* the op's tag << GPUX_IX_POS_BITS */
} gpux__deferred_slot;
/* Arms stream s for op fn (a static string: "gpux_take"), whose indices count along an
 * axis of length len; allocates the words on the stream's first use. */
gpux_status gpux__deferred_arm(struct gpux_stream *s, const char *fn, int64_t len,
                               gpux__deferred_slot *slot);
/* Queues, after the op's kernels, the launch that stores the first bad index's value when
 * the key is this op's (idx: the op's index array, int32 or int64) */
gpux_status gpux__deferred_after(struct gpux_stream *s, const gpux__deferred_slot *slot,
                                 const struct gpux_array *idx);
/* At a wait on s, after its work finished: nothing armed is free; else one small read of
 * the words, and a bad index found gives GPUX_ERROR_INDEX_OUT_OF_RANGE naming the op, the
 * position, the value and the axis length (the words reset, the stream disarmed). */
gpux_status gpux__deferred_check(struct gpux_stream *s);
/* the same for every stream of ctx (the default one first); the first error wins */
gpux_status gpux__deferred_check_all(struct gpux_context *ctx);
/* s goes (its queue idle): its words go back, an armed error is dropped */
void gpux__deferred_free(struct gpux_context *ctx, struct gpux_stream *s);

/* ---- context (context.c) */
struct gpux_context {
  const gpux__backend_iface *be;
  gpux__bctx *b;
  struct gpux_stream s0;    /* the default stream (the backend's default queue) */
  pthread_mutex_t lock;     /* pool, stream list, options */
  pthread_mutex_t prog_lock; /* memory cache of user programs (builds are slow: not under
                                `lock`) */
  struct gpux_stream *streams; /* created streams (not s0) */
  uint64_t slots_used;      /* slot bits taken by live streams (s0: bit 0) */
  int current_set;          /* a thread has made a stream of this context current (atomic;
                               while 0, every thread's current stream is s0) */
  gpux_backend_kind kind;
  int device;
  gpux_device_info info;
  gpux__pool pool;
  int64_t refs;        /* the caller's, plus one per object that needs the context (arrays,
                          events, programs, kernels, expression kernels): the context goes
                          when the last goes, so objects may be released in any order */
  int gemm_path;       /* gpux_gemm_path: GPUX_OPTION_GEMM_PATH, default GPUX_GEMM */
  int tf32;            /* GPUX_OPTION_TF32 */
  struct gpux__pcore *programs; /* memory cache of user programs (kernel.c) */
};

/* A context on the application's native handles (interop.c): backend `kind` adopts them. */
gpux_status gpux__context_adopt(struct gpux_context **out, gpux_backend_kind kind,
                                const gpux__native *n);

/* A reference for an object that needs ctx; gpux__context_unref drops it, and the last one
 * destroys the context. */
void gpux__context_retain(struct gpux_context *ctx);
void gpux__context_unref(struct gpux_context *ctx);
/* Sets up / tears down the parts of a context that do not depend on its backend (locks,
 * the default stream); b and be must be set before init. */
void gpux__context_init_common(struct gpux_context *ctx);

/* The calling thread's current stream of ctx (stream.c): s0 until the thread sets one. */
struct gpux_stream *gpux__stream_current_slow(struct gpux_context *ctx);
static inline struct gpux_stream *gpux__stream_cur(struct gpux_context *ctx) {
  if (!__atomic_load_n(&ctx->current_set, __ATOMIC_RELAXED)) return &ctx->s0;
  return gpux__stream_current_slow(ctx);
}
/* The backend queue of the calling thread's current stream of ctx. */
static inline gpux__bq *gpux__q(struct gpux_context *ctx) { return gpux__stream_cur(ctx)->q; }
void gpux__stream_retain(struct gpux_stream *s);
void gpux__stream_unref(struct gpux_stream *s);
/* Waits for every stream of ctx (the default one and the created ones). */
gpux_status gpux__sync_all(struct gpux_context *ctx);
/* Destroys the streams that are left when the context goes (none should be: each holds a
 * context reference). */
void gpux__streams_destroy(struct gpux_context *ctx);

/* ---- pageable transfers through page-locked bounce buffers (staging.c) */
/* 1 when a transfer of `bytes` at host address `host` goes through the bounce buffers: large
 * enough, the backend has the entries, and the memory is not page-locked already */
int gpux__staging_applies(struct gpux_context *ctx, const void *host, size_t bytes);
gpux_status gpux__staged_upload(struct gpux_stream *s, void *buf, size_t offset,
                                const void *src, size_t bytes);
gpux_status gpux__staged_download(struct gpux_stream *s, void *buf, size_t offset, void *dst,
                                  size_t bytes);
/* s's queue is idle */
void gpux__staging_free(struct gpux_context *ctx, gpux__staging *st);
/* 1 when [p, p + bytes) lies in one gpux_pinned_alloc allocation (transfer.c) */
int gpux__pinned_contains(const void *p, size_t bytes);

/* ---- arrays (array.c) */
/* Device memory shared by an array and its views: from the pool, or the application's
 * (wrapped: the backend's mem_wrap made blk.buf, and deleter(user) runs when it goes). */
typedef struct gpux__storage {
  gpux__block blk;
  int64_t refs; /* atomic: arrays and views on several threads share it */
  int wrapped;
  gpux_deleter deleter;
  void *user;
  struct gpux_stream *home; /* the stream it was allocated for (a reference); NULL: wrapped */
  uint64_t used;            /* slot bits of the other streams that queued work on it
                               (atomic): the pool waits for them before reuse */
} gpux__storage;

struct gpux_array {
  struct gpux_context *ctx;
  gpux__storage *st; /* NULL for empty arrays (size 0) */
  gpux_dtype dtype;
  int ndim;
  int64_t size;   /* element count */
  int64_t offset; /* in elements, into st */
  int64_t shape[GPUX_MAX_DIMS];
  int64_t strides[GPUX_MAX_DIMS]; /* in elements */
};

/* The facts of each dtype (the record GPUX_DTYPES of gpux_kernels.h), indexed by dtype:
 * kind 'b', 'u', 'i' or 'f', element bytes, digits, exponent bits (0 for integers). */
typedef struct gpux__dtinfo {
  char kind;
  int bytes, digits, exp;
} gpux__dtinfo;
extern const gpux__dtinfo gpux__dt_info[GPUX_DTYPE_COUNT];
/* complex64 or complex128 (any value of dt: unknown ones are not) */
static inline int gpux__dt_is_complex(gpux_dtype dt) {
  return (unsigned)dt < GPUX_DTYPE_COUNT && gpux__dt_info[dt].kind == 'c';
}
static inline int gpux__dt_is_int(gpux_dtype dt) {
  return gpux__dt_info[dt].kind == 'i' || gpux__dt_info[dt].kind == 'u';
}
/* An integer dtype holds [*lo, *top): -2^digits (signed) or 0, and 2^digits; both bounds
 * are exact as doubles. */
static inline void gpux__int_bounds(gpux_dtype dt, double *lo, double *top) {
  *top = ldexp(1.0, gpux__dt_info[dt].digits);
  *lo = gpux__dt_info[dt].kind == 'i' ? -*top : 0.0;
}
/* An integer or bool element as 64-bit two's complement bits, by the record's width and
 * kind: the element is its dtype's bytes (1, 2, 4 or 8) in the host's byte order, as a
 * field of gpux__scalar, gpux_arg's value or a downloaded result holds it. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define GPUX__LOW_BYTES(es) (8 - (es)) /* where the low es bytes of a uint64_t start */
#else
#define GPUX__LOW_BYTES(es) 0
#endif
/* stores an element of dtype dt at dst: the low bytes of bits (integer to integer: the
 * wrap) */
static inline void gpux__int_store(void *dst, gpux_dtype dt, uint64_t bits) {
  const size_t es = (size_t)gpux__dt_info[dt].bytes;
  memcpy(dst, (const unsigned char *)&bits + GPUX__LOW_BYTES(es), es);
}
/* an element of dtype dt at src: sign-extended for signed dtypes, else zero-extended */
static inline uint64_t gpux__int_load(const void *src, gpux_dtype dt) {
  const size_t es = (size_t)gpux__dt_info[dt].bytes;
  uint64_t u = 0;
  memcpy((unsigned char *)&u + GPUX__LOW_BYTES(es), src, es);
  if (gpux__dt_info[dt].kind != 'i') return u;
  const uint64_t sign = (uint64_t)1 << (8 * es - 1);
  return (u ^ sign) - sign;
}

/* Validating helpers: each sets the error naming `what`. */
gpux_status gpux__check_array(const struct gpux_array *a, const char *what);
gpux_status gpux__check_dtype(gpux_dtype dt, const char *what);
gpux_status gpux__check_shape(int ndim, const int64_t *shape, int64_t *size, gpux_dtype dt);
int gpux__is_contiguous(const struct gpux_array *a);
/* New contiguous array of the given shape (memory from the pool). */
gpux_status gpux__array_new(struct gpux_array **out, struct gpux_context *ctx, gpux_dtype dt,
                            int ndim, const int64_t *shape);
gpux__operand gpux__operand_of(const struct gpux_array *a);
/* Notes that stream s queues work on a's memory (so the pool waits for s before reusing
 * it when s is not the memory's home stream); cheap when s is the home. */
static inline void gpux__stream_use_st(const struct gpux_stream *s, gpux__storage *st) {
  if (!st || st->home == s) return;
  const uint64_t bit = (uint64_t)1 << s->slot;
  if (!(__atomic_load_n(&st->used, __ATOMIC_RELAXED) & bit))
    __atomic_fetch_or(&st->used, bit, __ATOMIC_RELAXED);
}
static inline void gpux__stream_use(const struct gpux_stream *s, const struct gpux_array *a) {
  gpux__stream_use_st(s, a->st);
}
/* gpux__operand_of, noting the use by s */
static inline gpux__operand gpux__operand_on(const struct gpux_stream *s,
                                             const struct gpux_array *a) {
  gpux__stream_use(s, a);
  return gpux__operand_of(a);
}
/* An array on the application's memory (interop.c), never pooled (deleter(user) when the
 * last reference goes): element [0, ..., 0] at CUDA device address native + byte_offset, or
 * at byte_offset of OpenCL buffer native; shape and strides (in elements; NULL strides:
 * contiguous) checked, and the memory checked by the backend's mem_wrap up to the highest
 * element. */
gpux_status gpux__array_wrap_native(struct gpux_array **out, struct gpux_context *ctx,
                                    void *native, uint64_t byte_offset, gpux_dtype dt,
                                    int ndim, const int64_t *shape, const int64_t *strides,
                                    gpux_deleter deleter, void *user);
/* A new array header on a's memory (a view of all of it). */
gpux_status gpux__array_view(struct gpux_array **out, const struct gpux_array *a);
/* A new contiguous array (from the pool) holding a's elements in row-major order; a may be
 * any view, a header on the stack included. *out is NULL on failure. */
gpux_status gpux__contiguous_copy(struct gpux_array **out, const struct gpux_array *a);
/* The same, but a view of a itself (no copy) when a is contiguous: the temporary that an
 * operation on contiguous operands reads (or writes, then copies back); released by the
 * caller either way. */
gpux_status gpux__contiguous_ref(struct gpux_array **out, const struct gpux_array *a);
/* Converts a float64 value to dtype dt with the documented cast rules. */
gpux__scalar gpux__scalar_from_double(double v, gpux_dtype dt);
/* The same for re + im i: complex dtypes take im as their imaginary part, the real dtypes
 * ignore it. */
gpux__scalar gpux__scalar_from_parts(double re, double im, gpux_dtype dt);
/* The scalar operand of an operation on dtype dt: integer and bool dtypes take only values
 * they hold exactly (GPUX_ERROR_INVALID_ARGUMENT otherwise: no silent change of value);
 * float dtypes round as casts do. */
gpux_status gpux__scalar_exact(gpux__scalar *out, double v, gpux_dtype dt);
/* bytes == a's byte count and data not NULL (unless 0 bytes); fn names the call */
gpux_status gpux__check_bytes(const struct gpux_array *a, const void *data, size_t bytes,
                              const char *fn);
/* The transfers of gpux_array_write / _read (async: the _async forms); fn names the call */
gpux_status gpux__array_write(struct gpux_array *dst, const void *data, size_t bytes,
                              int async, const char *fn);
gpux_status gpux__array_read(struct gpux_array *src, void *data, size_t bytes, int async,
                             const char *fn);
/* Writes src into dst elementwise (same dtype; src broadcast to dst's shape). */
gpux_status gpux__copy_strided(struct gpux_array *dst, const struct gpux_array *src);
/* A sort of a 1-d x of an integer dtype or bool (sort.c) writing the sorted keys and their
 * int64 positions (argsort's) at once: keys and pos of x's size, preallocated. */
gpux_status gpux__sort_keys_pos(const struct gpux_array *x, struct gpux_array *keys,
                                struct gpux_array *pos);
/* The positions where the runs of equal keys of a sorted 1-d x (a real dtype or bool,
 * x->size >= 1) begin, in order, as a new int64 array (mask.c: one pass over x writes the
 * starts as bits, then they are compacted; THE ORDER's equality: -0.0 == +0.0, NaNs equal).
 * Waits for the count, as nonzero does. ids (may be NULL): also a new int64 array of
 * x->size, ids[perm[j]] = the run of x[j] (0, 1, ...; perm: int64 of x->size, contiguous, a
 * permutation; NULL: ids[j]), from the same bits. */
gpux_status gpux__run_starts(struct gpux_array **out, struct gpux_array **ids,
                             const struct gpux_array *x, const struct gpux_array *perm);

/* ---- n-d planning (nd.c) */
/* 1 if a and b have the same shape. */
int gpux__same_shape(const struct gpux_array *a, const struct gpux_array *b);
/* A view of x with axis moved last (no copy; shares x's memory, not its reference count):
 * scans and sorts run along the last axis. */
static inline struct gpux_array gpux__axis_last_view(const struct gpux_array *x, int axis) {
  struct gpux_array v = *x;
  int k = 0;
  for (int d = 0; d < x->ndim; d++)
    if (d != axis) {
      v.shape[k] = x->shape[d];
      v.strides[k] = x->strides[d];
      k++;
    }
  if (x->ndim) {
    v.shape[k] = x->shape[axis];
    v.strides[k] = x->strides[axis];
  }
  return v;
}
/* 1 if `in` broadcasts to out's shape (NumPy rules, out's shape unchanged). */
int gpux__broadcasts_to(const struct gpux_array *in, const struct gpux_array *out);
/* Broadcasts the shapes of n operands (NumPy rules) into out_shape. */
gpux_status gpux__broadcast_shapes(int n, const struct gpux_array *const *ops, int *out_ndim,
                                   int64_t *out_shape);
/* Fills nd for operands ops[0..n) (ops[0] = output, of shape (ndim, shape)); inputs are
 * broadcast (stride 0), then dimensions that are contiguous for all operands are merged. */
void gpux__plan_nd(gpux_nd_params *nd, int n, const struct gpux_array *const *ops, int ndim,
                   const int64_t *shape);
/* The same planning for n <= 16 operands into caller arrays: *out_ndim merged dimensions
 * of out_shape, out_stride[k] and out_offset[k] per operand (in elements; strides beyond
 * *out_ndim untouched). Returns the element count. */
int64_t gpux__plan_nd_multi(int n, const struct gpux_array *const *ops, int ndim,
                            const int64_t *shape, int *out_ndim, int64_t *out_shape,
                            int64_t (*out_stride)[GPUX_MAX_DIMS], int64_t *out_offset);
/* 1 if a and b are the same elements of the same memory in the same order. */
int gpux__same_view(const struct gpux_array *a, const struct gpux_array *b);
/* 1 if the arrays' memory ranges overlap without being the same view. */
int gpux__partial_overlap(const struct gpux_array *a, const struct gpux_array *b);
/* 1 if they share any element (the same view included). */
int gpux__overlaps(const struct gpux_array *a, const struct gpux_array *b);

/* ---- user programs and kernels (kernel.c; elementwise expressions: ewkernel.c) */
/* One parameter as the front end read it from the source. */
typedef struct gpux__kparam {
  int kind;   /* GPUX_ARG_ARRAY (a global pointer), GPUX_ARG_SCALAR, GPUX_ARG_LOCAL, or 0:
                 not understood (only the driver's size check applies) */
  int dtype;  /* gpux_dtype of the scalar or the pointee; -1 any (void *, placeholder) */
  int size;   /* SCALAR: bytes; 0 unknown */
  char text[96]; /* the declaration, for messages */
} gpux__kparam;

typedef struct gpux__kdecl {
  char name[128];
  int nparams; /* -1 when the parameter list was not understood */
  gpux__kparam *params;
} gpux__kdecl;

/* A built program, shared by every handle created for the same (lang, flags, options,
 * source) in one context and by their kernels. */
typedef struct gpux__pcore {
  struct gpux_context *ctx;
  gpux__uprog *bp;
  int64_t refs;    /* program handles + kernels + the context's memory cache */
  uint64_t key[2]; /* hash of (lang, flags, options, source) */
  int origin;      /* gpux_program_origin of the build */
  char *log;       /* never NULL ("" when empty) */
  int nkernels;
  gpux__kdecl *kernels; /* as found in the source */
  struct gpux__pcore *next; /* the context's memory cache */
} gpux__pcore;

struct gpux_program {
  gpux__pcore *core;
  int origin; /* gpux_program_origin for this handle (MEMORY_CACHE on a cache hit) */
};

struct gpux_kernel {
  gpux__pcore *core;
  char name[128];
  gpux__ukern *bk;
  const gpux__kdecl *decl; /* NULL when the source scan did not find it */
  int nparams;
  uint32_t max_block;
  uint32_t param_size[GPUX__MAX_KPARAMS];
  uint64_t set_mask[(GPUX__MAX_KPARAMS + 63) / 64];
  gpux__uarg args[GPUX__MAX_KPARAMS];
  gpux__storage *arg_st[GPUX__MAX_KPARAMS]; /* the memory of each array argument (NULL:
                                               none), for the streams' use notes */
};

/* Builds (or finds in ctx's memory cache) a program; flags GPUX__PROG_*. The returned
 * program holds one reference for the caller (gpux_program_release drops it). */
gpux_status gpux__program_get(struct gpux_program **out, struct gpux_context *ctx, int lang,
                              const char *source, const char *options, unsigned flags);
/* Queues k with prepared arguments (no per-argument checks: generated kernels). */
gpux_status gpux__kernel_launch_uargs(struct gpux_kernel *k, int nargs, const gpux__uarg *args,
                                      const uint64_t grid[3], const uint32_t block[3]);
/* Drops the context's memory cache of programs (context release). */
void gpux__program_cache_clear(struct gpux_context *ctx);

#define GPUX__CHECK(expr)             \
  do {                                \
    gpux_status s__ = (expr);         \
    if (s__ != GPUX_SUCCESS) return s__; \
  } while (0)

#endif
