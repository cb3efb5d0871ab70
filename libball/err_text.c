/* SPDX-License-Identifier: MIT */
/* Error messages into a buffer: see err_text.h. */
#include <stdio.h>

#include "err_text.h"

int err_vtext(char *err, size_t errlen, int code, const char *prefix, const char *fmt, va_list ap)
{
    if (!err || !errlen)
        return code;
    int n = prefix[0] != '\0' ? snprintf(err, errlen, "%s", prefix) : 0;
    if (n >= 0 && (size_t)n < errlen)
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    return code;
}

int err_text(char *err, size_t errlen, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_vtext(err, errlen, code, "", fmt, ap);
    va_end(ap);
    return code;
}
