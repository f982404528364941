/* Status strings and the thread-local error detail. */
#include <stdarg.h>
#include <stdio.h>
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

gpux_status gpux__set_error(gpux_status s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(errmsg, sizeof errmsg, fmt, ap);
  va_end(ap);
  return s;
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
