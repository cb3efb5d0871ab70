/* SPDX-License-Identifier: MIT */
/* Reading `setoption` values: see engine_options.h. */
#define _POSIX_C_SOURCE 200809L

#include "engine_options.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int engine_option_find(const engine_option *opts, size_t n, const char *name, char *err,
                       size_t errlen)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(name, opts[i].name) == 0)
            return (int)i;
    snprintf(err, errlen, "unknown option '%.40s' (see the option lines of bep)", name);
    return -1;
}

static int out_of_range(const engine_option *o, const char *value, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: '%.40s' is out of range %s to %s", o->name, value, o->min, o->max);
    return -1;
}

int engine_option_spin(const engine_option *o, const char *value, unsigned long long *out,
                       char *err, size_t errlen)
{
    char *end = NULL;
    unsigned long long v = 0;
    errno = 0;
    if (value[0] >= '0' && value[0] <= '9')
        v = strtoull(value, &end, 10);
    if (end == NULL || end == value || *end != '\0' || errno != 0) {
        snprintf(err, errlen, "%s: '%.40s' is not an integer", o->name, value);
        return -1;
    }
    if (v < strtoull(o->min, NULL, 10) || v > strtoull(o->max, NULL, 10))
        return out_of_range(o, value, err, errlen);
    *out = v;
    return 0;
}

int engine_option_real(const engine_option *o, const char *value, double *out, char *err,
                       size_t errlen)
{
    char *end = NULL;
    double v;
    errno = 0;
    v = strtod(value, &end);
    if (end == value || *end != '\0' || errno != 0 || !isfinite(v)) {
        snprintf(err, errlen, "%s: '%.40s' is not a number", o->name, value);
        return -1;
    }
    if (v < strtod(o->min, NULL) || v > strtod(o->max, NULL))
        return out_of_range(o, value, err, errlen);
    *out = v;
    return 0;
}

int engine_option_combo(const engine_option *o, const char *value, unsigned long long *out,
                        char *err, size_t errlen)
{
    size_t n = strlen(value);
    unsigned long long k = 0;
    for (const char *w = o->vars; *w != '\0'; k++) {
        size_t len = strcspn(w, " ");
        if (len == n && strncmp(w, value, n) == 0) {
            *out = k;
            return 0;
        }
        w += len;
        w += strspn(w, " ");
    }
    snprintf(err, errlen, "%s: '%.40s' is not one of: %s", o->name, value, o->vars);
    return -1;
}
