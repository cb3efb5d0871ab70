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
#define TARGET(i, dc, dr) \
    (ON_BOARD(COL_OF(i) + (dc), ROW_OF(i) + (dr)) \
         ? DENSE(COL_OF(i) + (dc), ROW_OF(i) + (dr)) : NO_SQ)

/* Slot order must match the enum in geometry.h. */
#define VECTORS(i) { \
    TARGET(i, -1, -1), TARGET(i, 1, -1), TARGET(i, -1, 1), TARGET(i, 1, 1), \
    TARGET(i, -2, -2), TARGET(i, 2, -2), TARGET(i, -2, 2), TARGET(i, 2, 2), \
    TARGET(i, -2, 0), TARGET(i, 2, 0), TARGET(i, 0, -2), TARGET(i, 0, 2) }

#define X10(M, b) M(b), M(b + 1), M(b + 2), M(b + 3), M(b + 4), \
                  M(b + 5), M(b + 6), M(b + 7), M(b + 8), M(b + 9)
#define ALL_SQUARES(M) X10(M, 0), X10(M, 10), X10(M, 20), X10(M, 30), \
    X10(M, 40), X10(M, 50), X10(M, 60), X10(M, 70), X10(M, 80), \
    X10(M, 90), X10(M, 100), M(110)

const int8_t STEP[NSQ][NVEC] = { ALL_SQUARES(VECTORS) };

/* One-square bitboards and their diagonal neighbours: variable 128-bit
 * shifts cost several instructions, a table load one or two. */
#define BIT_OF(i) (BB_ONE << (i))
#define NEIGHBOURS_OF(i) \
    ((((BIT_OF(i) & ~BB_COL_A) << 6) | ((BIT_OF(i) & ~BB_COL_M) << 7) \
      | ((BIT_OF(i) & ~BB_COL_M) >> 6) | ((BIT_OF(i) & ~BB_COL_A) >> 7)) & BB_BOARD)
const bb_t SQ_BIT[NSQ] = { ALL_SQUARES(BIT_OF) };
const bb_t SQ_NEIGHBOURS[NSQ] = { ALL_SQUARES(NEIGHBOURS_OF) };
const uint8_t SQ_COL[NSQ] = { ALL_SQUARES(COL_OF) };
const uint8_t SQ_ROW[NSQ] = { ALL_SQUARES(ROW_OF) };

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
