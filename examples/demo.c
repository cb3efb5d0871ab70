/*
 * demo — a complete game of BALL between two tiny built-in players.
 *
 *   ATK: a deterministic greedy player. For every legal decision it plays
 *        the decision (ball_apply), scores the resulting position, and takes
 *        it back (ball_undo). It keeps the best score; ties go to the first
 *        decision in the library's fixed order. The score makes it prefer,
 *        in this order: an immediate touchdown, keeping the ball, bringing
 *        the ball closer to row 17, knocking DEF pieces down, advancing its
 *        own pieces.
 *   DEF: a pseudo-random player that picks uniformly among the legal
 *        decisions with a small xorshift generator and a fixed seed, so
 *        every run prints the same game.
 *
 * The game uses a turn limit of 60 so that it always ends. After each turn
 * the program prints the decisions of that turn and the board.
 *
 * Usage: demo [SEED]   (SEED: a non-zero number for the random player)
 */
#include "ball.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TURN_LIMIT 60

/* ------------------------------------------------------------ printing */

/* One playable square as text: "." vacant, "@" loose ball, a piece letter
 * (upper case ATK, lower case DEF) with marks * ball, _ knocked down,
 * ! restricted; a stack is its upper then its lower piece, + when fresh. */
static void square_text(ball_game *g, int sq, char *out)
{
    int st = ball_square_state(g, sq);
    int levels = (st & BALL_SQ_STACK) ? 2 : 1;
    if (!(st & BALL_SQ_PIECE)) {
        strcpy(out, (st & BALL_SQ_LOOSE_BALL) ? "@" : ".");
        return;
    }
    for (int level = 0; level < levels; level++) {
        int p = ball_piece(g, sq, level);
        char letter = "?XOS"[p & BALL_PIECE_TYPE_MASK];
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

/* Prints the board, row 17 at the top; unplayable squares stay blank. */
static void print_board(ball_game *g)
{
    puts("   A     B     C     D     E     F     G     H     I     J     K     L     M");
    for (int row = BALL_NUM_ROWS; row >= 1; row--) {
        char line[3 + 6 * BALL_NUM_COLS + 1];
        int len;
        memset(line, ' ', sizeof line);
        line[0] = (char)(row >= 10 ? '1' : ' ');
        line[1] = (char)('0' + row % 10);
        for (int col = 1; col <= BALL_NUM_COLS; col++) {
            int sq = ball_square_at(col, row);
            char cell[8];
            if (sq < 0)
                continue; /* not playable */
            square_text(g, sq, cell);
            memcpy(line + 3 + 6 * (col - 1), cell, strlen(cell));
        }
        len = (int)sizeof line - 1;
        while (len > 0 && line[len - 1] == ' ')
            len--; /* no trailing blanks */
        printf("%.*s\n", len, line);
    }
}

/* ------------------------------------------------------------ players */

/* How good the position is for ATK (higher is better). */
static long evaluate(ball_game *g)
{
    long score = 0;
    int result = ball_result(g);
    int ball_sq = ball_ball_square(g);
    int carrier = ball_piece(g, ball_sq, BALL_UPPER);
    int ball_row = ball_square_row(ball_sq);

    if (result == BALL_ATK_WON)
        return 1000000;
    if (result == BALL_DEF_WON)
        return -1000000;

    if (carrier > 0 && !(carrier & BALL_PIECE_DEF))
        score += 1000 + 100 * ball_row;          /* ATK holds the ball */
    else if (carrier > 0)
        score -= 1000 + 100 * (18 - ball_row);   /* DEF holds it */
    else
        score += 50 * ball_row;                  /* loose ball */

    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++) {
        int p = ball_piece(g, sq, BALL_UPPER);
        if (p <= 0)
            continue;
        if (p & BALL_PIECE_DEF) {
            if (p & BALL_PIECE_DOWN)
                score += 20;                     /* DEF piece knocked down */
        } else {
            if (p & BALL_PIECE_DOWN)
                score -= 20;
            score += ball_square_row(sq);        /* ATK pieces move up */
        }
    }
    return score;
}

/* The greedy player: one decision of lookahead with apply/undo. */
static ball_action greedy_choice(ball_game *g, const ball_action *acts, int n)
{
    ball_action best = acts[0];
    long best_score = 0;
    for (int i = 0; i < n; i++) {
        long score;
        if (ball_apply(g, acts[i]) != BALL_OK) {
            fprintf(stderr, "demo: lookahead failed: %s\n", ball_errmsg(g));
            exit(1);
        }
        score = evaluate(g);
        if (ball_undo(g) != BALL_OK) {
            fputs("demo: undo failed\n", stderr);
            exit(1);
        }
        if (i == 0 || score > best_score) {
            best = acts[i];
            best_score = score;
        }
    }
    return best;
}

/* xorshift32: a tiny pseudo-random generator; *state must not be 0. */
static uint32_t xorshift32(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

/* The random player: any legal decision, uniformly. */
static ball_action random_choice(uint32_t *rng, const ball_action *acts, int n)
{
    return acts[xorshift32(rng) % (uint32_t)n];
}

/* ------------------------------------------------------------ the game */

int main(int argc, char **argv)
{
    uint32_t rng = 2463534242u; /* the random player's state (seed) */
    ball_rules rules;
    ball_game *g = NULL;
    ball_action acts[BALL_MAX_ACTIONS];
    int rc;

    if (argc > 1) {
        rng = (uint32_t)strtoul(argv[1], NULL, 10);
        if (rng == 0) {
            fputs("usage: demo [SEED]  (SEED: a non-zero number)\n", stderr);
            return 2;
        }
    }

    ball_rules_init(&rules);
    rules.turn_limit = TURN_LIMIT;
    rc = ball_game_new(&g, &rules);
    if (rc != BALL_OK) {
        fprintf(stderr, "demo: cannot create a game: %s\n", ball_strerror(rc));
        return 1;
    }

    puts("BALL demo: ATK = greedy player, DEF = random player");
    puts("X O S = ATK, x o s = DEF; * ball, _ knocked down, ! restricted,");
    puts("@ loose ball, two letters = stack (upper, lower), + fresh stack\n");
    print_board(g);

    while (ball_result(g) == BALL_ONGOING) {
        unsigned turn = ball_turn(g);
        int side = ball_side(g);

        printf("\nTurn %u, %s (%s):", turn, side == BALL_ATK ? "ATK" : "DEF",
               side == BALL_ATK ? "greedy" : "random");
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
            a = side == BALL_ATK ? greedy_choice(g, acts, n)
                                 : random_choice(&rng, acts, n);
            if (ball_action_text(a, text, sizeof text) < 0 ||
                ball_apply(g, a) != BALL_OK) {
                fprintf(stderr, "\ndemo: cannot play: %s\n", ball_errmsg(g));
                ball_game_free(g);
                return 1;
            }
            printf(" %s", text);
        }
        putchar('\n');
        print_board(g);
    }

    switch (ball_result(g)) {
    case BALL_ATK_WON: printf("\nTouchdown! ATK (greedy) wins at turn %u.\n", ball_turn(g)); break;
    case BALL_DEF_WON: printf("\nTouchdown! DEF (random) wins at turn %u.\n", ball_turn(g)); break;
    default:           printf("\nDraw: turn limit %u reached.\n", rules.turn_limit); break;
    }
    ball_game_free(g);
    return 0;
}
