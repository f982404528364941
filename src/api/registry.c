/* Backend registry: finds, loads and initializes the CUDA and OpenCL backends once per
 * process, and remembers why one is unavailable. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

const gpux__host_iface gpux__host = {
    .abi_version = GPUX_BACKEND_ABI_VERSION,
    .set_error = gpux__set_error,
    .cache_load = gpux__cache_load,
    .cache_store = gpux__cache_store,
};

#ifdef GPUX_STATIC_BACKENDS
#ifdef GPUX_HAVE_CUDA_BACKEND
const gpux__backend_iface *gpux_cuda_backend_entry(const gpux__host_iface *host);
#endif
#ifdef GPUX_HAVE_OPENCL_BACKEND
const gpux__backend_iface *gpux_opencl_backend_entry(const gpux__host_iface *host);
#endif
#endif

typedef struct backend_slot {
  const char *name;
  int tried;
  gpux_status status;
  char why[2048];
  const gpux__backend_iface *be;
} backend_slot;

static backend_slot slots[2] = {{.name = "cuda"}, {.name = "opencl"}};
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

static int compiled_in(int i) {
#ifdef GPUX_HAVE_CUDA_BACKEND
  if (i == 0) return 1;
#endif
#ifdef GPUX_HAVE_OPENCL_BACKEND
  if (i == 1) return 1;
#endif
  (void)i;
  return 0;
}

#ifndef GPUX_STATIC_BACKENDS
/* Tries dir/libgpux-<name>.so; returns the handle or NULL, appending dlerror to why. */
static void *try_open(const char *dir, const char *file, char *why, size_t len, int *found) {
  char path[4096 + 128]; /* dir (at most 4095) + '/' + file */
  if (dir)
    snprintf(path, sizeof path, "%s/%s", dir, file);
  else
    snprintf(path, sizeof path, "%s", file);
  if (dir && access(path, F_OK) != 0) return NULL;
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    /* A file that exists but fails to load (a missing driver library) is the reason that
     * matters; "not found" on the plain name only when nothing better is known. */
    if (dir || !*found) snprintf(why, len, "%s", e ? e : "dlopen failed");
    if (dir) *found = 1;
  }
  return h;
}

static gpux_status load_module(int i, gpux__backend_entry_fn *entry, char *why, size_t len) {
  char file[64], sym[64];
  snprintf(file, sizeof file, "libgpux-%s.so", slots[i].name);
  snprintf(sym, sizeof sym, "gpux_%s_backend_entry", slots[i].name);
  int found = 0;
  void *h = NULL;
  why[0] = '\0';
  /* 1. GPUX_BACKEND_PATH (colon-separated directories) */
  const char *env = getenv("GPUX_BACKEND_PATH");
  if (env && *env) {
    char *copy = strdup(env);
    if (!copy) return gpux__set_error(GPUX_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    for (char *save = NULL, *d = strtok_r(copy, ":", &save); d && !h; d = strtok_r(NULL, ":", &save))
      h = try_open(d, file, why, len, &found);
    free(copy);
  }
  /* 2. the directory libgpux itself was loaded from */
  Dl_info info;
  if (!h && dladdr((void *)&gpux__backend_get, &info) && info.dli_fname) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", info.dli_fname);
    char *slash = strrchr(dir, '/');
    if (slash) {
      *slash = '\0';
      h = try_open(dir, file, why, len, &found);
    }
  }
  /* 3. the dynamic linker's search path */
  if (!h) h = try_open(NULL, file, why, len, &found);
  if (!h) {
    char tmp[2048];
    snprintf(tmp, sizeof tmp, "cannot load backend module %s: %s", file, why);
    snprintf(why, len, "%s", tmp);
    return GPUX_ERROR_BACKEND_UNAVAILABLE;
  }
  *(void **)entry = dlsym(h, sym);
  if (!*entry) {
    snprintf(why, len, "backend module %s has no symbol %s", file, sym);
    dlclose(h);
    return GPUX_ERROR_BACKEND_UNAVAILABLE;
  }
  return GPUX_SUCCESS; /* the module stays loaded for the life of the process */
}
#endif

