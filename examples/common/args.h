/* SPDX-License-Identifier: MIT */
/* Command-line helpers shared by the example programs. */
#ifndef EXAMPLES_ARGS_H
#define EXAMPLES_ARGS_H

/* The decimal number in s if it lies in [min, max] and nothing follows
 * it; -1 otherwise. */
long parse_number(const char *s, long min, long max);

#endif
