/* SPDX-License-Identifier: MIT */
/* Bitboards: one bit per playable square in a 128-bit integer, laid out
 * so that every step of R5.1 is a plain shift. Rows are taken in pairs of
 * 15 bits: an odd row's 7 squares (A, C, ..., M) at bits 0-6 of the
 * pair, then an even row's 6 squares (B, ..., L) at bits 8-13 between
 * two ghost bits (7 and 14) that belong to no square. Row 17 is bits
 * 120-126; bit 127 is a ghost too.
 *
 * With that layout the diagonal neighbours of a square are at +7, +8, -7
 * and -8 and the 2-square orthogonal moves at +15, -15, +1 and -1, and a
 * step off the side of the board lands on a ghost bit (or off the ends of
 * the integer) instead of wrapping onto a real square. Results are masked
 * with BB_BOARD (or with a set of real squares) before use, so ghosts never
 * start a second step.
 *
 * Squares keep their dense index everywhere else (A1 = 0 ... M17 = 110,
 * as in ball.h); SQ_BIT and BIT_SQUARE convert. */
#ifndef BALL_BITBOARD_H
#define BALL_BITBOARD_H

#include <stdint.h>

/* The compiler contract (README): the library needs a 128-bit integer. */
#if !defined(__SIZEOF_INT128__)
#error "libball needs a compiler with unsigned __int128 (GCC or Clang on a 64-bit target)"
#endif

typedef unsigned __int128 bb_t;

#define BB_ONE ((bb_t)1)
#define BB_GHOST_PAIR (BB_ONE << 7 | BB_ONE << 14)
#define BB_GHOSTS (BB_GHOST_PAIR | BB_GHOST_PAIR << 15 | BB_GHOST_PAIR << 30 | BB_GHOST_PAIR << 45 \
                   | BB_GHOST_PAIR << 60 | BB_GHOST_PAIR << 75 | BB_GHOST_PAIR << 90 \
                   | BB_GHOST_PAIR << 105 | BB_ONE << 127)
#define BB_BOARD (~BB_GHOSTS)

/* Steps (R5.1) as bit deltas in this layout, with the matching delta of
 * the dense square index (the same for every square the step is legal
 * from). */
enum {
    BIT_DOWN_LEFT = -8, BIT_DOWN_RIGHT = -7, BIT_UP_LEFT = 7, BIT_UP_RIGHT = 8,
    BIT_DOWN2 = -15, BIT_UP2 = 15, BIT_LEFT2 = -1, BIT_RIGHT2 = 1
};
enum {
    SQ_DOWN_LEFT = -7, SQ_DOWN_RIGHT = -6, SQ_UP_LEFT = 6, SQ_UP_RIGHT = 7,
    SQ_DOWN2 = -13, SQ_UP2 = 13, SQ_LEFT2 = -1, SQ_RIGHT2 = 1
};

extern const bb_t SQ_BIT[];        /* the bit of dense square sq */
extern const uint8_t SQ_BIT_INDEX[]; /* its index: SQ_BIT[sq] == 1 << SQ_BIT_INDEX[sq] */
extern const bb_t SQ_NEIGHBOURS[]; /* the diagonal neighbours of sq */
extern const bb_t SQ_WITHIN4[];    /* the squares at distance <= 4 of sq */
extern const int8_t BIT_SQUARE[];  /* the dense square of a bit; -1 for a ghost */

static inline bb_t bb_bit(int sq) { return SQ_BIT[sq]; }
static inline int bb_has(bb_t b, int sq) { return (b & SQ_BIT[sq]) != 0; }

/* The bits of b moved by delta (a BIT_ constant): a bare shift. The
 * result may hold ghost bits; mask it before counting or stepping on. */
static inline bb_t bb_shift(bb_t b, int delta)
{
    uint64_t lo = (uint64_t)b, hi = (uint64_t)(b >> 64);
    if (delta >= 0)
        return (bb_t)(hi << delta | lo >> (64 - delta)) << 64 | (lo << delta);
    return (bb_t)(hi >> -delta) << 64 | (lo >> -delta | hi << (64 + delta));
}

/* The squares diagonally adjacent to any square of b. */
static inline bb_t bb_neighbours(bb_t b)
{
    return (b << 7 | b << 8 | b >> 7 | b >> 8) & BB_BOARD;
}

/* Bit index of the lowest set bit; b must not be 0. */
static inline int bb_first(bb_t b)
{
    uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

static inline int bb_count(bb_t b)
{
    return __builtin_popcountll((uint64_t)b) + __builtin_popcountll((uint64_t)(b >> 64));
}

/* bb_count() of a set of a few bits (a square's neighbours, a hand-off
 * network), for the files built without the POPCNT clones of movegen.c
 * (play.c, release.c): a loop over the bits beats the baseline's
 * 20-instruction popcount routine. */
static inline int bb_count_few(bb_t b)
{
    int n = 0;
    for (uint64_t lo = (uint64_t)b; lo; lo &= lo - 1)
        n++;
    for (uint64_t hi = (uint64_t)(b >> 64); hi; hi &= hi - 1)
        n++;
    return n;
}

/* for (BB_EACH(sq, b)) visits every square of b (dense index), in bit
 * order. */
#define BB_EACH(sq, b) bb_t rest_##sq = (b); rest_##sq && ((sq) = BIT_SQUARE[bb_first(rest_##sq)], 1); \
                       rest_##sq &= rest_##sq - 1

#endif
