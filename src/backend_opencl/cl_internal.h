/* gpux OpenCL backend: state shared by its files (never installed).
 *
 * Threading: several threads may use one context at once, each on its own queue
 * (gpux__bq). A queue's scratch is its own and unlocked (one thread at a time uses a
 * queue). The context's cl_kernel objects carry their arguments, and clSetKernelArg is not
 * thread safe for one kernel, so every launch holds the context's launch lock
 * (gpux_cl_lock) from its kernel lookup, which may build the family and fill its tables,
 * until its enqueue returns. The rest of the OpenCL API is thread safe. */
#ifndef GPUX_CL_INTERNAL_H
#define GPUX_CL_INTERNAL_H
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <pthread.h>
#include <stddef.h>
#include "gpux_backend.h"
#include "gpux_families_built.h" /* GPUX__KERNEL_FAMILIES, from the top CMakeLists.txt */

/* One device of the list GPUX_DEVICE indexes: GPUs of every platform first, then the rest. */
typedef struct gpux_cl_device {
  cl_platform_id platform;
  cl_device_id device;
  int is_gpu;
  int is_pocl; /* pocl keeps its own kernel cache: no second one on top */
  int fp64;
} gpux_cl_device;

/* Kernel families (GPUX__KERNEL_FAMILIES), one program (kernels/cl/<family>.cl) each,
 * built on first use, or one program per part (a dtype, gpux_kernels.h) for families split
 * by dtype, each built on the first use of its part; GPUX_CL_FAM_<family> is the family's
 * slot in gpux__bctx.program and .fam. */
#define GPUX_CL_FAM_ID(f) GPUX_CL_FAM_##f,
enum { GPUX__KERNEL_FAMILIES(GPUX_CL_FAM_ID) GPUX_CL_FAM_COUNT };
#undef GPUX_CL_FAM_ID
/* Work-items per enqueue: global sizes stay below 2^31; larger launches are split with
 * the global work offset (the kernels index with get_global_id, which includes it). */
#define GPUX_CL_MAX_ITEMS ((size_t)1 << 30)

#define GPUX_CL_NSIZES GPUX_ELEM_SIZE_COUNT /* copy kernels by element size */
/* work-group size of the CPU form of reduce.cl / scan.cl: one for every kernel (pocl compiles
 * a kernel again for every work-group size it sees); a chunk per work-item is work enough
 * (on pocl, groups of 4, 16 or 64 work-items were no faster than 1) */
#define GPUX_CL_RED_CPU_LOCAL 1
/* local memory of the GPU-form float32 normal kernel (kernels/cl/random.cl): the table's
 * (k_i, wl_i), the queue's block indices, and a little for its counters, flags and chunk
 * starts */
#define GPUX_CL_ZIG_LOCAL_BYTES ((cl_ulong)8 * GPUX_R_ZIG_N + (cl_ulong)8 * GPUX_R_ZQCAP + 64u)

/* A queue of a context and the scratch its queued work writes (see Threading above). */
struct gpux__bq {
  gpux__bctx *b;
  cl_command_queue queue; /* in order; profiling where b->profiling */
  cl_mem scan_tiles;      /* scan scratch (tile aggregates, then prefixes), grown as needed */
  size_t scan_tiles_bytes;
  cl_mem zig_work;        /* GPU form: the float32 normals' dynamic chunks' counter, 2 words,
                             made zero on first use; the kernels leave it zero */
};

