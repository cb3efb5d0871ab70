#include "geometry.h"
#include "bitboard.h"
#include "hash.h"

/* Everything here is a constant expression so that the tables are built
 * by the compiler: no start-up code and no mutable global state. */

/* Row r (1-based) starts at dense index (r-1)/2*13 + (r-1)%2*7. */
#define ROW_OF(i) (((i) / 13) * 2 + ((i) % 13 >= 7) + 1)
#define COL_OF(i) ((i) % 13 >= 7 ? ((i) % 13 - 7) * 2 + 2 : ((i) % 13) * 2 + 1)
#define DENSE(c, r) ((((r) - 1) / 2) * 13 + (((r) - 1) % 2) * 7 + ((c) - 1) / 2)
#define ON_BOARD(c, r) ((c) >= 1 && (c) <= 13 && (r) >= 1 && (r) <= 17)

#define X10(M, b) M(b), M(b + 1), M(b + 2), M(b + 3), M(b + 4), \
                  M(b + 5), M(b + 6), M(b + 7), M(b + 8), M(b + 9)
#define ALL_SQUARES(M) X10(M, 0), X10(M, 10), X10(M, 20), X10(M, 30), \
    X10(M, 40), X10(M, 50), X10(M, 60), X10(M, 70), X10(M, 80), \
    X10(M, 90), X10(M, 100), M(110)

/* The bitboard layout of bitboard.h: pairs of rows 15 bits apart, odd
 * rows at bits 0-6 of the pair, even rows at 8-13. */
#define BIT_INDEX(i) ((ROW_OF(i) - 1) / 2 * 15 + (ROW_OF(i) % 2 ? (COL_OF(i) - 1) / 2 : 7 + COL_OF(i) / 2))
#define BIT_OF(i) (BB_ONE << BIT_INDEX(i))
#define NEIGHBOURS_OF(i) \
    ((BIT_OF(i) << 7 | BIT_OF(i) << 8 | BIT_OF(i) >> 7 | BIT_OF(i) >> 8) & BB_BOARD)
const bb_t SQ_BIT[NSQ] = { ALL_SQUARES(BIT_OF) };
const uint8_t SQ_BIT_INDEX[NSQ] = { ALL_SQUARES(BIT_INDEX) };
const bb_t SQ_NEIGHBOURS[NSQ] = { ALL_SQUARES(NEIGHBOURS_OF) };
const uint8_t SQ_COL[NSQ] = { ALL_SQUARES(COL_OF) };
const uint8_t SQ_ROW[NSQ] = { ALL_SQUARES(ROW_OF) };

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

int square_at(int col, int row)
{
    if (!ON_BOARD(col, row) || (col + row) % 2 != 0)
        return NO_SQ;
    return DENSE(col, row);
}

int square_format(int sq, char *buf)
{
    int row = SQ_ROW[sq], n = 0;
    buf[n++] = (char)('A' + SQ_COL[sq] - 1);
    if (row >= 10)
        buf[n++] = (char)('0' + row / 10);
    buf[n++] = (char)('0' + row % 10);
    buf[n] = '\0';
    return n;
}

int square_scan(const char **s)
{
    const char *p = *s;
    if (*p < 'A' || *p > 'M')
        return NO_SQ;
    int col = *p++ - 'A' + 1;
    if (*p < '1' || *p > '9')
        return NO_SQ;
    int row = *p++ - '0';
    if (*p >= '0' && *p <= '9') {
        row = row * 10 + (*p++ - '0');
        if (*p >= '0' && *p <= '9')
            return NO_SQ;
    }
    int sq = square_at(col, row);
    if (sq != NO_SQ)
        *s = p;
    return sq;
}

/* Zobrist keys: entry j of square i keys piece code j % 16 at level
 * j / 16 (top, lower); code 0 keys nothing. */
#define ZKEY(i, j) ((j) % 16 ? MIX64_CONST((i) << 8 | (j)) : 0)
#define X8(M, i, b) M(i, b), M(i, b + 1), M(i, b + 2), M(i, b + 3), \
                    M(i, b + 4), M(i, b + 5), M(i, b + 6), M(i, b + 7)
#define ZROW(i) { X8(ZKEY, i, 0), X8(ZKEY, i, 8), X8(ZKEY, i, 16), X8(ZKEY, i, 24) }
const uint64_t ZOBRIST[NSQ][32] = { ALL_SQUARES(ZROW) };
