/* gpux: the user's own kernels (docs/kernels.md).
 *
 * Programs are compiled at run time: NVRTC on the CUDA backend, clBuildProgram on the
 * OpenCL backend. A source is written in one of three languages:
 *   GPUX_SOURCE_DIALECT  gpux's kernel dialect (GPUX_KERNEL, GPUX_GLOBAL, GPUX_GLOBAL_ID(d),
 *                        GPUX_BARRIER(), ...): gpux puts the backend's prelude in front, so
 *                        one text runs on CUDA and on OpenCL unchanged;
 *   GPUX_SOURCE_CUDA     CUDA C++ as NVRTC takes it (CUDA backend only);
 *   GPUX_SOURCE_OPENCL   OpenCL C as clBuildProgram takes it (OpenCL backend only).
 * Compile errors return GPUX_ERROR_KERNEL_BUILD, with the compiler's log (line numbers
 * counted in the caller's source) in gpux_last_error_message().
 *
 * Built programs are cached in memory (per context: creating the same program twice
 * compiles once) and on disk (GPUX_CACHE_DIR, default $XDG_CACHE_HOME/gpux or
 * ~/.cache/gpux; "off" disables it). The disk key hashes the source, the options, the
 * language, the backend, the device, the driver version and the gpux version; entries are
 * written to a temporary file and renamed, carry a checksum, and a bad entry is removed and
 * rebuilt. A cache that cannot be read or written only costs time. On pocl gpux's cache
 * sits on top of pocl's own (POCL_CACHE_DIR): measured, a warm first launch takes 2 to 7 ms
 * from it against 57 to 220 ms from pocl's cache alone; GPUX_CACHE_POCL=0 turns it off there.
 *
 * Launches are queued on the context's stream (queue) like every gpux operation.
 * Handles: a program and its kernels belong to one context and are used by one thread at
 * a time (a kernel holds its arguments). Release functions accept NULL; a kernel keeps its
 * program alive. */
#ifndef GPUX_KERNEL_H
#define GPUX_KERNEL_H
#include <stddef.h>
#include <stdint.h>
#include "array.h"
#include "context.h"
#include "status.h"

typedef struct gpux_program *gpux_program_t;
typedef struct gpux_kernel *gpux_kernel_t;
typedef struct gpux_elementwise *gpux_elementwise_t;

typedef enum gpux_source_lang {
  GPUX_SOURCE_DIALECT = 0,
  GPUX_SOURCE_CUDA = 1,
  GPUX_SOURCE_OPENCL = 2
} gpux_source_lang;

/* One kernel argument. Build them with the gpux_arg_* helpers below.
 *   ARRAY:  the array's device memory, starting at its first element (a view's offset is
 *           applied; strides are not: a raw kernel sees memory, and indexes it itself). An
 *           empty array passes a null pointer. On OpenCL a view whose byte offset is not a
 *           multiple of the device's base-address alignment cannot be passed (error).
 *   SCALAR: a value of `dtype`, passed by value.
 *   LOCAL:  `bytes` of work-group local (shared) memory for a GPUX_LOCAL_PTR(T) parameter
 *           of the dialect or a __local pointer parameter of OpenCL C. */
typedef enum gpux_arg_kind {
  GPUX_ARG_ARRAY = 1,
  GPUX_ARG_SCALAR = 2,
  GPUX_ARG_LOCAL = 3
} gpux_arg_kind;

typedef struct gpux_arg {
  gpux_arg_kind kind;
  gpux_dtype dtype; /* SCALAR: the value's dtype; ARRAY: ignored */
  union {
    gpux_array_t array;
    float f32;
    double f64;
    int32_t i32;
    int64_t i64;
    uint8_t u8;     /* uint8 and bool (0 or 1) */
    uint16_t bits16; /* float16 / bfloat16 bits */
    int8_t i8;
    int16_t i16;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    uint64_t local_bytes;
  } v;
} gpux_arg;

static inline gpux_arg gpux_arg_array(gpux_array_t a) {
  gpux_arg r;
  r.kind = GPUX_ARG_ARRAY;
  r.dtype = GPUX_FLOAT32;
  r.v.local_bytes = 0;
  r.v.array = a;
  return r;
}
#define GPUX__ARG_SCALAR(fn, ctype, dt, field) \
  static inline gpux_arg fn(ctype x) {         \
    gpux_arg r;                                \
    r.kind = GPUX_ARG_SCALAR;                  \
    r.dtype = dt;                              \
    r.v.local_bytes = 0;                       \
    r.v.field = x;                             \
    return r;                                  \
  }