struct gpux__bctx {
  const gpux_cl_device *dev;
  cl_context ctx;
  gpux__bq q0; /* the default queue: gpux's (in order, profiling enabled) or, adopted, the
                  application's */
  cl_command_queue touch_queue; /* first touches of new buffers (see mem_alloc) */
  pthread_mutex_t lock;         /* the launch lock (see Threading above) */
  pthread_mutex_t touch_lock;   /* one first touch at a time on touch_queue (mem_alloc) */
  cl_ulong max_alloc;     /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
  int epi;                /* elements per work-item of contiguous kernels */
  int exact;              /* 1-d launches cover exactly the work-items (no bounds tests) */
  int copy_kernel;        /* mem_copy runs a copy kernel, not clEnqueueCopyBuffer */
  size_t wg;              /* work-group size of 1-d launches */
  int marker_timing;      /* markers carry profiling timestamps (else a 1-byte fill does) */
  int profiling;          /* q0 has CL_QUEUE_PROFILING_ENABLE (device events), and so the
                             queues made with it */
  int adopted;            /* ctx and q0's queue are the application's (gpux holds a
                             reference) */
  cl_mem scratch;         /* target of that fill */
  char device_name[256];
  char driver_version[128];
  char build_options[160];
  /* reductions and scans: CPU or GPU form of reduce.cl / scan.cl (GPUX_OPENCL_REDUCE),
   * fixed when their programs are built, with its options and work-group size */
  int red_cpu;
  size_t red_local;
  char red_build_options[192];
  char rand_build_options[224]; /* random.cl: build_options, GPUX_CL_ZIG_WG, and
                                   GPUX_CL_ZIG_GLOBAL where local memory is short
                                   (cl_backend.c) */
  cl_program program[GPUX_CL_FAM_COUNT][GPUX_PART_COUNT]; /* [family][part]; part 0 when
                                                             the family is not split */
  void *fam[GPUX_CL_FAM_COUNT]; /* each family's own state (gpux_cl_family.state_size) */
  /* kernels resolved once per program build; NULL where absent (float64 without fp64) */
  cl_kernel binary[GPUX_BINARY_OP_COUNT][GPUX_KDT_COUNT][3];
  cl_kernel unary[GPUX_UNARY_OP_COUNT][GPUX_KDT_COUNT][3];
  cl_kernel where[GPUX_KDT_COUNT][3];
  cl_kernel cast[GPUX_KDT_COUNT][GPUX_KDT_COUNT][3];
  cl_kernel copy_n[GPUX_CL_NSIZES];
  cl_kernel copy_t[GPUX_CL_NSIZES];
  cl_kernel fill[GPUX_KDT_COUNT];
  cl_kernel arange[GPUX_KDT_COUNT];
  cl_kernel linspace[GPUX_KDT_COUNT];
  cl_kernel reduce[GPUX_REDUCE_KIND_COUNT][GPUX_KDT_COUNT][2]; /* [kind][dtype][GPUX_RL_*] */
  /* GPU form only: reduce.cl's vector column kernels (_cv), NULL for the kinds and dtypes
   * without one */
  cl_kernel reduce_cv[GPUX_REDUCE_KIND_COUNT][GPUX_KDT_COUNT];
  cl_kernel scan[GPUX_SCAN_KIND_COUNT][GPUX_KDT_COUNT];
  cl_kernel random[GPUX_RANDOM_KIND_COUNT][GPUX_KDT_COUNT]; /* [GPUX_RK_*][output dtype] */
  cl_uint compute_units; /* CL_DEVICE_MAX_COMPUTE_UNITS, read with the random kernels */
  uint64_t zig_tune;     /* float32 normals' queue settings (GPUX_RANDOM_ZIG), read at load */
  cl_mem zig_tab;        /* GPU form: the ziggurat's table for the float32 normal kernel, made
                            with the random kernels (a __constant array read at scattered
                            addresses is serialized on NVIDIA's OpenCL) */
  uint64_t zig_dyn;      /* the least draw (Philox blocks) whose float32 normals take dynamic
                            chunks (GPUX_RANDOM_ZIG_DYN, read with GPUX_RANDOM_ZIG) */
  cl_kernel zig_std;     /* GPU form: gpux_random_normal_f32_std (mean 0, std 1, no fma) */
  /* user programs (cl_program.c) */
  char device_version[128];  /* CL_DEVICE_VERSION, for cache keys */
  char uprog_options[96];    /* options put before the caller's on dialect / ops programs */
  cl_uint base_align;        /* CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes (sub-buffer offsets) */
  cl_ulong local_mem;        /* CL_DEVICE_LOCAL_MEM_SIZE */
};

/* cl_backend.c */
extern const gpux__host_iface *gpux_cl_host;
/* "CL_OUT_OF_RESOURCES", or "unknown OpenCL error" */
const char *gpux_cl_error_name(cl_int e);
/* status for a failed call: the out-of-memory codes map to GPUX_ERROR_OUT_OF_MEMORY /
 * _OUT_OF_HOST_MEMORY, everything else to dflt */
gpux_status gpux_cl_status(cl_int e, gpux_status dflt);

/* A kernel family: its program's source and how to build it, resolve its kernels and
 * release them, and the interface entries it runs. Each family file defines its record,
 * gpux_cl_fam_<family>; cl_launch.c builds a family on first use from the record alone, and
 * cl_backend.c installs its entries and releases it with the context. A new family needs no
 * edit outside its own files. */
