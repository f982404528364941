/* gpux OpenCL backend: state shared by its files (never installed).
 *
 * Threading: a context (gpux__bctx) is used by one thread at a time. Its cl_kernel
 * objects carry their arguments (clSetKernelArg) and are not thread safe, so two threads
 * must not launch on one context at the same time; different contexts are independent. */
#ifndef GPUX_CL_INTERNAL_H
#define GPUX_CL_INTERNAL_H
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stddef.h>
#include "gpux_backend.h"

/* One device of the list GPUX_DEVICE indexes: GPUs of every platform first, then the rest. */
typedef struct gpux_cl_device {
  cl_platform_id platform;
  cl_device_id device;
  int is_gpu;
  int is_pocl; /* pocl keeps its own kernel cache: no second one on top */
  int fp64;
} gpux_cl_device;

/* Kernel families, one program (one .cl file) each, built on first use. */
enum { GPUX_CL_FAM_ELEMENTWISE, GPUX_CL_FAM_COPY, GPUX_CL_FAM_COUNT };

#define GPUX_CL_NSIZES 4 /* copy kernels for element sizes 1, 2, 4, 8 */

struct gpux__bctx {
  const gpux_cl_device *dev;
  cl_context ctx;
  cl_command_queue queue; /* in order, profiling enabled */
  cl_command_queue touch_queue; /* first touches of new buffers (see mem_alloc) */
  cl_ulong max_alloc;     /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
  int epi;                /* elements per work-item of contiguous kernels */
  int exact;              /* 1-d launches cover exactly the work-items (no bounds tests) */
  size_t wg;              /* work-group size of 1-d launches */
  int marker_timing;      /* markers carry profiling timestamps (else a 1-byte fill does) */
  cl_mem scratch;         /* target of that fill */
  char device_name[256];
  char driver_version[128];
  char build_options[160];
  cl_program program[GPUX_CL_FAM_COUNT];
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
};

/* cl_backend.c */
extern const gpux__host_iface *gpux_cl_host;
/* "CL_OUT_OF_RESOURCES", or "unknown OpenCL error" */
const char *gpux_cl_error_name(cl_int e);
/* status for a failed call: the out-of-memory codes map to GPUX_ERROR_OUT_OF_MEMORY /
 * _OUT_OF_HOST_MEMORY, everything else to dflt */
gpux_status gpux_cl_status(cl_int e, gpux_status dflt);

/* cl_kernels.c */
gpux_status gpux_cl_build_family(gpux__bctx *b, int fam);
void gpux_cl_release_programs(gpux__bctx *b);
gpux_status gpux_cl_binary(gpux__bctx *b, int op, const gpux__launch *l);
gpux_status gpux_cl_unary(gpux__bctx *b, int op, const gpux__launch *l);
gpux_status gpux_cl_where(gpux__bctx *b, const gpux__launch *l);
gpux_status gpux_cl_cast(gpux__bctx *b, const gpux__launch *l);
gpux_status gpux_cl_copy(gpux__bctx *b, int elem_size, const gpux__launch *l);
gpux_status gpux_cl_fill(gpux__bctx *b, const gpux__launch *l);
gpux_status gpux_cl_arange(gpux__bctx *b, const gpux__launch *l, double start, double step);
gpux_status gpux_cl_linspace(gpux__bctx *b, const gpux__launch *l, double start, double step,
                             double stop);

/* embedded kernel sources (cmake/embed.cmake) */
extern const unsigned char gpux_cl_src_elementwise[];
extern const size_t gpux_cl_src_elementwise_size;
extern const char gpux_cl_src_elementwise_sha256[];
extern const unsigned char gpux_cl_src_copy[];
extern const size_t gpux_cl_src_copy_size;
extern const char gpux_cl_src_copy_sha256[];

#endif
