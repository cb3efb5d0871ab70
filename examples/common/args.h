/* SPDX-License-Identifier: MIT */
/* Command-line helpers shared by the example programs. */
#ifndef EXAMPLES_ARGS_H
#define EXAMPLES_ARGS_H

/* The decimal number in s if it lies in [min, max] and nothing follows
 * it; -1 otherwise. */
long parse_number(const char *s, long min, long max);

#include <stddef.h>

/* The next "key=value" of a settings list such as "playouts=500,c=0.3"
 * (a player's name after its colon) at *spec: the key into key (at most
 * keylen - 1 bytes), the value, a decimal number that starts with a digit,
 * into *value; *spec moves past it and its comma. Returns 1 for a setting,
 * 0 at the end of the list, -1 for a malformed one. */
int settings_next(const char **spec, char *key, size_t keylen, double *value);

/* 1 when v is a whole number in [min, max], else 0. */
int settings_whole(double v, double min, double max);

#endif
