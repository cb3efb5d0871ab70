/* SPDX-License-Identifier: MIT */
/*
 * demo — a complete game of BALL between two tiny built-in players
 * (examples/common/players.c).
 *
 *   ATK: the greedy player. For every legal decision it plays the decision
 *        (ball_apply), scores the resulting position, and takes it back
 *        (ball_undo). It keeps the best score; ties go to the first
 *        decision in the library's fixed order. The score makes it prefer,
 *        in this order: an immediate touchdown, keeping the ball, bringing
 *        the ball closer to row 17, knocking DEF pieces down, advancing its
 *        own pieces.
 *   DEF: the random player, which picks uniformly among the legal
 *        decisions with a small xorshift generator and a fixed seed, so
 *        every run prints the same game.
 *
 * The game uses the turn limit of automated games (AUTO_TURN_LIMIT, 100
 * turns) so that it always ends. It prints a legend and the first board
 * (with the library's legend of the letters, BALL_DRAW_LEGEND), then after
 * each turn the decisions of that turn and the board.
 *
 * Usage: demo [SEED]   (SEED: a non-zero number for the random player)
 */
#include "args.h"
#include "auto_games.h"
#include "ball.h"
#include "board.h"
#include "players.h"

#include <stdint.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    player players[2]; /* indexed by team: BALL_ATK, BALL_DEF */
    uint32_t seed = 0;  /* 0: the players' fixed default seed */
    ball_rules rules;
    ball_game *g = NULL;
    ball_action acts[BALL_MAX_ACTIONS];
    char err[256];
    int rc;

    if (argc > 1) {
        long v = argc == 2 ? parse_number(argv[1], 1, 4294967295L) : -1;
        seed = (uint32_t)v;
        if (v < 0) {
            fputs("usage: demo [SEED]  (SEED: a non-zero number)\n", stderr);
            return 2;
        }
    }
    player_parse("greedy", 0, seed, &players[BALL_ATK]);
    player_parse("random", 0, seed, &players[BALL_DEF]);

    ball_rules_init(&rules, sizeof rules);
    rules.turn_limit = AUTO_TURN_LIMIT;
    rc = ball_game_new(&g, &rules, err, sizeof err);
    if (rc != BALL_OK) {
        fprintf(stderr, "demo: cannot create a game: %s\n", *err ? err : ball_strerror(rc));
        return 1;
    }

    puts("BALL demo: ATK = greedy player, DEF = random player");
    /* What the board and the turn lines show: docs/rules.md "Reading the
     * diagrams" and R4.3, docs/notation.md N2 (the example is played in
     * this game, turn 6). At most 8 lines, each within 80 columns. */
    fputs("ATK's pieces are X O S (upper case); ATK moves up and scores on row 17.\n"
          "DEF's pieces are x o s (lower case); DEF scores on row 1. After a piece:\n"
          "* it holds the ball, _ it is knocked down, ! it is restricted this turn;\n"
          "@ is the loose ball; two letters a stack (upper piece first), + a fresh one.\n"
          "Each turn a coach has 2 PA (action points; a move costs 1, a long pass 2)\n"
          "for its actions, then says end. F14-D16 moves a piece from F14 to D16;\n"
          "D12-F14/D12 jumps to F14 and pushes the piece it jumped over to D12, which\n"
          "is knocked down there. = hands the ball off, ^ and ^^ pass it.\n", stdout);
    putchar('\n');
    /* The first board with the library's own two-line legend of the letters
     * (BALL_DRAW_LEGEND), printed once; the later boards without it. */
    {
        char text[4096]; /* the board and legend are about 1,800 bytes */
        if (ball_position_to_board_text(g, NULL, 0, BALL_DRAW_LEGEND, text, sizeof text) >= 0)
            fputs(text, stdout);
        else
            board_print(g, NULL, stdout);
    }

    while (ball_result(g) == BALL_ONGOING) {
        int turn = ball_turn(g);
        int side = ball_side(g);

        printf("\nTurn %d, %s (%s):", turn, side == BALL_ATK ? "ATK" : "DEF",
               player_name(&players[side]));
        /* One turn: decisions until the turn number changes or the game
         * ends (the hand-over happens inside ball_apply). */
        while (ball_result(g) == BALL_ONGOING && ball_turn(g) == turn) {
            char text[BALL_ACTION_TEXT_MAX];
            ball_action a;
            int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
            if (n <= 0) {
                fprintf(stderr, "\ndemo: no legal decision (%d)\n", n);
                ball_game_free(g);
                return 1;
            }
            if (player_choose(&players[side], g, acts, n, &a) != BALL_OK ||
                ball_action_to_text(a, text, sizeof text) < 0 ||
                ball_apply(g, a) != BALL_OK) {
                fprintf(stderr, "\ndemo: cannot play: %s\n", ball_errmsg(g));
                ball_game_free(g);
                return 1;
            }
            printf(" %s", text);
        }
        putchar('\n');
        board_print(g, NULL, stdout);
    }

    switch (ball_result(g)) {
    case BALL_ATK_WON: printf("\nTouchdown! ATK (greedy) wins at turn %d.\n", ball_turn(g)); break;
    case BALL_DEF_WON: printf("\nTouchdown! DEF (random) wins at turn %d.\n", ball_turn(g)); break;
    default:           printf("\nDraw: turn limit %u reached.\n", rules.turn_limit); break;
    }
    ball_game_free(g);
    return 0;
}
