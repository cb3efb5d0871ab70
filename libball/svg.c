/* SPDX-License-Identifier: MIT */
/* SVG pictures of a position (ball_position_to_svg). */
#include <string.h>

#include "game.h"
#include "record_sink.h"

#define CELL 40   /* a square's side, in SVG units */
#define MARGIN 24 /* room for the column letters and row numbers */
#define WIDTH (2 * MARGIN + BALL_NUM_COLS * CELL)
#define HEIGHT (2 * MARGIN + BALL_NUM_ROWS * CELL)

static const char *const TEAM_FILL[2] = {"#c0392b", "#1f4e9c"}; /* ATK red, DEF blue */

/* The centre of square sq. */
static void centre(int sq, int *x, int *y)
{
    *x = MARGIN + (ball_square_col(sq) - 1) * CELL + CELL / 2;
    *y = MARGIN + (BALL_NUM_ROWS - ball_square_row(sq)) * CELL + CELL / 2;
}

/* One piece of code p on square sq: a group with its classes; `level` is
 * -1 for a single piece, BALL_UPPER or BALL_LOWER in a stack. */
static void put_piece(sink *s, int p, int sq, int level)
{
    char name[BALL_SQUARE_TEXT_MAX];
    int x, y, team = (p & BALL_PIECE_DEF) ? 1 : 0, type = p & BALL_PIECE_TYPE_MASK;
    double scale = level < 0 ? 1.0 : 0.78;
    int dx = level < 0 ? 0 : level == BALL_UPPER ? 6 : -6;
    ball_square_to_text(sq, name, sizeof name);
    centre(sq, &x, &y);
    sink_printf(s, "<g class=\"piece %s %c%s%s%s%s\" data-square=\"%s\" "
                   "transform=\"translate(%d %d) scale(%.2f)%s\">",
                team ? "def" : "atk", "?xos"[type], (p & BALL_PIECE_BALL) ? " ball" : "",
                (p & BALL_PIECE_DOWN) ? " down" : "", (p & BALL_PIECE_RESTRICTED) ? " restricted" : "",
                level < 0 ? "" : level == BALL_UPPER ? " upper" : " lower", name, x + dx, y - dx, scale,
                (p & BALL_PIECE_DOWN) ? " rotate(90)" : "");
    const char *style = (p & BALL_PIECE_DOWN) ? " fill-opacity=\"0.55\" stroke-dasharray=\"3 2\"" : "";
    if (type == BALL_O)
        sink_printf(s, "<circle r=\"15\" fill=\"%s\" stroke=\"#111\" stroke-width=\"1.5\"%s/>",
                    TEAM_FILL[team], style);
    else if (type == BALL_SQUARE)
        sink_printf(s, "<rect x=\"-14\" y=\"-14\" width=\"28\" height=\"28\" rx=\"3\" fill=\"%s\" "
                       "stroke=\"#111\" stroke-width=\"1.5\"%s/>", TEAM_FILL[team], style);
    else
        sink_printf(s, "<polygon points=\"0,-17 17,0 0,17 -17,0\" fill=\"%s\" stroke=\"#111\" "
                       "stroke-width=\"1.5\"%s/>", TEAM_FILL[team], style);
    /* the letter: white on the team's colour; dark on the faded fill of a
     * knocked-down piece, where white falls below WCAG AA's 4.5:1 */
    sink_printf(s, "<text text-anchor=\"middle\" dominant-baseline=\"central\" font-family=\"sans-serif\" "
                   "font-weight=\"bold\" font-size=\"14\" fill=\"%s\">%c</text>",
                (p & BALL_PIECE_DOWN) ? "#111" : "#fff", team ? "?xos"[type] : "?XOS"[type]);
    if (p & BALL_PIECE_BALL)
        sink_puts(s, "<circle class=\"held-ball\" cx=\"11\" cy=\"11\" r=\"6\" fill=\"#f5b301\" "
                     "stroke=\"#111\" stroke-width=\"1.2\"/>");
    if (p & BALL_PIECE_RESTRICTED)
        sink_puts(s, "<g class=\"restricted-mark\"><circle cx=\"-12\" cy=\"-12\" r=\"6.5\" fill=\"#fff\" "
                     "stroke=\"#c00\" stroke-width=\"1.5\"/><text x=\"-12\" y=\"-12\" text-anchor=\"middle\" "
                     "dominant-baseline=\"central\" font-family=\"sans-serif\" font-weight=\"bold\" "
                     "font-size=\"10\" fill=\"#c00\">!</text></g>");
    sink_puts(s, "</g>\n");
}

