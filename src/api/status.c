/* Status strings and the thread-local error detail. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* Large enough for a kernel build log excerpt. */
#define GPUX__ERRMSG_CAP 16384
static _Thread_local char errmsg[GPUX__ERRMSG_CAP];

GPUX_API const char *gpux_status_string(gpux_status s) {
  switch (s) {
#define GPUX__STATUS_TEXT(name, value, text) \
  case GPUX_##name:                          \
    return text;
    GPUX_STATUS_MAP(GPUX__STATUS_TEXT)
#undef GPUX__STATUS_TEXT
  }
  return "unknown status";
}

GPUX_API const char *gpux_status_name(gpux_status s) {
  switch (s) {
#define GPUX__STATUS_NAME(name, value, text) \
  case GPUX_##name:                          \
    return "GPUX_" #name;
    GPUX_STATUS_MAP(GPUX__STATUS_NAME)
#undef GPUX__STATUS_NAME
  }
  return "GPUX_UNKNOWN_STATUS";
}

GPUX_API const char *gpux_last_error_message(void) { return errmsg; }

GPUX_API void gpux_clear_error(void) { errmsg[0] = '\0'; }

static _Thread_local const char *api_fn; /* the outermost public function running */

const char *gpux__api_enter(const char *fn) {
  const char *prev = api_fn;
  if (!prev) api_fn = fn;
  return prev;
}

void gpux__api_leave(const char **prev) { api_fn = *prev; }

gpux_status gpux__set_error(gpux_status s, const char *fmt, ...) {
  size_t pre = 0;
  if (api_fn) pre = (size_t)snprintf(errmsg, sizeof errmsg, "%s: ", api_fn);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(errmsg + pre, sizeof errmsg - pre, fmt, ap);
  va_end(ap);
  /* a message that already starts with the name keeps it once */
  if (pre && strncmp(errmsg + pre, errmsg, pre - 1) == 0) /* "fn:" */
    memmove(errmsg, errmsg + pre, strlen(errmsg + pre) + 1);
  return s;
}

const char *gpux__error_body(void) {
  size_t n = api_fn ? strlen(api_fn) : 0;
  return n && strncmp(errmsg, api_fn, n) == 0 && errmsg[n] == ':' && errmsg[n + 1] == ' '
             ? errmsg + n + 2
             : errmsg;
}

char *gpux__error_save(void) {
  size_t n = strlen(errmsg) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, errmsg, n);
  return p;
}

void gpux__error_restore(char *saved) {
  if (saved) memcpy(errmsg, saved, strlen(saved) + 1);
  else errmsg[0] = '\0'; /* out of host memory when saving: at least leave no probe's text */
  free(saved);
}

const char *gpux__shape_str(char *buf, size_t len, int ndim, const int64_t *shape) {
  size_t pos = 0;
  if (len == 0) return buf;
  buf[0] = '\0';
  pos += (size_t)snprintf(buf + pos, len - pos, "(");
  for (int i = 0; i < ndim && pos < len; i++)
    pos += (size_t)snprintf(buf + pos, len - pos, "%s%lld", i ? ", " : "", (long long)shape[i]);
  if (pos < len) snprintf(buf + pos, len - pos, ndim == 1 ? ",)" : ")");
  return buf;
}

GPUX_API const char *gpux_version_string(void) { return GPUX_VERSION_STRING; }
GPUX_API unsigned gpux_version_number(void) { return GPUX_VERSION_NUMBER; }