typedef struct gpux_cl_family {
  int id;                   /* GPUX_CL_FAM_*: the slot in gpux__bctx.program */
  const char *file;         /* kernels/cl/<file>, for messages */
  const unsigned char *text; /* embedded source (cmake/embed.cmake) */
  const size_t *size;
  const char *sha256;
  /* writes the build options (it may fix the family's form in b first) */
  void (*options)(gpux__bctx *b, char *buf, size_t size);
  /* 1: built per part (-DGPUX_PART=<part>, gpux_kernels.h), the kernel lookups naming the
   * part; 0: one program, part 0 */
  int split;
  /* fills b's tables with the kernels of part (all of them when not split) */
  gpux_status (*resolve)(gpux__bctx *b, cl_program p, int part);
  void (*release)(gpux__bctx *b);                      /* what resolve made */
  /* optional: frees what the family keeps in queue q (scratch memory) when q goes, its
   * work finished (the default queue: with the context, before release) */
  void (*queue_release)(gpux__bq *q);
  /* bytes of the family's own state, b->fam[id] (zeroed with the context, freed with it);
   * 0: none (the older families keep their tables in gpux__bctx) */
  size_t state_size;
  void (*install)(gpux__backend_iface *it); /* sets the interface entries it runs */
  /* answers supports for the GPUX__Q_* family `query` (NULL: everything the front end
   * passes, float64 as the device allows) */
  int query;
  gpux_status (*supports)(gpux__bctx *b, const gpux__query *q, char *why, size_t len);
} gpux_cl_family;
/* the family records, and each family's embedded source (cmake/embed.cmake) */
#define GPUX_CL_FAM_DECL(f)                              \
  extern const gpux_cl_family gpux_cl_fam_##f;           \
  extern const unsigned char gpux_cl_src_##f[];          \
  extern const size_t gpux_cl_src_##f##_size;            \
  extern const char gpux_cl_src_##f##_sha256[];
GPUX__KERNEL_FAMILIES(GPUX_CL_FAM_DECL)
#undef GPUX_CL_FAM_DECL
/* the record's source fields for kernels/cl/<f>.cl */
#define GPUX_CL_FAM_SOURCE(f)                                                    \
  .id = GPUX_CL_FAM_##f, .file = #f ".cl", .text = gpux_cl_src_##f,             \
  .size = &gpux_cl_src_##f##_size, .sha256 = gpux_cl_src_##f##_sha256

/* cl_launch.c: programs, families, kernel lookups and the helpers of every launch (the
 * bottom of the backend: it calls no family file) */
extern const char *const gpux_cl_dt_name[GPUX_KDT_COUNT]; /* "f32", ... */
extern const size_t gpux_cl_dt_size[GPUX_KDT_COUNT];      /* bytes */
extern const char gpux_cl_dt_kind[GPUX_KDT_COUNT];        /* 'b', 'u', 'i' or 'f' */
#define GPUX_CL_IS_F64(dt) ((dt) == GPUX_KDT_f64 || (dt) == GPUX_KDT_c128) /* float64 inside */
/* builds part `part` of f (0 when f is not split), once */
gpux_status gpux_cl_build_family(gpux__bctx *b, const gpux_cl_family *f, int part);
/* its kernels (f->release) and its programs */
void gpux_cl_release_family(gpux__bctx *b, const gpux_cl_family *f);
/* The build path of every program: through the host's on-disk cache under key (NULL: no
 * cache), else from source. log == NULL: a failed build's message carries the compiler's
 * log; else *log gets it (malloc'd, NULL if empty) and the message is short. *from_cache
 * (may be NULL): 1 when the binary came from the cache. */
gpux_status gpux_cl_build(gpux__bctx *b, const char *what, const char *text, size_t len,
                          const char *options, const void *key, size_t key_len,
                          cl_program *out, char **log, int *from_cache);
/* Builds one program source (on-disk cache on non-pocl devices, else from source); `file`
 * names it in messages, `sha256` keys the cache. */
gpux_status gpux_cl_build_source(gpux__bctx *b, const char *file, const unsigned char *text,
                                 size_t len, const char *sha256, const char *options,
                                 cl_program *out);
/* Creates the kernel named by fmt into *slot; a name absent because the device lacks fp64
 * (uses_f64) leaves *slot NULL and succeeds. */
