/*
 * board — the text board diagram shared by the examples (demo, play):
 * row 17 at the top, six characters per column, unplayable squares blank.
 */
#ifndef EXAMPLES_BOARD_H
#define EXAMPLES_BOARD_H

#include "ball.h"

#include <stdio.h>

/** Longest text of one square (a fresh stack with marks) plus its NUL. */
#define BOARD_CELL_MAX 8

/**
 * Writes the text of square @p sq into @p out: "." vacant, "@" loose ball,
 * a piece letter (upper case ATK, lower case DEF: X O S) with marks
 * `*` ball, `_` knocked down, `!` restricted; a stack is its upper then its
 * lower piece, with `+` when fresh (R12).
 */
void board_square_text(ball_game *g, int sq, char out[BOARD_CELL_MAX]);

/** Prints the board to @p out. With @p marked non-NULL (one entry per
 *  square), a square whose entry is non-zero gets a '>' just before it: a
 *  frontend's highlight of the squares one may choose. No trailing
 *  blanks. */
void board_print(ball_game *g, const unsigned char *marked, FILE *out);

/** Prints the legend of the diagram's letters. */
void board_print_legend(FILE *out);

#endif