static gpux_status load(int i, const gpux__backend_iface **out, char *why, size_t len) {
  gpux__backend_entry_fn entry = NULL;
  if (!compiled_in(i)) {
    snprintf(why, len, "gpux was built without the %s backend", slots[i].name);
    return GPUX_ERROR_BACKEND_UNAVAILABLE;
  }
#ifdef GPUX_STATIC_BACKENDS
#ifdef GPUX_HAVE_CUDA_BACKEND
  if (i == 0) entry = gpux_cuda_backend_entry;
#endif
#ifdef GPUX_HAVE_OPENCL_BACKEND
  if (i == 1) entry = gpux_opencl_backend_entry;
#endif
#else
  gpux_status s = load_module(i, &entry, why, len);
  if (s != GPUX_SUCCESS) return s;
#endif
  const gpux__backend_iface *be = entry(&gpux__host);
  if (!be) {
    snprintf(why, len, "%s backend refused the core's interface (ABI version %u)", slots[i].name,
             GPUX_BACKEND_ABI_VERSION);
    return GPUX_ERROR_BACKEND_UNAVAILABLE;
  }
  if (be->abi_version != GPUX_BACKEND_ABI_VERSION) {
    snprintf(why, len, "%s backend has ABI version %u, expected %u", slots[i].name,
             be->abi_version, GPUX_BACKEND_ABI_VERSION);
    return GPUX_ERROR_BACKEND_UNAVAILABLE;
  }
  gpux_clear_error();
  gpux_status s2 = be->init();
  if (s2 != GPUX_SUCCESS) {
    snprintf(why, len, "%s", gpux_last_error_message());
    return s2;
  }
  *out = be;
  return GPUX_SUCCESS;
}

gpux_status gpux__backend_get(const gpux__backend_iface **out, gpux_backend_kind kind) {
  int i;
  if (kind == GPUX_BACKEND_CUDA)
    i = 0;
  else if (kind == GPUX_BACKEND_OPENCL)
    i = 1;
  else
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "backend must be cuda or opencl here");
  pthread_mutex_lock(&slots_lock);
  backend_slot *sl = &slots[i];
  if (!sl->tried) {
    sl->tried = 1;
    sl->status = load(i, &sl->be, sl->why, sizeof sl->why);
  }
  pthread_mutex_unlock(&slots_lock);
  if (sl->status != GPUX_SUCCESS)
    return gpux__set_error(sl->status, "%s backend unavailable: %s", sl->name, sl->why);
  *out = sl->be;
  return GPUX_SUCCESS;
}

GPUX_API const char *gpux_backend_name(gpux_backend_kind b) {
  switch (b) {
    case GPUX_BACKEND_DEFAULT: return "default";
    case GPUX_BACKEND_AUTO: return "auto";
    case GPUX_BACKEND_CUDA: return "cuda";
    case GPUX_BACKEND_OPENCL: return "opencl";
  }
  return NULL;
}

GPUX_API gpux_status gpux_backend_from_name(gpux_backend_kind *out, const char *name) {
  if (!out || !name) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out and name must not be NULL");
  static const struct { const char *n; gpux_backend_kind k; } names[] = {
      {"cuda", GPUX_BACKEND_CUDA}, {"opencl", GPUX_BACKEND_OPENCL},
      {"auto", GPUX_BACKEND_AUTO}, {"default", GPUX_BACKEND_DEFAULT}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcasecmp(name, names[i].n) == 0) {
      *out = names[i].k;
      return GPUX_SUCCESS;
    }
  return gpux__set_error(GPUX_ERROR_BACKEND_UNKNOWN,
                         "unknown backend '%s' (expected cuda, opencl or auto)", name);
}

GPUX_API gpux_status gpux_device_count(int *count, gpux_backend_kind backend) {
  if (!count) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "count must not be NULL");
  *count = 0;
  if (backend != GPUX_BACKEND_CUDA && backend != GPUX_BACKEND_OPENCL)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "gpux_device_count: backend must be GPUX_BACKEND_CUDA or GPUX_BACKEND_OPENCL");
  const gpux__backend_iface *be = NULL;
  GPUX__CHECK(gpux__backend_get(&be, backend));
  GPUX__CHECK(be->device_count(count));
  if (*count == 0)
    return gpux__set_error(GPUX_ERROR_NO_DEVICE, "%s backend: no device", be->name);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_device_get_info(gpux_device_info *info, gpux_backend_kind backend,
                                          int index) {
  if (!info) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "info must not be NULL");
  int n;
  GPUX__CHECK(gpux_device_count(&n, backend));
  if (index < 0 || index >= n)
    return gpux__set_error(GPUX_ERROR_INVALID_DEVICE, "device %d requested but %s has %d device(s)",
                           index, gpux_backend_name(backend), n);
  const gpux__backend_iface *be = NULL;
  GPUX__CHECK(gpux__backend_get(&be, backend));
  memset(info, 0, sizeof *info);
  GPUX__CHECK(be->device_info(index, info));
  info->backend = backend;
  info->index = index;
  return GPUX_SUCCESS;
}
