/* SPDX-License-Identifier: MIT */
/* Shared by the files that define per-square constant tables
 * (geometry.c, bitboard.c, hash.c): the coordinates of a dense square
 * index as constant expressions, and a list of all 111 squares. */
#ifndef BALL_SQUARE_TABLE_H
#define BALL_SQUARE_TABLE_H

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

#endif