/* A line from square a (or point) to square b, with an arrow head. */
static void put_arrow(sink *s, int x1, int y1, int x2, int y2, int dashed)
{
    sink_printf(s, "<line class=\"arrow%s\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#1b7f3b\" "
                   "stroke-width=\"4\" stroke-opacity=\"0.85\" marker-end=\"url(#head)\"%s/>\n",
                dashed ? " option" : "", x1, y1, x2, y2, dashed ? " stroke-dasharray=\"7 5\"" : "");
}

/* The squares (playable light, the others dark), the end zones of depth
 * @p zone and the frame. */
static void put_board(sink *s, int zone)
{
    sink_printf(s, "<rect width=\"%d\" height=\"%d\" fill=\"#faf7f0\"/>\n", WIDTH, HEIGHT);
    /* the squares: playable light, the others dark */
    sink_puts(s, "<g class=\"board\">\n");
    for (int row = BALL_NUM_ROWS; row >= 1; row--)
        for (int col = 1; col <= BALL_NUM_COLS; col++)
            sink_printf(s, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
                        MARGIN + (col - 1) * CELL, MARGIN + (BALL_NUM_ROWS - row) * CELL, CELL, CELL,
                        (col + row) % 2 == 0 ? "#efe3c4" : "#9c8560");
    sink_puts(s, "</g>\n");
    /* the end zones: ATK scores at the top, DEF at the bottom */
    sink_printf(s, "<rect class=\"end-zone atk-scores\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                   "fill=\"%s\" fill-opacity=\"0.22\" stroke=\"%s\" stroke-width=\"2\"/>\n",
                MARGIN, MARGIN, BALL_NUM_COLS * CELL, zone * CELL, TEAM_FILL[0], TEAM_FILL[0]);
    sink_printf(s, "<rect class=\"end-zone def-scores\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                   "fill=\"%s\" fill-opacity=\"0.22\" stroke=\"%s\" stroke-width=\"2\"/>\n",
                MARGIN, MARGIN + (BALL_NUM_ROWS - zone) * CELL, BALL_NUM_COLS * CELL, zone * CELL,
                TEAM_FILL[1], TEAM_FILL[1]);
    sink_printf(s, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333\" "
                   "stroke-width=\"1.5\"/>\n", MARGIN, MARGIN, BALL_NUM_COLS * CELL, BALL_NUM_ROWS * CELL);
}

/* The column letters and the row numbers around the board. */
static void put_coords(sink *s)
{
    sink_puts(s, "<g class=\"coords\" font-family=\"sans-serif\" font-size=\"13\" fill=\"#333\" "
                 "text-anchor=\"middle\">\n");
    for (int col = 1; col <= BALL_NUM_COLS; col++) {
        int x = MARGIN + (col - 1) * CELL + CELL / 2;
        sink_printf(s, "<text x=\"%d\" y=\"%d\">%c</text><text x=\"%d\" y=\"%d\">%c</text>\n", x,
                    MARGIN - 8, 'A' + col - 1, x, HEIGHT - 8, 'A' + col - 1);
    }
    for (int row = 1; row <= BALL_NUM_ROWS; row++) {
        int y = MARGIN + (BALL_NUM_ROWS - row) * CELL + CELL / 2 + 5;
        sink_printf(s, "<text x=\"%d\" y=\"%d\">%d</text><text x=\"%d\" y=\"%d\">%d</text>\n",
                    MARGIN / 2, y, row, WIDTH - MARGIN / 2, y, row);
    }
    sink_puts(s, "</g>\n");
}

/* The @p n highlighted squares. */
static void put_highlights(sink *s, const int *highlight, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char name[BALL_SQUARE_TEXT_MAX];
        int x, y;
        centre(highlight[i], &x, &y);
        ball_square_to_text(highlight[i], name, sizeof name);
        sink_printf(s, "<rect class=\"highlight\" data-square=\"%s\" x=\"%d\" y=\"%d\" width=\"%d\" "
                       "height=\"%d\" fill=\"#ffe066\" fill-opacity=\"0.6\" stroke=\"#e0a800\" "
                       "stroke-width=\"3\"/>\n", name, x - CELL / 2 + 2, y - CELL / 2 + 2, CELL - 4, CELL - 4);
    }
}