gpux_status gpux_cl_resolve(gpux__bctx *b, cl_program p, cl_kernel *slot, int uses_f64,
                            const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* clReleaseKernel of the non-NULL entries of k[0..n), which become NULL */
void gpux_cl_release_kernels(cl_kernel *k, size_t n);
/* Slow path of GPUX_CL_GET_KERNEL: builds the family's part, then explains a missing
 * kernel. */
gpux_status gpux_cl_need_kernel(gpux__bctx *b, const gpux_cl_family *f, int part,
                                cl_kernel *slot, int uses_f64, cl_kernel *out);
/* k = slot, building the family (a gpux_cl_family *) or its part (the kernel's dtype, or
 * GPUX_PART_NONE; ignored when the family is not split) on first use (returns the error from
 * the caller); the launch lock held */
#define GPUX_CL_GET_KERNEL(k, fam, part, slot, uses_f64)                                    \
  do {                                                                                      \
    if (!((k) = (slot))) {                                                                  \
      gpux_status s_ = gpux_cl_need_kernel(b, (fam), (part), &(slot), (uses_f64), &(k));    \
      if (s_ != GPUX_SUCCESS) return s_;                                                    \
    }                                                                                       \
  } while (0)
/* The launch lock: gpux_cl_lock(b), then `return gpux_cl_unlock(b, launch(...));` around
 * every launch from its kernel lookup to its enqueue. Not recursive: what runs under it
 * never takes it again. */
static inline void gpux_cl_lock(gpux__bctx *b) { pthread_mutex_lock(&b->lock); }
static inline gpux_status gpux_cl_unlock(gpux__bctx *b, gpux_status s) {
  pthread_mutex_unlock(&b->lock);
  return s;
}
/* "<call>(<kernel name>): CL_... (code)" with the status for code e (default dflt) */
gpux_status gpux_cl_kernel_error(cl_kernel k, const char *call, cl_int e, gpux_status dflt);

/* Kernel arguments, set in order; the first failure is kept (checked before enqueueing). */
typedef struct gpux_cl_args {
  cl_kernel k;
  cl_uint i;
  cl_int e;
} gpux_cl_args;
static inline void gpux_cl_arg(gpux_cl_args *a, size_t size, const void *v) {
  if (a->e == CL_SUCCESS) a->e = clSetKernelArg(a->k, a->i, size, v);
  a->i++;
}
static inline void gpux_cl_arg_mem(gpux_cl_args *a, const gpux__operand *o) {
  gpux_cl_arg(a, sizeof(cl_mem), &o->buf); /* opnd.buf holds the cl_mem from mem_alloc */
}
static inline void gpux_cl_arg_long(gpux_cl_args *a, int64_t v) {
  cl_long x = (cl_long)v;
  gpux_cl_arg(a, sizeof x, &x);
}
static inline void gpux_cl_arg_int(gpux_cl_args *a, int v) {
  cl_int x = (cl_int)v;
  gpux_cl_arg(a, sizeof x, &x);
}
/* contiguous operand: buffer + element offset */
static inline void gpux_cl_arg_c(gpux_cl_args *a, const gpux__operand *o) {
  gpux_cl_arg_mem(a, o);
  gpux_cl_arg_long(a, o->offset);
}
/* A contiguous copy of bytes between buffers as a copy kernel (cl_elementwise.c): what
 * mem_copy runs on CPU devices, where clEnqueueCopyBuffer is one thread's memcpy. */
gpux_status gpux_cl_copy_range(gpux__bq *q, void *dst, size_t dst_offset, void *src,
                               size_t src_offset, size_t bytes);
/* a real argument: double where the device has fp64, else float (gpux_real in the kernels) */
void gpux_cl_arg_real(gpux_cl_args *a, const gpux__bctx *b, double v);
/* Enqueues a->k (its arguments set; a->e checked first) on q over `items` work-items in
 * 1-d work-groups of b->wg (exact launches: whole groups, then the tail in groups of 1). */
gpux_status gpux_cl_enqueue_1d(gpux__bq *q, const gpux_cl_args *a, size_t items);
/* n-d launch on CPU devices (exact launches): the kernel's parameter block nd is argument
 * nd_arg, set here once per launch (see the function). */
gpux_status gpux_cl_enqueue_nd_exact(gpux__bq *q, const gpux_cl_args *a,
                                     const gpux_nd_params *nd, cl_uint nd_arg);
/* Launch of a planned layout (l->layout) on q: contiguous kernels take b->epi elements per
 * work-item, n-d kernels one; the n-d block is the last argument set. */
gpux_status gpux_cl_enqueue(gpux__bq *q, const gpux_cl_args *a, const gpux__launch *l);

/* cl_program.c: user programs and kernels (include/gpux/kernel.h) */
gpux_status gpux_cl_program_build(gpux__bctx *b, int lang, const char *src, size_t len,
                                  const char *options, unsigned flags, const char *const *names,
                                  int nnames, gpux__uprog **out, char **log, int *origin);
void gpux_cl_program_release(gpux__bctx *b, gpux__uprog *p);
gpux_status gpux_cl_kernel_create(gpux__bctx *b, gpux__uprog *p, const char *name,
                                  gpux__ukern **out, int *nparams, uint32_t *param_size,
                                  uint32_t *max_block);
void gpux_cl_kernel_release(gpux__bctx *b, gpux__ukern *k);
gpux_status gpux_cl_kernel_launch(gpux__bq *q, gpux__ukern *k, int nargs,
                                  const gpux__uarg *args, const uint64_t grid[3],
                                  const uint32_t block[3], size_t shared_bytes);

/* the embedded preludes of user programs (cmake/embed.cmake) */
extern const unsigned char gpux_cl_src_dialect[]; /* kernels/cl/gpux_dialect.h */
extern const size_t gpux_cl_src_dialect_size;
extern const unsigned char gpux_cl_src_ew_ops[]; /* kernels/cl/gpux_ew_ops.h */
extern const size_t gpux_cl_src_ew_ops_size;

#endif
