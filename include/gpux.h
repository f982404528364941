/* gpux: portable GPU arrays for C. One library, CUDA or OpenCL chosen at run time.
 * See README.md for a tour. */
#ifndef GPUX_H
#define GPUX_H
#include "gpux/version.h"
#include "gpux/status.h"
#include "gpux/context.h"
#include "gpux/array.h"
#include "gpux/assemble.h"
#include "gpux/index.h"
#include "gpux/mask.h"
#include "gpux/sort.h"
#include "gpux/count.h"
#include "gpux/select.h"
#include "gpux/group.h"
#include "gpux/elementwise.h"
#include "gpux/reduce.h"
#include "gpux/linalg.h"
#include "gpux/random.h"
#include "gpux/kernel.h"
#endif
