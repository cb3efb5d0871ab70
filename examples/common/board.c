/* The text board diagram of the examples; see board.h. */
#include "board.h"

#include <string.h>

void board_square_text(ball_game *g, int sq, char out[BOARD_CELL_MAX])
{
    int st = ball_square_state(g, sq);
    int levels = (st > 0 && (st & BALL_SQ_STACK)) ? 2 : 1;
    if (st < 0 || !(st & BALL_SQ_PIECE)) {
        strcpy(out, (st > 0 && (st & BALL_SQ_LOOSE_BALL)) ? "@" : ".");
        return;
    }
    for (int level = 0; level < levels; level++) {
        int p = ball_piece(g, sq, level);
        char letter = "?XOS"[p > 0 ? p & BALL_PIECE_TYPE_MASK : 0];
        *out++ = (p & BALL_PIECE_DEF) ? (char)(letter - 'A' + 'a') : letter;
        if (p & BALL_PIECE_BALL)
            *out++ = '*';
        if (p & BALL_PIECE_DOWN)
            *out++ = '_';
        if (p & BALL_PIECE_RESTRICTED)
            *out++ = '!';
    }
    if (st & BALL_SQ_FRESH)
        *out++ = '+';
    *out = '\0';
}

void board_print(ball_game *g, const unsigned char *marked, FILE *out)
{
    fputs("   A     B     C     D     E     F     G     H     I     J     K     L     M\n", out);
    for (int row = BALL_NUM_ROWS; row >= 1; row--) {
        char line[3 + 6 * BALL_NUM_COLS + 1];
        int len;
        memset(line, ' ', sizeof line);
        line[0] = (char)(row >= 10 ? '1' : ' ');
        line[1] = (char)('0' + row % 10);
        for (int col = 1; col <= BALL_NUM_COLS; col++) {
            int sq = ball_square_at(col, row);
            char cell[BOARD_CELL_MAX + 1];
            if (sq < 0)
                continue; /* not playable */
            if (marked && marked[sq]) {
                cell[0] = '>';
                board_square_text(g, sq, cell + 1);
            } else {
                board_square_text(g, sq, cell);
            }
            /* the mark goes in the blank before the cell */
            memcpy(line + 3 + 6 * (col - 1) - (cell[0] == '>'), cell, strlen(cell));
        }
        len = (int)sizeof line - 1;
        while (len > 0 && line[len - 1] == ' ')
            len--; /* no trailing blanks */
        fprintf(out, "%.*s\n", len, line);
    }
}

void board_print_legend(FILE *out)
{
    fputs("X O S = ATK, x o s = DEF; * ball, _ knocked down, ! restricted,\n"
          "@ loose ball, two letters = stack (upper, lower), + fresh stack\n", out);
}
