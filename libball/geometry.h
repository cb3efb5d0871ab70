/* SPDX-License-Identifier: MIT */
/* Board geometry (R1): the 111 playable squares, their names, and the
 * coordinates as constant tables. Squares are the dense indices of
 * ball.h (A1 = 0 ... M17 = 110). */
#ifndef BALL_GEOMETRY_H
#define BALL_GEOMETRY_H

#include <stdint.h>
#include "ball.h"

#define NSQ BALL_NUM_SQUARES
#define NO_SQ (-1)

extern const uint8_t SQ_COL[NSQ]; /* 1 = A ... 13 = M */
extern const uint8_t SQ_ROW[NSQ]; /* 1 ... 17 */

/* Dense index of a playable (col, row), or NO_SQ. */
int square_at(int col, int row);
/* R1.3: max(|dc|, |dr|). */
static inline int square_distance(int a, int b)
{
    int dc = SQ_COL[a] - SQ_COL[b], dr = SQ_ROW[a] - SQ_ROW[b];
    if (dc < 0) dc = -dc;
    if (dr < 0) dr = -dr;
    return dc > dr ? dc : dr;
}

/* Writes "G5" (at most 3 chars + NUL) and returns its length. */
int square_format(int sq, char *buf);
/* Reads a square name at *s; on success advances *s and returns the
 * square, else returns NO_SQ and leaves *s. Strict: upper-case column,
 * row 1-17 without leading zero, playable. */
int square_scan(const char **s);

#endif
