/* SPDX-License-Identifier: MIT */
/* The square keys of hash.h. */
#include "geometry.h"
#include "hash.h"
#include "square_table.h"

/* Zobrist keys: entry j of square i keys piece code j % 16 at level
 * j / 16 (top, lower); code 0 keys nothing. */
#define ZKEY(i, j) ((j) % 16 ? MIX64_CONST((i) << 8 | (j)) : 0)
#define X8(M, i, b) M(i, b), M(i, b + 1), M(i, b + 2), M(i, b + 3), \
                    M(i, b + 4), M(i, b + 5), M(i, b + 6), M(i, b + 7)
#define ZROW(i) { X8(ZKEY, i, 0), X8(ZKEY, i, 8), X8(ZKEY, i, 16), X8(ZKEY, i, 24) }
const uint64_t ZOBRIST[NSQ][32] = { ALL_SQUARES(ZROW) };
