/* SPDX-License-Identifier: MIT */
/* The uniform map of a 64-bit random value onto 0 ... n-1 that every
 * draw uses: the action phase's (movegen.c, draw.c) and the release
 * phase's (release.c). Below both, so that neither includes the other. */
#ifndef BALL_DRAW_INDEX_H
#define BALL_DRAW_INDEX_H

#include <stdint.h>

/* floor(random * n / 2^64): each of 0 ... n-1 for one n-th of the 2^64
 * values (ball_random_action()). */
static inline int draw_index(uint64_t random, int n)
{
    return (int)(((unsigned __int128)random * (unsigned)n) >> 64);
}

#endif