GPUX__ARG_SCALAR(gpux_arg_f32, float, GPUX_FLOAT32, f32)
GPUX__ARG_SCALAR(gpux_arg_f64, double, GPUX_FLOAT64, f64)
GPUX__ARG_SCALAR(gpux_arg_i32, int32_t, GPUX_INT32, i32)
GPUX__ARG_SCALAR(gpux_arg_i64, int64_t, GPUX_INT64, i64)
GPUX__ARG_SCALAR(gpux_arg_u8, uint8_t, GPUX_UINT8, u8)
GPUX__ARG_SCALAR(gpux_arg_bool, uint8_t, GPUX_BOOL, u8)
GPUX__ARG_SCALAR(gpux_arg_f16_bits, uint16_t, GPUX_FLOAT16, bits16)
GPUX__ARG_SCALAR(gpux_arg_bf16_bits, uint16_t, GPUX_BFLOAT16, bits16)
GPUX__ARG_SCALAR(gpux_arg_i8, int8_t, GPUX_INT8, i8)
GPUX__ARG_SCALAR(gpux_arg_i16, int16_t, GPUX_INT16, i16)
GPUX__ARG_SCALAR(gpux_arg_u16, uint16_t, GPUX_UINT16, u16)
GPUX__ARG_SCALAR(gpux_arg_u32, uint32_t, GPUX_UINT32, u32)
GPUX__ARG_SCALAR(gpux_arg_u64, uint64_t, GPUX_UINT64, u64)
#undef GPUX__ARG_SCALAR
static inline gpux_arg gpux_arg_local(uint64_t bytes) {
  gpux_arg r;
  r.kind = GPUX_ARG_LOCAL;
  r.dtype = GPUX_UINT8;
  r.v.local_bytes = bytes;
  return r;
}

/* How a program's binary was obtained (gpux_program_origin). */
typedef enum gpux_program_origin {
  GPUX_PROGRAM_COMPILED = 0,   /* compiled from source in this call */
  GPUX_PROGRAM_DISK_CACHE = 1, /* loaded from the on-disk cache */
  GPUX_PROGRAM_MEMORY_CACHE = 2 /* the context already held it */
} gpux_program_origin;

