/* SPDX-License-Identifier: MIT */
/* The text diagram of a position (ball_position_to_board_text): the one
 * board of the tool, the examples and the bindings. */
#include <string.h>

#include "game.h"
#include "record_sink.h"

#define COLUMN_WIDTH 6
#define CELL_MAX 10 /* two pieces with every mark, '+', NUL */
#define HEADER "   A     B     C     D     E     F     G     H     I     J     K     L     M\n"

/* Appends the letter of piece code p and its marks. */
static char *piece_text(int p, char *out)
{
    char letter = "?XOS"[p & BALL_PIECE_TYPE_MASK];
    *out++ = (p & BALL_PIECE_DEF) ? (char)(letter - 'A' + 'a') : letter;
    if (p & BALL_PIECE_BALL)
        *out++ = '*';
    if (p & BALL_PIECE_DOWN)
        *out++ = '_';
    if (p & BALL_PIECE_RESTRICTED)
        *out++ = '!';
    return out;
}

/* The text of square sq. */
static void cell_text(const ball_game *g, int sq, char out[CELL_MAX])
{
    int st = ball_square_state(g, sq);
    if (!(st & BALL_SQ_PIECE)) {
        strcpy(out, (st & BALL_SQ_LOOSE_BALL) ? "@" : ".");
        return;
    }
    out = piece_text(ball_piece(g, sq, BALL_UPPER), out);
    if (st & BALL_SQ_STACK)
        out = piece_text(ball_piece(g, sq, BALL_LOWER), out);
    if (st & BALL_SQ_FRESH)
        *out++ = '+';
    *out = '\0';
}

/* The line that names the rows of an end zone, on its own line above
 * (ATK's) or below (DEF's) the board: a label beside the rows would make
 * them 99 columns wide, and the board must fit an 80-column terminal. */
static void zone_line(sink *s, const char *side, int from, int to)
{
    if (from == to)
        sink_printf(s, "   end zone: %s scores in row %d\n", side, from);
    else
        sink_printf(s, "   end zone: %s scores in rows %d-%d\n", side, from, to);
}

int ball_position_to_board_text(ball_game *game, const int *highlight, size_t n, int flags,
                                 char *buf, size_t len)
{
    sink s;
    unsigned char marked[BALL_NUM_SQUARES] = {0};
    if (!game)
        return BALL_E_ARG;
    if (flags & ~BALL_DRAW_LEGEND)
        return game_error(game, BALL_E_ARG, "unknown flags 0x%x", (unsigned)flags);
    if (!highlight && n > 0)
        return game_error(game, BALL_E_ARG, "NULL highlight list of %zu squares", n);
    for (size_t i = 0; i < n; i++) {
        if (highlight[i] < 0 || highlight[i] >= BALL_NUM_SQUARES)
            return game_error(game, BALL_E_RANGE, "highlighted square %d is not 0-110", highlight[i]);
        marked[highlight[i]] = 1;
    }
    int rc = sink_open(game, &s, buf, len);
    if (rc < 0)
        return rc;
    int zone = game->rules.rules.end_zone_depth;
    zone_line(&s, "ATK", BALL_NUM_ROWS - zone + 1, BALL_NUM_ROWS);
    sink_puts(&s, HEADER);
    for (int row = BALL_NUM_ROWS; row >= 1; row--) {
        char line[3 + COLUMN_WIDTH * BALL_NUM_COLS + CELL_MAX + 1];
        size_t used;
        memset(line, ' ', sizeof line);
        line[0] = (char)(row >= 10 ? '1' : ' ');
        line[1] = (char)('0' + row % 10);
        for (int col = 1; col <= BALL_NUM_COLS; col++) {
            int sq = ball_square_at(col, row);
            char cell[CELL_MAX];
            if (sq < 0)
                continue; /* not playable */
            cell_text(game, sq, cell);
            char *at = line + 3 + COLUMN_WIDTH * (col - 1);
            if (marked[sq])
                at[-1] = '>'; /* in the blank before the cell */
            memcpy(at, cell, strlen(cell));
        }
        used = sizeof line;
        while (used > 0 && line[used - 1] == ' ')
            used--; /* no trailing blanks */
        sink_put(&s, line, used);
        sink_puts(&s, "\n");
    }
    sink_puts(&s, HEADER);
    zone_line(&s, "DEF", 1, zone);
    if (flags & BALL_DRAW_LEGEND)
        sink_puts(&s, "X O S = ATK, x o s = DEF; * ball, _ knocked down, ! restricted,\n"
                      "@ loose ball, two letters = stack (upper, lower), + fresh stack\n");
    return sink_close(game, &s, "board text");
}
