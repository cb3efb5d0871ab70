/* SPDX-License-Identifier: MIT */
#include "args.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

long parse_number(const char *s, long min, long max)
{
    char *end;
    long v;
    if (s == NULL || *s < '0' || *s > '9')
        return -1;
    v = strtol(s, &end, 10);
    return (*end != '\0' || v < min || v > max) ? -1 : v;
}

int settings_next(const char **spec, char *key, size_t keylen, double *value)
{
    const char *s = *spec, *eq;
    char *stop;
    size_t klen;
    if (*s == '\0')
        return 0;
    eq = strchr(s, '=');
    if (eq == NULL || (klen = (size_t)(eq - s)) == 0 || klen >= keylen)
        return -1;
    if (eq[1] < '0' || eq[1] > '9')
        return -1;
    memcpy(key, s, klen);
    key[klen] = '\0';
    *value = strtod(eq + 1, &stop);
    if (!isfinite(*value))
        return -1;
    if (*stop == ',')
        stop++;
    else if (*stop != '\0')
        return -1;
    *spec = stop;
    return 1;
}

int settings_whole(double v, double min, double max)
{
    /* within [min, max] first, so that the cast below is defined */
    return v >= min && v <= max && v == (double)(long long)v;
}
