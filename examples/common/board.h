/* SPDX-License-Identifier: MIT */
/*
 * board — the text board diagram of the examples (demo, play): the board
 * of the library's ball_position_to_board_text(), which the command-line
 * tool (`ball show`, tools/cmd_show.c) and the Python and Lua bindings
 * print too. Row 17 at the top, six characters per column,
 * unplayable squares blank, the column letters above and below, and the
 * rows of each end zone named on a line above (ATK's) and below (DEF's);
 * every line fits 80 columns.
 */
#ifndef EXAMPLES_BOARD_H
#define EXAMPLES_BOARD_H

#include "ball.h"

#include <stdio.h>

/** Prints the board to @p out (ball_position_to_board_text()). With
 *  @p marked non-NULL (one entry per square), a square whose entry is
 *  non-zero gets a '>' just before it: a frontend's highlight of the
 *  squares one may choose. */
void board_print(ball_game *g, const unsigned char *marked, FILE *out);

/** Prints the legend of the diagram's letters. */
void board_print_legend(FILE *out);

#endif
