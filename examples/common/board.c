/* SPDX-License-Identifier: MIT */
/* The text board diagram of the examples and of the tool; see board.h. */
#include "board.h"

void board_print(ball_game *g, const unsigned char *marked, FILE *out)
{
    int squares[BALL_NUM_SQUARES];
    size_t n = 0;
    char text[4096]; /* the board is about 1,600 bytes */
    for (int sq = 0; marked && sq < BALL_NUM_SQUARES; sq++)
        if (marked[sq])
            squares[n++] = sq;
    if (ball_position_to_board_text(g, squares, n, 0, text, sizeof text) >= 0)
        fputs(text, out);
    else
        fprintf(out, "(no board: %s)\n", ball_errmsg(g));
}

void board_print_legend(FILE *out)
{
    fputs("X O S = ATK, x o s = DEF; * ball, _ knocked down, ! restricted,\n"
          "@ loose ball, two letters = stack (upper, lower), + fresh stack\n", out);
}
