/* SPDX-License-Identifier: MIT */
/* The square tables of bitboard.h. */
#include "bitboard.h"
#include "geometry.h"
#include "square_table.h"

/* The bitboard layout of bitboard.h: pairs of rows 15 bits apart, odd
 * rows at bits 0-6 of the pair, even rows at 8-13. */
#define BIT_INDEX(i) ((ROW_OF(i) - 1) / 2 * 15 + (ROW_OF(i) % 2 ? (COL_OF(i) - 1) / 2 : 7 + COL_OF(i) / 2))
#define BIT_OF(i) (BB_ONE << BIT_INDEX(i))
#define NEIGHBOURS_OF(i) \
    ((BIT_OF(i) << 7 | BIT_OF(i) << 8 | BIT_OF(i) >> 7 | BIT_OF(i) >> 8) & BB_BOARD)
const bb_t SQ_BIT[NSQ] = { ALL_SQUARES(BIT_OF) };
const uint8_t SQ_BIT_INDEX[NSQ] = { ALL_SQUARES(BIT_INDEX) };
const bb_t SQ_NEIGHBOURS[NSQ] = { ALL_SQUARES(NEIGHBOURS_OF) };

/* Squares at distance at most 4 (R1.3) of a square: the rows within 4
 * (a run of bits) and the columns within 4 (the same slots in every row
 * pair). */
#define ROW_START(r) (((r) - 1) / 2 * 15 + ((r) - 1) % 2 * 7)
#define ROWS_WITHIN4(i) \
    ((BB_ONE << ROW_START(ROW_OF(i) + 4 > 17 ? 18 : ROW_OF(i) + 5)) \
     - (BB_ONE << ROW_START(ROW_OF(i) - 4 < 1 ? 1 : ROW_OF(i) - 4)))
#define ON_COL(c) ((c) >= 1 && (c) <= 13)
#define COL_SLOT(c) ((ON_COL(c) ? BB_ONE : 0) << (!ON_COL(c) ? 0 : (c) % 2 ? ((c) - 1) / 2 : 7 + (c) / 2))
#define COLS_NEAR(c) (COL_SLOT((c) - 4) | COL_SLOT((c) - 3) | COL_SLOT((c) - 2) | COL_SLOT((c) - 1) \
                      | COL_SLOT(c) | COL_SLOT((c) + 1) | COL_SLOT((c) + 2) | COL_SLOT((c) + 3) \
                      | COL_SLOT((c) + 4))
#define EVERY_PAIR(p) ((p) | (p) << 15 | (p) << 30 | (p) << 45 | (p) << 60 | (p) << 75 \
                       | (p) << 90 | (p) << 105 | (p) << 120)
#define WITHIN4_OF(i) (ROWS_WITHIN4(i) & EVERY_PAIR(COLS_NEAR(COL_OF(i))) & BB_BOARD)
const bb_t SQ_WITHIN4[NSQ] = { ALL_SQUARES(WITHIN4_OF) };

/* The inverse of BIT_INDEX: bit b is slot b % 15 of row pair b / 15. */
#define SLOT_ROW(b) ((b) / 15 * 2 + ((b) % 15 >= 7 ? 2 : 1))
#define SLOT_COL(b) ((b) % 15 < 7 ? (b) % 15 * 2 + 1 : ((b) % 15 - 7) * 2)
#define SQUARE_OF_BIT(b) \
    ((b) % 15 == 7 || (b) % 15 == 14 || (b) > 126 ? NO_SQ : DENSE(SLOT_COL(b), SLOT_ROW(b)))
#define ALL_BITS(M) ALL_SQUARES(M), X10(M, 111), M(121), M(122), M(123), M(124), M(125), M(126), M(127)
const int8_t BIT_SQUARE[128] = { ALL_BITS(SQUARE_OF_BIT) };
