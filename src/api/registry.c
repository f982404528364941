/* Backend registry: finds, loads and initializes the CUDA and OpenCL backends once per
 * process, and remembers why one is unavailable. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "internal.h"

const gpux__host_iface gpux__host = {
    .abi_version = GPUX_BACKEND_ABI_VERSION,
    .set_error = gpux__set_error,
    .cache_load = gpux__cache_load,
    .cache_store = gpux__cache_store,
};

/* The backends gpux knows, in auto's order of preference: one entry each. Which of them this
 * build has comes from CMake's GPUX_BACKENDS (gpux_backends_built.h). A new backend is an
 * entry here, its directory, its public kind (include/gpux/context.h) and its detection in
 * the top-level CMakeLists.txt. */
#include "gpux_backends_built.h"
#ifdef GPUX_STATIC_BACKENDS
#define GPUX__DECLARE_ENTRY(name) \
  const gpux__backend_iface *gpux_##name##_backend_entry(const gpux__host_iface *host);
GPUX__BUILT_BACKENDS(GPUX__DECLARE_ENTRY)
#undef GPUX__DECLARE_ENTRY
#endif

typedef struct backend_slot {
  const char *name;
  gpux_backend_kind kind;
  int tried;
  gpux_status status;
  char why[2048];
  const gpux__backend_iface *be;
} backend_slot;

static backend_slot slots[] = {
    {.name = "cuda", .kind = GPUX_BACKEND_CUDA},
    {.name = "opencl", .kind = GPUX_BACKEND_OPENCL},
};
#define NSLOTS ((int)(sizeof slots / sizeof slots[0]))
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

int gpux__backend_count(void) { return NSLOTS; }
gpux_backend_kind gpux__backend_kind_at(int i) { return slots[i].kind; }

static int slot_of(gpux_backend_kind kind) {
  for (int i = 0; i < NSLOTS; i++)
    if (slots[i].kind == kind) return i;
  return -1;
}

int gpux__backend_known(gpux_backend_kind kind) { return slot_of(kind) >= 0; }

/* 1 when this build has backend i (as a module: whether the module is there is found when
 * it is loaded). */
static int built(int i) {
#define GPUX__IS(b) if (strcmp(slots[i].name, #b) == 0) return 1;
  GPUX__BUILT_BACKENDS(GPUX__IS)
#undef GPUX__IS
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

/* The first required entry be lacks (gpux_backend.h: GPUX__BACKEND_REQUIRED), or NULL. */
static const char *missing_entry(const gpux__backend_iface *be) {
#define GPUX__CHECK_ENTRY(e) \
  if (!be->e) return #e;
  GPUX__BACKEND_REQUIRED(GPUX__CHECK_ENTRY)
#undef GPUX__CHECK_ENTRY
  return NULL;
}

static gpux_status load(int i, const gpux__backend_iface **out, char *why, size_t len) {
  gpux__backend_entry_fn entry = NULL;
  if (!built(i)) {
    snprintf(why, len, "gpux was built without the %s backend", slots[i].name);
    return GPUX_ERROR_BACKEND_UNAVAILABLE;
  }
#ifdef GPUX_STATIC_BACKENDS
#define GPUX__PICK(b) \
  if (strcmp(slots[i].name, #b) == 0) entry = gpux_##b##_backend_entry;
  GPUX__BUILT_BACKENDS(GPUX__PICK)
#undef GPUX__PICK
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
  const char *lacks = missing_entry(be);
  if (lacks) {
    snprintf(why, len, "%s backend lacks the required interface entry '%s'", slots[i].name, lacks);
    return GPUX_ERROR_BACKEND_UNAVAILABLE;
  }
  char *saved = gpux__error_save();
  gpux_status s2 = be->init();
  if (s2 != GPUX_SUCCESS) {
    snprintf(why, len, "%s", gpux__error_body()); /* every caller adds its own name */
    free(saved);
    return s2;
  }
  gpux__error_restore(saved);
  *out = be;
  return GPUX_SUCCESS;
}

gpux_status gpux__backend_get(const gpux__backend_iface **out, gpux_backend_kind kind) {
  int i = slot_of(kind);
  if (i < 0)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT, "backend id %d is not a backend here",
                           (int)kind);
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
  if (b == GPUX_BACKEND_DEFAULT) return "default";
  if (b == GPUX_BACKEND_AUTO) return "auto";
  int i = slot_of(b);
  return i >= 0 ? slots[i].name : "unknown"; /* static text, as gpux_status_string gives */
}

GPUX_API gpux_status gpux_backend_from_name(gpux_backend_kind *out, const char *name) {
  GPUX__API_FN();
  if (!out || !name) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "out and name must not be NULL");
  char list[256] = "";
  size_t len = 0;
  for (int i = 0; i < NSLOTS; i++) {
    if (strcasecmp(name, slots[i].name) == 0) {
      *out = slots[i].kind;
      return GPUX_SUCCESS;
    }
    len += (size_t)snprintf(list + len, sizeof list - len, "%s, ", slots[i].name);
  }
  if (strcasecmp(name, "auto") == 0) *out = GPUX_BACKEND_AUTO;
  else if (strcasecmp(name, "default") == 0) *out = GPUX_BACKEND_DEFAULT;
  else
    return gpux__set_error(GPUX_ERROR_BACKEND_UNKNOWN, "unknown backend '%s' (expected %sor auto)",
                           name, list);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_device_count(int *count, gpux_backend_kind backend) {
  GPUX__API_FN();
  if (!count) return gpux__set_error(GPUX_ERROR_NULL_POINTER, "count must not be NULL");
  *count = 0;
  if (slot_of(backend) < 0)
    return gpux__set_error(GPUX_ERROR_INVALID_ARGUMENT,
                           "backend %d is not a backend (auto and default name none)",
                           (int)backend);
  const gpux__backend_iface *be = NULL;
  GPUX__CHECK(gpux__backend_get(&be, backend));
  GPUX__CHECK(be->device_count(count));
  if (*count == 0)
    return gpux__set_error(GPUX_ERROR_NO_DEVICE, "%s backend: no device", be->name);
  return GPUX_SUCCESS;
}

GPUX_API gpux_status gpux_device_get_info(gpux_device_info *info, gpux_backend_kind backend,
                                          int index) {
  GPUX__API_FN();
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