/* The pieces (stacks as two) and a loose ball, over the fresh stacks' rings. */
static void put_pieces(sink *s, ball_game *game)
{
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++) {
        int st = ball_square_state(game, sq), x, y;
        centre(sq, &x, &y);
        if (st & BALL_SQ_FRESH)
            sink_printf(s, "<circle class=\"fresh\" cx=\"%d\" cy=\"%d\" r=\"18.5\" fill=\"none\" "
                           "stroke=\"#e0a800\" stroke-width=\"2.5\" stroke-dasharray=\"4 3\"/>\n", x, y);
        if (st & BALL_SQ_STACK) {
            put_piece(s, ball_piece(game, sq, BALL_LOWER), sq, BALL_LOWER);
            put_piece(s, ball_piece(game, sq, BALL_UPPER), sq, BALL_UPPER);
        } else if (st & BALL_SQ_PIECE) {
            put_piece(s, ball_piece(game, sq, BALL_UPPER), sq, -1);
        } else if (st & BALL_SQ_LOOSE_BALL) {
            char name[BALL_SQUARE_TEXT_MAX];
            ball_square_to_text(sq, name, sizeof name);
            sink_printf(s, "<circle class=\"loose-ball\" data-square=\"%s\" cx=\"%d\" cy=\"%d\" r=\"9\" "
                           "fill=\"#f5b301\" stroke=\"#111\" stroke-width=\"1.5\"/>\n", name, x, y);
        }
    }
}

/* The arrows of action @p arrow: from, to, and on to its option square. */
static void put_action(sink *s, ball_action arrow)
{
    int from = ball_action_from(arrow), to = ball_action_to(arrow), opt = ball_action_option(arrow);
    int kind = ball_action_kind(arrow), x1, y1, x2, y2, x3, y3;
    if (from != BALL_NO_SQUARE && to != BALL_NO_SQUARE) {
        centre(from, &x1, &y1);
        centre(to, &x2, &y2);
        put_arrow(s, x1, y1, x2, y2, 0);
        if (opt != BALL_NO_SQUARE) {
            centre(opt, &x3, &y3);
            if (kind == BALL_DODGE)
                put_arrow(s, x2, y2, x3, y3, 1); /* on to the exit */
            else if (kind == BALL_TACTICAL_DODGE)
                put_arrow(s, (x1 + x2) / 2, (y1 + y2) / 2, x3, y3, 1); /* the pushed piece */
            else
                put_arrow(s, x1, y1, x3, y3, 1); /* the lower piece of a release */
        }
    }
}

int ball_position_to_svg(ball_game *game, const int *highlight, size_t n, ball_action arrow, int flags,
                         char *buf, size_t len)
{
    sink s;
    if (!game)
        return BALL_E_ARG;
    if (flags & ~(BALL_DRAW_LEGEND | BALL_DRAW_NO_COORDS))
        return game_error(game, BALL_E_ARG, "unknown flags 0x%x", (unsigned)flags);
    if (!highlight && n > 0)
        return game_error(game, BALL_E_ARG, "NULL highlight list of %zu squares", n);
    for (size_t i = 0; i < n; i++)
        if (highlight[i] < 0 || highlight[i] >= BALL_NUM_SQUARES)
            return game_error(game, BALL_E_RANGE, "highlighted square %d is not 0-110", highlight[i]);
    if (arrow != BALL_ACTION_NONE && ball_action_kind(arrow) < 0)
        return game_error(game, BALL_E_ARG, "0x%08x is not an action", (unsigned)arrow);
    int rc = sink_open(game, &s, buf, len);
    if (rc < 0)
        return rc;
    char bpn[BALL_BPN_MAX];
    ball_position_to_text(game, bpn, sizeof bpn);

    sink_printf(&s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
                    "viewBox=\"0 0 %d %d\">\n", WIDTH, HEIGHT, WIDTH, HEIGHT);
    sink_printf(&s, "<title>%s</title>\n", bpn); /* BPN has no XML special character */
    sink_puts(&s, "<defs><marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"7\" refY=\"5\" markerWidth=\"4\" "
                  "markerHeight=\"4\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#1b7f3b\"/>"
                  "</marker></defs>\n");
    put_board(&s, game->rules.rules.end_zone_depth);
    if (!(flags & BALL_DRAW_NO_COORDS))
        put_coords(&s);
    put_highlights(&s, highlight, n);
    put_pieces(&s, game);
    if (arrow != BALL_ACTION_NONE)
        put_action(&s, arrow);
    sink_puts(&s, "</svg>\n");
    return sink_close(game, &s, "SVG");
}
