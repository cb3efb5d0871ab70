/* SPDX-License-Identifier: MIT */
#include "args.h"

#include <stdlib.h>

long parse_number(const char *s, long min, long max)
{
    char *end;
    long v;
    if (s == NULL || *s < '0' || *s > '9')
        return -1;
    v = strtol(s, &end, 10);
    return (*end != '\0' || v < min || v > max) ? -1 : v;
}
