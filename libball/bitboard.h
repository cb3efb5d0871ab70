/* Bitboards: one bit per playable square (dense index, A1 = bit 0 ...
 * M17 = bit 110) in a 128-bit integer. In the dense numbering the four
 * diagonal neighbours of a square are always at -7, -6, +6 and +7, except
 * across the A and M columns, which the masks below cut. */
#ifndef BALL_BITBOARD_H
#define BALL_BITBOARD_H

#include <stdint.h>

typedef unsigned __int128 bb_t;

#define BB_ONE ((bb_t)1)
#define BB_BOARD ((BB_ONE << 111) - 1)
/* A1, A3, ..., A17 are dense 0, 13, ..., 104; M1 ... M17 are 6, ..., 110. */
#define BB_COL_A (BB_ONE << 0 | BB_ONE << 13 | BB_ONE << 26 | BB_ONE << 39 | BB_ONE << 52 \
                  | BB_ONE << 65 | BB_ONE << 78 | BB_ONE << 91 | BB_ONE << 104)
#define BB_COL_M (BB_COL_A << 6)

extern const bb_t SQ_BIT[];        /* SQ_BIT[sq] == BB_ONE << sq */
extern const bb_t SQ_NEIGHBOURS[]; /* the diagonal neighbours of sq */

static inline bb_t bb_bit(int sq) { return SQ_BIT[sq]; }
static inline int bb_has(bb_t b, int sq) { return (int)(b >> sq) & 1; }

/* The squares diagonally adjacent to any square of b. */
static inline bb_t bb_neighbours(bb_t b)
{
    bb_t not_a = b & ~BB_COL_A, not_m = b & ~BB_COL_M;
    return ((not_a << 6) | (not_m << 7) | (not_m >> 6) | (not_a >> 7)) & BB_BOARD;
}

/* Index of the lowest set bit; b must not be 0. */
static inline int bb_first(bb_t b)
{
    uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

static inline int bb_count(bb_t b)
{
    return __builtin_popcountll((uint64_t)b) + __builtin_popcountll((uint64_t)(b >> 64));
}

/* for (BB_EACH(sq, b)) visits every set square of b in increasing order. */
#define BB_EACH(sq, b) bb_t rest_##sq = (b); rest_##sq && ((sq) = bb_first(rest_##sq), 1); \
                       rest_##sq &= rest_##sq - 1

#endif