#ifdef __cplusplus
extern "C" {
#endif

/* ---- programs */

/* Compiles `source` (NUL-terminated) in `lang` for ctx's device. options: passed to the
 * compiler (NVRTC options separated by spaces, e.g. "-DN=4 --use_fast_math"; clBuildProgram's
 * option string), NULL for none. A CUDA source on the OpenCL backend (or the reverse) is
 * GPUX_ERROR_UNSUPPORTED. A failed compile is GPUX_ERROR_KERNEL_BUILD with the log. */
GPUX_API gpux_status gpux_program_create(gpux_program_t *out, gpux_context_t ctx,
                                         gpux_source_lang lang, const char *source,
                                         const char *options);
GPUX_API void gpux_program_release(gpux_program_t prog);
/* The compiler's log of the build that produced the program ("" when the binary came from
 * a cache or the compiler said nothing); valid while prog lives. */
GPUX_API gpux_status gpux_program_build_log(const char **log, gpux_program_t prog);
GPUX_API gpux_status gpux_program_origin_of(gpux_program_origin *out, gpux_program_t prog);

/* ---- kernels */

/* The kernel `name` of prog. A name the program does not define is
 * GPUX_ERROR_KERNEL_NOT_FOUND, and the message lists the kernels it does define. */
GPUX_API gpux_status gpux_kernel_create(gpux_kernel_t *out, gpux_program_t prog,
                                        const char *name);
GPUX_API void gpux_kernel_release(gpux_kernel_t k);
/* Number of parameters of the kernel. */
GPUX_API gpux_status gpux_kernel_num_args(int *out, gpux_kernel_t k);
/* Largest block (work-group) the device runs this kernel with. */
GPUX_API gpux_status gpux_kernel_max_block_size(uint32_t *out, gpux_kernel_t k);

/* Sets argument `index` (0-based). The argument is checked against the parameter as the
 * source declares it, where gpux can read the declaration: an array for a pointer, a scalar
 * of the matching type (float: float32, double: float64, 32-bit integers: int32, 64-bit
 * integers: int64, 8-bit ones: uint8 or bool, half: float16), local memory for a local
 * pointer. A scalar or array of the wrong dtype is GPUX_ERROR_DTYPE_MISMATCH, an argument
 * of the wrong kind (an array for a scalar, ...) GPUX_ERROR_INVALID_ARGUMENT, both naming
 * the parameter as the source declares it. The array must
 * belong to the kernel's context and stay alive until the launch is queued (gpux keeps no
 * reference). */
GPUX_API gpux_status gpux_kernel_set_arg(gpux_kernel_t k, int index, const gpux_arg *arg);
/* Sets arguments 0 .. nargs-1; nargs must equal the kernel's parameter count. */
GPUX_API gpux_status gpux_kernel_set_args(gpux_kernel_t k, int nargs, const gpux_arg *args);

/* Queues the kernel on a grid of grid[0] x grid[1] x grid[2] blocks (work-groups) of
 * block[0] x block[1] x block[2] threads (work-items); ndim (1..3) entries are read, the
 * rest are 1. An OpenCL global size is grid * block. shared_bytes: dynamic shared memory
 * for `extern __shared__` arrays of CUDA sources (0 elsewhere; OpenCL takes local memory as
 * arguments). Every argument must have been set. A grid entry of 0 queues nothing. A shape
 * the device cannot run (block too large for the kernel, grid over the device's limits)
 * is GPUX_ERROR_INVALID_ARGUMENT naming the limit; a grid * block that overflows 64 bits
 * GPUX_ERROR_SIZE_OVERFLOW. */
GPUX_API gpux_status gpux_kernel_launch(gpux_kernel_t k, int ndim, const uint64_t *grid,
                                        const uint32_t *block, size_t shared_bytes);
/* gpux_kernel_set_args + gpux_kernel_launch with no dynamic shared memory. */
GPUX_API gpux_status gpux_kernel_call(gpux_kernel_t k, int ndim, const uint64_t *grid,
                                      const uint32_t *block, int nargs, const gpux_arg *args);

/* ---- elementwise kernels from an expression (CuPy's ElementwiseKernel)
 *
 * in_params / out_params: comma-separated "type name" lists, e.g. "T x, T y, T a" and
 * "T z". A type is a dtype name (float32, float64, int32, int64, uint8, bool) or a
 * placeholder (any other identifier, e.g. T) that takes the dtype of the first argument
 * declared with it that is an array (else that of a scalar); the body may use a placeholder
 * as a type name ("T t = (T)3"). At most 16 parameters; "" declares no inputs. An input may
 * be an array or a scalar (converted to its parameter's dtype by gpux_array_cast's rules);
 * outputs are arrays, start at 0 in the body (they are not read: pass an array as an input
 * too to update it) and must not overlap each other. body: statements in the kernel
 * dialect's expression language (C syntax) that read the inputs and assign the outputs by
 * name, e.g.
 * "z = a * x + y" or "out = x > 0 ? x : alpha * x"; the built-in ops are available as
 * functions (gpux_relu(x), gpux_sigmoid(x), gpux_minimum(a, b), ... docs/kernels.md), so a
 * chain of built-in elementwise ops fuses into one kernel with the same results. Float
 * arithmetic is not contracted into FMAs, so a fused expression gives the same bits as the
 * chain of ops. preamble: code put before the kernel (helper functions), or NULL.
 *
 * A call broadcasts every array argument to the outputs' shape (NumPy rules; the outputs
 * all have that shape), takes strided views, and computes element by element in row-major
 * order; an output may be the same view as an input (in place), not a partial overlap.
 * A kernel is generated and compiled (then cached) for each combination of dtypes. */
GPUX_API gpux_status gpux_elementwise_create(gpux_elementwise_t *out, gpux_context_t ctx,
                                             const char *in_params, const char *out_params,
                                             const char *body, const char *name,
                                             const char *preamble);
GPUX_API void gpux_elementwise_release(gpux_elementwise_t ew);
/* args: the inputs in order, then the outputs (nargs = inputs + outputs). */
GPUX_API gpux_status gpux_elementwise_call(gpux_elementwise_t ew, int nargs,
                                           const gpux_arg *args);
/* The generated source for the dtypes of args (for reading and debugging); *src is valid
 * until the next call on ew. */
GPUX_API gpux_status gpux_elementwise_source(const char **src, gpux_elementwise_t ew,
                                             int nargs, const gpux_arg *args);

#ifdef __cplusplus
}
#endif
#endif
